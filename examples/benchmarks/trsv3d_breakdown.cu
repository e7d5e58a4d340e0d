/*
   trsv3d_breakdown: where does the time of a sync-free lower solve go on a 3-D 7-point factor (issue 33, item 1)?

   Standalone (CUDA and cuSPARSE only, no PETSc, no plugin code): the unit lower triangle L of a 7-point stencil on an
   N^3 grid in natural order (row i = x + N y + N^2 z depends on i - 1, i - N, i - N^2 where those exist; values in
   [-0.2, -0.1], so the solution stays bounded), one right-hand side, fp64, and these kernels on it, each timed with CUDA
   events over R solves after a warm-up, each checked against a host substitution:

     cusparse     cusparseSpSV (analysis untimed, after a warm-up SpSV on a throwaway triangle): the reference of every ratio
     stream       every row reads its entries and x's values with no waiting (x := b - L b): the memory traffic of the
                  solve's access pattern alone, one launch
     syncfree     one thread per row, rows handed out by a ticket (32 per warp, in order), each lane polls the solution
                  words it needs until they are no longer the sentinel (the value is the flag): the simplest sync-free solve
     syncfree-lev the same with the tickets in level (wavefront, x + y + z) order instead of row order
     polls        syncfree with every poll counted (polls per row: the polling traffic)
     chain        the same kernel on a chain (row i depends on i - 1 only) as long as L's critical path (3N - 2 levels):
                  time / levels = the cost of handing one dependency from one row to the next through memory
     linescan     one warp per grid line (the N rows of one (y, z)): the lanes wait for the line's dependencies on the two
                  earlier lines (y - 1, z - 1) in parallel, then solve the line's own recurrence x_i = c_i + a_i x_{i-1} by a
                  warp scan of affine maps, 32 rows per step; lines are handed out by ticket in line order. Its critical
                  path is 2N - 1 line steps instead of 3N - 2 row levels, and no dependency inside a line goes through
                  memory. (A scan rounds differently from substitution: checked to 1e-12 relative, not bitwise.)
     tileAxB      (issue 33, twentieth session) a block of A x B warps holds the lines of A consecutive y and B consecutive
                  z (a tile), one warp per line solved 32 rows at a time as linescan, tiles by ticket in wavefront order
                  (ty + tz); a line's y - 1 or z - 1 neighbour inside the tile is read from the block's shared copy of
                  that line, once the neighbour warp's progress counter says the chunk is there; only the tile's first
                  lines wait through memory. Global words are polled in rounds (one lane spins on the latest word, the
                  warp at the barrier: the production runs kernel's way). Suffixes: none, the counter read with an
                  acquire load and written with a release store at block scope (cuda::atomic_ref on a generic address);
                  v, volatile reads by the whole warp and __threadfence_block; p, the next chunk's rows loaded before
                  this chunk's waits. tile1x1 is linescan in wavefront order with poll rounds.
     winAxB       the same boxes of A x B lines, but one block per 32-row window of them (one x range): the windows of
                  a line are different blocks, its chain from the window before read through memory (the production
                  runs dispatch's windows, grouped); win1x1 is one window per block.
     wp*          (issue 33, twenty-first session; trsv3d_windows.cuh) one 32-row window per warp, windows by ticket in
                  the production order or the one above, with the production kernel's choices as switches: WPB windows per
                  block (wp1, wp4), fewer blocks per SM (s28, s14: dynamic shared memory), the production's publication
                  (pub: the sentinel into a second half, a relaxed atomic store, the user's x), relaxed atomic loads (rel),
                  and the 64-bit ticket with a closing ticket per block that the production kernel had then (close)
     wl2, wl4     (twenty-seventh session; trsv3d_windows.cuh) 2 or 4 neighbouring lines per warp, 16 or 8 rows of each: a
                  line's y - 1 neighbour inside the warp comes by a shuffle after the group before it is scanned, so the
                  critical path is N / 2 (N / 4) + N + N / 16 (N / 8) tile steps instead of wp1's 2 N + N / 32
     rp, rb, rf*  replicas of the production runs kernel itself (KRunProd, KRunProdFull; trsv3d_replica_host.h builds the
                  windows in the production order and the triangle at their positions): rp after a reset per solve and
                  back to back (-b2b), rb and rf back to back as the plugin's bench times; -ilu: the ILU(0) factor's values;
                  rf-*: one production detail left out each (launch bounds, the wrapping ticket, the run-time branches on
                  the poll and sleep options, the publication's sentinel check)
   TRSV3D_ONLY (a space-separated list of kernel names) runs those only (cuSPARSE always).
   With TRSV3D_TRACE set, each tile and win kernel also runs once with per-chunk %globaltimer stamps (chunk start, its
   memory words in, its block words in, published) and prints a "# trace" line: the critical path found by walking back
   from the last chunk published through the latest producer of each chunk, its hops counted by kind (x: the line's own
   chain; y, z: the neighbour line, inside the block or through memory) with their mean cost and its parts, then a
   "# steps" line: every chunk's step after its latest producer over all chunks against the critical path's, and a
   Monte Carlo longest path of independent steps (trsv3d_trace_host.h).

   Bounds printed beside them: bytes / bandwidth (bandwidth measured by a device-to-device copy here) and levels x the
   chain's handoff cost. Deadlock-freedom of the ticket kernels: a lane takes ticket t only when it runs, and the row (or
   line) of ticket t depends only on rows of smaller tickets (row order and level order are topological; lines in line
   order too), whose lanes took their tickets earlier and so are resident; independent thread scheduling (sm_70+) lets a
   lane that waits on a lane of its own warp make progress.

   Build and run (the GPU machine):
     nvcc -O3 -std=c++17 -arch=sm_90 -o trsv3d_breakdown examples/benchmarks/trsv3d_breakdown.cu -lcusparse
     ./trsv3d_breakdown N [R]        (one CSV line per kernel; -h: the header)
*/
#include <cuda_runtime.h>
#include <cuda/atomic>
#include <cusparse.h>
#include <cstdio>
#include <cstdlib>
#include <climits>
#include <cstring>
#include <cmath>
#include <vector>
#include <string>
#include <algorithm>

