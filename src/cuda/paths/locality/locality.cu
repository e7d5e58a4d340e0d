/*
   Locality-aware sub-graph solves on the GPU (paper 004, sptrsv_locality).

   The analysis (src/mat/paths/locality/partition.c, src/mat/paths/locality/locality.c; include/sptrsv/paths/locality.h) cut the DAG
   of op(T) into sub-graphs of at most n_max rows, numbered by sub-graph level, with every edge from a lower or equal
   sub-graph index to a higher one and no edge between two sub-graphs of one level; inside a sub-graph the rows are
   grouped in time slots, a row strictly after its dependencies of the same sub-graph. It stored the triangle in plan
   order with every row's entries external first (column = the global row, in an earlier sub-graph) and internal after
   (column = the offset of the dependency in the sub-graph, i.e. its shared-memory word).

   One launch per sub-graph level, one block per sub-graph of it:
     0. (stage >= 1, chosen per launch by the analysis) copy the sub-graph's slot pointers and long-row counts to shared
        memory, and at stage 2 its entries (column indices and values: one contiguous range); __syncthreads();
     1. every row of the sub-graph: xl[r] = b_i - sum of its external entries against global x (groups of K lanes per
        row, shuffle sums; a long row by a whole warp, from the sub-graph's list of long rows); at stage >= 1 the row's
        internal range and its inverse diagonal go to shared memory; __syncthreads();
     2. the slots in turn: every row of the slot: xl[r] = (xl[r] - sum of its internal entries against xl) * idiag_i
        (the slot's long rows first, a warp each, then the others in groups of K); __syncthreads() after each slot.
        The first round of a slot's short rows is loaded one slot ahead (range, inverse diagonal, each lane's first
        entry: none depends on x), so a slot's chain starts from its loads of xl;
     3. x_i = xl[r] for every row (coalesced by position).
   xl and the staged arrays live in dynamic shared memory, sized per launch by the analysis for its largest sub-graph
   (SpTrsvLocalityStageBytes). Staging removes the dependent global loads (slot pointer, then row range, then entries,
   and the diagonal) from the chain of every slot, which is what a slot costs on a grid (a few rows, a few entries
   each); loading ahead takes the remaining shared- or global-memory loads that do not depend on x off it.

   Why it is correct, and why it cannot deadlock.
   - No thread ever waits for another thread except at __syncthreads(), and every thread of a block reaches every
     barrier: the loop bounds (the sub-graph's rows, its slots, the rows of a slot) are the same for every thread of
     the block, nothing returns early, and inactive groups (past the end of a slot) run the loop body with no row, so
     the warp-wide shuffles see all 32 lanes. Blocks never wait for each other (no flags, no spinning): a launch
     finishes whatever the number of resident blocks, so there is no deadlock however few blocks fit on the device.
   - External entries: a column in an earlier sub-graph belongs to an earlier sub-graph level (the analysis numbers
     sub-graphs by level and SpTrsvLocalityScheduleCheck verifies it), i.e. to an earlier launch on the same stream,
     which completed with its writes visible before this launch started. No block of this launch writes it (blocks of
     one level share no edge), so the plain loads read final values.
   - Internal entries: a dependency in the same sub-graph is in an earlier slot, written to xl before the barrier that
     ends that slot (the barrier orders shared-memory writes before later reads of the block); the rows of one slot
     write distinct words and read only words of earlier slots or their own (read-write-conflict free).
   - Staged arrays: written in step 0 (before its barrier) or step 1 (the row ranges and inverse diagonals, before the
     barrier that ends step 1), read only after that barrier, never written again. Loading ahead reads only these,
     the slot pointers and the pattern and values (never xl), so it may run a slot early: what it reads is final. A row's xl word in step 1 is written by exactly one
     group or warp: the groups skip the long rows (the same length test as the analysis's), the warps take only those.
     The passes over long rows have block-uniform bounds (the list of the sub-graph, the count of the slot), and an
     inactive warp runs the shuffles with an empty range, as an inactive group does.
   - Writes to x: each row once, by its own block, after its last barrier; read only by later launches.
   Read-only data (the pattern, values, diagonal, schedule) goes through the non-coherent cache (__ldg); x never does.
*/
#include <sptrsv/paths/locality.h>
#include <climits>
#include "../../row_ops.cuh"
#include "locality_chain.h"
#include "locality_blocks.h"

