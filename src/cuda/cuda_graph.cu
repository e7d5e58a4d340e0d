/* CUDA graph capture and replay of a launch sequence (cuda_graph.h) */
#include "cuda_graph.h"
#include "device_tri.h" /* SpTrsvCUDAGetCaptureStream(), SpTrsvCUDALaunchSetVecPtrs() */

PetscErrorCode SpTrsvCUDAGraphCapture(SpTrsvCUDAGraph *g, SpTrsvCUDAVecPtrs **d_vp, const char *what, SpTrsvCUDAGraphLaunchFn fn, const void *ctx, PetscBool which)
{
  cudaGraph_t       graph = NULL;
  cudaError_t       lerr, cerr;
  cudaStream_t      cs    = NULL;
  SpTrsvCUDAVecPtrs none  = {NULL, NULL, NULL};

  PetscFunctionBegin;
  PetscCall(SpTrsvCUDAGetCaptureStream(&cs));
  if (!*d_vp) PetscCall(SpTrsvCUDAMalloc((void **)d_vp, sizeof(SpTrsvCUDAVecPtrs), what));
  SpTrsvCUDACall(cudaStreamBeginCapture(cs, cudaStreamCaptureModeThreadLocal));
  lerr = (*fn)(ctx, which, none, *d_vp, cs);
  cerr = cudaStreamEndCapture(cs, &graph); /* always end the capture, even after an error */
  if (lerr != cudaSuccess || cerr != cudaSuccess) {
    if (graph) (void)cudaGraphDestroy(graph);
    SpTrsvCUDACall(lerr != cudaSuccess ? lerr : cerr);
  }
#if CUDART_VERSION >= 12000
  cerr = cudaGraphInstantiate(&g->exec, graph, 0);
#else
  cerr = cudaGraphInstantiate(&g->exec, graph, NULL, NULL, 0);
#endif
  SpTrsvCUDACall(cudaGraphDestroy(graph)); /* the executable graph does not need it */
  SpTrsvCUDACall(cerr);
  g->vp_set = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SpTrsvCUDAGraphLaunch(SpTrsvCUDAGraph *g, SpTrsvCUDAVecPtrs *d_vp, SpTrsvCUDAVecPtrs v, cudaStream_t st, SpTrsvCUDAGraph *other)
{
  PetscFunctionBegin;
  if (!g->vp_set || g->last.b != v.b || g->last.x != v.x || g->last.xold != v.xold || g->last_stream != st) {
    g->vp_set = PETSC_FALSE;
    SpTrsvCUDACall(SpTrsvCUDALaunchSetVecPtrs(d_vp, v, st));
    g->vp_set      = PETSC_TRUE;
    g->last        = v;
    g->last_stream = st;
    if (other) other->vp_set = PETSC_FALSE;
  }
  SpTrsvCUDACall(cudaGraphLaunch(g->exec, st));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SpTrsvCUDAGraphDestroy(SpTrsvCUDAGraph *g)
{
  PetscFunctionBegin;
  if (g->exec) SpTrsvCUDACall(cudaGraphExecDestroy(g->exec));
  g->exec = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}
