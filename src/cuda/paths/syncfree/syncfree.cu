/*
   Synchronization-free triangular solves with warp packing on the GPU (paper 001).

   The analysis (src/mat/paths/syncfree/syncfree.c) packs the rows of op(T) into warps: warp w solves the rows at
   dispatch positions wstart[w] .. wstart[w+1]-1, all of one level and one length bin, with K = wlanes[w]
   lanes per row (K = 1, 2, ..., 32; a row longer than 32 has a warp of its own). Lane g K + e reads entry
   e of the warp's row g (and every K-th one after it for a row longer than K), waits for the x_j that entry needs,
   and the K lanes of the row add their products with a shuffle tree; the row's first lane writes x_i.
   One launch per solve, no level barriers: each row waits only for its own dependencies. With natural
   dispatch (-mat_sptrsv_dispatch natural) the warps hold consecutive rows of the triangle's own order
   instead, and a row may wait for an earlier row of its own warp; the shuffles of a row use its group's
   mask only, so groups of one warp never wait for each other at a shuffle.

   Waiting on the solution itself (no flag array). The kernel publishes each x_i in a private buffer xs
   of 2n words, half (epoch & 1) for the current solve: an entry holds a sentinel bit pattern (all ones,
   a NaN) until its row is solved. A lane spins on xs[j] until it is not the sentinel and uses the value
   it read: the value is the flag, so there is one load per dependency. A computed x_i whose bits happen
   to equal the sentinel (a NaN: NaN/Inf in b or in the factor) is published as the canonical quiet NaN
   instead, so NaN flows on into the solution as in the host solve and never looks "unsolved". When row
   i publishes in half h it also writes the sentinel into xs[i] of the other half, which the next solve
   reads: no reset pass between solves (no launch, no memset), and the launch arguments never change.
   Both halves are set to the sentinel once at setup. With -mat_sptrsv_relabel the word of x_i is the one of
   row i's dispatch position k (xs[k]), and the column indices the kernel reads were translated to dispatch positions
   at setup: the rows of a level then poll adjacent words (the previous levels' positions are contiguous), where
   row numbers of one level may lie far apart (a 2-D grid's anti-diagonal). The user's x is still written at x[i].

   Epochs and dispatch by ticket. The counter wraps: thread 0 of a running block takes t = atomicInc(ticket, 2 per - 1)
   (t + 1, back to 0 after 2 per - 1), so t counts the tickets modulo 2 per with no division: the half h = (t >= per)
   is the parity of the solve (its epoch is h + 1, selecting the half of xs) and slot = t - h per < nslots means "solve
   warps [slot W, slot W + W)" (W = -mat_sptrsv_block_warps, by default 1 for the runs dispatch, 2 on a wide wavefront,
   and SPTRSV_SYNCFREE_WARPS otherwise). With one block per slot (the default) per = nslots and each block takes one ticket;
   with persistent blocks per = nslots + nblocks and slot >= nslots is a block's closing ticket, after which it exits.
   (A 64-bit counter divided by per cost each window about 120 instructions, 13% of the runs dispatch's instructions on
   a 128^3 grid, though no measurable time: docs/PERFORMANCE.md, run 14.) A block's thread 0 may take its next ticket
   before the block's other warps are done with the previous slot, but the block starts the next slot only when the
   previous one is complete; the slot held meanwhile is a later one, which the previous slot does not wait for. Every
   launch hands out exactly per tickets, so the counter is never reset and the launch arguments never change. nblocks = nslots with
   -mat_sptrsv_blocks_per_sm 0 (each block works one slot); k launches k blocks per multiprocessor that take the slots in
   turn, which bounds the warps waiting at once; -1 (the default) picks k for the runs dispatch from the width of its
   wavefront (SpTrsvSyncFreeAutoBlocks), 0 otherwise. Solves on one stream do not overlap
   (a kernel starts after the previous one completed), so all tickets of solve e are taken after all of
   solve e - 1.

   Deadlock freedom (for every triangle the analysis accepts; the full argument for ticket dispatch is in
   src/mat/analysis/dispatch.c). (1) Every dependency of a row comes before it in the dispatch order: level
   dispatch sorts rows by level (ASAP or ALAP levels both put a row strictly after its dependencies, and the
   rows of one warp share a level); natural dispatch is the triangle's own order (increasing for lower,
   decreasing for upper). A row may thus wait for an earlier group of its own warp (natural dispatch), never
   for a later one, and a group synchronizes only its own K lanes (the shuffle mask). (2) A slot is taken only by a
   running block, in ticket order, and that block keeps running until the slot is complete: every slot
   below the largest one taken is complete or held by a running block. (3) Let r be the first row (in dispatch order) that
   never completes: its dependencies come before it and complete, publishing their values (relaxed stores at
   device scope become visible to the spinning loads: PTX coherence); its block is running by (2); its K
   lanes' spins therefore end, the group's shuffle involves only those K lanes, and r completes: a
   contradiction. Independent thread scheduling (sm_70+) guarantees the lanes of one warp progress even
   while other lanes of it spin (on other rows, or on an earlier group of the same warp). The host executor checks (1) and the packing once per pattern
   (SpTrsvSyncFreeScheduleCheck).

   Memory ordering (PTX memory model, device scope). The published word is the whole message: x_i is
   stored with a relaxed atomic store (st.relaxed.gpu) and read with relaxed atomic loads (ld.relaxed.gpu,
   never through L1), 64-bit aligned words are single-copy atomic, so a reader sees either the sentinel or
   the final value, never a torn one. Nothing else is communicated between warps during a launch, so no
   fence or acquire/release is needed. The sentinel written into the other half and the user's x are
   plain stores, read only by later launches (the kernel boundary orders them). b, the pattern, the values
   and the diagonal are read-only for the launch (__ldg).

   Storage. CSR (-mat_sptrsv_storage csr): the rows are stored in dispatch order (device_tri.cu), so a
   warp's rows are adjacent and its loads nearly coalesced; each group first reads its row pointers.
   Warp-packed ELL (warpell): the warp's 32 lanes read 32 consecutive indices and values, no row pointers
   (the entries of a row longer than K past its K-th come from the CSR arrays: the warp's tail flag). The ELL values are gathered on the
   device from the CSR values whenever those change.
*/
#include "syncfree_analysis.h"
#include "../../row_ops.cuh"
#include <petsctime.h>
#include <climits>
#include <type_traits>