/* the locality path's device schedule: sub-graph, slot and split pointers, the long rows (NULL, long_len INT_MAX when
   the triangle has none) (device), and per level the launch geometry (host) */
typedef struct {
  const int *subptr, *sslot, *slotptr, *split;
  const int *slotlong, *lptr, *lpos;
  int        long_len;
} SpTrsvCUDALocalityArrays;

typedef struct {
  int                     *d_subptr, *d_sslot, *d_slotptr, *d_split, *d_slotlong, *d_lptr, *d_lpos;
  SpTrsvCUDALocalityArrays a;
  PetscInt                 nlev;
  int                     *g0, *grid, *stage; /* nlev: first sub-graph, number of sub-graphs and stage of each level */
  size_t                  *smem;              /* nlev: dynamic shared memory of each level's launch (its largest sub-graph) */
  int                      K, block;
} SpTrsvCUDALocality;

#if defined(SPTRSV_CUDA_SCALAR_OK)

/* one row r (offset in the sub-graph) of a slot, W lanes (K for a short row, 32 for a long one): x_r from xl[r] (b minus
   the external sum) and the internal entries; its range and inverse diagonal from shared memory (stage >= 1, the range
   relative to the staged entries at stage 2) or from global memory (stage 0); inactive lanes take part in the shuffles
   with an empty range */
template <int W, bool UNIT>
__device__ __forceinline__ void SpTrsvLocalitySlotRow(const SpTrsvCUDATri &t, const SpTrsvCUDALocalityArrays &a, int k0, int r, bool active, int lane, int stage, const int *rs, const int *re, const int *sidx, const PetscScalar *sval, const PetscScalar *dl, PetscScalar *xl)
{
  int         p = 0, q = 0;
  PetscScalar di = 0, sum;

  if (active) {
    if (stage >= 1) {
      p  = rs[r];
      q  = re[r];
      di = UNIT ? (PetscScalar)1 : dl[r];
    } else {
      p  = __ldg(a.split + k0 + r);
      q  = __ldg(t.ptr + k0 + r + 1);
      di = SpTrsvLoadDiag<UNIT>(t, k0 + r); /* independent of the sum: issued before it */
    }
  }
  sum = SpTrsvGroupSum<W>(stage >= 2 ? SpTrsvDotShared<W>(p, q, lane, sidx, sval, xl) : SpTrsvDot<W, false>(p, q, lane, t.idx, t.val, xl));
  if (active && lane == 0) xl[r] = SpTrsvFinalize<UNIT, false>(xl[r] - sum, di, 0, 0);
}

/* the first round of a slot's short rows (one row per group), loaded one slot ahead: a row's range, its inverse
   diagonal and this lane's first entry (column and value) do not depend on x, so they are read while the slot before
   is computed and the slot itself starts from its loads of xl */
typedef struct {
  int         p, q, c;
  PetscScalar v, di;
} SpTrsvLocalityAhead;

template <int W, bool UNIT>
__device__ __forceinline__ SpTrsvLocalityAhead SpTrsvLocalityLoadAhead(const SpTrsvCUDATri &t, const SpTrsvCUDALocalityArrays &a, int k0, int r, bool active, int lane, int stage, const int *rs, const int *re, const int *sidx, const PetscScalar *sval, const PetscScalar *dl)
{
  SpTrsvLocalityAhead h = {0, 0, 0, 0, 0};

  if (active) {
    if (stage >= 1) {
      h.p  = rs[r];
      h.q  = re[r];
      h.di = UNIT ? (PetscScalar)1 : dl[r];
    } else {
      h.p  = __ldg(a.split + k0 + r);
      h.q  = __ldg(t.ptr + k0 + r + 1);
      h.di = SpTrsvLoadDiag<UNIT>(t, k0 + r);
    }
    if (h.p + lane < h.q) {
      h.c = stage >= 2 ? sidx[h.p + lane] : __ldg(t.idx + h.p + lane);
      h.v = stage >= 2 ? sval[h.p + lane] : __ldg(t.val + h.p + lane);
    }
  }
  return h;
}

