static char help[] = "ISAI (SpTrsvISAI, PC isai): pattern powers, every column against a dense solve of its extracted\n\
system, short vs long path, exactness when the pattern covers the inverse, PC isai against PCILU in KSP\n\
(iterations, apply, transpose, relaxation), refactorization reuse and bad input.\n\n";

#include "isai_common.h"

/* ---- dense helpers --------------------------------------------------------------------------------- */

/* the whole triangle T (diagonal included) as a dense row-major N x N array, N = n * bs */
static PetscErrorCode DenseTri(SpTrsvBlockTri T, PetscScalar **D)
{
  const PetscInt bs = T->bs, bs2 = bs * bs, N = T->n * bs;

  PetscFunctionBeginUser;
  PetscCall(PetscCalloc1((size_t)N * N + 1, D));
  for (PetscInt ib = 0; ib < T->n; ib++)
    for (PetscInt k = 0; k < bs2; k++) {
      const PetscInt r = ib * bs + k % bs, c = ib * bs + k / bs;
      (*D)[(size_t)r * N + c] = T->unit ? (r == c ? 1.0 : 0.0) : T->diag[(size_t)bs2 * ib + k];
      for (PetscInt p = T->i[ib]; p < T->i[ib + 1]; p++) (*D)[(size_t)r * N + T->j[p] * bs + k / bs] = T->a[(size_t)bs2 * p + k];
    }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* solve A X = B in place (A: N x N row-major, destroyed; B: N x nrhs row-major, becomes X), partial pivoting */
static void DenseSolve(PetscInt N, PetscScalar *A, PetscInt nrhs, PetscScalar *B)
{
  for (PetscInt k = 0; k < N; k++) {
    PetscInt l = k;
    for (PetscInt r = k + 1; r < N; r++)
      if (PetscAbsScalar(A[r * N + k]) > PetscAbsScalar(A[l * N + k])) l = r;
    for (PetscInt c = 0; c < N; c++) {
      PetscScalar t = A[k * N + c];
      A[k * N + c]  = A[l * N + c];
      A[l * N + c]  = t;
    }
    for (PetscInt c = 0; c < nrhs; c++) {
      PetscScalar t    = B[k * nrhs + c];
      B[k * nrhs + c]  = B[l * nrhs + c];
      B[l * nrhs + c]  = t;
    }
    for (PetscInt r = k + 1; r < N; r++) {
      const PetscScalar m = A[r * N + k] / A[k * N + k];
      for (PetscInt c = k; c < N; c++) A[r * N + c] -= m * A[k * N + c];
      for (PetscInt c = 0; c < nrhs; c++) B[r * nrhs + c] -= m * B[k * nrhs + c];
    }
  }
  for (PetscInt k = N - 1; k >= 0; k--)
    for (PetscInt c = 0; c < nrhs; c++) {
      for (PetscInt r = k + 1; r < N; r++) B[k * nrhs + c] -= A[k * N + r] * B[r * nrhs + c];
      B[k * nrhs + c] /= A[k * N + k];
    }
}

/*
  every block column j of N against a dense solve of T(J,J) X = E_j(J), the system extracted from the
  dense T; *err = max |difference| / max |N|
*/
static PetscErrorCode CheckColumns(SpTrsvISAI NI, SpTrsvBlockTri T, PetscReal *err)
{
  const PetscInt bs = T->bs, bs2 = bs * bs, N = T->n * bs;
  PetscScalar   *D, *M, *X;
  PetscReal      nmax = 0, dmax = 0;

  PetscFunctionBeginUser;
  PetscCall(DenseTri(T, &D));
  PetscCall(PetscMalloc2((size_t)N * N, &M, (size_t)N * bs, &X));
  for (PetscInt j = 0; j < NI->n; j++) {
    const PetscInt  m = NI->ci[j + 1] - NI->ci[j], mb = m * bs, *J = NI->cr + NI->ci[j];
    for (PetscInt p = 0; p < mb; p++) {
      for (PetscInt q = 0; q < mb; q++) M[p * mb + q] = D[(size_t)(J[p / bs] * bs + p % bs) * N + J[q / bs] * bs + q % bs];
      for (PetscInt c = 0; c < bs; c++) X[p * bs + c] = (J[p / bs] == j && p % bs == c) ? 1.0 : 0.0;
    }
    DenseSolve(mb, M, bs, X);
    for (PetscInt q = 0; q < m; q++)
      for (PetscInt k = 0; k < bs2; k++) {
        const PetscScalar v = NI->a[(size_t)bs2 * NI->cmap[NI->ci[j] + q] + k];
        nmax                = PetscMax(nmax, PetscAbsScalar(v));
        dmax                = PetscMax(dmax, PetscAbsScalar(v - X[(q * bs + k % bs) * bs + k / bs]));
      }
  }
  *err = dmax / PetscMax(nmax, PETSC_SMALL);
  PetscCall(PetscFree2(M, X));
  PetscCall(PetscFree(D));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* N against the dense inverse of T: *err over the pattern, *outside = largest inverse entry off it */
static PetscErrorCode CompareInverse(SpTrsvISAI NI, SpTrsvBlockTri T, PetscReal *err, PetscReal *outside)
{
  const PetscInt bs = T->bs, bs2 = bs * bs, N = T->n * bs;
  PetscScalar   *D, *X;
  PetscReal      xmax = 0;

  PetscFunctionBeginUser;
  PetscCall(DenseTri(T, &D));
  PetscCall(PetscCalloc1((size_t)N * N + 1, &X));
  for (PetscInt r = 0; r < N; r++) X[(size_t)r * N + r] = 1.0;
  DenseSolve(N, D, N, X);
  *err = 0;
  for (PetscInt r = 0; r < NI->n; r++)
    for (PetscInt p = NI->i[r]; p < NI->i[r + 1]; p++)
      for (PetscInt k = 0; k < bs2; k++) {
        PetscScalar *x = X + (size_t)(r * bs + k % bs) * N + NI->j[p] * bs + k / bs;
        *err           = PetscMax(*err, PetscAbsScalar(NI->a[(size_t)bs2 * p + k] - *x));
        *x             = 0.0; /* what is left lies outside the pattern */
      }
  *outside = 0;
  for (size_t k = 0; k < (size_t)N * N; k++) *outside = PetscMax(*outside, PetscAbsScalar(X[k]));
  for (PetscInt p = 0; p < NI->i[NI->n] * bs2; p++) xmax = PetscMax(xmax, PetscAbsScalar(NI->a[p]));
  *err /= PetscMax(xmax, PETSC_SMALL);
  PetscCall(PetscFree(X));
  PetscCall(PetscFree(D));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- the builder ----------------------------------------------------------------------------------- */

/* S(X^k) against dense boolean powers of a random lower pattern with its diagonal */
static PetscErrorCode TestPatternPower(PetscRandom rnd)
{
  const PetscInt n = 16;
  PetscInt       xi[17], xj[16 * 16], cnt = 0, *pi, *pj;
  PetscBool      X[16][16], P[16][16], Q[16][16];

  PetscFunctionBeginUser;
  xi[0] = 0;
  for (PetscInt r = 0; r < n; r++) {
    for (PetscInt c = 0; c <= r; c++) {
      PetscScalar v;
      PetscCall(PetscRandomGetValue(rnd, &v));
      X[r][c] = (PetscBool)(c == r || PetscRealPart(v) > 0.7);
      if (X[r][c]) xj[cnt++] = c;
    }
    for (PetscInt c = r + 1; c < n; c++) X[r][c] = PETSC_FALSE;
    xi[r + 1] = cnt;
  }
  PetscCall(PetscMemcpy(P, X, sizeof(P)));
  for (PetscInt k = 1; k <= 5; k++) {
    PetscBool same = PETSC_TRUE;

    if (k > 1) {
      for (PetscInt r = 0; r < n; r++)
        for (PetscInt c = 0; c < n; c++) {
          Q[r][c] = PETSC_FALSE;
          for (PetscInt t = 0; t < n; t++) Q[r][c] = (PetscBool)(Q[r][c] || (P[r][t] && X[t][c]));
        }
      PetscCall(PetscMemcpy(P, Q, sizeof(P)));
    }
    PetscCall(SpTrsvPatternPower(n, xi, xj, k, &pi, &pj));
    for (PetscInt r = 0; r < n; r++) {
      PetscInt p = pi[r];
      for (PetscInt c = 0; c < n; c++) {
        if (!P[r][c]) continue;
        if (p < pi[r + 1] && pj[p] == c) p++;
        else same = PETSC_FALSE;
      }
      if (p != pi[r + 1]) same = PETSC_FALSE;
    }
    EXPECT(same, "S(X^%" PetscInt_FMT ") differs from the dense boolean power", k);
    PetscCall(PetscFree(pi));
    PetscCall(PetscFree(pj));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* block factor of a block grid (BAIJ, block size bs) or the scalar ILU of it (bs = 1) as block triangles */
static PetscErrorCode GridFactor(PetscRandom rnd, PetscInt m, PetscInt nsub, PetscInt bs, PetscInt levels, SpTrsvBILU *f)
{
  Mat            B;
  SpTrsvBlockCSR C;
  MatFactorInfo  info;

  PetscFunctionBeginUser;
  PetscCall(BlockGrid(m, bs, nsub, 1.0, rnd, &B));
  PetscCall(DefaultInfo(levels, &info));
  PetscCall(SpTrsvBlockCSRGet(B, 0, &C));
  PetscCall(SpTrsvBILUCreate(C.n, bs, f));
  PetscCall(SpTrsvBILUSymbolic(&C, NULL, NULL, &info, *f));
  PetscCall(SpTrsvBILUNumeric(&C, &info, *f));
  PetscCall(SpTrsvBlockCSRRestore(&C));
  PetscCall(MatDestroy(&B));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* columns vs dense solves, short vs long path, and exactness once the pattern covers the inverse */
static PetscErrorCode TestColumns(PetscRandom rnd, PetscInt bs, PetscInt levels)
{
  SpTrsvBILU f;

  PetscFunctionBeginUser;
  PetscCall(GridFactor(rnd, 4, 1, bs, levels, &f));
  for (PetscInt t = 0; t < 2; t++) {
    SpTrsvBlockTri T = t ? f->U : f->L;
    const char    *name = t ? "U" : "L";

    for (PetscInt k = 1; k <= 3; k++) {
      SpTrsvISAI NI;
      PetscReal  err = 0;
      size_t     bytes;
      PetscScalar *a0;

      PetscCall(SpTrsvISAICreate(T, k, &NI));
      PetscCall(SpTrsvISAINumeric(NI, T));
      PetscCall(CheckColumns(NI, T, &err));
      EXPECT(err < 1e-13, "bs %" PetscInt_FMT " ILU(%" PetscInt_FMT ") N_%s k=%" PetscInt_FMT ": columns differ from dense solves by %g", bs, levels, name, k, (double)err);
      if (k == 1) EXPECT(NI->i[NI->n] == T->i[T->n] + T->n, "N_%s with k = 1 has %" PetscInt_FMT " blocks, %s has %" PetscInt_FMT, name, NI->i[NI->n], name, T->i[T->n] + T->n);
      /* every column on the long path: the same numbers, bit for bit */
      bytes = sizeof(PetscScalar) * bs * bs * NI->i[NI->n];
      PetscCall(PetscMalloc1(bytes / sizeof(PetscScalar) + 1, &a0));
      PetscCall(PetscMemcpy(a0, NI->a, bytes));
      PetscCall(SpTrsvISAISetShortMax(NI, 0));
      EXPECT(NI->nlong == NI->n, "short max 0: %" PetscInt_FMT " long columns of %" PetscInt_FMT, NI->nlong, NI->n);
      PetscCall(PetscArrayzero(NI->a, bytes / sizeof(PetscScalar)));
      PetscCall(SpTrsvISAINumeric(NI, T));
      EXPECT(!memcmp(a0, NI->a, bytes), "bs %" PetscInt_FMT " N_%s k=%" PetscInt_FMT ": long and short paths differ", bs, name, k);
      PetscCall(PetscFree(a0));
      PetscCall(SpTrsvISAIDestroy(&NI));
    }
    { /* a power that reaches every dependency: N is T^{-1} */
      SpTrsvISAI NI;
      PetscReal  err = 0, outside = 0;

      PetscCall(SpTrsvISAICreate(T, f->n, &NI));
      PetscCall(SpTrsvISAINumeric(NI, T));
      PetscCall(CompareInverse(NI, T, &err, &outside));
      EXPECT(err < 1e-12 && outside == 0.0, "bs %" PetscInt_FMT " N_%s covering the inverse: differs from the dense inverse by %g, %g outside the pattern", bs, name, (double)err, (double)outside);
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "bs %" PetscInt_FMT " ILU(%" PetscInt_FMT ") N_%s: columns vs dense ok, full pattern vs inverse %.1e (longest column %" PetscInt_FMT ", %" PetscInt_FMT " long)\n", bs, levels, name, (double)err, NI->maxcol, NI->nlong));
      PetscCall(SpTrsvISAIDestroy(&NI));
    }
  }
  PetscCall(SpTrsvBILUDestroy(&f));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- PC isai in KSP --------------------------------------------------------------------------------- */

/* GMRES with PCILU/PCICC (power 0) or PC isai on A; residual history in hist (at most 200) */
static PetscErrorCode Solve(Mat A, Vec b, PetscBool icc, PetscInt power, PetscInt bs, PetscInt relax, PetscInt *its, PetscReal *hist)
{
  KSP      ksp;
  PC       pc;
  Vec      x;
  PetscInt nh;

  PetscFunctionBeginUser;
  PetscCall(VecDuplicate(b, &x));
  PetscCall(KSPCreate(PETSC_COMM_SELF, &ksp));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSetType(ksp, KSPGMRES));
  PetscCall(KSPSetTolerances(ksp, 1e-10, PETSC_DEFAULT, PETSC_DEFAULT, 199));
  PetscCall(KSPSetResidualHistory(ksp, hist, 200, PETSC_TRUE));
  PetscCall(KSPGetPC(ksp, &pc));
  if (power) {
    PetscCall(PCSetType(pc, PCISAI));
    PetscCall(PCISAISetPower(pc, power));
    PetscCall(PCISAISetBlockSize(pc, bs));
    PetscCall(PCISAISetRelaxationSteps(pc, relax));
    if (icc) PetscCall(PCISAISetFactorType(pc, MAT_FACTOR_ICC));
  } else PetscCall(PCSetType(pc, icc ? PCICC : PCILU));
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(KSPGetIterationNumber(ksp, its));
  PetscCall(KSPGetResidualHistory(ksp, NULL, &nh));
  PetscCall(KSPDestroy(&ksp));
  PetscCall(VecDestroy(&x));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  independent 3 x 3 grids: the L and U of ILU(0) have dependency chains of 4 blocks, so S(|L|^4) covers
  L^{-1} and PC isai with k = 4 is the ILU preconditioner: same GMRES iterations and residuals as PCILU
  (on the BAIJ matrix; for AIJ input with a block size, PCILU on the BAIJ copy)
*/
static PetscErrorCode TestKSPExact(PetscRandom rnd, PetscInt bs, PetscBool aij, PetscBool icc)
{
  Mat       B, A;
  Vec       b;
  PetscReal hn[200], hi[200], worst = 0;
  PetscInt  itn, iti;

  PetscFunctionBeginUser;
  PetscCall(BlockGrid(3, bs, 12, 0.5, rnd, &B));
  if (icc) { /* symmetric positive definite: B + B^T + shift */
    Mat T;
    PetscCall(MatTranspose(B, MAT_INITIAL_MATRIX, &T));
    PetscCall(MatAXPY(B, 1.0, T, SAME_NONZERO_PATTERN));
    PetscCall(MatShift(B, 8.0));
    PetscCall(MatDestroy(&T));
  }
  if (aij || bs == 1) PetscCall(MatConvert(B, MATSEQAIJ, MAT_INITIAL_MATRIX, &A));
  else {
    PetscCall(PetscObjectReference((PetscObject)B));
    A = B;
  }
  PetscCall(MatCreateVecs(B, NULL, &b));
  PetscCall(VecSetRandom(b, rnd));
  PetscCall(Solve(bs == 1 ? A : B, b, icc, 0, 0, 0, &itn, hn));
  PetscCall(Solve(A, b, icc, 4, aij ? bs : 0, 0, &iti, hi));
  /* residuals relative to the first one (the last ones are 1e-10 smaller and carry the rounding) */
  for (PetscInt k = 0; k <= PetscMin(itn, iti); k++) worst = PetscMax(worst, PetscAbsReal(hn[k] - hi[k]) / hn[0]);
  EXPECT(itn == iti && worst < 1e-12, "bs %" PetscInt_FMT "%s, isai k=4 covering the inverse: %" PetscInt_FMT " iterations (%s %" PetscInt_FMT "), residuals differ by %g", bs, aij ? " (AIJ input)" : "", iti, icc ? "ICC" : "ILU", itn, (double)worst);
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "bs %" PetscInt_FMT "%s: %s %" PetscInt_FMT " iterations, isai k=4 %" PetscInt_FMT " (residual differences %.1e of the first)\n", bs, aij ? " (AIJ input)" : "", icc ? "ICC" : "ILU", itn, iti, (double)worst));
  PetscCall(VecDestroy(&b));
  PetscCall(MatDestroy(&A));
  PetscCall(MatDestroy(&B));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* PC isai (k, relaxation m) applied and transpose-applied against PETSc's ILU MatSolve/MatSolveTranspose */
static PetscErrorCode ApplyVsILU(Mat B, PetscRandom rnd, PetscInt power, PetscInt relax, PetscReal *d, PetscReal *dt)
{
  PC             pc;
  Mat            F;
  MatFactorInfo  info;
  MatFactorError err;
  Vec            x, y, yn;

  PetscFunctionBeginUser;
  PetscCall(DefaultInfo(0, &info));
  PetscCall(NativeILU(B, &info, &F, &err));
  PetscCall(PCCreate(PETSC_COMM_SELF, &pc));
  PetscCall(PCSetType(pc, PCISAI));
  PetscCall(PCISAISetPower(pc, power));
  PetscCall(PCISAISetRelaxationSteps(pc, relax));
  PetscCall(PCSetOperators(pc, B, B));
  PetscCall(PCSetUp(pc));
  PetscCall(MatCreateVecs(B, &x, &y));
  PetscCall(VecDuplicate(y, &yn));
  PetscCall(VecSetRandom(x, rnd));
  PetscCall(PCApply(pc, x, y));
  PetscCall(MatSolve(F, x, yn));
  PetscCall(VecRelDiffInf(y, yn, yn, d));
  PetscCall(PCApplyTranspose(pc, x, y));
  PetscCall(MatSolveTranspose(F, x, yn));
  PetscCall(VecRelDiffInf(y, yn, yn, dt));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&y));
  PetscCall(VecDestroy(&yn));
  PetscCall(PCDestroy(&pc));
  PetscCall(MatDestroy(&F));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TestApply(PetscRandom rnd)
{
  Mat       B;
  PetscReal d, dt;

  PetscFunctionBeginUser;
  PetscCall(BlockGrid(3, 3, 4, 0.5, rnd, &B));
  PetscCall(ApplyVsILU(B, rnd, 4, 0, &d, &dt));
  EXPECT(d < 1e-12 && dt < 1e-12, "isai k=4 on 3x3 grids: apply differs from ILU by %g, transpose by %g", (double)d, (double)dt);
  /* relaxation: 4 steps make k = 1 exact on these grids (N T - I is nilpotent), 1 step does not */
  PetscCall(ApplyVsILU(B, rnd, 1, 4, &d, &dt));
  EXPECT(d < 1e-12 && dt < 1e-12, "isai k=1 with 4 relaxation steps: apply differs from ILU by %g, transpose by %g", (double)d, (double)dt);
  PetscCall(ApplyVsILU(B, rnd, 1, 1, &d, &dt));
  EXPECT(d > 1e-8 && dt > 1e-8, "isai k=1 with 1 relaxation step equals ILU (%g, %g): the test cannot see the relaxation", (double)d, (double)dt);
  PetscCall(ApplyVsILU(B, rnd, 1, 0, &d, &dt));
  EXPECT(d > 1e-8, "isai k=1 equals ILU (%g): the exactness tests prove nothing", (double)d);
  PetscCall(MatDestroy(&B));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* iterations for k = 1, 2, 3 on one larger grid (not covering): printed; k = 3 needs no more than k = 1 */
static PetscErrorCode TestPowers(PetscRandom rnd, PetscInt bs, PetscReal dom)
{
  Mat       B;
  Vec       b;
  PetscReal h[200];
  PetscInt  its[4];

  PetscFunctionBeginUser;
  PetscCall(BlockGrid(14, bs, 1, dom, rnd, &B));
  PetscCall(MatCreateVecs(B, NULL, &b));
  PetscCall(VecSetRandom(b, rnd));
  for (PetscInt k = 0; k <= 3; k++) PetscCall(Solve(B, b, PETSC_FALSE, k, 0, 0, &its[k], h));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "14x14 grid bs %" PetscInt_FMT ": ILU %" PetscInt_FMT " iterations, isai k=1 %" PetscInt_FMT ", k=2 %" PetscInt_FMT ", k=3 %" PetscInt_FMT "\n", bs, its[0], its[1], its[2], its[3]));
  EXPECT(its[3] <= its[1] && its[1] < 199, "bs %" PetscInt_FMT ": isai k=3 took %" PetscInt_FMT " iterations, k=1 %" PetscInt_FMT, bs, its[3], its[1]);
  PetscCall(VecDestroy(&b));
  PetscCall(MatDestroy(&B));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* new values on the same pattern: only the numeric phases run, the apply matrices are kept, and the
   result is the one of a PC set up from scratch */
static PetscErrorCode TestRefactor(PetscRandom rnd)
{
  Mat        B, ML0, MU0, ML1, MU1;
  PC         pc, fresh;
  Vec        x, y, y1;
  PCISAIInfo s;
  PetscReal  d;

  PetscFunctionBeginUser;
  PetscCall(BlockGrid(5, 2, 1, 0.5, rnd, &B));
  PetscCall(PCCreate(PETSC_COMM_SELF, &pc));
  PetscCall(PCSetType(pc, PCISAI));
  PetscCall(PCISAISetPower(pc, 2));
  PetscCall(PCISAISetRelaxationSteps(pc, 1));
  PetscCall(PCSetOperators(pc, B, B));
  PetscCall(PCSetUp(pc));
  PetscCall(PCISAIGetApplyMatrices(pc, &ML0, &MU0));
  PetscCall(MatShift(B, 0.75));
  PetscCall(PCSetOperators(pc, B, B));
  PetscCall(PCSetUp(pc));
  PetscCall(PCISAIGetApplyMatrices(pc, &ML1, &MU1));
  PetscCall(PCISAIGetInfo(pc, &s));
  EXPECT(s.nsetups == 2 && ML0 == ML1 && MU0 == MU1, "refactorization: %" PetscInt_FMT " numeric setups, apply matrices %s", s.nsetups, ML0 == ML1 && MU0 == MU1 ? "kept" : "rebuilt");
  EXPECT(s.bs == 2 && s.power == 2 && s.nnzNL > s.nnzL && s.nnzNU > s.nnzU && s.longL == 0, "info: bs %" PetscInt_FMT " power %" PetscInt_FMT " N_L %" PetscInt_FMT " blocks for L %" PetscInt_FMT ", long %" PetscInt_FMT, s.bs, s.power, s.nnzNL, s.nnzL, s.longL);
  PetscCall(PCCreate(PETSC_COMM_SELF, &fresh));
  PetscCall(PCSetType(fresh, PCISAI));
  PetscCall(PCISAISetPower(fresh, 2));
  PetscCall(PCISAISetRelaxationSteps(fresh, 1));
  PetscCall(PCSetOperators(fresh, B, B));
  PetscCall(PCSetUp(fresh));
  PetscCall(MatCreateVecs(B, &x, &y));
  PetscCall(VecDuplicate(y, &y1));
  PetscCall(VecSetRandom(x, rnd));
  PetscCall(PCApply(pc, x, y));
  PetscCall(PCApply(fresh, x, y1));
  PetscCall(VecRelDiffInf(y, y1, y1, &d));
  EXPECT(d == 0.0, "refactored PC differs from a fresh one by %g", (double)d);
  /* a structural option change rebuilds the patterns */
  PetscCall(PCISAISetPower(pc, 3));
  PetscCall(PCSetUp(pc));
  PetscCall(PCISAIGetInfo(pc, &s));
  EXPECT(s.power == 3 && s.nsetups == 3, "after PCISAISetPower(3): power %" PetscInt_FMT ", %" PetscInt_FMT " setups", s.power, s.nsetups);
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&y));
  PetscCall(VecDestroy(&y1));
  PetscCall(PCDestroy(&pc));
  PetscCall(PCDestroy(&fresh));
  PetscCall(MatDestroy(&B));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* PCSetUp on A with PC isai (block size bs, 0 = the matrix's) must fail with `expected` and `text` */
static PetscErrorCode ExpectSetUpError(Mat A, PetscInt bs, PetscBool icc, PetscErrorCode expected, const char *text, const char *what)
{
  PC             pc;
  PetscErrorCode ierr;

  PetscFunctionBeginUser;
  PetscCall(PCCreate(PETSC_COMM_SELF, &pc));
  PetscCall(PCSetType(pc, PCISAI));
  PetscCall(PCISAISetBlockSize(pc, bs));
  if (icc) PetscCall(PCISAISetFactorType(pc, MAT_FACTOR_ICC));
  PetscCall(PCSetOperators(pc, A, A));
  PetscCall(PCSetErrorIfFailure(pc, PETSC_TRUE)); /* failures are errors, as under -ksp_error_if_not_converged */
  PetscCall(PushCapture());
  ierr = PCSetUp(pc);
  PetscCall(PetscPopErrorHandler());
  PetscCall(ExpectError(ierr, expected, text, what));
  PetscCall(PCDestroy(&pc));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  without PCSetErrorIfFailure() a zero pivot fails the PC as PCSetUp_ILU does: PCSetUp succeeds, the failed
  reason is PC_FACTOR_NUMERIC_ZEROPIVOT, the apply returns Inf; then the values of block row `brow` are replaced
  by `good` (same pattern) and the next setup succeeds with a finite apply
*/
static PetscErrorCode ExpectSetUpFails(Mat A, PetscInt bs, PetscInt brow, PetscInt abs, const PetscScalar *good, const char *what)
{
  PC             pc;
  PCFailedReason fr;
  Vec            x, y;
  PetscReal      nrm;

  PetscFunctionBeginUser;
  PetscCall(PCCreate(PETSC_COMM_SELF, &pc));
  PetscCall(PCSetType(pc, PCISAI));
  PetscCall(PCISAISetBlockSize(pc, bs));
  PetscCall(PCSetOperators(pc, A, A));
  PetscCall(MatCreateVecs(A, &x, &y));
  PetscCall(VecSet(x, 1.0));
  PetscCall(PCSetUp(pc));
  PetscCall(PCGetFailedReason(pc, &fr));
  PetscCall(PCApply(pc, x, y));
  PetscCall(VecNorm(y, NORM_1, &nrm));
  EXPECT(fr == PC_FACTOR_NUMERIC_ZEROPIVOT && PetscIsInfReal(nrm), "%s: failed reason %s, |y| %g: expected FACTOR_NUMERIC_ZEROPIVOT and Inf", what, PCFailedReasons[fr], (double)nrm);
  for (PetscInt r = 0; r < abs; r++)
    for (PetscInt c = 0; c < abs; c++) PetscCall(MatSetValue(A, brow * abs + r, brow * abs + c, good[r + c * abs], INSERT_VALUES));
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscCall(PCSetUp(pc));
  PetscCall(PCGetFailedReason(pc, &fr));
  PetscCall(PCApply(pc, x, y));
  PetscCall(VecNorm(y, NORM_1, &nrm));
  EXPECT(fr == PC_NOERROR && !PetscIsInfOrNanReal(nrm) && nrm > 0, "%s, good values: failed reason %s, |y| %g", what, PCFailedReasons[fr], (double)nrm);
  for (PetscInt r = 0; r < abs; r++)
    for (PetscInt c = 0; c < abs; c++) PetscCall(MatSetValue(A, brow * abs + r, brow * abs + c, 0.0, INSERT_VALUES));
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&y));
  PetscCall(PCDestroy(&pc));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TestBadInput(PetscRandom rnd)
{
  Mat            B, A;
  PetscScalar    v[9];
  PC             pc;
  PetscErrorCode ierr;

  PetscFunctionBeginUser;
  /* block diagonal with upper couplings (no elimination): zero diagonal block in block row 2 */
  PetscCall(MatCreateSeqBAIJ(PETSC_COMM_SELF, 3, 12, 12, 2, NULL, &B));
  for (PetscInt r = 0; r < 4; r++) {
    const PetscInt c = r + 1;
    for (PetscInt k = 0; k < 9; k++) v[k] = (r == 2) ? 0.0 : (k % 4 == 0 ? 5.0 : 1.0);
    PetscCall(MatSetValuesBlocked(B, 1, &r, 1, &r, v, INSERT_VALUES));
    for (PetscInt k = 0; k < 9; k++) v[k] = -0.5;
    if (c < 4) PetscCall(MatSetValuesBlocked(B, 1, &r, 1, &c, v, INSERT_VALUES));
  }
  PetscCall(MatAssemblyBegin(B, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(B, MAT_FINAL_ASSEMBLY));
  PetscCall(ExpectSetUpError(B, 0, PETSC_FALSE, PETSC_ERR_MAT_LU_ZRPVT, "block row 2 (rows 6 to 8)", "zero diagonal block"));
  {
    PetscScalar good[9];

    for (PetscInt k = 0; k < 9; k++) good[k] = k % 4 == 0 ? 5.0 : 1.0;
    PetscCall(ExpectSetUpFails(B, 0, 2, 3, good, "zero diagonal block, no error asked for"));
    PetscCall(MatConvert(B, MATSEQAIJ, MAT_INITIAL_MATRIX, &A));
    PetscCall(ExpectSetUpFails(A, 3, 2, 3, good, "zero diagonal block, AIJ input, no error asked for"));
    PetscCall(ExpectSetUpFails(A, 1, 2, 3, good, "zero pivot, scalar, no error asked for"));
    PetscCall(MatDestroy(&A));
  }
  PetscCall(ExpectSetUpError(B, 0, PETSC_TRUE, PETSC_ERR_SUP, "supports only -pc_isai_factor_type ilu", "ICC with blocks"));
  PetscCall(ExpectSetUpError(B, 2, PETSC_FALSE, PETSC_ERR_ARG_INCOMP, "requested for a MATSEQBAIJ matrix of block size 3", "block size mismatch"));
  /* the same as AIJ: block size 3 finds the zero block, block size 1 the zero pivot of row 6 */
  PetscCall(MatConvert(B, MATSEQAIJ, MAT_INITIAL_MATRIX, &A));
  PetscCall(ExpectSetUpError(A, 3, PETSC_FALSE, PETSC_ERR_MAT_LU_ZRPVT, "block row 2", "zero diagonal block, AIJ input"));
  PetscCall(ExpectSetUpError(A, 1, PETSC_FALSE, PETSC_ERR_MAT_LU_ZRPVT, "Zero pivot in row 6", "zero pivot, scalar"));
  PetscCall(ExpectSetUpError(A, 5, PETSC_FALSE, PETSC_ERR_ARG_INCOMP, "not a multiple of the block size 5", "size not a multiple"));
  PetscCall(MatDestroy(&A));
  PetscCall(MatDestroy(&B));
  /* options out of range, an unsupported matrix type */
  PetscCall(PCCreate(PETSC_COMM_SELF, &pc));
  PetscCall(PCSetType(pc, PCISAI));
  PetscCall(PushCapture());
  ierr = PCISAISetPower(pc, 5);
  PetscCall(ExpectError(ierr, PETSC_ERR_ARG_OUTOFRANGE, "outside 1 .. 4", "power 5"));
  ierr = PCISAISetBlockSize(pc, 9);
  PetscCall(ExpectError(ierr, PETSC_ERR_ARG_OUTOFRANGE, "Block size 9", "block size 9"));
  PetscCall(PetscPopErrorHandler());
  PetscCall(PCDestroy(&pc));
  PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, 3, 3, NULL, &A));
  PetscCall(MatShift(A, 1.0));
  PetscCall(ExpectSetUpError(A, 0, PETSC_FALSE, PETSC_ERR_SUP, "sequential AIJ or BAIJ", "dense matrix"));
  PetscCall(MatDestroy(&A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  PetscRandom rnd;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SpTrsvInitializePackage());
  PetscCall(PetscRandomCreate(PETSC_COMM_SELF, &rnd));
  PetscCall(PetscRandomSetInterval(rnd, -1.0, 1.0));
  PetscCall(PetscRandomSetFromOptions(rnd));
  PetscCall(TestPatternPower(rnd));
  for (PetscInt bs = 1; bs <= 5; bs++) PetscCall(TestColumns(rnd, bs, bs % 2));
  PetscCall(TestColumns(rnd, 8, 0));
  for (PetscInt bs = 1; bs <= 4; bs++) PetscCall(TestKSPExact(rnd, bs, PETSC_FALSE, PETSC_FALSE));
  PetscCall(TestKSPExact(rnd, 4, PETSC_TRUE, PETSC_FALSE));
  PetscCall(TestKSPExact(rnd, 1, PETSC_FALSE, PETSC_TRUE));
  PetscCall(TestApply(rnd));
  PetscCall(TestPowers(rnd, 1, 0.7));
  PetscCall(TestPowers(rnd, 3, 0.35));
  PetscCall(TestRefactor(rnd));
  PetscCall(TestBadInput(rnd));
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "test_isai: %" PetscInt_FMT " passed, %" PetscInt_FMT " failed\n", npass, nfail));
  PetscCall(PetscFinalize());
  return nfail ? 1 : 0;
}
