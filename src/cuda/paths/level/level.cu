/*
   Level-scheduled sparse triangular solves on the GPU (paper 000, kernels LEVR and LEVC).

   The plan orders the rows by level: lev(i) = 1 + max lev(j) over the entries T_ij of row i of op(T)
   (0 for a row with none). Every dependency of a row therefore lies in an earlier level, and no row
   depends on a row of its own level: once all earlier levels are final, the rows of a level can be
   solved in any order and in parallel, each writing only its own x_i. Upper triangles and transposes
   need nothing special here: the plan was computed on the oriented view op(T), so "earlier level" is
   "already solved" whatever the direction of the sweep; the kernels are the same for lower and upper.

   CSR (pull, LEVR): a group of K lanes (K = 2..32, a power of two dividing the warp) per row; lanes
   stride over the row's entries, the partial sums are combined by a shuffle tree, and lane 0 writes
   x_i = (b_i - sum_j T_ij x_j) * idiag_i (no multiply for a unit diagonal).
   CSC (push, LEVC): x starts as a copy of b. When row i's level comes, every update to x_i has been
   applied; lane 0 finalizes x_i = x_i * idiag_i and broadcasts it, and the group scatters
   x_k -= T_ki x_i to the rows k that depend on i with atomicAdd (several rows of one level may update
   the same x_k; double atomicAdd is native on sm_60 and later).
   The row pieces (dot products, finalization, push) are the shared helpers of row_ops.cuh. The launch
   geometry (lanes per row of each level, which levels are fused into one block) is the analysis's
   (src/mat/paths/level/level.c), in plan->data; this file follows it.

   Sweeps (paper 000, section 5.2; see SpTrsvSolverSweep). CSR: the row kernels take REST = true and,
   after the T entries (read from x), add the row's R entries read from xold, then lane 0 writes
   x_i = keep xold_i + idiag_i (b_i - sum). R is stored in level order like T. In place (xold == x, for a
   structurally symmetric A only): every j with R_ij != 0 depends on i, so it is in a later level and is
   written after this row has read it (a later launch, or after a __syncthreads() of the fused kernel).
   xold is read through L2 (__ldcg) because in place it is memory the launch writes. REST = false
   instantiates exactly the plain solve's code. CSC: a right-hand side kernel first forms
   w = b + cdiag .* xold - R xold into a work vector (one group per row, any order: it only reads xold),
   then the ordinary LEVC sequence solves on w; w is complete before the solve starts, so a CSC sweep is
   always safe in place.

   Memory ordering.
   - Separate launches on one stream: a kernel starts only after the previous one has completed, and all
     its writes and atomics are visible to the next (kernel boundary = device-wide barrier).
   - Fused single-block segments: between two levels every thread of the block executes __syncthreads(),
     which waits for all threads and makes their prior global writes and atomics visible to the whole
     block (it implies __threadfence_block()). It is also a compiler barrier, so no value of x read
     before it is reused after it. To be safe against every thread reaching every barrier: nothing
     returns early; the level loop bounds (l0, l1, the level pointers) are the same for every thread;
     inactive lanes (past the end of a level) still run the loop body with no row, so the warp-wide
     shuffles see all 32 lanes. CSC reads x_i with __ldcg (L2, where the atomics were performed) as a
     belt-and-braces choice: one load per row, no measurable cost.
   - Read-only data (order, pointers, indices, values, diagonal) is read through the non-coherent cache
     (__ldg); x never is, because the same launch writes it.
*/
#include <sptrsv/paths/level.h>
#include "../../row_ops.cuh"

#if defined(SPTRSV_CUDA_SCALAR_OK)

  #if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 600
    #error "the CSC kernels need a native double atomicAdd: build for sm_60 or later (CUDA_ARCH=60 or more)"
  #endif


/* ---- device side --------------------------------------------------------------------------------- */

/* one row of op(T), pull: x_i = (b_i - sum_j T_ij x_j) * idiag_i; with REST (sweep rows) also
   - sum_j R_ij xold_j, and x_i = keep xold_i + idiag_i * s. Inactive groups (no row) take part in the
   shuffles with a zero sum. */
