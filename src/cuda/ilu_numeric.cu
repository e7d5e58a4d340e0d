/*
   Numeric ILU(k) on the GPU: the arithmetic of SpTrsvILUNumericRows() (src/mat/factor/iluk.c, which
   reproduces PETSc's MatLUFactorNumeric_SeqAIJ) on the pattern of the host's symbolic phase. The driver
   (src/mat/factor/ilu_device.c) applies PETSc's shift rules around the passes made here.

   Storage. F = [L strict | pivots | U strict]: L(i,:) is F[li[i] .. li[i+1]) (L->a's order), the pivot of
   row i is F[nnzL + i], U(i,:) is F[nnzL + n + ui[i] ..) (U->a's order); so L->a and U->a are sub-arrays of
   F and the executors read them in place. idiag[i] = 1 / pivot of row i (U->idiag).

   One pass:
   1. gather: F = 0, then F[amap[p]] = a[p] for every nonzero p of A's CSR (row r[i] of A goes to factored
      row i, column c to ic[c]); the first non-finite a[p] is flagged (atomicMin of its position).
   2. elimination: a warp per factored row i, rows handed out by an atomic ticket in increasing order.
      The pivot gets the diagonal shift (w_i += shift_amount, as the host), then for each k in L(i,:)
      ascending, one after the other (__syncwarp between two k):
          if F(i,k) != 0:  wait for row k;  mult = F(i,k) * idiag[k];  F(i,k) = mult;
                           the lanes run over U(k,:): F(i,j) -= mult * U(k,j) when j is in row i's pattern
                           (binary search; no match = dropped fill, as the host's unused slots of w)
      Every entry gets the host's operations in the host's order (FMA contraction aside): the updates of
      one entry come from increasing k, and the exactly zero multipliers are skipped as on the host.
      Then lane 0 checks the pivot (SpTrsvShiftCheckPivot()'s rules): NONE records the first (atomicMin)
      and the last (atomicMin of ~row) zero pivot and goes on with 1/pivot; NONZERO and POSITIVE_DEFINITE
      flag the first failing row (atomicMin), keep its rs (sum of |L(i,:)| then |U(i,:)|, summed in the
      host's order) in its idiag slot for the driver, and a row that starts after a smaller row failed skips
      its work (it still publishes; no row below a failing one skips, so the minimum is exact); INBLOCKS
      adds the amount to the pivot and counts. Finally the lanes look for a non-finite value in the row
      (the first one in row order wins), and the row is published.

   Deadlock freedom. Ticket t is row o(t): t itself, or order[t] when the driver passes the level order
   (-mat_sptrsv_factor_device_order level), rows by level of L's DAG; either way a topological order: row o(t)
   waits only for rows k in L(o(t),:), which have smaller tickets. Tickets are taken in increasing order by
   warps that are running, and a warp keeps running until its row is published; a warp takes one ticket only.
   Let t be the smallest ticket whose row is never published. If ticket t was never taken, every ticket taken
   is below t, so every warp that took one publishes and exits, its block ends, and the grid's remaining
   blocks (one warp per row is launched) start and take tickets up to t: a contradiction. So ticket t was
   taken and its warp runs; every row it waits for has a smaller ticket, hence is published, so its waits end
   and it publishes: a contradiction. The warp's lanes diverge only inside the wait (lane 0 polls) and
   within the updates, which wait on nothing; independent thread scheduling (sm_70+) lets the other warps
   of a block progress while one spins. A row whose dependency is complete always proceeds; nothing waits
   on a row whose predecessor failed (a failing row and the rows that skip their work still publish).

   Memory ordering (PTX memory model, device scope). Writer (row k): its lanes store U(k,:) and idiag[k] (what
   later rows read), then __syncwarp(), then lane 0 stores done[k] = epoch with a release store (st.release.gpu). The
   warp barrier orders every lane's stores before lane 0's later operations (bar.warp.sync: memory ordering among
   the threads that take part), and a release is cumulative: everything that precedes it in causality order, the
   other lanes' stores included, is visible to a thread whose acquire reads the flag. So one fence per row, lane 0's
   (a __threadfence() in every lane before the barrier, as before, put a second full fence on the critical path).
   L(k,:) and the pivot, which no other row reads, and the non-finite check (atomics on flags the driver reads after
   the kernel) come after the flag, off the path to the rows that wait for row k. Reader (row i): lane 0 polls done[k] with
   acquire loads until it reads this pass's epoch, then __syncwarp(); all lanes then read U(k,:) and
   idiag[k] with __ldcg (L2, never a stale L1 line). done[] is tagged with the pass's epoch (a counter
   kept on the host and passed to each launch), so it is never reset, except when the counter wraps.
   Row i's own entries are written and read by its own warp only, ordered by __syncwarp(). With
   -mat_sptrsv_factor_device_rows shared the warp copies row i (values and columns) into its own slice of the block's
   shared memory before its first wait, works there, and its lanes store U(i,:) back into F before the
   warp barrier above (L(i,:) and the pivot after the flag), so readers of row i see F as without it; no other
   warp touches that slice. The slots a step updates are found from the patterns one step ahead: step p + 1's
   binary searches run before the wait of step p.

   The flags and their encoding are shared with the host emulation of these passes (include/sptrsv/ilu_device.h,
   src/mat/factor/ilu_emul.c, which the host tests run through the same driver): a change to the row body here
   is made there too.
*/
#include <sptrsv/ilu_device.h>
#include "cuda_upload.h"
#include "row_ops.cuh" /* SpTrsvLoadAcquire, SpTrsvStoreRelease */
#include <climits>

