/*
   The partitioned inverse on the GPU (sptrsv_pinv; the analysis, the numeric phase and the stability check are plain C
   in src/mat/paths/pinv/pinv_partition.c and src/mat/paths/pinv/pinv.c).

   A solve is one sparse matrix-vector product per part: row i at position k of part p computes
       x_i = sum_{q < split[k]} M_q x[col_q] + sum_{q >= split[k]} M_q b[col_q],
   a group of K lanes per row (K from the part's mean M row length), partial sums combined by a shuffle tree, lane 0
   writing x_i: the row pieces of row_ops.cuh (SpTrsvDot, SpTrsvGroupSum), the same template as the level path's rows.
   The launch geometry is the analysis's (the level path's segments over the parts, SpTrsvLevelSegmentsBuild): a large
   part gets a grid of SPTRSV_LEVEL_BLOCK-thread blocks; runs of small parts share one block, a __syncthreads() between
   two parts.

   Races and ordering. A row of part p reads x only of rows in earlier parts (SpTrsvPinvPartitionCheck verifies it once
   per pattern in the host executor's setup) and b, which nothing writes; it writes only its own x_i, once. Parts of
   separate launches on one stream: the kernel boundary orders the writes of part p before the reads of p + 1. Parts
   fused into one block: the __syncthreads() between them waits for every thread of the block and makes its global
   writes visible to the block; every thread reaches every barrier (uniform loop bounds, nothing returns early,
   inactive lanes run the body with no row, so the shuffles see all 32 lanes). x is read with plain loads (the running
   kernel writes x, so never through the non-coherent cache); M, its pattern, order and split are read-only (__ldg).
   There is no waiting on other blocks, so no deadlock whatever the number of resident blocks.

   Values: M is computed on the host at each numeric phase and uploaded into the buffer allocated at setup (a captured
   graph stays valid). The executor takes host values only (no update_values_device: the factor then runs its numeric
   phase on the host). When the numeric phase's check fell back, the solves run the fallback path's solver.
*/
#include <sptrsv/paths/pinv.h>
#include "../../row_ops.cuh"
#include <climits>

/* the path's device schedule: split, part pointers and lanes per part for the fused kernel, the launch sequence (the
   plan's, host memory), the host values and the fallback */
typedef struct {
  int                      *d_split, *d_partptr, *d_partK;
  PetscInt                  nseg;
  const SpTrsvLevelSegment *seg;
  SpTrsvPinvValues         *hv;
} SpTrsvCUDAPinv;

#if defined(SPTRSV_CUDA_SCALAR_OK)

/* the row at position k of M; inactive groups take part in the shuffles with a zero sum */
template <int K>
__device__ __forceinline__ void SpTrsvPinvRow(const SpTrsvCUDATri &t, const int *split, int k, bool active, int lane, const SpTrsvCUDAVecPtrs &v)
{
  int         i = 0, p = 0, m = 0, q = 0;
  PetscScalar sum;

  if (active) {
    i = __ldg(t.order + k);
    p = __ldg(t.ptr + k);
    m = __ldg(split + k);
    q = __ldg(t.ptr + k + 1);
  }
  sum = SpTrsvDot<K, false>(p, m, lane, t.idx, t.val, v.x) + SpTrsvDot<K, false>(m, q, lane, t.idx, t.val, v.b);
  sum = SpTrsvGroupSum<K>(sum);
  if (active && lane == 0) v.x[i] = sum;
}

/* one large part: group g of K lanes computes the row at position start + g */
template <int K>
__global__ void __launch_bounds__(SPTRSV_LEVEL_BLOCK) SpTrsvPinvPartKernel(const SpTrsvCUDATri t, const int *split, int start, int nrows, SpTrsvCUDAVecPtrs v, const SpTrsvCUDAVecPtrs *vp)
{
  const long long g      = (long long)blockIdx.x * (SPTRSV_LEVEL_BLOCK / K) + threadIdx.x / K;
  const bool      active = g < nrows;

  if (vp) SpTrsvReadVecPtrs<false>(v, vp);
  SpTrsvPinvRow<K>(t, split, active ? start + (int)g : 0, active, threadIdx.x & (K - 1), v);
}

/* the rows of one part inside the fused kernel; the trip count is the same for every thread */
template <int K>
__device__ __forceinline__ void SpTrsvPinvFusedPart(const SpTrsvCUDATri &t, const int *split, int start, int nrows, const SpTrsvCUDAVecPtrs &v)
{
  const int ngroups = blockDim.x / K, lane = threadIdx.x & (K - 1);

  for (int r = 0; r < nrows; r += ngroups) {
    const int  g      = r + (int)(threadIdx.x / K);
    const bool active = g < nrows;
    SpTrsvPinvRow<K>(t, split, active ? start + g : 0, active, lane, v);
  }
}

