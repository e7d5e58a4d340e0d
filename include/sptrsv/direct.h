/* Complete LU and Cholesky factors from supernodal direct solvers (private to the plugin)

   MAT_FACTOR_LU: SuperLU (src/mat/factor/lu_superlu.c), P_r A P_c = L U with partial pivoting.
   MAT_FACTOR_CHOLESKY: CHOLMOD (src/mat/factor/chol_cholmod.c), P A P^T = Lc Lc^T (supernodal).
   Both are converted once per pattern into the plugin's triangles (SpTrsvFactor: L unit lower, U upper with
   an inverted diagonal) with the library's supernode partition recorded on both triangles
   (SpTrsvTriSetSupernodes()), so every path solves them unchanged. The numeric phase refreshes the values;
   for LU a new pivot sequence (or pattern of L/U) rebuilds the triangles and asks for a new analysis.
   Built only with -DPETSC_SPTRSV_HAVE_SUPERLU / -DPETSC_SPTRSV_HAVE_CHOLMOD (the makefile sets them when the
   headers are found); otherwise the symbolic phases fail with PETSC_ERR_SUP naming the missing library.
*/
#pragma once
#include <sptrsv/factor.h>

/* the ordering the LU's column permutation comes from (-mat_sptrsv_lu_ordering) */
typedef enum {
  SPTRSV_LU_ORDERING_PETSC,  /* the column IS of MatLUFactorSymbolic (-pc_factor_mat_ordering_type, nd by default) */
  SPTRSV_LU_ORDERING_COLAMD  /* SuperLU's COLAMD on the pattern of A */
} SpTrsvLUOrdering;
SPTRSV_INTERN const char *const SpTrsvLUOrderings[];

/* the ordering of the Cholesky factor (-mat_sptrsv_cholesky_ordering) */
typedef enum {
  SPTRSV_CHOL_ORDERING_PETSC,  /* the IS of MatCholeskyFactorSymbolic (cholmod_analyze_p with CHOLMOD_GIVEN) */
  SPTRSV_CHOL_ORDERING_AMD,    /* CHOLMOD's AMD */
  SPTRSV_CHOL_ORDERING_METIS,  /* CHOLMOD's METIS nested dissection */
  SPTRSV_CHOL_ORDERING_NESDIS, /* CHOLMOD's own nested dissection */
  SPTRSV_CHOL_ORDERING_AUTO    /* CHOLMOD's default strategy (AMD, METIS when AMD fills too much) */
} SpTrsvCholOrdering;
SPTRSV_INTERN const char *const SpTrsvCholOrderings[];

typedef struct {
  SpTrsvLUOrdering   lu_ordering;
  PetscReal          pivot_threshold; /* SuperLU's DiagPivotThresh in [0, 1] (-mat_sptrsv_lu_pivot_threshold) */
  SpTrsvCholOrdering chol_ordering;
  PetscBool          chol_overlap; /* CHOLMOD's numeric factorization of the symbolic phase's values in a host thread while the triangles are analysed (-mat_sptrsv_cholesky_overlap) */
  char               petsc_ordering[64]; /* the name of PETSc's ordering, for the view */
} SpTrsvDirectOptions;

/* what both direct factors share at the head of their fac->sym (the view and MatGetInfo read it) */
typedef struct {
  char           library[32];  /* "SuperLU 5.3.0", "CHOLMOD 3.0.14" */
  char           ordering[96]; /* the ordering actually used */
  PetscInt       nnzL, nnzU;   /* entries of L and U including the diagonal (as PETSc counts them) */
  PetscInt       nsuper;       /* supernodes */
  PetscInt       maxsuper;     /* widest supernode */
  PetscInt       nnumeric;     /* numeric factorizations so far */
  PetscInt       nrebuild;     /* of which changed the pivot order or pattern (triangles rebuilt, analysis redone) */
  PetscBool      rebuilt;      /* the last numeric phase rebuilt the triangles: the solvers must be made again */
  PetscObjectId  Aid;          /* the matrix and its state whose values the symbolic phase already factored */
  PetscObjectState Astate;
  PetscBool      fresh;        /* the symbolic phase's factorization has not been used by a numeric phase yet */
  PetscInt       noverlap;     /* Cholesky: numeric factorizations that ran in a host thread beside the analysis */
} SpTrsvDirectHead;