/* the row r loaded ahead in h: the same sum as SpTrsvLocalitySlotRow (the lane's entries in the same order), its first
   entry from h */
template <int W, bool UNIT>
__device__ __forceinline__ void SpTrsvLocalityAheadRow(const SpTrsvCUDATri &t, const SpTrsvLocalityAhead &h, int r, bool active, int lane, int stage, const int *sidx, const PetscScalar *sval, PetscScalar *xl)
{
  PetscScalar part = 0, sum;

  if (h.p + lane < h.q) part = h.v * xl[h.c]; /* inactive rows have an empty range */
  if (stage >= 2)
    for (int e = h.p + lane + W; e < h.q; e += W) part += sval[e] * xl[sidx[e]];
  else
    for (int e = h.p + lane + W; e < h.q; e += W) part += __ldg(t.val + e) * xl[__ldg(t.idx + e)];
  sum = SpTrsvGroupSum<W>(part);
  if (active && lane == 0) xl[r] = SpTrsvFinalize<UNIT, false>(xl[r] - sum, h.di, 0, 0);
}

/* slot s's bounds (offsets in the sub-graph) and long-row count, from shared memory (stage >= 1) or global memory */
__device__ __forceinline__ void SpTrsvLocalitySlotBounds(const SpTrsvCUDALocalityArrays &a, int stage, const int *sp, const int *sl, int s0, int k0, int s, bool haslong, int *e0, int *e1, int *nl)
{
  if (stage >= 1) {
    *e0 = sp[s];
    *e1 = sp[s + 1];
    *nl = sl[s];
  } else {
    *e0 = __ldg(a.slotptr + s0 + s) - k0;
    *e1 = __ldg(a.slotptr + s0 + s + 1) - k0;
    *nl = haslong ? __ldg(a.slotlong + s0 + s) : 0;
  }
}

