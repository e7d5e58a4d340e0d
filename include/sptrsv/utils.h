/* Small helpers shared by the factorizations, the block triangles and the ISAI (private to the plugin) */
#pragma once
#include <petscmat.h>
#include <sptrsv/compat.h>

/* a growable array of PetscInt used while building patterns */
typedef struct {
  PetscInt  *a;
  PetscInt64 n, cap;
} SpTrsvIntBuf;

SPTRSV_INTERN PetscErrorCode SpTrsvIntBufPush(SpTrsvIntBuf *, PetscInt);
SPTRSV_INTERN PetscErrorCode SpTrsvIntBufReserve(SpTrsvIntBuf *, PetscInt64);
SPTRSV_INTERN PetscErrorCode SpTrsvIntBufFinish(SpTrsvIntBuf *, PetscInt **);

/* SpTrsvIntBufPush() with its common case (room left) inline: the symbolic factorizations push every entry */
static inline PetscErrorCode SpTrsvIntBufAppend(SpTrsvIntBuf *b, PetscInt v)
{
  if (PetscLikely(b->n < b->cap)) {
    b->a[b->n++] = v;
    return PETSC_SUCCESS;
  }
  return SpTrsvIntBufPush(b, v);
}

/* counts accumulated in 64 bits must fit in PetscInt (with room for a "+ 1"); what names them in the error */
SPTRSV_INTERN PetscErrorCode SpTrsvCheckCount(PetscInt64, const char *);
/* an array the CUDA kernels index with int: count < INT_MAX, else an error naming it (what) and the way around it
   (avoid, e.g. "use -mat_sptrsv_storage csr"; may be NULL) */
SPTRSV_INTERN PetscErrorCode SpTrsvCheckIndex32(PetscInt64, const char *, const char *);
/* *count = a * b when it fits in PetscInt (with room for a "+ 1"), else an error naming what */
SPTRSV_INTERN PetscErrorCode SpTrsvCheckProduct(PetscInt64, PetscInt64, const char *, PetscInt64 *);

/* the CSR arrays of a MATSEQAIJ (or a derived type) without copies; values optional (NULL) */
SPTRSV_INTERN PetscErrorCode SpTrsvMatGetCSR(Mat, const PetscInt **, const PetscInt **, const PetscScalar **);
SPTRSV_INTERN PetscErrorCode SpTrsvMatRestoreCSR(Mat, const PetscInt **, const PetscInt **, const PetscScalar **);

/* the option name "-<prefix><name>" of an object, for messages */
SPTRSV_INTERN PetscErrorCode SpTrsvOptionName(PetscObject, const char *, char *, size_t);

/* the message of an error code caught with PetscReturnErrorHandler (a candidate path refused, a best-effort step that
   stopped): its specific text, else its generic one, else fallback (utils.c: PetscErrorMessage's signature is C's) */
SPTRSV_INTERN const char *SpTrsvErrorText(PetscErrorCode, const char *);

/*
  SpTrsvAllFinite - whether the n values are all finite (no NaN, no Inf), in one pass without branches or calls: 0 * x
  is +-0 for a finite x and NaN for an Inf or a NaN, and a sum of +-0 stays 0 (four partial sums, so that the adds do
  not wait on each other). The scans that must name the first non-finite entry run only when this says there is one:
  PETSc's PetscIsNanReal is a library call per value (PETSc 3.18), which made those scans cost as much as the
  factorization itself.
*/
static inline PetscBool SpTrsvAllFinite(const PetscScalar *v, PetscInt n)
{
  PetscReal s0 = 0, s1 = 0, s2 = 0, s3 = 0;
  PetscInt  i  = 0;

  for (; i + 4 <= n; i += 4) {
    s0 += 0.0 * PetscRealPart(v[i]);
    s1 += 0.0 * PetscRealPart(v[i + 1]);
    s2 += 0.0 * PetscRealPart(v[i + 2]);
    s3 += 0.0 * PetscRealPart(v[i + 3]);
#if defined(PETSC_USE_COMPLEX)
    s0 += 0.0 * PetscImaginaryPart(v[i]);
    s1 += 0.0 * PetscImaginaryPart(v[i + 1]);
    s2 += 0.0 * PetscImaginaryPart(v[i + 2]);
    s3 += 0.0 * PetscImaginaryPart(v[i + 3]);
#endif
  }
  for (; i < n; i++) {
    s0 += 0.0 * PetscRealPart(v[i]);
#if defined(PETSC_USE_COMPLEX)
    s0 += 0.0 * PetscImaginaryPart(v[i]);
#endif
  }
  return (PetscBool)(s0 + s1 + s2 + s3 == 0.0);
}
