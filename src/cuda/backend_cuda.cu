/*
   The CUDA backend: device copies of the plan, pattern and values of each oriented triangle, the level
   kernels of level_kernels.cu, device work vectors and permutations, and access to PETSc vectors.

   - Setup (once per pattern) uploads 32-bit copies of the plan (order, level pointers, lanes per
     level) and of the pattern in the orientation the format reads (CSR: rows of op(T); CSC: columns),
     and the values; update_values (numeric refactorization) re-uploads the values only, into the same
     buffers. All device memory is allocated at setup or by vec_alloc/perm_create, never in a solve.
   - Stream: with a PETSc built with CUDA, the stream of PETSc's current device context (the one its
     CUDA vectors use), looked up per call; otherwise one non-blocking stream of our own, created once.
     A solve only enqueues work: no synchronisation, no allocation. The one synchronisation is in the
     copy-in/out path of host vectors (vec_restore), where the host must see the result.
   - CUDA graphs (-mat_sptrsv_graph <bool>, default true; read from the global options database, with no
     prefix, when a triangle is set up: the factorization for L and U, the first transpose solve for
     L^T and U^T): the launch sequence of a triangle is captured once at setup on a private capture
     stream and replayed with one cudaGraphLaunch per solve. b and x change between solves (user
     vectors, work vectors), so the captured kernels read them from a small device struct that a
     one-thread kernel updates, in stream order, before the graph launch; it is skipped when b, x and
     the stream are those of the previous solve. No re-instantiation, no cache, values refresh in
     place. Caveat: solving with one factor on two streams at once is not supported (nor is it by the
     shared work vectors of the factor).
*/
#include <sptrsv/backend.h>
#include "cuda_check.h"
#include "level_kernels.h"
#include "element_kernels.h"
#if defined(PETSC_HAVE_CUDA)
  #include <petscdevice.h>
#endif
#include <climits>
#include <cstdio>

/* a captured launch sequence and the vectors its kernels last read */
typedef struct {
  cudaGraphExec_t   exec;
  SpTrsvCUDAVecPtrs last;
  cudaStream_t      last_stream;
  PetscBool         vp_set;
} SpTrsvCUDAGraph;

/* per-solver device state (s->bdata) */
typedef struct {
  PetscInt           n, nnz, nlevels;
  PetscBool          csc, unit, element;
  int               *d_order, *d_levptr, *d_levK, *d_ptr, *d_idx;
  PetscScalar       *d_val, *d_idiag;
  /* rows (CSC: columns) are stored in level order on the device: slot q of d_val holds value vmap[q]
     of the host triangle, d_idiag[k] the inverted diagonal of row order[k]; h_val/h_idiag stage them */
  PetscInt          *vmap, *horder;
  PetscScalar       *h_val, *h_idiag;
  SpTrsvCUDATri      tri; /* the device pointers above, as the kernels take them */
  PetscInt           nseg;
  SpTrsvCUDASegment *seg; /* host: the launch sequence */
  /* element path: critical dependencies (CSR) or dependency counts (CSC), flags, accumulators, ticket */
  SpTrsvCUDAElement  el;
  int               *d_aux;
  /* sweep solvers: the rest R in schedule order (rvmap: slot -> value index of R), cdiag, CSC work w */
  PetscInt           rnnz;
  int               *d_rptr, *d_ridx;
  PetscScalar       *d_rval, *d_cdiag, *d_w, *h_rval, *h_cdiag;
  PetscInt          *rvmap;
  /* graphs: [0] the solve, [1] the sweep; both read their vectors from d_vp */
  SpTrsvCUDAVecPtrs *d_vp;
  SpTrsvCUDAGraph    graph[2];
} SpTrsvCUDAData;

/* ---- device presence, streams -------------------------------------------------------------------- */

static PetscBool    sptrsv_cuda_checked = PETSC_FALSE, sptrsv_cuda_avail = PETSC_FALSE;
static char         sptrsv_cuda_why[256];
static cudaStream_t sptrsv_own_stream = NULL, sptrsv_capture_stream = NULL;
static PetscBool    sptrsv_finalize_registered = PETSC_FALSE;