#define ILU_WARPS 4 /* warps per block of the elimination */
#define ILU_NONE  SPTRSV_ILU_NONE

typedef struct {
  int                 n, nnzA, nnzL, nnzU, nnzF;
  int                *idx;                      /* one allocation for the index arrays below */
  int                *li, *lj, *ui, *uj, *amap; /* device pattern and value map */
  int                *ai, *adiag;               /* A's row pointers and diagonal positions (the shift top) */
  int                *order;                    /* the rows in ticket order, in idx (NULL: increasing rows) */
  PetscScalar        *F, *idiag, *stage;        /* idiag follows F in F's allocation */
  const PetscScalar  *input; /* A's values on the device for the passes: a MATSEQAIJCUSPARSE's array or stage */
  unsigned int       *done, epoch;
  int                *ticket;
  PetscBool           shared; /* -mat_sptrsv_factor_device_rows shared: rows eliminated in shared memory */
  int                 pad;    /* dynamic shared memory per block of the elimination that caps its resident blocks per SM
                                 (-mat_sptrsv_factor_device_blocks_per_sm; 0: no cap) */
  unsigned long long *flags;  /* done and ticket follow flags in its allocation */
  unsigned long long *hflags; /* their host copy, in pinned memory (read after every pass) */
  cudaStream_t        stream;
} SpTrsvCUDAILU;

/* a thread per row: the map of ILU(0) in the natural ordering (amap NULL at create, see SpTrsvILUDeviceOps): row i of
   A is L(i,:), the pivot, U(i,:) */
__global__ void SpTrsvILUNaturalMapKernel(int n, int nnzL, const int *__restrict__ ai, const int *__restrict__ adiag, const int *__restrict__ li, const int *__restrict__ ui, int *__restrict__ amap)
{
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const int s = ai[i], d = adiag[i], e = ai[i + 1], l = li[i] - s, u = nnzL + n + ui[i] - d - 1;
  for (int p = s; p < d; p++) amap[p] = l + p;
  amap[d] = nnzL + i;
  for (int p = d + 1; p < e; p++) amap[p] = u + p;
}

#if defined(SPTRSV_CUDA_SCALAR_OK)
/* also resets the flags of the elimination that the gather does not touch (F_BAD, F_FAIL, F_ZFST, F_ZLST are set by the
   memset before it) and the ticket: one launch instead of a memset each; launched with at least one thread */
__global__ void SpTrsvILUGatherKernel(int nnzA, const int *__restrict__ amap, const PetscScalar *__restrict__ a, PetscScalar *__restrict__ F, unsigned long long *flags, int *ticket)
{
  const int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p == 0) {
    flags[SPTRSV_ILU_F_NINB] = 0;
    flags[SPTRSV_ILU_F_NFL]  = SPTRSV_ILU_NONE;
    flags[SPTRSV_ILU_F_NFU]  = SPTRSV_ILU_NONE;
    *ticket                  = 0;
  }
  if (p >= nnzA) return;
  const PetscScalar v = a[p];
  if (!isfinite(v)) atomicMin(&flags[SPTRSV_ILU_F_BAD], ((unsigned long long)p << 1) | (isnan(v) ? 1ull : 0ull));
  F[amap[p]] = v;
}

/* a thread per row of A: sum_j |a_ij| - |a_ii| - Re(a_ii), summed as SpTrsvShiftSetUp() */
__global__ void SpTrsvILUShiftTopKernel(int n, const int *__restrict__ ai, const int *__restrict__ adiag, const PetscScalar *__restrict__ a, unsigned long long *flags)
{
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const PetscScalar d  = a[adiag[i]];
  PetscReal         rs = -fabs(d) - d;
  for (int p = ai[i]; p < ai[i + 1]; p++) rs += fabs(a[p]);
  if (rs > 0) atomicMax(&flags[SPTRSV_ILU_F_TOP], (unsigned long long)__double_as_longlong((double)rs)); /* positive doubles order as their bits */
}

/* position of column j in the sorted cols[lo, hi), or -1 (cols: global or shared memory, read-only in the kernel) */
__device__ __forceinline__ int SpTrsvILUFind(const int *cols, int lo, int hi, int j)
{
  while (lo < hi) {
    const int mid = lo + (hi - lo) / 2, c = cols[mid];
    if (c < j) lo = mid + 1;
    else if (c > j) hi = mid;
    else return mid;
  }
  return -1;
}

struct SpTrsvILUArgs {
  int                n, nnzL;
  const int         *order; /* ticket t -> row order[t] (NULL: row t) */
  const int         *li, *lj, *ui, *uj;
  PetscScalar       *F, *idiag;
  unsigned int      *done;
  unsigned int       epoch;
  int               *ticket;
  unsigned long long *flags;
  PetscReal          shift, zeropivot, inblocks;
};

