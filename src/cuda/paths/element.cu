/*
   Element-scheduled sparse triangular solves on the GPU (paper 000, section 4 and 5.1: ELMR, ELMC), with
   several rows per warp (issue 12).

   Rows are taken in the plan's dispatch order (rows sorted by level), so every dependency of the row at
   position k sits at a position < k. The analysis packs the rows of each level, without reordering them,
   into warps (include/sptrsv/paths/element.h): warp w solves positions wstart[w] .. wstart[w+1]-1 with K =
   wlanes[w] lanes per row; lane g K + e works on entries e, e + K, ... of the warp's row g. A row waits only
   for its own dependencies, not for a whole level: no barrier, one launch per solve. With
   -mat_sptrsv_element_rows_per_warp 1 every warp holds one row with 32 lanes: the kernel of paper 000.
   Each K (1, 2, 4, 8, 16, 32) is its own instantiation of the row code (a warp-uniform switch on wlanes[w]),
   so the group arithmetic and the shuffle trees are compile-time.

   Dispatch by ticket, not by blockIdx. Thread 0 of each block takes t = atomicAdd(ticket, 1) when the
   block starts; the block solves warps [slot * W, slot * W + W) with slot = t mod nblocks (W warps per
   block), for the solve numbered epoch = t / nblocks + 1. A ticket is only taken by a running block, so
   every warp below the largest ticket handed out belongs to a block that is resident or finished,
   whatever order the hardware launches blocks in and however few fit on the device. The counter advances
   by exactly nblocks per launch and is never reset, so the kernel arguments are the same for every solve
   (graph capture works) and no reset pass is needed.

   ELMR (CSR, pull). Ready flags hold the epoch of the solve that finished a row (stale values are
   epoch - 1; zero at setup for epoch 1). Every lane reads the flags of its own entries once; the first lane
   of each group then spins alone on its row's critical dependency (precomputed: the dependency dispatched
   last, the one most likely to finish last: one poller per row instead of one per entry, which leaves the L2
   to the rows that can progress); a warp-wide vote re-reads any other flag that was not yet set (rare).
   Flags are read with device-scope acquire loads, so the lane that saw a flag set also sees the x_j
   published before it; the lane owning the critical entry, which did not read that flag itself, is ordered
   after its group leader's acquire by __syncwarp (a memory barrier among the warp's threads). x is read
   through L2 (__ldcg). The K lanes of a row add their products with a shuffle tree of width K; the group's
   first lane writes x_i, the warp synchronizes (so every lane's reads of xold in an in-place sweep are
   ordered first), and that lane publishes ready[i] = epoch with a release store.

   ELMC (CSC, push). A row's group leader waits until its counter has received all its dependencies:
   count[i] == epoch * ndep_i (ndep_i = entries of row i of op(T); unsigned arithmetic wraps consistently:
   stale values are (epoch - 1) * ndep_i + m with m < ndep_i, never the target). It reads the accumulated
   updates acc_i, resets acc_i to 0 for the next solve (every update of this solve is in and none comes
   later), finalizes x_i = (b_i + acc_i) idiag_i and hands it to its group by a shuffle; the group's K lanes
   push acc_k -= T_ki x_i to its dependents with atomicAdd; then each lane fences once and increments the
   counters of its entries. Rows without dependencies (ndep_i = 0) neither wait nor touch acc_i. No copy
   of b into x, no reset pass.

   Memory ordering (PTX memory model, device scope; helpers in row_ops.cuh).
   - Publication (ELMR): the group leader writes x_i; __syncwarp() orders every lane's reads of this row
     (x_j, and xold_j of an in-place sweep, whose row j depends on i) before its st.release of ready[i]. A
     reader's ld.acquire that returns epoch therefore sees x_i, and a row j that waits on i writes x_j only
     after i has read the old x_j (j depends on i, so j is in a later level and another warp).
   - Pushes (ELMC): each lane's atomicAdds to acc, then __threadfence(), then its relaxed counter
     increments (fence + strong write = release pattern). The waiter's ld.acquire that reads the
     final count synchronizes with every increment (they form one release sequence), so acc_i, read
     through L2 (__ldcg, where the atomics are performed), holds every update.
   - ELMC's other lanes read nothing another warp wrote (x_i reaches them by shuffle).
   - x and acc are never read through the non-coherent cache (__ldg): other SMs write them during the
     launch. b, the pattern, the values and idiag are read-only for the launch.

   Deadlock freedom with several rows per warp (for every triangle the analysis accepts).
   (1) The rows of a warp are consecutive in the dispatch order and all of one level (the analysis packs
       each level separately; SpTrsvElementScheduleCheck verifies it once per pattern). Rows of one level never
       depend on each other, and levels are contiguous in the dispatch order, so every dependency of every
       row of warp w sits in a warp < w: no group ever waits for another group of its own warp. That is what
       lets a warp use full-warp barriers (__syncwarp, the vote, the shuffles of width K): a group that
       arrives there early waits only for groups whose own waits end independently of it.
   (2) A warp is taken only by a running block, in ticket order (above): every warp below the largest one
       taken is resident or finished (src/mat/analysis/dispatch.c, point 1, with warps for positions).
   (3) Let w be the first warp that never completes. Every dependency of its rows is in a warp < w (1),
       which completes and publishes its flags (ELMR) or counter increments (ELMC). Warp w is resident (2);
       its spinning lanes read their flags with device-scope loads, which eventually see the published
       values (PTX coherence), so every group's wait ends, every lane reaches the vote and the shuffles, and w
       completes: a contradiction. Hence every warp completes, including chains of length n (one row per
       level and per warp), a row depending on every earlier row, and empty rows (no wait at all).
   The spinning lanes of one warp (one per group) run one loop and leave it one by one; the others wait at
   __syncwarp, which independent thread scheduling (sm_70+) allows. Packing consecutive rows across levels
   would let a group wait for an earlier group of its own warp; that needs group-masked shuffles and no
   warp-wide barrier, as the sync-free path's natural dispatch does (src/cuda/paths/syncfree.cu): not done
   here, the element path keeps its level order.
*/
#include <sptrsv/paths/element.h>
#include "../row_ops.cuh"

