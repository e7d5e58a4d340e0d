/* Block CSR input, block triangles and the dense inversion of diagonal blocks */
#include <sptrsv/blocktri.h>
#include <sptrsv/utils.h>
#include <petsc/private/petscimpl.h> /* the object state of a borrowed matrix */

/* ---- block CSR input ----------------------------------------------------------------------------- */

/*
  AIJ (N rows, CSR ai/aj/aa) to blocks of size bs: block row ib holds every block column jb with a stored
  entry in rows ib*bs .. ib*bs+bs-1; entries that are not stored are zeros of their block.
*/
static PetscErrorCode SpTrsvBlockCSRConvert(PetscInt N, PetscInt bs, const PetscInt *ai, const PetscInt *aj, const PetscScalar *aa, SpTrsvBlockCSR *B)
{
  const PetscInt n = N / bs, bs2 = bs * bs;
  PetscInt      *bi, *where;
  SpTrsvIntBuf   bj = {0};

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(n + 1, &bi));
  PetscCall(PetscMalloc1(n + 1, &where));
  for (PetscInt jb = 0; jb < n; jb++) where[jb] = -1;
  bi[0] = 0;
  for (PetscInt ib = 0; ib < n; ib++) {
    for (PetscInt r = ib * bs; r < (ib + 1) * bs; r++)
      for (PetscInt p = ai[r]; p < ai[r + 1]; p++) {
        const PetscInt jb = aj[p] / bs;
        if (where[jb] != ib) {
          where[jb] = ib;
          PetscCall(SpTrsvIntBufPush(&bj, jb));
        }
      }
    bi[ib + 1] = (PetscInt)bj.n;
    PetscCall(PetscSortInt(bi[ib + 1] - bi[ib], bj.a + bi[ib]));
  }
  PetscCall(SpTrsvIntBufFinish(&bj, &B->own_j));
  B->own_i = bi;
  PetscCall(PetscCalloc1((size_t)bi[n] * bs2 + 1, &B->own_a));
  for (PetscInt ib = 0; ib < n; ib++) {
    for (PetscInt p = bi[ib]; p < bi[ib + 1]; p++) where[B->own_j[p]] = p;
    for (PetscInt r = ib * bs; r < (ib + 1) * bs; r++)
      for (PetscInt p = ai[r]; p < ai[r + 1]; p++) B->own_a[(size_t)where[aj[p] / bs] * bs2 + (r % bs) + (aj[p] % bs) * bs] = aa[p];
  }
  PetscCall(PetscFree(where));
  B->n = n;
  B->i = B->own_i;
  B->j = B->own_j;
  B->a = B->own_a;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvBlockCSRGet - the block CSR of a square MATSEQBAIJ (bs must be its block size, or 0) or of a
  MATSEQAIJ cut into blocks of size bs (0: the matrix's block size). Release with SpTrsvBlockCSRRestore().
*/
PetscErrorCode SpTrsvBlockCSRGet(Mat A, PetscInt bs, SpTrsvBlockCSR *B)
{
  PetscBool isbaij, isaij;
  PetscInt  m, n, abs;
  MatType   type;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(B, sizeof(*B)));
  PetscCall(MatGetType(A, &type));
  PetscCall(MatGetLocalSize(A, &m, &n));
  PetscCheck(m == n, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "Block ILU needs a square matrix, got %" PetscInt_FMT " x %" PetscInt_FMT, m, n);
  PetscCall(MatGetBlockSize(A, &abs));
  PetscCall(PetscObjectBaseTypeCompare((PetscObject)A, MATSEQBAIJ, &isbaij));
  PetscCall(PetscObjectBaseTypeCompare((PetscObject)A, MATSEQAIJ, &isaij));
  PetscCheck(isbaij || isaij, PETSC_COMM_SELF, PETSC_ERR_SUP, "Block ILU of matrix type %s is not supported: use MATSEQAIJ or MATSEQBAIJ", type);
  if (bs <= 0) bs = abs;
  PetscCheck(bs >= 1 && bs <= SPTRSV_BS_MAX, PETSC_COMM_SELF, PETSC_ERR_SUP, "Block size %" PetscInt_FMT " is not supported: use 1 to %d", bs, SPTRSV_BS_MAX);
  B->bs  = bs;
  B->src = A;
  if (isbaij) {
    PetscBool done;

    PetscCheck(bs == abs, PETSC_COMM_SELF, PETSC_ERR_ARG_INCOMP, "Block size %" PetscInt_FMT " requested for a MATSEQBAIJ matrix of block size %" PetscInt_FMT, bs, abs);
    PetscCall(MatGetRowIJ(A, 0, PETSC_FALSE, PETSC_TRUE, &B->n, &B->i, &B->j, &done));
    PetscCheck(done, PETSC_COMM_SELF, PETSC_ERR_SUP, "Cannot access the block CSR arrays of the matrix");
    PetscCall(PetscObjectStateGet((PetscObject)A, &B->mat_state));
    PetscCall(MatSeqBAIJGetArray(A, &B->mat_a));
    B->a   = B->mat_a;
    B->mat = A;
  } else {
    const PetscInt    *ai, *aj;
    const PetscScalar *aa;
    PetscErrorCode     ierr;

    PetscCheck(m % bs == 0, PETSC_COMM_SELF, PETSC_ERR_ARG_INCOMP, "The matrix has %" PetscInt_FMT " rows, not a multiple of the block size %" PetscInt_FMT, m, bs);
    PetscCall(SpTrsvMatGetCSR(A, &ai, &aj, &aa));
    ierr = SpTrsvBlockCSRConvert(m, bs, ai, aj, aa, B);
    PetscCall(SpTrsvMatRestoreCSR(A, &ai, &aj, &aa));
    PetscCall(ierr);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SpTrsvBlockCSRRestore(SpTrsvBlockCSR *B)
{
  PetscFunctionBegin;
  if (B->mat) {
    PetscInt  n;
    PetscBool done;

    PetscCall(MatSeqBAIJRestoreArray(B->mat, &B->mat_a));
    /* there is no read-only MatSeqBAIJGetArrayRead(); newer PETSc versions count MatSeqBAIJRestoreArray() as
       a change of the values, which would make a PC set up again at its next apply: the values were only
       read, so the matrix keeps its state */
    ((PetscObject)B->mat)->state = B->mat_state;
    PetscCall(MatRestoreRowIJ(B->mat, 0, PETSC_FALSE, PETSC_TRUE, &n, &B->i, &B->j, &done));
  }
  PetscCall(PetscFree(B->own_i));
  PetscCall(PetscFree(B->own_j));
  PetscCall(PetscFree(B->own_a));
  PetscCall(PetscMemzero(B, sizeof(*B)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- block triangles ------------------------------------------------------------------------------ */

/*
  SpTrsvBlockTriCreate - a block triangle with the strict pattern i, j (ownership passes to it); values,
  and unless unit the diagonal blocks and their inverses, are allocated and zeroed
*/
PetscErrorCode SpTrsvBlockTriCreate(PetscInt n, PetscInt bs, SpTrsvUplo uplo, PetscBool unit, PetscInt *i, PetscInt *j, SpTrsvBlockTri *tri)
{
  SpTrsvBlockTri t;
  const size_t   bs2 = (size_t)bs * bs;

  PetscFunctionBegin;
  PetscCall(PetscNew(&t));
  t->n    = n;
  t->bs   = bs;
  t->uplo = uplo;
  t->unit = unit;
  t->i    = i;
  t->j    = j;
  PetscCall(PetscCalloc1(bs2 * i[n] + 1, &t->a));
  if (!unit) {
    PetscCall(PetscCalloc1(bs2 * n + 1, &t->diag));
    PetscCall(PetscCalloc1(bs2 * n + 1, &t->idiag));
  }
  *tri = t;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvBlockTriCreateFromTri - a bs = 1 view of a triangle of a scalar factor (its arrays are borrowed:
  make the view again after the factor's pattern changes; diag = 1 / idiag is computed now)
*/
PetscErrorCode SpTrsvBlockTriCreateFromTri(SpTrsvTri s, SpTrsvBlockTri *tri)
{
  SpTrsvBlockTri t;

  PetscFunctionBegin;
  PetscCall(PetscNew(&t));
  t->n        = s->n;
  t->bs       = 1;
  t->uplo     = s->uplo;
  t->unit     = s->unit;
  t->i        = s->i;
  t->j        = s->j;
  t->a        = s->a;
  t->idiag    = s->idiag;
  t->borrowed = PETSC_TRUE;
  if (!s->unit) {
    PetscCall(PetscMalloc1(s->n + 1, &t->diag));
    for (PetscInt r = 0; r < s->n; r++) t->diag[r] = 1.0 / s->idiag[r];
  }
  *tri = t;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvBlockTriGetFull - the block CSR pattern of the whole triangle (strict part and diagonal,
  columns ascending), for a matrix that multiplies by it
*/
PetscErrorCode SpTrsvBlockTriGetFull(SpTrsvBlockTri t, PetscInt **fi, PetscInt **fj)
{
  PetscInt *i, *j, k = 0;

  PetscFunctionBegin;
  PetscCall(SpTrsvCheckCount((PetscInt64)t->i[t->n] + t->n, "nonzero blocks"));
  PetscCall(PetscMalloc1(t->n + 1, &i));
  PetscCall(PetscMalloc1(t->i[t->n] + t->n + 1, &j));
  i[0] = 0;
  for (PetscInt r = 0; r < t->n; r++) {
    if (t->uplo == SPTRSV_UPPER) j[k++] = r;
    for (PetscInt p = t->i[r]; p < t->i[r + 1]; p++) j[k++] = t->j[p];
    if (t->uplo == SPTRSV_LOWER) j[k++] = r;
    i[r + 1] = k;
  }
  *fi = i;
  *fj = j;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the values on the pattern of SpTrsvBlockTriGetFull() (identity diagonal blocks when unit) */
PetscErrorCode SpTrsvBlockTriGetFullValues(SpTrsvBlockTri t, const PetscInt *fi, PetscScalar *fa)
{
  const PetscInt bs = t->bs, bs2 = bs * bs;

  PetscFunctionBegin;
  for (PetscInt r = 0; r < t->n; r++) {
    const PetscInt nz = t->i[r + 1] - t->i[r];
    PetscScalar   *d  = fa + (size_t)bs2 * (t->uplo == SPTRSV_LOWER ? fi[r] + nz : fi[r]);
    PetscScalar   *s  = fa + (size_t)bs2 * (t->uplo == SPTRSV_LOWER ? fi[r] : fi[r] + 1);

    PetscCall(PetscArraycpy(s, t->a + (size_t)bs2 * t->i[r], (size_t)bs2 * nz));
    if (t->unit) {
      PetscCall(PetscArrayzero(d, bs2));
      for (PetscInt k = 0; k < bs; k++) d[k + k * bs] = 1.0;
    } else PetscCall(PetscArraycpy(d, t->diag + (size_t)bs2 * r, bs2));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SpTrsvBlockTriDestroy(SpTrsvBlockTri *tri)
{
  SpTrsvBlockTri t = *tri;

  PetscFunctionBegin;
  if (!t) PetscFunctionReturn(PETSC_SUCCESS);
  if (!t->borrowed) {
    PetscCall(PetscFree(t->i));
    PetscCall(PetscFree(t->j));
    PetscCall(PetscFree(t->a));
    PetscCall(PetscFree(t->idiag));
  }
  PetscCall(PetscFree(t->diag));
  PetscCall(PetscFree(t));
  *tri = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- dense inversion ------------------------------------------------------------------------------ */

/*
  SpTrsvBlockInvert - a = a^{-1} in place for one bs x bs block, by Gaussian elimination with partial
  pivoting (the pivot of column k is the first entry of largest modulus at or below the diagonal, as
  LINPACK's dgefa chooses it, so the same pivots are zero as in PETSc's block kernels). An exactly zero
  pivot of columns 0 .. bs-2 is replaced by shift when shift != 0 (PETSc's kernels for block sizes 2..7);
  otherwise *zerorow is the column of the zero pivot and a is left partly factored. *zerorow = -1 on
  success.
*/
PetscErrorCode SpTrsvBlockInvert(PetscInt bs, PetscScalar *a, PetscReal shift, PetscInt *zerorow)
{
  PetscInt    piv[SPTRSV_BS_MAX];
  PetscScalar inv[SPTRSV_BS_MAX * SPTRSV_BS_MAX];

  PetscFunctionBegin;
  PetscCheck(bs >= 1 && bs <= SPTRSV_BS_MAX, PETSC_COMM_SELF, PETSC_ERR_SUP, "Block size %" PetscInt_FMT " is not supported", bs);
  *zerorow = -1;
  /* LU with row interchanges: P a = L U, multipliers below the diagonal */
  for (PetscInt k = 0; k < bs; k++) {
    PetscInt  l   = k;
    PetscReal max = PetscAbsScalar(a[k + k * bs]);

    for (PetscInt r = k + 1; r < bs; r++) {
      if (PetscAbsScalar(a[r + k * bs]) > max) {
        max = PetscAbsScalar(a[r + k * bs]);
        l   = r;
      }
    }
    piv[k] = l;
    if (a[l + k * bs] == (PetscScalar)0.0) {
      if (k < bs - 1 && shift != 0.0) a[l + k * bs] = shift;
      else {
        *zerorow = k;
        PetscFunctionReturn(PETSC_SUCCESS);
      }
    }
    if (l != k)
      for (PetscInt c = 0; c < bs; c++) {
        PetscScalar t = a[k + c * bs];
        a[k + c * bs] = a[l + c * bs];
        a[l + c * bs] = t;
      }
    for (PetscInt r = k + 1; r < bs; r++) a[r + k * bs] /= a[k + k * bs];
    for (PetscInt c = k + 1; c < bs; c++)
      for (PetscInt r = k + 1; r < bs; r++) a[r + c * bs] -= a[r + k * bs] * a[k + c * bs];
  }
  /* column c of the inverse solves L U x = P e_c */
  for (PetscInt c = 0; c < bs; c++) {
    PetscScalar *x = inv + c * bs;

    for (PetscInt r = 0; r < bs; r++) x[r] = (r == c) ? 1.0 : 0.0;
    for (PetscInt k = 0; k < bs; k++) {
      PetscScalar t = x[k];
      x[k]          = x[piv[k]];
      x[piv[k]]     = t;
    }
    for (PetscInt r = 1; r < bs; r++)
      for (PetscInt k = 0; k < r; k++) x[r] -= a[r + k * bs] * x[k];
    for (PetscInt r = bs - 1; r >= 0; r--) {
      for (PetscInt k = r + 1; k < bs; k++) x[r] -= a[r + k * bs] * x[k];
      x[r] /= a[r + r * bs];
    }
  }
  PetscCall(PetscArraycpy(a, inv, bs * bs));
  PetscFunctionReturn(PETSC_SUCCESS);
}
