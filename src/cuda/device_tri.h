/* What every CUDA executor shares (private to the CUDA sources; C++, included by .cu files only):
   - the device types of a triangle stored in its plan's order, of a sweep's rest and of a solve's vectors;
   - the shared kernels' launchers (vec_kernels.cu): vectors, permutations, the CSC sweep right-hand side;
   - SpTrsvCUDATriData (device_tri.cu): the upload of a triangle in schedule order, its value refresh, and
     the replay of a path's launch sequence as a CUDA graph. A path's executor (src/cuda/paths/<name>.cu)
     adds its own schedule and kernels through the hooks of SpTrsvCUDATriData. */
#pragma once
#include "cuda_check.h"
#include "cuda_graph.h"  /* SpTrsvCUDAVecPtrs, SpTrsvCUDAGraph */
#include "cuda_upload.h" /* SpTrsvCUDAMallocInt(), for the paths' schedules */
#include <sptrsv/backend.h>

/*
   - SPTRSV_CUDA_ROW_BLOCK: threads per block of the shared row kernels (the CSC sweep right-hand side).
   - A CUDA graph replaces a launch sequence when it has at least SPTRSV_CUDA_GRAPH_MIN_LAUNCHES launches: a
     graph launch costs about one kernel launch, plus the small kernel that hands it the solve's b, x and
     xold (skipped when they did not change), so a single launch gains nothing.
*/
#define SPTRSV_CUDA_VEC_BLOCK          256
#define SPTRSV_CUDA_ROW_BLOCK          256
#define SPTRSV_CUDA_GRAPH_MIN_LAUNCHES 2

/* blocks of SPTRSV_CUDA_VEC_BLOCK threads for a grid-stride loop over n items (at least 1, at most 65536) */
static inline unsigned int SpTrsvCUDAVecGrid(PetscInt n)
{
  const PetscInt64 blocks = ((PetscInt64)n + SPTRSV_CUDA_VEC_BLOCK - 1) / SPTRSV_CUDA_VEC_BLOCK;
  return (unsigned int)PetscMax(1, PetscMin(blocks, (PetscInt64)65536));
}

/* the rest R of a sweep solver (see SpTrsvSolver in backend.h), rows stored in the triangle's schedule
   order like T: the entries of row order[k] are ptr[k] .. ptr[k+1]-1. Unused (NULL) for a plain
   triangle. */
typedef struct {
  const int         *ptr, *idx;
  const PetscScalar *val;
  const PetscScalar *cdiag; /* CSC sweeps: cdiag[k] = keep / idiag of row order[k] */
  PetscScalar        keep;  /* 1 - omega */
  int                K;     /* lanes per row of the sweep right-hand side kernel (CSC) */
} SpTrsvCUDARest;

/* device arrays of one oriented triangle op(T) stored in its plan's order, in the orientation the
   format reads: CSR = rows of op(T) (ptr/idx/val = ri/rj/ra), CSC = columns of op(T) (ci/cj/ca); 32-bit
   indices */
typedef struct {
  const int         *order; /* n: the plan's order */
  const int         *ptr;   /* n+1, in plan order: the entries of row order[k] are ptr[k] .. ptr[k+1]-1 */
  const int         *idx;   /* nnz, rows stored in plan order */
  const PetscScalar *val;   /* nnz, rows stored in plan order */
  const PetscScalar *idiag; /* n, in plan order (idiag[k] belongs to row order[k]); NULL for a unit diagonal */
  SpTrsvCUDARest     rest;  /* sweep solvers */
} SpTrsvCUDATri;

/* ---- shared kernels (vec_kernels.cu) ----------------------------------------------------------- */
/* CSC sweeps: w[i] = b[i] + cdiag_i xold[i] - sum_j R_ij xold[j], every row (one launch); with vp != NULL
   the kernel reads b, x and xold from *vp instead (graph capture) */
