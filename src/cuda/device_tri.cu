/*
   A triangle stored in its plan's order on the device, shared by the CUDA executors of the paths
   (see device_tri.h). A path's setup calls SpTrsvCUDATriSetupBegin, uploads its own schedule into d->path,
   then calls SpTrsvCUDATriSetupEnd; its solves, sweeps, value refreshes and teardown are the functions here,
   which run the path's launch sequence through its hooks.

   - Setup (once per pattern) uploads 32-bit copies of the plan's order and of the pattern in the
     orientation the format reads (CSR: rows of op(T); CSC: columns), stored in plan order so that a thread
     finds the entries of schedule position k at ptr[k] without first loading order[k], and the values;
     update_values (numeric refactorization) re-uploads the values only, into the same buffers. All device
     memory is allocated at setup, never in a solve.
   - Stream: the backend's (backend_cuda.cu: PETSc's current stream with a CUDA PETSc). A solve only
     enqueues work: no synchronisation, no allocation.
   - CUDA graphs (the path's option -mat_sptrsv_graph, default true): the launch sequence of a triangle is
     captured once at setup on a private capture stream and replayed with one cudaGraphLaunch per solve. b
     and x change between solves (user vectors, work vectors), so the captured kernels read them from a
     small device struct that a one-thread kernel updates, in stream order, before the graph launch; it is
     skipped when b, x and the stream are those of the previous solve. No re-instantiation, no cache,
     values refresh in place. Caveat: solving with one factor on two streams at once is not supported (nor
     is it by the shared work vectors of the factor).
*/
#include "device_tri.h"
#include <climits>

/* values in the format's orientation and the inverted diagonal, into the existing buffers. Host
   sources are pageable: cudaMemcpyAsync stages them before returning, so the host may change them. */