#include "standalone_check.h" /* CK, CS: CUDA and cuSPARSE calls checked */

static const unsigned long long SENTINEL = 0xFFFFFFFFFFFFFFFFull; /* a NaN no solve writes: what cudaMemset(0xFF) leaves */

/* ---- kernels ------------------------------------------------------------------------------------------------- */

__device__ __forceinline__ double PollValue(const double *x, int j, unsigned long long *polls)
{
  const volatile unsigned long long *w = (const volatile unsigned long long *)(x + j);
  unsigned long long                 v;
  while ((v = *w) == SENTINEL) {
    if (polls) (*polls)++;
  }
  return __longlong_as_double((long long)v);
}

__global__ void KStream(int n, const int *ri, const int *rj, const double *a, const double *b, double *x)
{
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  double s = b[i];
  for (int e = ri[i]; e < ri[i + 1]; e++) s -= a[e] * b[rj[e]];
  x[i] = s;
}

/* one thread per row in ticket order (order NULL: the row order); count: polls of each lane added to *count */
template <bool COUNT>
__global__ void KSyncFree(int n, const int *ri, const int *rj, const double *a, const double *b, double *x, const int *order, unsigned int *ticket, unsigned long long *count)
{
  __shared__ int base[32];
  const int      lane = threadIdx.x & 31, wib = threadIdx.x >> 5;
  if (lane == 0) base[wib] = (int)atomicAdd(ticket, 32u);
  __syncwarp();
  const int t = base[wib] + lane;
  if (t >= n) return;
  const int          i     = order ? order[t] : t;
  unsigned long long polls = 0;
  double             s     = b[i];
  for (int e = ri[i]; e < ri[i + 1]; e++) s -= a[e] * PollValue(x, rj[e], COUNT ? &polls : NULL);
  *(volatile double *)(x + i) = s;
  if (COUNT) atomicAdd(count, polls);
}

/* inclusive scan of the affine maps f_k(v) = c_k + m_k v along the lanes of each segment of SEG lanes (the whole warp by
   default): lane k gets F_k = f_k o ... o f_s, s the first lane of its segment */
template <int SEG = 32>
__device__ __forceinline__ void WarpScanAffine(int lane, double *c, double *m)
{
  for (int d = 1; d < SEG; d <<= 1) {
    const double cp = __shfl_up_sync(0xffffffffu, *c, d, SEG), mp = __shfl_up_sync(0xffffffffu, *m, d, SEG);
    if ((lane % SEG) >= d) {
      *c = *c + *m * cp;
      *m = *m * mp;
    }
  }
}

/* one warp per grid line (y, z) in line order; L's entries of row i = x + N y + N^2 z in CSR: ascending columns, so the
   z - 1, y - 1, x - 1 dependencies come in that order where they exist */
__global__ void KLineScan(int N, const int *ri, const int *rj, const double *a, const double *b, double *x, unsigned int *ticket)
{
  const int lane = threadIdx.x & 31;
  int       line = 0;
  if (lane == 0) line = (int)atomicAdd(ticket, 1u);
  line = __shfl_sync(0xffffffffu, line, 0);
  if (line >= N * N) return;
  const int row0  = line * N; /* x = 0 of this line */
  double    carry = 0.0;      /* x of the line's previous row (x - 1), none before x = 0 */
  for (int x0 = 0; x0 < N; x0 += 32) {
    const int xi = x0 + lane, i = row0 + xi;
    double    c = 0.0, m = 0.0; /* x_i = c + m x_{i-1} */
    if (xi < N) {
      c = b[i];
      for (int e = ri[i]; e < ri[i + 1]; e++) {
        const int j = rj[e];
        if (j == i - 1) m = -a[e];
        else c -= a[e] * PollValue(x, j, NULL); /* the y - 1 and z - 1 neighbours: other warps' lines */
      }
    }
    WarpScanAffine(lane, &c, &m);
    const double v = c + m * carry;
    if (xi < N) *(volatile double *)(x + i) = v;
    carry = __shfl_sync(0xffffffffu, v, 31);
  }
}