/* one block per sub-graph g0 + blockIdx.x (see the top of this file) */
template <int K, bool UNIT>
__global__ void __launch_bounds__(SPTRSV_LOCALITY_MAX_BLOCK) SpTrsvLocalityKernel(const SpTrsvCUDATri t, const SpTrsvCUDALocalityArrays a, int g0, int stage, SpTrsvCUDAVecPtrs v, const SpTrsvCUDAVecPtrs *vp)
{
  extern __shared__ __align__(16) unsigned char sptrsv_locality_smem[];
  const int   g       = g0 + (int)blockIdx.x;
  const int   k0      = __ldg(a.subptr + g), nr = __ldg(a.subptr + g + 1) - k0;
  const int   s0      = __ldg(a.sslot + g), ns = __ldg(a.sslot + g + 1) - s0;
  const int   ngroups = (int)blockDim.x / K, grp = (int)threadIdx.x / K, lane = (int)threadIdx.x & (K - 1);
  const int   nwarps = (int)blockDim.x / 32, warp = (int)threadIdx.x / 32, wlane = (int)threadIdx.x & 31;
  const bool  haslong = a.lptr != NULL;
  const int   base    = stage >= 2 ? __ldg(t.ptr + k0) : 0; /* the staged entries: [base, base + ne) */
  const int   ne      = stage >= 2 ? __ldg(t.ptr + k0 + nr) - base : 0;
  /* shared memory (SpTrsvLocalityStageBytes): x, inverse diagonals, values, row starts and ends, column indices, slot
     pointers, long counts */
  PetscScalar *xl   = reinterpret_cast<PetscScalar *>(sptrsv_locality_smem);
  PetscScalar *dl   = xl + nr;
  PetscScalar *sval = dl + (stage >= 1 ? nr : 0);
  int         *rs   = reinterpret_cast<int *>(sval + ne);
  int         *re   = rs + nr, *sidx = re + nr, *sp = sidx + ne, *sl = sp + ns + 1;

  if (vp) SpTrsvReadVecPtrs<false>(v, vp);
  /* 0. staging: slot pointers (relative to the sub-graph) and long counts; the entries at stage 2 */
  if (stage >= 1) {
    for (int q = (int)threadIdx.x; q <= ns; q += (int)blockDim.x) {
      sp[q] = __ldg(a.slotptr + s0 + q) - k0;
      if (q < ns) sl[q] = haslong ? __ldg(a.slotlong + s0 + q) : 0;
    }
    for (int q = (int)threadIdx.x; q < ne; q += (int)blockDim.x) {
      sidx[q] = __ldg(t.idx + base + q);
      sval[q] = __ldg(t.val + base + q);
    }
    __syncthreads(); /* the staged entries before phase 1 reads them */
  }
  /* 1. b minus the external entries (global x, final since earlier launches); a long row's sum is left to a warp */
  for (int r0 = 0; r0 < nr; r0 += ngroups) {
    const int  r      = r0 + grp, k = k0 + r;
    const bool active = r < nr;
    int        p = 0, q = 0, e = 0;
    bool       islong;
    if (active) {
      p = __ldg(t.ptr + k);
      q = __ldg(a.split + k);
      if (stage >= 1 || haslong) e = __ldg(t.ptr + k + 1);
      if (stage >= 1 && lane == 0) {
        rs[r] = q - base;
        re[r] = e - base;
        if (!UNIT) dl[r] = SpTrsvLoadDiag<UNIT>(t, k);
      }
    }
    islong = active && e - p >= a.long_len;
    if (islong) p = q;
    {
      const PetscScalar sum = SpTrsvGroupSum<K>(stage >= 2 ? SpTrsvDotShared<K>(p - base, q - base, lane, sidx, sval, v.x) : SpTrsvDot<K, false>(p, q, lane, t.idx, t.val, v.x));
      if (active && !islong && lane == 0) xl[r] = v.b[__ldg(t.order + k)] - sum;
    }
  }
  if (haslong) { /* the long rows' external sums, a warp each */
    const int l0 = __ldg(a.lptr + g), l1 = __ldg(a.lptr + g + 1);
    for (int a0 = l0; a0 < l1; a0 += nwarps) {
      const bool active = a0 + warp < l1;
      int        k = k0, p = 0, q = 0;
      if (active) {
        k = __ldg(a.lpos + a0 + warp);
        p = __ldg(t.ptr + k);
        q = __ldg(a.split + k);
      }
      {
        const PetscScalar sum = SpTrsvGroupSum<32>(stage >= 2 ? SpTrsvDotShared<32>(p - base, q - base, wlane, sidx, sval, v.x) : SpTrsvDot<32, false>(p, q, wlane, t.idx, t.val, v.x));
        if (active && wlane == 0) xl[k - k0] = v.b[__ldg(t.order + k)] - sum;
      }
    }
  }
  __syncthreads();
  /* 2. the slots: internal entries from shared memory, the slot's long rows a warp each, then the others in groups of
     K lanes (the first round loaded during the slot before); a barrier after each slot */
  if (ns > 0) {
    int                 e0, e1, nl;
    SpTrsvLocalityAhead h;

    SpTrsvLocalitySlotBounds(a, stage, sp, sl, s0, k0, 0, haslong, &e0, &e1, &nl);
    h = SpTrsvLocalityLoadAhead<K, UNIT>(t, a, k0, e0 + nl + grp, e0 + nl + grp < e1, lane, stage, rs, re, sidx, sval, dl);
    for (int s = 0; s < ns; s++) {
      int                 f0 = 0, f1 = 0, fl = 0;
      SpTrsvLocalityAhead hn = {0, 0, 0, 0, 0};

      if (s + 1 < ns) { /* slot s + 1's bounds and first round: read-only data, issued before slot s's chain */
        SpTrsvLocalitySlotBounds(a, stage, sp, sl, s0, k0, s + 1, haslong, &f0, &f1, &fl);
        hn = SpTrsvLocalityLoadAhead<K, UNIT>(t, a, k0, f0 + fl + grp, f0 + fl + grp < f1, lane, stage, rs, re, sidx, sval, dl);
      }
      for (int r0 = e0; r0 < e0 + nl; r0 += nwarps) SpTrsvLocalitySlotRow<32, UNIT>(t, a, k0, r0 + warp, r0 + warp < e0 + nl, wlane, stage, rs, re, sidx, sval, dl, xl);
      SpTrsvLocalityAheadRow<K, UNIT>(t, h, e0 + nl + grp, e0 + nl + grp < e1, lane, stage, sidx, sval, xl);
      for (int r0 = e0 + nl + ngroups; r0 < e1; r0 += ngroups) SpTrsvLocalitySlotRow<K, UNIT>(t, a, k0, r0 + grp, r0 + grp < e1, lane, stage, rs, re, sidx, sval, dl, xl);
      __syncthreads(); /* slot s is final in xl before slot s + 1 reads it */
      e0 = f0;
      e1 = f1;
      nl = fl;
      h  = hn;
    }
  }
  /* 3. write back */
  for (int r = (int)threadIdx.x; r < nr; r += (int)blockDim.x) v.x[__ldg(t.order + k0 + r)] = xl[r];
}

