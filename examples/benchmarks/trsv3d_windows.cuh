/*
   trsv3d_windows.cuh: the microbenchmark's kernels that stand for the production runs dispatch (issue 33, twenty-first
   session), included by trsv3d_breakdown.cu after its own kernels (ChunkRow, LoadChunkRow, SubtractGlobal, WarpScanAffine,
   SENTINEL):
   KWinProd, one 32-row window per warp with the production kernel's block and publication choices as switches, and
   KRunProd / KRunProdFull, replicas of the production kernel itself, to find by ablation what makes it slower than the
   microbenchmark's windows.
*/
#pragma once
/* one 32-row window per warp as the production runs kernel has it (issue 33, twenty-first session: what makes the
   production kernel slower than win1x1?), WPB warps per block, each its own window (a block's ticket holds WPB
   consecutive windows of tiles[]); PUB 0: the value published by one volatile store (win1x1), 1: as production, the
   sentinel into the other half's word (xo), a relaxed atomic store at device scope, then the user's x (xu); REL: the
   words loaded with relaxed atomic loads at device scope (cuda::atomic_ref) instead of volatile loads */
template <int WPB, int PUB, bool REL>
__device__ __forceinline__ void WinProd(int N, const int *ri, const int *rj, const double *a, const double *b, double *x, double *xo, double *xu, const int4 *tiles, int t)
{
  const int      lane = threadIdx.x & 31;
  const int4     tl = tiles[t];
  const int      xl = 32 * tl.z + lane, i = N * (tl.x + N * tl.y) + xl;
  const bool     in = xl < N;
  const ChunkRow r  = LoadChunkRow<false>(N, ri, rj, a, b, i, in, 0, 0, in ? ri[i] : 0, in ? ri[i + 1] : 0, tl.z > 0 && lane == 0);
  double         c  = r.c, m = r.m;
  SubtractGlobal<REL>(x, r, lane, &c); /* poll rounds */
  WarpScanAffine(lane, &c, &m);
  if (!in) return;
  if (PUB == 0) *(volatile double *)(x + i) = c;
  else {
    ((unsigned long long *)xo)[i] = SENTINEL;
    cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>(*(unsigned long long *)(x + i)).store((unsigned long long)__double_as_longlong(c), cuda::memory_order_relaxed);
    xu[i] = c;
  }
}

/* CLOSE: the production kernel's ticket loop before the twenty-first session (a 64-bit ticket, its slot by a 64-bit
   modulo, and a closing ticket taken by every block after its window); else one 32-bit ticket per block */
template <int WPB, int PUB, bool REL, bool CLOSE>
__global__ void __launch_bounds__(WPB * 32) KWinProd(int N, const int *ri, const int *rj, const double *a, const double *b, double *x, double *xo, double *xu, const int4 *tiles, int ntiles, unsigned int *ticket)
{
  const int nslots = (ntiles + WPB - 1) / WPB;
  if (CLOSE) {
    __shared__ unsigned long long tk;
    const unsigned long long      per = (unsigned long long)nslots + gridDim.x;
    for (;;) {
      if (threadIdx.x == 0) tk = atomicAdd((unsigned long long *)ticket, 1ULL);
      __syncthreads();
      const unsigned long long slot = tk % per;
      __syncthreads();
      if (slot >= (unsigned long long)nslots) break;
      const int t = (int)slot * WPB + (int)(threadIdx.x >> 5);
      if (t < ntiles) WinProd<WPB, PUB, REL>(N, ri, rj, a, b, x, xo, xu, tiles, t);
    }
  } else {
    __shared__ int tk;
    if (threadIdx.x == 0) tk = (int)atomicAdd(ticket, 1u);
    __syncthreads();
    const int t = tk * WPB + (int)(threadIdx.x >> 5);
    if (t < ntiles) WinProd<WPB, PUB, REL>(N, ri, rj, a, b, x, xo, xu, tiles, t);
  }
}