/* the words xs is made of: the bits of a PetscScalar */
typedef std::conditional<sizeof(PetscScalar) == 8, unsigned long long, unsigned int>::type SpTrsvSyncFreeWord;

/* the sync-free path's device state */
typedef struct {
  const int          *wstart; /* nwarps + 1 */
  const int          *wlanes; /* nwarps */
  const int          *ellidx; /* warpell: 32 nwarps column indices, -1 in empty slots; NULL for CSR */
  PetscScalar        *ellval; /* warpell: 32 nwarps values */
  const int          *ellpos; /* warpell: slot of the CSR value array each ELL slot copies, -1 when empty */
  SpTrsvSyncFreeWord *xs;     /* 2 n: the solution as published, by parity of the epoch */
  unsigned int       *ticket; /* dispatch counter modulo 2 per: advances by per = nslots (+ nblocks for persistent blocks) per launch */
  int                 nwarps;
  int                 nslots;  /* tickets that carry work: one per block_warps warps */
  int                 block_warps; /* warps per block (1 to SPTRSV_SYNCFREE_WARPS): a ticket's warps */
  int                 nblocks; /* blocks launched; each takes tickets until one carries no work */
  unsigned int        spin_ns; /* sleep between two polls of a dependency (0: none) */
  PetscBool           natural; /* natural dispatch: group-masked shuffles */
  PetscBool           relabel; /* xs indexed by dispatch position (the column indices translated at setup) */
  int                 run_rows; /* runs dispatch: rows per lane R (1, 2, 4, 8); 0: warps of rows */
  int                 run_batch; /* runs dispatch: entries a lane loads at once B (4, 8, 16; B >= min(16, 4 R)) */
  int                 poll_all; /* runs dispatch: every lane polls its missing words each round (-mat_sptrsv_run_poll all) */
} SpTrsvCUDASyncFree;

#if defined(SPTRSV_CUDA_SCALAR_OK)

  #if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 700
    #error "the sync-free kernel needs scoped atomic loads and stores and independent thread scheduling: build for sm_70 or later"
  #endif

  #define SPTRSV_SYNCFREE_SENTINEL (~(SpTrsvSyncFreeWord)0) /* all ones: a NaN */
  #define SPTRSV_SYNCFREE_QNAN     (sizeof(PetscScalar) == 8 ? (SpTrsvSyncFreeWord)0x7FF8000000000000ULL : (SpTrsvSyncFreeWord)0x7FC00000U)

__device__ __forceinline__ SpTrsvSyncFreeWord SpTrsvSyncFreeBits(PetscScalar x)
{
  SpTrsvSyncFreeWord u;
  memcpy(&u, &x, sizeof(u));
  return u;
}

__device__ __forceinline__ PetscScalar SpTrsvSyncFreeValue(SpTrsvSyncFreeWord u)
{
  PetscScalar x;
  memcpy(&x, &u, sizeof(x));
  return x;
}

/* a relaxed load of a solution word at device scope (never through L1) */
__device__ __forceinline__ SpTrsvSyncFreeWord SpTrsvSyncFreeLoad(SpTrsvSyncFreeWord *w)
{
  return cuda::atomic_ref<SpTrsvSyncFreeWord, cuda::thread_scope_device>(*w).load(cuda::memory_order_relaxed);
}

/* wait until x_j is published in this solve's half of xs, and return it; between two polls the lane sleeps
   spin_ns nanoseconds (fewer polls in flight leave the L2 to the rows that can progress) */
__device__ __forceinline__ PetscScalar SpTrsvSyncFreeWait(SpTrsvSyncFreeWord *w, unsigned int spin_ns)
{
  SpTrsvSyncFreeWord u;

  while ((u = SpTrsvSyncFreeLoad(w)) == SPTRSV_SYNCFREE_SENTINEL)
    if (spin_ns) __nanosleep(spin_ns);
  return SpTrsvSyncFreeValue(u);
}

/* the word x is published as: its bits, a NaN at the sentinel's bits as the quiet NaN */
__device__ __forceinline__ SpTrsvSyncFreeWord SpTrsvSyncFreePublished(PetscScalar x)
{
  const SpTrsvSyncFreeWord u = SpTrsvSyncFreeBits(x);
  return u == SPTRSV_SYNCFREE_SENTINEL ? SPTRSV_SYNCFREE_QNAN : u;
}

/* publish x_i (the word pub of this solve's half cur, the sentinel into the other half, the user's x) */
__device__ __forceinline__ void SpTrsvSyncFreePublish(const SpTrsvCUDASyncFree &f, int n, const SpTrsvCUDAVecPtrs &v, SpTrsvSyncFreeWord *cur, unsigned int epoch, int pub, int i, PetscScalar xi)
{
  const SpTrsvSyncFreeWord u = SpTrsvSyncFreePublished(xi);
  cuda::atomic_ref<SpTrsvSyncFreeWord, cuda::thread_scope_device>(cur[pub]).store(u, cuda::memory_order_relaxed); /* first: what the waiting rows read */
  f.xs[(size_t)((epoch + 1u) & 1u) * (size_t)n + pub] = SPTRSV_SYNCFREE_SENTINEL; /* for the next solve */
  v.x[i] = xi;
}