static PetscErrorCode SpTrsvCUDAFinalize(void)
{
  PetscFunctionBegin;
  if (sptrsv_own_stream) SpTrsvCUDACall(cudaStreamDestroy(sptrsv_own_stream));
  if (sptrsv_capture_stream) SpTrsvCUDACall(cudaStreamDestroy(sptrsv_capture_stream));
  sptrsv_own_stream          = NULL;
  sptrsv_capture_stream      = NULL;
  sptrsv_finalize_registered = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SpTrsvCUDACreateStream(cudaStream_t *s)
{
  PetscFunctionBegin;
  if (!*s) {
    SpTrsvCUDACall(cudaStreamCreateWithFlags(s, cudaStreamNonBlocking));
    if (!sptrsv_finalize_registered) {
      PetscCall(PetscRegisterFinalize(SpTrsvCUDAFinalize));
      sptrsv_finalize_registered = PETSC_TRUE;
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the stream every operation of this backend is enqueued on */
static PetscErrorCode SpTrsvCUDAGetStream(cudaStream_t *stream)
{
  PetscFunctionBegin;
#if defined(PETSC_HAVE_CUDA) && PETSC_VERSION_GE(3, 19, 0)
  {
    PetscDeviceContext dctx;
    PetscDeviceType    dtype;
    void              *handle = NULL;

    PetscCall(PetscDeviceContextGetCurrentContext(&dctx));
    PetscCall(PetscDeviceContextGetDeviceType(dctx, &dtype));
    if (dtype == PETSC_DEVICE_CUDA) PetscCall(PetscDeviceContextGetStreamHandle(dctx, &handle));
    /* a non-CUDA current context: the legacy default stream, which orders with PETSc's blocking streams */
    *stream = handle ? *(cudaStream_t *)handle : (cudaStream_t)0;
  }
#elif defined(PETSC_HAVE_CUDA)
  *stream = (cudaStream_t)0; /* PETSc < 3.19 with CUDA runs its vector kernels on the default stream */
#else
  PetscCall(SpTrsvCUDACreateStream(&sptrsv_own_stream));
  *stream = sptrsv_own_stream;
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* for programs that time or order work against our solves (the benchmark) */
PetscErrorCode SpTrsvBackendCUDAGetStream(void *stream)
{
  PetscFunctionBegin;
  PetscCall(SpTrsvCUDAGetStream((cudaStream_t *)stream));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- setup, values, solve, destroy --------------------------------------------------------------- */

static PetscErrorCode SpTrsvCUDAMallocInt(int **d, PetscInt n, const int *h, cudaStream_t st)
{
  PetscFunctionBegin;
  SpTrsvCUDACall(cudaMalloc((void **)d, (size_t)(n + 1) * sizeof(int)));
  if (n) SpTrsvCUDACall(cudaMemcpyAsync(*d, h, (size_t)n * sizeof(int), cudaMemcpyHostToDevice, st));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SpTrsvCUDACopyIndices(PetscInt n, const PetscInt *src, int *dst)
{
  PetscFunctionBegin;
  for (PetscInt k = 0; k < n; k++) dst[k] = (int)src[k]; /* every value < n or nnz, checked < INT_MAX */
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* values in the format's orientation and the inverted diagonal, into the existing buffers. Host
   sources are pageable: cudaMemcpyAsync stages them before returning, so the host may change them. */
static PetscErrorCode SpTrsvCUDAUploadValues(SpTrsvSolver s, cudaStream_t st)
{
  SpTrsvCUDAData    *d   = (SpTrsvCUDAData *)s->bdata;
  const PetscScalar *val = d->csc ? s->op.ca : s->op.ra;

  PetscFunctionBegin;
  for (PetscInt q = 0; q < d->nnz; q++) d->h_val[q] = val[d->vmap[q]];
  if (!d->unit)
    for (PetscInt k = 0; k < d->n; k++) d->h_idiag[k] = s->op.idiag[d->horder[k]];
  if (d->nnz) SpTrsvCUDACall(cudaMemcpyAsync(d->d_val, d->h_val, (size_t)d->nnz * sizeof(PetscScalar), cudaMemcpyHostToDevice, st));
  if (!d->unit && d->n) SpTrsvCUDACall(cudaMemcpyAsync(d->d_idiag, d->h_idiag, (size_t)d->n * sizeof(PetscScalar), cudaMemcpyHostToDevice, st));
  if (s->rest) {
    for (PetscInt q = 0; q < d->rnnz; q++) d->h_rval[q] = s->rest->a[d->rvmap[q]];
    if (d->rnnz) SpTrsvCUDACall(cudaMemcpyAsync(d->d_rval, d->h_rval, (size_t)d->rnnz * sizeof(PetscScalar), cudaMemcpyHostToDevice, st));
    if (s->cdiag) {
      for (PetscInt k = 0; k < d->n; k++) d->h_cdiag[k] = s->cdiag[d->horder[k]];
      if (d->n) SpTrsvCUDACall(cudaMemcpyAsync(d->d_cdiag, d->h_cdiag, (size_t)d->n * sizeof(PetscScalar), cudaMemcpyHostToDevice, st));
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the launch sequence of a solve (sweep = PETSC_FALSE) or a sweep, on the plan's kernels */
static cudaError_t SpTrsvCUDALaunch(SpTrsvCUDAData *d, PetscBool sweep, SpTrsvCUDAVecPtrs v, const SpTrsvCUDAVecPtrs *vp, cudaStream_t st)
{
  if (d->element) return SpTrsvCUDALaunchElement(&d->tri, &d->el, d->csc, d->unit, sweep, d->n, v, d->d_w, vp, st);
  return SpTrsvCUDALaunchSolve(&d->tri, d->csc, d->unit, sweep, d->n, d->nseg, d->seg, v, d->d_w, vp, st);
}

static PetscInt SpTrsvCUDALaunches(SpTrsvCUDAData *d, PetscBool sweep)
{
  return d->element ? SpTrsvCUDAElementLaunches(d->csc, sweep) : SpTrsvCUDASolveLaunches(d->csc, sweep, d->nseg);
}

/* capture the launch sequence of a solve or a sweep (kernels reading their vectors from d_vp) and
   instantiate it */
static PetscErrorCode SpTrsvCUDACaptureGraph(SpTrsvCUDAData *d, PetscBool sweep)
{
  cudaGraph_t       graph = NULL;
  cudaError_t       lerr, cerr;
  SpTrsvCUDAVecPtrs none  = {NULL, NULL, NULL};

  PetscFunctionBegin;
  PetscCall(SpTrsvCUDACreateStream(&sptrsv_capture_stream));
  if (!d->d_vp) SpTrsvCUDACall(cudaMalloc((void **)&d->d_vp, sizeof(SpTrsvCUDAVecPtrs)));
  SpTrsvCUDACall(cudaStreamBeginCapture(sptrsv_capture_stream, cudaStreamCaptureModeThreadLocal));
  lerr = SpTrsvCUDALaunch(d, sweep, none, d->d_vp, sptrsv_capture_stream);
  cerr = cudaStreamEndCapture(sptrsv_capture_stream, &graph); /* always end the capture, even after an error */
  if (lerr != cudaSuccess || cerr != cudaSuccess) {
    if (graph) (void)cudaGraphDestroy(graph);
    SpTrsvCUDACall(lerr != cudaSuccess ? lerr : cerr);
  }
#if CUDART_VERSION >= 12000
  cerr = cudaGraphInstantiate(&d->graph[sweep].exec, graph, 0);
#else
  cerr = cudaGraphInstantiate(&d->graph[sweep].exec, graph, NULL, NULL, 0);
#endif
  SpTrsvCUDACall(cudaGraphDestroy(graph)); /* the executable graph does not need it */
  SpTrsvCUDACall(cerr);
  d->graph[sweep].vp_set = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the element path's state: critical dependency (CSR) or dependency count (CSC) per schedule position,
   flags and accumulators zeroed once, the ticket counter at 0 (epochs start at 1) */
static PetscErrorCode SpTrsvCUDASetupElement(SpTrsvSolver s, const int *h_ptr, const int *h_idx, cudaStream_t st)
{
  SpTrsvCUDAData *d = (SpTrsvCUDAData *)s->bdata;
  const PetscInt  n = d->n;
  PetscInt       *pos;
  int            *aux;

  PetscFunctionBegin;
  PetscCall(PetscMalloc2(n + 1, &pos, n + 1, &aux));
  for (PetscInt k = 0; k < n; k++) pos[s->plan->order[k]] = k;
  for (PetscInt k = 0; k < n; k++) {
    if (d->csc) aux[k] = (int)(s->op.ri[s->plan->order[k] + 1] - s->op.ri[s->plan->order[k]]);
    else {
      int best = -1;
      for (int q = h_ptr[k]; q < h_ptr[k + 1]; q++)
        if (best < 0 || pos[h_idx[q]] > pos[h_idx[best]]) best = q;
      aux[k] = best;
    }
  }
  PetscCall(SpTrsvCUDAMallocInt(&d->d_aux, n, aux, st));
  SpTrsvCUDACall(cudaMalloc((void **)&d->el.flag, (size_t)(n + 1) * sizeof(unsigned int)));
  SpTrsvCUDACall(cudaMemsetAsync(d->el.flag, 0, (size_t)(n + 1) * sizeof(unsigned int), st));
  if (d->csc) {
    SpTrsvCUDACall(cudaMalloc((void **)&d->el.acc, (size_t)(n + 1) * sizeof(PetscScalar)));
    SpTrsvCUDACall(cudaMemsetAsync(d->el.acc, 0, (size_t)(n + 1) * sizeof(PetscScalar), st));
  }
  SpTrsvCUDACall(cudaMalloc((void **)&d->el.ticket, sizeof(unsigned long long)));
  SpTrsvCUDACall(cudaMemsetAsync(d->el.ticket, 0, sizeof(unsigned long long), st));
  d->el.aux     = d->d_aux;
  d->el.nblocks = (int)((n + SPTRSV_CUDA_ELEMENT_WARPS - 1) / SPTRSV_CUDA_ELEMENT_WARPS);
  SpTrsvCUDACall(cudaStreamSynchronize(st)); /* aux may be freed */
  PetscCall(PetscFree2(pos, aux));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* a sweep solver's rest R, rows in schedule order, and the CSC work vector */
static PetscErrorCode SpTrsvCUDASetupRest(SpTrsvSolver s, cudaStream_t st)
{
  SpTrsvCUDAData *d = (SpTrsvCUDAData *)s->bdata;
  SpTrsvTri       R = s->rest;
  int            *h_rptr, *h_ridx;

  PetscFunctionBegin;
  d->rnnz = R->i[R->n];
  PetscCheck(d->rnnz < INT_MAX, PETSC_COMM_SELF, PETSC_ERR_INT_OVERFLOW, "The CUDA kernels use 32-bit indices: the rest has %" PetscInt_FMT " entries", d->rnnz);
  PetscCall(PetscMalloc2(d->n + 1, &h_rptr, d->rnnz + 1, &h_ridx));
  PetscCall(PetscMalloc3(d->rnnz + 1, &d->rvmap, d->rnnz + 1, &d->h_rval, d->n + 1, &d->h_cdiag));
  h_rptr[0] = 0;
  for (PetscInt k = 0; k < d->n; k++) {
    const PetscInt i = d->horder[k];
    PetscInt       q = h_rptr[k];
    for (PetscInt p = R->i[i]; p < R->i[i + 1]; p++, q++) {
      h_ridx[q]   = (int)R->j[p];
      d->rvmap[q] = p;
    }
    h_rptr[k + 1] = (int)q;
  }
  PetscCall(SpTrsvCUDAMallocInt(&d->d_rptr, d->n + 1, h_rptr, st));
  PetscCall(SpTrsvCUDAMallocInt(&d->d_ridx, d->rnnz, h_ridx, st));
  SpTrsvCUDACall(cudaMalloc((void **)&d->d_rval, (size_t)(d->rnnz + 1) * sizeof(PetscScalar)));
  if (s->cdiag) {
    SpTrsvCUDACall(cudaMalloc((void **)&d->d_cdiag, (size_t)(d->n + 1) * sizeof(PetscScalar)));
    SpTrsvCUDACall(cudaMalloc((void **)&d->d_w, (size_t)(d->n + 1) * sizeof(PetscScalar)));
  }
  SpTrsvCUDACall(cudaStreamSynchronize(st)); /* the index arrays may be freed */
  PetscCall(PetscFree2(h_rptr, h_ridx));
  d->tri.rest.ptr   = d->d_rptr;
  d->tri.rest.idx   = d->d_ridx;
  d->tri.rest.val   = d->d_rval;
  d->tri.rest.cdiag = d->d_cdiag;
  d->tri.rest.keep  = s->keep;
  d->tri.rest.K     = SpTrsvCUDALanesPerRow(d->n ? (PetscReal)d->rnnz / d->n : 0); /* lanes per row of the CSC right-hand side kernel */
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SpTrsvCUDASetup(SpTrsvSolver s)
{
  const SpTrsvOp *op   = &s->op;
  SpTrsvPlan      plan = s->plan;
  SpTrsvCUDAData *d;
  const PetscInt *ptr, *idx;
  int            *h_order, *h_levptr, *h_levK, *h_ptr, *h_idx;
  const PetscBool use_graph   = s->opts.use_graph;
  const PetscInt  fuse_passes = s->opts.fuse_passes;
  cudaStream_t    st = NULL;

  PetscFunctionBegin;
  PetscCheck(plan->type == SPTRSV_PLAN_LEVEL || plan->type == SPTRSV_PLAN_ELEMENT, PETSC_COMM_SELF, PETSC_ERR_SUP, "The CUDA backend has no kernels for plan type %s", SpTrsvPlanTypes[plan->type]);
  PetscCheck(op->n < INT_MAX && op->nnz < INT_MAX, PETSC_COMM_SELF, PETSC_ERR_INT_OVERFLOW, "The CUDA kernels use 32-bit indices: n = %" PetscInt_FMT " and nnz = %" PetscInt_FMT " must be below %d", op->n, op->nnz, INT_MAX);
  PetscCall(SpTrsvCUDAGetStream(&st));
  PetscCall(PetscNew(&d));
  s->bdata   = d;
  d->n       = op->n;
  d->nnz     = op->nnz;
  d->nlevels = plan->nlevels;
  d->csc     = (PetscBool)(s->format == SPTRSV_FORMAT_CSC);
  d->unit    = op->unit;
  d->element = (PetscBool)(plan->type == SPTRSV_PLAN_ELEMENT);
  ptr        = d->csc ? op->ci : op->ri;
  idx        = d->csc ? op->cj : op->rj;

  PetscCall(PetscMalloc5(d->n + 1, &h_order, d->nlevels + 1, &h_levptr, d->nlevels + 1, &h_levK, d->n + 1, &h_ptr, d->nnz + 1, &h_idx));
  PetscCall(SpTrsvCUDACopyIndices(d->n, plan->order, h_order));
  PetscCall(SpTrsvCUDACopyIndices(d->nlevels + 1, plan->levptr, h_levptr));
  /* level-ordered storage: the rows of a level are contiguous, and row k of the schedule starts at
     h_ptr[k], so a thread finds its row's entries without first loading order[k] */
  PetscCall(PetscMalloc4(d->nnz + 1, &d->vmap, d->n + 1, &d->horder, d->nnz + 1, &d->h_val, d->n + 1, &d->h_idiag));
  PetscCall(PetscArraycpy(d->horder, plan->order, d->n));
  h_ptr[0] = 0;
  for (PetscInt k = 0; k < d->n; k++) {
    const PetscInt i = plan->order[k];
    PetscInt       q = h_ptr[k];
    for (PetscInt p = ptr[i]; p < ptr[i + 1]; p++, q++) {
      h_idx[q]   = (int)idx[p];
      d->vmap[q] = p;
    }
    h_ptr[k + 1] = (int)q;
  }
  PetscCall(SpTrsvCUDABuildSegments(d->nlevels, plan->levptr, plan->order, ptr, fuse_passes, h_levK, &d->nseg, &d->seg));

  PetscCall(SpTrsvCUDAMallocInt(&d->d_order, d->n, h_order, st));
  PetscCall(SpTrsvCUDAMallocInt(&d->d_levptr, d->nlevels + 1, h_levptr, st));
  PetscCall(SpTrsvCUDAMallocInt(&d->d_levK, d->nlevels, h_levK, st));
  PetscCall(SpTrsvCUDAMallocInt(&d->d_ptr, d->n + 1, h_ptr, st));
  PetscCall(SpTrsvCUDAMallocInt(&d->d_idx, d->nnz, h_idx, st));
  SpTrsvCUDACall(cudaMalloc((void **)&d->d_val, (size_t)(d->nnz + 1) * sizeof(PetscScalar)));
  if (!d->unit) SpTrsvCUDACall(cudaMalloc((void **)&d->d_idiag, (size_t)(d->n + 1) * sizeof(PetscScalar)));
  if (s->rest) PetscCall(SpTrsvCUDASetupRest(s, st));
  if (d->element) PetscCall(SpTrsvCUDASetupElement(s, h_ptr, h_idx, st));
  PetscCall(SpTrsvCUDAUploadValues(s, st));
  /* setup may wait: the uploads are complete before any solve, on whatever stream it runs */
  SpTrsvCUDACall(cudaStreamSynchronize(st));
  PetscCall(PetscFree5(h_order, h_levptr, h_levK, h_ptr, h_idx));

  d->tri.order  = d->d_order;
  d->tri.levptr = d->d_levptr;
  d->tri.levK   = d->d_levK;
  d->tri.ptr    = d->d_ptr;
  d->tri.idx    = d->d_idx;
  d->tri.val    = d->d_val;
  d->tri.idiag  = d->d_idiag;
  for (PetscInt sw = 0; sw < (s->rest ? 2 : 1); sw++)
    if (use_graph && d->n && SpTrsvCUDALaunches(d, (PetscBool)sw) >= SPTRSV_CUDA_GRAPH_MIN_LAUNCHES) PetscCall(SpTrsvCUDACaptureGraph(d, (PetscBool)sw));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* numeric refactorization: same pattern, new values, same buffers (so a captured graph stays valid).
   The copies are ordered after the solves already enqueued on the stream; the wait makes them
   complete before a solve on any stream (this is the numeric phase, not a solve). */
static PetscErrorCode SpTrsvCUDAUpdateValues(SpTrsvSolver s)
{
  cudaStream_t st = NULL;

  PetscFunctionBegin;
  PetscCall(SpTrsvCUDAGetStream(&st));
  PetscCall(SpTrsvCUDAUploadValues(s, st));
  SpTrsvCUDACall(cudaStreamSynchronize(st));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* a solve (sweep = PETSC_FALSE: x = op(T)^{-1} b) or a sweep, device arrays, b != x: enqueue only */
static PetscErrorCode SpTrsvCUDARun(SpTrsvSolver s, PetscBool sweep, const PetscScalar *b, const PetscScalar *xold, PetscScalar *x)
{
  SpTrsvCUDAData   *d  = (SpTrsvCUDAData *)s->bdata;
  SpTrsvCUDAGraph  *g  = &d->graph[sweep ? 1 : 0];
  SpTrsvCUDAVecPtrs v  = {b, x, xold};
  cudaStream_t      st = NULL;

  PetscFunctionBegin;
  if (!d->n) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(SpTrsvCUDAGetStream(&st));
  if (g->exec) {
    /* both graphs read d_vp: write it when it does not hold these vectors (or the other graph ran last) */
    SpTrsvCUDAGraph *other = &d->graph[sweep ? 0 : 1];
    if (!g->vp_set || g->last.b != b || g->last.x != x || g->last.xold != xold || g->last_stream != st) {
      g->vp_set = PETSC_FALSE;
      SpTrsvCUDACall(SpTrsvCUDALaunchSetVecPtrs(d->d_vp, v, st));
      g->vp_set      = PETSC_TRUE;
      g->last        = v;
      g->last_stream = st;
      other->vp_set  = PETSC_FALSE;
    }
    SpTrsvCUDACall(cudaGraphLaunch(g->exec, st));
  } else SpTrsvCUDACall(SpTrsvCUDALaunch(d, sweep, v, NULL, st));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SpTrsvCUDASolve(SpTrsvSolver s, const PetscScalar *b, PetscScalar *x)
{
  PetscFunctionBegin;
  PetscCall(SpTrsvCUDARun(s, PETSC_FALSE, b, NULL, x));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SpTrsvCUDASweep(SpTrsvSolver s, const PetscScalar *b, const PetscScalar *xold, PetscScalar *x)
{
  PetscFunctionBegin;
  PetscCall(SpTrsvCUDARun(s, PETSC_TRUE, b, xold, x));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SpTrsvCUDADestroy(SpTrsvSolver s)
{
  SpTrsvCUDAData *d = (SpTrsvCUDAData *)s->bdata;

  PetscFunctionBegin;
  if (!d) PetscFunctionReturn(PETSC_SUCCESS);
  for (PetscInt g = 0; g < 2; g++)
    if (d->graph[g].exec) SpTrsvCUDACall(cudaGraphExecDestroy(d->graph[g].exec));
  SpTrsvCUDACall(cudaFree(d->d_vp));
  SpTrsvCUDACall(cudaFree(d->d_order));
  SpTrsvCUDACall(cudaFree(d->d_levptr));
  SpTrsvCUDACall(cudaFree(d->d_levK));
  SpTrsvCUDACall(cudaFree(d->d_ptr));
  SpTrsvCUDACall(cudaFree(d->d_idx));
  SpTrsvCUDACall(cudaFree(d->d_val));
  SpTrsvCUDACall(cudaFree(d->d_idiag));
  SpTrsvCUDACall(cudaFree(d->d_aux));
  SpTrsvCUDACall(cudaFree(d->el.flag));
  SpTrsvCUDACall(cudaFree(d->el.acc));
  SpTrsvCUDACall(cudaFree(d->el.ticket));
  SpTrsvCUDACall(cudaFree(d->d_rptr));
  SpTrsvCUDACall(cudaFree(d->d_ridx));
  SpTrsvCUDACall(cudaFree(d->d_rval));
  SpTrsvCUDACall(cudaFree(d->d_cdiag));
  SpTrsvCUDACall(cudaFree(d->d_w));
  PetscCall(PetscFree3(d->rvmap, d->h_rval, d->h_cdiag));
  PetscCall(PetscFree4(d->vmap, d->horder, d->h_val, d->h_idiag));
  PetscCall(PetscFree(d->seg));
  PetscCall(PetscFree(s->bdata));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- device vectors and permutations ------------------------------------------------------------- */

static PetscErrorCode SpTrsvCUDAVecAlloc(PetscInt n, PetscScalar **v)
{
  PetscFunctionBegin;
  SpTrsvCUDACall(cudaMalloc((void **)v, (size_t)(n + 1) * sizeof(PetscScalar)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SpTrsvCUDAVecFree(PetscScalar **v)
{
  PetscFunctionBegin;
  SpTrsvCUDACall(cudaFree(*v));
  *v = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SpTrsvCUDAPermCreate(PetscInt n, const PetscInt *idx, void **perm)
{
  int         *h, *d = NULL;
  cudaStream_t st = NULL;

  PetscFunctionBegin;
  PetscCheck(n < INT_MAX, PETSC_COMM_SELF, PETSC_ERR_INT_OVERFLOW, "The CUDA kernels use 32-bit indices: n = %" PetscInt_FMT " must be below %d", n, INT_MAX);
  PetscCall(SpTrsvCUDAGetStream(&st));
  PetscCall(PetscMalloc1(n + 1, &h));
  PetscCall(SpTrsvCUDACopyIndices(n, idx, h));
  PetscCall(SpTrsvCUDAMallocInt(&d, n, h, st));
  SpTrsvCUDACall(cudaStreamSynchronize(st)); /* setup time */
  PetscCall(PetscFree(h));
  *perm = d;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SpTrsvCUDAPermDestroy(void **perm)
{
  PetscFunctionBegin;
  SpTrsvCUDACall(cudaFree(*perm));
  *perm = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SpTrsvCUDAGather(PetscInt n, const void *perm, const PetscScalar *x, PetscScalar *y)
{
  cudaStream_t st = NULL;

  PetscFunctionBegin;
  if (!n) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(SpTrsvCUDAGetStream(&st));
  SpTrsvCUDACall(SpTrsvCUDALaunchGather(n, (const int *)perm, x, y, st));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SpTrsvCUDAScatter(PetscInt n, const void *perm, const PetscScalar *x, PetscScalar *y)
{
  cudaStream_t st = NULL;

  PetscFunctionBegin;
  if (!n) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(SpTrsvCUDAGetStream(&st));
  SpTrsvCUDACall(SpTrsvCUDALaunchScatter(n, (const int *)perm, x, y, st));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SpTrsvCUDAPointwiseMult(PetscInt n, const PetscScalar *dv, const PetscScalar *x, PetscScalar *y)
{
  cudaStream_t st = NULL;

  PetscFunctionBegin;
  if (!n) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(SpTrsvCUDAGetStream(&st));
  SpTrsvCUDACall(SpTrsvCUDALaunchPointwiseMult(n, dv, x, y, st));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* host values into a backend array (setup time: waits, so the host array may change afterwards) */
static PetscErrorCode SpTrsvCUDASetValues(PetscInt n, const PetscScalar *h, PetscScalar *y)
{
  cudaStream_t st = NULL;

  PetscFunctionBegin;
  if (!n) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(SpTrsvCUDAGetStream(&st));
  SpTrsvCUDACall(cudaMemcpyAsync(y, h, (size_t)n * sizeof(PetscScalar), cudaMemcpyHostToDevice, st));
  SpTrsvCUDACall(cudaStreamSynchronize(st));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SpTrsvCUDACopy(PetscInt n, const PetscScalar *x, PetscScalar *y)
{
  cudaStream_t st = NULL;

  PetscFunctionBegin;
  if (!n) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(SpTrsvCUDAGetStream(&st));
  SpTrsvCUDACall(cudaMemcpyAsync(y, x, (size_t)n * sizeof(PetscScalar), cudaMemcpyDeviceToDevice, st));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- PETSc vectors ------------------------------------------------------------------------------- */

/* a vector whose values live on the device (a CUDA PETSc's VECCUDA): used in place */
static PetscBool SpTrsvCUDAVecInPlace(Vec v)
{
#if defined(PETSC_HAVE_CUDA)
  PetscBool flg = PETSC_FALSE;

  if (PetscObjectTypeCompareAny((PetscObject)v, &flg, VECSEQCUDA, VECMPICUDA, VECCUDA, "") != PETSC_SUCCESS) return PETSC_FALSE;
  return flg;
#else
  return PETSC_FALSE;
#endif
}

/* read: b's values on the device (in place, or copied into staging); write: where x's values go (in
   place, or staging, copied back by restore) */
static PetscErrorCode SpTrsvCUDAVecGet(Vec v, PetscBool read, PetscScalar *staging, PetscScalar **a)
{
  PetscFunctionBegin;
#if defined(PETSC_HAVE_CUDA)
  if (SpTrsvCUDAVecInPlace(v)) {
    if (read) PetscCall(VecCUDAGetArrayRead(v, (const PetscScalar **)a));
    else PetscCall(VecCUDAGetArrayWrite(v, a));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
#endif
  if (read) {
    const PetscScalar *h;
    PetscInt           n;
    cudaStream_t       st = NULL;

    PetscCall(VecGetLocalSize(v, &n));
    PetscCall(SpTrsvCUDAGetStream(&st));
    PetscCall(VecGetArrayRead(v, &h));
    if (n) SpTrsvCUDACall(cudaMemcpyAsync(staging, h, (size_t)n * sizeof(PetscScalar), cudaMemcpyHostToDevice, st));
    PetscCall(VecRestoreArrayRead(v, &h));
  }
  *a = staging;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SpTrsvCUDAVecRestore(Vec v, PetscBool read, PetscScalar *staging, PetscScalar **a)
{
  cudaStream_t st = NULL;

  PetscFunctionBegin;
#if defined(PETSC_HAVE_CUDA)
  if (SpTrsvCUDAVecInPlace(v)) {
    if (read) PetscCall(VecCUDARestoreArrayRead(v, (const PetscScalar **)a));
    else PetscCall(VecCUDARestoreArrayWrite(v, a));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
#endif
  PetscCall(SpTrsvCUDAGetStream(&st));
  if (read) {
    /* the copy of b may still be in flight if its host array is pinned: wait before the caller may
       change b (copy-in/out path only) */
    SpTrsvCUDACall(cudaStreamSynchronize(st));
  } else {
    PetscScalar *h;
    PetscInt     n;

    PetscCall(VecGetLocalSize(v, &n));
    PetscCall(VecGetArrayWrite(v, &h));
    if (n) SpTrsvCUDACall(cudaMemcpyAsync(h, staging, (size_t)n * sizeof(PetscScalar), cudaMemcpyDeviceToHost, st));
    SpTrsvCUDACall(cudaStreamSynchronize(st)); /* the host reads x next */
    PetscCall(VecRestoreArrayWrite(v, &h));
  }
  *a = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static const SpTrsvBackendOps SpTrsvBackendCUDA = {
  "cuda", PETSC_MEMTYPE_CUDA, SpTrsvCUDASetup, SpTrsvCUDAUpdateValues, SpTrsvCUDASolve, SpTrsvCUDASweep, SpTrsvCUDADestroy, SpTrsvCUDAVecAlloc, SpTrsvCUDAVecFree, SpTrsvCUDAPermCreate, SpTrsvCUDAPermDestroy, SpTrsvCUDAGather, SpTrsvCUDAScatter, SpTrsvCUDACopy, SpTrsvCUDAPointwiseMult, SpTrsvCUDASetValues, SpTrsvCUDAVecGet, SpTrsvCUDAVecRestore, SpTrsvCUDAVecInPlace,
};

/* is there a device this build can run on? Asked once; never an error (no driver = not available) */
static PetscErrorCode SpTrsvCUDACheckDevice(void)
{
  int         ndev = 0;
  cudaError_t err;

  PetscFunctionBegin;
  sptrsv_cuda_checked = PETSC_TRUE;
  sptrsv_cuda_avail   = PETSC_FALSE;
#if !defined(SPTRSV_CUDA_SCALAR_OK)
  PetscCall(PetscSNPrintf(sptrsv_cuda_why, sizeof(sptrsv_cuda_why), "the CUDA kernels support real scalars only (this PETSc has complex or non-double/float scalars)"));
  PetscFunctionReturn(PETSC_SUCCESS);
#endif
  err = cudaGetDeviceCount(&ndev);
  if (err != cudaSuccess) {
    (void)cudaGetLastError();
    PetscCall(PetscSNPrintf(sptrsv_cuda_why, sizeof(sptrsv_cuda_why), "no usable CUDA device (cudaGetDeviceCount: %s)", cudaGetErrorString(err)));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (ndev <= 0) {
    PetscCall(PetscSNPrintf(sptrsv_cuda_why, sizeof(sptrsv_cuda_why), "no CUDA device found"));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
#if defined(PETSC_HAVE_CUDA)
  {
    /* let PETSc pick and set this rank's device first, so our buffers live where its vectors do */
    PetscErrorCode ierr;

    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    ierr = PetscDeviceInitialize(PETSC_DEVICE_CUDA);
    PetscCall(PetscPopErrorHandler());
    if (ierr) {
      PetscCall(PetscSNPrintf(sptrsv_cuda_why, sizeof(sptrsv_cuda_why), "PETSc could not initialize its CUDA device (error %d)", (int)ierr));
      PetscFunctionReturn(PETSC_SUCCESS);
    }
  }
#endif
  err = SpTrsvCUDAKernelsProbe();
  if (err != cudaSuccess) {
    int dev = -1, major = 0, minor = 0;
    (void)cudaGetLastError();
    (void)cudaGetDevice(&dev);
    (void)cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev);
    (void)cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev);
    (void)cudaGetLastError();
    PetscCall(PetscSNPrintf(sptrsv_cuda_why, sizeof(sptrsv_cuda_why), "the CUDA kernels cannot run on device %d (compute capability %d.%d): %s; rebuild with CUDA_ARCH=%d%d", dev, major, minor, cudaGetErrorString(err), major, minor));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  sptrsv_cuda_avail = PETSC_TRUE;
  PetscCall(PetscSNPrintf(sptrsv_cuda_why, sizeof(sptrsv_cuda_why), "a CUDA device is present"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvBackendCUDAGet - the CUDA backend's table, and whether a device is there to run it (cached)
*/
PetscErrorCode SpTrsvBackendCUDAGet(const SpTrsvBackendOps **ops, PetscBool *available, const char **why)
{
  PetscFunctionBegin;
  if (!sptrsv_cuda_checked) PetscCall(SpTrsvCUDACheckDevice());
  *ops       = sptrsv_cuda_avail ? &SpTrsvBackendCUDA : NULL;
  *available = sptrsv_cuda_avail;
  *why       = sptrsv_cuda_why;
  PetscFunctionReturn(PETSC_SUCCESS);
}
