/*
   The sync-free path's analysis on the GPU (-mat_sptrsv_analysis device): the schedule of
   src/mat/paths/syncfree/syncfree.c (ASAP levels, level dispatch, CSR or warp-packed ELL storage) built on the device,
   bit for bit the host's, for the CUDA executor of src/cuda/paths/syncfree/syncfree.cu. The host analysis stays the
   reference: tests/device/check_analysis.c downloads this schedule and compares it, array by array and decision by
   decision, with the host analysis of the same plan (SpTrsvSyncFreeAnalyzeHostOf).

   Steps (one stream, one upload of the rows of op(T) as 32-bit ri/rj, figures read back at two points):
   1. Levels (SpTrsvSyncFreeLevelsKernel): a thread per row, rows taken in dependency order through a ticket
      (below); lev(i) = 1 + max lev(j) over the dependencies j, each read by spinning until it is set; the
      sort key (level, bin) of the row, the longest row, the rows per level and per bin. Read back: the number
      of levels (for the sort's key width), the longest row.
   2. Order: a stable radix sort of the rows by key (cub::DeviceRadixSort::SortPairs on (key, row) with rows
      ascending: stable, so inside one (level, bin) the rows stay ascending, which is the host's order:
      SpTrsvLevelsSort then a stable counting sort by bin). The widest level: cub::DeviceReduce::Max.
   3. Warps: the start of each (level, bin) run (a max-scan of the run heads), a warp starting where the
      position in its run is a multiple of 32/K (1 for a long row: the host's cut), warp numbers by an
      exclusive scan of the starts; wstart, wlanes = K, then the tail flag (some row of the warp longer than
      K) by atomicOr. Read back: the number of warps, the rows and warps per bin.
   4. The pattern in dispatch order: ptr by an exclusive scan of the lengths in order, idx gathered from rj,
      and the value map (slot -> index in the rows of op(T)) that device_tri.cu gathers every new set of
      values with: new values on the same pattern re-run nothing of this.
   5. warpell: the ELL image (column of each of the 32 slots of a warp, -1 when empty, and the CSR slot its
      value is gathered from), the number of filled slots.
   6. relabel (-mat_sptrsv_relabel): the dispatch position of every row; with auto, the 32-byte sectors of every
      warp's first poll round with the words by row and by position (a warp per schedule warp: __match_any_sync
      groups equal sectors, the group leaders are counted), read back and compared as the host does; when the
      solution is indexed by position, the column indices (and ELL columns) are translated to positions.

   Deadlock freedom of the levels kernel (the argument of src/mat/analysis/dispatch.c and
   src/cuda/paths/syncfree/syncfree.cu, for a thread per row): positions in dependency order are k -> row k (lower)
   or row n-1-k (upper), so every dependency of the row at position k sits at a position < k (the triangle
   was checked: SpTrsvTriCheckPattern). A block takes a ticket t when it runs and owns positions
   [t B, t B + B): every position below the largest ticket taken belongs to a running or finished block. Let
   k be the smallest position whose level is never written: its dependencies are at positions < k, written
   (relaxed device-scope stores of a value >= 0 over the -1 the array starts at, read by relaxed
   device-scope loads), its thread is running, so its spins end and it writes its level: a contradiction.
   Threads of one warp may wait for each other (row i on row i - 1): independent thread scheduling (sm_70+)
   lets the waited-for thread progress. The level is the whole message (single-copy atomic int), so no fence.
*/
#include <sptrsv/paths/syncfree.h>
#include "syncfree_analysis.h"
#include <climits>

#if defined(SPTRSV_CUDA_SCALAR_OK)
  #include <cub/cub.cuh>
  #include <cuda/atomic>

/* figures the kernels gather and the host reads back */
typedef struct {
  unsigned long long ticket;                          /* levels kernel: the next block of positions */
  unsigned long long ell_filled;                      /* warpell: slots holding an entry */
  unsigned long long sectors[2];                      /* relabel: sectors of the first poll rounds, by row / by position */
  int                maxlev, maxlen;                  /* the highest level, the longest row */
  int                binrows[SPTRSV_SYNCFREE_NBINS];  /* rows of each bin */
  int                binwarps[SPTRSV_SYNCFREE_NBINS]; /* warps of each bin */
} SpTrsvSFAFigures;