/* row i as its warp sees it during the elimination: L(i,:) values lv[0, nl) with columns lc, the pivot *dv, U(i,:)
   values uv[0, nu) with columns uc; in global memory (F and the pattern in place) or in the warp's shared memory */
struct SpTrsvILURow {
  PetscScalar *lv, *dv, *uv;
  const int   *lc, *uc;
  int          i, nl, nu;
};

/* the slot of row i that entry U(k, j) of an earlier row k updates, after L(i, k) at position p: L(i, j) for j < i
   (a position after p), the pivot, U(i, j); NULL when row i has no slot there (dropped fill). Patterns only: it is
   found before row k is published */
__device__ __forceinline__ PetscScalar *SpTrsvILUTarget(const SpTrsvILURow &r, int p, int j)
{
  int s;

  if (j < r.i) return (s = SpTrsvILUFind(r.lc, p + 1, r.nl, j)) >= 0 ? r.lv + s : NULL;
  if (j == r.i) return r.dv;
  return (s = SpTrsvILUFind(r.uc, 0, r.nu, j)) >= 0 ? r.uv + s : NULL;
}

/* step p of row r's elimination, patterns only: its row k = L(i,:)'s column p, this lane's first position q0 in U(k,:)
   (ends at qe) and the slot of row i that U(k, uj[q0]) updates (NULL: none, or q0 >= qe) */
__device__ __forceinline__ void SpTrsvILUStep(const SpTrsvILUArgs &g, const SpTrsvILURow &r, int p, int lane, int *k, int *q0, int *qe, PetscScalar **t)
{
  *k  = r.lc[p];
  *q0 = __ldg(g.ui + *k) + lane;
  *qe = __ldg(g.ui + *k + 1);
  *t  = *q0 < *qe ? SpTrsvILUTarget(r, p, __ldg(g.uj + *q0)) : NULL;
}

