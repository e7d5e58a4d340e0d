/*
   window_hop: what one window step of the sync-free runs dispatch costs, and which of its parts (issue 33, item 1).

   On a 3-D 7-point factor the runs dispatch takes about 1.2 us per window step on the H200 (lap3d7_128: L in ~0.32 ms
   over 2N - 2 + N/32 = 258 steps), where one dependency handed from row to row through memory costs 0.21-0.24 us
   (trsv3d_breakdown.cu's chain). This program times the window step alone, on P independent chains of W windows of 32
   rows (row l of window w depends on row l of window w - 1, the "line before", and on row l - 1 of its own window, the
   chain a warp scan resolves), the windows handed out by a ticket in wavefront order (w major, chain minor: P windows
   wait at once, as a wavefront of the 3-D grid's lines does). Standalone (CUDA only, no PETSc, no plugin code); the
   protocol of each variant is the production kernel's (src/cuda/paths/syncfree/syncfree.cu, SpTrsvSyncFreeRun, one row
   per lane) with one part changed:

     row        lane 0 alone, one row per window (its chain through memory): the handoff of one word, the floor
     window     the production protocol: every lane loads its dependency word at once; while any is still the sentinel,
                lane 0 polls the latest of them (the warp's largest position) and the warp waits at __syncwarp, then every
                lane still missing its word loads it again (a poll round); then the scan of the 32 affine maps
                x_l = c_l + m_l x_(l-1) (5 shuffle rounds of 3 values), and every lane publishes its word
     allpoll    no lane polls alone: every round, every lane still missing its word loads it again (more loads in flight,
                one round trip less after the word arrives)
     noscan     window without the in-window chain (m = 0): no scan; the difference to window is the scan's cost
     window2    window with a second dependency per row, row l of the same window of the chain before (p - 1):
                two words per lane from two windows, as a 3-D line waits for the lines y - 1 and z - 1; the windows form
                a 2-D grid (w, p) whose critical path is W + P - 1 windows, handed out by anti-diagonals (w + p
                ascending, as the runs dispatch hands out a 3-D grid's lines by levels). The run of 2026-11-30 handed
                them out w major: a row's P windows then wait in a chain and only the rows resident at once overlap,
                35-2800 us per step at P = 512 and 4096, a measure of that order, not of the step
     block4     a block of 4 warps takes 4 consecutive windows of a chain (a ticket per block): warp 0 waits for the window
     block8     before through memory as window does, warps 1-3 read their dependency from shared memory, one warp after
                the other, a __syncthreads() between them (block8: 8 warps). (block4 step x 4 - window step) / 3 is the
                cost of a dependency handed inside a block: the step a tile of lines in one block would pay where it
                keeps a dependency out of memory
     stack4     window2's grid solved by blocks of 4 (stack8: 8) warps taking 4 consecutive windows of a chain (the
     stack8     groups handed out by anti-diagonals of the grid of groups), each warp also waiting for its own window of
                the chain before (p - 1) through memory, loaded when the
                block starts: the design of a stack of grid lines in one block against the production step on the same
                2-D grid of windows (time against window2's: the answer)

   Each variant is checked against a host recurrence (relative error, the scan rounding differently from substitution)
   and timed with CUDA events, the least of R solves (the words reset to the sentinel and the ticket to 0 between
   solves, untimed); us_per_step is the time over W windows, over W + P - 1 for the 2-D grid (window2, stack4/8: its
   critical path). Deadlock freedom: a warp takes a ticket only when it runs and keeps it until its window is done; the
   window of ticket t waits only for windows of earlier tickets (t - P; on the 2-D grid the previous anti-diagonal),
   taken by running warps (induction on t).

   Build and run (the GPU machine):
     nvcc -O3 -std=c++17 -arch=sm_90 -o window_hop examples/benchmarks/window_hop.cu
     ./window_hop [R [B]]  (R solves per variant, default 10; B resident blocks per SM, default the most that fit:
                           fewer leave fewer windows polling at once; CSV lines: variant,P,W,blocks_per_sm,ms,
                           us_per_step,rel_err; -h: the header)
*/
#include <cuda_runtime.h>
#include <cuda/atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cmath>
#include <vector>
#include <algorithm>

#include "standalone_check.h" /* CK: CUDA calls checked */

