static char help[] = "Block ILU(k) (SpTrsvBILU) against PETSc's native MATSEQBAIJ ILU: solves for block sizes 1..8 and\n\
levels 0..2, AIJ input cut into blocks, the shared matrices, the zero-pivot rules, refactorization, bad input and\n\
the value maps of the GPU block ILU (bilumap.c).\n\
  -matdir <dir>  directory of the Matrix Market test matrices (default tests/data/matrices: run from the repository root)\n\n";

#include "isai_common.h"
#include "../../examples/common/mmload.h"

static char matdir[PETSC_MAX_PATH_LEN] = "tests/data/matrices";

/* our block factor of the block CSR of A (block size bs, 0 = A's); errorif: zero pivots and NaN/Inf are errors */
static PetscErrorCode OurBILUIf(Mat A, PetscInt bs, const MatFactorInfo *info, PetscBool errorif, SpTrsvBILU *f)
{
  SpTrsvBlockCSR B;
  PetscErrorCode ierr;

  PetscFunctionBeginUser;
  PetscCall(SpTrsvBlockCSRGet(A, bs, &B));
  ierr = SpTrsvBILUCreate(B.n, B.bs, f);
  if (!ierr) (*f)->erroriffailure = errorif;
  if (!ierr) ierr = SpTrsvBILUSymbolic(&B, NULL, NULL, info, *f);
  if (!ierr) ierr = SpTrsvBILUNumeric(&B, info, *f);
  PetscCall(SpTrsvBlockCSRRestore(&B));
  PetscCall(ierr);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode OurBILU(Mat A, PetscInt bs, const MatFactorInfo *info, SpTrsvBILU *f)
{
  PetscFunctionBeginUser;
  PetscCall(OurBILUIf(A, bs, info, PETSC_FALSE, f));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* worst relative difference of our solve and PETSc's MatSolve over nrhs random right-hand sides */
static PetscErrorCode CompareSolves(Mat F, SpTrsvBILU f, PetscRandom rnd, PetscInt nrhs, PetscReal *worst)
{
  Vec          b, x, xn;
  PetscScalar *xa;
  PetscReal    d = 0;

  PetscFunctionBeginUser;
  PetscCall(MatCreateVecs(F, &x, &b));
  PetscCall(VecDuplicate(x, &xn));
  *worst = 0;
  for (PetscInt t = 0; t < nrhs; t++) {
    const PetscScalar *ba;
    PetscCall(VecSetRandom(b, rnd));
    PetscCall(MatSolve(F, b, xn));
    PetscCall(VecGetArrayRead(b, &ba));
    PetscCall(VecGetArrayWrite(x, &xa));
    PetscCall(SpTrsvBILUSolve(f, ba, xa));
    PetscCall(VecRestoreArrayWrite(x, &xa));
    PetscCall(VecRestoreArrayRead(b, &ba));
    PetscCall(VecRelDiffInf(x, xn, xn, &d));
    *worst = PetscMax(*worst, d);
  }
  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&xn));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscBool SameFactor(SpTrsvBILU f, SpTrsvBILU g)
{
  const size_t bs2 = (size_t)f->bs * f->bs;

  if (f->n != g->n || f->bs != g->bs || f->L->i[f->n] != g->L->i[g->n] || f->U->i[f->n] != g->U->i[g->n]) return PETSC_FALSE;
  if (memcmp(f->L->j, g->L->j, sizeof(PetscInt) * f->L->i[f->n]) || memcmp(f->U->j, g->U->j, sizeof(PetscInt) * f->U->i[f->n])) return PETSC_FALSE;
  return (PetscBool)(!memcmp(f->L->a, g->L->a, sizeof(PetscScalar) * bs2 * f->L->i[f->n]) && !memcmp(f->U->a, g->U->a, sizeof(PetscScalar) * bs2 * f->U->i[f->n]) && !memcmp(f->U->idiag, g->U->idiag, sizeof(PetscScalar) * bs2 * f->n));
}

/* random block grids: PETSc's BAIJ ILU(levels) vs ours, from the BAIJ matrix and from its AIJ copy */
static PetscErrorCode TestGrid(PetscRandom rnd, PetscInt bs, PetscInt levels)
{
  Mat            B, A, F;
  MatFactorInfo  info;
  MatFactorError err;
  SpTrsvBILU     f, g;
  PetscReal      d = 0;

  PetscFunctionBeginUser;
  PetscCall(BlockGrid(7, bs, 1, 1.0, rnd, &B));
  PetscCall(DefaultInfo(levels, &info));
  PetscCall(NativeILU(B, &info, &F, &err));
  PetscCall(OurBILU(B, 0, &info, &f));
  PetscCall(CompareSolves(F, f, rnd, 2, &d));
  EXPECT(!err && d < 1e-12, "BILU(%" PetscInt_FMT ") bs %" PetscInt_FMT ": solve differs from PETSc's BAIJ ILU by %g (factor error %d)", levels, bs, (double)d, (int)err);
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "BILU(%" PetscInt_FMT ") bs %" PetscInt_FMT ": %" PetscInt_FMT " + %" PetscInt_FMT " blocks, solve vs PETSc %.1e\n", levels, bs, f->L->i[f->n], f->U->i[f->n] + f->n, (double)d));
  /* the same matrix as AIJ, cut into blocks by us: the same factor, bit for bit */
  PetscCall(MatConvert(B, MATSEQAIJ, MAT_INITIAL_MATRIX, &A));
  PetscCall(OurBILU(A, bs, &info, &g));
  EXPECT(SameFactor(f, g), "BILU(%" PetscInt_FMT ") bs %" PetscInt_FMT ": the factor of the AIJ copy differs from the factor of the BAIJ matrix", levels, bs);
  if (bs == 1) { /* block size 1 is the scalar ILU(k) of the plugin */
    SpTrsvFactor s;
    PetscCall(SpTrsvFactorCreate(MAT_FACTOR_ILU, f->n, &s));
    PetscCall(SpTrsvFactorILUSymbolic(A, NULL, NULL, &info, s));
    PetscCall(SpTrsvFactorILUNumeric(A, &info, s));
    EXPECT(s->L->i[f->n] == f->L->i[f->n] && !memcmp(s->L->a, f->L->a, sizeof(PetscScalar) * f->L->i[f->n]) && !memcmp(s->U->a, f->U->a, sizeof(PetscScalar) * f->U->i[f->n]) && !memcmp(s->U->idiag, f->U->idiag, sizeof(PetscScalar) * f->n), "BILU(%" PetscInt_FMT ") bs 1 differs from the scalar ILU", levels);
    PetscCall(SpTrsvFactorDestroy(&s));
  }
  /* refactorization on the same pattern equals a fresh factorization */
  PetscCall(MatScale(B, 2.0));
  PetscCall(MatShift(B, 0.25));
  {
    SpTrsvBlockCSR C;
    SpTrsvBILU     h;
    PetscCall(SpTrsvBlockCSRGet(B, 0, &C));
    PetscCall(SpTrsvBILUNumeric(&C, &info, f));
    PetscCall(SpTrsvBlockCSRRestore(&C));
    PetscCall(OurBILU(B, 0, &info, &h));
    EXPECT(SameFactor(f, h), "BILU(%" PetscInt_FMT ") bs %" PetscInt_FMT ": refactorization differs from a fresh factorization", levels, bs);
    PetscCall(SpTrsvBILUDestroy(&h));
  }
  PetscCall(SpTrsvBILUDestroy(&f));
  PetscCall(SpTrsvBILUDestroy(&g));
  PetscCall(MatDestroy(&F));
  PetscCall(MatDestroy(&A));
  PetscCall(MatDestroy(&B));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* shared matrices cut into blocks: PETSc's BAIJ ILU vs ours on the AIJ matrix with a block size */
