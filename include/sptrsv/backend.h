/* SpTrsvBackend: where plans run (private to the plugin) */
#pragma once
#include <sptrsv/path.h>
#include <sptrsv/devmem.h>

/*
   A backend is a small table of functions: where the solves run (its executor slot in every path's
   table, include/sptrsv/path.h) and how vectors live there. All arrays handed to it live in its memory
   space (memtype). Adding a path needs nothing here.
*/
typedef enum {
  SPTRSV_VEC_READ,      /* the values are read */
  SPTRSV_VEC_WRITE,     /* the values are overwritten */
  SPTRSV_VEC_READ_WRITE /* read, then written */
} SpTrsvVecAccess;

typedef struct {
  const char    *name;
  PetscMemType   memtype;
  SpTrsvExecSlot slot; /* which executor of a path runs here */
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
  PetscErrorCode (*vec_get)(Vec, SpTrsvVecAccess, PetscScalar *, PetscScalar **);     /* access, staging, array */
  PetscErrorCode (*vec_restore)(Vec, SpTrsvVecAccess, PetscScalar *, PetscScalar **); /* access, staging, array */
  PetscBool (*vec_in_place)(Vec); /* would vec_get use the vector's own storage? (for -ksp_view) */
  PetscErrorCode (*synchronize)(void); /* wait for everything enqueued (timings: the automatic choice's measured check) */
} SpTrsvBackendOps;

SPTRSV_INTERN const SpTrsvBackendOps SpTrsvBackendHost;
/* the CUDA backend and its device: entries of the device-ops table (include/sptrsv/deviceops.h) in every build,
   GetStream in CUDA builds only (src/cuda/backend_cuda.cu) */
SPTRSV_INTERN PetscErrorCode         SpTrsvBackendCUDAGet(const SpTrsvBackendOps **, PetscBool *, const char **);
SPTRSV_INTERN PetscErrorCode         SpTrsvBackendCUDAGetStream(void *); /* CUDA builds: *(cudaStream_t *) = the stream the solves use */
SPTRSV_INTERN PetscErrorCode         SpTrsvBackendCUDAGetDeviceName(char *, size_t); /* the current device's name ("" without one) */
/*
   One GPU per process: the CUDA backend runs on one device, the one PETSc chose for the process (a CUDA PETSc:
   its default device, -device_select_cuda, by default rank % devices; without: the same rule, applied by the
   plugin), set current before the backend allocates, creates a stream or launches anything. Objects record it
   (SpTrsvStaging.device) and check it is still current when they run.
*/
SPTRSV_INTERN PetscErrorCode SpTrsvBackendCUDAGetDevice(SpTrsvDeviceInfo *); /* the backend's device (id, PCI bus id, name, devices seen); buffers 0 */
SPTRSV_INTERN PetscErrorCode SpTrsvBackendCUDACheckCurrent(const SpTrsvDeviceInfo *); /* error unless the current device is that one */
/* count the device buffers (NULL entries skipped) that are not device memory of info->id: adds to info->nbuffers, nforeign */
SPTRSV_INTERN PetscErrorCode SpTrsvBackendCUDACheckBuffers(SpTrsvDeviceInfo *, PetscInt, const void *const *);
/* the device arrays of a solver's CUDA executor (at most max of them; NULL entries possible) */
SPTRSV_INTERN PetscErrorCode SpTrsvSolverGetDeviceBuffers(SpTrsvSolver, PetscInt, const void **, PetscInt *);
/* what decides the CUDA variant of a caller whose GPU code is not (only) the plugin's CUDA backend (PC isai's
   apply runs PETSc's cuSPARSE matrices): whether it can run, whether auto takes it, and why (for the messages) */
typedef struct {
  PetscBool   available;
  PetscBool   automatic;
  const char *why;
} SpTrsvBackendCUDAUse;

/* resolve a request to a backend slot; option is the option as the user can type it (with its prefix), used in
   the messages; use NULL: the plugin's CUDA backend decides; note (size notelen) says what was chosen and why */
SPTRSV_INTERN PetscErrorCode SpTrsvBackendSelect(SpTrsvBackendType, const char *, const SpTrsvBackendCUDAUse *, SpTrsvExecSlot *, char *, size_t);
SPTRSV_INTERN PetscErrorCode SpTrsvBackendGet(SpTrsvExecSlot, const SpTrsvBackendOps **); /* the backend of a slot */
/* the option name "-<prefix><name>" of an object, for messages */
SPTRSV_INTERN PetscErrorCode SpTrsvOptionName(PetscObject, const char *, char *, size_t);

