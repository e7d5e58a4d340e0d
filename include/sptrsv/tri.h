/* SpTrsvTri: one sparse triangle (private to the plugin) */
#pragma once
#include <petscsptrsv.h>
#include <sptrsv/compat.h>

typedef enum {
  SPTRSV_LOWER,
  SPTRSV_UPPER
} SpTrsvUplo;

/*
   A triangle T stores its strictly triangular part in CSR (columns ascending in each row) and, unless
   it has a unit diagonal, the inverse of its diagonal. Arrays are PetscMalloc'ed and owned by T.
   The CSC view (the CSR of T^T) is built on demand (transposed solves, the CSC format, PC gs) and, once it
   exists, refreshed when the values change.
*/
typedef struct _n_SpTrsvTri *SpTrsvTri;
struct _n_SpTrsvTri {
  PetscInt     n;
  PetscInt     bs; /* block size; 1 for AIJ */
  SpTrsvUplo   uplo;
  PetscBool    unit;
  PetscInt    *i, *j; /* CSR of the strict part */
  PetscScalar *a;
  PetscScalar *idiag; /* n entries, 1/T(i,i); NULL when unit */
  /* CSC view */
  PetscBool    has_csc;
  PetscInt    *ci, *cj, *cmap; /* column pointers, row indices, CSC slot -> CSR slot */
  PetscScalar *ca;
  PetscInt     state;        /* bumped by SpTrsvTriValuesChanged() */
  PetscBool    values_unset; /* a and idiag not written yet (SpTrsvTriSetPatternTrusted() without zeroing): a copy made
                                now is dead, the numeric phase refreshes every copy; cleared by SpTrsvTriValuesChanged() */
  /* supernode partition known from the factorization (a supernodal direct solver), NULL when none: supernode k holds
     rows/columns [super[k], super[k+1]), nsuper + 1 entries, super[0] = 0, super[nsuper] = n; owned by T
     (SpTrsvTriSetSupernodes()); a path that groups rows or columns into dense blocks may use it as a hint */
  PetscInt  nsuper;
  PetscInt *super;
};

/*
   An oriented view op(T), op = identity or transpose. Solving op(T) x = b reads either the rows of
   op(T) (pull: x_i = (b_i - sum_j op(T)_ij x_j) / d_i) or its columns (push). For op = transpose, the
   rows of op(T) are the columns of T, so transpose solves need no new storage.
*/
typedef struct {
  PetscInt           n;
  PetscBool          lower; /* op(T) is lower triangular */
  PetscBool          unit;
  PetscInt           nnz;
  const PetscInt    *ri, *rj; /* rows of op(T) */
  const PetscScalar *ra;
  const PetscInt    *ci, *cj; /* columns of op(T) */
  const PetscScalar *ca;
  const PetscScalar *idiag;
  PetscInt           nsuper; /* T's supernode partition (the same for op(T) = T^T); 0 and NULL when none is known */
  const PetscInt    *super;
} SpTrsvOp;

SPTRSV_INTERN PetscErrorCode SpTrsvTriCreate(PetscInt, SpTrsvUplo, PetscBool, SpTrsvTri *);
SPTRSV_INTERN PetscErrorCode SpTrsvTriSetPattern(SpTrsvTri, PetscInt *, PetscInt *);
SPTRSV_INTERN PetscErrorCode SpTrsvTriSetPatternTrusted(SpTrsvTri, PetscInt *, PetscInt *, PetscBool); /* built by a symbolic phase: checked in debug builds; values zeroed or unset */
SPTRSV_INTERN PetscErrorCode SpTrsvTriValuesChanged(SpTrsvTri);
SPTRSV_INTERN PetscErrorCode SpTrsvTriBuildCSC(SpTrsvTri);
SPTRSV_INTERN PetscErrorCode SpTrsvTriGetOp(SpTrsvTri, PetscBool, SpTrsvOp *);
SPTRSV_INTERN PetscErrorCode SpTrsvTriCheckPattern(SpTrsvTri);
SPTRSV_INTERN PetscErrorCode SpTrsvTriCheckValues(SpTrsvTri);
SPTRSV_INTERN PetscErrorCode SpTrsvTriFindNonFinite(SpTrsvTri, PetscInt *, PetscInt *);
SPTRSV_INTERN PetscErrorCode SpTrsvTriSetSupernodes(SpTrsvTri, PetscInt, const PetscInt *); /* copies; nsuper 0 clears */
SPTRSV_INTERN PetscErrorCode SpTrsvTriDestroy(SpTrsvTri *);