/* the rows of warp w in the solve of the given epoch (see the file header) */
template <bool UNIT, bool ELL, bool NATURAL>
__device__ __forceinline__ void SpTrsvSyncFreeWarp(const SpTrsvCUDATri &t, const SpTrsvCUDASyncFree &f, int n, const SpTrsvCUDAVecPtrs &v, int w, unsigned int epoch)
{
  const int           lane = threadIdx.x & 31, kw = __ldg(f.wlanes + w);
  const int           K = kw & (SPTRSV_SYNCFREE_TAIL - 1), k0 = __ldg(f.wstart + w), nr = __ldg(f.wstart + w + 1) - k0;
  const bool          tail = (kw & SPTRSV_SYNCFREE_TAIL) != 0;
  const int           g = lane >> (__ffs(K) - 1), e = lane & (K - 1), k = k0 + g;
  const bool          active = g < nr;
  SpTrsvSyncFreeWord *cur    = f.xs + (size_t)(epoch & 1u) * (size_t)n;
  PetscScalar         sum = 0, bi = 0, di = 1;
  int                 i = 0;

  if (active && e == 0) { /* read-only for the launch: load before waiting */
    i  = __ldg(t.order + k);
    bi = v.b[i];
    di = SpTrsvLoadDiag<UNIT>(t, k);
  }
  if (ELL) {
    const int j = __ldg(f.ellidx + 32 * w + lane);
    if (j >= 0) sum = __ldg(f.ellval + 32 * w + lane) * SpTrsvSyncFreeWait(cur + j, f.spin_ns);
    if (tail && active) /* rows longer than K: the entries past the K-th, from the CSR arrays */
      for (int p = __ldg(t.ptr + k) + K + e, q = __ldg(t.ptr + k + 1); p < q; p += K) sum += __ldg(t.val + p) * SpTrsvSyncFreeWait(cur + __ldg(t.idx + p), f.spin_ns);
  } else if (active) {
    for (int p = __ldg(t.ptr + k) + e, q = __ldg(t.ptr + k + 1); p < q; p += K) sum += __ldg(t.val + p) * SpTrsvSyncFreeWait(cur + __ldg(t.idx + p), f.spin_ns);
  }
  if (NATURAL) { /* the group's K lanes only: a later group of the warp may be waiting for this row */
    if (active) {
      const unsigned int mask = K == 32 ? SPTRSV_FULL_MASK : ((1u << K) - 1u) << (g * K);
      for (int d = K >> 1; d > 0; d >>= 1) sum += __shfl_down_sync(mask, sum, d, K);
    }
  } else /* level dispatch: no row of the warp waits for another, the whole warp reconverges here */
    for (int d = K >> 1; d > 0; d >>= 1) sum += __shfl_down_sync(SPTRSV_FULL_MASK, sum, d, K);
  if (active && e == 0) {
    /* the word the rows depending on x_i poll: by position or by row */
    SpTrsvSyncFreePublish(f, n, v, cur, epoch, f.relabel ? k : i, i, SpTrsvFinalize<UNIT, false>(bi - sum, di, 0, 0));
  }
}

#include "syncfree_runs.cuh" /* the runs dispatch's window: SpTrsvSyncFreeRun */

/* One block per ticket (nblocks = nslots, the default): each block takes one ticket, works its slot (warps
   [s W, s W + W), W = block_warps) and exits, so the counter advances by exactly per = nslots per launch. Persistent
   blocks (nblocks < nslots, -mat_sptrsv_blocks_per_sm) take tickets until one carries no work: per launch nslots tickets
   with work and one closing ticket for each block, per = nslots + nblocks. The counter wraps at 2 per (the file header),
   so a ticket gives the solve's parity and the slot without a division. Either way a slot is taken by a running block,
   in ticket order, and started after the block's previous slot is complete (the barrier below), which is the
   deadlock-freedom argument of the header. */
/* the runs kernels with one row per lane fit 4 blocks of SPTRSV_SYNCFREE_WARPS warps (128 registers), so that a batch
   of 16 keeps the 16 blocks per multiprocessor of the automatic residency (SpTrsvSyncFreeAutoBlocks: 2 k with k = 8), and
   with a batch of 4 (7-point rows) 8 blocks (64 registers: the 32 one-warp blocks per multiprocessor that k = 16 needs);
   ptxas spills 16 bytes of the 7-point kernel at its defaults (lean: two doubles, stored before the waits and reloaded
   after them), 40 bytes of its non-lean variant (-mat_sptrsv_run_poll lane, or a pause between polls), none of the
   others' */
template <bool UNIT, bool ELL, bool NATURAL, int RUNS, int BATCH, bool LEAN>
__global__ void __launch_bounds__(SPTRSV_SYNCFREE_WARPS * 32, RUNS == 1 ? (BATCH == 4 ? 8 : 4) : 1) SpTrsvSyncFreeKernel(const SpTrsvCUDATri t, const SpTrsvCUDASyncFree f, int n, SpTrsvCUDAVecPtrs v, const SpTrsvCUDAVecPtrs *vp)
{
  __shared__ unsigned int ticket;
  const bool              persistent = f.nblocks < f.nslots;
  const unsigned int      per        = (unsigned int)f.nslots + (persistent ? (unsigned int)f.nblocks : 0u);

  if (vp) v = *vp;
  for (;;) {
    if (threadIdx.x == 0) ticket = atomicInc(f.ticket, 2u * per - 1u);
    __syncthreads();
    const unsigned int tk = ticket, half = tk >= per ? 1u : 0u, slot = tk - half * per;
    if (persistent) __syncthreads(); /* every thread has read the ticket before thread 0 takes the next one */
    if (slot >= (unsigned int)f.nslots) break; /* a persistent block's closing ticket: uniform over the block */
    {
      const int w = (int)slot * f.block_warps + (int)(threadIdx.x >> 5);
      if (w < f.nwarps) {
        if (RUNS) SpTrsvSyncFreeRun<UNIT, RUNS ? RUNS : 1, RUNS ? BATCH : 4, LEAN>(t, f, n, v, w, half + 1u);
        else SpTrsvSyncFreeWarp<UNIT, ELL, NATURAL>(t, f, n, v, w, half + 1u);
      }
    }
    if (!persistent) break; /* one ticket per block */
  }
}

