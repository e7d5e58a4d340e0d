/*
   The runs dispatch's setup on the GPU (-mat_sptrsv_dispatch runs with -mat_sptrsv_analysis device, the CUDA default):
   the windows stay the host analysis's (SpTrsvRunsPack, src/mat/paths/syncfree/runs.c: a sequential greedy cut, the
   reference the host executor and the unit tests run), everything the CUDA executor builds from them is built here, on the device:

   1. the pattern in the triangle's own order (position k holds row k of L, row n - 1 - k of U: the map is its own
      inverse), ptr by an exclusive scan of the lengths, the column indices translated to positions and each row's
      entries sorted by position with the value map along (SpTrsvSyncFreeRunsRowsKernel, with the host setup's own
      sort, SpTrsvSyncFreeSortRow in syncfree_analysis.h: a monotone row in one pass, any other by insertion), so the
      device check (tests/device/check_analysis.c) finds the host setup's arrays bit for bit;
   2. the schedule check the runs kernel's deadlock freedom rests on (the host's SpTrsvSyncFreeScheduleCheck, runs
      branch), on the arrays the kernel reads: every window of at most 32 R rows inside [0, n), each position in one
      window (SpTrsvSyncFreeRunsCoverKernel), and every entry of the row at position k of window w either before the
      window's first position k0 in a window dispatched before w, or the row k - 1 > k0 - 1 of the same window (its
      chain entry; SpTrsvSyncFreeRunsDepsKernel). A violation is an error naming the position, never a launch.

   In place of the host setup's passes over the pattern (the copy in plan order, the relabel, the sort, a second
   upload, the check): one upload of the rows of op(T) as 32-bit ri/rj (none when the factor's setup kept them on the
   device already: SpTrsvCUDAIndicesKept, cuda_upload.h), four kernels and a scan.
*/
#include "syncfree_analysis.h"
#include <climits>

#if defined(SPTRSV_CUDA_SCALAR_OK)
  #include <cub/cub.cuh>

/* the first position at fault per check (SPTRSV_SFR_NONE: none); read back once */
  #define SPTRSV_SFR_NONE 0x7F7F7F7F /* every byte 0x7F: the value cudaMemsetAsync(0x7F) leaves */
typedef struct {
  int window;  /* a window out of range or too long (its dispatch slot) */
  int twice;   /* a position in two windows */
  int missing; /* a position in none */
  int dep;     /* a position with a dependency the window may not wait for */
} SpTrsvSFRFaults;

/* 1a. position k holds row order[k] (the triangle's own order) of len[k] entries */
__global__ void SpTrsvSyncFreeNaturalKernel(int n, bool lower, const int *__restrict__ ri, int *order, int *len)
{
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < n) {
    const int i = lower ? k : n - 1 - k;
    order[k]    = i;
    len[k]      = ri[i + 1] - ri[i];
  }
}

/* 1b. the row at position k: its columns as positions, ascending, the value map (index in the rows of op(T)) along */
__global__ void SpTrsvSyncFreeRunsRowsKernel(int n, bool lower, const int *__restrict__ order, const int *__restrict__ ptr, const int *__restrict__ ri, const int *__restrict__ rj, int *idx, int *vmap)
{
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= n) return;
  const int i = order[k], p0 = ri[i], m = ri[i + 1] - p0, q0 = ptr[k];
  int      *c = idx + q0, *v = vmap + q0;

  for (int e = 0; e < m; e++) {
    c[e] = lower ? rj[p0 + e] : n - 1 - rj[p0 + e];
    v[e] = p0 + e;
  }
  SpTrsvSyncFreeSortRow(c, v, m);
}

/* 2a. window w (dispatch slot) covers [wstart[w], wstart[w] + wlanes[w]): in range, at most cap rows, its positions in no other window */
__global__ void SpTrsvSyncFreeRunsCoverKernel(int n, int nw, int cap, const int *__restrict__ wstart, const int *__restrict__ wlanes, int *disp, SpTrsvSFRFaults *fault)
{
  const int w = blockIdx.x * blockDim.x + threadIdx.x;
  if (w >= nw) return;
  const int k0 = wstart[w], len = wlanes[w];
  if (k0 < 0 || len < 1 || len > cap || k0 > n - len) {
    atomicMin(&fault->window, w);
    return;
  }
  for (int k = k0; k < k0 + len; k++)
    if (atomicCAS(disp + k, -1, w) != -1) atomicMin(&fault->twice, k);
}