template <int K, bool UNIT, bool REST>
__device__ __forceinline__ void SpTrsvRowCSR(const SpTrsvCUDATri &t, int k, bool active, int lane, const SpTrsvCUDAVecPtrs &v)
{
  int         i = 0, p = 0, q = 0;
  PetscScalar sum;

  if (active) { /* level-ordered storage: position k indexes ptr and idiag directly */
    i = __ldg(t.order + k);
    p = __ldg(t.ptr + k);
    q = __ldg(t.ptr + k + 1);
  }
  sum = SpTrsvDot<K, false>(p, q, lane, t.idx, t.val, v.x);
  if (REST) sum += SpTrsvRestDot<K, true>(t.rest, k, active, lane, v.xold);
  sum = SpTrsvGroupSum<K>(sum);
  if (active && lane == 0) v.x[i] = SpTrsvFinalize<UNIT, REST>(v.b[i] - sum, SpTrsvLoadDiag<UNIT>(t, k), t.rest.keep, REST ? __ldcg(v.xold + i) : (PetscScalar)0);
}

/* one column of op(T), push: finalize x_i, then x_k -= T_ki x_i for its dependents k */
template <int K, bool UNIT>
__device__ __forceinline__ void SpTrsvRowCSC(const SpTrsvCUDATri &t, int k, bool active, int lane, PetscScalar *x)
{
  int         i = 0, p = 0, q = 0;
  PetscScalar xi = 0;

  if (active) { /* level-ordered storage: position k indexes ptr and idiag directly */
    i = __ldg(t.order + k);
    p = __ldg(t.ptr + k);
    q = __ldg(t.ptr + k + 1);
    if (lane == 0) {
      xi   = SpTrsvFinalize<UNIT, false>(__ldcg(x + i), SpTrsvLoadDiag<UNIT>(t, k), 0, 0);
      x[i] = xi;
    }
  }
  xi = __shfl_sync(SPTRSV_FULL_MASK, xi, 0, K);
  SpTrsvPush<K>(p, q, lane, t.idx, t.val, xi, x);
}

template <int K, bool UNIT, bool CSC, bool REST>
__device__ __forceinline__ void SpTrsvRow(const SpTrsvCUDATri &t, int k, bool active, int lane, const SpTrsvCUDAVecPtrs &v)
{
  if (CSC) SpTrsvRowCSC<K, UNIT>(t, k, active, lane, v.x);
  else SpTrsvRowCSR<K, UNIT, REST>(t, k, active, lane, v);
}

/* one large level: group g of K lanes solves row order[start + g] */
template <int K, bool UNIT, bool CSC, bool REST>
__global__ void __launch_bounds__(SPTRSV_LEVEL_BLOCK) SpTrsvLevelKernel(const SpTrsvCUDATri t, int start, int nrows, SpTrsvCUDAVecPtrs v, const SpTrsvCUDAVecPtrs *vp)
{
  const long long g      = (long long)blockIdx.x * (SPTRSV_LEVEL_BLOCK / K) + threadIdx.x / K;
  const bool      active = g < nrows;

  if (vp) SpTrsvReadVecPtrs<REST>(v, vp);
  SpTrsvRow<K, UNIT, CSC, REST>(t, active ? start + (int)g : 0, active, threadIdx.x & (K - 1), v);
}

/* the rows of one level inside the fused kernel; the trip count is the same for every thread */
template <int K, bool UNIT, bool CSC, bool REST>
__device__ __forceinline__ void SpTrsvFusedLevel(const SpTrsvCUDATri &t, int start, int nrows, const SpTrsvCUDAVecPtrs &v)
{
  const int ngroups = blockDim.x / K, lane = threadIdx.x & (K - 1);

  for (int r = 0; r < nrows; r += ngroups) {
    const int  g      = r + (int)(threadIdx.x / K);
    const bool active = g < nrows;
    SpTrsvRow<K, UNIT, CSC, REST>(t, active ? start + g : 0, active, lane, v);
  }
}

/* a run of small levels [l0, l1) in one block; K changes per level (uniform across the block, so the
   switch does not diverge). The next level's bounds are loaded before the barrier to hide their
   latency (read-only data, independent of x). */
