/* SpTrsvGS: Gauss-Seidel / SOR sweeps of a sparse matrix on a backend (private to the plugin) */
#pragma once
#include <sptrsv/multicolor.h>

/*
   A = L + D + U (strict lower, diagonal, strict upper) of a sequential AIJ matrix. Two sweep solvers
   (see SpTrsvSolver in backend.h) share the split:
     forward  = sweep over L (waits on L, reads U at the old iterate), rows in L's plan order;
     backward = sweep over U (waits on U, reads L at the old iterate), rows in U's plan order;
   both with idiag_i = omega / (a_ii + shift), the diagonal MatSOR uses (1 / a_ii when omega = 1 and shift <= 0). One sweep is exactly one
   MatSOR forward (backward) sweep; from a zero iterate it is the triangular solve with (D/omega + L)
   ((D/omega + U)). Sweeps run in place (one vector) when the pattern of A is structurally symmetric
   or the format is CSC, and on a copy of the old iterate otherwise (paper 000, section 5.2).
*/
/*
   The order of the rows in a sweep: exact (the natural order: MatSOR's, with the split above) or multicolor
   (Gauss-Seidel in the colour order of a distance-1 colouring, one launch per colour; see include/sptrsv/multicolor.h;
   made by SpTrsvGSCreateMulticolor(), L, U and the four solvers are then unused).
*/
typedef enum {
  SPTRSV_GS_ORDERING_EXACT,
  SPTRSV_GS_ORDERING_MULTICOLOR
} SpTrsvGSOrdering;

/*
   SpTrsvGSExactDevice - the exact ordering's values on the GPU (src/cuda/gs_exact.cu; exists in CUDA builds, called
   from host code through the device-ops table, include/sptrsv/deviceops.h): the maps lmap, umap, dmap of the split uploaded once per pattern; a refresh gathers L's and
   U's values (T->a's layout) and the relaxed inverse diagonal (MatSOR's rules, natural order) from a device value
   array of the matrix (a MATSEQAIJCUSPARSE's, in place). *clean is false when a value or an inverse diagonal entry
   is not finite or a diagonal entry is zero under omega = 1 and shift <= 0: the caller then refreshes on the host,
   which names the row. The sweep solvers take the arrays device to device; the host copies are downloaded only when
   something on the host needs them.
*/
/* the name SpTrsvGSExactDevice is in include/sptrsv/deviceops.h */
SPTRSV_INTERN PetscErrorCode SpTrsvGSExactDeviceCreate(PetscInt, PetscInt, PetscInt, const PetscInt *, const PetscInt *, const PetscInt *, PetscReal, PetscReal, SpTrsvGSExactDevice *);
SPTRSV_INTERN PetscErrorCode SpTrsvGSExactDeviceGather(SpTrsvGSExactDevice, const PetscScalar *, PetscBool *);
SPTRSV_INTERN PetscErrorCode SpTrsvGSExactDeviceGetArrays(SpTrsvGSExactDevice, const PetscScalar **, const PetscScalar **, const PetscScalar **);
SPTRSV_INTERN PetscErrorCode SpTrsvGSExactDeviceDownload(SpTrsvGSExactDevice, PetscScalar *, PetscScalar *, PetscScalar *);
SPTRSV_INTERN PetscErrorCode SpTrsvGSExactDeviceDestroy(SpTrsvGSExactDevice *);