typedef unsigned long long Word;
static const Word SENTINEL = ~0ull;
enum Variant { ROW, WINDOW, ALLPOLL, NOSCAN, WINDOW2, BLOCK4, BLOCK8, STACK4, STACK8, NVARIANTS };
static const char *names[NVARIANTS] = {"row", "window", "allpoll", "noscan", "window2", "block4", "block8", "stack4", "stack8"};

__device__ __forceinline__ Word Load(Word *w) { return cuda::atomic_ref<Word, cuda::thread_scope_device>(*w).load(cuda::memory_order_relaxed); }
__device__ __forceinline__ void Store(Word *w, double v) { cuda::atomic_ref<Word, cuda::thread_scope_device>(*w).store((Word)__double_as_longlong(v), cuda::memory_order_relaxed); }
__device__ __forceinline__ double Val(Word u) { return __longlong_as_double((long long)u); }

/* the production kernel's poll rounds over a lane's (up to) two dependency words: while any lane still misses one, lane
   0 polls the latest missing position (the warp's largest), the warp waits at __syncwarp, and the missing words are
   loaded again, all at once */
__device__ __forceinline__ void PollRounds(Word *xs, bool dep, int d, Word &u, bool dep2, int d2, Word &u2)
{
  for (;;) {
    const int jmax = __reduce_max_sync(0xffffffffu, max(dep && u == SENTINEL ? d : -1, dep2 && u2 == SENTINEL ? d2 : -1));
    if (jmax < 0) break;
    if ((threadIdx.x & 31) == 0)
      while (Load(xs + jmax) == SENTINEL) {}
    __syncwarp();
    if (dep && u == SENTINEL) u = Load(xs + d);
    if (dep2 && u2 == SENTINEL) u2 = Load(xs + d2);
  }
}

/* the window's chain x_l = c_l + m_l x_(l-1) by an inclusive warp scan of the affine maps: lane l gets x_l (lane 0's map
   is constant, m = 0) */
__device__ __forceinline__ double ScanMaps(double c, double m)
{
  const int lane = threadIdx.x & 31;
  for (int s = 1; s < 32; s <<= 1) {
    const double cp = __shfl_up_sync(0xffffffffu, c, s), mp = __shfl_up_sync(0xffffffffu, m, s);
    if (lane >= s) {
      c = c + m * cp;
      m = m * mp;
    }
  }
  return c;
}

template <int V>
__global__ void KHop(int P, int W, const double *b, const double *a1, const double *a2, Word *xs, unsigned int *ticket, const int *order)
{
  const int lane = threadIdx.x & 31;
  for (;;) {
    int t = 0;
    if (lane == 0) t = (int)atomicAdd(ticket, 1u);
    t = __shfl_sync(0xffffffffu, t, 0);
    if (t >= P * W) return;
    const int  cell = V == WINDOW2 ? order[t] : t; /* window2: the grid's anti-diagonals in turn */
    const int  w = cell / P, r = cell * 32 + lane, d = r - 32 * P; /* d: the same lane of the window before in its chain */
    const bool dep = w > 0;
    if (V == ROW) {
      if (lane == 0) {
        double v = b[r];
        if (dep) {
          Word u;
          while ((u = Load(xs + d)) == SENTINEL) {}
          v -= a1[r] * Val(u);
        }
        Store(xs + r, v);
      }
      continue;
    }
    const double bi = b[r], m1 = a1[r], m2 = V == NOSCAN ? 0.0 : a2[r]; /* loaded before waiting */
    const bool   dep2 = V == WINDOW2 && cell % P > 0; /* the same window of the chain before */
    const int    d2   = r - 32;
    Word         u = dep ? Load(xs + d) : 0, u2 = dep2 ? Load(xs + d2) : 0;
    if (V == ALLPOLL) {
      while (__any_sync(0xffffffffu, dep && u == SENTINEL))
        if (dep && u == SENTINEL) u = Load(xs + d);
    } else PollRounds(xs, dep, d, u, dep2, d2, u2);
    double c = bi - (dep ? m1 * Val(u) : 0.0) - (dep2 ? 0.1 * Val(u2) : 0.0), m = lane > 0 ? -m2 : 0.0; /* x_l = c + m x_(l-1) */
    if (V != NOSCAN) c = ScanMaps(c, m);
    Store(xs + r, c);
  }
}

/* G warps take G consecutive windows of one chain (group g of chain p: windows g G .. g G + G - 1, tickets g major);
   warp s solves window g G + s at step s; its dependency is warp s - 1's result in shared memory (s > 0) or the window
   before in memory (s = 0, the last window of group g - 1: ticket t - P). Z: every warp also depends on its window of
   the chain before (group ticket t - 1), in memory: its word loaded when the block starts, polled at its step if still
   missing */