template <bool UNIT>
static cudaError_t SpTrsvLocalityLaunchLevels(const SpTrsvCUDATri &t, const SpTrsvCUDALocality &lc, SpTrsvCUDAVecPtrs v, const SpTrsvCUDAVecPtrs *vp, cudaStream_t st)
{
  for (PetscInt l = 0; l < lc.nlev; l++) {
    const cudaError_t err = SpTrsvWithLanes(lc.K, [&](auto K) { SpTrsvLocalityKernel<decltype(K)::value, UNIT><<<lc.grid[l], lc.block, lc.smem[l], st>>>(t, lc.a, lc.g0[l], lc.stage[l], v, vp); });
    if (err != cudaSuccess) return err;
  }
  return cudaSuccess;
}

/* the whole launch sequence of a solve (SpTrsvCUDALaunchFn); no sweeps */
static cudaError_t SpTrsvCUDALocalityLaunch(const SpTrsvCUDATriData *d, PetscBool sweep, SpTrsvCUDAVecPtrs v, const SpTrsvCUDAVecPtrs *vp, cudaStream_t st)
{
  const SpTrsvCUDALocality &lc = *(const SpTrsvCUDALocality *)d->path;

  if (sweep) return cudaErrorNotSupported;
  if (d->unit) return SpTrsvLocalityLaunchLevels<true>(d->tri, lc, v, vp, st);
  return SpTrsvLocalityLaunchLevels<false>(d->tri, lc, v, vp, st);
}

/*
  allow the kernel this triangle launches (K, UNIT) bytes of dynamic shared memory (above the default 48 KB). The limit
  belongs to the kernel, not to the triangle: it is only ever raised, so a later triangle with smaller sub-graphs (a
  transposed solver made on first use, another factor) does not lower it below what an earlier one launches with.
*/
static cudaError_t SpTrsvLocalitySetSmem(int K, PetscBool unit, size_t bytes)
{
  static size_t granted[6][2]; /* by log2(K) and unit: the largest limit set so far */
  int           lk = 0;
  cudaError_t   err = cudaSuccess, lerr;

  if (K != 2 && K != 4 && K != 8 && K != 16) K = 32; /* the instances SpTrsvWithLanes() picks */
  while ((1 << lk) < K) lk++;
  if (bytes <= granted[lk][unit ? 1 : 0]) return cudaSuccess;
  lerr = SpTrsvWithLanes(K, [&](auto Kc) {
    if (unit) err = cudaFuncSetAttribute(SpTrsvLocalityKernel<decltype(Kc)::value, true>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes);
    else err = cudaFuncSetAttribute(SpTrsvLocalityKernel<decltype(Kc)::value, false>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes);
  });
  if (err == cudaSuccess && lerr == cudaSuccess) granted[lk][unit ? 1 : 0] = bytes;
  return err != cudaSuccess ? err : lerr;
}