/* the element path's device state; the flags and counters are never reset (epochs) */
typedef struct {
  const int          *aux;    /* n, schedule order. CSR: slot in idx[] of the row's critical dependency (the
                                 one dispatched last), -1 for an empty row. CSC: the row's number of dependencies */
  const int          *wstart; /* nwarps + 1: first dispatch position of each warp */
  const int          *wlanes; /* nwarps: lanes per row of each warp (1, 2, 4, 8, 16 or 32) */
  unsigned int       *flag;   /* n, natural row index. CSR: epoch of the solve that finished the row. CSC: count
                                 of dependencies applied, over all solves so far (mod 2^32) */
  PetscScalar        *acc;    /* CSC: n accumulators of the pushed updates, natural index, zero between solves */
  unsigned long long *ticket; /* dispatch counter: advances by nblocks per launch */
  int                 nwarps;
  int                 nblocks;
} SpTrsvCUDAElement;

#if defined(SPTRSV_CUDA_SCALAR_OK)

  #if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 700
    #error "the element kernels need scoped acquire/release operations and independent thread scheduling: build for sm_70 or later"
  #endif

/* are all dependencies of this lane's entries (except the critical one, watched by the group leader) done?
   e: the lane's index in its group of K */
template <int K>
__device__ __forceinline__ bool SpTrsvLaneReady(const SpTrsvCUDATri &t, const SpTrsvCUDAElement &el, int p0, int q, int e, int crit, unsigned int epoch)
{
  bool ok = true;
  for (int p = p0 + e; p < q; p += K)
    if (p != crit && SpTrsvLoadAcquire(el.flag + __ldg(t.idx + p)) != epoch) ok = false;
  return ok;
}