template <int G, bool Z>
__global__ void KHopBlock(int P, int W, const double *b, const double *a1, const double *a2, Word *xs, unsigned int *ticket, const int *order)
{
  __shared__ int    tk;
  __shared__ double prev[32];
  const int         lane = threadIdx.x & 31, wib = threadIdx.x >> 5;
  for (;;) {
    if (threadIdx.x == 0) tk = (int)atomicAdd(ticket, 1u);
    __syncthreads();
    const int t = tk;
    __syncthreads(); /* every thread has read tk before thread 0 takes the next ticket */
    if (t >= P * (W / G)) return;
    const int    cell = Z ? order[t] : t; /* Z: the grid of groups' anti-diagonals in turn */
    const int    g = cell / P, p = cell % P, w = g * G + wib, r = (w * P + p) * 32 + lane;
    const double bi = b[r], m1 = a1[r], m2 = a2[r];
    const bool   zdep = Z && p > 0, cdep = wib == 0 && w > 0;
    Word         uz = zdep ? Load(xs + r - 32) : 0, uc = cdep ? Load(xs + r - 32 * P) : 0; /* in flight before the steps */
    for (int st = 0; st < G; st++) {
      if (wib == st) {
        double xp = 0.0;
        PollRounds(xs, cdep, r - 32 * P, uc, zdep, r - 32, uz);
        if (st > 0) xp = prev[lane];
        else if (cdep) xp = Val(uc);
        const double c = ScanMaps(bi - (w > 0 ? m1 * xp : 0.0) - (zdep ? 0.1 * Val(uz) : 0.0), lane > 0 ? -m2 : 0.0);
        prev[lane] = c; /* each lane its own slot, read by the next warp after the barrier */
        Store(xs + r, c);
      }
      __syncthreads();
    }
  }
}

static void Reference(int V, int P, int W, const std::vector<double> &b, const std::vector<double> &a1, const std::vector<double> &a2, std::vector<double> &x)
{
  for (int w = 0; w < W; w++)
    for (int p = 0; p < P; p++)
      for (int l = 0; l < 32; l++) {
        const size_t r = ((size_t)w * P + p) * 32 + l;
        if (V == ROW && l > 0) continue;
        double v = b[r];
        if (w > 0) v -= a1[r] * x[r - 32 * (size_t)P];
        if ((V == WINDOW2 || V == STACK4 || V == STACK8) && p > 0) v -= 0.1 * x[r - 32];
        if (V != ROW && V != NOSCAN && l > 0) v -= a2[r] * x[r - 1];
        x[r] = v;
      }
}

typedef void (*KernelFn)(int, int, const double *, const double *, const double *, Word *, unsigned int *, const int *);

/* the cells (a P + p) of an A x P grid whose cell depends on (a - 1, p) and (a, p - 1), in anti-diagonal order
   (a + p ascending): every cell's dependencies come on the diagonal before it, so the windows that wait at once are
   those of one wavefront and a resident warp never waits for a cell whose ticket is not yet taken */
static std::vector<int> Diagonals(int A, int P)
{
  std::vector<int> o;
  o.reserve((size_t)A * P);
  for (int dg = 0; dg <= A + P - 2; dg++)
    for (int a = std::max(0, dg - P + 1); a <= std::min(dg, A - 1); a++) o.push_back(a * P + (dg - a));
  return o;
}
static const KernelFn kernels[NVARIANTS] = {KHop<ROW>, KHop<WINDOW>, KHop<ALLPOLL>, KHop<NOSCAN>, KHop<WINDOW2>, KHopBlock<4, false>, KHopBlock<8, false>, KHopBlock<4, true>, KHopBlock<8, true>};
static const int      warps[NVARIANTS]   = {4, 4, 4, 4, 4, 4, 8, 4, 8}; /* warps per block */