__device__ __forceinline__ unsigned long long GlobalTimer()
{
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

/* the row data of one lane for one 32-row chunk of a line: c = b_i, m = -L(i, i-1), the global dependencies (up to two)
   and the coefficients of the block-read ones (0: none) */
struct ChunkRow {
  double c, m, ga[3], ay, az;
  int    gj[3];
};

template <bool SH>
__device__ __forceinline__ ChunkRow LoadChunkRow(int N, const int *ri, const int *rj, const double *a, const double *b, int i, bool in, int wy, int wz, int e0, int e1, bool chainglobal = false)
{
  ChunkRow r = {0.0, 0.0, {0.0, 0.0, 0.0}, 0.0, 0.0, {INT_MAX, INT_MAX, INT_MAX}};
  int      ng = 0;
  if (!in) return r;
  r.c = b[i];
  for (int e = e0; e < e1; e++) {
    const int j = rj[e];
    if (j == i - 1 && !chainglobal) r.m = -a[e];
    else if (SH && j == i - N && wy > 0) r.ay = a[e];
    else if (SH && j == i - N * N && wz > 0) r.az = a[e];
    else if (ng < 3) {
      r.gj[ng]   = j;
      r.ga[ng++] = a[e];
    }
  }
  return r;
}

/* a solution word: a volatile load, or with REL a relaxed atomic load at device scope (cuda::atomic_ref) */
template <bool REL>
__device__ __forceinline__ unsigned long long LoadWord(const double *x, int j)
{
  if (REL) return cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>(*(unsigned long long *)(x + j)).load(cuda::memory_order_relaxed);
  return *(const volatile unsigned long long *)(x + j);
}

/* *c -= the row's global dependencies times their x (r.gj, r.ga, in that order), the words waited for in poll rounds
   (the production runs kernel's): loaded at once; while any is missing one lane spins on the largest, the warp at the
   barrier, then the missing ones are loaded again */
template <bool REL>
__device__ __forceinline__ void SubtractGlobal(const double *x, const ChunkRow &r, int lane, double *c)
{
  unsigned long long gu[3];
  for (int q = 0; q < 3; q++) gu[q] = r.gj[q] != INT_MAX ? LoadWord<REL>(x, r.gj[q]) : 0ull;
  for (;;) {
    int jm = -1;
    for (int q = 0; q < 3; q++)
      if (r.gj[q] != INT_MAX && gu[q] == SENTINEL) jm = max(jm, r.gj[q]);
    for (int d = 16; d > 0; d >>= 1) jm = max(jm, __shfl_xor_sync(0xffffffffu, jm, d));
    if (jm < 0) break;
    if (lane == 0)
      while (LoadWord<REL>(x, jm) == SENTINEL) { }
    __syncwarp();
    for (int q = 0; q < 3; q++)
      if (r.gj[q] != INT_MAX && gu[q] == SENTINEL) gu[q] = LoadWord<REL>(x, r.gj[q]);
  }
  for (int q = 0; q < 3; q++)
    if (r.gj[q] != INT_MAX) *c -= r.ga[q] * __longlong_as_double((long long)gu[q]);
}

/* a tile of WY x WZ grid lines per block (lines y0 .. y0 + WY - 1 of planes z0 .. z0 + WZ - 1), one warp per line, each
   line solved 32 rows at a time as in KLineScan; tiles handed out by ticket in the order tiles[] (by ty + tz: a
   topological order of the tiles' DAG). SH: a line's y - 1 (z - 1) neighbour inside the tile is read from shared memory,
   the neighbour warp's copy of its line, once that warp's progress counter says the chunk is there; only the tile's
   first lines wait through global memory (SH false: every neighbour through global memory). SYNC 0: the counter
   read by lane 0 with an acquire load and written with a release store at block scope (cuda::atomic_ref); SYNC 1: volatile
   reads by the whole warp and __threadfence_block. PF: the next chunk's row data loaded before this chunk's waits (its
   row pointers one chunk earlier still), instead of after the previous chunk. WY = WZ = 1 is KLineScan in wavefront
   order. ts (NULL: none): per line and chunk the %globaltimer at the chunk's start, with its global words in, with its
   block words in, and after its publication. */
template <int WY, int WZ, bool SH, int SYNC = 0, bool PF = false, bool WIN = false>
__global__ void __launch_bounds__(WY * WZ * 32) KLineTile(int N, const int *ri, const int *rj, const double *a, const double *b, double *x, const int4 *tiles, unsigned int *ticket, unsigned long long *ts)
{
  extern __shared__ double shline[]; /* WY WZ lines of N values */
  __shared__ int           prog[WY * WZ];
  __shared__ int           tk;
  const int                lane = threadIdx.x & 31, w = threadIdx.x >> 5, wy = w % WY, wz = w / WY;
  if (threadIdx.x == 0) tk = (int)atomicAdd(ticket, 1u);
  if (lane == 0) prog[w] = 0;
  __syncthreads();
  const int4 tl = tiles[tk]; /* ty, tz, and the chunk (WIN: a tile of 32-row windows of one chunk) */
  const int  y = tl.x * WY + wy, z = tl.y * WZ + wz;
  if (y >= N || z >= N) return; /* no warp of the block waits for a line past the grid */
  const int row0 = N * (y + N * z), nch = (N + 31) / 32;
  double   *mine  = shline + (size_t)w * N;
  double    carry = 0.0;
  /* the first chunk's rows, and the row pointers of the second */
  const int cb = WIN ? tl.z : 0, ce = WIN ? tl.z + 1 : nch, xl = 32 * cb + lane;
  int       p0 = xl < N ? ri[row0 + xl] : 0, p1 = xl < N ? ri[row0 + xl + 1] : 0;
  ChunkRow  cur = LoadChunkRow<SH>(N, ri, rj, a, b, row0 + xl, xl < N, wy, wz, p0, p1, WIN && cb > 0 && lane == 0);
  if (!WIN && PF && 32 + lane < N) {
    p0 = ri[row0 + 32 + lane];
    p1 = ri[row0 + 32 + lane + 1];
  }
  for (int ch = cb + 1; ch <= ce; ch++) {
    const int           xi = 32 * (ch - 1) + lane, i = row0 + xi;
    unsigned long long *tsc = ts ? ts + 4 * ((size_t)(y + N * z) * nch + ch - 1) : NULL;
    ChunkRow            nxt;
    int                 q0 = 0, q1 = 0;
    if (tsc && lane == 0) tsc[0] = GlobalTimer();
    if (PF && !WIN) { /* the next chunk's data (its row pointers loaded a chunk ago) and the row pointers of the one after */
      nxt = LoadChunkRow<SH>(N, ri, rj, a, b, i + 32, xi + 32 < N, wy, wz, p0, p1);
      if (xi + 64 < N) {
        q0 = ri[i + 64];
        q1 = ri[i + 65];
      }
    }
    double c = cur.c;
    SubtractGlobal<false>(x, cur, lane, &c);
    if (tsc && lane == 0) tsc[1] = GlobalTimer();
    if (SH && WY * WZ > 1) {
      if (SYNC == 0) {
        if (lane == 0) {
          if (wy > 0)
            while (cuda::atomic_ref<int, cuda::thread_scope_block>(prog[w - 1]).load(cuda::memory_order_acquire) < ch) { }
          if (wz > 0)
            while (cuda::atomic_ref<int, cuda::thread_scope_block>(prog[w - WY]).load(cuda::memory_order_acquire) < ch) { }
        }
        __syncwarp();
      } else { /* the whole warp reads the counters (no divergence), then a block fence */
        for (;;) {
          const int py = wy > 0 ? ((volatile int *)prog)[w - 1] : ch, pz = wz > 0 ? ((volatile int *)prog)[w - WY] : ch;
          if (__all_sync(0xffffffffu, py >= ch && pz >= ch)) break;
        }
        __threadfence_block();
      }
      if (tsc && lane == 0) tsc[2] = GlobalTimer();
      if (cur.ay != 0.0) c -= cur.ay * shline[(size_t)(w - 1) * N + xi];
      if (cur.az != 0.0) c -= cur.az * shline[(size_t)(w - WY) * N + xi];
    } else if (tsc && lane == 0) tsc[2] = tsc[1];
    double m = cur.m;
    WarpScanAffine(lane, &c, &m);
    const double v = c + m * carry;
    if (SH && WY * WZ > 1) { /* the block's copy first, then the global word (the release orders no global store) */
      if (xi < N) mine[xi] = v;
      if (SYNC == 0) {
        __syncwarp();
        if (lane == 0) cuda::atomic_ref<int, cuda::thread_scope_block>(prog[w]).store(ch, cuda::memory_order_release);
      } else {
        __threadfence_block();
        __syncwarp();
        if (lane == 0) ((volatile int *)prog)[w] = ch;
      }
    }
    if (xi < N) *(volatile double *)(x + i) = v;
    if (tsc && lane == 0) tsc[3] = GlobalTimer();
    carry = __shfl_sync(0xffffffffu, v, 31);
    if (WIN) break;
    if (PF) {
      cur = nxt;
      p0  = q0;
      p1  = q1;
    } else if (ch < nch) {
      const int in = xi + 32 < N;
      cur          = LoadChunkRow<SH>(N, ri, rj, a, b, i + 32, in, wy, wz, in ? ri[i + 32] : 0, in ? ri[i + 33] : 0);
    }
  }
}

#include "trsv3d_windows.cuh" /* KWinProd, KRunProd, KRunProdFull */

/* ---- host ----------------------------------------------------------------------------------------------------- */

struct CSR {
  int                 n;
  std::vector<int>    ri, rj;
  std::vector<double> a;
};

static double Val(int i, int j) { return -0.1 - 0.1 * (double)((i * 7 + j * 13) % 11) / 10.0; }

static CSR Grid3D(int N)
{
  CSR L;
  L.n = N * N * N;
  L.ri.push_back(0);
  for (int z = 0; z < N; z++)
    for (int y = 0; y < N; y++)
      for (int xx = 0; xx < N; xx++) {
        const int i = xx + N * (y + N * z);
        const int dep[3] = {z ? i - N * N : -1, y ? i - N : -1, xx ? i - 1 : -1};
        for (int d : dep)
          if (d >= 0) {
            L.rj.push_back(d);
            L.a.push_back(Val(i, d));
          }
        L.ri.push_back((int)L.rj.size());
      }
  return L;
}

static CSR Chain(int n)
{
  CSR L;
  L.n = n;
  L.ri.push_back(0);
  for (int i = 0; i < n; i++) {
    if (i) {
      L.rj.push_back(i - 1);
      L.a.push_back(Val(i, i - 1));
    }
    L.ri.push_back((int)L.rj.size());
  }
  return L;
}

static std::vector<double> HostSolve(const CSR &L, const std::vector<double> &b)
{
  std::vector<double> x(L.n);
  for (int i = 0; i < L.n; i++) {
    double s = b[i];
    for (int e = L.ri[i]; e < L.ri[i + 1]; e++) s -= L.a[e] * x[L.rj[e]];
    x[i] = s;
  }
  return x;
}

#include "trsv3d_replica_host.h" /* TileOrder, IluValues, RunUpload, BackToBack */
#include "trsv3d_trace_host.h"   /* TraceReport: the TRSV3D_TRACE solve's critical path and steps */

struct Dev {
  int    n, nnz;
  int   *ri, *rj;
  double *a, *b, *x;
};

static Dev Upload(const CSR &L, const std::vector<double> &b)
{
  Dev d;
  d.n   = L.n;
  d.nnz = (int)L.rj.size();
  d.ri  = ToDevice(L.ri);
  d.rj  = ToDevice(L.rj);
  d.a   = ToDevice(L.a);
  d.b   = ToDevice(b);
  CK(cudaMalloc(&d.x, sizeof(double) * L.n));
  return d;
}

static void Free(Dev &d)
{
  CK(cudaFree(d.ri));
  CK(cudaFree(d.rj));
  CK(cudaFree(d.a));
  CK(cudaFree(d.b));
  CK(cudaFree(d.x));
}

static double RelErr(const Dev &d, const std::vector<double> &ref)
{
  std::vector<double> x(d.n);
  CK(cudaMemcpy(x.data(), d.x, sizeof(double) * d.n, cudaMemcpyDeviceToHost));
  double e = 0, m = 0;
  for (int i = 0; i < d.n; i++) {
    e = std::max(e, std::fabs(x[i] - ref[i]));
    m = std::max(m, std::fabs(ref[i]));
  }
  return std::isfinite(e) ? e / (m > 0 ? m : 1) : INFINITY;
}

/* ms per solve of launch() over R solves (x reset to the sentinel and the ticket to 0 before each, outside the events) */
template <class F>
static double Time(const Dev &d, unsigned int *ticket, int R, F launch)
{
  cudaEvent_t e0, e1;
  float       ms, tot = 0;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  for (int r = -2; r < R; r++) { /* two warm-ups */
    CK(cudaMemsetAsync(d.x, 0xFF, sizeof(double) * d.n));
    CK(cudaMemsetAsync(ticket, 0, sizeof(unsigned long long)));
    CK(cudaEventRecord(e0));
    launch();
    CK(cudaEventRecord(e1));
    CK(cudaEventSynchronize(e1));
    CK(cudaEventElapsedTime(&ms, e0, e1));
    if (r >= 0) tot += ms;
  }
  CK(cudaGetLastError());
  CK(cudaEventDestroy(e0));
  CK(cudaEventDestroy(e1));
  return tot / R;
}

int main(int argc, char **argv)
{
  if (argc > 1 && !strcmp(argv[1], "-h")) {
    printf("N,n,nnz,levels,kernel,ms,vs_cusparse,rel_err,polls_per_row,handoff_us,bound_bw_ms,bound_path_ms,bw_gbs\n");
    return 0;
  }
  const int  N = argc > 1 ? atoi(argv[1]) : 128, R = argc > 2 ? atoi(argv[2]) : 20;
  const int  levels = 3 * N - 2, T = 256;
  const CSR  L      = Grid3D(N);
  const int  n      = L.n;
  std::vector<double> b(n);
  for (int i = 0; i < n; i++) b[i] = 1.0 + (double)(i % 17) / 17.0;
  const std::vector<double> ref = HostSolve(L, b);
  Dev                       d   = Upload(L, b);
  unsigned int             *ticket;
  unsigned long long       *count;
  int                      *lorder;
  CK(cudaMalloc(&ticket, sizeof(unsigned long long) /* a 64-bit counter for KWinProd<..., true> */));
  CK(cudaMalloc(&count, sizeof(unsigned long long)));
  { /* level (wavefront) order: by x + y + z, rows ascending inside a level */
    std::vector<int> ord(n);
    for (int i = 0; i < n; i++) ord[i] = i;
    auto lev = [N](int i) { return i % N + (i / N) % N + i / (N * N); };
    std::stable_sort(ord.begin(), ord.end(), [&](int p, int q) { return lev(p) < lev(q); });
    CK(cudaMalloc(&lorder, sizeof(int) * n));
    CK(cudaMemcpy(lorder, ord.data(), sizeof(int) * n, cudaMemcpyHostToDevice));
  }
  /* bandwidth: a device-to-device copy of 1 GB */
  double bw_gbs;
  {
    const size_t bytes = (size_t)1 << 30;
    void        *p, *q;
    cudaEvent_t  e0, e1;
    float        ms;
    CK(cudaMalloc(&p, bytes));
    CK(cudaMalloc(&q, bytes));
    CK(cudaMemcpy(q, p, bytes, cudaMemcpyDeviceToDevice));
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    CK(cudaEventRecord(e0));
    for (int r = 0; r < 5; r++) CK(cudaMemcpy(q, p, bytes, cudaMemcpyDeviceToDevice));
    CK(cudaEventRecord(e1));
    CK(cudaEventSynchronize(e1));
    CK(cudaEventElapsedTime(&ms, e0, e1));
    bw_gbs = 2.0 * 5 * (double)bytes / (ms * 1e-3) / 1e9;
    CK(cudaFree(p));
    CK(cudaFree(q));
  }
  const double bytes_solve = (double)d.nnz * (8 + 4) + (double)n * (4 + 8 + 8) + (double)d.nnz * 8; /* L, ri, b, x written, x read per entry */
  const double bound_bw    = bytes_solve / (bw_gbs * 1e9) * 1e3;
  /* cuSPARSE SpSV: a warm-up on a throwaway 64-row chain, then L (analysis untimed) */
  double t_cus;
  {
    cusparseHandle_t h;
    CS(cusparseCreate(&h));
    auto spsv = [&](const Dev &m, int R2, double *ms_out) {
      cusparseSpMatDescr_t A;
      cusparseDnVecDescr_t vb, vx;
      cusparseSpSVDescr_t  sv;
      size_t               sz;
      void                *buf;
      const double         one   = 1.0;
      cusparseFillMode_t   fill  = CUSPARSE_FILL_MODE_LOWER;
      cusparseDiagType_t   diagt = CUSPARSE_DIAG_TYPE_UNIT;
      CS(cusparseCreateCsr(&A, m.n, m.n, m.nnz, m.ri, m.rj, m.a, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F));
      CS(cusparseSpMatSetAttribute(A, CUSPARSE_SPMAT_FILL_MODE, &fill, sizeof(fill)));
      CS(cusparseSpMatSetAttribute(A, CUSPARSE_SPMAT_DIAG_TYPE, &diagt, sizeof(diagt)));
      CS(cusparseCreateDnVec(&vb, m.n, m.b, CUDA_R_64F));
      CS(cusparseCreateDnVec(&vx, m.n, m.x, CUDA_R_64F));
      CS(cusparseSpSV_createDescr(&sv));
      CS(cusparseSpSV_bufferSize(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, A, vb, vx, CUDA_R_64F, CUSPARSE_SPSV_ALG_DEFAULT, sv, &sz));
      CK(cudaMalloc(&buf, std::max<size_t>(sz, 1)));
      CS(cusparseSpSV_analysis(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, A, vb, vx, CUDA_R_64F, CUSPARSE_SPSV_ALG_DEFAULT, sv, buf));
      *ms_out = Time(m, ticket, R2, [&]() { CS(cusparseSpSV_solve(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, A, vb, vx, CUDA_R_64F, CUSPARSE_SPSV_ALG_DEFAULT, sv)); });
      CS(cusparseSpSV_destroyDescr(sv));
      CS(cusparseDestroySpMat(A));
      CS(cusparseDestroyDnVec(vb));
      CS(cusparseDestroyDnVec(vx));
      CK(cudaFree(buf));
    };
    CSR                 w  = Chain(64);
    std::vector<double> wb(64, 1.0);
    Dev                 dw = Upload(w, wb);
    double              tw;
    spsv(dw, 1, &tw);
    Free(dw);
    spsv(d, R, &t_cus);
    CS(cusparseDestroy(h));
  }
  const double err_cus = RelErr(d, ref);
  /* the chain as long as L's critical path: the handoff cost per level */
  double handoff_us;
  {
    CSR                 c = Chain(levels);
    std::vector<double> cb(levels, 1.0);
    Dev                 dc = Upload(c, cb);
    const double        t  = Time(dc, ticket, R, [&]() { KSyncFree<false><<<(levels + T - 1) / T, T>>>(dc.n, dc.ri, dc.rj, dc.a, dc.b, dc.x, NULL, ticket, NULL); });
    handoff_us             = t * 1e3 / levels;
    Free(dc);
  }
  const double bound_path = levels * handoff_us * 1e-3;
  auto line = [&](const char *name, double ms, double err, double polls) {
    printf("%d,%d,%d,%d,%s,%.5g,%.3f,%.2e,%.3g,%.4g,%.5g,%.5g,%.0f\n", N, n, d.nnz, levels, name, ms, t_cus / ms, err, polls, handoff_us, bound_bw, bound_path, bw_gbs);
  };
  line("cusparse", t_cus, err_cus, 0);
  /* TRSV3D_ONLY: a space-separated list of the kernels to run (unset: all) */
  auto want = [&](const char *name) {
    const char *only = getenv("TRSV3D_ONLY");
    if (!only) return true;
    const std::string o = std::string(" ") + only + " ";
    return o.find(std::string(" ") + name + " ") != std::string::npos;
  };
  const int blocks = (n + T - 1) / T;
  double    t;
  if (want("stream")) {
    t = Time(d, ticket, R, [&]() { KStream<<<blocks, T>>>(n, d.ri, d.rj, d.a, d.b, d.x); });
    line("stream", t, -1, 0); /* not a solve: no error */
  }
  if (want("syncfree")) {
    t = Time(d, ticket, R, [&]() { KSyncFree<false><<<blocks, T>>>(n, d.ri, d.rj, d.a, d.b, d.x, NULL, ticket, NULL); });
    line("syncfree", t, RelErr(d, ref), 0);
  }
  if (want("syncfree-lev")) {
    t = Time(d, ticket, R, [&]() { KSyncFree<false><<<blocks, T>>>(n, d.ri, d.rj, d.a, d.b, d.x, lorder, ticket, NULL); });
    line("syncfree-lev", t, RelErr(d, ref), 0);
  }
  if (want("polls")) {
    unsigned long long polls = 0;
    CK(cudaMemset(count, 0, sizeof(*count)));
    t = Time(d, ticket, 1, [&]() {
      CK(cudaMemsetAsync(count, 0, sizeof(*count)));
      KSyncFree<true><<<blocks, T>>>(n, d.ri, d.rj, d.a, d.b, d.x, NULL, ticket, count);
    });
    CK(cudaMemcpy(&polls, count, sizeof(polls), cudaMemcpyDeviceToHost));
    line("polls", t, RelErr(d, ref), (double)polls / n);
  }
  if (want("linescan")) {
    t = Time(d, ticket, R, [&]() { KLineScan<<<(N * N * 32 + T - 1) / T, T>>>(N, d.ri, d.rj, d.a, d.b, d.x, ticket); });
    line("linescan", t, RelErr(d, ref), 0);
  }
  /* the production-like windows (KWinProd) */
  auto prod = [&](const char *name, int WPB, bool POS, int smem, auto kernel) {
    if (!want(name)) return;
    const int         nc = (N + 31) / 32;
    std::vector<int4> tl = TileOrder(N, N, nc, POS);
    int4             *dtl;
    double           *xo, *xu;
    CK(cudaMalloc(&dtl, sizeof(int4) * tl.size()));
    CK(cudaMalloc(&xo, sizeof(double) * n));
    CK(cudaMalloc(&xu, sizeof(double) * n));
    CK(cudaMemcpy(dtl, tl.data(), sizeof(int4) * tl.size(), cudaMemcpyHostToDevice));
    const int    nt = (int)tl.size();
    if (smem) CK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
    const double tt = Time(d, ticket, R, [&]() { kernel<<<(unsigned)((nt + WPB - 1) / WPB), 32 * WPB, smem>>>(N, d.ri, d.rj, d.a, d.b, d.x, xo, xu, dtl, nt, ticket); });
    line(name, tt, RelErr(d, ref), 0);
    CK(cudaFree(dtl));
    CK(cudaFree(xo));
    CK(cudaFree(xu));
  };
  prod("wp1", 1, false, 0, KWinProd<1, 0, false, false>);
  prod("wp1pos", 1, true, 0, KWinProd<1, 0, false, false>);
  prod("wp4", 4, false, 0, KWinProd<4, 0, false, false>);
  prod("wp4s28", 4, false, 28 << 10, KWinProd<4, 0, false, false>); /* 8 blocks per SM: 32 warps, as the production kernel's registers allow */
  prod("wp1s14", 1, false, 14 << 10, KWinProd<1, 0, false, false>); /* 16 blocks per SM: 16 warps */
  prod("wp1pub", 1, false, 0, KWinProd<1, 1, false, false>);
  prod("wp1rel", 1, false, 0, KWinProd<1, 0, true, false>);
  prod("wp4pubrel", 4, true, 0, KWinProd<4, 1, true, false>);
  prod("wp1pubrel", 1, true, 0, KWinProd<1, 1, true, false>);
  prod("wp1close", 1, true, 0, KWinProd<1, 1, true, true>);
  prod("wp4close", 4, true, 0, KWinProd<4, 1, true, true>);
  prod("wp4s28close", 4, true, 28 << 10, KWinProd<4, 1, true, true>);
  /* LINES grid lines per warp (KWinLines): tiles of LINES lines by 32 / LINES rows */
  auto lines = [&](const char *name, int LINES, auto kernel) {
    if (!want(name)) return;
    const int         seg = 32 / LINES;
    std::vector<int4> tl  = TileOrder((N + LINES - 1) / LINES, N, (N + seg - 1) / seg, false);
    int4             *dtl;
    CK(cudaMalloc(&dtl, sizeof(int4) * tl.size()));
    CK(cudaMemcpy(dtl, tl.data(), sizeof(int4) * tl.size(), cudaMemcpyHostToDevice));
    const int    nt = (int)tl.size();
    const double tt = Time(d, ticket, R, [&]() { kernel<<<(unsigned)nt, 32>>>(N, d.ri, d.rj, d.a, d.b, d.x, dtl, nt, ticket); });
    line(name, tt, RelErr(d, ref), 0);
    CK(cudaFree(dtl));
  };
  lines("wl2", 2, KWinLines<2>);
  lines("wl4", 4, KWinLines<4>);
  /* the production replica (KRunProd) on positions (RELABEL) or rows: each solve after a reset (Time), then back to
     back as the plugin's bench times (steady state: the halves swap each solve, whose other half's sentinels are the
     reset) */
  auto runprod = [&](const char *name, bool RELABEL, auto kernel) {
    if (!want(name)) return;
    RunDev              g = RunUpload(N, L, L.a, RELABEL);
    double             *dxu;
    unsigned long long *dcur, *doth;
    CK(cudaMalloc(&dxu, sizeof(double) * n));
    CK(cudaMalloc(&dcur, sizeof(double) * n));
    CK(cudaMalloc(&doth, sizeof(double) * n));
    const RunArgs f  = {g.ws, g.wl, g.ptr, g.idx, g.ord, g.val, d.b, dxu, dcur, doth, g.nw};
    Dev           dc = d, du = d;
    dc.x             = (double *)dcur; /* Time() sets this solve's words to the sentinel */
    du.x             = dxu;
    line(name, Time(dc, ticket, R, [&]() { kernel<<<(unsigned)g.nw, 32>>>(f, ticket, 0u); }), RelErr(du, ref), 0);
    CK(cudaMemset(dcur, 0xFF, sizeof(double) * n));
    CK(cudaMemset(doth, 0xFF, sizeof(double) * n));
    CK(cudaMemset(ticket, 0, sizeof(unsigned long long)));
    line((std::string(name) + "-b2b").c_str(), RunBackToBack(R, kernel, f, ticket), RelErr(du, ref), 0);
    RunFree(g);
    CK(cudaFree(dxu));
    CK(cudaFree(dcur));
    CK(cudaFree(doth));
  };
  runprod("rp", true, KRunProd<4, true, true>);
  runprod("rp-nat", false, KRunProd<4, true, true>);
  runprod("rp-b2", true, KRunProd<2, true, true>);
  runprod("rp-scan2", true, KRunProd<4, false, true>);
  /* the replicas back to back, on the windows in the production order and positions: MODE 0 KRunProd<4, true, true>,
     1 the kernel full (KRunProdFull<...>), 2 the same with the vectors read through a device pointer; ILU: the values of
     the ILU(0) factor of the 7-point Laplacian and b uniform in [0, 1) (IluValues), instead of the synthetic ones */
  auto runfull = [&](const char *name, bool ILU, int MODE, auto full) {
    if (!want(name)) return;
    std::vector<double> lv(L.a), bb(b);
    if (ILU) IluValues(L, lv, bb);
    CSR Lx = L;
    Lx.a   = lv;
    const std::vector<double> rx = HostSolve(Lx, bb);
    RunDev                    g  = RunUpload(N, L, lv, true);
    double                   *dxu, *db;
    unsigned long long       *dxs;
    ProdVec                  *dvp;
    CK(cudaMalloc(&dxu, sizeof(double) * n));
    CK(cudaMalloc(&db, sizeof(double) * n));
    CK(cudaMalloc(&dxs, sizeof(double) * 2 * (size_t)n));
    CK(cudaMalloc(&dvp, sizeof(ProdVec)));
    CK(cudaMemcpy(db, bb.data(), sizeof(double) * n, cudaMemcpyHostToDevice));
    const ProdVec hv = {db, dxu};
    CK(cudaMemcpy(dvp, &hv, sizeof(ProdVec), cudaMemcpyHostToDevice));
    CK(cudaMemset(dxs, 0xFF, sizeof(double) * 2 * (size_t)n));
    CK(cudaMemset(ticket, 0, sizeof(unsigned long long)));
    const ProdTri t  = {g.ptr, g.idx, g.ord, g.val};
    const ProdSF  sf = {g.ws, g.wl, dxs, ticket, g.nw, 0u, 0};
    const RunArgs f  = {g.ws, g.wl, g.ptr, g.idx, g.ord, g.val, db, dxu, dxs, dxs + n, g.nw};
    const double  tb = MODE == 0 ? RunBackToBack(R, KRunProd<4, true, true>, f, ticket) : BackToBack(R, [&](int r) { /* the halves alternate (the ticket's half) */
      full<<<(unsigned)g.nw, 32>>>(t, sf, n, MODE == 2 ? ProdVec{NULL, NULL} : hv, MODE == 2 ? dvp : NULL, (unsigned)r * (unsigned)g.nw);
    });
    Dev du = d;
    du.x   = dxu;
    line(name, tb, RelErr(du, rx), 0);
    RunFree(g);
    CK(cudaFree(dxu));
    CK(cudaFree(db));
    CK(cudaFree(dxs));
    CK(cudaFree(dvp));
  };
  runfull("rb", false, 0, KRunProdFull<128, true, true, true>);
  runfull("rb-ilu", true, 0, KRunProdFull<128, true, true, true>);
  runfull("rf", false, 1, KRunProdFull<128, true, true, true>);
  runfull("rf-ilu", true, 1, KRunProdFull<128, true, true, true>);
  runfull("rf-vp", false, 2, KRunProdFull<128, true, true, true>);
  runfull("rf-lb32", false, 1, KRunProdFull<32, true, true, true>);
  runfull("rf-add", false, 1, KRunProdFull<128, false, true, true>);
  runfull("rf-nobr", false, 1, KRunProdFull<128, true, false, true>);
  runfull("rf-noqn", false, 1, KRunProdFull<128, true, true, false>);
  runfull("rf-none", false, 1, KRunProdFull<32, false, false, false>);
  auto tiled = [&](const char *name, int WY, int WZ, auto kernel, bool SH = true, bool WIN = false) {
    if (!want(name)) return;
    const int          ny = (N + WY - 1) / WY, nz = (N + WZ - 1) / WZ, nc = WIN ? (N + 31) / 32 : 1;
    std::vector<int4>  tl = TileOrder(ny, nz, nc, false);
    int4              *dtl;
    CK(cudaMalloc(&dtl, sizeof(int4) * tl.size()));
    CK(cudaMemcpy(dtl, tl.data(), sizeof(int4) * tl.size(), cudaMemcpyHostToDevice));
    const size_t sh = sizeof(double) * (size_t)WY * WZ * N;
    CK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)sh));
    const double tt = Time(d, ticket, R, [&]() { kernel<<<(unsigned)tl.size(), 32 * WY * WZ, sh>>>(N, d.ri, d.rj, d.a, d.b, d.x, dtl, ticket, NULL); });
    line(name, tt, RelErr(d, ref), 0);
    if (getenv("TRSV3D_TRACE")) { /* one solve with time stamps: the critical path's hops by kind */
      const int                       nch = (N + 31) / 32;
      const size_t                    nts = (size_t)4 * N * N * nch;
      unsigned long long             *dts;
      std::vector<unsigned long long> h(nts);
      CK(cudaMalloc(&dts, sizeof(unsigned long long) * nts));
      (void)Time(d, ticket, 1, [&]() { kernel<<<(unsigned)tl.size(), 32 * WY * WZ, sh>>>(N, d.ri, d.rj, d.a, d.b, d.x, dtl, ticket, dts); });
      CK(cudaMemcpy(h.data(), dts, sizeof(unsigned long long) * nts, cudaMemcpyDeviceToHost));
      CK(cudaFree(dts));
      TraceReport(name, N, nch, WY, WZ, SH, h);
    }
    CK(cudaFree(dtl));
  };
  tiled("tile1x1", 1, 1, KLineTile<1, 1, false>, false);
  tiled("tile4x1", 4, 1, KLineTile<4, 1, true>);
  tiled("tile4x1vp", 4, 1, KLineTile<4, 1, true, 1, true>);
  tiled("tile4x4vp", 4, 4, KLineTile<4, 4, true, 1, true>);
  tiled("tile8x4vp", 8, 4, KLineTile<8, 4, true, 1, true>);
  tiled("win1x1", 1, 1, KLineTile<1, 1, false, 1, false, true>, false, true);
  tiled("win4x4", 4, 4, KLineTile<4, 4, true, 1, false, true>, true, true);
  tiled("win8x4", 8, 4, KLineTile<8, 4, true, 1, false, true>, true, true);
  tiled("win4x8", 4, 8, KLineTile<4, 8, true, 1, false, true>, true, true);
  Free(d);
  CK(cudaFree(ticket));
  CK(cudaFree(count));
  CK(cudaFree(lorder));
  return 0;
}
