/* SpTrsvBackend: where plans run (private to the plugin) */
#pragma once
#include <sptrsv/plan.h>

typedef struct _n_SpTrsvSolver *SpTrsvSolver;

/*
   A backend is a small table of functions. All arrays handed to it live in its memory space
   (memtype). Adding a path = an analysis function + an executor per backend; nothing else changes.
*/
typedef struct {
  const char   *name;
  PetscMemType  memtype;
  /* per oriented triangle: upload plan, pattern and values once per pattern */
  PetscErrorCode (*setup)(SpTrsvSolver);
  PetscErrorCode (*update_values)(SpTrsvSolver); /* new values, same pattern */
  PetscErrorCode (*solve)(SpTrsvSolver, const PetscScalar *, PetscScalar *); /* x = op(T)^{-1} b; b != x */
  /* a relaxed sweep (solvers with a rest, see SpTrsvSolverSweep): b, xold, x; b != x, xold == x allowed */
  PetscErrorCode (*sweep)(SpTrsvSolver, const PetscScalar *, const PetscScalar *, PetscScalar *);
  PetscErrorCode (*destroy)(SpTrsvSolver);
  /* vectors in the backend's memory */
  PetscErrorCode (*vec_alloc)(PetscInt, PetscScalar **);
  PetscErrorCode (*vec_free)(PetscScalar **);
  PetscErrorCode (*perm_create)(PetscInt, const PetscInt *, void **); /* copy an index array */
  PetscErrorCode (*perm_destroy)(void **);
  PetscErrorCode (*gather)(PetscInt, const void *, const PetscScalar *, PetscScalar *);  /* y[k] = x[p[k]] */
  PetscErrorCode (*scatter)(PetscInt, const void *, const PetscScalar *, PetscScalar *); /* y[p[k]] = x[k] */
  PetscErrorCode (*copy)(PetscInt, const PetscScalar *, PetscScalar *);
  PetscErrorCode (*pointwise_mult)(PetscInt, const PetscScalar *, const PetscScalar *, PetscScalar *); /* y = d .* x (d, x, y) */
  PetscErrorCode (*set_values)(PetscInt, const PetscScalar *, PetscScalar *); /* backend array = host array */
  /* access a PETSc vector's values in the backend's memory: in place when the vector lives there
     (host arrays, or VECCUDA with a CUDA PETSc), else through the staging buffer (n entries) */
  PetscErrorCode (*vec_get)(Vec, PetscBool, PetscScalar *, PetscScalar **);     /* read?, staging, array */
  PetscErrorCode (*vec_restore)(Vec, PetscBool, PetscScalar *, PetscScalar **); /* read?, staging, array */
  PetscBool (*vec_in_place)(Vec); /* would vec_get use the vector's own storage? (for -ksp_view) */
} SpTrsvBackendOps;

SPTRSV_INTERN const SpTrsvBackendOps SpTrsvBackendHost;
SPTRSV_INTERN PetscErrorCode         SpTrsvBackendCUDAGet(const SpTrsvBackendOps **, PetscBool *, const char **);
SPTRSV_INTERN PetscErrorCode         SpTrsvBackendCUDAGetStream(void *); /* CUDA builds: *(cudaStream_t *) = the stream the solves use */
SPTRSV_INTERN PetscErrorCode         SpTrsvBackendSelect(SpTrsvBackendType, const SpTrsvBackendOps **, const char **);

/* how a backend runs a plan (read by the CUDA backend; the host backend ignores them) */
typedef struct {
  PetscBool use_graph;   /* capture the launch sequence in a CUDA graph (-mat_sptrsv_graph) */
  PetscInt  fuse_passes; /* fuse a level into one block when it takes at most this many passes (-mat_sptrsv_fuse_passes) */
} SpTrsvSolverOptions;

/*
   SpTrsvSolver: one oriented triangle op(T) bound to a format, a plan and a backend.

   A sweep solver (Gauss-Seidel/SOR, created by SpTrsvSolverCreateSweep) also holds the rest R of a
   matrix A = T + R (T with its diagonal, R the opposite strict triangle, same row indexing, never
   transposed) and keep = 1 - omega; the diagonal of T is stored as idiag_i = omega / a_ii. A sweep
   computes, row by row in the plan's order,
       x_i = keep * xold_i + idiag_i * (b_i - sum_j T_ij x_j - sum_j R_ij xold_j)
   which is one forward (T lower) or backward (T upper) SOR sweep of PETSc's MatSOR. A plain solve of
   a sweep solver is the sweep from xold = 0 (MatSOR's zero initial guess).
*/
struct _n_SpTrsvSolver {
  SpTrsvTri               tri;
  SpTrsvTri               rest;  /* sweep solvers: the rest R; NULL for a plain triangle */
  PetscScalar             keep;  /* sweep solvers: 1 - omega */
  PetscScalar            *cdiag; /* sweep solvers, CSC: keep / idiag_i (natural order), folded into the right-hand side */
  PetscInt                rest_state;
  PetscBool               transpose;
  SpTrsvFormat            format;
  SpTrsvOp                op;
  SpTrsvPlan              plan;
  const SpTrsvBackendOps *backend;
  void                   *bdata; /* backend's device copy of plan and values */
  PetscInt                state; /* tri->state the backend copy was made from */
  SpTrsvSolverOptions     opts;
};

SPTRSV_INTERN PetscErrorCode SpTrsvSolverOptionsDefault(SpTrsvSolverOptions *);
SPTRSV_INTERN PetscErrorCode SpTrsvSolverCreate(SpTrsvTri, PetscBool, SpTrsvFormat, SpTrsvPlanType, const SpTrsvBackendOps *, SpTrsvSolver *);
SPTRSV_INTERN PetscErrorCode SpTrsvSolverCreateWithOptions(SpTrsvTri, PetscBool, SpTrsvFormat, SpTrsvPlanType, const SpTrsvBackendOps *, const SpTrsvSolverOptions *, SpTrsvSolver *);
SPTRSV_INTERN PetscErrorCode SpTrsvSolverCreateSweep(SpTrsvTri, SpTrsvTri, PetscReal, SpTrsvFormat, SpTrsvPlanType, const SpTrsvBackendOps *, const SpTrsvSolverOptions *, SpTrsvSolver *);
SPTRSV_INTERN PetscErrorCode SpTrsvSolverSweep(SpTrsvSolver, const PetscScalar *, const PetscScalar *, PetscScalar *);
SPTRSV_INTERN PetscErrorCode SpTrsvSolverUpdateValues(SpTrsvSolver);
SPTRSV_INTERN PetscErrorCode SpTrsvSolverApply(SpTrsvSolver, const PetscScalar *, PetscScalar *);
SPTRSV_INTERN PetscErrorCode SpTrsvSolverDestroy(SpTrsvSolver *);
SPTRSV_INTERN PetscLogDouble SpTrsvSolverFlops(SpTrsvSolver);
SPTRSV_INTERN PetscLogDouble SpTrsvSolverSweepFlops(SpTrsvSolver);