/* a replica of the production runs kernel (src/cuda/paths/syncfree/syncfree.cu, SpTrsvSyncFreeRun with R = 1 and a unit
   diagonal, one window per block and one ticket per block, at commit 98921ea + the twenty-first session's ticket change):
   the windows' rows at dispatch positions wstart[w] .. + wlanes[w], the CSR (ptr, idx, val) in position order with the
   columns as positions (RELABEL; else rows, the positions being the rows themselves), b and the user's x through
   order[], the words xs (cur, other: two halves), entries in batches of BATCH with one lane polling, the scan of
   (C, M, K) maps, and the publication of three stores. What differs from KWinProd is what the ablations look for. */
struct RunArgs {
  const int *wstart, *wlanes, *ptr, *idx, *order;
  const double *val, *b;
  double *xu;
  unsigned long long *cur, *other;
  int nw;
};

/* window w of the production runs kernel (SpTrsvSyncFreeRun, R = 1, unit diagonal): the triangle's rows at positions
   wstart[w] .. + wlanes[w] (ptr, idx, val by position, columns as positions; order: position -> row), b and xu by row,
   the words cur (this solve's half) and oth (the other). BATCH entries loaded at once; SCAN3: the scan carries the
   chain-restart flag K as production does (else the pair (C, M) only: the same result on grid lines); PUB3: the
   sentinel into oth at publication; BR: the run-time branches on poll_all (every lane polls) and spin_ns (sleep between
   polls) as production has them (else one lane polls, no sleep, no branch); QN: the publication's check for the
   sentinel's bits */
template <int BATCH, bool SCAN3, bool PUB3, bool BR, bool QN>
__device__ __forceinline__ void RunWindow(const int *wstart, const int *wlanes, const int *ptr, const int *idx, const int *order, const double *val, const double *b, double *xu, unsigned long long *cur, unsigned long long *oth, int w, int poll_all, unsigned int spin_ns)
{
  const int    lane = threadIdx.x & 31, k0 = __ldg(wstart + w), k1 = k0 + __ldg(wlanes + w);
  const int    per = (k1 - k0 + 31) >> 5, kb = k0 + lane * per, ke = min(kb + per, k1);
  const int    P0 = kb < ke ? __ldg(ptr + kb) : 0, P1 = kb < ke ? __ldg(ptr + ke) : 0;
  const bool   act = kb < ke;
  const int    row = act ? __ldg(order + kb) : 0;
  double       s = act ? b[row] : 0.0, ch = 0.0;
  unsigned int chained = 0;
  int          nb = (P1 - P0 + BATCH - 1) / BATCH;
  for (int d = 16; d > 0; d >>= 1) nb = max(nb, __shfl_xor_sync(0xffffffffu, nb, d));
  for (int bb = 0; bb < nb; bb++) {
    const long long    p0 = (long long)P0 + (long long)bb * BATCH;
    int                j[BATCH];
    double             a[BATCH];
    unsigned long long u[BATCH];
#pragma unroll
    for (int e = 0; e < BATCH; e++) {
      const bool in = p0 + e < (long long)P1;
      j[e]          = in ? __ldg(idx + p0 + e) : INT_MAX;
      a[e]          = in ? __ldg(val + p0 + e) : 0.0;
    }
#pragma unroll
    for (int e = 0; e < BATCH; e++) u[e] = j[e] < k0 ? cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>(cur[j[e]]).load(cuda::memory_order_relaxed) : 0;
    for (;;) { /* poll rounds */
      int jmax = -1;
#pragma unroll
      for (int e = 0; e < BATCH; e++)
        if (j[e] < k0 && u[e] == SENTINEL) jmax = max(jmax, j[e]);
      if (BR && poll_all) {
        if (!__any_sync(0xffffffffu, jmax >= 0)) break;
      } else {
        for (int d = 16; d > 0; d >>= 1) jmax = max(jmax, __shfl_xor_sync(0xffffffffu, jmax, d));
        if (jmax < 0) break;
        if (lane == 0)
          while (cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>(cur[jmax]).load(cuda::memory_order_relaxed) == SENTINEL)
            if (BR && spin_ns) __nanosleep(spin_ns);
        __syncwarp();
      }
#pragma unroll
      for (int e = 0; e < BATCH; e++)
        if (j[e] < k0 && u[e] == SENTINEL) u[e] = cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>(cur[j[e]]).load(cuda::memory_order_relaxed);
    }
#pragma unroll
    for (int e = 0; e < BATCH; e++)
      if (j[e] != INT_MAX) {
        if (j[e] < k0) s -= a[e] * __longlong_as_double((long long)u[e]);
        else {
          ch      = a[e];
          chained = 1;
        }
      }
  }
  double       C = 0, M = 1;
  int          K = 0;
  const double m = -ch;
  if (act) { /* SpTrsvSyncFreeRunAppend */
    C = chained ? s + m * C : s;
    M = chained ? m * M : 0.0;
    K = K || !chained;
  }
  for (int d = 1; d < 32; d <<= 1) {
    const double Cp = __shfl_up_sync(0xffffffffu, C, d), Mp = __shfl_up_sync(0xffffffffu, M, d);
    if (SCAN3) {
      const int Kp = __shfl_up_sync(0xffffffffu, K, d);
      if (lane >= d && !K) {
        C = C + M * Cp;
        M = M * Mp;
        K = Kp;
      }
    } else if (lane >= d) {
      C = C + M * Cp;
      M = M * Mp;
    }
  }
  double xp = __shfl_up_sync(0xffffffffu, C, 1);
  if (lane == 0) xp = 0;
  if (act) {
    xp                          = chained ? s + m * xp : s;
    const unsigned long long wv = (unsigned long long)__double_as_longlong(xp);
    if (PUB3) oth[kb] = SENTINEL;
    cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>(cur[kb]).store(QN && wv == SENTINEL ? 0x7FF8000000000000ull : wv, cuda::memory_order_relaxed);
    xu[row] = xp; /* PUB3 false: the user's x still, no sentinel into the other half */
  }
}