/*
   One warp per row (the file header). SHARED: a row of at most SPTRSV_ILU_ROW_CAP entries (L, pivot, U) is copied
   into the warp's shared memory with its columns before the first wait, eliminated there, and written back to F
   before the row is published (-mat_sptrsv_factor_device_rows shared); longer rows, and every row without SHARED,
   are eliminated in F in place. Either way each entry gets the same operations in the same order, and the slots the
   U(k,:) entries of a step update are found (binary searches of row i's pattern) before the wait for row k: after it,
   only row k's U values and inverted pivot are read.
*/
#define SPTRSV_ILU_ROW_CAP 128
template <int RULE, bool SHARED>
__global__ void __launch_bounds__(32 * ILU_WARPS) SpTrsvILURowsKernel(SpTrsvILUArgs g)
{
  __shared__ PetscScalar sv[SHARED ? ILU_WARPS * SPTRSV_ILU_ROW_CAP : 1];
  __shared__ int         sc[SHARED ? ILU_WARPS * SPTRSV_ILU_ROW_CAP : 1];
  const int              lane = threadIdx.x & 31, wib = threadIdx.x >> 5;
  PetscScalar           *la = g.F, *dg = g.F + g.nnzL, *ua = g.F + g.nnzL + g.n;
  int                    i = 0;

  if (lane == 0) i = atomicAdd(g.ticket, 1);
  i = __shfl_sync(SPTRSV_FULL_MASK, i, 0);
  if (i >= g.n) return; /* the whole warp */
  if (g.order) i = __ldg(g.order + i); /* level order: every row still after the rows it waits for */
  const int  ls = __ldg(g.li + i), le = __ldg(g.li + i + 1), us = __ldg(g.ui + i), ue = __ldg(g.ui + i + 1);
  const bool restart = RULE == SPTRSV_ILU_SHIFT_NONZERO || RULE == SPTRSV_ILU_SHIFT_PD;
  const bool staged  = SHARED && le - ls + 1 + ue - us <= SPTRSV_ILU_ROW_CAP;
  bool       skip    = false;
  SpTrsvILURow r     = {la + ls, dg + i, ua + us, g.lj + ls, g.uj + us, i, le - ls, ue - us};

  /* a smaller row failed: the pass restarts anyway (rows below the first failing one never skip, so the
     first failing row is the host's); lane 0 decides for the warp */
  if (restart && lane == 0) skip = *(volatile unsigned long long *)&g.flags[SPTRSV_ILU_F_FAIL] < (unsigned long long)i;
  skip = __shfl_sync(SPTRSV_FULL_MASK, skip, 0);

  if (!skip) {
    if (staged) { /* the row and its pattern into the warp's shared memory: its values are this warp's alone until it publishes */
      PetscScalar *v = sv + wib * SPTRSV_ILU_ROW_CAP;
      int         *c = sc + wib * SPTRSV_ILU_ROW_CAP;

      for (int q = lane; q < r.nl; q += 32) {
        v[q] = la[ls + q];
        c[q] = __ldg(g.lj + ls + q);
      }
      for (int q = lane; q < r.nu; q += 32) {
        v[r.nl + 1 + q] = ua[us + q];
        c[r.nl + 1 + q] = __ldg(g.uj + us + q);
      }
      if (lane == 0) v[r.nl] = dg[i];
      r.lv = v;
      r.dv = v + r.nl;
      r.uv = v + r.nl + 1;
      r.lc = c;
      r.uc = c + r.nl + 1;
      __syncwarp();
    }
    if (lane == 0) *r.dv += g.shift;
    /* step p's row k, its U(k,:) range and this lane's first slot; found one step ahead (patterns only), so that the
       searches of step p + 1 run while step p waits */
    int          k = 0, q0 = 0, qe = 0;
    PetscScalar *t0 = NULL;
    if (r.nl) SpTrsvILUStep(g, r, 0, lane, &k, &q0, &qe, &t0);
    for (int p = 0; p < r.nl; p++) {
      const int    kc = k, qc = q0, qec = qe;
      PetscScalar *tc = t0;

      if (p + 1 < r.nl) SpTrsvILUStep(g, r, p + 1, lane, &k, &q0, &qe, &t0);
      __syncwarp();
      const PetscScalar wk = r.lv[p];
      if (wk == 0.0) continue; /* the same value in every lane */
      if (lane == 0)
        while (SpTrsvLoadAcquire(g.done + kc) != g.epoch) { }
      __syncwarp();
      const PetscScalar dk = __ldcg(g.idiag + kc), u0 = tc ? __ldcg(ua + qc) : 0.0; /* both loads in flight at once */
      const PetscScalar mult = wk * dk;
      if (lane == 0) r.lv[p] = mult; /* no update of this step targets column k */
      if (tc) *tc -= mult * u0;
      for (int q = qc + 32; q < qec; q += 32) {
        PetscScalar *t = SpTrsvILUTarget(r, p, __ldg(g.uj + q));
        if (t) *t -= mult * __ldcg(ua + q);
      }
    }
    __syncwarp();
    PetscScalar id = 0; /* lane 0: what it stores in idiag[i], kept for the non-finite check below (no reload) */
    if (lane == 0) {
      PetscScalar pv   = *r.dv;
      bool        fail = false;

      if (RULE == SPTRSV_ILU_SHIFT_NONE) {
        if (fabs(pv) <= g.zeropivot && !isnan(pv)) {
          atomicMin(&g.flags[SPTRSV_ILU_F_ZFST], (unsigned long long)i);
          atomicMin(&g.flags[SPTRSV_ILU_F_ZLST], ~(unsigned long long)i);
        }
      } else if (RULE == SPTRSV_ILU_SHIFT_INBLOCKS) {
        if (fabs(pv) <= g.zeropivot && !isnan(pv)) {
          pv += g.inblocks;
          *r.dv = pv;
          atomicAdd(&g.flags[SPTRSV_ILU_F_NINB], 1ull);
        }
      } else {
        PetscReal rs = 0.0;
        for (int p = 0; p < r.nl; p++) rs += fabs(r.lv[p]);
        for (int p = 0; p < r.nu; p++) rs += fabs(r.uv[p]);
        fail = (RULE == SPTRSV_ILU_SHIFT_NONZERO ? fabs(pv) : pv) <= g.zeropivot * rs && !isnan(pv);
        if (fail) {
          id = rs; /* for the driver: the pass is discarded */
          atomicMin(&g.flags[SPTRSV_ILU_F_FAIL], (unsigned long long)i);
        }
      }
      if (!fail) id = 1.0 / pv;
      g.idiag[i] = id;
      skip = fail;
    }
    skip = __shfl_sync(SPTRSV_FULL_MASK, skip, 0);
    /* what later rows read, U(i,:) (idiag[i] is stored above), back to F before the fence that publishes the row */
    if (staged)
      for (int q = lane; q < r.nu; q += 32) ua[us + q] = r.uv[q];
    __syncwarp(); /* every lane's stores before lane 0's release (the file header: one fence, lane 0's) */
    if (lane == 0) SpTrsvStoreRelease(g.done + i, g.epoch);
    /* after the publication: nothing below is read by another row during the pass (the driver reads it after the
       kernel) */
    if (!skip) { /* the first non-finite value of the row, as SpTrsvTriFindNonFinite() (L, then idiag and U) */
      for (int p = lane; p < r.nl; p += 32)
        if (!isfinite(r.lv[p])) atomicMin(&g.flags[SPTRSV_ILU_F_NFL], ((unsigned long long)i << 32) | (unsigned long long)(p + 1));
      if (lane == 0 && !isfinite(id)) atomicMin(&g.flags[SPTRSV_ILU_F_NFU], (unsigned long long)i << 32);
      for (int p = lane; p < r.nu; p += 32)
        if (!isfinite(r.uv[p])) atomicMin(&g.flags[SPTRSV_ILU_F_NFU], ((unsigned long long)i << 32) | (unsigned long long)(p + 1));
    }
    if (staged) { /* L(i,:) and the pivot back to F (a failing row's too: the driver reads its pivot) */
      for (int q = lane; q < r.nl; q += 32) la[ls + q] = r.lv[q];
      if (lane == 0) dg[i] = *r.dv;
    }
    return;
  }
  __syncwarp();
  if (lane == 0) SpTrsvStoreRelease(g.done + i, g.epoch);
}
#endif