/* a run of small parts [l0, l1) in one block; K changes per part (uniform across the block) */
__global__ void __launch_bounds__(SPTRSV_LEVEL_FUSED_MAX_THREADS) SpTrsvPinvFusedKernel(const SpTrsvCUDATri t, const int *split, const int *partptr, const int *partK, int l0, int l1, SpTrsvCUDAVecPtrs v, const SpTrsvCUDAVecPtrs *vp)
{
  if (vp) SpTrsvReadVecPtrs<false>(v, vp);
  for (int l = l0; l < l1; l++) {
    const int start = __ldg(partptr + l), nrows = __ldg(partptr + l + 1) - start;
    switch (__ldg(partK + l)) {
    case 2:
      SpTrsvPinvFusedPart<2>(t, split, start, nrows, v);
      break;
    case 4:
      SpTrsvPinvFusedPart<4>(t, split, start, nrows, v);
      break;
    case 8:
      SpTrsvPinvFusedPart<8>(t, split, start, nrows, v);
      break;
    case 16:
      SpTrsvPinvFusedPart<16>(t, split, start, nrows, v);
      break;
    default:
      SpTrsvPinvFusedPart<32>(t, split, start, nrows, v);
      break;
    }
    __syncthreads(); /* part l is final (its writes visible to the block) before part l+1 reads it */
  }
}

/* the launch sequence of a solve (SpTrsvCUDALaunchFn; no sweeps) */
static cudaError_t SpTrsvCUDAPinvLaunch(const SpTrsvCUDATriData *d, PetscBool sweep, SpTrsvCUDAVecPtrs v, const SpTrsvCUDAVecPtrs *vp, cudaStream_t st)
{
  const SpTrsvCUDAPinv &pv = *(const SpTrsvCUDAPinv *)d->path;
  const SpTrsvCUDATri  &t  = d->tri;

  if (sweep) return cudaErrorNotSupported;
  for (PetscInt k = 0; k < pv.nseg; k++) {
    const SpTrsvLevelSegment &s = pv.seg[k];
    cudaError_t               err;
    if (s.kind == SPTRSV_LEVEL_SEG_FUSED) {
      SpTrsvPinvFusedKernel<<<1, s.block, 0, st>>>(t, pv.d_split, pv.d_partptr, pv.d_partK, s.l0, s.l1, v, vp);
      err = cudaGetLastError();
    } else err = SpTrsvWithLanes(s.K, [&](auto K) { SpTrsvPinvPartKernel<decltype(K)::value><<<s.grid, SPTRSV_LEVEL_BLOCK, 0, st>>>(t, pv.d_split, s.start, s.nrows, v, vp); });
    if (err != cudaSuccess) return err;
  }
  return cudaSuccess;
}

#else /* complex or exotic scalars: the backend reports itself unavailable and never launches these */
static cudaError_t SpTrsvCUDAPinvLaunch(const SpTrsvCUDATriData *d, PetscBool sweep, SpTrsvCUDAVecPtrs v, const SpTrsvCUDAVecPtrs *vp, cudaStream_t st)
{
  return cudaErrorNotSupported;
}
#endif

static PetscInt SpTrsvCUDAPinvLaunches(const SpTrsvCUDATriData *d, PetscBool sweep)
{
  return ((const SpTrsvCUDAPinv *)d->path)->nseg;
}

