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
#include "level_kernels.h"

/* ---- host side: lanes per row and the launch sequence ------------------------------------------ */

/* lanes per row of a level: the smallest power of two >= the mean row length, clamped to 2..32 (paper
   000 uses groups of 2..32 lanes). Rows at least as long as K keep every lane busy on the first pass
   of the row loop; longer rows loop. */
static int SpTrsvCUDALanesPerRow(PetscReal mean)
{
  int K = 2;
  while (K < 32 && (PetscReal)K < mean) K *= 2;
  return K;
}

static int SpTrsvCUDARoundUpWarp(PetscInt64 t)
{
  return (int)(PetscMax(32, PetscMin((PetscInt64)SPTRSV_CUDA_FUSED_MAX_THREADS, (t + 31) / 32 * 32)));
}

/*
  SpTrsvCUDABuildSegments - choose K per level (from its mean row length in ptr, i.e. the rows of op(T)
  for CSR and its columns for CSC) and group consecutive small levels into fused segments
*/
PetscErrorCode SpTrsvCUDABuildSegments(PetscInt nlevels, const PetscInt *levptr, const PetscInt *order, const PetscInt *ptr, PetscInt fuse_passes, int *levK, PetscInt *nseg, SpTrsvCUDASegment **segs)
{
  PetscBool         *small;
  PetscInt           ns = 0;
  SpTrsvCUDASegment *s;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(nlevels + 1, &small));
  for (PetscInt l = 0; l < nlevels; l++) {
    const PetscInt rows = levptr[l + 1] - levptr[l];
    PetscInt64     len  = 0;
    for (PetscInt k = levptr[l]; k < levptr[l + 1]; k++) len += ptr[order[k] + 1] - ptr[order[k]];
    levK[l]  = SpTrsvCUDALanesPerRow(rows ? (PetscReal)len / rows : 0);
    /* the fused block loops over the rows of a level: a level is fused when it takes at most fuse_passes
       passes of the block (one barrier instead of one launch, at the price of a single SM's throughput) */
    small[l] = (PetscBool)((PetscInt64)rows * levK[l] <= (PetscInt64)fuse_passes * SPTRSV_CUDA_FUSED_MAX_THREADS);
  }
  /* count: a run of small levels is one segment, every large level is one */
  for (PetscInt l = 0; l < nlevels; l++)
    if (!small[l] || l == 0 || !small[l - 1]) ns++;
  PetscCall(PetscMalloc1(ns + 1, &s));
  ns = 0;
  for (PetscInt l = 0; l < nlevels;) {
    SpTrsvCUDASegment *g = &s[ns++];
    if (small[l]) {
      PetscInt64 need = 0;
      g->kind         = SPTRSV_CUDA_SEG_FUSED;
      g->l0           = (int)l;
      for (; l < nlevels && small[l]; l++) need = PetscMax(need, (PetscInt64)(levptr[l + 1] - levptr[l]) * levK[l]);
      g->l1    = (int)l;
      g->start = (int)levptr[g->l0];
      g->nrows = (int)(levptr[l] - levptr[g->l0]);
      g->K     = 0;
      g->block = SpTrsvCUDARoundUpWarp(need); /* just enough warps for the widest level of the run */
      g->grid  = 1;
    } else {
      const PetscInt64 threads = (PetscInt64)(levptr[l + 1] - levptr[l]) * levK[l];
      g->kind                  = SPTRSV_CUDA_SEG_LEVEL;
      g->l0                    = (int)l;
      g->l1                    = (int)(l + 1);
      g->start                 = (int)levptr[l];
      g->nrows                 = (int)(levptr[l + 1] - levptr[l]);
      g->K                     = levK[l];
      g->block                 = SPTRSV_CUDA_LEVEL_BLOCK;
      g->grid                  = (unsigned int)((threads + SPTRSV_CUDA_LEVEL_BLOCK - 1) / SPTRSV_CUDA_LEVEL_BLOCK);
      l++;
    }
  }
  PetscCall(PetscFree(small));
  *nseg = ns;
  *segs = s;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscInt SpTrsvCUDASolveLaunches(PetscBool csc, PetscInt nseg)
{
  return nseg + (csc ? 1 : 0); /* CSC first copies b into x */
}

#if defined(SPTRSV_CUDA_SCALAR_OK)

  #if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 600
    #error "the CSC kernels need a native double atomicAdd: build for sm_60 or later (CUDA_ARCH=60 or more)"
  #endif

  #define SPTRSV_FULL_MASK 0xffffffffu