/* 1. levels in dependency order (see the header); key = level * 8 + bin, rows = 0 .. n-1, count[level]++ */
__global__ void __launch_bounds__(SPTRSV_SYNCFREE_SETUP_BLOCK) SpTrsvSyncFreeLevelsKernel(int n, bool lower, int maxK, const int *__restrict__ ri, const int *__restrict__ rj, int *lev, unsigned int *key, int *rows, int *count, SpTrsvSFAFigures *fig)
{
  __shared__ unsigned long long t;
  int                           k, i, l = 0;

  if (threadIdx.x == 0) t = atomicAdd(&fig->ticket, 1ULL);
  __syncthreads();
  k = (int)t * SPTRSV_SYNCFREE_SETUP_BLOCK + (int)threadIdx.x;
  if (k >= n) return;
  i = lower ? k : n - 1 - k;
  for (int p = __ldg(ri + i), q = __ldg(ri + i + 1); p < q; p++) {
    cuda::atomic_ref<int, cuda::thread_scope_device> r(lev[__ldg(rj + p)]);
    int                                              lj;
    while ((lj = r.load(cuda::memory_order_relaxed)) < 0) { }
    l = max(l, lj + 1);
  }
  cuda::atomic_ref<int, cuda::thread_scope_device>(lev[i]).store(l, cuda::memory_order_relaxed);
  {
    const int len = __ldg(ri + i + 1) - __ldg(ri + i), b = SpTrsvSyncFreeRowBin(len, maxK);
    key[i]  = ((unsigned int)l << 3) | (unsigned int)b;
    rows[i] = i;
    atomicAdd(count + l, 1);
    atomicAdd(fig->binrows + b, 1);
    atomicMax(&fig->maxlev, l);
    atomicMax(&fig->maxlen, len);
  }
}

/* 3a. head[k] = k where a (level, bin) run starts, 0 elsewhere; len[k] = length of the row at position k */
__global__ void SpTrsvSyncFreeRunHeadsKernel(int n, const unsigned int *__restrict__ key, const int *__restrict__ order, const int *__restrict__ ri, int *head, int *len)
{
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < n) {
    const int i = order[k];
    head[k]     = (k == 0 || key[k] != key[k - 1]) ? k : 0;
    len[k]      = ri[i + 1] - ri[i];
  }
}

/* 3b. start[k] = 1 where a warp starts: the position in its run is a multiple of the rows per warp */
__global__ void SpTrsvSyncFreeWarpStartsKernel(int n, const unsigned int *__restrict__ key, const int *__restrict__ runstart, int *start)
{
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < n) {
    const int b = (int)(key[k] & 7u), per = SpTrsvSyncFreeBinRowsPerWarp(b);
    start[k]    = (k - runstart[k]) % per == 0;
  }
}

/* 3c. wstart, wlanes = K at each warp start (wid: warp of each position, exclusive scan of the starts) */
__global__ void SpTrsvSyncFreeWarpsKernel(int n, const unsigned int *__restrict__ key, const int *__restrict__ start, const int *__restrict__ wid, int *wstart, int *wlanes, SpTrsvSFAFigures *fig)
{
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < n && start[k]) {
    const int b       = (int)(key[k] & 7u);
    wstart[wid[k]]    = k;
    wlanes[wid[k]]    = SpTrsvSyncFreeBinLanes(b);
    atomicAdd(fig->binwarps + b, 1);
  }
}

/* 3d. the tail flag of a warp holding a row longer than its K. wid is the exclusive scan of the starts: the warp of
   position k is wid[k] + start[k] - 1 (wid[k] itself only at a warp's first position) */
__global__ void SpTrsvSyncFreeTailKernel(int n, const int *__restrict__ len, const int *__restrict__ start, const int *__restrict__ wid, int *wlanes)
{
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < n) {
    const int w = wid[k] + start[k] - 1, K = wlanes[w] & (SPTRSV_SYNCFREE_TAIL - 1);
    if (len[k] > K) atomicOr(wlanes + w, SPTRSV_SYNCFREE_TAIL);
  }
}