/* the limits of the kernel this triangle launches (K, UNIT), once its shared-memory limit is set */
static cudaError_t SpTrsvLocalityKernelAttributes(int K, PetscBool unit, cudaFuncAttributes *attr)
{
  cudaError_t err  = cudaSuccess;
  cudaError_t lerr = SpTrsvWithLanes(K, [&](auto Kc) {
    if (unit) err = cudaFuncGetAttributes(attr, SpTrsvLocalityKernel<decltype(Kc)::value, true>);
    else err = cudaFuncGetAttributes(attr, SpTrsvLocalityKernel<decltype(Kc)::value, false>);
  });
  return err != cudaSuccess ? err : lerr;
}

#else /* complex or exotic scalars: the backend reports itself unavailable and never launches these */

static cudaError_t SpTrsvLocalityKernelAttributes(int K, PetscBool unit, cudaFuncAttributes *attr)
{
  return cudaErrorNotSupported;
}

static cudaError_t SpTrsvCUDALocalityLaunch(const SpTrsvCUDATriData *d, PetscBool sweep, SpTrsvCUDAVecPtrs v, const SpTrsvCUDAVecPtrs *vp, cudaStream_t st)
{
  return cudaErrorNotSupported;
}

static cudaError_t SpTrsvLocalitySetSmem(int K, PetscBool unit, size_t bytes)
{
  return cudaErrorNotSupported;
}
#endif

/* one launch per sub-graph level (SpTrsvCUDALaunchesFn) */
static PetscInt SpTrsvCUDALocalityLaunches(const SpTrsvCUDATriData *d, PetscBool sweep)
{
  return ((const SpTrsvCUDALocality *)d->path)->nlev;
}

