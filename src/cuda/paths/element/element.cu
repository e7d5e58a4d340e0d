/*
   Element-scheduled sparse triangular solves on the GPU (paper 000, section 4 and 5.1: ELMR, ELMC).

   One warp per row of op(T). Rows are taken in the plan's dispatch order (rows sorted by level), so
   every dependency of the row at position k sits at a position < k. A warp waits only for its own
   row's dependencies, not for a whole level: no barrier, one launch per solve.

   Dispatch by ticket, not by blockIdx. Thread 0 of each block takes t = atomicAdd(ticket, 1) when the
   block starts; the block solves positions [slot * W, slot * W + W) with slot = t mod nblocks (W warps
   per block), for the solve numbered epoch = t / nblocks + 1. A ticket is only taken by a running
   block, so every position below the largest ticket handed out belongs to a block that is resident or
   finished, whatever order the hardware launches blocks in and however few fit on the device. With
   the dispatch order putting dependencies first, the smallest unfinished position always belongs to
   a resident warp whose dependencies are all complete, so it completes: no deadlock, for any triangle
   the analysis accepts (src/mat/analysis/dispatch.c has the full argument). The counter advances by
   exactly nblocks per launch and is never reset, so the kernel arguments are the same for every solve
   (graph capture works) and no reset pass is needed.

   ELMR (CSR, pull). Ready flags hold the epoch of the solve that finished a row (stale values are
   epoch - 1; zero at setup for epoch 1). Every lane reads the flags of its own entries once; lane 0
   then spins alone on the row's critical dependency (precomputed: the dependency dispatched last,
   the one most likely to finish last); a warp-wide vote re-reads any other flag that was not yet set
   (rare). Flags are read with device-scope acquire loads, so the lane that saw a flag set also sees
   the x_j published before it; the lanes that did not read the critical flag themselves are ordered
   after lane 0's acquire by __syncwarp (a memory barrier among the warp's threads). x is read through
   L2 (__ldcg). Lane 0 writes x_i, the warp synchronizes (so the other lanes' reads of xold in an
   in-place sweep are ordered first), and lane 0 publishes ready[i] = epoch with a release store.

   ELMC (CSC, push). A row's warp waits (lane 0 only) until its counter has received all its
   dependencies: count[i] == epoch * ndep_i (ndep_i = entries of row i of op(T); unsigned arithmetic
   wraps consistently: stale values are (epoch - 1) * ndep_i + m with m < ndep_i, never the target).
   It reads the accumulated updates acc_i, resets acc_i to 0 for the next solve (every update of this
   solve is in and none comes later), finalizes x_i = (b_i + acc_i) idiag_i, and the warp pushes
   acc_k -= T_ki x_i to its dependents with atomicAdd; then each lane fences once and increments the
   counters of its entries. Rows without dependencies (ndep_i = 0) neither wait nor touch acc_i. No
   copy of b into x, no reset pass.

   Memory ordering (PTX memory model, device scope; helpers in row_ops.cuh).
   - Publication (ELMR): lane 0 writes x_i; __syncwarp() orders every lane's reads of this row (x_j,
     and xold_j of an in-place sweep, whose row j depends on i) before lane 0's st.release of
     ready[i]. A reader's ld.acquire that returns epoch therefore sees x_i, and a row j that waits on
     i writes x_j only after i has read the old x_j.
   - Pushes (ELMC): each lane's atomicAdds to acc, then __threadfence(), then its relaxed counter
     increments (fence + strong write = release pattern). The waiter's ld.acquire that reads the
     final count synchronizes with every increment (they form one release sequence), so acc_i, read
     through L2 (__ldcg, where the atomics are performed), holds every update.
   - ELMR: the lane owning the critical entry did not acquire its flag itself; it is ordered after
     lane 0's acquire by __syncwarp() (a memory barrier among the participating threads of the warp).
     ELMC's other lanes read nothing another warp wrote (x_i reaches them by shuffle).
   - x and acc are never read through the non-coherent cache (__ldg): other SMs write them during the
     launch. b, the pattern, the values and idiag are read-only for the launch.

   Fewer resident warps than rows. Nothing assumes that all nblocks blocks fit at once: a block that
   is not resident has not taken a ticket, so it holds no position anyone waits for; tickets are
   handed out in increasing order, so every position below the largest one handed out belongs to a
   resident or finished block; the smallest unfinished position has all its dependencies done, and its
   warp is resident, so it finishes and the blocks waiting for a slot get one as blocks retire. The
   argument is written out in src/mat/analysis/dispatch.c; the host executor checks the dispatch order
   once per pattern (SpTrsvPlanCheckDispatchOrder).
*/
#include <sptrsv/paths/element.h>
#include "../../row_ops.cuh"

