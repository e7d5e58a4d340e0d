/*
   Locality-aware sub-graph solves on the GPU (paper 004, sptrsv_locality).

   The analysis (src/mat/analysis/partition.c, src/mat/paths/locality.c; include/sptrsv/paths/locality.h) cut the DAG
   of op(T) into sub-graphs of at most n_max rows, numbered by sub-graph level, with every edge from a lower or equal
   sub-graph index to a higher one and no edge between two sub-graphs of one level; inside a sub-graph the rows are
   grouped in time slots, a row strictly after its dependencies of the same sub-graph. It stored the triangle in plan
   order with every row's entries external first (column = the global row, in an earlier sub-graph) and internal after
   (column = the offset of the dependency in the sub-graph, i.e. its shared-memory word).

   One launch per sub-graph level, one block per sub-graph of it:
     1. every row of the sub-graph: xl[r] = b_i - sum of its external entries against global x (groups of K lanes per
        row, shuffle sums); __syncthreads();
     2. the slots in turn: every row of the slot: xl[r] = (xl[r] - sum of its internal entries against xl) * idiag_i;
        __syncthreads() after each slot;
     3. x_i = xl[r] for every row (coalesced by position).
   xl lives in dynamic shared memory (one PetscScalar per row of the largest sub-graph of the level).

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
   - Writes to x: each row once, by its own block, after its last barrier; read only by later launches.
   Read-only data (the pattern, values, diagonal, schedule) goes through the non-coherent cache (__ldg); x never does.
*/
#include <sptrsv/paths/locality.h>
#include "../row_ops.cuh"

/* the locality path's device schedule: sub-graph, slot and split pointers (device), and per level the launch
   geometry (host) */
typedef struct {
  const int *subptr, *sslot, *slotptr, *split;
} SpTrsvCUDALocalityArrays;

typedef struct {
  int                     *d_subptr, *d_sslot, *d_slotptr, *d_split;
  SpTrsvCUDALocalityArrays a;
  PetscInt                 nlev;
  int                     *g0, *grid; /* nlev: first sub-graph and number of sub-graphs of each level */
  size_t                  *smem;      /* nlev: dynamic shared memory of each level's launch (its largest sub-graph) */
  int                      K, block;
} SpTrsvCUDALocality;

#if defined(SPTRSV_CUDA_SCALAR_OK)

/* one block per sub-graph g0 + blockIdx.x (see the top of this file) */
template <int K, bool UNIT>
__global__ void __launch_bounds__(SPTRSV_LOCALITY_MAX_BLOCK) SpTrsvLocalityKernel(const SpTrsvCUDATri t, const SpTrsvCUDALocalityArrays a, int g0, SpTrsvCUDAVecPtrs v, const SpTrsvCUDAVecPtrs *vp)
{
  extern __shared__ __align__(16) unsigned char sptrsv_locality_smem[];
  PetscScalar *xl      = reinterpret_cast<PetscScalar *>(sptrsv_locality_smem);
  const int    g       = g0 + (int)blockIdx.x;
  const int    k0      = __ldg(a.subptr + g), nr = __ldg(a.subptr + g + 1) - k0;
  const int    s0      = __ldg(a.sslot + g), s1 = __ldg(a.sslot + g + 1);
  const int    ngroups = (int)blockDim.x / K, grp = (int)threadIdx.x / K, lane = (int)threadIdx.x & (K - 1);

  if (vp) SpTrsvReadVecPtrs<false>(v, vp);
  /* 1. b minus the external entries (global x, final since earlier launches) */
  for (int r = 0; r < nr; r += ngroups) {
    const int   k      = k0 + r + grp;
    const bool  active = r + grp < nr;
    int         p = 0, q = 0;
    PetscScalar sum;
    if (active) {
      p = __ldg(t.ptr + k);
      q = __ldg(a.split + k);
    }
    sum = SpTrsvGroupSum<K>(SpTrsvDot<K, false>(p, q, lane, t.idx, t.val, v.x));
    if (active && lane == 0) xl[k - k0] = v.b[__ldg(t.order + k)] - sum;
  }
  __syncthreads();
  /* 2. the slots: internal entries from shared memory, a barrier after each slot */
  for (int s = s0; s < s1; s++) {
    const int e0 = __ldg(a.slotptr + s), e1 = __ldg(a.slotptr + s + 1);
    for (int r = e0; r < e1; r += ngroups) {
      const int   k      = r + grp;
      const bool  active = k < e1;
      int         p = 0, q = 0;
      PetscScalar sum;
      if (active) {
        p = __ldg(a.split + k);
        q = __ldg(t.ptr + k + 1);
      }
      sum = SpTrsvGroupSum<K>(SpTrsvDot<K, false>(p, q, lane, t.idx, t.val, xl));
      if (active && lane == 0) xl[k - k0] = SpTrsvFinalize<UNIT, false>(xl[k - k0] - sum, SpTrsvLoadDiag<UNIT>(t, k), 0, 0);
    }
    __syncthreads(); /* slot s is final in xl before slot s + 1 reads it */
  }
  /* 3. write back */
  for (int r = (int)threadIdx.x; r < nr; r += (int)blockDim.x) v.x[__ldg(t.order + k0 + r)] = xl[r];
}