cudaError_t SpTrsvCUDALaunchSweepRHS(const SpTrsvCUDATri *t, PetscInt n, SpTrsvCUDAVecPtrs v, PetscScalar *w, const SpTrsvCUDAVecPtrs *vp, cudaStream_t stream);
/* x = w (or b when w == NULL), the start of a push (CSC) solve; vp as above */
cudaError_t SpTrsvCUDALaunchCopyRHS(PetscInt n, const PetscScalar *w, SpTrsvCUDAVecPtrs v, const SpTrsvCUDAVecPtrs *vp, cudaStream_t stream);
cudaError_t SpTrsvCUDALaunchSetVecPtrs(SpTrsvCUDAVecPtrs *vp, SpTrsvCUDAVecPtrs v, cudaStream_t stream);
cudaError_t SpTrsvCUDALaunchPointwiseMult(PetscInt n, const PetscScalar *d, const PetscScalar *x, PetscScalar *y, cudaStream_t stream); /* y = d .* x (y == x allowed) */
cudaError_t SpTrsvCUDALaunchGather(PetscInt n, const int *perm, const PetscScalar *x, PetscScalar *y, cudaStream_t stream);  /* y[k] = x[perm[k]] */
cudaError_t SpTrsvCUDALaunchScatter(PetscInt n, const int *perm, const PetscScalar *x, PetscScalar *y, cudaStream_t stream); /* y[perm[k]] = x[k] */
/* cudaSuccess when the kernels of this build can run on the current device */
cudaError_t SpTrsvCUDAKernelsProbe(void);

/* ---- streams (backend_cuda.cu) --------------------------------------------------------------------- */
PetscErrorCode SpTrsvCUDAGetStream(cudaStream_t *);        /* the stream every operation is enqueued on */
PetscErrorCode SpTrsvCUDAGetCaptureStream(cudaStream_t *); /* a private stream for graph captures */
/* the process's device, for the device-ops table (device_ops.cu; the entries of its backend part) */
PetscErrorCode SpTrsvCUDABackendGet(const SpTrsvBackendOps **, PetscBool *, const char **);
PetscErrorCode SpTrsvCUDAGetDeviceName(char *, size_t);
PetscErrorCode SpTrsvCUDAGetDevice(SpTrsvDeviceInfo *);
PetscErrorCode SpTrsvCUDACheckCurrent(const SpTrsvDeviceInfo *);
PetscErrorCode SpTrsvCUDACheckBuffers(SpTrsvDeviceInfo *, PetscInt, const void *const *);
PetscErrorCode SpTrsvCUDAMemoryGetInfo(PetscInt64 *, PetscInt64 *);
PetscErrorCode SpTrsvCUDASolverGetDeviceBuffers(SpTrsvSolver, PetscInt, const void **, PetscInt *); /* device_tri.cu */

/* ---- a triangle in plan order on the device, for a path's executor (device_tri.cu) -------------- */
typedef struct _n_SpTrsvCUDATriData SpTrsvCUDATriData;

/* a path's hooks: enqueue its launch sequence of a solve (sweep = PETSC_FALSE) or a sweep (with vp != NULL
   every kernel reads its vectors from *vp), and count its launches */
typedef cudaError_t (*SpTrsvCUDALaunchFn)(const SpTrsvCUDATriData *, PetscBool, SpTrsvCUDAVecPtrs, const SpTrsvCUDAVecPtrs *, cudaStream_t);
typedef PetscInt (*SpTrsvCUDALaunchesFn)(const SpTrsvCUDATriData *, PetscBool);