/* the element path's device state; the flags and counters are never reset (epochs) */
typedef struct {
  const int          *aux;    /* n, schedule order. CSR: slot in idx[] of the row's critical dependency (the
                                 one dispatched last), -1 for an empty row. CSC: the row's number of dependencies */
  unsigned int       *flag;   /* n, natural row index. CSR: epoch of the solve that finished the row. CSC: count
                                 of dependencies applied, over all solves so far (mod 2^32) */
  PetscScalar        *acc;    /* CSC: n accumulators of the pushed updates, natural index, zero between solves */
  unsigned long long *ticket; /* dispatch counter: advances by nblocks per launch */
  int                 nblocks;
} SpTrsvCUDAElement;

#if defined(SPTRSV_CUDA_SCALAR_OK)

  #if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 700
    #error "the element kernels need scoped acquire/release operations and independent thread scheduling: build for sm_70 or later"
  #endif

/* are all dependencies of this lane's entries (except the critical one, watched by lane 0) done? */
__device__ __forceinline__ bool SpTrsvLaneReady(const SpTrsvCUDATri &t, const SpTrsvCUDAElement &e, int p0, int q, int lane, int crit, unsigned int epoch)
{
  bool ok = true;
  for (int p = p0 + lane; p < q; p += 32)
    if (p != crit && SpTrsvLoadAcquire(e.flag + __ldg(t.idx + p)) != epoch) ok = false;
  return ok;
}

template <bool UNIT, bool REST>
__global__ void __launch_bounds__(SPTRSV_ELEMENT_WARPS * 32) SpTrsvElementCSRKernel(const SpTrsvCUDATri t, const SpTrsvCUDAElement e, int n, SpTrsvCUDAVecPtrs v, const SpTrsvCUDAVecPtrs *vp)
{
  const int    lane = threadIdx.x & 31;
  int          slot, k, i, p0, q, crit;
  unsigned int epoch;
  PetscScalar  sum, bi = 0, di = 1, xoldi = 0;
  bool         ok;

  SpTrsvTakeTicket(e.ticket, e.nblocks, &slot, &epoch);
  k = slot * SPTRSV_ELEMENT_WARPS + (int)(threadIdx.x >> 5);
  if (k >= n) return; /* the whole warp */
  if (vp) v = *vp;
  i    = __ldg(t.order + k);
  p0   = __ldg(t.ptr + k);
  q    = __ldg(t.ptr + k + 1);
  crit = __ldg(e.aux + k);
  if (lane == 0) { /* read-only for the launch, or (xold_i) written by no one before this row: load before waiting */
    bi = v.b[i];
    di = SpTrsvLoadDiag<UNIT>(t, k);
    if (REST) xoldi = __ldcg(v.xold + i);
  }
  ok = SpTrsvLaneReady(t, e, p0, q, lane, crit, epoch); /* one parallel read of the flags */
  if (lane == 0 && crit >= 0) {
    const unsigned int *f = e.flag + __ldg(t.idx + crit);
    while (SpTrsvLoadAcquire(f) != epoch) { }
  }
  __syncwarp();
  while (!__all_sync(SPTRSV_FULL_MASK, ok)) /* a non-critical dependency was late */
    if (!ok) ok = SpTrsvLaneReady(t, e, p0, q, lane, crit, epoch);
  sum = SpTrsvDot<32, true>(p0, q, lane, t.idx, t.val, v.x); /* x_j through L2: written on other SMs */
  if (REST) sum += SpTrsvRestDot<32, true>(t.rest, k, true, lane, v.xold);
  sum = SpTrsvGroupSum<32>(sum);
  if (lane == 0) v.x[i] = SpTrsvFinalize<UNIT, REST>(bi - sum, di, t.rest.keep, xoldi);
  __syncwarp(); /* every lane's reads (xold of an in-place sweep) before the publication */
  if (lane == 0) SpTrsvStoreRelease(e.flag + i, epoch);
}

template <bool UNIT>
__global__ void __launch_bounds__(SPTRSV_ELEMENT_WARPS * 32) SpTrsvElementCSCKernel(const SpTrsvCUDATri t, const SpTrsvCUDAElement e, int n, SpTrsvCUDAVecPtrs v, const PetscScalar *w, const SpTrsvCUDAVecPtrs *vp)
{
  const int    lane = threadIdx.x & 31;
  int          slot, k, i, p, q;
  unsigned int epoch;
  PetscScalar  xi = 0;

  SpTrsvTakeTicket(e.ticket, e.nblocks, &slot, &epoch);
  k = slot * SPTRSV_ELEMENT_WARPS + (int)(threadIdx.x >> 5);
  if (k >= n) return; /* the whole warp */
  if (vp) v = *vp;
  if (w) v.b = w; /* a sweep solves on w */
  i = __ldg(t.order + k);
  p = __ldg(t.ptr + k);
  q = __ldg(t.ptr + k + 1);
  if (lane == 0) {
    const PetscScalar  bi = v.b[i], di = SpTrsvLoadDiag<UNIT>(t, k); /* read-only: before waiting */
    const unsigned int ndep = (unsigned int)__ldg(e.aux + k);
    PetscScalar        acc  = 0;
    if (ndep) {
      while (SpTrsvLoadAcquire(e.flag + i) != epoch * ndep) { }
      acc      = __ldcg(e.acc + i);
      e.acc[i] = 0; /* for the next solve: every update of this one is in, none comes later */
    }
    xi     = SpTrsvFinalize<UNIT, false>(bi + acc, di, 0, 0);
    v.x[i] = xi;
  }
  xi = __shfl_sync(SPTRSV_FULL_MASK, xi, 0);
  SpTrsvPush<32>(p, q, lane, t.idx, t.val, xi, e.acc); /* acc_r -= T_ri x_i */
  __threadfence();                                    /* this lane's updates before its counter increments */
  for (p += lane; p < q; p += 32) atomicAdd(e.flag + __ldg(t.idx + p), 1u);
}