/* ---- device side --------------------------------------------------------------------------------- */

/* sum over the K lanes of a group; lane 0 of the group gets the total. All 32 lanes of the warp call
   it (mask = full warp): the shuffle width K splits the warp into independent groups. */
template <int K>
__device__ __forceinline__ PetscScalar SpTrsvGroupSum(PetscScalar v)
{
  #pragma unroll
  for (int d = K / 2; d > 0; d >>= 1) v += __shfl_down_sync(SPTRSV_FULL_MASK, v, d, K);
  return v;
}

/* one row of op(T), pull: x_i = (b_i - sum_j T_ij x_j) * idiag_i. Inactive groups (no row) take part
   in the shuffles with a zero sum. */
template <int K, bool UNIT>
__device__ __forceinline__ void SpTrsvRowCSR(const SpTrsvCUDATri &t, int k, bool active, int lane, const PetscScalar *b, PetscScalar *x)
{
  int         i = 0, p = 0, q = 0;
  PetscScalar sum = 0;

  if (active) { /* level-ordered storage: position k indexes ptr and idiag directly */
    i = __ldg(t.order + k);
    p = __ldg(t.ptr + k);
    q = __ldg(t.ptr + k + 1);
  }
  for (p += lane; p < q; p += K) sum += __ldg(t.val + p) * x[__ldg(t.idx + p)];
  sum = SpTrsvGroupSum<K>(sum);
  if (active && lane == 0) {
    const PetscScalar s = b[i] - sum;
    x[i]                = UNIT ? s : s * __ldg(t.idiag + k);
  }
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
      xi = __ldcg(x + i);
      if (!UNIT) xi *= __ldg(t.idiag + k);
      x[i] = xi;
    }
  }
  xi = __shfl_sync(SPTRSV_FULL_MASK, xi, 0, K);
  for (p += lane; p < q; p += K) atomicAdd(x + __ldg(t.idx + p), -__ldg(t.val + p) * xi);
}

template <int K, bool UNIT, bool CSC>
__device__ __forceinline__ void SpTrsvRow(const SpTrsvCUDATri &t, int k, bool active, int lane, const PetscScalar *b, PetscScalar *x)
{
  if (CSC) SpTrsvRowCSC<K, UNIT>(t, k, active, lane, x);
  else SpTrsvRowCSR<K, UNIT>(t, k, active, lane, b, x);
}

/* one large level: group g of K lanes solves row order[start + g] */
template <int K, bool UNIT, bool CSC>
__global__ void __launch_bounds__(SPTRSV_CUDA_LEVEL_BLOCK) SpTrsvLevelKernel(const SpTrsvCUDATri t, int start, int nrows, const PetscScalar *b, PetscScalar *x, const SpTrsvCUDAVecPtrs *vp)
{
  const long long g      = (long long)blockIdx.x * (SPTRSV_CUDA_LEVEL_BLOCK / K) + threadIdx.x / K;
  const bool      active = g < nrows;

  if (vp) {
    b = vp->b;
    x = vp->x;
  }
  SpTrsvRow<K, UNIT, CSC>(t, active ? start + (int)g : 0, active, threadIdx.x & (K - 1), b, x);
}

/* the rows of one level inside the fused kernel; the trip count is the same for every thread */
template <int K, bool UNIT, bool CSC>
__device__ __forceinline__ void SpTrsvFusedLevel(const SpTrsvCUDATri &t, int start, int nrows, const PetscScalar *b, PetscScalar *x)
{
  const int ngroups = blockDim.x / K, lane = threadIdx.x & (K - 1);

  for (int r = 0; r < nrows; r += ngroups) {
    const int  g      = r + (int)(threadIdx.x / K);
    const bool active = g < nrows;
    SpTrsvRow<K, UNIT, CSC>(t, active ? start + g : 0, active, lane, b, x);
  }
}

/* a run of small levels [l0, l1) in one block; K changes per level (uniform across the block, so the
   switch does not diverge). The next level's bounds are loaded before the barrier to hide their
   latency (read-only data, independent of x). */