/* 2b. the row at position k: in a window; each entry before the window in one dispatched earlier, or the row before it in the window */
__global__ void SpTrsvSyncFreeRunsDepsKernel(int n, const int *__restrict__ ptr, const int *__restrict__ idx, const int *__restrict__ wstart, const int *__restrict__ disp, SpTrsvSFRFaults *fault)
{
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= n) return;
  const int w = disp[k];
  if (w < 0) {
    atomicMin(&fault->missing, k);
    return;
  }
  const int k0 = wstart[w];
  for (int e = ptr[k]; e < ptr[k + 1]; e++) {
    const int q  = idx[e];
    const bool ok = (q >= 0 && q < k0 && disp[q] < w) || (q == k - 1 && k > k0);
    if (!ok) {
      atomicMin(&fault->dep, k);
      return;
    }
  }
}

/* device scratch, freed at the end or on an error */
typedef struct {
  int             *ri, *rj, *len, *disp;
  void            *temp;
  SpTrsvSFRFaults *fault;
} SpTrsvSFRScratch;

static PetscErrorCode SpTrsvSFRScratchFree(SpTrsvSFRScratch *w)
{
  PetscFunctionBegin;
  SpTrsvCUDACall(SpTrsvCUDAFree(w->ri));
  SpTrsvCUDACall(SpTrsvCUDAFree(w->rj));
  SpTrsvCUDACall(SpTrsvCUDAFree(w->len));
  SpTrsvCUDACall(SpTrsvCUDAFree(w->disp));
  SpTrsvCUDACall(SpTrsvCUDAFree(w->temp));
  SpTrsvCUDACall(SpTrsvCUDAFree(w->fault));
  PetscCall(PetscMemzero(w, sizeof(*w)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SpTrsvSyncFreeRunsPatternDevice_Private(const SpTrsvOp *op, const SpTrsvSyncFreeSchedule *sf, const int *d_ws, const int *d_wl, cudaStream_t st, int **order, int **ptr, int **idx, int **vmap, SpTrsvSFRScratch &w)
{
  const int       n = (int)op->n, nnz = (int)op->nnz, nw = (int)sf->nwarps;
  const int      *ri, *rj; /* op's rows on the device: kept ones, else w's */
  SpTrsvSFRFaults f;
  size_t          bytes = 0;

  PetscFunctionBegin;
  PetscCheck(op->n < SPTRSV_SFR_NONE && op->nnz < INT_MAX, PETSC_COMM_SELF, PETSC_ERR_INT_OVERFLOW, "The runs dispatch's CUDA setup uses 32-bit indices: n = %" PetscInt_FMT " must be below %d and nnz = %" PetscInt_FMT " below %d", op->n, SPTRSV_SFR_NONE, op->nnz, INT_MAX);
  PetscCall(SpTrsvCUDAIndicesKept(op->ri, op->n + 1, &ri)); /* the factor's pattern, uploaded already by the setup's side job */
  PetscCall(SpTrsvCUDAIndicesKept(op->rj, op->nnz, &rj));
  if (!ri) {
    PetscCall(SpTrsvCUDAUploadIndices(op->ri, op->n + 1, &w.ri, st));
    ri = w.ri;
  }
  if (!rj) {
    PetscCall(SpTrsvCUDAUploadIndices(op->rj, op->nnz, &w.rj, st));
    rj = w.rj;
  }
  SpTrsvCUDAMallocN(w.len, n);
  SpTrsvCUDAMallocN(w.disp, n);
  SpTrsvCUDAMallocN(*order, n);
  SpTrsvCUDAMallocN(*ptr, n);
  SpTrsvCUDAMallocN(*idx, nnz);
  SpTrsvCUDAMallocN(*vmap, nnz);
  PetscCall(SpTrsvCUDAMalloc((void **)&w.fault, sizeof(SpTrsvSFRFaults), "w.fault"));
  SpTrsvCUDACall(cudaMemsetAsync(w.fault, 0x7F, sizeof(SpTrsvSFRFaults), st)); /* SPTRSV_SFR_NONE in each */
  SpTrsvCUDACall(cudaMemsetAsync(w.disp, 0xFF, (size_t)(n + 1) * sizeof(int), st));
  SpTrsvCUDACall(cudaMemsetAsync(w.len + n, 0, sizeof(int), st));
  /* 1. the pattern in the triangle's own order */
  if (n) SpTrsvSyncFreeNaturalKernel<<<SpTrsvSyncFreeSetupGrid(n), SPTRSV_SYNCFREE_SETUP_BLOCK, 0, st>>>(n, (bool)op->lower, ri, *order, w.len);
  SpTrsvCUDACheckLaunch();
  SpTrsvCUDACall(cub::DeviceScan::ExclusiveSum(NULL, bytes, w.len, *ptr, n + 1, st));
  PetscCall(SpTrsvCUDAMalloc((void **)&w.temp, bytes + 1, "w.temp"));
  SpTrsvCUDACall(cub::DeviceScan::ExclusiveSum(w.temp, bytes, w.len, *ptr, n + 1, st));
  if (n) SpTrsvSyncFreeRunsRowsKernel<<<SpTrsvSyncFreeSetupGrid(n), SPTRSV_SYNCFREE_SETUP_BLOCK, 0, st>>>(n, (bool)op->lower, *order, *ptr, ri, rj, *idx, *vmap);
  SpTrsvCUDACheckLaunch();
  /* 2. the schedule check */
  if (nw) SpTrsvSyncFreeRunsCoverKernel<<<SpTrsvSyncFreeSetupGrid(nw), SPTRSV_SYNCFREE_SETUP_BLOCK, 0, st>>>(n, nw, 32 * (int)sf->run_rows, d_ws, d_wl, w.disp, w.fault);
  SpTrsvCUDACheckLaunch();
  if (n) SpTrsvSyncFreeRunsDepsKernel<<<SpTrsvSyncFreeSetupGrid(n), SPTRSV_SYNCFREE_SETUP_BLOCK, 0, st>>>(n, *ptr, *idx, d_ws, w.disp, w.fault);
  SpTrsvCUDACheckLaunch();
  SpTrsvCUDACall(cudaMemcpyAsync(&f, w.fault, sizeof(f), cudaMemcpyDeviceToHost, st));
  SpTrsvCUDACall(cudaStreamSynchronize(st));
  PetscCheck(f.window == SPTRSV_SFR_NONE, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Sync-free runs (device check): window %d does not lie in [0, %d) with 1 to %d rows", f.window, n, 32 * (int)sf->run_rows);
  PetscCheck(f.twice == SPTRSV_SFR_NONE, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Sync-free runs (device check): position %d in two windows", f.twice);
  PetscCheck(f.missing == SPTRSV_SFR_NONE, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Sync-free runs (device check): position %d in no window", f.missing);
  PetscCheck(f.dep == SPTRSV_SFR_NONE, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Sync-free runs (device check): row %d (position %d) depends on a row of its own window other than the row before it, or of a window dispatched later", op->lower ? f.dep : n - 1 - f.dep, f.dep);
  PetscCall(SpTrsvSFRScratchFree(&w));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvSyncFreeRunsPatternDevice - the runs dispatch's pattern and its check on the device (see the file header) for
  the windows d_ws, d_wl (device copies of sf->wstart, sf->wlanes): order (n), ptr (n + 1), idx and vmap (nnz), device
  arrays the caller owns; on an error nothing is left allocated
*/
PetscErrorCode SpTrsvSyncFreeRunsPatternDevice(const SpTrsvOp *op, const SpTrsvSyncFreeSchedule *sf, const int *d_ws, const int *d_wl, cudaStream_t st, int **order, int **ptr, int **idx, int **vmap)
{
  SpTrsvSFRScratch w;
  PetscErrorCode   ierr;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(&w, sizeof(w)));
  *order = *ptr = *idx = *vmap = NULL;
  ierr = SpTrsvSyncFreeRunsPatternDevice_Private(op, sf, d_ws, d_wl, st, order, ptr, idx, vmap, w);
  if (ierr) {
    int **out[] = {order, ptr, idx, vmap};

    (void)cudaStreamSynchronize(st);
    (void)cudaGetLastError();
    (void)SpTrsvSFRScratchFree(&w);
    for (int k = 0; k < 4; k++) {
      (void)SpTrsvCUDAFree(*out[k]);
      *out[k] = NULL;
    }
    PetscCall(ierr);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

#else

PetscErrorCode SpTrsvSyncFreeRunsPatternDevice(const SpTrsvOp *op, const SpTrsvSyncFreeSchedule *sf, const int *d_ws, const int *d_wl, cudaStream_t st, int **order, int **ptr, int **idx, int **vmap)
{
  PetscFunctionBegin;
  SETERRQ(PETSC_COMM_SELF, PETSC_ERR_SUP, "The runs dispatch's device setup: the CUDA kernels of this build support real scalars only");
}
#endif