/* ellval[s] = val[ellpos[s]] (0 in an empty slot) */
__global__ void SpTrsvSyncFreeGatherELL(int nslots, const int *ellpos, const PetscScalar *val, PetscScalar *ellval)
{
  const int s = blockIdx.x * blockDim.x + threadIdx.x;
  if (s < nslots) {
    const int p = ellpos[s];
    ellval[s]   = p >= 0 ? val[p] : (PetscScalar)0;
  }
}

/* the kernel of a launch: one instantiation per (unit diagonal, ELL storage, natural dispatch), and per (unit diagonal,
   rows per lane R, batch B, lean) of runs: B = 4, 8, 16 with R = 1, 8 or 16 with R = 2, 16 with R = 4, 8 (the analysis never
   picks B < min(16, 4 R)); lean: every lane polls without pause (the defaults), the poll options not read at run time */
typedef void (*SpTrsvSyncFreeKernelFn)(const SpTrsvCUDATri, const SpTrsvCUDASyncFree, int, SpTrsvCUDAVecPtrs, const SpTrsvCUDAVecPtrs *);

template <bool UNIT>
static SpTrsvSyncFreeKernelFn SpTrsvSyncFreeRunsKernelOf(int R, int B, bool lean)
{
  #define SPTRSV_SYNCFREE_RUNS_FN(R_, B_) (lean ? SpTrsvSyncFreeKernel<UNIT, false, true, R_, B_, true> : SpTrsvSyncFreeKernel<UNIT, false, true, R_, B_, false>)
  switch (R) {
  case 1: return B == 4 ? SPTRSV_SYNCFREE_RUNS_FN(1, 4) : (B == 8 ? SPTRSV_SYNCFREE_RUNS_FN(1, 8) : SPTRSV_SYNCFREE_RUNS_FN(1, 16));
  case 2: return B == 8 ? SPTRSV_SYNCFREE_RUNS_FN(2, 8) : SPTRSV_SYNCFREE_RUNS_FN(2, 16);
  case 4: return SPTRSV_SYNCFREE_RUNS_FN(4, 16);
  default: return SPTRSV_SYNCFREE_RUNS_FN(8, 16);
  }
  #undef SPTRSV_SYNCFREE_RUNS_FN
}

template <bool UNIT>
static SpTrsvSyncFreeKernelFn SpTrsvSyncFreeRowsKernelOf(bool ell, bool natural)
{
  if (ell) return natural ? SpTrsvSyncFreeKernel<UNIT, true, true, 0, 0, false> : SpTrsvSyncFreeKernel<UNIT, true, false, 0, 0, false>;
  return natural ? SpTrsvSyncFreeKernel<UNIT, false, true, 0, 0, false> : SpTrsvSyncFreeKernel<UNIT, false, false, 0, 0, false>;
}

static SpTrsvSyncFreeKernelFn SpTrsvSyncFreeKernelOf(const SpTrsvCUDASyncFree *f, PetscBool unit)
{
  const bool lean = f->poll_all && !f->spin_ns;

  if (f->run_rows) return unit ? SpTrsvSyncFreeRunsKernelOf<true>(f->run_rows, f->run_batch, lean) : SpTrsvSyncFreeRunsKernelOf<false>(f->run_rows, f->run_batch, lean);
  return unit ? SpTrsvSyncFreeRowsKernelOf<true>(f->ellidx != NULL, f->natural != PETSC_FALSE) : SpTrsvSyncFreeRowsKernelOf<false>(f->ellidx != NULL, f->natural != PETSC_FALSE);
}

static cudaError_t SpTrsvCUDASyncFreeLaunch(const SpTrsvCUDATriData *d, PetscBool sweep, SpTrsvCUDAVecPtrs v, const SpTrsvCUDAVecPtrs *vp, cudaStream_t st)
{
  const SpTrsvCUDASyncFree *f = (const SpTrsvCUDASyncFree *)d->path;

  if (sweep) return cudaErrorNotSupported;
  SpTrsvSyncFreeKernelOf(f, d->unit)<<<(unsigned int)f->nblocks, (unsigned int)f->block_warps * 32, 0, st>>>(d->tri, *f, (int)d->n, v, vp);
  return cudaGetLastError();
}

/* persistent blocks per multiprocessor under -mat_sptrsv_blocks_per_sm -1 (automatic; include/sptrsv/paths/syncfree.h): for
   the runs dispatch the smallest power of two k >= SPTRSV_SYNCFREE_RUN_RESIDENT_MIN whose blocks on all nsm
   multiprocessors hold SPTRSV_SYNCFREE_RUN_RESIDENT_DEPTHS depths of windows, when its kernel fits 2 k blocks on one;
   else 0 (one block per ticket), as always for the level dispatch */
static PetscErrorCode SpTrsvSyncFreeAutoBlocks(const SpTrsvSyncFreeSchedule *sf, const SpTrsvCUDASyncFree *f, PetscBool unit, int nsm, PetscInt *k)
{
  int    occ = 0;
  double need;

  PetscFunctionBegin;
  *k = 0;
  if (!sf->runs || sf->run_depth <= 0 || nsm <= 0) PetscFunctionReturn(PETSC_SUCCESS);
  SpTrsvCUDACall(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ, SpTrsvSyncFreeKernelOf(f, unit), f->block_warps * 32, 0));
  need = SPTRSV_SYNCFREE_RUN_RESIDENT_DEPTHS * ((double)sf->nwarps / (double)sf->run_depth) / ((double)f->block_warps * (double)nsm);
  for (*k = SPTRSV_SYNCFREE_RUN_RESIDENT_MIN; (double)*k < need; *k *= 2) { }
  if (2 * *k > occ) *k = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static cudaError_t SpTrsvCUDASyncFreeGather(const SpTrsvCUDATriData *d, cudaStream_t st)
{
  const SpTrsvCUDASyncFree *f = (const SpTrsvCUDASyncFree *)d->path;
  const int                 m = 32 * f->nwarps;

  if (!f->ellidx || !m) return cudaSuccess;
  SpTrsvSyncFreeGatherELL<<<(m + SPTRSV_CUDA_VEC_BLOCK - 1) / SPTRSV_CUDA_VEC_BLOCK, SPTRSV_CUDA_VEC_BLOCK, 0, st>>>(m, f->ellpos, d->d_val, f->ellval);
  return cudaGetLastError();
}

