/* Level-scheduled triangular-solve kernels (paper 000: LEVR / LEVC), the sweep right-hand side and the
   vector kernels, their launchers, and the device types every kernel family shares (private to the
   CUDA backend; C++, included by .cu files only). The element kernels are in element_kernels.h. */
#pragma once
#include "cuda_check.h"

/* The kernels are written for real scalars (double, or float): complex atomics and shuffles are not
   provided. Without them the backend reports itself unavailable and the host backend runs. */
#if !defined(PETSC_USE_COMPLEX) && (defined(PETSC_USE_REAL_DOUBLE) || defined(PETSC_USE_REAL_SINGLE))
  #define SPTRSV_CUDA_SCALAR_OK 1
#endif

/*
   Launch geometry.
   - A level whose rows x lanes fit in one block of SPTRSV_CUDA_FUSED_MAX_THREADS threads is "small".
     1024 is the largest block CUDA allows; with K lanes per row that is 1024/K rows (32 rows of a
     27-point stencil, 512 rows of a 5-point one). Such a level is latency-bound: one block on one SM
     finishes it in one pass, in about the time of a launch, so a separate launch would cost more than
     the level itself. Runs of consecutive small levels are fused into one single-block launch with a
     __syncthreads() between levels (Naumov's trick, used by paper 000).
   - Larger levels get their own launch of SPTRSV_CUDA_LEVEL_BLOCK-thread blocks, one group of K lanes
     per row (blocks of 256 threads keep several blocks per SM resident for latency hiding).
   - A CUDA graph replaces the launch sequence (of either plan type) when it has at least
     SPTRSV_CUDA_GRAPH_MIN_LAUNCHES launches: a graph launch costs about one kernel launch, plus the small
     kernel that hands it the solve's b, x and xold (skipped when they did not change), so a single
     launch gains nothing.
*/
#define SPTRSV_CUDA_FUSED_MAX_THREADS  1024
#define SPTRSV_CUDA_LEVEL_BLOCK        256
#define SPTRSV_CUDA_VEC_BLOCK          256
#define SPTRSV_CUDA_GRAPH_MIN_LAUNCHES 2

typedef enum {
  SPTRSV_CUDA_SEG_FUSED, /* levels [l0, l1) in one block, __syncthreads() between them */
  SPTRSV_CUDA_SEG_LEVEL  /* one level, a grid of blocks */
} SpTrsvCUDASegKind;

/* one kernel launch of the solve, computed at setup from the plan (host memory) */
typedef struct {
  SpTrsvCUDASegKind kind;
  int               l0, l1;       /* levels [l0, l1) */
  int               start, nrows; /* SEG_LEVEL: rows order[start .. start+nrows-1] */
  int               K;            /* SEG_LEVEL: lanes per row */
  int               block;        /* threads per block */
  unsigned int      grid;         /* blocks (1 for SEG_FUSED) */
} SpTrsvCUDASegment;

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

/* device arrays of one oriented triangle op(T), in the orientation the format reads: CSR = rows of
   op(T) (ptr/idx/val = ri/rj/ra), CSC = columns of op(T) (ci/cj/ca); 32-bit indices */
typedef struct {
  const int         *order;  /* n: rows sorted by level (the element path's dispatch order) */
  const int         *levptr; /* nlevels+1 (level plans) */
  const int         *levK;   /* nlevels: lanes per row of each level (2..32) (level plans) */
  const int         *ptr;    /* n+1, in level order: the entries of row order[k] are ptr[k] .. ptr[k+1]-1 */
  const int         *idx;    /* nnz, rows stored in level order */
  const PetscScalar *val;    /* nnz, rows stored in level order */
  const PetscScalar *idiag;  /* n, in level order (idiag[k] belongs to row order[k]); NULL for a unit diagonal */
  SpTrsvCUDARest     rest;   /* sweep solvers */
} SpTrsvCUDATri;

/* the vectors of one solve (xold unused) or sweep; a captured graph reads them from device memory */
typedef struct {
  const PetscScalar *b;
  PetscScalar       *x;
  const PetscScalar *xold;
} SpTrsvCUDAVecPtrs;

/* host side, at setup: lanes per row for a mean row length; lanes per level (levK, nlevels entries)
   and the launch sequence (PetscMalloc'ed) */
int            SpTrsvCUDALanesPerRow(PetscReal);
PetscErrorCode SpTrsvCUDABuildSegments(PetscInt nlevels, const PetscInt *levptr, const PetscInt *order, const PetscInt *ptr, PetscInt fuse_passes, int *levK, PetscInt *nseg, SpTrsvCUDASegment **segs);

/* enqueue a whole level-scheduled solve x = op(T)^{-1} b (sweep = PETSC_FALSE) or sweep (see
   SpTrsvSolverSweep: CSR rows also read R at v.xold; CSC first forms w = b + cdiag.*xold - R xold in the
   work vector w, then solves on w) on stream; with vp != NULL every kernel reads b, x and xold from *vp
   instead (graph capture). Returns the first launch error (no synchronisation). */
cudaError_t SpTrsvCUDALaunchSolve(const SpTrsvCUDATri *t, PetscBool csc, PetscBool unit, PetscBool sweep, PetscInt n, PetscInt nseg, const SpTrsvCUDASegment *segs, SpTrsvCUDAVecPtrs v, PetscScalar *w, const SpTrsvCUDAVecPtrs *vp, cudaStream_t stream);
/* number of launches SpTrsvCUDALaunchSolve() makes */
PetscInt    SpTrsvCUDASolveLaunches(PetscBool csc, PetscBool sweep, PetscInt nseg);
/* CSC sweeps (both plan types): w[i] = b[i] + cdiag_i xold[i] - sum_j R_ij xold[j], every row (one launch) */
cudaError_t SpTrsvCUDALaunchSweepRHS(const SpTrsvCUDATri *t, PetscInt n, SpTrsvCUDAVecPtrs v, PetscScalar *w, const SpTrsvCUDAVecPtrs *vp, cudaStream_t stream);
cudaError_t SpTrsvCUDALaunchSetVecPtrs(SpTrsvCUDAVecPtrs *vp, SpTrsvCUDAVecPtrs v, cudaStream_t stream);
cudaError_t SpTrsvCUDALaunchPointwiseMult(PetscInt n, const PetscScalar *d, const PetscScalar *x, PetscScalar *y, cudaStream_t stream); /* y = d .* x (y == x allowed) */
cudaError_t SpTrsvCUDALaunchGather(PetscInt n, const int *perm, const PetscScalar *x, PetscScalar *y, cudaStream_t stream);  /* y[k] = x[perm[k]] */
cudaError_t SpTrsvCUDALaunchScatter(PetscInt n, const int *perm, const PetscScalar *x, PetscScalar *y, cudaStream_t stream); /* y[perm[k]] = x[k] */
/* cudaSuccess when the kernels of this build can run on the current device */
cudaError_t SpTrsvCUDAKernelsProbe(void);