SPTRSV_INTERN PetscErrorCode SpTrsvDirectOptionsInitialize(SpTrsvDirectOptions *);
/* inside the factor's PetscOptionsBegin/End: the options of its factor type (LU or Cholesky); obj names them */
SPTRSV_INTERN PetscErrorCode SpTrsvDirectOptionsRead(SpTrsvOptionItems, PetscObject, MatFactorType, SpTrsvDirectOptions *);

/* symbolic phases: order, factor once (the pattern of a supernodal LU depends on the pivots), build the triangles
   with their supernode partition; the IS may be NULL (MATORDERINGEXTERNAL: the library's own ordering) */
SPTRSV_INTERN PetscErrorCode SpTrsvFactorLUSymbolic(Mat, IS, const MatFactorInfo *, const SpTrsvDirectOptions *, SpTrsvFactor);
SPTRSV_INTERN PetscErrorCode SpTrsvFactorCholeskySymbolic(Mat, IS, const MatFactorInfo *, const SpTrsvDirectOptions *, SpTrsvFactor);
/* numeric phases: zero pivot / not positive definite recorded in fac->error (errors with A->erroriffailure), NaN/Inf
   as ILU/ICC; LU: head->rebuilt tells the caller to redo the analysis */
SPTRSV_INTERN PetscErrorCode SpTrsvFactorLUNumeric(Mat, const MatFactorInfo *, SpTrsvFactor);
SPTRSV_INTERN PetscErrorCode SpTrsvFactorCholeskyNumeric(Mat, const MatFactorInfo *, SpTrsvFactor);

/* the factor types whose triangles are solved as ICC's (L = Ut^T, U = D Ut): a path's icc flag covers them */
static inline PetscBool SpTrsvFactorTypeIsSymmetric(MatFactorType ftype)
{
  return (PetscBool)(ftype == MAT_FACTOR_ICC || ftype == MAT_FACTOR_CHOLESKY);
}
static inline const char *SpTrsvFactorTypeName(MatFactorType ftype)
{
  return ftype == MAT_FACTOR_ILU ? "ILU" : ftype == MAT_FACTOR_ICC ? "ICC" : ftype == MAT_FACTOR_LU ? "LU" : ftype == MAT_FACTOR_CHOLESKY ? "Cholesky" : "unsupported";
}

/* the head of a direct factor (NULL for ILU/ICC) */
static inline SpTrsvDirectHead *SpTrsvFactorDirectHead(SpTrsvFactor fac)
{
  return (fac && (fac->ftype == MAT_FACTOR_LU || fac->ftype == MAT_FACTOR_CHOLESKY)) ? (SpTrsvDirectHead *)fac->sym : NULL;
}
/* one -ksp_view line: "LU (SuperLU 5.3.0, ordering nd, nnz(L)=..., nnz(U)=..., supernodes=..., mean supernode width ...)" */
SPTRSV_INTERN PetscErrorCode SpTrsvFactorDirectView(SpTrsvFactor, PetscViewer);
/* the common tail of both symbolic phases' head: counts and the supernode statistics from the triangles */
SPTRSV_INTERN PetscErrorCode SpTrsvDirectHeadSetCounts(SpTrsvFactor, SpTrsvDirectHead *);
/* the library's zero pivot: recorded, or an error with errorif (row of the factored matrix, what the library said) */
SPTRSV_INTERN PetscErrorCode SpTrsvDirectZeroPivot(SpTrsvFactor, PetscBool, PetscErrorCode, PetscInt, PetscReal, const char *);
/* does the symbolic phase's factorization of A still hold (same matrix, same state)? clears the flag */
SPTRSV_INTERN PetscErrorCode SpTrsvDirectTakeFresh(Mat, SpTrsvDirectHead *, PetscBool *);
SPTRSV_INTERN PetscErrorCode SpTrsvDirectMarkFresh(Mat, SpTrsvDirectHead *);

/* the values of a numeric phase: clears fac's error, checks that A still has the symbolic phase's pattern (nnzA, ai,
   aj; kind names the factorization in the message) and its values are finite (NaN/Inf as ILU/ICC: fac->nonfinite),
   then hands them to take(ctx, aa) unless the check failed; A's arrays are restored before any error returns */
SPTRSV_INTERN PetscErrorCode SpTrsvDirectNumericValues(Mat, SpTrsvFactor, PetscInt, const PetscInt *, const PetscInt *, const char *, PetscErrorCode (*)(void *, const PetscScalar *), void *);
/* the common end of both numeric phases once the library's pivots are checked: a factor of NaN/Inf input solves to NaN,
   else NaN/Inf in the triangles is reported as ILU/ICC do; the triangles' values changed unless refactored is false (the
   symbolic phase's factorization of these same values was reused: the triangles hold them already, and every solver's
   copy, the partitioned inverse and the inverted blocks made at setup from them, stays valid) and the input is finite */