/* ELMR: the rows of warp w, K lanes each (pull; see the file header). Every lane of the warp calls it. */
template <int K, bool UNIT, bool REST>
__device__ __forceinline__ void SpTrsvElementRows(const SpTrsvCUDATri &t, const SpTrsvCUDAElement &el, const SpTrsvCUDAVecPtrs &v, int w, unsigned int epoch)
{
  const int   lane = threadIdx.x & 31, e = lane % K, k = __ldg(el.wstart + w) + lane / K;
  const bool  active = k < __ldg(el.wstart + w + 1); /* the last warp of a level may have groups without a row */
  int         i = 0, p0 = 0, q = 0, crit = -1;
  PetscScalar sum, bi = 0, di = 1, xoldi = 0;
  bool        ok;

  if (active) {
    i    = __ldg(t.order + k);
    p0   = __ldg(t.ptr + k);
    q    = __ldg(t.ptr + k + 1);
    crit = __ldg(el.aux + k);
    if (e == 0) { /* read-only for the launch, or (xold_i) written by no one before this row: load before waiting */
      bi = v.b[i];
      di = SpTrsvLoadDiag<UNIT>(t, k);
      if (REST) xoldi = __ldcg(v.xold + i);
    }
  }
  ok = SpTrsvLaneReady<K>(t, el, p0, q, e, crit, epoch); /* one parallel read of the flags */
  if (e == 0 && crit >= 0) {
    const unsigned int *f = el.flag + __ldg(t.idx + crit);
    while (SpTrsvLoadAcquire(f) != epoch) { }
  }
  __syncwarp(); /* the group leaders' acquires before the critical entries' reads; no group waits for another (header) */
  while (!__all_sync(SPTRSV_FULL_MASK, ok)) /* a non-critical dependency was late */
    if (!ok) ok = SpTrsvLaneReady<K>(t, el, p0, q, e, crit, epoch);
  sum = SpTrsvDot<K, true>(p0, q, e, t.idx, t.val, v.x); /* x_j through L2: written on other SMs */
  if (REST) sum += SpTrsvRestDot<K, true>(t.rest, k, active, e, v.xold);
  sum = SpTrsvGroupSum<K>(sum);
  if (active && e == 0) v.x[i] = SpTrsvFinalize<UNIT, REST>(bi - sum, di, t.rest.keep, xoldi);
  __syncwarp(); /* every lane's reads (xold of an in-place sweep) before the publication */
  if (active && e == 0) SpTrsvStoreRelease(el.flag + i, epoch);
}

/* ELMC: the rows of warp w, K lanes each (push; see the file header). Every lane of the warp calls it. */
template <int K, bool UNIT>
__device__ __forceinline__ void SpTrsvElementColumns(const SpTrsvCUDATri &t, const SpTrsvCUDAElement &el, const SpTrsvCUDAVecPtrs &v, int w, unsigned int epoch)
{
  const int   lane = threadIdx.x & 31, e = lane % K, k = __ldg(el.wstart + w) + lane / K;
  const bool  active = k < __ldg(el.wstart + w + 1);
  int         p = 0, q = 0;
  PetscScalar xi = 0;

  if (active) {
    p = __ldg(t.ptr + k);
    q = __ldg(t.ptr + k + 1);
    if (e == 0) {
      const int          i  = __ldg(t.order + k);
      const PetscScalar  bi = v.b[i], di = SpTrsvLoadDiag<UNIT>(t, k); /* read-only: before waiting */
      const unsigned int ndep = (unsigned int)__ldg(el.aux + k);
      PetscScalar        acc  = 0;
      if (ndep) {
        while (SpTrsvLoadAcquire(el.flag + i) != epoch * ndep) { }
        acc       = __ldcg(el.acc + i);
        el.acc[i] = 0; /* for the next solve: every update of this one is in, none comes later */
      }
      xi     = SpTrsvFinalize<UNIT, false>(bi + acc, di, 0, 0);
      v.x[i] = xi;
    }
  }
  if constexpr (K > 1) xi = __shfl_sync(SPTRSV_FULL_MASK, xi, 0, K); /* from the group's leader */
  SpTrsvPush<K>(p, q, e, t.idx, t.val, xi, el.acc); /* acc_r -= T_ri x_i */
  __threadfence();                                  /* this lane's updates before its counter increments */
  for (p += e; p < q; p += K) atomicAdd(el.flag + __ldg(t.idx + p), 1u);
}

/* one warp's rows with its K known at compile time */
template <int K, bool CSC, bool UNIT, bool REST>
__device__ __forceinline__ void SpTrsvElementWarp(const SpTrsvCUDATri &t, const SpTrsvCUDAElement &el, const SpTrsvCUDAVecPtrs &v, int w, unsigned int epoch)
{
  if constexpr (CSC) SpTrsvElementColumns<K, UNIT>(t, el, v, w, epoch);
  else SpTrsvElementRows<K, UNIT, REST>(t, el, v, w, epoch);
}

/* the element kernel: CSC (ELMC) or CSR (ELMR), unit diagonal or not, solve or sweep (REST: CSR sweeps read the
   rest; a CSC sweep solves on rhs, formed by the sweep right-hand side kernel). Each warp switches once on its
   lanes per row (warp-uniform) into the instantiation for that K. */
