/* Small helpers shared by the factorizations, the block triangles and the ISAI: growable index arrays,
   count checks, CSR access */
#include <sptrsv/utils.h>
#include <limits.h>

/*
  SpTrsvMatGetCSR - the row pointers, column indices (ascending in each row) and values of a MATSEQAIJ,
  without copies (values are synchronized to the host for derived GPU types)
*/
PetscErrorCode SpTrsvMatGetCSR(Mat A, const PetscInt **ai, const PetscInt **aj, const PetscScalar **aa)
{
  PetscInt  n;
  PetscBool done;

  PetscFunctionBegin;
  PetscCall(MatGetRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &n, ai, aj, &done));
  PetscCheck(done, PETSC_COMM_SELF, PETSC_ERR_SUP, "Cannot access the CSR arrays of the matrix");
  if (aa) PetscCall(MatSeqAIJGetArrayRead(A, aa));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SpTrsvMatRestoreCSR(Mat A, const PetscInt **ai, const PetscInt **aj, const PetscScalar **aa)
{
  PetscInt  n;
  PetscBool done;

  PetscFunctionBegin;
  if (aa) PetscCall(MatSeqAIJRestoreArrayRead(A, aa));
  PetscCall(MatRestoreRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &n, ai, aj, &done));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvCheckCount - counts (of a factor, a pattern) are accumulated in 64 bits; they must fit in PetscInt,
  with room for the usual "+ 1" of the allocations
*/
PetscErrorCode SpTrsvCheckCount(PetscInt64 count, const char *what)
{
  PetscFunctionBegin;
  PetscCheck(count < (PetscInt64)PETSC_INT_MAX, PETSC_COMM_SELF, PETSC_ERR_INT_OVERFLOW, "The factor has too many %s (%" PetscInt64_FMT ") for PetscInt: reduce the levels of fill or configure PETSc with --with-64-bit-indices", what, count);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvCheckIndex32 - an array the CUDA kernels index with 32-bit ints (int) must hold fewer than INT_MAX entries
  (room for the "+ 1" of the allocations); what names it in the error, avoid (may be NULL) says how to do without it,
  e.g. SpTrsvCheckIndex32(32 * nwarps, "The warp-packed ELL image", "use -mat_sptrsv_storage csr")
*/
PetscErrorCode SpTrsvCheckIndex32(PetscInt64 count, const char *what, const char *avoid)
{
  PetscFunctionBegin;
  PetscCheck(count >= 0 && count < (PetscInt64)INT_MAX, PETSC_COMM_SELF, PETSC_ERR_INT_OVERFLOW, "%s of %" PetscInt64_FMT " entries (%.2g) exceeds 32-bit indexing (at most %d)%s%s", what, count, (double)count, INT_MAX - 1, avoid ? "; " : "", avoid ? avoid : "");
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvCheckProduct - count = a * b computed in 64 bits; an error naming what when it does not fit in PetscInt
  (with room for a "+ 1"): for sizes such as blocks x bs^2 that index host arrays with PetscInt
*/
PetscErrorCode SpTrsvCheckProduct(PetscInt64 a, PetscInt64 b, const char *what, PetscInt64 *count)
{
  PetscFunctionBegin;
  PetscCheck(a >= 0 && b >= 0 && (b == 0 || a <= ((PetscInt64)PETSC_INT_MAX - 1) / b), PETSC_COMM_SELF, PETSC_ERR_INT_OVERFLOW, "%s: %" PetscInt64_FMT " x %" PetscInt64_FMT " = %.3g entries do not fit in PetscInt (at most %" PetscInt_FMT "): reduce the problem or configure PETSc with --with-64-bit-indices", what, a, b, (double)a * (double)b, PETSC_INT_MAX - 1);
  if (count) *count = a * b;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- growable integer arrays ------------------------------------------------------------------ */

PetscErrorCode SpTrsvIntBufReserve(SpTrsvIntBuf *b, PetscInt64 cap)
{
  PetscFunctionBegin;
  if (cap <= b->cap) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(SpTrsvCheckCount(cap, "nonzeros"));
  PetscCall(PetscRealloc((size_t)cap * sizeof(PetscInt), &b->a));
  b->cap = cap;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SpTrsvIntBufPush(SpTrsvIntBuf *b, PetscInt v)
{
  PetscFunctionBegin;
  if (b->n == b->cap) {
    PetscInt64 cap = PetscMax(2 * b->cap, 16);

    /* grow geometrically, but never past what PetscInt can index */
    PetscCall(SpTrsvCheckCount(b->n + 1, "nonzeros"));
    if (cap >= (PetscInt64)PETSC_INT_MAX) cap = (PetscInt64)PETSC_INT_MAX - 1;
    PetscCall(SpTrsvIntBufReserve(b, cap));
  }
  b->a[b->n++] = v;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* hand the array over (PetscMalloc'ed, at least one entry) and reset the buffer */
PetscErrorCode SpTrsvIntBufFinish(SpTrsvIntBuf *b, PetscInt **a)
{
  PetscFunctionBegin;
  if (!b->cap) PetscCall(SpTrsvIntBufReserve(b, 1));
  *a     = b->a;
  b->a   = NULL;
  b->n   = 0;
  b->cap = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvOptionName - "-<prefix of obj><name>", the option as the user types it for this object (name
  without its leading dash, e.g. "mat_sptrsv_backend")
*/
PetscErrorCode SpTrsvOptionName(PetscObject obj, const char *name, char *buf, size_t len)
{
  const char *prefix = NULL;

  PetscFunctionBegin;
  if (obj) PetscCall(PetscObjectGetOptionsPrefix(obj, &prefix));
  PetscCall(PetscSNPrintf(buf, len, "-%s%s", prefix ? prefix : "", name));
  PetscFunctionReturn(PETSC_SUCCESS);
}

const char *SpTrsvErrorText(PetscErrorCode ierr, const char *fallback)
{
  const char *text = NULL, *specific = NULL;

  (void)PetscErrorMessage(ierr, &text, (void *)&specific); /* char ** before PETSc 3.20, const char ** after */
  return specific ? specific : (text ? text : fallback);
}