template <bool UNIT>
static cudaError_t SpTrsvLocalityLaunchLevels(const SpTrsvCUDATri &t, const SpTrsvCUDALocality &lc, SpTrsvCUDAVecPtrs v, const SpTrsvCUDAVecPtrs *vp, cudaStream_t st)
{
  for (PetscInt l = 0; l < lc.nlev; l++) {
    const cudaError_t err = SpTrsvWithLanes(lc.K, [&](auto K) { SpTrsvLocalityKernel<decltype(K)::value, UNIT><<<lc.grid[l], lc.block, lc.smem[l], st>>>(t, lc.a, lc.g0[l], v, vp); });
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
  PetscCall(PetscFree3(lc->g0, lc->grid, lc->smem));
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
  const size_t                  need = (size_t)ls->max_sub_rows * sizeof(PetscScalar);

  PetscFunctionBegin;
  PetscCheck(!s->rest, PETSC_COMM_SELF, PETSC_ERR_SUP, "sptrsv_locality has no Gauss-Seidel sweeps");
  SpTrsvCUDACall(cudaGetDevice(&dev));
  SpTrsvCUDACall(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
  PetscCheck(need <= (size_t)optin, PETSC_COMM_SELF, PETSC_ERR_SUP, "sptrsv_locality: a sub-graph of %" PetscInt_FMT " rows needs %zu bytes of shared memory, the device offers %d per block: set -mat_sptrsv_subgraph_rows (with the factor's prefix) to at most %zu", ls->max_sub_rows, need, optin, (size_t)optin / sizeof(PetscScalar));
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
  lc->K         = ls->K;
  lc->block     = ls->block;
  lc->nlev      = ls->nsublevels;
  PetscCall(PetscMalloc3(lc->nlev + 1, &lc->g0, lc->nlev + 1, &lc->grid, lc->nlev + 1, &lc->smem));
  for (PetscInt l = 0; l < lc->nlev; l++) {
    PetscInt rows = 0;
    for (PetscInt g = ls->levptr[l]; g < ls->levptr[l + 1]; g++) rows = PetscMax(rows, ls->subptr[g + 1] - ls->subptr[g]);
    lc->g0[l]   = (int)ls->levptr[l];
    lc->grid[l] = (int)(ls->levptr[l + 1] - ls->levptr[l]);
    lc->smem[l] = (size_t)rows * sizeof(PetscScalar);
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

const SpTrsvExecutor SpTrsvExecCUDA_locality = {SpTrsvCUDALocalitySetup, SpTrsvCUDATriUpdateValues, SpTrsvCUDATriSolve, NULL, SpTrsvCUDATriDestroy, SpTrsvCUDATriUpdateValuesDevice};