template <bool UNIT, bool CSC>
__global__ void __launch_bounds__(SPTRSV_CUDA_FUSED_MAX_THREADS) SpTrsvFusedKernel(const SpTrsvCUDATri t, int l0, int l1, const PetscScalar *b, PetscScalar *x, const SpTrsvCUDAVecPtrs *vp)
{
  int start = __ldg(t.levptr + l0), end = __ldg(t.levptr + l0 + 1), K = __ldg(t.levK + l0);

  if (vp) {
    b = vp->b;
    x = vp->x;
  }
  for (int l = l0; l < l1; l++) {
    int nend = end, nK = 2;
    if (l + 1 < l1) {
      nend = __ldg(t.levptr + l + 2);
      nK   = __ldg(t.levK + l + 1);
    }
    switch (K) {
    case 2:
      SpTrsvFusedLevel<2, UNIT, CSC>(t, start, end - start, b, x);
      break;
    case 4:
      SpTrsvFusedLevel<4, UNIT, CSC>(t, start, end - start, b, x);
      break;
    case 8:
      SpTrsvFusedLevel<8, UNIT, CSC>(t, start, end - start, b, x);
      break;
    case 16:
      SpTrsvFusedLevel<16, UNIT, CSC>(t, start, end - start, b, x);
      break;
    default:
      SpTrsvFusedLevel<32, UNIT, CSC>(t, start, end - start, b, x);
      break;
    }
    __syncthreads(); /* level l is final (writes and atomics visible to the block) before level l+1 */
    start = end;
    end   = nend;
    K     = nK;
  }
}

/* CSC: x = b before the scatters */
__global__ void SpTrsvCopyKernel(PetscInt n, const PetscScalar *b, PetscScalar *x, const SpTrsvCUDAVecPtrs *vp)
{
  if (vp) {
    b = vp->b;
    x = vp->x;
  }
  for (size_t k = (size_t)blockIdx.x * blockDim.x + threadIdx.x; k < (size_t)n; k += (size_t)gridDim.x * blockDim.x) x[k] = b[k];
}

__global__ void SpTrsvSetVecPtrsKernel(SpTrsvCUDAVecPtrs *vp, const PetscScalar *b, PetscScalar *x)
{
  vp->b = b;
  vp->x = x;
}

__global__ void SpTrsvGatherKernel(PetscInt n, const int *perm, const PetscScalar *x, PetscScalar *y)
{
  for (size_t k = (size_t)blockIdx.x * blockDim.x + threadIdx.x; k < (size_t)n; k += (size_t)gridDim.x * blockDim.x) y[k] = x[__ldg(perm + k)];
}

__global__ void SpTrsvScatterKernel(PetscInt n, const int *perm, const PetscScalar *x, PetscScalar *y)
{
  for (size_t k = (size_t)blockIdx.x * blockDim.x + threadIdx.x; k < (size_t)n; k += (size_t)gridDim.x * blockDim.x) y[__ldg(perm + k)] = x[k];
}

/* ---- launchers ----------------------------------------------------------------------------------- */

static unsigned int SpTrsvVecGrid(PetscInt n)
{
  const PetscInt64 blocks = ((PetscInt64)n + SPTRSV_CUDA_VEC_BLOCK - 1) / SPTRSV_CUDA_VEC_BLOCK;
  return (unsigned int)PetscMax(1, PetscMin(blocks, (PetscInt64)65536)); /* grid-stride loops do the rest */
}

template <bool UNIT, bool CSC>
static cudaError_t SpTrsvLaunchSegment(const SpTrsvCUDATri &t, const SpTrsvCUDASegment &s, const PetscScalar *b, PetscScalar *x, const SpTrsvCUDAVecPtrs *vp, cudaStream_t st)
{
  if (s.kind == SPTRSV_CUDA_SEG_FUSED) {
    SpTrsvFusedKernel<UNIT, CSC><<<1, s.block, 0, st>>>(t, s.l0, s.l1, b, x, vp);
  } else {
    switch (s.K) {
    case 2:
      SpTrsvLevelKernel<2, UNIT, CSC><<<s.grid, SPTRSV_CUDA_LEVEL_BLOCK, 0, st>>>(t, s.start, s.nrows, b, x, vp);
      break;
    case 4:
      SpTrsvLevelKernel<4, UNIT, CSC><<<s.grid, SPTRSV_CUDA_LEVEL_BLOCK, 0, st>>>(t, s.start, s.nrows, b, x, vp);
      break;
    case 8:
      SpTrsvLevelKernel<8, UNIT, CSC><<<s.grid, SPTRSV_CUDA_LEVEL_BLOCK, 0, st>>>(t, s.start, s.nrows, b, x, vp);
      break;
    case 16:
      SpTrsvLevelKernel<16, UNIT, CSC><<<s.grid, SPTRSV_CUDA_LEVEL_BLOCK, 0, st>>>(t, s.start, s.nrows, b, x, vp);
      break;
    default:
      SpTrsvLevelKernel<32, UNIT, CSC><<<s.grid, SPTRSV_CUDA_LEVEL_BLOCK, 0, st>>>(t, s.start, s.nrows, b, x, vp);
      break;
    }
  }
  return cudaGetLastError();
}