template <int BATCH, bool SCAN3, bool PUB3>
__global__ void __launch_bounds__(32) KRunProd(RunArgs f, unsigned int *ticket, unsigned int base)
{
  __shared__ int tk;
  if (threadIdx.x == 0) tk = (int)(atomicAdd(ticket, 1u) - base);
  __syncthreads();
  if (tk < f.nw) RunWindow<BATCH, SCAN3, PUB3, false, false>(f.wstart, f.wlanes, f.ptr, f.idx, f.order, f.val, f.b, f.xu, f.cur, f.other, tk, 0, 0u);
}

/* KRunProdFull: KRunProd with the production kernel's launch as well: its structs passed by value (the triangle, the
   sync-free state, the vectors, and a device copy of the vectors read when vp is set, which puts v in local memory),
   __launch_bounds__(128), the 32-bit ticket wrapping at 2 nw (atomicInc) whose half selects the words' half of xs (2 n
   words, one allocation), and the unit-diagonal finalization. Ablations: LB the launch bounds (128 as production, 32),
   INC the wrapping ticket (false: atomicAdd less a base, as KRunProd), BR the run-time branches on -mat_sptrsv_run_poll
   and -mat_sptrsv_spin_ns (false: none), QN the publication's check for the sentinel's bits (false: none) */
struct ProdTri {
  const int    *ptr, *idx, *order;
  const double *val;
};
struct ProdSF {
  const int          *wstart, *wlanes;
  unsigned long long *xs;
  unsigned int       *ticket;
  int                 nwarps;
  unsigned int        spin_ns;
  int                 poll_all;
};
struct ProdVec {
  const double *b;
  double       *x;
};