SPTRSV_INTERN PetscErrorCode SpTrsvDirectNumericFinish(SpTrsvFactor, PetscBool, PetscBool);
/* The triangles of a direct factor read off the library's supernodal storage (its "image"): the strict CSR patterns
   of L (unit lower) and U (upper), for every slot the index of its value in the library's arrays (lmap, umap: what an
   index means is the library's), the index of U(k,k)'s value (dmap) and the supernode partition. Each library walks
   its storage twice: the first walk counts (SpTrsvDirectImageAddL/U before SpTrsvDirectImageAllocate(); SetDiag does
   nothing), the second stores the same entries in the same order (the columns of each row ascending); then
   SpTrsvDirectImageFinish() records the partition and SpTrsvDirectImageInstall() hands the patterns to the factor. */
typedef struct {
  PetscInt  n;
  PetscInt *li, *lj, *ui, *uj; /* strict CSR patterns of L and U */
  PetscInt *lmap, *umap;       /* slot -> index of its value in the library's arrays */
  PetscInt *dmap;              /* row k -> index of U(k,k)'s value */
  PetscInt *super, nsuper;     /* the library's supernode partition */
  PetscInt *lpos, *upos;       /* row cursors of the second walk (NULL during the first) */
} SpTrsvDirectImage;

/* an empty image of order n (row counts zero), ready for the counting walk */
SPTRSV_INTERN PetscErrorCode SpTrsvDirectImageCreate(PetscInt, SpTrsvDirectImage *);
/* after the counting walk: row pointers, the pattern, map and diagonal arrays, the cursors of the storing walk */
SPTRSV_INTERN PetscErrorCode SpTrsvDirectImageAllocate(SpTrsvDirectImage *);
/* after the storing walk: frees the cursors, copies the partition (nsuper supernodes, super[0..nsuper]) */
SPTRSV_INTERN PetscErrorCode SpTrsvDirectImageFinish(SpTrsvDirectImage *, PetscInt, const int *);
/* the triangles of fac from the image (created when fac has none: *created, may be NULL), with the partition on both;
   keep: they take copies (the image stays whole, e.g. to compare the next factorization's), else the patterns are
   handed over (the image keeps its maps and partition); values_later: the values are left unset (SpTrsvTri's
   values_unset) for a numeric phase that writes them all later (Cholesky: the pattern comes from the symbolic
   analysis), else zeroed for the caller to write before the solvers are set up (LU: the factorization is done) */
SPTRSV_INTERN PetscErrorCode SpTrsvDirectImageInstall(SpTrsvDirectImage *, PetscBool, PetscBool, SpTrsvFactor, PetscBool *);
/* the same patterns and partition (false when a has none yet) */
SPTRSV_INTERN PetscErrorCode SpTrsvDirectImageSamePattern(const SpTrsvDirectImage *, const SpTrsvDirectImage *, PetscBool *);
SPTRSV_INTERN PetscErrorCode SpTrsvDirectImageReset(SpTrsvDirectImage *);

/* entry (r, j) of L (j < r) or of U (j > r) whose value is at index v: counted in the first walk, stored in the second */
static inline void SpTrsvDirectImageAddL(SpTrsvDirectImage *im, PetscInt r, PetscInt j, PetscInt v)
{
  if (!im->lpos) im->li[r + 1]++;
  else {
    const PetscInt p = im->lpos[r]++;

    im->lj[p]   = j;
    im->lmap[p] = v;
  }
}
static inline void SpTrsvDirectImageAddU(SpTrsvDirectImage *im, PetscInt r, PetscInt j, PetscInt v)
{
  if (!im->upos) im->ui[r + 1]++;
  else {
    const PetscInt p = im->upos[r]++;

    im->uj[p]   = j;
    im->umap[p] = v;
  }
}
/* U(k,k)'s value is at index v (second walk) */
static inline void SpTrsvDirectImageSetDiag(SpTrsvDirectImage *im, PetscInt k, PetscInt v)
{
  if (im->dmap) im->dmap[k] = v;
}

/* -log_view events beside PETSc's MatLUFactorNum / MatCholFctrNum: the library's factorization and the conversion */
#include <sptrsv/events.h> /* SPTRSV_LUNumeric, SPTRSV_CholNumeric, SPTRSV_DirectConvert */