/*
   Staging of PETSc vectors for an operation that runs on a backend: b read, x written (or read and
   written), in place where the vectors live in the backend's memory, else through staging buffers; GPU
   time and flops logged as PETSc logs its own MatSolve. Shared by the factor Mat and PC gs.
*/
typedef struct {
  const SpTrsvBackendOps *backend;
  PetscInt                n;
  PetscScalar            *stage_b, *stage_x; /* NULL on the host backend */
  PetscBool               copies;            /* some vector had to be copied (shown by -ksp_view) */
  SpTrsvDeviceInfo        device;            /* the GPU the object runs on (id -1 on the host), checked at every apply */
} SpTrsvStaging;

typedef PetscErrorCode (*SpTrsvStagedOp)(void *, const PetscScalar *, PetscScalar *, PetscLogDouble *); /* ctx, b, x, flops */
SPTRSV_INTERN PetscErrorCode SpTrsvStagingCreate(const SpTrsvBackendOps *, PetscInt, SpTrsvStaging *);
SPTRSV_INTERN PetscErrorCode SpTrsvStagingApply(SpTrsvStaging *, Vec, Vec, PetscBool, SpTrsvStagedOp, void *);
SPTRSV_INTERN PetscErrorCode SpTrsvStagingDestroy(SpTrsvStaging *);
SPTRSV_INTERN PetscErrorCode SpTrsvStagingView(const SpTrsvStaging *, PetscViewer); /* the device line of -ksp_view (none on the host) */
/* the object's device record, its staging buffers and n more device buffers (NULL entries skipped) checked */
SPTRSV_INTERN PetscErrorCode SpTrsvStagingGetDeviceInfo(const SpTrsvStaging *, PetscInt, const void *const *, SpTrsvDeviceInfo *);

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
  const SpTrsvExecutor   *exec;  /* the plan's path's executor for this backend */
  void                   *bdata; /* the executor's data (device copy of plan and values) */
  SpTrsvSolver            nested; /* a solver of another path on the same op(T) to which the executor forwards values and
                                    solves (sptrsv_supernodal's sync-free delegate); made and destroyed by the executor */
  PetscInt                state; /* tri->state the backend copy was made from */
  SpTrsvPathOptions       opts;  /* the options it was made with (those of its path for its backend) */
  const void             *own;   /* its path's own options struct, inside opts */
  SpTrsvDevMem            mem;   /* the executor's device memory (include/sptrsv/devmem.h): counted around its calls */
};

SPTRSV_INTERN PetscErrorCode SpTrsvSolverCreate(SpTrsvTri, PetscBool, SpTrsvFormat, SpTrsvPath, const SpTrsvBackendOps *, SpTrsvSolver *);
SPTRSV_INTERN PetscErrorCode SpTrsvSolverCreateWithOptions(SpTrsvTri, PetscBool, SpTrsvFormat, SpTrsvPath, const SpTrsvBackendOps *, const SpTrsvPathOptions *, SpTrsvSolver *);
SPTRSV_INTERN PetscErrorCode SpTrsvSolverCreateSweep(SpTrsvTri, SpTrsvTri, PetscReal, SpTrsvFormat, SpTrsvPath, const SpTrsvBackendOps *, const SpTrsvPathOptions *, SpTrsvSolver *);
SPTRSV_INTERN PetscErrorCode SpTrsvSolverSweep(SpTrsvSolver, const PetscScalar *, const PetscScalar *, PetscScalar *);
SPTRSV_INTERN PetscErrorCode SpTrsvSolverUpdateValues(SpTrsvSolver);
SPTRSV_INTERN PetscErrorCode SpTrsvSolverMarkCurrent(SpTrsvSolver);
SPTRSV_INTERN PetscErrorCode SpTrsvSolverUpdateValuesDevice(SpTrsvSolver, const PetscScalar *, const PetscScalar *, const PetscScalar *); /* T's CSR values, idiag, a sweep's rest values: device arrays */
SPTRSV_INTERN PetscErrorCode SpTrsvSolverApply(SpTrsvSolver, const PetscScalar *, PetscScalar *);
SPTRSV_INTERN PetscErrorCode SpTrsvSolverDestroy(SpTrsvSolver *);
SPTRSV_INTERN PetscLogDouble SpTrsvSolverFlops(SpTrsvSolver);
SPTRSV_INTERN PetscLogDouble SpTrsvSolverSweepFlops(SpTrsvSolver);