static PetscErrorCode SpTrsvCUDALocalityDestroy(SpTrsvCUDATriData *d)
{
  SpTrsvCUDALocality *lc = (SpTrsvCUDALocality *)d->path;

  PetscFunctionBegin;
  if (!lc) PetscFunctionReturn(PETSC_SUCCESS);
  SpTrsvCUDACall(SpTrsvCUDAFree(lc->d_subptr));
  SpTrsvCUDACall(SpTrsvCUDAFree(lc->d_sslot));
  SpTrsvCUDACall(SpTrsvCUDAFree(lc->d_slotptr));
  SpTrsvCUDACall(SpTrsvCUDAFree(lc->d_split));
  SpTrsvCUDACall(SpTrsvCUDAFree(lc->d_slotlong));
  SpTrsvCUDACall(SpTrsvCUDAFree(lc->d_lptr));
  SpTrsvCUDACall(SpTrsvCUDAFree(lc->d_lpos));
  PetscCall(PetscFree4(lc->g0, lc->grid, lc->stage, lc->smem));
  PetscCall(PetscFree(d->path));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvCUDALocalitySetup - the triangle in the plan's order (SpTrsvCUDATriSetupBegin), then each row's entries put in
  the locality order (external first, internal columns as shared-memory offsets: the value map and the column indices
  replaced before the values are uploaded, so value refreshes, host or device, follow the same order), the schedule,
  the launch geometry per level, and the shared-memory check against the device's limit
*/
static PetscErrorCode SpTrsvCUDALocalitySetup(SpTrsvSolver s)
{
  const SpTrsvLocalitySchedule *ls = (const SpTrsvLocalitySchedule *)s->plan->data;
  SpTrsvCUDATriData            *d;
  SpTrsvCUDALocality           *lc;
  cudaStream_t                  st = NULL;
  int                           dev = 0, optin = 0;
  size_t                        need = 0;

  PetscFunctionBegin;
  PetscCheck(!s->rest, PETSC_COMM_SELF, PETSC_ERR_SUP, "sptrsv_locality has no Gauss-Seidel sweeps");
  if (ls->kernel == SPTRSV_LOCALITY_KERNEL_CHAIN) {
    PetscCall(SpTrsvCUDALocalityChainSetup(s));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (ls->kernel == SPTRSV_LOCALITY_KERNEL_BLOCKS) {
    PetscCall(SpTrsvCUDALocalityBlocksSetup(s));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  for (PetscInt l = 0; l < ls->nsublevels; l++) need = PetscMax(need, (size_t)ls->levsmem[l]);
  SpTrsvCUDACall(cudaGetDevice(&dev));
  SpTrsvCUDACall(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
  PetscCheck(need <= (size_t)optin, PETSC_COMM_SELF, PETSC_ERR_SUP, "sptrsv_locality: a launch (sub-graphs of up to %" PetscInt_FMT " rows) needs %zu bytes of shared memory, the device offers %d per block: set -%smat_sptrsv_subgraph_rows to at most %zu, or -%smat_sptrsv_locality_stage 0", ls->max_sub_rows, need, optin, s->opts.prefix, (size_t)optin / sizeof(PetscScalar), s->opts.prefix);
  PetscCall(SpTrsvCUDATriSetupBegin(s, SpTrsvCUDALocalityLaunch, SpTrsvCUDALocalityLaunches, &d));
  PetscCall(SpTrsvCUDAGetStream(&st));
  PetscCall(PetscNew(&lc));
  d->path         = lc;
  d->path_destroy = SpTrsvCUDALocalityDestroy;
  /* the entries in the locality order: same row pointers (plan order), new value map and column indices */
  for (PetscInt k = 0; k <= d->n; k++) PetscCheck(d->h_ptr[k] == ls->ptr[k], PETSC_COMM_SELF, PETSC_ERR_PLIB, "sptrsv_locality: row pointer %" PetscInt_FMT " is %d, the plan says %" PetscInt_FMT, k, d->h_ptr[k], ls->ptr[k]);
  for (PetscInt q = 0; q < d->nnz; q++) {
    d->vmap[q]  = ls->emap[q];
    d->h_idx[q] = (int)ls->col[q];
  }
  if (d->nnz) SpTrsvCUDACall(cudaMemcpyAsync(d->d_idx, d->h_idx, (size_t)d->nnz * sizeof(int), cudaMemcpyHostToDevice, st)); /* h_idx lives until SetupEnd, which waits */
  PetscCall(SpTrsvCUDAUploadIndices(ls->subptr, ls->nsub + 1, &lc->d_subptr, st));
  PetscCall(SpTrsvCUDAUploadIndices(ls->sslot, ls->nsub + 1, &lc->d_sslot, st));
  PetscCall(SpTrsvCUDAUploadIndices(ls->slotptr, ls->nslots + 1, &lc->d_slotptr, st));
  PetscCall(SpTrsvCUDAUploadIndices(ls->split, d->n, &lc->d_split, st));
  lc->a.subptr  = lc->d_subptr;
  lc->a.sslot   = lc->d_sslot;
  lc->a.slotptr = lc->d_slotptr;
  lc->a.split   = lc->d_split;
  lc->a.long_len = INT_MAX;
  if (ls->nlong) { /* the long rows (none: NULL arrays, and the kernel skips their passes) */
    PetscCall(SpTrsvCUDAUploadIndices(ls->slotlong, ls->nslots, &lc->d_slotlong, st));
    PetscCall(SpTrsvCUDAUploadIndices(ls->lptr, ls->nsub + 1, &lc->d_lptr, st));
    PetscCall(SpTrsvCUDAUploadIndices(ls->lpos, ls->nlong, &lc->d_lpos, st));
    lc->a.slotlong = lc->d_slotlong;
    lc->a.lptr     = lc->d_lptr;
    lc->a.lpos     = lc->d_lpos;
    lc->a.long_len = (int)ls->long_len;
  }
  lc->K         = ls->K;
  lc->block     = ls->block;
  lc->nlev      = ls->nsublevels;
  PetscCall(PetscMalloc4(lc->nlev + 1, &lc->g0, lc->nlev + 1, &lc->grid, lc->nlev + 1, &lc->stage, lc->nlev + 1, &lc->smem));
  for (PetscInt l = 0; l < lc->nlev; l++) { /* the analysis sized each launch's shared memory for its stage */
    lc->g0[l]    = (int)ls->levptr[l];
    lc->grid[l]  = (int)(ls->levptr[l + 1] - ls->levptr[l]);
    lc->stage[l] = (int)ls->levstage[l];
    lc->smem[l]  = (size_t)ls->levsmem[l];
  }
  if (need) SpTrsvCUDACall(SpTrsvLocalitySetSmem(lc->K, d->unit, need));
  { /* every launch must fit the kernel: a clear error here instead of an "invalid argument" at the first solve */
    cudaFuncAttributes attr;
    size_t             smax = 0;

    SpTrsvCUDACall(SpTrsvLocalityKernelAttributes(lc->K, d->unit, &attr));
    for (PetscInt l = 0; l < lc->nlev; l++) smax = PetscMax(smax, lc->smem[l]);
    PetscCheck(lc->block <= attr.maxThreadsPerBlock, PETSC_COMM_SELF, PETSC_ERR_LIB, "sptrsv_locality: blocks of %d threads, the kernel (%d lanes per row, %d registers) allows %d", lc->block, lc->K, attr.numRegs, attr.maxThreadsPerBlock);
    PetscCheck(smax <= (size_t)attr.maxDynamicSharedSizeBytes, PETSC_COMM_SELF, PETSC_ERR_LIB, "sptrsv_locality: a launch needs %zu bytes of dynamic shared memory, the kernel (%d lanes per row) allows %d (static %zu)", smax, lc->K, attr.maxDynamicSharedSizeBytes, (size_t)attr.sharedSizeBytes);
    for (PetscInt l = 0; l < lc->nlev; l++) PetscCheck(lc->grid[l] > 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "sptrsv_locality: sub-graph level %" PetscInt_FMT " has no sub-graph", l);
  }
  PetscCall(SpTrsvCUDATriSetupEnd(s));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* new values: the triangle's, then (chain kernel) its window or (blocks kernel) its inverted blocks */
static PetscErrorCode SpTrsvCUDALocalityUpdateValues(SpTrsvSolver s)
{
  PetscFunctionBegin;
  PetscCall(SpTrsvCUDATriUpdateValues(s));
  if (((const SpTrsvLocalitySchedule *)s->plan->data)->kernel == SPTRSV_LOCALITY_KERNEL_CHAIN) PetscCall(SpTrsvCUDALocalityChainPack(s));
  if (((const SpTrsvLocalitySchedule *)s->plan->data)->kernel == SPTRSV_LOCALITY_KERNEL_BLOCKS) PetscCall(SpTrsvCUDALocalityBlocksNumeric(s));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SpTrsvCUDALocalityUpdateValuesDevice(SpTrsvSolver s, const PetscScalar *a, const PetscScalar *d, const PetscScalar *r)
{
  PetscFunctionBegin;
  PetscCall(SpTrsvCUDATriUpdateValuesDevice(s, a, d, r));
  if (((const SpTrsvLocalitySchedule *)s->plan->data)->kernel == SPTRSV_LOCALITY_KERNEL_CHAIN) PetscCall(SpTrsvCUDALocalityChainPack(s));
  if (((const SpTrsvLocalitySchedule *)s->plan->data)->kernel == SPTRSV_LOCALITY_KERNEL_BLOCKS) PetscCall(SpTrsvCUDALocalityBlocksNumeric(s));
  PetscFunctionReturn(PETSC_SUCCESS);
}

const SpTrsvExecutor SpTrsvExecCUDA_locality = {SpTrsvCUDALocalitySetup, SpTrsvCUDALocalityUpdateValues, SpTrsvCUDATriSolve, NULL, SpTrsvCUDATriDestroy, SpTrsvCUDALocalityUpdateValuesDevice};