/*
  SpTrsvCUDAILUCreate - upload the pattern of fac (L, U), ai and adiag (A's row pointers and diagonal positions) and
  the map amap (A's nnzA positions -> F) once per pattern, into one device allocation, with one synchronization;
  amap NULL (ILU(0), natural ordering): the map is made here by SpTrsvILUNaturalMapKernel. When PetscInt is int
  each array goes to the device from where it is (a packed host copy would cost a pass over all of them, more
  than the few extra copy calls); otherwise they are converted into one host buffer and copied at once.
*/
static PetscErrorCode SpTrsvCUDAILUDestroy(void **);

/* fills g (allocated by the caller, which destroys it when this fails: nothing made here is left behind) */
#if defined(SPTRSV_CUDA_SCALAR_OK)
/* every shift rule's elimination kernel of one row mode: the launches may ask up to lim bytes of dynamic shared memory,
   and the whole shared-memory carveout is preferred */
template <bool SHARED>
static cudaError_t SpTrsvCUDAILUSetSmemLimits(int lim)
{
  const void *k[] = {(const void *)SpTrsvILURowsKernel<SPTRSV_ILU_SHIFT_NONE, SHARED>, (const void *)SpTrsvILURowsKernel<SPTRSV_ILU_SHIFT_NONZERO, SHARED>, (const void *)SpTrsvILURowsKernel<SPTRSV_ILU_SHIFT_PD, SHARED>, (const void *)SpTrsvILURowsKernel<SPTRSV_ILU_SHIFT_INBLOCKS, SHARED>};
  cudaError_t err = cudaSuccess;

  for (int r = 0; r < 4 && err == cudaSuccess; r++) {
    err = cudaFuncSetAttribute(k[r], cudaFuncAttributeMaxDynamicSharedMemorySize, lim);
    if (err == cudaSuccess) err = cudaFuncSetAttribute(k[r], cudaFuncAttributePreferredSharedMemoryCarveout, (int)cudaSharedmemCarveoutMaxShared);
  }
  return err;
}
#endif