typedef struct _n_SpTrsvGS *SpTrsvGS;
struct _n_SpTrsvGS {
  PetscInt                n;
  SpTrsvGSOrdering        ordering;
  PetscReal               omega, shift;
  SpTrsvFormat            format;
  SpTrsvPath              path;
  const SpTrsvBackendOps *backend;
  SpTrsvPathOptions     opts;
  SpTrsvTri               L, U;           /* strict parts of A, each with idiag = omega / (a_ii + shift) */
  PetscInt               *lmap, *umap;    /* A's value index of each entry of L and U */
  PetscInt               *dmap;           /* A's value index of each diagonal entry */
  PetscBool               structsym;      /* pattern of A structurally symmetric: in-place sweeps */
  SpTrsvSolver            fwd, bwd;       /* the two sweeps */
  SpTrsvSolver            fwdT, bwdT;     /* (D/omega + L)^T = solve with L^T, (D/omega + U)^T with U^T: transposed applications, made on first use */
  SpTrsvGSExactDevice     exdev;          /* CUDA backend, MATSEQAIJCUSPARSE: the values gathered on the GPU (made at the first device refresh) */
  PetscBool               host_stale;     /* the last refresh was on the GPU: L->a, U->a and idiag are stale until SpTrsvGSSyncHost() */
  PetscScalar            *xold, *dscale;  /* backend: copy of the old iterate; (2 - omega)/idiag for the transposed symmetric sweep */
  PetscBool               dscale_valid;
  /* MatSOR's zero-diagonal rules (MatInvertDiagonal_SeqAIJ; see SpTrsvGSFillValues()): with omega = 1 and
     shift <= 0 the shift is not applied and a zero a_ii is an error (shift = 0) or is recorded here (shift < 0;
     PC gs then fails as PCSOR, PC_FACTOR_NUMERIC_ZEROPIVOT); NaN/Inf values and an inverse diagonal that is not
     finite (a_ii + shift = 0 otherwise) are recorded too: MatSOR does not look for them */
  PetscInt                zerodiag_row;   /* last zero diagonal entry met (omega = 1, shift < 0), or -1 */
  PetscInt                nonfinite_row;  /* first row with a NaN/Inf value or inverse diagonal entry, or -1 */
  PetscInt                nonfinite_col;  /* its column (the row itself: the diagonal) */
  PetscBool               nonfinite_idiag; /* that diagonal entry is finite, omega / (a_ii + shift) is not */
  /* multicolor ordering */
  SpTrsvMC                mc, mcT;        /* A in colour order; A^T on the same colouring (made on first transposed use) */
  Mat                     A;              /* the matrix (a reference), whose values mcT is made from */
  PetscScalar            *didiag;         /* host: omega / (a_ii + shift) in natural order (refresh scratch) */
  PetscBool               devvalues;      /* the last refresh read the matrix's device values in place (both orderings) */
  PetscInt                nsweeps;        /* sweeps done (for -log_view flops and tests) */
  PetscLogDouble          flops;          /* flops of all sweeps so far */
};

typedef enum {
  SPTRSV_GS_FORWARD   = 1,
  SPTRSV_GS_BACKWARD  = 2,
  SPTRSV_GS_SYMMETRIC = 3
} SpTrsvGSSweep;

SPTRSV_INTERN PetscErrorCode SpTrsvGSCreate(Mat, PetscReal, PetscReal, SpTrsvFormat, SpTrsvPath, const SpTrsvBackendOps *, const SpTrsvPathOptions *, SpTrsvGS *);
SPTRSV_INTERN PetscErrorCode SpTrsvGSCreateMulticolor(Mat, PetscReal, PetscReal, const SpTrsvBackendOps *, const SpTrsvPathOptions *, const SpTrsvColoringSpec *, const char[], SpTrsvGS *);
SPTRSV_INTERN PetscErrorCode SpTrsvGSUpdateValues(SpTrsvGS, Mat);
SPTRSV_INTERN PetscErrorCode SpTrsvGSApply(SpTrsvGS, SpTrsvGSSweep, PetscInt, PetscBool, const PetscScalar *, PetscScalar *);
SPTRSV_INTERN PetscErrorCode SpTrsvGSApplyTranspose(SpTrsvGS, SpTrsvGSSweep, const PetscScalar *, PetscScalar *, PetscScalar *);
SPTRSV_INTERN PetscErrorCode SpTrsvGSDestroy(SpTrsvGS *);