int main(int argc, char **argv)
{
  if (argc > 1 && !strcmp(argv[1], "-h")) {
    printf("# 2-D grid (window2, stack4, stack8) handed out by anti-diagonals, its us_per_step over W + P - 1\n");
    printf("variant,P,W,blocks_per_sm,ms,us_per_step,rel_err\n");
    return 0;
  }
  const int      reps = argc > 1 ? atoi(argv[1]) : 10;
  const int      Ps[] = {1, 64, 512, 4096};
  cudaDeviceProp prop;
  int            dev = 0, want = argc > 2 ? atoi(argv[2]) : 0, grid[NVARIANTS], bps[NVARIANTS];
  CK(cudaGetDevice(&dev));
  CK(cudaGetDeviceProperties(&prop, dev));
  for (int V = 0; V < NVARIANTS; V++) { /* resident blocks, each warp (block) taking tickets */
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&bps[V], kernels[V], 32 * warps[V], 0));
    if (want > 0) bps[V] = std::min(bps[V], want);
    bps[V]  = std::max(bps[V], 1);
    grid[V] = prop.multiProcessorCount * bps[V];
  }
  for (int P : Ps) {
    const int    W = std::max(64, std::min(512, 262144 / P));
    const size_t n = (size_t)P * W * 32;
    std::vector<double> b(n), a1(n), a2(n), x(n), ref(n);
    unsigned long long  s = 12345;
    auto                U = [&s]() { s = s * 6364136223846793005ull + 1442695040888963407ull; return (double)(s >> 11) / 9007199254740992.0; };
    for (size_t i = 0; i < n; i++) {
      b[i]  = 2 * U() - 1;
      a1[i] = 0.1 + 0.3 * U();
      a2[i] = 0.1 + 0.3 * U();
    }
    double *d_b, *d_a1, *d_a2;
    Word   *d_x;
    unsigned int *d_t;
    int          *d_o;
    CK(cudaMalloc(&d_b, n * sizeof(double)));
    CK(cudaMalloc(&d_a1, n * sizeof(double)));
    CK(cudaMalloc(&d_a2, n * sizeof(double)));
    CK(cudaMalloc(&d_x, n * sizeof(Word)));
    CK(cudaMalloc(&d_t, sizeof(unsigned int)));
    CK(cudaMalloc(&d_o, n / 32 * sizeof(int)));
    CK(cudaMemcpy(d_b, b.data(), n * sizeof(double), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_a1, a1.data(), n * sizeof(double), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_a2, a2.data(), n * sizeof(double), cudaMemcpyHostToDevice));
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    for (int V = 0; V < NVARIANTS; V++) {
      const bool two = V == WINDOW2 || V == STACK4 || V == STACK8; /* the 2-D grid of windows */
      float      best = 1e30f;
      if (two) {
        const std::vector<int> o = Diagonals(V == WINDOW2 ? W : W / (V == STACK4 ? 4 : 8), P);
        CK(cudaMemcpy(d_o, o.data(), o.size() * sizeof(int), cudaMemcpyHostToDevice));
      }
      for (int k = 0; k <= reps; k++) { /* k = 0: the warm-up */
        float ms;
        CK(cudaMemset(d_x, 0xFF, n * sizeof(Word)));
        CK(cudaMemset(d_t, 0, sizeof(unsigned int)));
        CK(cudaEventRecord(e0));
        kernels[V]<<<grid[V], 32 * warps[V]>>>(P, W, d_b, d_a1, d_a2, d_x, d_t, d_o);
        CK(cudaEventRecord(e1));
        CK(cudaEventSynchronize(e1));
        CK(cudaGetLastError());
        CK(cudaEventElapsedTime(&ms, e0, e1));
        if (k > 0) best = std::min(best, ms);
      }
      CK(cudaMemcpy(x.data(), d_x, n * sizeof(Word), cudaMemcpyDeviceToHost));
      Reference(V, P, W, b, a1, a2, ref);
      double err = 0, nrm = 0;
      for (size_t i = 0; i < n; i++) {
        if (V == ROW && i % 32) continue;
        err = std::max(err, std::fabs(x[i] - ref[i]));
        nrm = std::max(nrm, std::fabs(ref[i]));
      }
      printf("%s,%d,%d,%d,%.6g,%.4g,%.3g\n", names[V], P, W, bps[V], best, 1000.0 * best / (two ? W + P - 1 : W), err / std::max(nrm, 1e-300));
      fflush(stdout);
    }
    CK(cudaEventDestroy(e0));
    CK(cudaEventDestroy(e1));
    CK(cudaFree(d_b));
    CK(cudaFree(d_a1));
    CK(cudaFree(d_a2));
    CK(cudaFree(d_x));
    CK(cudaFree(d_t));
    CK(cudaFree(d_o));
  }
  return 0;
}