template <int LB, bool INC, bool BR, bool QN>
__global__ void __launch_bounds__(LB) KRunProdFull(const ProdTri t, const ProdSF f, int n, ProdVec v, const ProdVec *vp, unsigned int base)
{
  __shared__ unsigned int ticket;
  const unsigned int      per = (unsigned int)f.nwarps;
  if (vp) v = *vp;
  if (threadIdx.x == 0) ticket = INC ? atomicInc(f.ticket, 2u * per - 1u) : atomicAdd(f.ticket, 1u) - base;
  __syncthreads();
  const unsigned int tk = INC ? ticket : ticket + (base / per % 2u) * per, half = tk >= per ? 1u : 0u, w = tk - half * per;
  if ((int)w >= f.nwarps) return;
  RunWindow<4, true, true, BR, QN>(f.wstart, f.wlanes, t.ptr, t.idx, t.order, t.val, v.b, v.x, f.xs + (size_t)half * (size_t)n, f.xs + (size_t)(1u - half) * (size_t)n, (int)w, f.poll_all, f.spin_ns);
}

/* LINES grid lines per warp (issue 33, twenty-seventh session: fewer hops through memory on the critical path): a warp
   holds LINES neighbouring lines y = LINES ty + g (g = lane / SEG, SEG = 32 / LINES) of one z, SEG rows of each (chunk c:
   x = SEG c + lane % SEG). A row's y - 1 neighbour in group g > 0 is in the warp (group g - 1, same lane % SEG): its x
   comes by a shuffle, not through memory; group 0's y - 1 and every z - 1 neighbour, and a group's chain from the chunk
   before, are polled as in wp1. The groups are solved one after the other: scan p (p = 0 .. LINES - 1, affine maps along
   SEG lanes, a group's first lane a constant map) makes group p's x final; group p publishes it at once; group p + 1
   then takes its y - 1 neighbour's x from group p by a shuffle and scans again. Tiles (ty, tz, c) by ticket in
   wavefront order (ty + tz + c): the critical path is N / LINES + N + N / SEG tile steps instead of wp1's 2 N + N / 32
   (128^3: 200 for pairs, 176 for LINES = 4, against 259), each step LINES scans of log2(SEG) shuffle rounds.
   Deadlock-freedom: a tile waits only for tiles of smaller ty + tz + c (the tile of ty - 1, of tz - 1 and of c - 1),
   which took their tickets earlier and are resident; the shuffles involve the warp's own lanes. Publication as wp1 (one
   volatile store: PUB 0). */
template <int LINES>
__global__ void __launch_bounds__(32) KWinLines(int N, const int *ri, const int *rj, const double *a, const double *b, double *x, const int4 *tiles, int ntiles, unsigned int *ticket)
{
  constexpr int SEG = 32 / LINES;
  __shared__ int tk;
  if (threadIdx.x == 0) tk = (int)atomicAdd(ticket, 1u);
  __syncthreads();
  if (tk >= ntiles) return;
  const int      lane = threadIdx.x & 31, g = lane / SEG, l = lane % SEG;
  const int4     tl = tiles[tk];
  const int      y = LINES * tl.x + g, xl = SEG * tl.z + l, i = xl + N * (y + N * tl.y);
  const bool     in = xl < N && y < N;
  const ChunkRow r  = LoadChunkRow<true>(N, ri, rj, a, b, i, in, g > 0 ? 1 : 0, 0, in ? ri[i] : 0, in ? ri[i + 1] : 0, tl.z > 0 && l == 0);
  double         c  = r.c;
  SubtractGlobal<false>(x, r, lane, &c); /* poll rounds: group 0's y - 1, every z - 1, the chain from the chunk before */
  for (int p = 0; p < LINES; p++) {
    double cs = c, ms = r.m;
    WarpScanAffine<SEG>(lane, &cs, &ms); /* group p's x final (the groups before it too) */
    if (g == p && in) *(volatile double *)(x + i) = cs;
    if (p + 1 < LINES) {
      const double xn = __shfl_up_sync(0xffffffffu, cs, SEG); /* group g - 1's x at the same l */
      if (g == p + 1) c -= r.ay * xn;
    }
  }
}