/* the launch of a solve or a sweep (SpTrsvCUDALaunchFn) */
static cudaError_t SpTrsvCUDAElementLaunch(const SpTrsvCUDATriData *d, PetscBool sweep, SpTrsvCUDAVecPtrs v, const SpTrsvCUDAVecPtrs *vp, cudaStream_t st)
{
  const SpTrsvCUDATri     *t    = &d->tri;
  const SpTrsvCUDAElement *e    = (const SpTrsvCUDAElement *)d->path;
  const PetscBool          csc  = d->csc, unit = d->unit;
  const PetscInt           n    = d->n;
  PetscScalar             *w    = d->d_w;
  const unsigned int       grid = (unsigned int)e->nblocks, block = SPTRSV_ELEMENT_WARPS * 32;

  if (csc) {
    const PetscScalar *src = NULL;
    if (sweep) {
      cudaError_t err = SpTrsvCUDALaunchSweepRHS(t, n, v, w, vp, st);
      if (err != cudaSuccess) return err;
      src = w;
    }
    if (unit) SpTrsvElementCSCKernel<true><<<grid, block, 0, st>>>(*t, *e, (int)n, v, src, vp);
    else SpTrsvElementCSCKernel<false><<<grid, block, 0, st>>>(*t, *e, (int)n, v, src, vp);
  } else if (sweep) SpTrsvElementCSRKernel<false, true><<<grid, block, 0, st>>>(*t, *e, (int)n, v, vp);
  else if (unit) SpTrsvElementCSRKernel<true, false><<<grid, block, 0, st>>>(*t, *e, (int)n, v, vp);
  else SpTrsvElementCSRKernel<false, false><<<grid, block, 0, st>>>(*t, *e, (int)n, v, vp);
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
  SpTrsvCUDACall(SpTrsvCUDAFree((void *)e->aux));
  SpTrsvCUDACall(SpTrsvCUDAFree(e->flag));
  SpTrsvCUDACall(SpTrsvCUDAFree(e->acc));
  SpTrsvCUDACall(SpTrsvCUDAFree(e->ticket));
  PetscCall(PetscFree(d->path));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the triangle in dispatch order, then what the waiting lane spins on (from the analysis: CSR, the slot
   of the critical dependency; CSC, the dependency count), flags and accumulators zeroed once, the ticket
   counter at 0 (epochs start at 1) */
static PetscErrorCode SpTrsvCUDAElementSetup(SpTrsvSolver s)
{
  const SpTrsvElementSchedule *es = (const SpTrsvElementSchedule *)s->plan->data;
  SpTrsvCUDATriData           *d;
  SpTrsvCUDAElement           *e;
  int                         *aux, *d_aux = NULL;
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
  PetscCall(SpTrsvCUDAMalloc((void **)&e->flag, (size_t)(n + 1) * sizeof(unsigned int), "e->flag"));
  SpTrsvCUDACall(cudaMemsetAsync(e->flag, 0, (size_t)(n + 1) * sizeof(unsigned int), st));
  if (d->csc) {
    PetscCall(SpTrsvCUDAMalloc((void **)&e->acc, (size_t)(n + 1) * sizeof(PetscScalar), "e->acc"));
    SpTrsvCUDACall(cudaMemsetAsync(e->acc, 0, (size_t)(n + 1) * sizeof(PetscScalar), st));
  }
  PetscCall(SpTrsvCUDAMalloc((void **)&e->ticket, sizeof(unsigned long long), "e->ticket"));
  SpTrsvCUDACall(cudaMemsetAsync(e->ticket, 0, sizeof(unsigned long long), st));
  e->nblocks = (int)((n + SPTRSV_ELEMENT_WARPS - 1) / SPTRSV_ELEMENT_WARPS);
  SpTrsvCUDACall(cudaStreamSynchronize(st)); /* aux may be freed */
  PetscCall(PetscFree(aux));
  PetscCall(SpTrsvCUDATriSetupEnd(s));
  PetscFunctionReturn(PETSC_SUCCESS);
}

const SpTrsvExecutor SpTrsvExecCUDA_element = {SpTrsvCUDAElementSetup, SpTrsvCUDATriUpdateValues, SpTrsvCUDATriSolve, SpTrsvCUDATriSweep, SpTrsvCUDATriDestroy, SpTrsvCUDATriUpdateValuesDevice};