template <bool UNIT, bool CSC, bool REST>
__global__ void __launch_bounds__(SPTRSV_LEVEL_FUSED_MAX_THREADS) SpTrsvFusedKernel(const SpTrsvCUDATri t, const int *levptr, const int *levK, int l0, int l1, SpTrsvCUDAVecPtrs v, const SpTrsvCUDAVecPtrs *vp)
{
  int start = __ldg(levptr + l0), end = __ldg(levptr + l0 + 1), K = __ldg(levK + l0);

  if (vp) SpTrsvReadVecPtrs<REST>(v, vp);
  for (int l = l0; l < l1; l++) {
    int nend = end, nK = 2;
    if (l + 1 < l1) {
      nend = __ldg(levptr + l + 2);
      nK   = __ldg(levK + l + 1);
    }
    switch (K) {
    case 2:
      SpTrsvFusedLevel<2, UNIT, CSC, REST>(t, start, end - start, v);
      break;
    case 4:
      SpTrsvFusedLevel<4, UNIT, CSC, REST>(t, start, end - start, v);
      break;
    case 8:
      SpTrsvFusedLevel<8, UNIT, CSC, REST>(t, start, end - start, v);
      break;
    case 16:
      SpTrsvFusedLevel<16, UNIT, CSC, REST>(t, start, end - start, v);
      break;
    default:
      SpTrsvFusedLevel<32, UNIT, CSC, REST>(t, start, end - start, v);
      break;
    }
    __syncthreads(); /* level l is final (writes and atomics visible to the block) before level l+1 */
    start = end;
    end   = nend;
    K     = nK;
  }
}

/* ---- launchers ----------------------------------------------------------------------------------- */

/* the level path's device schedule: level pointers and lanes per level for the fused kernel, and the
   launch sequence (host memory) */
typedef struct {
  int                      *d_levptr, *d_levK;
  PetscInt                  nseg;
  const SpTrsvLevelSegment *seg; /* the plan's */
} SpTrsvCUDALevel;

template <bool UNIT, bool CSC, bool REST>
static cudaError_t SpTrsvLaunchSegment(const SpTrsvCUDATri &t, const SpTrsvCUDALevel &lv, const SpTrsvLevelSegment &s, SpTrsvCUDAVecPtrs v, const SpTrsvCUDAVecPtrs *vp, cudaStream_t st)
{
  if (s.kind == SPTRSV_LEVEL_SEG_FUSED) {
    SpTrsvFusedKernel<UNIT, CSC, REST><<<1, s.block, 0, st>>>(t, lv.d_levptr, lv.d_levK, s.l0, s.l1, v, vp);
    return cudaGetLastError();
  }
  return SpTrsvWithLanes(s.K, [&](auto K) { SpTrsvLevelKernel<decltype(K)::value, UNIT, CSC, REST><<<s.grid, SPTRSV_LEVEL_BLOCK, 0, st>>>(t, s.start, s.nrows, v, vp); });
}

/* w: the CSC right-hand side of a sweep (NULL: b) */
template <bool UNIT, bool CSC, bool REST>
static cudaError_t SpTrsvLaunchSequence(const SpTrsvCUDATri &t, const SpTrsvCUDALevel &lv, PetscInt n, SpTrsvCUDAVecPtrs v, const PetscScalar *w, const SpTrsvCUDAVecPtrs *vp, cudaStream_t st)
{
  cudaError_t err;

  if (CSC && (err = SpTrsvCUDALaunchCopyRHS(n, w, v, vp, st)) != cudaSuccess) return err;
  for (PetscInt k = 0; k < lv.nseg; k++)
    if ((err = SpTrsvLaunchSegment<UNIT, CSC, REST>(t, lv, lv.seg[k], v, vp, st)) != cudaSuccess) return err;
  return cudaSuccess;
}

/* the whole launch sequence of a solve or a sweep (SpTrsvCUDALaunchFn) */
static cudaError_t SpTrsvCUDALevelLaunch(const SpTrsvCUDATriData *d, PetscBool sweep, SpTrsvCUDAVecPtrs v, const SpTrsvCUDAVecPtrs *vp, cudaStream_t st)
{
  const SpTrsvCUDATri   *t  = &d->tri;
  const SpTrsvCUDALevel &lv = *(const SpTrsvCUDALevel *)d->path;
  const PetscInt         n  = d->n;

  if (d->csc) {
    if (sweep) {
      const cudaError_t err = SpTrsvCUDALaunchSweepRHS(t, n, v, d->d_w, vp, st);
      if (err != cudaSuccess) return err;
    }
    if (d->unit) return SpTrsvLaunchSequence<true, true, false>(*t, lv, n, v, sweep ? d->d_w : NULL, vp, st);
    return SpTrsvLaunchSequence<false, true, false>(*t, lv, n, v, sweep ? d->d_w : NULL, vp, st);
  }
  if (sweep) return SpTrsvLaunchSequence<false, false, true>(*t, lv, n, v, NULL, vp, st); /* sweeps have an explicit diagonal */
  if (d->unit) return SpTrsvLaunchSequence<true, false, false>(*t, lv, n, v, NULL, vp, st);
  return SpTrsvLaunchSequence<false, false, false>(*t, lv, n, v, NULL, vp, st);
}