template <bool UNIT, bool CSC>
static cudaError_t SpTrsvLaunchSequence(const SpTrsvCUDATri &t, PetscInt n, PetscInt nseg, const SpTrsvCUDASegment *segs, const PetscScalar *b, PetscScalar *x, const SpTrsvCUDAVecPtrs *vp, cudaStream_t st)
{
  cudaError_t err;

  if (CSC) {
    SpTrsvCopyKernel<<<SpTrsvVecGrid(n), SPTRSV_CUDA_VEC_BLOCK, 0, st>>>(n, b, x, vp);
    if ((err = cudaGetLastError()) != cudaSuccess) return err;
  }
  for (PetscInt k = 0; k < nseg; k++)
    if ((err = SpTrsvLaunchSegment<UNIT, CSC>(t, segs[k], b, x, vp, st)) != cudaSuccess) return err;
  return cudaSuccess;
}

cudaError_t SpTrsvCUDALaunchSolve(const SpTrsvCUDATri *t, PetscBool csc, PetscBool unit, PetscInt n, PetscInt nseg, const SpTrsvCUDASegment *segs, const PetscScalar *b, PetscScalar *x, const SpTrsvCUDAVecPtrs *vp, cudaStream_t st)
{
  if (csc) return unit ? SpTrsvLaunchSequence<true, true>(*t, n, nseg, segs, b, x, vp, st) : SpTrsvLaunchSequence<false, true>(*t, n, nseg, segs, b, x, vp, st);
  return unit ? SpTrsvLaunchSequence<true, false>(*t, n, nseg, segs, b, x, vp, st) : SpTrsvLaunchSequence<false, false>(*t, n, nseg, segs, b, x, vp, st);
}

cudaError_t SpTrsvCUDALaunchSetVecPtrs(SpTrsvCUDAVecPtrs *vp, const PetscScalar *b, PetscScalar *x, cudaStream_t st)
{
  SpTrsvSetVecPtrsKernel<<<1, 1, 0, st>>>(vp, b, x);
  return cudaGetLastError();
}

cudaError_t SpTrsvCUDALaunchGather(PetscInt n, const int *perm, const PetscScalar *x, PetscScalar *y, cudaStream_t st)
{
  SpTrsvGatherKernel<<<SpTrsvVecGrid(n), SPTRSV_CUDA_VEC_BLOCK, 0, st>>>(n, perm, x, y);
  return cudaGetLastError();
}

cudaError_t SpTrsvCUDALaunchScatter(PetscInt n, const int *perm, const PetscScalar *x, PetscScalar *y, cudaStream_t st)
{
  SpTrsvScatterKernel<<<SpTrsvVecGrid(n), SPTRSV_CUDA_VEC_BLOCK, 0, st>>>(n, perm, x, y);
  return cudaGetLastError();
}

cudaError_t SpTrsvCUDAKernelsProbe(void)
{
  cudaFuncAttributes attr;

  /* fails (cudaErrorNoKernelImageForDevice or similar) when this build has no code for the device */
  return cudaFuncGetAttributes(&attr, SpTrsvFusedKernel<false, true>);
}

#else /* complex or exotic scalars: the backend reports itself unavailable and never launches these */

cudaError_t SpTrsvCUDALaunchSolve(const SpTrsvCUDATri *t, PetscBool csc, PetscBool unit, PetscInt n, PetscInt nseg, const SpTrsvCUDASegment *segs, const PetscScalar *b, PetscScalar *x, const SpTrsvCUDAVecPtrs *vp, cudaStream_t st)
{
  return cudaErrorNotSupported;
}
cudaError_t SpTrsvCUDALaunchSetVecPtrs(SpTrsvCUDAVecPtrs *vp, const PetscScalar *b, PetscScalar *x, cudaStream_t st)
{
  return cudaErrorNotSupported;
}
cudaError_t SpTrsvCUDALaunchGather(PetscInt n, const int *perm, const PetscScalar *x, PetscScalar *y, cudaStream_t st)
{
  return cudaErrorNotSupported;
}
cudaError_t SpTrsvCUDALaunchScatter(PetscInt n, const int *perm, const PetscScalar *x, PetscScalar *y, cudaStream_t st)
{
  return cudaErrorNotSupported;
}
cudaError_t SpTrsvCUDAKernelsProbe(void)
{
  return cudaErrorNotSupported;
}
#endif