/*
  SpTrsvCUDAILUCapBlocks - at most bps blocks of the elimination resident per multiprocessor: each block asks for enough
  dynamic shared memory (unused by the kernel) that bps + 1 of them do not fit in a multiprocessor's shared memory. Fewer
  warps then poll at once (examples/benchmarks/window_hop.cu measured a window step of the sync-free solve 3-6x cheaper
  with 2 blocks per SM than with 16 when hundreds of chains polled). The ticket order keeps the kernel deadlock-free at
  any residency: a warp takes a ticket only when it runs, and every row it waits for has a smaller ticket.
*/
static PetscErrorCode SpTrsvCUDAILUCapBlocks(SpTrsvCUDAILU *g, int bps)
{
  PetscFunctionBegin;
#if defined(SPTRSV_CUDA_SCALAR_OK)
  int                dev, smsm = 0, optin = 0, reserved = 0;
  cudaFuncAttributes attr;

  SpTrsvCUDACall(cudaGetDevice(&dev));
  SpTrsvCUDACall(cudaDeviceGetAttribute(&smsm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, dev));
  SpTrsvCUDACall(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
  SpTrsvCUDACall(cudaDeviceGetAttribute(&reserved, cudaDevAttrReservedSharedMemoryPerBlock, dev));
  if (g->shared) SpTrsvCUDACall(cudaFuncGetAttributes(&attr, SpTrsvILURowsKernel<SPTRSV_ILU_SHIFT_NONE, true>));
  else SpTrsvCUDACall(cudaFuncGetAttributes(&attr, SpTrsvILURowsKernel<SPTRSV_ILU_SHIFT_NONE, false>));
  g->pad = smsm / (bps + 1) + 1 - reserved - (int)attr.sharedSizeBytes;
  if (g->pad <= 0 || g->pad > optin - (int)attr.sharedSizeBytes) g->pad = 0; /* the cap is above what the threads allow anyway, or out of reach */
  /* the limit the launches may ask up to: the device's opt-in maximum, never this factor's own pad (the attribute is the
     kernel's, shared by every factor: a smaller one set for another factor would make this one's launches fail); and the
     whole carveout, so that the multiprocessor's shared memory is the smsm counted above (with a smaller carveout fewer
     blocks would fit than asked). Both attributes are the kernel's, for the process: a factor without a cap made later
     keeps them (its launches ask for no dynamic shared memory; its L1 is the smaller) */
  if (g->pad) SpTrsvCUDACall(g->shared ? SpTrsvCUDAILUSetSmemLimits<true>(optin - (int)attr.sharedSizeBytes) : SpTrsvCUDAILUSetSmemLimits<false>(optin - (int)attr.sharedSizeBytes));
#else
  (void)g;
  (void)bps;
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SpTrsvCUDAILUCreate_Private(SpTrsvCUDAILU *g, SpTrsvFactor fac, const SpTrsvILUDeviceConfig *cfg, const PetscInt *ai, const PetscInt *adiag, const PetscInt *amap, const PetscInt *order)
{
  const PetscInt n = fac->n, nnzL = fac->L->i[n], nnzU = fac->U->i[n], nnzA = ai[n];
  enum { LI, UI, AI, AD, LJ, UJ, OR, AM, NSEG }; /* AM last: a map made here is not uploaded */
  const PetscInt *src[NSEG] = {fac->L->i, fac->U->i, ai, adiag, fac->L->j, fac->U->j, order, amap};
  const size_t    len[NSEG] = {(size_t)n + 1, (size_t)n + 1, (size_t)n + 1, (size_t)n, (size_t)nnzL, (size_t)nnzU, order ? (size_t)n : 0, (size_t)nnzA};
  size_t          off[NSEG + 1], nup;
  int            *seg[NSEG], *h = NULL;
  const int      *kept[NSEG];
  size_t          fbytes;

  PetscFunctionBegin;
  PetscCheck((PetscInt64)nnzL + nnzU + n < INT_MAX && nnzA < INT_MAX, PETSC_COMM_SELF, PETSC_ERR_SUP, "The GPU ILU uses 32-bit indices: the factor has %" PetscInt_FMT " nonzeros, the matrix %" PetscInt_FMT "; use -mat_sptrsv_factor_device 0", nnzL + nnzU + n, nnzA);
  g->n    = (int)n;
  g->nnzA = (int)nnzA;
  g->nnzL = (int)nnzL;
  g->nnzU = (int)nnzU;
  g->nnzF = (int)(nnzL + n + nnzU);
  g->shared = cfg->rows_shared;
  if (cfg->blocks_per_sm > 0) PetscCall(SpTrsvCUDAILUCapBlocks(g, (int)cfg->blocks_per_sm));
  PetscCall(SpTrsvBackendCUDAGetStream(&g->stream));
  off[0] = 0;
  for (int k = 0; k < NSEG; k++) off[k + 1] = off[k] + len[k];
  nup = amap ? off[NSEG] : off[AM]; /* what comes from the host: everything but a map made here */
  PetscCall(SpTrsvCUDAMalloc((void **)&g->idx, sizeof(int) * (off[NSEG] + 1), "g->idx"));
  for (int k = 0; k < NSEG; k++) seg[k] = g->idx + off[k];
  for (int k = 0; k < NSEG; k++) { /* the factor's pattern kept on the device by the setup's side job (cuda_upload.h): copied there */
    kept[k] = NULL;
    if (src[k] && len[k] && k != AM) PetscCall(SpTrsvCUDAIndicesKept(src[k], (PetscInt)len[k], &kept[k]));
    if (kept[k]) SpTrsvCUDACall(cudaMemcpyAsync(seg[k], kept[k], sizeof(int) * len[k], cudaMemcpyDeviceToDevice, g->stream));
  }
  if (sizeof(PetscInt) == sizeof(int)) {
    for (int k = 0; k < NSEG; k++)
      if (src[k] && len[k] && !kept[k]) SpTrsvCUDACall(cudaMemcpyAsync(seg[k], src[k], sizeof(int) * len[k], cudaMemcpyHostToDevice, g->stream));
  } else {
    PetscCall(PetscMalloc1(nup + 1, &h));
    for (int k = 0; k < NSEG; k++)
      if (src[k] && !kept[k])
        for (size_t q = 0; q < len[k]; q++) h[off[k] + q] = (int)src[k][q];
    for (int k = 0; k < NSEG; k++)
      if (src[k] && len[k] && !kept[k] && off[k] < nup) SpTrsvCUDACall(cudaMemcpyAsync(seg[k], h + off[k], sizeof(int) * len[k], cudaMemcpyHostToDevice, g->stream));
  }
  g->li    = seg[LI];
  g->ui    = seg[UI];
  g->ai    = seg[AI];
  g->adiag = seg[AD];
  g->lj    = seg[LJ];
  g->uj    = seg[UJ];
  g->amap  = seg[AM];
  g->order = order && n ? seg[OR] : NULL;
  if (!amap && g->n) {
    SpTrsvILUNaturalMapKernel<<<(g->n + 255) / 256, 256, 0, g->stream>>>(g->n, g->nnzL, g->ai, g->adiag, g->li, g->ui, g->amap);
    SpTrsvCUDACheckLaunch();
  }
  /* F and idiag; flags, done and ticket (flags first: the 8-byte words) */
  PetscCall(SpTrsvCUDAMalloc((void **)&g->F, sizeof(PetscScalar) * ((size_t)g->nnzF + 1 + (size_t)n + 1), "g->F"));
  g->idiag = g->F + g->nnzF + 1;
  fbytes   = sizeof(unsigned long long) * SPTRSV_ILU_NFLAGS + sizeof(unsigned int) * ((size_t)n + 1) + sizeof(int);
  PetscCall(SpTrsvCUDAMalloc((void **)&g->flags, fbytes, "g->flags"));
  g->done   = (unsigned int *)(g->flags + SPTRSV_ILU_NFLAGS);
  SpTrsvCUDACall(cudaMallocHost((void **)&g->hflags, sizeof(unsigned long long) * SPTRSV_ILU_NFLAGS));
  g->ticket = (int *)(g->done + n + 1);
  SpTrsvCUDACall(cudaMemsetAsync(g->done, 0, sizeof(unsigned int) * ((size_t)n + 1), g->stream));
  SpTrsvCUDACall(cudaStreamSynchronize(g->stream)); /* the host sources may change or be freed */
  PetscCall(PetscFree(h));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* a failed allocation (or upload) part way gives back what was made before it: the device arrays and g */
static PetscErrorCode SpTrsvCUDAILUCreate(SpTrsvFactor fac, const SpTrsvILUDeviceConfig *cfg, const PetscInt *ai, const PetscInt *adiag, const PetscInt *amap, const PetscInt *order, void **gp)
{
  SpTrsvCUDAILU *g;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  *gp = NULL;
  PetscCall(PetscNew(&g));
  ierr = SpTrsvCUDAILUCreate_Private(g, fac, cfg, ai, adiag, amap, order);
  if (ierr) {
    void *p = g;
    (void)SpTrsvCUDAILUDestroy(&p);
  }
  PetscCall(ierr);
  *gp = g;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SpTrsvCUDAILUSetInput(void *ctx, const PetscScalar *a, PetscMemType mtype)
{
  SpTrsvCUDAILU *g = (SpTrsvCUDAILU *)ctx;

  PetscFunctionBegin;
  if (PetscMemTypeDevice(mtype)) g->input = a;
  else {
    if (!g->stage) PetscCall(SpTrsvCUDAMalloc((void **)&g->stage, sizeof(PetscScalar) * ((size_t)g->nnzA + 1), "g->stage"));
    if (g->nnzA) SpTrsvCUDACall(cudaMemcpyAsync(g->stage, a, sizeof(PetscScalar) * g->nnzA, cudaMemcpyHostToDevice, g->stream));
    g->input = g->stage;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SpTrsvCUDAILUShiftTop(void *ctx, PetscReal *top)
{
  SpTrsvCUDAILU     *g    = (SpTrsvCUDAILU *)ctx;
  unsigned long long bits = 0;

  PetscFunctionBegin;
  *top = PETSC_NINFINITY;
  SpTrsvCUDACall(cudaMemsetAsync(g->flags + SPTRSV_ILU_F_TOP, 0, sizeof(unsigned long long), g->stream));
#if defined(SPTRSV_CUDA_SCALAR_OK)
  if (g->n) {
    SpTrsvILUShiftTopKernel<<<(g->n + 255) / 256, 256, 0, g->stream>>>(g->n, g->ai, g->adiag, g->input, g->flags);
    SpTrsvCUDACheckLaunch();
  }
#endif
  SpTrsvCUDACall(cudaMemcpyAsync(&bits, g->flags + SPTRSV_ILU_F_TOP, sizeof(bits), cudaMemcpyDeviceToHost, g->stream));
  SpTrsvCUDACall(cudaStreamSynchronize(g->stream));
  if (bits) {
    double v;
    memcpy(&v, &bits, sizeof(v));
    *top = (PetscReal)v;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* one value of F or idiag, to the host (the driver's failure paths only) */
static PetscErrorCode SpTrsvCUDAILUReadOne(SpTrsvCUDAILU *g, const PetscScalar *src, PetscScalar *v)
{
  PetscFunctionBegin;
  SpTrsvCUDACall(cudaMemcpyAsync(v, src, sizeof(PetscScalar), cudaMemcpyDeviceToHost, g->stream));
  SpTrsvCUDACall(cudaStreamSynchronize(g->stream));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvCUDAILUFactor - one pass: gather the input values (SpTrsvCUDAILUSetInput()) into F, eliminate with
  the diagonal shift and the pivot rule, read the flags back (one copy; one more value per failure reported)
*/
static PetscErrorCode SpTrsvCUDAILUFactor(void *ctx, SpTrsvILUShiftRule rule, PetscReal shift, PetscReal zeropivot, PetscReal inblocks, SpTrsvILUPassResult *res)
{
  SpTrsvCUDAILU            *g = (SpTrsvCUDAILU *)ctx;
  const unsigned long long *h = g->hflags;

  PetscFunctionBegin;
  PetscCheck(g->input || !g->nnzA, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "No input values for the GPU ILU");
  if (++g->epoch == 0) { /* the epoch counter wrapped: reset the flags of the rows */
    SpTrsvCUDACall(cudaMemsetAsync(g->done, 0, sizeof(unsigned int) * ((size_t)g->n + 1), g->stream));
    g->epoch = 1;
  }
  /* F = 0 where the gather leaves slots (fill: ILU(k > 0)); without fill the map is onto F (every nonzero of A has its
     own slot, SpTrsvFactorILUDeviceSetUpOps) and the gather writes every slot */
  if (g->nnzF != g->nnzA) SpTrsvCUDACall(cudaMemsetAsync(g->F, 0, sizeof(PetscScalar) * (size_t)g->nnzF, g->stream));
  SpTrsvCUDACall(cudaMemsetAsync(g->flags, 0xff, sizeof(unsigned long long) * SPTRSV_ILU_F_NINB, g->stream));
#if defined(SPTRSV_CUDA_SCALAR_OK)
  SpTrsvILUGatherKernel<<<(PetscMax(g->nnzA, 1) + 255) / 256, 256, 0, g->stream>>>(g->nnzA, g->amap, g->input, g->F, g->flags, g->ticket);
  SpTrsvCUDACheckLaunch();
  if (g->n) {
    const SpTrsvILUArgs a  = {g->n, g->nnzL, g->order, g->li, g->lj, g->ui, g->uj, g->F, g->idiag, g->done, g->epoch, g->ticket, g->flags, shift, zeropivot, inblocks};
    const int           nb = (g->n + ILU_WARPS - 1) / ILU_WARPS;
  #define SPTRSV_ILU_LAUNCH(R) \
    do { \
      if (g->shared) SpTrsvILURowsKernel<R, true><<<nb, 32 * ILU_WARPS, (size_t)g->pad, g->stream>>>(a); \
      else SpTrsvILURowsKernel<R, false><<<nb, 32 * ILU_WARPS, (size_t)g->pad, g->stream>>>(a); \
    } while (0)
    switch (rule) {
    case SPTRSV_ILU_SHIFT_NONZERO:
      SPTRSV_ILU_LAUNCH(SPTRSV_ILU_SHIFT_NONZERO);
      break;
    case SPTRSV_ILU_SHIFT_PD:
      SPTRSV_ILU_LAUNCH(SPTRSV_ILU_SHIFT_PD);
      break;
    case SPTRSV_ILU_SHIFT_INBLOCKS:
      SPTRSV_ILU_LAUNCH(SPTRSV_ILU_SHIFT_INBLOCKS);
      break;
    default:
      SPTRSV_ILU_LAUNCH(SPTRSV_ILU_SHIFT_NONE);
      break;
    }
  #undef SPTRSV_ILU_LAUNCH
    SpTrsvCUDACheckLaunch();
  }
#else
  SETERRQ(PETSC_COMM_SELF, PETSC_ERR_SUP, "The GPU ILU needs real scalars");
#endif
  SpTrsvCUDACall(cudaMemcpyAsync(g->hflags, g->flags, sizeof(unsigned long long) * SPTRSV_ILU_NFLAGS, cudaMemcpyDeviceToHost, g->stream));
  SpTrsvCUDACall(cudaStreamSynchronize(g->stream));

  PetscCall(PetscMemzero(res, sizeof(*res)));
  SpTrsvILUPassDecode(h, res);
  if (res->fail_row >= 0) {
    PetscScalar rs;
    PetscCall(SpTrsvCUDAILUReadOne(g, g->F + g->nnzL + res->fail_row, &res->fail_pv));
    PetscCall(SpTrsvCUDAILUReadOne(g, g->idiag + res->fail_row, &rs));
    res->fail_rs = PetscRealPart(rs);
  }
  if (res->zero_first >= 0) PetscCall(SpTrsvCUDAILUReadOne(g, g->F + g->nnzL + res->zero_first, &res->zero_first_pv));
  if (res->zero_last >= 0) PetscCall(SpTrsvCUDAILUReadOne(g, g->F + g->nnzL + res->zero_last, &res->zero_last_pv));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SpTrsvCUDAILUGetArrays(void *ctx, const PetscScalar **la, const PetscScalar **ua, const PetscScalar **idiag)
{
  SpTrsvCUDAILU *g = (SpTrsvCUDAILU *)ctx;

  PetscFunctionBegin;
  if (la) *la = g->F;
  if (ua) *ua = g->F + g->nnzL + g->n;
  if (idiag) *idiag = g->idiag;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SpTrsvCUDAILUDownload(void *ctx, PetscScalar *la, PetscScalar *ua, PetscScalar *idiag)
{
  SpTrsvCUDAILU *g = (SpTrsvCUDAILU *)ctx;

  PetscFunctionBegin;
  if (g->nnzL) SpTrsvCUDACall(cudaMemcpyAsync(la, g->F, sizeof(PetscScalar) * g->nnzL, cudaMemcpyDeviceToHost, g->stream));
  if (g->nnzU) SpTrsvCUDACall(cudaMemcpyAsync(ua, g->F + g->nnzL + g->n, sizeof(PetscScalar) * g->nnzU, cudaMemcpyDeviceToHost, g->stream));
  if (g->n) SpTrsvCUDACall(cudaMemcpyAsync(idiag, g->idiag, sizeof(PetscScalar) * g->n, cudaMemcpyDeviceToHost, g->stream));
  SpTrsvCUDACall(cudaStreamSynchronize(g->stream));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SpTrsvCUDAILUDestroy(void **gp)
{
  SpTrsvCUDAILU *g = (SpTrsvCUDAILU *)*gp;

  PetscFunctionBegin;
  if (!g) PetscFunctionReturn(PETSC_SUCCESS);
  SpTrsvCUDACall(cudaStreamSynchronize(g->stream)); /* no kernel of ours still reads what is freed */
  SpTrsvCUDACall(SpTrsvCUDAFree(g->idx));
  SpTrsvCUDACall(SpTrsvCUDAFree(g->F));
  SpTrsvCUDACall(SpTrsvCUDAFree(g->stage));
  SpTrsvCUDACall(SpTrsvCUDAFree(g->flags));
  if (g->hflags) SpTrsvCUDACall(cudaFreeHost(g->hflags));
  PetscCall(PetscFree(g));
  *gp = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

const SpTrsvILUDeviceOps SpTrsvILUDeviceOpsCUDA = {"cuda", PETSC_TRUE, SpTrsvCUDAILUCreate, SpTrsvCUDAILUSetInput, SpTrsvCUDAILUShiftTop, SpTrsvCUDAILUFactor, SpTrsvCUDAILUGetArrays, SpTrsvCUDAILUDownload, SpTrsvCUDAILUDestroy};