#else

static cudaError_t SpTrsvCUDASyncFreeLaunch(const SpTrsvCUDATriData *d, PetscBool sweep, SpTrsvCUDAVecPtrs v, const SpTrsvCUDAVecPtrs *vp, cudaStream_t st)
{
  return cudaErrorNotSupported;
}

static PetscErrorCode SpTrsvSyncFreeAutoBlocks(const SpTrsvSyncFreeSchedule *sf, const SpTrsvCUDASyncFree *f, PetscBool unit, int nsm, PetscInt *k)
{
  PetscFunctionBegin;
  *k = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static cudaError_t SpTrsvCUDASyncFreeGather(const SpTrsvCUDATriData *d, cudaStream_t st)
{
  return cudaErrorNotSupported;
}
#endif

/* one launch per solve */
static PetscInt SpTrsvCUDASyncFreeLaunches(const SpTrsvCUDATriData *d, PetscBool sweep)
{
  return 1;
}

static PetscErrorCode SpTrsvCUDASyncFreeDestroy(SpTrsvCUDATriData *d)
{
  SpTrsvCUDASyncFree *f = (SpTrsvCUDASyncFree *)d->path;

  PetscFunctionBegin;
  if (!f) PetscFunctionReturn(PETSC_SUCCESS);
  SpTrsvCUDACall(SpTrsvCUDAFree((void *)f->wstart));
  SpTrsvCUDACall(SpTrsvCUDAFree((void *)f->wlanes));
  SpTrsvCUDACall(SpTrsvCUDAFree((void *)f->ellidx));
  SpTrsvCUDACall(SpTrsvCUDAFree(f->ellval));
  SpTrsvCUDACall(SpTrsvCUDAFree((void *)f->ellpos));
  SpTrsvCUDACall(SpTrsvCUDAFree(f->xs));
  SpTrsvCUDACall(SpTrsvCUDAFree(f->ticket));
  PetscCall(PetscFree(d->path));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the ELL image's indices and the CSR slots its values come from, from the analysis's map (checked
   against the plan-order CSR that device_tri.cu uploaded) */
static PetscErrorCode SpTrsvCUDASyncFreeSetupELL(const SpTrsvSyncFreeSchedule *sf, SpTrsvCUDATriData *d, int **d_idx, int **d_pos, cudaStream_t st)
{
  const PetscInt m = 32 * sf->nwarps;
  int           *idx, *pos;

  PetscFunctionBegin;
  PetscCall(SpTrsvSyncFreeCheckELL(sf->nwarps));
  PetscCall(PetscMalloc2(m + 1, &idx, m + 1, &pos));
  for (PetscInt w = 0; w < sf->nwarps; w++) {
    const int K = sf->wlanes[w] & (SPTRSV_SYNCFREE_TAIL - 1);
    for (int lane = 0; lane < 32; lane++) {
      const PetscInt s = 32 * w + lane, k = sf->wstart[w] + lane / K;
      idx[s] = pos[s] = -1;
      if (sf->ellmap[s] < 0) continue;
      pos[s] = d->h_ptr[k] + lane % K;
      idx[s] = d->h_idx[pos[s]];
      PetscCheck(pos[s] < d->h_ptr[k + 1] && d->vmap[pos[s]] == sf->ellmap[s], PETSC_COMM_SELF, PETSC_ERR_PLIB, "Sync-free ELL image: slot %" PetscInt_FMT " does not match the triangle's entry", s);
    }
  }
  PetscCall(SpTrsvCUDAMallocInt(d_idx, m, idx, st));
  PetscCall(SpTrsvCUDAMallocInt(d_pos, m, pos, st));
  SpTrsvCUDACall(cudaStreamSynchronize(st)); /* idx and pos may be freed */
  PetscCall(PetscFree2(idx, pos));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* relabel: the column indices of the triangle in dispatch order become the dispatch positions of those columns
   (the kernel polls xs[position]); re-uploaded into the same device array, before the ELL image reads them. With
   sort (the runs dispatch) each row's entries go by ascending position, the values' map along: the latest
   dependencies of a row come in its last batch of loads, the earlier batches load while the window waits (in U's
   own order a sorted row is descending: its first batch waited, then every later batch cost a memory round trip
   after the wait) */
static PetscErrorCode SpTrsvCUDASyncFreeRelabel(SpTrsvCUDATriData *d, PetscBool sort, cudaStream_t st)
{
  int *pos;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(d->n + 1, &pos));
  for (PetscInt k = 0; k < d->n; k++) pos[d->horder[k]] = (int)k;
  for (PetscInt q = 0; q < d->nnz; q++) d->h_idx[q] = pos[d->h_idx[q]];
  if (sort)
    for (PetscInt k = 0; k < d->n; k++) SpTrsvSyncFreeSortRow(d->h_idx + d->h_ptr[k], d->vmap + d->h_ptr[k], (int)(d->h_ptr[k + 1] - d->h_ptr[k]));
  if (d->nnz) SpTrsvCUDACall(cudaMemcpyAsync(d->d_idx, d->h_idx, (size_t)d->nnz * sizeof(int), cudaMemcpyHostToDevice, st));
  SpTrsvCUDACall(cudaStreamSynchronize(st)); /* h_idx is pageable: the copy is complete before it changes */
  PetscCall(PetscFree(pos));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the rest of the setup, whoever built the schedule (host analysis or device analysis): the warps and the ELL
   image (device arrays, taken over), xs at the sentinel, the ticket counter at 0, then the values and graphs */
static PetscErrorCode SpTrsvCUDASyncFreeSetupFinish(SpTrsvSolver s, SpTrsvCUDATriData *d, int *d_ws, int *d_wl, int *d_ellidx, int *d_ellpos, cudaStream_t st)
{
  const SpTrsvSyncFreeSchedule *sf = (const SpTrsvSyncFreeSchedule *)s->plan->data;
  SpTrsvCUDASyncFree           *f;
  int                           nsm = 0;

  PetscFunctionBegin;
  if (!d->path) { /* the device analysis: the state is made here (a host schedule attached it before its uploads) */
    PetscCall(PetscNew(&f));
    d->path         = f;
    d->path_destroy = SpTrsvCUDASyncFreeDestroy;
  }
  f = (SpTrsvCUDASyncFree *)d->path;
  if (d_ws) f->wstart = d_ws;
  if (d_wl) f->wlanes = d_wl;
  if (d_ellidx) f->ellidx = d_ellidx;
  if (d_ellpos) f->ellpos = d_ellpos;
  f->nwarps       = (int)sf->nwarps;
  if (sf->runs || sf->blocks_per_sm) {
    int dev;
    SpTrsvCUDACall(cudaGetDevice(&dev));
    SpTrsvCUDACall(cudaDeviceGetAttribute(&nsm, cudaDevAttrMultiProcessorCount, dev));
  }
  if (sf->runs && !sf->block_warps_req) /* automatic: two windows per block and ticket on a wide wavefront (SPTRSV_SYNCFREE_RUN_PAIR_WIDTH); what -ksp_view reports */
    ((SpTrsvSyncFreeSchedule *)s->plan->data)->block_warps = SpTrsvSyncFreeRunBlockWarps(sf->nwarps, sf->run_depth, nsm);
  PetscCheck(sf->block_warps >= 1 && sf->block_warps <= SPTRSV_SYNCFREE_WARPS, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Sync-free: %" PetscInt_FMT " warps per block", sf->block_warps);
  f->block_warps  = (int)sf->block_warps;
  f->nslots       = (int)((sf->nwarps + sf->block_warps - 1) / sf->block_warps);
  f->nblocks      = f->nslots;
  f->spin_ns      = (unsigned int)sf->spin_ns;
  f->natural      = sf->natural;
  f->relabel      = (PetscBool)(sf->relabel || sf->runs); /* runs: SpTrsvCUDASyncFreeSetup relabelled */
  f->run_rows     = sf->runs ? (int)sf->run_rows : 0;
  f->poll_all     = sf->run_poll_all ? 1 : 0;
  f->run_batch    = sf->runs ? (int)sf->run_batch : 0;
  PetscCheck(!sf->runs || SpTrsvSyncFreeRunBatchValid(f->run_batch, f->run_rows), PETSC_COMM_SELF, PETSC_ERR_PLIB, "Sync-free runs: no kernel for batches of %d entries with %d rows per lane", f->run_batch, f->run_rows);
  {
    PetscInt k = sf->blocks_per_sm;
    if (k) { /* persistent blocks: at most k per multiprocessor, never more than the slots */
      if (k < 0) PetscCall(SpTrsvSyncFreeAutoBlocks(sf, f, d->unit, nsm, &k));
      if (k > 0) f->nblocks = (int)PetscMin((PetscInt)f->nslots, k * (PetscInt)nsm);
    }
    ((SpTrsvSyncFreeSchedule *)s->plan->data)->blocks_per_sm_launch = k; /* what -ksp_view reports (the plan's own record of its launch) */
  }
  PetscCheck(2 * ((PetscInt64)f->nslots + (PetscInt64)f->nblocks) <= (PetscInt64)UINT_MAX, PETSC_COMM_SELF, PETSC_ERR_INT_OVERFLOW, "Sync-free: %d tickets per solve, above the 32-bit ticket counter's wrap", f->nslots + f->nblocks);
  if (f->ellidx) PetscCall(SpTrsvCUDAMalloc((void **)&f->ellval, (32 * (size_t)sf->nwarps + 1) * sizeof(PetscScalar), "f->ellval"));
  PetscCall(SpTrsvCUDAMalloc((void **)&f->xs, (2 * (size_t)d->n + 1) * sizeof(SpTrsvSyncFreeWord), "f->xs"));
  SpTrsvCUDACall(cudaMemsetAsync(f->xs, 0xFF, (2 * (size_t)d->n + 1) * sizeof(SpTrsvSyncFreeWord), st)); /* the sentinel: all ones */
  PetscCall(SpTrsvCUDAMalloc((void **)&f->ticket, sizeof(unsigned int), "f->ticket"));
  SpTrsvCUDACall(cudaMemsetAsync(f->ticket, 0, sizeof(unsigned int), st));
  PetscCall(SpTrsvCUDATriSetupEnd(s));
  if (!s->tri->values_unset) SpTrsvCUDACall(SpTrsvCUDASyncFreeGather(d, st)); /* else the numeric phase gathers */
  SpTrsvCUDACall(cudaStreamSynchronize(st));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the schedule built on the device (syncfree_analysis.cu): nothing of it is uploaded, the figures come back */
static PetscErrorCode SpTrsvCUDASyncFreeSetupDevice(SpTrsvSolver s)
{
  SpTrsvCUDATriData *d;
  int               *order, *ptr, *idx, *vmap, *ws, *wl, *ellidx, *ellpos;
  PetscLogDouble     t0, t1;
  cudaStream_t       st = NULL;

  PetscFunctionBegin;
  PetscCheck(s->op.n < INT_MAX && s->op.nnz < INT_MAX, PETSC_COMM_SELF, PETSC_ERR_INT_OVERFLOW, "The CUDA kernels use 32-bit indices: n = %" PetscInt_FMT " and nnz = %" PetscInt_FMT " must be below %d", s->op.n, s->op.nnz, INT_MAX);
  PetscCall(SpTrsvCUDAGetStream(&st));
  PetscCall(PetscTime(&t0));
  PetscCall(SpTrsvSyncFreeAnalyzeDevice(&s->op, s->plan, st, &order, &ptr, &idx, &vmap, &ws, &wl, &ellidx, &ellpos));
  PetscCall(PetscTime(&t1));
  s->plan->stats.analysis_time = t1 - t0;
  {
    const PetscErrorCode ierr = SpTrsvCUDATriSetupBeginDevice(s, SpTrsvCUDASyncFreeLaunch, SpTrsvCUDASyncFreeLaunches, order, ptr, idx, vmap, &d);
    if (ierr) { /* the pattern was taken over (the solver's destroy frees it); the schedule was not */
      SpTrsvCUDACall(SpTrsvCUDAFree(ws));
      SpTrsvCUDACall(SpTrsvCUDAFree(wl));
      SpTrsvCUDACall(SpTrsvCUDAFree(ellidx));
      SpTrsvCUDACall(SpTrsvCUDAFree(ellpos));
      PetscCall(ierr);
    }
  }
  PetscCall(SpTrsvCUDASyncFreeSetupFinish(s, d, ws, wl, ellidx, ellpos, st));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the runs dispatch with its pattern built on the device (syncfree_runs_setup.cu): the host's windows uploaded, the
   pattern in their order and the schedule check there */
static PetscErrorCode SpTrsvCUDASyncFreeSetupRuns(SpTrsvSolver s)
{
  const SpTrsvSyncFreeSchedule *sf = (const SpTrsvSyncFreeSchedule *)s->plan->data;
  SpTrsvCUDATriData            *d;
  int                          *d_ws = NULL, *d_wl = NULL, *order, *ptr, *idx, *vmap;
  cudaStream_t                  st = NULL;
  PetscErrorCode                ierr;

  PetscFunctionBegin;
  PetscCheck(sf->nwarps < INT_MAX, PETSC_COMM_SELF, PETSC_ERR_INT_OVERFLOW, "Sync-free runs: %" PetscInt_FMT " windows, above the 32-bit indices of the CUDA kernels", sf->nwarps);
  PetscCall(SpTrsvCUDAGetStream(&st));
  PetscCall(SpTrsvCUDAUploadIndices(sf->wstart, sf->nwarps + 1, &d_ws, st));
  ierr = SpTrsvCUDAMallocInt(&d_wl, sf->nwarps, sf->wlanes, st);
  if (!ierr) ierr = SpTrsvSyncFreeRunsPatternDevice(&s->op, sf, d_ws, d_wl, st, &order, &ptr, &idx, &vmap);
  if (!ierr) ierr = SpTrsvCUDATriSetupBeginDevice(s, SpTrsvCUDASyncFreeLaunch, SpTrsvCUDASyncFreeLaunches, order, ptr, idx, vmap, &d); /* on an error the pattern was taken over (the solver's destroy frees it) */
  if (ierr) { /* the windows were not taken over */
    (void)cudaStreamSynchronize(st);
    SpTrsvCUDACall(SpTrsvCUDAFree(d_ws));
    SpTrsvCUDACall(SpTrsvCUDAFree(d_wl));
    PetscCall(ierr);
  }
  PetscCall(SpTrsvCUDASyncFreeSetupFinish(s, d, d_ws, d_wl, NULL, NULL, st));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the triangle in dispatch order, the warps, the ELL image, xs at the sentinel, the ticket counter at 0 */
static PetscErrorCode SpTrsvCUDASyncFreeSetup(SpTrsvSolver s)
{
  const SpTrsvSyncFreeSchedule *sf = (const SpTrsvSyncFreeSchedule *)s->plan->data;
  SpTrsvCUDATriData            *d;
  SpTrsvCUDASyncFree           *f;
  int                          *ws, *d_ws = NULL, *d_wl = NULL, *d_ellidx = NULL, *d_ellpos = NULL;
  cudaStream_t                  st = NULL;
  PetscErrorCode                ierr;

  PetscFunctionBegin;
  PetscCheck(s->format == SPTRSV_FORMAT_CSR && !s->rest, PETSC_COMM_SELF, PETSC_ERR_SUP, "sptrsv_syncfree solves with rows (CSR) and runs no sweeps");
  if (sf->device) {
    PetscCall(SpTrsvCUDASyncFreeSetupDevice(s));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (sf->runs && sf->pattern_device) {
    PetscCall(SpTrsvCUDASyncFreeSetupRuns(s));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (sf->runs) PetscCall(SpTrsvSyncFreeScheduleCheck(&s->op, s->plan)); /* what the runs kernel's deadlock freedom rests on */
  PetscCall(SpTrsvCUDATriSetupBegin(s, SpTrsvCUDASyncFreeLaunch, SpTrsvCUDASyncFreeLaunches, &d));
  PetscCall(SpTrsvCUDAGetStream(&st));
  PetscCall(PetscNew(&f)); /* attached first, each array as soon as it exists: a failed allocation leaves nothing behind */
  d->path         = f;
  d->path_destroy = SpTrsvCUDASyncFreeDestroy;
  PetscCall(PetscMalloc1(sf->nwarps + 1, &ws));
  for (PetscInt w = 0; w <= sf->nwarps; w++) ws[w] = (int)sf->wstart[w];
  ierr = SpTrsvCUDAMallocInt(&d_ws, sf->nwarps + 1, ws, st);
  f->wstart = d_ws;
  if (!ierr) {
    ierr      = SpTrsvCUDAMallocInt(&d_wl, sf->nwarps, sf->wlanes, st);
    f->wlanes = d_wl;
  }
  if (!ierr && (sf->relabel || sf->runs)) ierr = SpTrsvCUDASyncFreeRelabel(d, sf->runs, st); /* runs: a window's chain entries are told by position */
  if (!ierr && sf->warpell) {
    ierr      = SpTrsvCUDASyncFreeSetupELL(sf, d, &d_ellidx, &d_ellpos, st);
    f->ellidx = d_ellidx;
    f->ellpos = d_ellpos;
  }
  if (!ierr) ierr = cudaStreamSynchronize(st) == cudaSuccess ? PETSC_SUCCESS : PETSC_ERR_GPU; /* ws may be freed */
  PetscCall(PetscFree(ws));
  PetscCall(ierr);
  PetscCall(SpTrsvCUDASyncFreeSetupFinish(s, d, NULL, NULL, NULL, NULL, st));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvCUDASyncFreeGetSchedule - the schedule a CUDA sync-free solver runs, downloaded (for the device check):
  nwarps, order (n), ptr (n + 1), idx (nnz), wstart (nwarps + 1), wlanes (nwarps), ellidx and ellpos (32 nwarps; NULL
  without warpell), vmap (nnz; NULL when the triangle's values were uploaded in dispatch order)
*/
PetscErrorCode SpTrsvCUDASyncFreeGetSchedule(SpTrsvSolver s, PetscInt *nwarps, int **order, int **ptr, int **idx, int **wstart, int **wlanes, int **ellidx, int **ellpos, int **vmap)
{
  const SpTrsvCUDATriData  *d = (const SpTrsvCUDATriData *)s->bdata;
  const SpTrsvCUDASyncFree *f = (const SpTrsvCUDASyncFree *)d->path;
  const PetscInt            n = d->n, nnz = d->nnz, nw = f->nwarps;

  PetscFunctionBegin;
  *nwarps = nw;
  PetscCall(PetscMalloc1(n + 1, order));
  PetscCall(PetscMalloc1(n + 1, ptr));
  PetscCall(PetscMalloc1(nnz + 1, idx));
  PetscCall(PetscMalloc1(nw + 1, wstart));
  PetscCall(PetscMalloc1(nw + 1, wlanes));
  SpTrsvCUDACall(cudaMemcpy(*order, d->d_order, (size_t)n * sizeof(int), cudaMemcpyDeviceToHost));
  SpTrsvCUDACall(cudaMemcpy(*ptr, d->d_ptr, (size_t)(n + 1) * sizeof(int), cudaMemcpyDeviceToHost));
  SpTrsvCUDACall(cudaMemcpy(*idx, d->d_idx, (size_t)nnz * sizeof(int), cudaMemcpyDeviceToHost));
  SpTrsvCUDACall(cudaMemcpy(*wstart, f->wstart, (size_t)(nw + 1) * sizeof(int), cudaMemcpyDeviceToHost));
  SpTrsvCUDACall(cudaMemcpy(*wlanes, f->wlanes, (size_t)nw * sizeof(int), cudaMemcpyDeviceToHost));
  *ellidx = *ellpos = *vmap = NULL;
  if (f->ellidx) {
    PetscCall(PetscMalloc1(32 * (size_t)nw + 1, ellidx));
    SpTrsvCUDACall(cudaMemcpy(*ellidx, f->ellidx, 32 * (size_t)nw * sizeof(int), cudaMemcpyDeviceToHost));
  }
  if (f->ellpos) {
    PetscCall(PetscMalloc1(32 * (size_t)nw + 1, ellpos));
    SpTrsvCUDACall(cudaMemcpy(*ellpos, f->ellpos, 32 * (size_t)nw * sizeof(int), cudaMemcpyDeviceToHost));
  }
  if (d->d_vmap) {
    PetscCall(PetscMalloc1(nnz + 1, vmap));
    SpTrsvCUDACall(cudaMemcpy(*vmap, d->d_vmap, (size_t)nnz * sizeof(int), cudaMemcpyDeviceToHost));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* new values: the CSR values (device_tri.cu), then the ELL image from them, on the device */
static PetscErrorCode SpTrsvCUDASyncFreeUpdateValues(SpTrsvSolver s)
{
  cudaStream_t st = NULL;

  PetscFunctionBegin;
  PetscCall(SpTrsvCUDATriUpdateValues(s));
  PetscCall(SpTrsvCUDAGetStream(&st));
  SpTrsvCUDACall(SpTrsvCUDASyncFreeGather((SpTrsvCUDATriData *)s->bdata, st));
  SpTrsvCUDACall(cudaStreamSynchronize(st));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* new values already on the device (GPU numeric factorization): the CSR values, then the ELL image, on the stream of
   the solves (SpTrsvCUDATriUpdateValuesDevice) */
static PetscErrorCode SpTrsvCUDASyncFreeUpdateValuesDevice(SpTrsvSolver s, const PetscScalar *a, const PetscScalar *d, const PetscScalar *r)
{
  cudaStream_t st = NULL;

  PetscFunctionBegin;
  PetscCall(SpTrsvCUDATriUpdateValuesDevice(s, a, d, r));
  PetscCall(SpTrsvCUDAGetStream(&st));
  SpTrsvCUDACall(SpTrsvCUDASyncFreeGather((SpTrsvCUDATriData *)s->bdata, st)); /* no wait: as the CSR values above */
  PetscFunctionReturn(PETSC_SUCCESS);
}

const SpTrsvExecutor SpTrsvExecCUDA_syncfree = {SpTrsvCUDASyncFreeSetup, SpTrsvCUDASyncFreeUpdateValues, SpTrsvCUDATriSolve, NULL, SpTrsvCUDATriDestroy, SpTrsvCUDASyncFreeUpdateValuesDevice};