struct _n_SpTrsvCUDATriData {
  PetscInt      n, nnz;
  PetscBool     csc, unit;
  SpTrsvCUDATri tri; /* the device arrays below, as the kernels take them */
  int          *d_order, *d_ptr, *d_idx;
  PetscScalar  *d_val, *d_idiag;
  /* slot q of d_val holds value vmap[q] of the host triangle, d_idiag[k] the inverted diagonal of row
     horder[k]; h_val/h_idiag stage them; h_ptr/h_idx: the pattern in plan order (freed after setup) */
  PetscInt     *vmap, *horder;
  int          *d_csrmap; /* device values: slot q of d_val <- T's CSR value d_csrmap[q] (made at the first device refresh) */
  int          *d_rvmap;  /* device values of a sweep's rest: slot q of d_rval <- R's CSR value d_rvmap[q] (likewise) */
  PetscScalar  *h_val, *h_idiag;
  /* a pattern built on the device (SpTrsvCUDATriSetupBeginDevice; vmap and horder NULL): d_val[q] is gathered
     on the device from the host values copied as they are into d_raw (d_vmap[q] = their index), d_idiag[k]
     from d_rawdiag[d_order[k]] */
  int          *d_vmap;
  PetscScalar  *d_raw, *d_rawdiag;
  int          *h_ptr, *h_idx;
  /* sweep solvers: the rest R in plan order (rvmap: slot -> value index of R), cdiag, CSC work w */
  PetscInt      rnnz;
  int          *d_rptr, *d_ridx;
  PetscScalar  *d_rval, *d_cdiag, *d_w, *h_rval, *h_cdiag;
  PetscInt     *rvmap;
  /* a device refresh (SpTrsvCUDATriUpdateValuesDevice) enqueued on vstream and not waited for: a solve on that stream
     runs after it anyway; one on another stream waits for vstream first (SpTrsvCUDATriRun) */
  cudaStream_t vstream;
  PetscBool    vpending;
  /* graphs: [0] the solve, [1] the sweep; both read their vectors from d_vp */
  SpTrsvCUDAVecPtrs *d_vp;
  SpTrsvCUDAGraph    graph[2];
  /* the path's part */
  SpTrsvCUDALaunchFn   launch;
  SpTrsvCUDALaunchesFn launches;
  void                *path;                       /* its device schedule */
  PetscErrorCode (*path_destroy)(SpTrsvCUDATriData *); /* frees path */
};

/* setup in two steps around the path's own uploads: Begin uploads the triangle (and rest) in plan order,
   End uploads the values, waits, and captures the graphs */
PetscErrorCode SpTrsvCUDATriSetupBegin(SpTrsvSolver, SpTrsvCUDALaunchFn, SpTrsvCUDALaunchesFn, SpTrsvCUDATriData **);
PetscErrorCode SpTrsvCUDATriSetupEnd(SpTrsvSolver);
PetscErrorCode SpTrsvCUDATriCaptureGraphs(SpTrsvSolver); /* the graph part of SetupEnd, for a path that uploads its own matrix */
/* instead of SetupBegin, for a pattern put in plan order on the device by the path's own analysis: takes over
   d_order (n), d_ptr (n + 1), d_idx (nnz) and d_vmap (nnz: the index of each slot's value in the rows of op(T));
   CSR, no rest */
PetscErrorCode SpTrsvCUDATriSetupBeginDevice(SpTrsvSolver, SpTrsvCUDALaunchFn, SpTrsvCUDALaunchesFn, int *, int *, int *, int *, SpTrsvCUDATriData **);
/* executor entries every path can use as they are */
PetscErrorCode SpTrsvCUDATriUpdateValues(SpTrsvSolver);
PetscErrorCode SpTrsvCUDATriUpdateValuesDevice(SpTrsvSolver, const PetscScalar *, const PetscScalar *, const PetscScalar *); /* T's CSR values, idiag, a sweep's rest values on the device */
PetscErrorCode SpTrsvCUDATriSolve(SpTrsvSolver, const PetscScalar *, PetscScalar *);
PetscErrorCode SpTrsvCUDATriSweep(SpTrsvSolver, const PetscScalar *, const PetscScalar *, PetscScalar *);
PetscErrorCode SpTrsvCUDATriDestroy(SpTrsvSolver);