template <bool CSC, bool UNIT, bool REST>
__global__ void __launch_bounds__(SPTRSV_ELEMENT_WARPS * 32) SpTrsvElementKernel(const SpTrsvCUDATri t, const SpTrsvCUDAElement el, SpTrsvCUDAVecPtrs v, const PetscScalar *rhs, const SpTrsvCUDAVecPtrs *vp)
{
  int          slot, w;
  unsigned int epoch;

  SpTrsvTakeTicket(el.ticket, el.nblocks, &slot, &epoch);
  w = slot * SPTRSV_ELEMENT_WARPS + (int)(threadIdx.x >> 5);
  if (w >= el.nwarps) return; /* the whole warp */
  if (vp) v = *vp;
  if (rhs) v.b = rhs; /* a CSC sweep solves on w */
  switch (__ldg(el.wlanes + w)) {
  case 1:
    SpTrsvElementWarp<1, CSC, UNIT, REST>(t, el, v, w, epoch);
    break;
  case 2:
    SpTrsvElementWarp<2, CSC, UNIT, REST>(t, el, v, w, epoch);
    break;
  case 4:
    SpTrsvElementWarp<4, CSC, UNIT, REST>(t, el, v, w, epoch);
    break;
  case 8:
    SpTrsvElementWarp<8, CSC, UNIT, REST>(t, el, v, w, epoch);
    break;
  case 16:
    SpTrsvElementWarp<16, CSC, UNIT, REST>(t, el, v, w, epoch);
    break;
  default: /* 32 (the schedule check allows nothing else) */
    SpTrsvElementWarp<32, CSC, UNIT, REST>(t, el, v, w, epoch);
    break;
  }
}

/* the launch of a solve or a sweep (SpTrsvCUDALaunchFn) */
static cudaError_t SpTrsvCUDAElementLaunch(const SpTrsvCUDATriData *d, PetscBool sweep, SpTrsvCUDAVecPtrs v, const SpTrsvCUDAVecPtrs *vp, cudaStream_t st)
{
  const SpTrsvCUDATri     *t    = &d->tri;
  const SpTrsvCUDAElement *e    = (const SpTrsvCUDAElement *)d->path;
  const unsigned int       grid = (unsigned int)e->nblocks, block = SPTRSV_ELEMENT_WARPS * 32;

  if (!grid) return cudaSuccess; /* an empty triangle */
  if (d->csc) {
    const PetscScalar *src = NULL;
    if (sweep) {
      cudaError_t err = SpTrsvCUDALaunchSweepRHS(t, d->n, v, d->d_w, vp, st);
      if (err != cudaSuccess) return err;
      src = d->d_w;
    }
    if (d->unit) SpTrsvElementKernel<true, true, false><<<grid, block, 0, st>>>(*t, *e, v, src, vp);
    else SpTrsvElementKernel<true, false, false><<<grid, block, 0, st>>>(*t, *e, v, src, vp);
  } else if (sweep) SpTrsvElementKernel<false, false, true><<<grid, block, 0, st>>>(*t, *e, v, NULL, vp);
  else if (d->unit) SpTrsvElementKernel<false, true, false><<<grid, block, 0, st>>>(*t, *e, v, NULL, vp);
  else SpTrsvElementKernel<false, false, false><<<grid, block, 0, st>>>(*t, *e, v, NULL, vp);
  return cudaGetLastError();
}

#else

static cudaError_t SpTrsvCUDAElementLaunch(const SpTrsvCUDATriData *d, PetscBool sweep, SpTrsvCUDAVecPtrs v, const SpTrsvCUDAVecPtrs *vp, cudaStream_t st)
{
  return cudaErrorNotSupported;
}
#endif

/* one launch; a CSC sweep first forms w (SpTrsvCUDALaunchesFn) */
static PetscInt SpTrsvCUDAElementLaunches(const SpTrsvCUDATriData *d, PetscBool sweep)
{
  return 1 + (d->csc && sweep ? 1 : 0);
}