static PetscErrorCode TestMatrix(PetscRandom rnd, const char *name, PetscInt bs, PetscInt levels, PetscReal tol)
{
  char           file[PETSC_MAX_PATH_LEN];
  Mat            A, B, F;
  MatFactorInfo  info;
  MatFactorError err;
  SpTrsvBILU     f;
  PetscReal      d = 0;
  PetscBool      exists;

  PetscFunctionBeginUser;
  PetscCall(PetscSNPrintf(file, sizeof(file), "%s/%s.mtx.gz", matdir, name));
  PetscCall(PetscTestFile(file, 'r', &exists));
  EXPECT(exists, "missing %s (set -matdir)", file);
  if (!exists) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(SpTrsvLoadMatrixMarket(file, &A));
  PetscCall(MatSetBlockSize(A, bs));
  PetscCall(MatConvert(A, MATSEQBAIJ, MAT_INITIAL_MATRIX, &B));
  PetscCall(DefaultInfo(levels, &info));
  PetscCall(NativeILU(B, &info, &F, &err));
  PetscCall(OurBILU(A, bs, &info, &f));
  PetscCall(CompareSolves(F, f, rnd, 2, &d));
  EXPECT(!err && d < tol, "%s BILU(%" PetscInt_FMT ") bs %" PetscInt_FMT ": solve differs from PETSc's BAIJ ILU by %g", name, levels, bs, (double)d);
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "%s BILU(%" PetscInt_FMT ") bs %" PetscInt_FMT ": solve vs PETSc %.1e\n", name, levels, bs, (double)d));
  PetscCall(SpTrsvBILUDestroy(&f));
  PetscCall(MatDestroy(&F));
  PetscCall(MatDestroy(&B));
  PetscCall(MatDestroy(&A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* one diagonal block of size bs with the given values (row-major), as a MATSEQBAIJ */
static PetscErrorCode OneBlock(PetscInt bs, const PetscScalar *v, Mat *B)
{
  const PetscInt zero = 0;

  PetscFunctionBeginUser;
  PetscCall(MatCreateSeqBAIJ(PETSC_COMM_SELF, bs, bs, bs, 1, NULL, B));
  PetscCall(MatSetValuesBlocked(*B, 1, &zero, 1, &zero, v, INSERT_VALUES));
  PetscCall(MatAssemblyBegin(*B, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*B, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  PETSc's zero-pivot rule of the block inversion: block sizes 2..7 replace an exactly zero pivot other
  than the last by a tiny shift (so [0 1; 0 2] is "inverted"), block size 8 and a zero last pivot fail
*/
static PetscErrorCode TestZeroPivots(PetscRandom rnd)
{
  const PetscScalar zc[4] = {0, 1, 0, 2}, sing[4] = {1, 2, 2, 4};
  PetscScalar       z8[64];
  Mat               B, F;
  MatFactorInfo     info;
  MatFactorError    err;
  SpTrsvBILU        f = NULL;
  PetscReal         d;
  PetscErrorCode    ierr;

  PetscFunctionBeginUser;
  PetscCall(DefaultInfo(0, &info));
  PetscCall(OneBlock(2, zc, &B));
  PetscCall(NativeILU(B, &info, &F, &err));
  PetscCall(OurBILU(B, 0, &info, &f));
  PetscCall(CompareSolves(F, f, rnd, 2, &d));
  EXPECT(!err && d < 1e-14, "shifted zero pivot of a 2x2 block: ours differs from PETSc's by %g (factor error %d)", (double)d, (int)err);
  PetscCall(SpTrsvBILUDestroy(&f));
  PetscCall(MatDestroy(&F));
  /* without a shift amount the same block is singular: PETSc marks the factor, so do we (an error when asked) */
  info.shiftamount = 0.0;
  PetscCall(NativeILU(B, &info, &F, &err));
  EXPECT(err == MAT_FACTOR_NUMERIC_ZEROPIVOT, "PETSc did not flag the zero pivot (error %d)", (int)err);
  PetscCall(OurBILU(B, 0, &info, &f));
  EXPECT(f->error == err && f->zeropivot_row == 0 && f->zeropivot_sub == 0, "2x2 zero column, no shift: ours records error %d block row %" PetscInt_FMT " row %" PetscInt_FMT ", PETSc error %d", (int)f->error, f->zeropivot_row, f->zeropivot_sub, (int)err);
  PetscCall(SpTrsvBILUDestroy(&f));
  PetscCall(PushCapture());
  ierr = OurBILUIf(B, 0, &info, PETSC_TRUE, &f);
  PetscCall(PetscPopErrorHandler());
  PetscCall(ExpectError(ierr, PETSC_ERR_MAT_LU_ZRPVT, "block row 0", "2x2 zero column, no shift"));
  PetscCall(SpTrsvBILUDestroy(&f));
  PetscCall(MatDestroy(&F));
  PetscCall(MatDestroy(&B));
  /* a singular block: the last pivot is zero, shift or not */
  PetscCall(DefaultInfo(0, &info));
  PetscCall(OneBlock(2, sing, &B));
  PetscCall(NativeILU(B, &info, &F, &err));
  PetscCall(OurBILU(B, 0, &info, &f));
  EXPECT(err == MAT_FACTOR_NUMERIC_ZEROPIVOT && f->error == err && f->zeropivot_sub == 1, "singular 2x2 block: ours records error %d at row %" PetscInt_FMT " of the block, PETSc error %d", (int)f->error, f->zeropivot_sub, (int)err);
  PetscCall(SpTrsvBILUDestroy(&f));
  PetscCall(MatDestroy(&F));
  PetscCall(PushCapture());
  ierr = OurBILUIf(B, 0, &info, PETSC_TRUE, &f);
  PetscCall(PetscPopErrorHandler());
  PetscCall(ExpectError(ierr, PETSC_ERR_MAT_LU_ZRPVT, "singular", "singular 2x2 block"));
  PetscCall(SpTrsvBILUDestroy(&f));
  PetscCall(MatDestroy(&B));
  /* block size 8 (PETSc's general kernel) never shifts */
  for (PetscInt k = 0; k < 64; k++) z8[k] = (k % 8 == 0) ? 0.0 : (PetscScalar)(1 + (k * 7) % 5);
  PetscCall(OneBlock(8, z8, &B));
  PetscCall(NativeILU(B, &info, &F, &err));
  EXPECT(err == MAT_FACTOR_NUMERIC_ZEROPIVOT, "bs 8: PETSc did not flag the zero first column (error %d)", (int)err);
  PetscCall(OurBILU(B, 0, &info, &f));
  EXPECT(f->error == err, "bs 8 zero column: ours records error %d, PETSc %d", (int)f->error, (int)err);
  PetscCall(SpTrsvBILUDestroy(&f));
  PetscCall(PushCapture());
  ierr = OurBILUIf(B, 0, &info, PETSC_TRUE, &f);
  PetscCall(PetscPopErrorHandler());
  PetscCall(ExpectError(ierr, PETSC_ERR_MAT_LU_ZRPVT, "at its row 0", "bs 8 zero column"));
  PetscCall(SpTrsvBILUDestroy(&f));
  PetscCall(MatDestroy(&F));
  PetscCall(MatDestroy(&B));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TestBadInput(PetscRandom rnd)
{
  Mat            B, A;
  MatFactorInfo  info;
  SpTrsvBILU     f = NULL;
  SpTrsvBlockCSR C;
  IS             rev;
  PetscErrorCode ierr;

  PetscFunctionBeginUser;
  PetscCall(DefaultInfo(0, &info));
  /* missing diagonal block in block row 1 */
  {
    PetscScalar    v[4] = {4, 1, 1, 4};
    const PetscInt r[3] = {0, 1, 2}, c[3] = {0, 0, 2};
    PetscCall(MatCreateSeqBAIJ(PETSC_COMM_SELF, 2, 6, 6, 1, NULL, &B));
    for (PetscInt k = 0; k < 3; k++) PetscCall(MatSetValuesBlocked(B, 1, &r[k], 1, &c[k], v, INSERT_VALUES));
    PetscCall(MatAssemblyBegin(B, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(B, MAT_FINAL_ASSEMBLY));
  }
  PetscCall(PushCapture());
  ierr = OurBILU(B, 0, &info, &f);
  PetscCall(PetscPopErrorHandler());
  PetscCall(ExpectError(ierr, PETSC_ERR_ARG_WRONGSTATE, "diagonal block of block row 1", "missing diagonal block"));
  PetscCall(SpTrsvBILUDestroy(&f));
  PetscCall(MatDestroy(&B));
  /* NaN entry, NONZERO shift with blocks, a non-natural ordering, block sizes that do not fit */
  PetscCall(BlockGrid(3, 2, 1, 1.0, rnd, &B));
  PetscCall(SpTrsvBlockCSRGet(B, 0, &C));
  PetscCall(SpTrsvBILUCreate(C.n, C.bs, &f));
  PetscCall(PushCapture());
  PetscCall(ISCreateStride(PETSC_COMM_SELF, C.n, C.n - 1, -1, &rev));
  ierr = SpTrsvBILUSymbolic(&C, rev, NULL, &info, f);
  PetscCall(ExpectError(ierr, PETSC_ERR_SUP, "natural ordering", "reversed ordering"));
  info.shifttype = (PetscReal)MAT_SHIFT_NONZERO;
  ierr           = SpTrsvBILUSymbolic(&C, NULL, NULL, &info, f);
  PetscCall(ExpectError(ierr, PETSC_ERR_SUP, "none and inblocks", "nonzero shift with blocks"));
  PetscCall(PetscPopErrorHandler());
  PetscCall(ISDestroy(&rev));
  PetscCall(SpTrsvBlockCSRRestore(&C));
  PetscCall(SpTrsvBILUDestroy(&f));
  PetscCall(DefaultInfo(0, &info));
  PetscCall(MatSetValue(B, 7, 6, NAN, INSERT_VALUES));
  PetscCall(MatAssemblyBegin(B, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(B, MAT_FINAL_ASSEMBLY));
  PetscCall(PushCapture());
  ierr = OurBILUIf(B, 0, &info, PETSC_TRUE, &f);
  PetscCall(ExpectError(ierr, PETSC_ERR_FP, "(7, 6) is NaN", "NaN entry"));
  PetscCall(SpTrsvBILUDestroy(&f));
  ierr = OurBILU(B, 0, &info, &f);
  EXPECT(!ierr && f && f->nonfinite && !f->error, "NaN entry without erroriffailure: error %d, recorded %d", (int)ierr, f ? (int)f->nonfinite : -1);
  PetscCall(SpTrsvBILUDestroy(&f));
  ierr = SpTrsvBlockCSRGet(B, 3, &C);
  PetscCall(ExpectError(ierr, PETSC_ERR_ARG_INCOMP, "block size 2", "BAIJ with another block size"));
  PetscCall(MatConvert(B, MATSEQAIJ, MAT_INITIAL_MATRIX, &A));
  ierr = SpTrsvBlockCSRGet(A, 4, &C);
  PetscCall(ExpectError(ierr, PETSC_ERR_ARG_INCOMP, "not a multiple of the block size 4", "AIJ size not a multiple"));
  ierr = SpTrsvBlockCSRGet(A, 9, &C);
  PetscCall(ExpectError(ierr, PETSC_ERR_SUP, "Block size 9", "block size 9"));
  PetscCall(PetscPopErrorHandler());
  PetscCall(MatDestroy(&A));
  PetscCall(MatDestroy(&B));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the block (br, bc) and entry (rr, cc) of value index v of the factor's values F = [L strict | diagonal | U strict] */
static PetscBool DecodeF(SpTrsvBILU f, PetscInt v, PetscInt *br, PetscInt *bc, PetscInt *rr, PetscInt *cc)
{
  const PetscInt  bs = f->bs, bs2 = bs * bs, slot = v / bs2, e = v % bs2;
  const PetscInt *li = f->L->i, *ui = f->U->i;

  for (PetscInt r = 0; r < f->n; r++) {
    const PetscInt start = li[r] + ui[r] + r, nl = li[r + 1] - li[r], nu = ui[r + 1] - ui[r];

    if (slot < start || slot >= start + nl + 1 + nu) continue;
    *br = r;
    if (slot < start + nl) *bc = f->L->j[li[r] + slot - start];
    else if (slot == start + nl) *bc = r;
    else *bc = f->U->j[ui[r] + slot - start - nl - 1];
    *rr = e % bs;
    *cc = e / bs;
    return PETSC_TRUE;
  }
  return PETSC_FALSE;
}

/*
  the value maps of the GPU block ILU (bilumap.c): every value of the matrix's own array (AIJ or BAIJ) lands at its
  block and entry of F, once; the value locations name the entry that holds the value; the triangle sources name F's
  block of every block of the whole L and U
*/
static PetscErrorCode TestValueMap(PetscRandom rnd, PetscInt bs, PetscInt levels)
{
  Mat           B, M[2];
  MatFactorInfo info;

  PetscFunctionBeginUser;
  PetscCall(BlockGrid(5, bs, 1, 1.0, rnd, &B));
  PetscCall(DefaultInfo(levels, &info));
  PetscCall(MatConvert(B, MATSEQAIJ, MAT_INITIAL_MATRIX, &M[0]));
  M[1] = B;
  for (PetscInt k = 0; k < 2; k++) {
    SpTrsvBlockCSR     C;
    SpTrsvBILU         f;
    const PetscScalar *a;
    PetscInt           nval, bad = 0, nr, *hit, *src;
    const PetscInt    *ti, *tj;
    PetscBool          done;

    PetscCall(SpTrsvBlockCSRGet(M[k], bs, &C));
    PetscCall(SpTrsvBILUCreate(C.n, C.bs, &f));
    f->valuemap = PETSC_TRUE;
    PetscCall(SpTrsvBILUSymbolic(&C, NULL, NULL, &info, f));
    PetscCall(SpTrsvBlockCSRRestore(&C));
    PetscCall(SpTrsvBILUGetValueCount(f, M[k], &nval));
    EXPECT(f->amap && f->nval == nval, "value map bs %" PetscInt_FMT " %s: %" PetscInt_FMT " values mapped, the matrix has %" PetscInt_FMT, bs, k ? "baij" : "aij", f->nval, nval);
    PetscCall(PetscCalloc1((size_t)(f->L->i[f->n] + f->U->i[f->n] + f->n) * bs * bs + 1, &hit));
    if (k) PetscCall(MatSeqBAIJGetArray(M[k], (PetscScalar **)&a));
    else PetscCall(MatSeqAIJGetArrayRead(M[k], &a));
    for (PetscInt v = 0; v < f->nval; v++) {
      PetscInt    row, col, br, bc, rr, cc;
      PetscScalar x;

      PetscCall(SpTrsvBILUValueLocation(f, M[k], v, &row, &col));
      PetscCall(MatGetValues(M[k], 1, &row, 1, &col, &x));
      if (x != a[v] || !DecodeF(f, f->amap[v], &br, &bc, &rr, &cc) || br * bs + rr != row || bc * bs + cc != col || hit[f->amap[v]]++) bad++;
    }
    if (k) PetscCall(MatSeqBAIJRestoreArray(M[k], (PetscScalar **)&a));
    else PetscCall(MatSeqAIJRestoreArrayRead(M[k], &a));
    EXPECT(!bad, "value map bs %" PetscInt_FMT " levels %" PetscInt_FMT " %s: %" PetscInt_FMT " values misplaced", bs, levels, k ? "baij" : "aij", bad);
    PetscCall(PetscFree(hit));
    /* the triangle sources of the whole L (unit diagonal: no source) and U */
    for (PetscInt t = 0; t < 2; t++) {
      SpTrsvBlockTri T = t ? f->U : f->L;
      PetscInt      *fi, *fj;

      PetscCall(SpTrsvBlockTriGetFull(T, &fi, &fj));
      PetscCall(SpTrsvBILUTriangleSources(f, T, fi, &src));
      bad = 0;
      for (PetscInt r = 0; r < T->n; r++)
        for (PetscInt q = fi[r]; q < fi[r + 1]; q++) {
          PetscInt br, bc, rr, cc;

          if (!t && fj[q] == r) bad += src[q] != -1;
          else bad += !DecodeF(f, src[q] * bs * bs, &br, &bc, &rr, &cc) || br != r || bc != fj[q];
        }
      EXPECT(!bad, "triangle sources bs %" PetscInt_FMT " levels %" PetscInt_FMT " %s: %" PetscInt_FMT " blocks of %s misplaced", bs, levels, k ? "baij" : "aij", bad, t ? "U" : "L");
      PetscCall(PetscFree(src));
      PetscCall(PetscFree(fi));
      PetscCall(PetscFree(fj));
    }
    PetscCall(MatGetRowIJ(M[k], 0, PETSC_FALSE, (PetscBool)(k == 1), &nr, &ti, &tj, &done)); /* nothing left borrowed */
    PetscCall(MatRestoreRowIJ(M[k], 0, PETSC_FALSE, (PetscBool)(k == 1), &nr, &ti, &tj, &done));
    PetscCall(SpTrsvBILUDestroy(&f));
  }
  PetscCall(MatDestroy(&M[0]));
  PetscCall(MatDestroy(&B));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  PetscRandom rnd;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SpTrsvInitializePackage());
  PetscCall(PetscOptionsGetString(NULL, NULL, "-matdir", matdir, sizeof(matdir), NULL));
  PetscCall(PetscRandomCreate(PETSC_COMM_SELF, &rnd));
  PetscCall(PetscRandomSetInterval(rnd, -1.0, 1.0));
  PetscCall(PetscRandomSetFromOptions(rnd));
  for (PetscInt bs = 1; bs <= SPTRSV_BS_MAX; bs++)
    for (PetscInt levels = 0; levels <= 2; levels++) PetscCall(TestGrid(rnd, bs, levels));
  PetscCall(TestMatrix(rnd, "watt_2", 2, 0, 1e-10));
  PetscCall(TestMatrix(rnd, "watt_2", 4, 1, 1e-10));
  PetscCall(TestMatrix(rnd, "494_bus", 2, 0, 1e-10));
  PetscCall(TestMatrix(rnd, "494_bus", 2, 2, 1e-10));
  PetscCall(TestMatrix(rnd, "olm1000", 5, 0, 1e-10));
  PetscCall(TestMatrix(rnd, "cryg2500", 4, 1, 1e-10));
  PetscCall(TestZeroPivots(rnd));
  PetscCall(TestBadInput(rnd));
  for (PetscInt bs = 2; bs <= SPTRSV_BS_MAX; bs += 3)
    for (PetscInt levels = 0; levels <= 1; levels++) PetscCall(TestValueMap(rnd, bs, levels));
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "test_bilu: %" PetscInt_FMT " passed, %" PetscInt_FMT " failed\n", npass, nfail));
  PetscCall(PetscFinalize());
  return nfail ? 1 : 0;
}