#else /* complex or exotic scalars: the backend reports itself unavailable and never launches these */

typedef struct {
  int                      *d_levptr, *d_levK;
  PetscInt                  nseg;
  const SpTrsvLevelSegment *seg;
} SpTrsvCUDALevel;

static cudaError_t SpTrsvCUDALevelLaunch(const SpTrsvCUDATriData *d, PetscBool sweep, SpTrsvCUDAVecPtrs v, const SpTrsvCUDAVecPtrs *vp, cudaStream_t st)
{
  return cudaErrorNotSupported;
}
#endif

/* CSC first copies its right-hand side into x; a CSC sweep forms that right-hand side before (SpTrsvCUDALaunchesFn) */
static PetscInt SpTrsvCUDALevelLaunches(const SpTrsvCUDATriData *d, PetscBool sweep)
{
  return ((const SpTrsvCUDALevel *)d->path)->nseg + (d->csc ? 1 : 0) + (d->csc && sweep ? 1 : 0);
}

static PetscErrorCode SpTrsvCUDALevelDestroy(SpTrsvCUDATriData *d)
{
  SpTrsvCUDALevel *lv = (SpTrsvCUDALevel *)d->path;

  PetscFunctionBegin;
  if (!lv) PetscFunctionReturn(PETSC_SUCCESS);
  SpTrsvCUDACall(SpTrsvCUDAFree(lv->d_levptr));
  SpTrsvCUDACall(SpTrsvCUDAFree(lv->d_levK));
  PetscCall(PetscFree(d->path));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the triangle in level order, then the level pointers and lanes per level the fused kernel reads */
static PetscErrorCode SpTrsvCUDALevelSetup(SpTrsvSolver s)
{
  const SpTrsvLevelSchedule *ls = (const SpTrsvLevelSchedule *)s->plan->data;
  SpTrsvCUDATriData         *d;
  SpTrsvCUDALevel           *lv;
  int                       *h_levptr;
  cudaStream_t               st = NULL;

  PetscFunctionBegin;
  PetscCall(SpTrsvCUDATriSetupBegin(s, SpTrsvCUDALevelLaunch, SpTrsvCUDALevelLaunches, &d));
  PetscCall(SpTrsvCUDAGetStream(&st));
  PetscCall(PetscNew(&lv));
  d->path         = lv;
  d->path_destroy = SpTrsvCUDALevelDestroy;
  lv->nseg        = ls->nseg;
  lv->seg         = ls->seg;
  PetscCall(PetscMalloc1(s->plan->nlevels + 1, &h_levptr));
  for (PetscInt l = 0; l <= s->plan->nlevels; l++) h_levptr[l] = (int)s->plan->levptr[l];
  PetscCall(SpTrsvCUDAMallocInt(&lv->d_levptr, s->plan->nlevels + 1, h_levptr, st));
  PetscCall(SpTrsvCUDAMallocInt(&lv->d_levK, s->plan->nlevels, ls->levK, st));
  SpTrsvCUDACall(cudaStreamSynchronize(st)); /* h_levptr may be freed */
  PetscCall(PetscFree(h_levptr));
  PetscCall(SpTrsvCUDATriSetupEnd(s));
  PetscFunctionReturn(PETSC_SUCCESS);
}

const SpTrsvExecutor SpTrsvExecCUDA_level = {SpTrsvCUDALevelSetup, SpTrsvCUDATriUpdateValues, SpTrsvCUDATriSolve, SpTrsvCUDATriSweep, SpTrsvCUDATriDestroy, SpTrsvCUDATriUpdateValuesDevice};