static PetscErrorCode SpTrsvCUDAElementDestroy(SpTrsvCUDATriData *d)
{
  SpTrsvCUDAElement *e = (SpTrsvCUDAElement *)d->path;

  PetscFunctionBegin;
  if (!e) PetscFunctionReturn(PETSC_SUCCESS);
  SpTrsvCUDACall(cudaFree((void *)e->aux));
  SpTrsvCUDACall(cudaFree((void *)e->wstart));
  SpTrsvCUDACall(cudaFree((void *)e->wlanes));
  SpTrsvCUDACall(cudaFree(e->flag));
  SpTrsvCUDACall(cudaFree(e->acc));
  SpTrsvCUDACall(cudaFree(e->ticket));
  PetscCall(PetscFree(d->path));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the triangle in dispatch order, then what the waiting lanes spin on (from the analysis: CSR, the slot
   of the critical dependency; CSC, the dependency count), the warps (first position, lanes per row), flags
   and accumulators zeroed once, the ticket counter at 0 (epochs start at 1) */
static PetscErrorCode SpTrsvCUDAElementSetup(SpTrsvSolver s)
{
  const SpTrsvElementSchedule *es = (const SpTrsvElementSchedule *)s->plan->data;
  SpTrsvCUDATriData           *d;
  SpTrsvCUDAElement           *e;
  int                         *aux, *ws, *d_aux = NULL, *d_ws = NULL, *d_wl = NULL;
  PetscInt                     n;
  cudaStream_t                 st = NULL;

  PetscFunctionBegin;
  PetscCheck(es->csc == (PetscBool)(s->format == SPTRSV_FORMAT_CSC), PETSC_COMM_SELF, PETSC_ERR_PLIB, "Element schedule made for another format");
  PetscCall(SpTrsvCUDATriSetupBegin(s, SpTrsvCUDAElementLaunch, SpTrsvCUDAElementLaunches, &d));
  PetscCall(SpTrsvCUDAGetStream(&st));
  n = d->n;
  PetscCall(PetscNew(&e));
  d->path         = e;
  d->path_destroy = SpTrsvCUDAElementDestroy;
  PetscCall(PetscMalloc1(n + 1, &aux));
  for (PetscInt k = 0; k < n; k++) aux[k] = es->csc ? (int)es->aux[k] : (es->aux[k] < 0 ? -1 : d->h_ptr[k] + (int)es->aux[k]);
  PetscCall(SpTrsvCUDAMallocInt(&d_aux, n, aux, st));
  e->aux = d_aux;
  PetscCall(PetscMalloc1(es->nwarps + 1, &ws));
  for (PetscInt w = 0; w <= es->nwarps; w++) ws[w] = (int)es->wstart[w];
  PetscCall(SpTrsvCUDAMallocInt(&d_ws, es->nwarps + 1, ws, st));
  PetscCall(SpTrsvCUDAMallocInt(&d_wl, es->nwarps, es->wlanes, st));
  e->wstart = d_ws;
  e->wlanes = d_wl;
  e->nwarps = (int)es->nwarps;
  SpTrsvCUDACall(cudaMalloc((void **)&e->flag, (size_t)(n + 1) * sizeof(unsigned int)));
  SpTrsvCUDACall(cudaMemsetAsync(e->flag, 0, (size_t)(n + 1) * sizeof(unsigned int), st));
  if (d->csc) {
    SpTrsvCUDACall(cudaMalloc((void **)&e->acc, (size_t)(n + 1) * sizeof(PetscScalar)));
    SpTrsvCUDACall(cudaMemsetAsync(e->acc, 0, (size_t)(n + 1) * sizeof(PetscScalar), st));
  }
  SpTrsvCUDACall(cudaMalloc((void **)&e->ticket, sizeof(unsigned long long)));
  SpTrsvCUDACall(cudaMemsetAsync(e->ticket, 0, sizeof(unsigned long long), st));
  e->nblocks = (int)((es->nwarps + SPTRSV_ELEMENT_WARPS - 1) / SPTRSV_ELEMENT_WARPS);
  SpTrsvCUDACall(cudaStreamSynchronize(st)); /* aux and ws may be freed */
  PetscCall(PetscFree(aux));
  PetscCall(PetscFree(ws));
  PetscCall(SpTrsvCUDATriSetupEnd(s));
  PetscFunctionReturn(PETSC_SUCCESS);
}

const SpTrsvExecutor SpTrsvExecCUDA_element = {SpTrsvCUDAElementSetup, SpTrsvCUDATriUpdateValues, SpTrsvCUDATriSolve, SpTrsvCUDATriSweep, SpTrsvCUDATriDestroy, SpTrsvCUDATriUpdateValuesDevice};