/* 4. the rows in dispatch order: idx and the value map from the rows of op(T) */
__global__ void SpTrsvSyncFreePermuteKernel(int n, const int *__restrict__ order, const int *__restrict__ ptr, const int *__restrict__ ri, const int *__restrict__ rj, int *idx, int *vmap)
{
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < n) {
    const int i = order[k], p0 = ri[i], m = ri[i + 1] - p0;
    for (int e = 0, q = ptr[k]; e < m; e++, q++) {
      idx[q]  = rj[p0 + e];
      vmap[q] = p0 + e;
    }
  }
}

/* 5. the ELL image: slot 32 w + g K + e holds entry e of row g of warp w (the host's SpTrsvSyncFreeBuildELL) */
__global__ void SpTrsvSyncFreeELLKernel(int nwarps, const int *__restrict__ wstart, const int *__restrict__ wlanes, const int *__restrict__ ptr, const int *__restrict__ idx, int *ellidx, int *ellpos, SpTrsvSFAFigures *fig)
{
  const int s = blockIdx.x * blockDim.x + threadIdx.x;
  if (s < 32 * nwarps) {
    const int w = s >> 5, lane = s & 31, K = wlanes[w] & (SPTRSV_SYNCFREE_TAIL - 1), k = wstart[w] + lane / K, e = lane % K;
    int       c = -1, pos = -1;
    if (k < wstart[w + 1] && e < ptr[k + 1] - ptr[k]) {
      pos = ptr[k] + e;
      c   = idx[pos];
      atomicAdd(&fig->ell_filled, 1ULL);
    }
    ellidx[s] = c;
    ellpos[s] = pos;
  }
}

/* 6. relabel: pos[order[k]] = k */
__global__ void SpTrsvSyncFreePositionsKernel(int n, const int *__restrict__ order, int *pos)
{
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < n) pos[order[k]] = k;
}

/* the sectors of every warp's first poll round, words by row and by position (the host's SpTrsvSyncFreeSectors): a
   warp per schedule warp, lane g K + e on entry e of row g; distinct sectors = lanes that lead their match group */
__global__ void SpTrsvSyncFreeSectorsKernel(int nwarps, int per, const int *__restrict__ wstart, const int *__restrict__ wlanes, const int *__restrict__ ptr, const int *__restrict__ idx, const int *__restrict__ pos, unsigned long long *sectors)
{
  const int w = (int)((blockIdx.x * (unsigned int)blockDim.x + threadIdx.x) >> 5), lane = threadIdx.x & 31;
  if (w >= nwarps) return; /* uniform over the warp */
  const int K = wlanes[w] & (SPTRSV_SYNCFREE_TAIL - 1), k = wstart[w] + lane / K, e = lane % K;
  const bool valid = k < wstart[w + 1] && e < ptr[k + 1] - ptr[k];
  const int  j = valid ? idx[ptr[k] + e] : 0;
  const long long    srow = valid ? (long long)(j / per) : -1 - lane, spos = valid ? (long long)(pos[j] / per) : -1 - lane;
  const unsigned int mrow = __match_any_sync(0xffffffffu, srow), mpos = __match_any_sync(0xffffffffu, spos);
  const unsigned int lrow = __ballot_sync(0xffffffffu, valid && (__ffs(mrow) - 1) == lane), lpos = __ballot_sync(0xffffffffu, valid && (__ffs(mpos) - 1) == lane);
  if (lane == 0) {
    atomicAdd(&sectors[0], (unsigned long long)__popc(lrow));
    atomicAdd(&sectors[1], (unsigned long long)__popc(lpos));
  }
}

/* the column indices (and ELL columns, -1 kept) become dispatch positions */
__global__ void SpTrsvSyncFreeTranslateKernel(int m, const int *__restrict__ pos, int *idx)
{
  const int q = blockIdx.x * blockDim.x + threadIdx.x;
  if (q < m && idx[q] >= 0) idx[q] = pos[idx[q]];
}

struct SpTrsvSFAMax {
  __device__ __forceinline__ int operator()(int a, int b) const { return a > b ? a : b; }
};

/* device scratch of the analysis, freed at the end (or on an error, by the caller's cleanup) */
typedef struct {
  int              *ri, *rj, *lev, *rows, *count, *head, *runstart, *len, *start, *wid, *ptr;
  unsigned int     *key, *skey;
  void             *temp;
  size_t            temp_bytes;
  SpTrsvSFAFigures *fig;
} SpTrsvSFAScratch;