static PetscErrorCode SpTrsvCUDAPinvDestroyPath(SpTrsvCUDATriData *d)
{
  SpTrsvCUDAPinv *pv = (SpTrsvCUDAPinv *)d->path;

  PetscFunctionBegin;
  if (!pv) PetscFunctionReturn(PETSC_SUCCESS);
  SpTrsvCUDACall(SpTrsvCUDAFree(pv->d_split));
  SpTrsvCUDACall(SpTrsvCUDAFree(pv->d_partptr));
  SpTrsvCUDACall(SpTrsvCUDAFree(pv->d_partK));
  PetscCall(SpTrsvPinvValuesDestroy(&pv->hv));
  PetscCall(PetscFree(d->path));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the numeric phase on the host, then M's values into the device buffer (unless the solves fell back) */
static PetscErrorCode SpTrsvCUDAPinvUpdateValues(SpTrsvSolver s)
{
  SpTrsvCUDATriData *d  = (SpTrsvCUDATriData *)s->bdata;
  SpTrsvCUDAPinv    *pv = (SpTrsvCUDAPinv *)d->path;
  cudaStream_t       st = NULL;

  PetscFunctionBegin;
  PetscCall(SpTrsvPinvValuesCompute(s, pv->hv));
  if (pv->hv->fallback || !d->nnz) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(SpTrsvCUDAGetStream(&st));
  SpTrsvCUDACall(cudaMemcpyAsync(d->d_val, pv->hv->val, (size_t)d->nnz * sizeof(PetscScalar), cudaMemcpyHostToDevice, st));
  SpTrsvCUDACall(cudaStreamSynchronize(st)); /* the numeric phase: the values are in place before any solve */
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* M in plan order on the device (SpTrsvCUDATriData holds it as a unit "triangle": order, ptr, idx = col, val), the
   split, part pointers and lanes per part; then the values and the graph */
static PetscErrorCode SpTrsvCUDAPinvSetup(SpTrsvSolver s)
{
  const SpTrsvPinvSchedule *ps = (const SpTrsvPinvSchedule *)s->plan->data;
  const PetscInt            n  = s->op.n;
  SpTrsvCUDATriData        *d;
  SpTrsvCUDAPinv           *pv;
  cudaStream_t              st = NULL;

  PetscFunctionBegin;
  PetscCheck(n < INT_MAX && ps->nnz < INT_MAX, PETSC_COMM_SELF, PETSC_ERR_INT_OVERFLOW, "The CUDA kernels use 32-bit indices: n = %" PetscInt_FMT " and the partitioned inverse's %" PetscInt_FMT " entries must be below %d (lower -mat_sptrsv_pinv_fill)", n, ps->nnz, INT_MAX);
  PetscCall(SpTrsvCUDAGetStream(&st));
  PetscCall(PetscNew(&d));
  s->bdata    = d;
  d->n        = n;
  d->nnz      = ps->nnz;
  d->unit     = PETSC_TRUE;
  d->csc      = PETSC_FALSE;
  d->launch   = SpTrsvCUDAPinvLaunch;
  d->launches = SpTrsvCUDAPinvLaunches;
  PetscCall(PetscNew(&pv));
  d->path         = pv;
  d->path_destroy = SpTrsvCUDAPinvDestroyPath;
  pv->nseg        = ps->seg.nseg;
  pv->seg         = ps->seg.seg;
  PetscCall(SpTrsvCUDAUploadIndices(s->plan->order, n, &d->d_order, st));
  PetscCall(SpTrsvCUDAUploadIndices(ps->ptr, n + 1, &d->d_ptr, st));
  PetscCall(SpTrsvCUDAUploadIndices(ps->col, ps->nnz, &d->d_idx, st));
  PetscCall(SpTrsvCUDAUploadIndices(ps->split, n, &pv->d_split, st));
  PetscCall(SpTrsvCUDAUploadIndices(ps->partptr, ps->nparts + 1, &pv->d_partptr, st));
  PetscCall(SpTrsvCUDAMallocInt(&pv->d_partK, ps->nparts, ps->seg.levK, st));
  PetscCall(SpTrsvCUDAMalloc((void **)&d->d_val, (size_t)(ps->nnz + 1) * sizeof(PetscScalar), "sptrsv_pinv"));
  SpTrsvCUDACall(cudaStreamSynchronize(st));
  d->tri.order = d->d_order;
  d->tri.ptr   = d->d_ptr;
  d->tri.idx   = d->d_idx;
  d->tri.val   = d->d_val;
  d->tri.idiag = NULL;
  PetscCall(SpTrsvPinvValuesCreate(s, &pv->hv));
  if (!s->tri->values_unset) PetscCall(SpTrsvCUDAPinvUpdateValues(s));
  PetscCall(SpTrsvCUDATriCaptureGraphs(s));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SpTrsvCUDAPinvSolve(SpTrsvSolver s, const PetscScalar *b, PetscScalar *x)
{
  SpTrsvCUDAPinv *pv = (SpTrsvCUDAPinv *)((SpTrsvCUDATriData *)s->bdata)->path;

  PetscFunctionBegin;
  if (pv->hv->fallback) PetscCall(SpTrsvSolverApply(pv->hv->fallback, b, x));
  else PetscCall(SpTrsvCUDATriSolve(s, b, x));
  PetscFunctionReturn(PETSC_SUCCESS);
}

const SpTrsvExecutor SpTrsvExecCUDA_pinv = {SpTrsvCUDAPinvSetup, SpTrsvCUDAPinvUpdateValues, SpTrsvCUDAPinvSolve, NULL, SpTrsvCUDATriDestroy, NULL};