static PetscErrorCode SpTrsvCUDATriUploadValues(SpTrsvSolver s, cudaStream_t st)
{
  SpTrsvCUDATriData *d   = (SpTrsvCUDATriData *)s->bdata;
  const PetscScalar *val = d->csc ? s->op.ca : s->op.ra;

  PetscFunctionBegin;
  if (d->d_vmap) { /* the value map lives on the device: copy the values as they are, gather there */
    if (d->nnz) {
      SpTrsvCUDACall(cudaMemcpyAsync(d->d_raw, val, (size_t)d->nnz * sizeof(PetscScalar), cudaMemcpyHostToDevice, st));
      SpTrsvCUDACall(SpTrsvCUDALaunchGather(d->nnz, d->d_vmap, d->d_raw, d->d_val, st));
    }
    if (!d->unit && d->n) {
      SpTrsvCUDACall(cudaMemcpyAsync(d->d_rawdiag, s->op.idiag, (size_t)d->n * sizeof(PetscScalar), cudaMemcpyHostToDevice, st));
      SpTrsvCUDACall(SpTrsvCUDALaunchGather(d->n, d->d_order, d->d_rawdiag, d->d_idiag, st));
    }
    PetscFunctionReturn(PETSC_SUCCESS);
  }
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

/* the path's launch sequence of a solve or a sweep, for SpTrsvCUDAGraphCapture() */
static cudaError_t SpTrsvCUDATriGraphLaunch(const void *ctx, PetscBool sweep, SpTrsvCUDAVecPtrs v, const SpTrsvCUDAVecPtrs *vp, cudaStream_t st)
{
  const SpTrsvCUDATriData *d = (const SpTrsvCUDATriData *)ctx;

  return (*d->launch)(d, sweep, v, vp, st);
}

/* capture the launch sequence of a solve or a sweep (kernels reading their vectors from d_vp) and
   instantiate it */
static PetscErrorCode SpTrsvCUDATriCaptureGraph(SpTrsvCUDATriData *d, PetscBool sweep)
{
  PetscFunctionBegin;
  PetscCall(SpTrsvCUDAGraphCapture(&d->graph[sweep], &d->d_vp, "d->d_vp", SpTrsvCUDATriGraphLaunch, d, sweep));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* a sweep solver's rest R, rows in plan order, and the CSC work vector */
static PetscErrorCode SpTrsvCUDATriSetupRest(SpTrsvSolver s, cudaStream_t st)
{
  SpTrsvCUDATriData *d = (SpTrsvCUDATriData *)s->bdata;
  SpTrsvTri          R = s->rest;
  int               *h_rptr, *h_ridx;

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
  PetscCall(SpTrsvCUDAMalloc((void **)&d->d_rval, (size_t)(d->rnnz + 1) * sizeof(PetscScalar), "d->d_rval"));
  if (s->cdiag) {
    PetscCall(SpTrsvCUDAMalloc((void **)&d->d_cdiag, (size_t)(d->n + 1) * sizeof(PetscScalar), "d->d_cdiag"));
    PetscCall(SpTrsvCUDAMalloc((void **)&d->d_w, (size_t)(d->n + 1) * sizeof(PetscScalar), "d->d_w"));
  }
  SpTrsvCUDACall(cudaStreamSynchronize(st)); /* the index arrays may be freed */
  PetscCall(PetscFree2(h_rptr, h_ridx));
  d->tri.rest.ptr   = d->d_rptr;
  d->tri.rest.idx   = d->d_ridx;
  d->tri.rest.val   = d->d_rval;
  d->tri.rest.cdiag = d->d_cdiag;
  d->tri.rest.keep  = s->keep;
  /* lanes per row of the CSC right-hand side kernel: the smallest power of two >= the mean rest row, 2..32 */
  d->tri.rest.K = 2;
  while (d->tri.rest.K < 32 && d->tri.rest.K * d->n < d->rnnz) d->tri.rest.K *= 2;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvCUDATriSetupBegin - the triangle (and a sweep's rest) in plan order on the device; the values follow
  in SpTrsvCUDATriSetupEnd. d->h_ptr and d->h_idx (the pattern in plan order, host) stay valid until then.
*/
PetscErrorCode SpTrsvCUDATriSetupBegin(SpTrsvSolver s, SpTrsvCUDALaunchFn launch, SpTrsvCUDALaunchesFn launches, SpTrsvCUDATriData **data)
{
  const SpTrsvOp    *op   = &s->op;
  SpTrsvPlan         plan = s->plan;
  SpTrsvCUDATriData *d;
  const PetscInt    *ptr, *idx;
  int               *h_order;
  cudaStream_t       st = NULL;

  PetscFunctionBegin;
  PetscCheck(op->n < INT_MAX && op->nnz < INT_MAX, PETSC_COMM_SELF, PETSC_ERR_INT_OVERFLOW, "The CUDA kernels use 32-bit indices: n = %" PetscInt_FMT " and nnz = %" PetscInt_FMT " must be below %d", op->n, op->nnz, INT_MAX);
  PetscCall(SpTrsvCUDAGetStream(&st));
  PetscCall(PetscNew(&d));
  s->bdata    = d;
  d->n        = op->n;
  d->nnz      = op->nnz;
  d->csc      = (PetscBool)(s->format == SPTRSV_FORMAT_CSC);
  d->unit     = op->unit;
  d->launch   = launch;
  d->launches = launches;
  ptr         = d->csc ? op->ci : op->ri;
  idx         = d->csc ? op->cj : op->rj;

  PetscCall(PetscMalloc1(d->n + 1, &h_order));
  PetscCall(PetscMalloc2(d->n + 1, &d->h_ptr, d->nnz + 1, &d->h_idx));
  PetscCall(PetscMalloc4(d->nnz + 1, &d->vmap, d->n + 1, &d->horder, d->nnz + 1, &d->h_val, d->n + 1, &d->h_idiag));
  PetscCall(PetscArraycpy(d->horder, plan->order, d->n));
  d->h_ptr[0] = 0;
  for (PetscInt k = 0; k < d->n; k++) {
    const PetscInt i = plan->order[k];
    PetscInt       q = d->h_ptr[k];
    h_order[k]       = (int)i; /* every value < n, checked < INT_MAX */
    for (PetscInt p = ptr[i]; p < ptr[i + 1]; p++, q++) {
      d->h_idx[q] = (int)idx[p];
      d->vmap[q]  = p;
    }
    d->h_ptr[k + 1] = (int)q;
  }
  PetscCall(SpTrsvCUDAMallocInt(&d->d_order, d->n, h_order, st));
  PetscCall(SpTrsvCUDAMallocInt(&d->d_ptr, d->n + 1, d->h_ptr, st));
  PetscCall(SpTrsvCUDAMallocInt(&d->d_idx, d->nnz, d->h_idx, st));
  PetscCall(SpTrsvCUDAMalloc((void **)&d->d_val, (size_t)(d->nnz + 1) * sizeof(PetscScalar), "d->d_val"));
  if (!d->unit) PetscCall(SpTrsvCUDAMalloc((void **)&d->d_idiag, (size_t)(d->n + 1) * sizeof(PetscScalar), "d->d_idiag"));
  if (s->rest) PetscCall(SpTrsvCUDATriSetupRest(s, st));
  SpTrsvCUDACall(cudaStreamSynchronize(st)); /* h_order may be freed */
  PetscCall(PetscFree(h_order));
  d->tri.order = d->d_order;
  d->tri.ptr   = d->d_ptr;
  d->tri.idx   = d->d_idx;
  d->tri.val   = d->d_val;
  d->tri.idiag = d->d_idiag;
  *data        = d;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvCUDATriSetupBeginDevice - SpTrsvCUDATriSetupBegin for a pattern the path's device analysis already put in
  plan order (CSR, no rest): the arrays are taken over, the values follow in SpTrsvCUDATriSetupEnd through the
  device value map
*/
PetscErrorCode SpTrsvCUDATriSetupBeginDevice(SpTrsvSolver s, SpTrsvCUDALaunchFn launch, SpTrsvCUDALaunchesFn launches, int *d_order, int *d_ptr, int *d_idx, int *d_vmap, SpTrsvCUDATriData **data)
{
  SpTrsvCUDATriData *d;

  PetscFunctionBegin;
  PetscCheck(s->format == SPTRSV_FORMAT_CSR && !s->rest, PETSC_COMM_SELF, PETSC_ERR_SUP, "A pattern built on the device: CSR solves only");
  PetscCall(PetscNew(&d));
  s->bdata    = d;
  d->n        = s->op.n;
  d->nnz      = s->op.nnz;
  d->unit     = s->op.unit;
  d->launch   = launch;
  d->launches = launches;
  d->d_order  = d_order;
  d->d_ptr    = d_ptr;
  d->d_idx    = d_idx;
  d->d_vmap   = d_vmap;
  PetscCall(SpTrsvCUDAMalloc((void **)&d->d_val, (size_t)(d->nnz + 1) * sizeof(PetscScalar), "d->d_val"));
  PetscCall(SpTrsvCUDAMalloc((void **)&d->d_raw, (size_t)(d->nnz + 1) * sizeof(PetscScalar), "d->d_raw"));
  if (!d->unit) {
    PetscCall(SpTrsvCUDAMalloc((void **)&d->d_idiag, (size_t)(d->n + 1) * sizeof(PetscScalar), "d->d_idiag"));
    PetscCall(SpTrsvCUDAMalloc((void **)&d->d_rawdiag, (size_t)(d->n + 1) * sizeof(PetscScalar), "d->d_rawdiag"));
  }
  d->tri.order = d->d_order;
  d->tri.ptr   = d->d_ptr;
  d->tri.idx   = d->d_idx;
  d->tri.val   = d->d_val;
  d->tri.idiag = d->d_idiag;
  *data        = d;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvCUDATriSetupEnd - the values, then the graphs of the path's launch sequence. Values not computed yet (a
  factor's triangle before its first numeric phase, T->values_unset) are not uploaded: the numeric phase refreshes
  them (update_values or, from a GPU numeric phase, update_values_device) before any solve.
*/
PetscErrorCode SpTrsvCUDATriSetupEnd(SpTrsvSolver s)
{
  SpTrsvCUDATriData *d  = (SpTrsvCUDATriData *)s->bdata;
  cudaStream_t       st = NULL;

  PetscFunctionBegin;
  PetscCall(SpTrsvCUDAGetStream(&st));
  if (!s->tri->values_unset) PetscCall(SpTrsvCUDATriUploadValues(s, st));
  /* setup may wait: the uploads are complete before any solve, on whatever stream it runs */
  SpTrsvCUDACall(cudaStreamSynchronize(st));
  PetscCall(PetscFree2(d->h_ptr, d->h_idx));
  PetscCall(SpTrsvCUDATriCaptureGraphs(s));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvCUDATriCaptureGraphs - the graphs of the path's launch sequence (with -mat_sptrsv_graph, when it has enough
  launches): the end of SpTrsvCUDATriSetupEnd, also for a path that fills SpTrsvCUDATriData with a matrix of its own
  (the partitioned inverse's M)
*/
PetscErrorCode SpTrsvCUDATriCaptureGraphs(SpTrsvSolver s)
{
  SpTrsvCUDATriData *d = (SpTrsvCUDATriData *)s->bdata;

  PetscFunctionBegin;
  for (PetscInt sw = 0; sw < (s->rest ? 2 : 1); sw++)
    if (s->opts.use_graph && d->n && (*d->launches)(d, (PetscBool)sw) >= SPTRSV_CUDA_GRAPH_MIN_LAUNCHES) PetscCall(SpTrsvCUDATriCaptureGraph(d, (PetscBool)sw));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* numeric refactorization: same pattern, new values, same buffers (so a captured graph stays valid).
   The copies are ordered after the solves already enqueued on the stream; the wait makes them
   complete before a solve on any stream (this is the numeric phase, not a solve). */
PetscErrorCode SpTrsvCUDATriUpdateValues(SpTrsvSolver s)
{
  cudaStream_t st = NULL;

  PetscFunctionBegin;
  PetscCall(SpTrsvCUDAGetStream(&st));
  PetscCall(SpTrsvCUDATriUploadValues(s, st));
  SpTrsvCUDACall(cudaStreamSynchronize(st));
  PetscFunctionReturn(PETSC_SUCCESS);
}

#if defined(SPTRSV_CUDA_SCALAR_OK)
/* val[q] = a[vmap[q]] for the nnz slots, idiag[k] = d[order[k]] for the n rows (d NULL: unit diagonal) */
__global__ void SpTrsvCUDATriGatherValues(int nnz, int n, const int *__restrict__ vmap, const PetscScalar *__restrict__ a, PetscScalar *__restrict__ val, const int *__restrict__ order, const PetscScalar *__restrict__ d, PetscScalar *__restrict__ idiag)
{
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < nnz) val[t] = a[vmap[t]];
  if (d && t < n) idiag[t] = d[order[t]];
}

/* a sweep's rest: rval[q] = r[rvmap[q]] for the rnnz slots; a CSC sweep's cdiag[k] = keep / d[order[k]] for the n rows
   (cdiag NULL: a CSR sweep), the arithmetic of SpTrsvSolverComputeCDiag() */
__global__ void SpTrsvCUDATriGatherRest(int rnnz, int n, const int *__restrict__ rvmap, const PetscScalar *__restrict__ r, PetscScalar *__restrict__ rval, const int *__restrict__ order, const PetscScalar *__restrict__ d, PetscScalar keep, PetscScalar *__restrict__ cdiag)
{
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < rnnz) rval[t] = r[rvmap[t]];
  if (cdiag && t < n) cdiag[t] = keep / d[order[t]];
}
#endif

/*
  SpTrsvCUDATriUpdateValuesDevice - new values already on the device (the GPU numeric factorization, PC gs's device
  refresh): a = T's CSR value array (T->a's layout), d = T's inverted diagonal (T->idiag's layout; ignored for a unit
  diagonal), r = a sweep's rest values (R->a's layout; NULL without a rest). The map from the solver's slots to a is
  made at the first call: vmap[q] when the format reads T->a, T->cmap[vmap[q]] when it reads T's CSC copy (op(T) = T^T
  in CSR, or T in CSC); that of the rest's slots (always R's rows) is rvmap. A CSC sweep's keep / idiag is computed
  here from d.
*/
PetscErrorCode SpTrsvCUDATriUpdateValuesDevice(SpTrsvSolver s, const PetscScalar *a, const PetscScalar *d, const PetscScalar *r)
{
  SpTrsvCUDATriData *dt = (SpTrsvCUDATriData *)s->bdata;
  cudaStream_t       st = NULL;
  const PetscInt     m  = PetscMax(dt->nnz, dt->unit ? 0 : dt->n);

  PetscFunctionBegin;
  PetscCheck(!s->rest || (r && d && dt->rvmap), PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "A sweep solver's device refresh needs the rest's values and the inverse diagonal");
  PetscCall(SpTrsvCUDAGetStream(&st));
  if (!dt->d_csrmap) {
    const PetscBool fromcsc = (PetscBool)(dt->csc != s->transpose);

    if (!dt->vmap && !fromcsc) dt->d_csrmap = dt->d_vmap; /* built on the device, rows of T: d_vmap is the map (shared, freed once) */
    else {
      int *h;

      PetscCall(PetscMalloc1(dt->nnz + 1, &h));
      if (dt->vmap) { /* the pattern was put in plan order on the host: its map is here */
        for (PetscInt q = 0; q < dt->nnz; q++) h[q] = (int)(fromcsc ? s->tri->cmap[dt->vmap[q]] : dt->vmap[q]);
      } else { /* built on the device (SpTrsvCUDATriSetupBeginDevice): d_vmap indexes the values of op(T) = T^T */
        if (dt->nnz) SpTrsvCUDACall(cudaMemcpy(h, dt->d_vmap, (size_t)dt->nnz * sizeof(int), cudaMemcpyDeviceToHost));
        for (PetscInt q = 0; q < dt->nnz; q++) h[q] = (int)s->tri->cmap[h[q]];
      }
      PetscCall(SpTrsvCUDAMallocInt(&dt->d_csrmap, dt->nnz, h, st));
      SpTrsvCUDACall(cudaStreamSynchronize(st)); /* h may be freed */
      PetscCall(PetscFree(h));
    }
  }
  if (s->rest && !dt->d_rvmap) {
    int *h;

    PetscCall(PetscMalloc1(dt->rnnz + 1, &h));
    for (PetscInt q = 0; q < dt->rnnz; q++) h[q] = (int)dt->rvmap[q];
    PetscCall(SpTrsvCUDAMallocInt(&dt->d_rvmap, dt->rnnz, h, st));
    SpTrsvCUDACall(cudaStreamSynchronize(st)); /* h may be freed */
    PetscCall(PetscFree(h));
  }
#if defined(SPTRSV_CUDA_SCALAR_OK)
  if (m) {
    SpTrsvCUDATriGatherValues<<<(int)((m + SPTRSV_CUDA_VEC_BLOCK - 1) / SPTRSV_CUDA_VEC_BLOCK), SPTRSV_CUDA_VEC_BLOCK, 0, st>>>((int)dt->nnz, (int)dt->n, dt->d_csrmap, a, dt->d_val, dt->d_order, dt->unit ? NULL : d, dt->d_idiag);
    SpTrsvCUDACheckLaunch();
  }
  if (s->rest) {
    const PetscInt mr = PetscMax(dt->rnnz, s->cdiag ? dt->n : 0);

    if (mr) {
      SpTrsvCUDATriGatherRest<<<(int)((mr + SPTRSV_CUDA_VEC_BLOCK - 1) / SPTRSV_CUDA_VEC_BLOCK), SPTRSV_CUDA_VEC_BLOCK, 0, st>>>((int)dt->rnnz, (int)dt->n, dt->d_rvmap, r, dt->d_rval, dt->d_order, d, s->keep, s->cdiag ? dt->d_cdiag : NULL);
      SpTrsvCUDACheckLaunch();
    }
  }
#endif
  /* no wait (a refactorization's whole cost is a few kernels): the solves that read these values are enqueued after
     them on the same stream, or wait for it (SpTrsvCUDATriRun) */
  dt->vstream  = st;
  dt->vpending = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* a solve (sweep = PETSC_FALSE: x = op(T)^{-1} b) or a sweep, device arrays, b != x: enqueue only */
static PetscErrorCode SpTrsvCUDATriRun(SpTrsvSolver s, PetscBool sweep, const PetscScalar *b, const PetscScalar *xold, PetscScalar *x)
{
  SpTrsvCUDATriData *d  = (SpTrsvCUDATriData *)s->bdata;
  SpTrsvCUDAGraph   *g  = &d->graph[sweep ? 1 : 0];
  SpTrsvCUDAVecPtrs  v  = {b, x, xold};
  cudaStream_t       st = NULL;

  PetscFunctionBegin;
  if (!d->n) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(SpTrsvCUDAGetStream(&st));
  if (d->vpending) { /* values refreshed on the device without a wait (SpTrsvCUDATriUpdateValuesDevice) */
    if (d->vstream != st) SpTrsvCUDACall(cudaStreamSynchronize(d->vstream));
    d->vpending = PETSC_FALSE;
  }
  if (g->exec) PetscCall(SpTrsvCUDAGraphLaunch(g, d->d_vp, v, st, &d->graph[sweep ? 0 : 1])); /* both graphs read d_vp */
  else SpTrsvCUDACall((*d->launch)(d, sweep, v, NULL, st));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SpTrsvCUDATriSolve(SpTrsvSolver s, const PetscScalar *b, PetscScalar *x)
{
  PetscFunctionBegin;
  PetscCall(SpTrsvCUDATriRun(s, PETSC_FALSE, b, NULL, x));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SpTrsvCUDATriSweep(SpTrsvSolver s, const PetscScalar *b, const PetscScalar *xold, PetscScalar *x)
{
  PetscFunctionBegin;
  PetscCall(SpTrsvCUDATriRun(s, PETSC_TRUE, b, xold, x));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SpTrsvCUDATriDestroy(SpTrsvSolver s)
{
  SpTrsvCUDATriData *d = (SpTrsvCUDATriData *)s->bdata;

  PetscFunctionBegin;
  if (!d) PetscFunctionReturn(PETSC_SUCCESS);
  if (d->path_destroy) PetscCall((*d->path_destroy)(d));
  for (PetscInt g = 0; g < 2; g++) PetscCall(SpTrsvCUDAGraphDestroy(&d->graph[g]));
  SpTrsvCUDACall(SpTrsvCUDAFree(d->d_vp));
  SpTrsvCUDACall(SpTrsvCUDAFree(d->d_order));
  SpTrsvCUDACall(SpTrsvCUDAFree(d->d_ptr));
  SpTrsvCUDACall(SpTrsvCUDAFree(d->d_idx));
  if (d->d_csrmap != d->d_vmap) SpTrsvCUDACall(SpTrsvCUDAFree(d->d_csrmap));
  SpTrsvCUDACall(SpTrsvCUDAFree(d->d_rvmap));
  SpTrsvCUDACall(SpTrsvCUDAFree(d->d_val));
  SpTrsvCUDACall(SpTrsvCUDAFree(d->d_idiag));
  SpTrsvCUDACall(SpTrsvCUDAFree(d->d_rptr));
  SpTrsvCUDACall(SpTrsvCUDAFree(d->d_ridx));
  SpTrsvCUDACall(SpTrsvCUDAFree(d->d_rval));
  SpTrsvCUDACall(SpTrsvCUDAFree(d->d_cdiag));
  SpTrsvCUDACall(SpTrsvCUDAFree(d->d_w));
  SpTrsvCUDACall(SpTrsvCUDAFree(d->d_vmap));
  SpTrsvCUDACall(SpTrsvCUDAFree(d->d_raw));
  SpTrsvCUDACall(SpTrsvCUDAFree(d->d_rawdiag));
  PetscCall(PetscFree2(d->h_ptr, d->h_idx)); /* when setup stopped between its two steps */
  PetscCall(PetscFree3(d->rvmap, d->h_rval, d->h_cdiag));
  PetscCall(PetscFree4(d->vmap, d->horder, d->h_val, d->h_idiag));
  PetscCall(PetscFree(s->bdata));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvCUDASolverGetDeviceBuffers - the device arrays of a solver's CUDA executor (every CUDA executor keeps its data in
  an SpTrsvCUDATriData), for the check that an object's memory is on its process's device (SpTrsvDeviceInfo), then those
  of the solver it forwards to (s->nested; a delegating executor may hold no data of its own); none for a solver on
  another backend
*/
PetscErrorCode SpTrsvCUDASolverGetDeviceBuffers(SpTrsvSolver s, PetscInt max, const void **ptrs, PetscInt *n)
{
  const SpTrsvCUDATriData *d = s && s->backend && s->backend->slot == SPTRSV_EXEC_CUDA ? (const SpTrsvCUDATriData *)s->bdata : NULL;
  const void              *all[12];
  PetscInt                 m = 0;

  PetscFunctionBegin;
  *n = 0;
  if (s && s->nested) PetscCall(SpTrsvCUDASolverGetDeviceBuffers(s->nested, max, ptrs, n));
  if (!d) PetscFunctionReturn(PETSC_SUCCESS);
  all[m++] = d->d_order;
  all[m++] = d->d_ptr;
  all[m++] = d->d_idx;
  all[m++] = d->d_val;
  all[m++] = d->d_idiag;
  all[m++] = d->d_vp;
  all[m++] = d->d_rptr;
  all[m++] = d->d_ridx;
  all[m++] = d->d_rval;
  all[m++] = d->d_w;
  all[m++] = d->d_vmap;
  all[m++] = d->d_csrmap;
  for (PetscInt k = 0; k < m && *n < max; k++)
    if (all[k]) ptrs[(*n)++] = all[k];
  PetscFunctionReturn(PETSC_SUCCESS);
}