/* cub's scratch: grow to what the next call asks for */
static PetscErrorCode SpTrsvSFATemp(SpTrsvSFAScratch *w, size_t bytes)
{
  PetscFunctionBegin;
  if (bytes > w->temp_bytes) {
    SpTrsvCUDACall(SpTrsvCUDAFree(w->temp));
    PetscCall(SpTrsvCUDAMalloc((void **)&w->temp, bytes, "w->temp"));
    w->temp_bytes = bytes;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SpTrsvSFAScratchFree(SpTrsvSFAScratch *w)
{
  PetscFunctionBegin;
  SpTrsvCUDACall(SpTrsvCUDAFree(w->ri));
  SpTrsvCUDACall(SpTrsvCUDAFree(w->rj));
  SpTrsvCUDACall(SpTrsvCUDAFree(w->lev));
  SpTrsvCUDACall(SpTrsvCUDAFree(w->rows));
  SpTrsvCUDACall(SpTrsvCUDAFree(w->count));
  SpTrsvCUDACall(SpTrsvCUDAFree(w->head));
  SpTrsvCUDACall(SpTrsvCUDAFree(w->runstart));
  SpTrsvCUDACall(SpTrsvCUDAFree(w->len));
  SpTrsvCUDACall(SpTrsvCUDAFree(w->start));
  SpTrsvCUDACall(SpTrsvCUDAFree(w->wid));
  SpTrsvCUDACall(SpTrsvCUDAFree(w->key));
  SpTrsvCUDACall(SpTrsvCUDAFree(w->skey));
  SpTrsvCUDACall(SpTrsvCUDAFree(w->temp));
  SpTrsvCUDACall(SpTrsvCUDAFree(w->fig));
  PetscCall(PetscMemzero(w, sizeof(*w))); /* freed once: a later error path finds NULL pointers */
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* a PetscInt array on the device as int: copied as it is when PetscInt is 32-bit, converted on the host otherwise */
static PetscErrorCode SpTrsvSFAUploadInt(const PetscInt *h, PetscInt len, int **d, cudaStream_t st)
{
  PetscFunctionBegin;
  if (sizeof(PetscInt) == sizeof(int)) {
    PetscCall(SpTrsvCUDAMalloc((void **)d, (size_t)(len + 1) * sizeof(int), "d"));
    if (len) SpTrsvCUDACall(cudaMemcpyAsync(*d, h, (size_t)len * sizeof(int), cudaMemcpyHostToDevice, st)); /* pageable: staged before it returns */
  } else PetscCall(SpTrsvCUDAUploadIndices(h, len, d, st));
  PetscFunctionReturn(PETSC_SUCCESS);
}

  #define SPTRSV_SFA_MALLOC(ptr, count) SpTrsvCUDAMallocN(ptr, count)

/*
  SpTrsvSyncFreeAnalyzeDevice - the schedule of op(T) on the device (see the file header). Output (device, owned
  by the caller): order (n), ptr (n + 1), idx and vmap (nnz), wstart (nwarps + 1), wlanes (nwarps); with warpell
  ellidx and ellpos (32 nwarps). On the host: plan->nlevels, plan->stats, and sf's nwarps, bin counts, ell_filled.
*/
static PetscErrorCode SpTrsvSyncFreeAnalyzeDevice_Private(const SpTrsvOp *op, SpTrsvPlan plan, cudaStream_t st, int **order, int **ptr, int **idx, int **vmap, int **wstart, int **wlanes, int **ellidx, int **ellpos, SpTrsvSFAScratch &w)
{
  SpTrsvSyncFreeSchedule *sf = (SpTrsvSyncFreeSchedule *)plan->data;
  const int               n  = (int)op->n, nnz = (int)op->nnz;
  SpTrsvSFAFigures        fig;
  int                     nwarps = 0, last[2] = {0, 0}, maxcount = 0, endbit = 3;
  size_t                  bytes = 0;

  PetscFunctionBegin;
  PetscCheck(op->n < (1 << 28) && op->nnz < INT_MAX, PETSC_COMM_SELF, PETSC_ERR_INT_OVERFLOW, "-mat_sptrsv_analysis device: n = %" PetscInt_FMT " must be below 2^28 (sort keys) and nnz = %" PetscInt_FMT " below 2^31; use -mat_sptrsv_analysis host", op->n, op->nnz);
  /* the rows of op(T), once, 32-bit */
  PetscCall(SpTrsvSFAUploadInt(op->ri, op->n + 1, &w.ri, st));
  PetscCall(SpTrsvSFAUploadInt(op->rj, op->nnz, &w.rj, st));
  SPTRSV_SFA_MALLOC(w.lev, n);
  SPTRSV_SFA_MALLOC(w.rows, n);
  SPTRSV_SFA_MALLOC(w.count, n);
  SPTRSV_SFA_MALLOC(w.key, n);
  SPTRSV_SFA_MALLOC(w.skey, n);
  SPTRSV_SFA_MALLOC(*order, n);
  PetscCall(SpTrsvCUDAMalloc((void **)&w.fig, sizeof(SpTrsvSFAFigures), "w.fig"));
  SpTrsvCUDACall(cudaMemsetAsync(w.fig, 0, sizeof(SpTrsvSFAFigures), st));
  SpTrsvCUDACall(cudaMemsetAsync(w.lev, 0xFF, (size_t)(n + 1) * sizeof(int), st)); /* -1: not yet leveled */
  SpTrsvCUDACall(cudaMemsetAsync(w.count, 0, (size_t)(n + 1) * sizeof(int), st));
  /* 1. levels */
  if (n) SpTrsvSyncFreeLevelsKernel<<<SpTrsvSyncFreeSetupGrid(n), SPTRSV_SYNCFREE_SETUP_BLOCK, 0, st>>>(n, (bool)op->lower, (int)sf->max_lanes, w.ri, w.rj, w.lev, w.key, w.rows, w.count, w.fig);
  SpTrsvCUDACheckLaunch();
  SpTrsvCUDACall(cudaMemcpyAsync(&fig, w.fig, sizeof(fig), cudaMemcpyDeviceToHost, st));
  SpTrsvCUDACall(cudaStreamSynchronize(st));
  plan->nlevels = n ? fig.maxlev + 1 : 0;
  while (endbit < 32 && ((unsigned int)fig.maxlev << 3) >> endbit) endbit++;
  /* 2. order: stable sort of (key, row) by key; the widest level */
  if (n) {
    SpTrsvCUDACall(cub::DeviceRadixSort::SortPairs(NULL, bytes, w.key, w.skey, w.rows, *order, n, 0, endbit, st));
    PetscCall(SpTrsvSFATemp(&w, bytes));
    SpTrsvCUDACall(cub::DeviceRadixSort::SortPairs(w.temp, bytes, w.key, w.skey, w.rows, *order, n, 0, endbit, st));
    /* rows (the sort's input) is free once the sort ran: it takes the maximum */
    SpTrsvCUDACall(cub::DeviceReduce::Max(NULL, bytes, w.count, w.rows, (int)plan->nlevels, st));
    PetscCall(SpTrsvSFATemp(&w, bytes));
    SpTrsvCUDACall(cub::DeviceReduce::Max(w.temp, bytes, w.count, w.rows, (int)plan->nlevels, st));
    SpTrsvCUDACall(cudaMemcpyAsync(&maxcount, w.rows, sizeof(int), cudaMemcpyDeviceToHost, st));
  }
  /* 3. warps */
  SPTRSV_SFA_MALLOC(w.head, n);
  SPTRSV_SFA_MALLOC(w.runstart, n);
  SPTRSV_SFA_MALLOC(w.len, n);
  SPTRSV_SFA_MALLOC(w.start, n);
  SPTRSV_SFA_MALLOC(w.wid, n);
  if (n) {
    SpTrsvSyncFreeRunHeadsKernel<<<SpTrsvSyncFreeSetupGrid(n), SPTRSV_SYNCFREE_SETUP_BLOCK, 0, st>>>(n, w.skey, *order, w.ri, w.head, w.len);
    SpTrsvCUDACheckLaunch();
    SpTrsvCUDACall(cub::DeviceScan::InclusiveScan(NULL, bytes, w.head, w.runstart, SpTrsvSFAMax(), n, st));
    PetscCall(SpTrsvSFATemp(&w, bytes));
    SpTrsvCUDACall(cub::DeviceScan::InclusiveScan(w.temp, bytes, w.head, w.runstart, SpTrsvSFAMax(), n, st));
    SpTrsvSyncFreeWarpStartsKernel<<<SpTrsvSyncFreeSetupGrid(n), SPTRSV_SYNCFREE_SETUP_BLOCK, 0, st>>>(n, w.skey, w.runstart, w.start);
    SpTrsvCUDACheckLaunch();
    SpTrsvCUDACall(cub::DeviceScan::ExclusiveSum(NULL, bytes, w.start, w.wid, n, st));
    PetscCall(SpTrsvSFATemp(&w, bytes));
    SpTrsvCUDACall(cub::DeviceScan::ExclusiveSum(w.temp, bytes, w.start, w.wid, n, st));
    SpTrsvCUDACall(cudaMemcpyAsync(&last[0], w.wid + n - 1, sizeof(int), cudaMemcpyDeviceToHost, st));
    SpTrsvCUDACall(cudaMemcpyAsync(&last[1], w.start + n - 1, sizeof(int), cudaMemcpyDeviceToHost, st));
    SpTrsvCUDACall(cudaStreamSynchronize(st));
    nwarps = last[0] + last[1];
  }
  SPTRSV_SFA_MALLOC(*wstart, nwarps + 1);
  SPTRSV_SFA_MALLOC(*wlanes, nwarps);
  SpTrsvCUDACall(cudaMemcpyAsync(*wstart + nwarps, &n, sizeof(int), cudaMemcpyHostToDevice, st));
  if (n) {
    SpTrsvSyncFreeWarpsKernel<<<SpTrsvSyncFreeSetupGrid(n), SPTRSV_SYNCFREE_SETUP_BLOCK, 0, st>>>(n, w.skey, w.start, w.wid, *wstart, *wlanes, w.fig);
    SpTrsvCUDACheckLaunch();
    SpTrsvSyncFreeTailKernel<<<SpTrsvSyncFreeSetupGrid(n), SPTRSV_SYNCFREE_SETUP_BLOCK, 0, st>>>(n, w.len, w.start, w.wid, *wlanes);
    SpTrsvCUDACheckLaunch();
  }
  /* 4. the pattern in dispatch order and its value map: ptr = exclusive scan of the lengths (len[n] = 0) */
  SPTRSV_SFA_MALLOC(*ptr, n + 1);
  SPTRSV_SFA_MALLOC(*idx, nnz);
  SPTRSV_SFA_MALLOC(*vmap, nnz);
  SpTrsvCUDACall(cudaMemsetAsync(w.len + n, 0, sizeof(int), st));
  SpTrsvCUDACall(cub::DeviceScan::ExclusiveSum(NULL, bytes, w.len, *ptr, n + 1, st));
  PetscCall(SpTrsvSFATemp(&w, bytes));
  SpTrsvCUDACall(cub::DeviceScan::ExclusiveSum(w.temp, bytes, w.len, *ptr, n + 1, st));
  if (n) {
    SpTrsvSyncFreePermuteKernel<<<SpTrsvSyncFreeSetupGrid(n), SPTRSV_SYNCFREE_SETUP_BLOCK, 0, st>>>(n, *order, *ptr, w.ri, w.rj, *idx, *vmap);
    SpTrsvCUDACheckLaunch();
  }
  /* 5. the ELL image */
  if (sf->warpell) {
    PetscCall(SpTrsvSyncFreeCheckELL(nwarps));
    SPTRSV_SFA_MALLOC(*ellidx, 32 * nwarps);
    SPTRSV_SFA_MALLOC(*ellpos, 32 * nwarps);
    if (nwarps) {
      SpTrsvSyncFreeELLKernel<<<SpTrsvSyncFreeSetupGrid(32 * (PetscInt)nwarps), SPTRSV_SYNCFREE_SETUP_BLOCK, 0, st>>>(nwarps, *wstart, *wlanes, *ptr, *idx, *ellidx, *ellpos, w.fig);
      SpTrsvCUDACheckLaunch();
    }
  }
  /* 6. relabel (auto: decided by the sector counts, read back) */
  if (n && (sf->relabel_auto || sf->relabel)) {
    SpTrsvSyncFreePositionsKernel<<<SpTrsvSyncFreeSetupGrid(n), SPTRSV_SYNCFREE_SETUP_BLOCK, 0, st>>>(n, *order, w.head);
    SpTrsvCUDACheckLaunch();
    if (sf->relabel_auto && nwarps) {
      SpTrsvSyncFreeSectorsKernel<<<SpTrsvSyncFreeSetupGrid(32 * (PetscInt)nwarps), SPTRSV_SYNCFREE_SETUP_BLOCK, 0, st>>>(nwarps, (int)(32 / sizeof(PetscScalar)), *wstart, *wlanes, *ptr, *idx, w.head, w.fig->sectors);
      SpTrsvCUDACheckLaunch();
      SpTrsvCUDACall(cudaMemcpyAsync(&fig, w.fig, sizeof(fig), cudaMemcpyDeviceToHost, st));
      SpTrsvCUDACall(cudaStreamSynchronize(st));
      sf->sectors_row = (PetscInt64)fig.sectors[0];
      sf->sectors_pos = (PetscInt64)fig.sectors[1];
      SpTrsvSyncFreeRelabelDecide(sf); /* the host analysis's rule */
    }
    if (sf->relabel) {
      if (nnz) SpTrsvSyncFreeTranslateKernel<<<SpTrsvSyncFreeSetupGrid(nnz), SPTRSV_SYNCFREE_SETUP_BLOCK, 0, st>>>(nnz, w.head, *idx);
      SpTrsvCUDACheckLaunch();
      if (*ellidx && nwarps) SpTrsvSyncFreeTranslateKernel<<<SpTrsvSyncFreeSetupGrid(32 * (PetscInt)nwarps), SPTRSV_SYNCFREE_SETUP_BLOCK, 0, st>>>(32 * nwarps, w.head, *ellidx);
      SpTrsvCUDACheckLaunch();
    }
  }
  SpTrsvCUDACall(cudaMemcpyAsync(&fig, w.fig, sizeof(fig), cudaMemcpyDeviceToHost, st));
  SpTrsvCUDACall(cudaStreamSynchronize(st));
  PetscCall(SpTrsvSFAScratchFree(&w));
  /* the figures -ksp_view shows */
  sf->nwarps     = nwarps;
  sf->ell_filled = (PetscInt)fig.ell_filled;
  for (int b = 0; b < SPTRSV_SYNCFREE_NBINS; b++) {
    sf->binrows[b]  = fig.binrows[b];
    sf->binwarps[b] = fig.binwarps[b];
  }
  PetscCall(SpTrsvPlanSetStats(op, plan, maxcount, n ? fig.maxlen : 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the analysis above; on an error (a failed device allocation, an index limit) its scratch and outputs are freed */
PetscErrorCode SpTrsvSyncFreeAnalyzeDevice(const SpTrsvOp *op, SpTrsvPlan plan, cudaStream_t st, int **order, int **ptr, int **idx, int **vmap, int **wstart, int **wlanes, int **ellidx, int **ellpos)
{
  SpTrsvSFAScratch w;
  PetscErrorCode   ierr;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(&w, sizeof(w)));
  *order = *ptr = *idx = *vmap = *wstart = *wlanes = *ellidx = *ellpos = NULL;
  ierr = SpTrsvSyncFreeAnalyzeDevice_Private(op, plan, st, order, ptr, idx, vmap, wstart, wlanes, ellidx, ellpos, w);
  if (ierr) {
    int **out[] = {order, ptr, idx, vmap, wstart, wlanes, ellidx, ellpos};

    (void)cudaStreamSynchronize(st);
    (void)cudaGetLastError();
    (void)SpTrsvSFAScratchFree(&w); /* NULL pointers are skipped */
    for (int k = 0; k < 8; k++) {
      (void)SpTrsvCUDAFree(*out[k]);
      *out[k] = NULL;
    }
    PetscCall(ierr);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

#else

PetscErrorCode SpTrsvSyncFreeAnalyzeDevice(const SpTrsvOp *op, SpTrsvPlan plan, cudaStream_t st, int **order, int **ptr, int **idx, int **vmap, int **wstart, int **wlanes, int **ellidx, int **ellpos)
{
  PetscFunctionBegin;
  SETERRQ(PETSC_COMM_SELF, PETSC_ERR_SUP, "-mat_sptrsv_analysis device: the CUDA kernels of this build support real scalars only");
}
#endif
