/* Small helpers shared by the factorizations, the block triangles and the ISAI: growable index arrays,
   count checks, CSR access */
#include <sptrsv/utils.h>

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
