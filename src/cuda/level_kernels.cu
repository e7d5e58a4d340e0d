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
   The row pieces (dot products, finalization, push) are the shared helpers of row_ops.cuh.

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
#include "row_ops.cuh"

/* ---- host side: lanes per row and the launch sequence ------------------------------------------ */

/* lanes per row of a level: the smallest power of two >= the mean row length, clamped to 2..32 (paper
   000 uses groups of 2..32 lanes). Rows at least as long as K keep every lane busy on the first pass
   of the row loop; longer rows loop. */
int SpTrsvCUDALanesPerRow(PetscReal mean)
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

PetscInt SpTrsvCUDASolveLaunches(PetscBool csc, PetscBool sweep, PetscInt nseg)
{
  /* CSC first copies its right-hand side into x; a CSC sweep forms that right-hand side before */
  return nseg + (csc ? 1 : 0) + (csc && sweep ? 1 : 0);
}

#if defined(SPTRSV_CUDA_SCALAR_OK)

  #if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 600
    #error "the CSC kernels need a native double atomicAdd: build for sm_60 or later (CUDA_ARCH=60 or more)"
  #endif

  #include "row_ops.cuh"

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
__global__ void __launch_bounds__(SPTRSV_CUDA_LEVEL_BLOCK) SpTrsvLevelKernel(const SpTrsvCUDATri t, int start, int nrows, SpTrsvCUDAVecPtrs v, const SpTrsvCUDAVecPtrs *vp)
{
  const long long g      = (long long)blockIdx.x * (SPTRSV_CUDA_LEVEL_BLOCK / K) + threadIdx.x / K;
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
__global__ void __launch_bounds__(SPTRSV_CUDA_FUSED_MAX_THREADS) SpTrsvFusedKernel(const SpTrsvCUDATri t, int l0, int l1, SpTrsvCUDAVecPtrs v, const SpTrsvCUDAVecPtrs *vp)
{
  int start = __ldg(t.levptr + l0), end = __ldg(t.levptr + l0 + 1), K = __ldg(t.levK + l0);

  if (vp) SpTrsvReadVecPtrs<REST>(v, vp);
  for (int l = l0; l < l1; l++) {
    int nend = end, nK = 2;
    if (l + 1 < l1) {
      nend = __ldg(t.levptr + l + 2);
      nK   = __ldg(t.levK + l + 1);
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

/* CSC sweeps: w[i] = b[i] + cdiag_i xold[i] - sum_j R_ij xold[j]; group g of K lanes takes the rest row
   at schedule position g. Nothing in this launch writes xold (or x), so plain loads are safe. */
template <int K>
__global__ void __launch_bounds__(SPTRSV_CUDA_LEVEL_BLOCK) SpTrsvSweepRHSKernel(const SpTrsvCUDATri t, int n, SpTrsvCUDAVecPtrs v, PetscScalar *w, const SpTrsvCUDAVecPtrs *vp)
{
  const long long g      = (long long)blockIdx.x * (SPTRSV_CUDA_LEVEL_BLOCK / K) + threadIdx.x / K;
  const bool      active = g < n;
  const int       k = active ? (int)g : 0, lane = threadIdx.x & (K - 1);
  PetscScalar     sum;

  if (vp) SpTrsvReadVecPtrs<true>(v, vp);
  sum = SpTrsvGroupSum<K>(SpTrsvRestDot<K, false>(t.rest, k, active, lane, v.xold));
  if (active && lane == 0) {
    const int i = __ldg(t.order + k);
    w[i]        = v.b[i] + __ldg(t.rest.cdiag + k) * v.xold[i] - sum;
  }
}

/* CSC: x = the right-hand side (b, or the sweep's w when w != NULL) before the scatters */
__global__ void SpTrsvCopyKernel(PetscInt n, const PetscScalar *w, SpTrsvCUDAVecPtrs v, const SpTrsvCUDAVecPtrs *vp)
{
  if (vp) SpTrsvReadVecPtrs<false>(v, vp);
  if (w) v.b = w;
  for (size_t k = (size_t)blockIdx.x * blockDim.x + threadIdx.x; k < (size_t)n; k += (size_t)gridDim.x * blockDim.x) v.x[k] = v.b[k];
}

__global__ void SpTrsvSetVecPtrsKernel(SpTrsvCUDAVecPtrs *vp, SpTrsvCUDAVecPtrs v)
{
  *vp = v;
}

/* y may be x: each element is read before it is written, by the same thread (plain loads) */
__global__ void SpTrsvPointwiseMultKernel(PetscInt n, const PetscScalar *d, const PetscScalar *x, PetscScalar *y)
{
  for (size_t k = (size_t)blockIdx.x * blockDim.x + threadIdx.x; k < (size_t)n; k += (size_t)gridDim.x * blockDim.x) y[k] = d[k] * x[k];
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

template <bool UNIT, bool CSC, bool REST>
static cudaError_t SpTrsvLaunchSegment(const SpTrsvCUDATri &t, const SpTrsvCUDASegment &s, SpTrsvCUDAVecPtrs v, const SpTrsvCUDAVecPtrs *vp, cudaStream_t st)
{
  if (s.kind == SPTRSV_CUDA_SEG_FUSED) {
    SpTrsvFusedKernel<UNIT, CSC, REST><<<1, s.block, 0, st>>>(t, s.l0, s.l1, v, vp);
    return cudaGetLastError();
  }
  return SpTrsvWithLanes(s.K, [&](auto K) { SpTrsvLevelKernel<decltype(K)::value, UNIT, CSC, REST><<<s.grid, SPTRSV_CUDA_LEVEL_BLOCK, 0, st>>>(t, s.start, s.nrows, v, vp); });
}

/* w: the CSC right-hand side of a sweep (NULL: b) */
template <bool UNIT, bool CSC, bool REST>
static cudaError_t SpTrsvLaunchSequence(const SpTrsvCUDATri &t, PetscInt n, PetscInt nseg, const SpTrsvCUDASegment *segs, SpTrsvCUDAVecPtrs v, const PetscScalar *w, const SpTrsvCUDAVecPtrs *vp, cudaStream_t st)
{
  cudaError_t err;

  if (CSC) {
    SpTrsvCopyKernel<<<SpTrsvVecGrid(n), SPTRSV_CUDA_VEC_BLOCK, 0, st>>>(n, w, v, vp);
    if ((err = cudaGetLastError()) != cudaSuccess) return err;
  }
  for (PetscInt k = 0; k < nseg; k++)
    if ((err = SpTrsvLaunchSegment<UNIT, CSC, REST>(t, segs[k], v, vp, st)) != cudaSuccess) return err;
  return cudaSuccess;
}

cudaError_t SpTrsvCUDALaunchSolve(const SpTrsvCUDATri *t, PetscBool csc, PetscBool unit, PetscBool sweep, PetscInt n, PetscInt nseg, const SpTrsvCUDASegment *segs, SpTrsvCUDAVecPtrs v, PetscScalar *w, const SpTrsvCUDAVecPtrs *vp, cudaStream_t st)
{
  if (csc) {
    if (sweep) {
      const cudaError_t err = SpTrsvCUDALaunchSweepRHS(t, n, v, w, vp, st);
      if (err != cudaSuccess) return err;
    }
    if (unit) return SpTrsvLaunchSequence<true, true, false>(*t, n, nseg, segs, v, sweep ? w : NULL, vp, st);
    return SpTrsvLaunchSequence<false, true, false>(*t, n, nseg, segs, v, sweep ? w : NULL, vp, st);
  }
  if (sweep) return SpTrsvLaunchSequence<false, false, true>(*t, n, nseg, segs, v, NULL, vp, st); /* sweeps have an explicit diagonal */
  if (unit) return SpTrsvLaunchSequence<true, false, false>(*t, n, nseg, segs, v, NULL, vp, st);
  return SpTrsvLaunchSequence<false, false, false>(*t, n, nseg, segs, v, NULL, vp, st);
}

cudaError_t SpTrsvCUDALaunchSweepRHS(const SpTrsvCUDATri *t, PetscInt n, SpTrsvCUDAVecPtrs v, PetscScalar *w, const SpTrsvCUDAVecPtrs *vp, cudaStream_t st)
{
  const int          K    = t->rest.K;
  const unsigned int grid = (unsigned int)(((PetscInt64)n * K + SPTRSV_CUDA_LEVEL_BLOCK - 1) / SPTRSV_CUDA_LEVEL_BLOCK);

  return SpTrsvWithLanes(K, [&](auto KK) { SpTrsvSweepRHSKernel<decltype(KK)::value><<<grid, SPTRSV_CUDA_LEVEL_BLOCK, 0, st>>>(*t, (int)n, v, w, vp); });
}

cudaError_t SpTrsvCUDALaunchSetVecPtrs(SpTrsvCUDAVecPtrs *vp, SpTrsvCUDAVecPtrs v, cudaStream_t st)
{
  SpTrsvSetVecPtrsKernel<<<1, 1, 0, st>>>(vp, v);
  return cudaGetLastError();
}

cudaError_t SpTrsvCUDALaunchPointwiseMult(PetscInt n, const PetscScalar *d, const PetscScalar *x, PetscScalar *y, cudaStream_t st)
{
  SpTrsvPointwiseMultKernel<<<SpTrsvVecGrid(n), SPTRSV_CUDA_VEC_BLOCK, 0, st>>>(n, d, x, y);
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
  return cudaFuncGetAttributes(&attr, SpTrsvFusedKernel<false, true, false>);
}

#else /* complex or exotic scalars: the backend reports itself unavailable and never launches these */

cudaError_t SpTrsvCUDALaunchSolve(const SpTrsvCUDATri *t, PetscBool csc, PetscBool unit, PetscBool sweep, PetscInt n, PetscInt nseg, const SpTrsvCUDASegment *segs, SpTrsvCUDAVecPtrs v, PetscScalar *w, const SpTrsvCUDAVecPtrs *vp, cudaStream_t st)
{
  return cudaErrorNotSupported;
}
cudaError_t SpTrsvCUDALaunchSweepRHS(const SpTrsvCUDATri *t, PetscInt n, SpTrsvCUDAVecPtrs v, PetscScalar *w, const SpTrsvCUDAVecPtrs *vp, cudaStream_t st)
{
  return cudaErrorNotSupported;
}
cudaError_t SpTrsvCUDALaunchSetVecPtrs(SpTrsvCUDAVecPtrs *vp, SpTrsvCUDAVecPtrs v, cudaStream_t st)
{
  return cudaErrorNotSupported;
}
cudaError_t SpTrsvCUDALaunchPointwiseMult(PetscInt n, const PetscScalar *d, const PetscScalar *x, PetscScalar *y, cudaStream_t st)
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
