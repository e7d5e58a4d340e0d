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
  PetscErrorCode (*destroy)(SpTrsvSolver);
  /* vectors in the backend's memory */
  PetscErrorCode (*vec_alloc)(PetscInt, PetscScalar **);
  PetscErrorCode (*vec_free)(PetscScalar **);
  PetscErrorCode (*perm_create)(PetscInt, const PetscInt *, void **); /* copy an index array */
  PetscErrorCode (*perm_destroy)(void **);
  PetscErrorCode (*gather)(PetscInt, const void *, const PetscScalar *, PetscScalar *);  /* y[k] = x[p[k]] */
  PetscErrorCode (*scatter)(PetscInt, const void *, const PetscScalar *, PetscScalar *); /* y[p[k]] = x[k] */
  PetscErrorCode (*copy)(PetscInt, const PetscScalar *, PetscScalar *);
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
   SpTrsvSolver: one oriented triangle op(T) bound to a format, a plan and a backend
*/
struct _n_SpTrsvSolver {
  SpTrsvTri               tri;
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
SPTRSV_INTERN PetscErrorCode SpTrsvSolverUpdateValues(SpTrsvSolver);
SPTRSV_INTERN PetscErrorCode SpTrsvSolverApply(SpTrsvSolver, const PetscScalar *, PetscScalar *);
SPTRSV_INTERN PetscErrorCode SpTrsvSolverDestroy(SpTrsvSolver *);
SPTRSV_INTERN PetscLogDouble SpTrsvSolverFlops(SpTrsvSolver);
