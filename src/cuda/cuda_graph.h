/* CUDA graphs of launch sequences (private to the CUDA sources; C++): the capture of a sequence on the private
   capture stream and its replay, shared by the triangles of the paths (device_tri.cu) and the multicolor sweeps
   (gs_multicolor.cu). The captured kernels read their vectors from a small device struct (SpTrsvCUDAVecPtrs) that a
   one-thread kernel rewrites, in stream order, only when the vectors or the stream changed. */
#pragma once
#include "cuda_check.h"

/* the vectors of one solve (xold unused) or sweep; a captured graph reads them from device memory */
typedef struct {
  const PetscScalar *b;
  PetscScalar       *x;
  const PetscScalar *xold;
} SpTrsvCUDAVecPtrs;

/* a captured launch sequence and the vectors its kernels last read */
typedef struct {
  cudaGraphExec_t   exec;
  SpTrsvCUDAVecPtrs last;
  cudaStream_t      last_stream;
  PetscBool         vp_set;
} SpTrsvCUDAGraph;

/* a launch sequence: ctx's launches of direction/kind which, on vectors v (vp != NULL: every kernel reads them from *vp) */
typedef cudaError_t (*SpTrsvCUDAGraphLaunchFn)(const void *ctx, PetscBool which, SpTrsvCUDAVecPtrs v, const SpTrsvCUDAVecPtrs *vp, cudaStream_t st);

/* capture fn(ctx, which, ..., *d_vp, capture stream) into g and instantiate it; *d_vp is allocated first when NULL (what names it) */
PetscErrorCode SpTrsvCUDAGraphCapture(SpTrsvCUDAGraph *g, SpTrsvCUDAVecPtrs **d_vp, const char *what, SpTrsvCUDAGraphLaunchFn fn, const void *ctx, PetscBool which);
/* replay g on st with vectors v: d_vp is rewritten first when it does not hold v for g on st (other: a graph reading
   the same d_vp, whose record is then invalid; NULL when none) */
PetscErrorCode SpTrsvCUDAGraphLaunch(SpTrsvCUDAGraph *g, SpTrsvCUDAVecPtrs *d_vp, SpTrsvCUDAVecPtrs v, cudaStream_t st, SpTrsvCUDAGraph *other);
/* the executable graph, if any */
PetscErrorCode SpTrsvCUDAGraphDestroy(SpTrsvCUDAGraph *g);
