/*
   Multicolor Gauss-Seidel sweeps on the GPU (the device side of include/sptrsv/multicolor.h; the host executor,
   the reference, is SpTrsvMCSweepHost() in src/mat/gs/multicolor.c).

   - Storage: the SpTrsvMC's positions (rows in colour order), 32-bit: perm, ptr, idx (natural columns), the
     values by position and the relaxed inverse diagonal by position. Vectors stay in natural order.
   - A sweep is one launch per colour (forward: colours ascending; backward: descending), K lanes per row
     (the smallest power of two >= the mean off-diagonal row length, 2..32), built from the shared row
     helpers (row_ops.cuh): x_i = keep x_i + idiag_i (b_i - sum_{j != i} a_ij x_j). The rows of one colour are
     not adjacent, so no row of a launch reads an x another row of the launch writes: plain loads, no flags,
     in place. A zero initial guess is a memset of x first.
   - CUDA graphs (-pc_gs_graph): the colour launches of each direction are captured once at setup, reading b
     and x from a small device struct that a one-thread kernel updates when they change (as device_tri.cu).
   - Values: uploaded from the host arrays (SpTrsvCUDAMCUploadValues), or gathered from a device value array
     of the matrix through vmap/dmap with the inverse diagonal computed there by MatSOR's rules
     (SpTrsvCUDAMCGatherValues; the kernels are shared with the exact ordering: gs_values.cu): one flag tells the
     caller to redo the refresh on the host when a value or inverse diagonal entry is not finite, or a diagonal entry
     is zero under omega = 1 and shift <= 0.
   - Set-up on the GPU (SpTrsvCUDAMCCreateFromColors): from a device CSR pattern (a MATSEQAIJCUSPARSE's own, in place)
     and device colours (src/cuda/gs_coloring.cu), a stable radix sort of (colour, row) gives perm (rows ascending in a
     colour, as SpTrsvColoringOrder() on the host), one thread per position counts its off-diagonal entries and finds its
     diagonal, a scan gives ptr and a second pass copies idx and vmap. Only colptr, the counts and a missing-diagonal row
     come back; the host copy of the pattern is downloaded when something on the host needs it
     (SpTrsvCUDAMCDownloadPattern: the host refresh that names a NaN/Inf or zero-diagonal row, the transposed storage).
   The buffers are allocated at setup; a refresh writes into them, so captured graphs stay valid.
*/
#include <sptrsv/multicolor.h>
#include "row_ops.cuh"
#include "cuda_upload.h"
#include "gs_values.h"
#include <climits>
#include <cub/cub.cuh>

struct _n_SpTrsvCUDAMC {
  int                n, nnz, ncolors, K;
  PetscInt          *colptr; /* host copy: colour c holds positions colptr[c] .. colptr[c+1]-1 */
  int               *perm, *ptr, *idx, *vmap, *dmap;
  PetscScalar       *val, *idiag;
  PetscScalar        keep;
  PetscReal          omega, shift;
  int                plain; /* omega = 1 and shift <= 0: idiag = 1 / a_ii (MatSOR's rule) */
  int               *flag;
  PetscBool          use_graph;
  SpTrsvCUDAVecPtrs *d_vp[2]; /* per direction: the vectors the captured launches read */
  SpTrsvCUDAGraph    graph[2];
};

#if defined(SPTRSV_CUDA_SCALAR_OK)
/* group g of K lanes updates the row at position k0 + g of the colour [k0, k1) */
template <int K>
__global__ void __launch_bounds__(SPTRSV_CUDA_ROW_BLOCK) SpTrsvMCSweepKernel(int k0, int k1, const int *__restrict__ perm, const int *__restrict__ ptr, const int *__restrict__ idx, const PetscScalar *__restrict__ val, const PetscScalar *__restrict__ idiag, PetscScalar keep, SpTrsvCUDAVecPtrs v, const SpTrsvCUDAVecPtrs *vp)
{
  const long long g      = (long long)blockIdx.x * (SPTRSV_CUDA_ROW_BLOCK / K) + threadIdx.x / K;
  const bool      active = g < (long long)(k1 - k0);
  const int       k      = active ? k0 + (int)g : k0, lane = threadIdx.x & (K - 1);
  int             p = 0, q = 0;
  PetscScalar     sum;

  if (vp) SpTrsvReadVecPtrs<false>(v, vp);
  if (active) {
    p = __ldg(ptr + k);
    q = __ldg(ptr + k + 1);
  }
  sum = SpTrsvGroupSum<K>(SpTrsvDot<K, false>(p, q, lane, idx, val, v.x));
  if (active && lane == 0) {
    const int i = __ldg(perm + k);
    v.x[i]      = keep * v.x[i] + __ldg(idiag + k) * (v.b[i] - sum);
  }
}

/* the colour launches of one sweep direction (vp != NULL: the kernels read b and x from *vp) */
static cudaError_t SpTrsvMCLaunch(const SpTrsvCUDAMC g, PetscBool backward, SpTrsvCUDAVecPtrs v, const SpTrsvCUDAVecPtrs *vp, cudaStream_t st)
{
  for (int cc = 0; cc < g->ncolors; cc++) {
    const int          c = backward ? g->ncolors - 1 - cc : cc, k0 = (int)g->colptr[c], k1 = (int)g->colptr[c + 1];
    const unsigned int grid = (unsigned int)(((PetscInt64)(k1 - k0) * g->K + SPTRSV_CUDA_ROW_BLOCK - 1) / SPTRSV_CUDA_ROW_BLOCK);
    cudaError_t        err;

    if (k1 == k0) continue;
    err = SpTrsvWithLanes(g->K, [&](auto KK) { SpTrsvMCSweepKernel<decltype(KK)::value><<<grid, SPTRSV_CUDA_ROW_BLOCK, 0, st>>>(k0, k1, g->perm, g->ptr, g->idx, g->val, g->idiag, g->keep, v, vp); });
    if (err != cudaSuccess) return err;
  }
  return cudaSuccess;
}

/* SpTrsvMCLaunch() for SpTrsvCUDAGraphCapture() */
static cudaError_t SpTrsvMCGraphLaunch(const void *ctx, PetscBool backward, SpTrsvCUDAVecPtrs v, const SpTrsvCUDAVecPtrs *vp, cudaStream_t st)
{
  return SpTrsvMCLaunch((SpTrsvCUDAMC)ctx, backward, v, vp, st);
}

/* capture the launches of one direction on the private capture stream */
static PetscErrorCode SpTrsvMCCapture(SpTrsvCUDAMC g, PetscBool backward)
{
  PetscFunctionBegin;
  PetscCall(SpTrsvCUDAGraphCapture(&g->graph[backward], &g->d_vp[backward], "g->d_vp[backward]", SpTrsvMCGraphLaunch, g, backward));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* a device object with the parameters of mc (n, nnz, colours set by the caller) */
static PetscErrorCode SpTrsvMCNewDevice(SpTrsvMC mc, SpTrsvCUDAMC *gout)
{
  SpTrsvCUDAMC g;

  PetscFunctionBegin;
  PetscCall(PetscNew(&g));
  g->n         = (int)mc->n;
  g->omega     = mc->omega;
  g->shift     = mc->shift;
  g->keep      = (PetscScalar)(1.0 - mc->omega);
  g->plain     = mc->omega == 1.0 && mc->shift <= 0.0;
  g->use_graph = mc->use_graph;
  *gout        = g;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the rest, once the pattern is on the device: lanes per row, value buffers, the graphs of both directions */
static PetscErrorCode SpTrsvMCFinishDevice(SpTrsvMC mc, SpTrsvCUDAMC g)
{
  PetscFunctionBegin;
  g->nnz     = (int)mc->nnz;
  g->ncolors = (int)mc->ncolors;
  g->K       = 2;
  while (g->K < 32 && (PetscInt64)g->K * g->n < g->nnz) g->K *= 2;
  PetscCall(PetscMalloc1(mc->ncolors + 1, &g->colptr));
  PetscCall(PetscArraycpy(g->colptr, mc->colptr, mc->ncolors + 1));
  PetscCall(SpTrsvCUDAMalloc((void **)&g->val, (size_t)(g->nnz + 1) * sizeof(PetscScalar), "g->val"));
  PetscCall(SpTrsvCUDAMalloc((void **)&g->idiag, (size_t)(g->n + 1) * sizeof(PetscScalar), "g->idiag"));
  PetscCall(SpTrsvCUDAMalloc((void **)&g->flag, sizeof(int), "g->flag"));
  if (g->use_graph && g->n && g->ncolors >= SPTRSV_CUDA_GRAPH_MIN_LAUNCHES)
    for (PetscInt d = 0; d < 2; d++) PetscCall(SpTrsvMCCapture(g, (PetscBool)d));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* SpTrsvCUDAMCCreate - the host pattern by position uploaded (values follow), the graphs of both directions */
PetscErrorCode SpTrsvCUDAMCCreate(SpTrsvMC mc, SpTrsvCUDAMC *gout)
{
  SpTrsvCUDAMC g;
  cudaStream_t st = NULL;
  PetscInt     nval = 0;

  PetscFunctionBegin;
  for (PetscInt q = 0; q < mc->nnz; q++) nval = PetscMax(nval, mc->vmap[q] + 1);
  for (PetscInt k = 0; k < mc->n; k++) nval = PetscMax(nval, mc->dmap[k] + 1);
  PetscCheck(mc->n < INT_MAX && mc->nnz < INT_MAX && nval < INT_MAX, PETSC_COMM_SELF, PETSC_ERR_INT_OVERFLOW, "The CUDA kernels use 32-bit indices: n = %" PetscInt_FMT ", %" PetscInt_FMT " entries must be below %d", mc->n, nval, INT_MAX);
  PetscCall(SpTrsvCUDAGetStream(&st));
  PetscCall(SpTrsvMCNewDevice(mc, &g));
  *gout = g; /* freed by SpTrsvCUDAMCDestroy() from here on, also after an error below */
  PetscCall(SpTrsvCUDAUploadIndices(mc->perm, mc->n, &g->perm, st));
  PetscCall(SpTrsvCUDAUploadIndices(mc->ptr, mc->n + 1, &g->ptr, st));
  PetscCall(SpTrsvCUDAUploadIndices(mc->idx, mc->nnz, &g->idx, st));
  PetscCall(SpTrsvCUDAUploadIndices(mc->vmap, mc->nnz, &g->vmap, st));
  PetscCall(SpTrsvCUDAUploadIndices(mc->dmap, mc->n, &g->dmap, st));
  PetscCall(SpTrsvMCFinishDevice(mc, g));
  PetscFunctionReturn(PETSC_SUCCESS);
}

__global__ void SpTrsvMCIotaKernel(int n, int *__restrict__ v)
{
  for (size_t k = (size_t)blockIdx.x * blockDim.x + threadIdx.x; k < (size_t)n; k += (size_t)gridDim.x * blockDim.x) v[k] = (int)k;
}

/* cnt[c]: the rows of colour c */
__global__ void SpTrsvMCCountKernel(int n, const int *__restrict__ color, int *cnt)
{
  for (size_t k = (size_t)blockIdx.x * blockDim.x + threadIdx.x; k < (size_t)n; k += (size_t)gridDim.x * blockDim.x) atomicAdd(cnt + color[k], 1);
}

/* len[k]: off-diagonal entries of the row at position k; dmap[k]: its diagonal (a row without one: atomicMin on *missing) */
__global__ void SpTrsvMCLengthKernel(int n, const int *__restrict__ ia, const int *__restrict__ ja, const int *__restrict__ perm, int *__restrict__ len, int *__restrict__ dmap, int *missing)
{
  for (size_t k = (size_t)blockIdx.x * blockDim.x + threadIdx.x; k < (size_t)n; k += (size_t)gridDim.x * blockDim.x) {
    const int r = perm[k];
    int       d = -1;

    for (int p = ia[r]; p < ia[r + 1]; p++)
      if (ja[p] == r) d = p;
    if (d < 0) atomicMin(missing, r);
    len[k]  = ia[r + 1] - ia[r] - (d >= 0);
    dmap[k] = d;
  }
}

/* idx, vmap of the row at position k from ptr[k] on: its off-diagonal entries in stored order */
__global__ void SpTrsvMCFillKernel(int n, const int *__restrict__ ia, const int *__restrict__ ja, const int *__restrict__ perm, const int *__restrict__ ptr, int *__restrict__ idx, int *__restrict__ vmap)
{
  for (size_t k = (size_t)blockIdx.x * blockDim.x + threadIdx.x; k < (size_t)n; k += (size_t)gridDim.x * blockDim.x) {
    const int r = perm[k];
    int       q = ptr[k];

    for (int p = ia[r]; p < ia[r + 1]; p++)
      if (ja[p] != r) {
        idx[q]  = ja[p];
        vmap[q] = p;
        q++;
      }
  }
}

/*
  SpTrsvCUDAMCCreateFromColors - the storage by position built on the GPU from the device CSR pattern (ia, ja) and the
  device colours (0 .. ncolors - 1, some possibly unused); sets mc->ncolors (the non-empty colours), mc->colptr and
  mc->nnz; the host pattern arrays of mc stay unset (SpTrsvCUDAMCDownloadPattern())
*/
PetscErrorCode SpTrsvCUDAMCCreateFromColors(SpTrsvMC mc, const int *ia, const int *ja, const int *color, PetscInt ncolors, SpTrsvCUDAMC *gout)
{
  SpTrsvCUDAMC g;
  cudaStream_t st = NULL;
  const int    n = (int)mc->n;
  int         *keys = NULL, *rows = NULL, *len = NULL, *cnt = NULL, *hcnt = NULL, hmiss = INT_MAX, nnz = 0, endbit = 1;
  void        *temp  = NULL;
  size_t       bytes = 0, b2 = 0;

  PetscFunctionBegin;
  PetscCall(SpTrsvCUDAGetStream(&st));
  PetscCall(SpTrsvMCNewDevice(mc, &g));
  *gout = g; /* freed by SpTrsvCUDAMCDestroy() from here on */
  while (endbit < 31 && ((PetscInt64)1 << endbit) < ncolors) endbit++;
  PetscCall(SpTrsvCUDAMalloc((void **)&g->perm, (size_t)(n + 1) * sizeof(int), "g->perm"));
  PetscCall(SpTrsvCUDAMalloc((void **)&g->ptr, (size_t)(n + 1) * sizeof(int), "g->ptr"));
  PetscCall(SpTrsvCUDAMalloc((void **)&g->dmap, (size_t)(n + 1) * sizeof(int), "g->dmap"));
  PetscCall(SpTrsvCUDAMalloc((void **)&keys, (size_t)(n + 1) * sizeof(int), "keys"));
  PetscCall(SpTrsvCUDAMalloc((void **)&rows, (size_t)(n + 1) * sizeof(int), "rows"));
  PetscCall(SpTrsvCUDAMalloc((void **)&len, (size_t)(n + 1) * sizeof(int), "len"));
  PetscCall(SpTrsvCUDAMalloc((void **)&cnt, (size_t)(ncolors + 2) * sizeof(int), "cnt"));
  SpTrsvCUDACall(cudaMemsetAsync(cnt, 0, (size_t)ncolors * sizeof(int), st));
  SpTrsvCUDACall(cudaMemcpyAsync(cnt + ncolors, &hmiss, sizeof(int), cudaMemcpyHostToDevice, st));
  SpTrsvCUDACall(cudaMemsetAsync(len + n, 0, sizeof(int), st));
  if (n) {
    SpTrsvMCIotaKernel<<<SpTrsvCUDAVecGrid(n), SPTRSV_CUDA_VEC_BLOCK, 0, st>>>(n, rows);
    SpTrsvCUDACheckLaunch();
    SpTrsvMCCountKernel<<<SpTrsvCUDAVecGrid(n), SPTRSV_CUDA_VEC_BLOCK, 0, st>>>(n, color, cnt);
    SpTrsvCUDACheckLaunch();
    /* stable: the rows of a colour stay ascending */
    SpTrsvCUDACall(cub::DeviceRadixSort::SortPairs(NULL, bytes, color, keys, rows, g->perm, n, 0, endbit, st));
    SpTrsvCUDACall(cub::DeviceScan::ExclusiveSum(NULL, b2, len, g->ptr, n + 1, st));
    bytes = PetscMax(bytes, b2);
    PetscCall(SpTrsvCUDAMalloc((void **)&temp, bytes, "temp"));
    SpTrsvCUDACall(cub::DeviceRadixSort::SortPairs(temp, bytes, color, keys, rows, g->perm, n, 0, endbit, st));
    SpTrsvMCLengthKernel<<<SpTrsvCUDAVecGrid(n), SPTRSV_CUDA_VEC_BLOCK, 0, st>>>(n, ia, ja, g->perm, len, g->dmap, cnt + ncolors);
    SpTrsvCUDACheckLaunch();
    SpTrsvCUDACall(cub::DeviceScan::ExclusiveSum(temp, bytes, len, g->ptr, n + 1, st));
  } else SpTrsvCUDACall(cudaMemsetAsync(g->ptr, 0, sizeof(int), st));
  PetscCall(PetscMalloc1(ncolors + 1, &hcnt));
  SpTrsvCUDACall(cudaMemcpyAsync(hcnt, cnt, (size_t)(ncolors + 1) * sizeof(int), cudaMemcpyDeviceToHost, st));
  SpTrsvCUDACall(cudaMemcpyAsync(&nnz, g->ptr + n, sizeof(int), cudaMemcpyDeviceToHost, st));
  SpTrsvCUDACall(cudaStreamSynchronize(st));
  hmiss = hcnt[ncolors];
  SpTrsvCUDACall(SpTrsvCUDAFree(keys));
  SpTrsvCUDACall(SpTrsvCUDAFree(rows));
  SpTrsvCUDACall(SpTrsvCUDAFree(len));
  SpTrsvCUDACall(SpTrsvCUDAFree(cnt));
  SpTrsvCUDACall(SpTrsvCUDAFree(temp));
  if (hmiss != INT_MAX) PetscCall(PetscFree(hcnt));
  PetscCheck(hmiss == INT_MAX, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "Gauss-Seidel: row %d has no diagonal entry", hmiss);
  /* the non-empty colours */
  PetscCall(PetscMalloc1(ncolors + 1, &mc->colptr));
  mc->colptr[0] = 0;
  mc->ncolors   = 0;
  for (PetscInt c = 0; c < ncolors; c++)
    if (hcnt[c]) {
      mc->colptr[mc->ncolors + 1] = mc->colptr[mc->ncolors] + hcnt[c];
      mc->ncolors++;
    }
  PetscCall(PetscFree(hcnt));
  mc->nnz = nnz;
  PetscCall(SpTrsvCUDAMalloc((void **)&g->idx, (size_t)(nnz + 1) * sizeof(int), "g->idx"));
  PetscCall(SpTrsvCUDAMalloc((void **)&g->vmap, (size_t)(nnz + 1) * sizeof(int), "g->vmap"));
  if (n) {
    SpTrsvMCFillKernel<<<SpTrsvCUDAVecGrid(n), SPTRSV_CUDA_VEC_BLOCK, 0, st>>>(n, ia, ja, g->perm, g->ptr, g->idx, g->vmap);
    SpTrsvCUDACheckLaunch();
  }
  PetscCall(SpTrsvMCFinishDevice(mc, g));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvCUDAMCColorAndCreate - colour and build on the GPU (SpTrsvMCCreate() on the CUDA backend): the pattern is the
  device CSR (ia, ja) when given (a MATSEQAIJCUSPARSE's, in place), else the host one (hia, hja) uploaded; the colours are
  hcolor (nc of them: the natural colouring, made on the host) uploaded, or the GPU's by spec (auto: dmda when the grid
  rule colours the matrix, else jp). Sets mc->coloring, rounds, grid_badrow, on_device. An explicit dmda rule that
  does not colour the matrix leaves *gout NULL and its first bad row in mc->grid_badrow (the caller names the option).
*/
PetscErrorCode SpTrsvCUDAMCColorAndCreate(SpTrsvMC mc, const int *ia, const int *ja, const PetscInt *hia, const PetscInt *hja, const SpTrsvColoringSpec *spec, const PetscInt *hcolor, PetscInt nc, SpTrsvCUDAMC *gout)
{
  cudaStream_t       st  = NULL;
  int               *uia = NULL, *uja = NULL, *color = NULL;
  PetscInt           bad = -1, rounds = 0;
  SpTrsvColoringType type = spec->type;

  PetscFunctionBegin;
  *gout = NULL;
  PetscCall(SpTrsvCUDAGetStream(&st));
  if (!ia) {
    PetscCheck(mc->n < INT_MAX && hia[mc->n] < INT_MAX, PETSC_COMM_SELF, PETSC_ERR_INT_OVERFLOW, "The CUDA kernels use 32-bit indices: n = %" PetscInt_FMT ", %" PetscInt_FMT " entries must be below %d", mc->n, hia[mc->n], INT_MAX);
    PetscCall(SpTrsvCUDAUploadIndices(hia, mc->n + 1, &uia, st));
    PetscCall(SpTrsvCUDAUploadIndices(hja, hia[mc->n], &uja, st));
    ia = uia;
    ja = uja;
  }
  if (hcolor) {
    PetscCall(SpTrsvCUDAUploadIndices(hcolor, mc->n, &color, st));
    type = SPTRSV_COLORING_NATURAL;
  } else {
    PetscCall(SpTrsvCUDAMalloc((void **)&color, (size_t)(mc->n + 1) * sizeof(int), "color"));
    if (spec->grid.dim > 0 && (type == SPTRSV_COLORING_DMDA || type == SPTRSV_COLORING_AUTO)) {
      PetscCall(SpTrsvCUDAColoring(mc->n, ia, ja, SPTRSV_COLORING_DMDA, &spec->grid, color, &nc, &bad, &rounds));
      if (bad < 0) type = SPTRSV_COLORING_DMDA;
      else {
        mc->grid_badrow = bad;
        if (type == SPTRSV_COLORING_DMDA) type = SPTRSV_COLORING_AUTO; /* no storage: the caller reports */
        else type = SPTRSV_COLORING_JP;
      }
    } else type = SPTRSV_COLORING_JP;
    if (type == SPTRSV_COLORING_JP) PetscCall(SpTrsvCUDAColoring(mc->n, ia, ja, SPTRSV_COLORING_JP, NULL, color, &nc, &bad, &rounds));
  }
  if (type != SPTRSV_COLORING_AUTO) {
    mc->coloring  = type;
    mc->rounds    = rounds;
    mc->on_device = PETSC_TRUE;
    PetscCall(SpTrsvCUDAMCCreateFromColors(mc, ia, ja, color, nc, gout));
  }
  SpTrsvCUDACall(SpTrsvCUDAFree(uia));
  SpTrsvCUDACall(SpTrsvCUDAFree(uja));
  SpTrsvCUDACall(SpTrsvCUDAFree(color));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* a device int array of len entries into a new host PetscInt array */
static PetscErrorCode SpTrsvMCDownloadInts(const int *d, PetscInt len, PetscInt *h, cudaStream_t st)
{
  int *tmp = NULL;

  PetscFunctionBegin;
  if (!len) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscMalloc1(len, &tmp));
  SpTrsvCUDACall(cudaMemcpyAsync(tmp, d, (size_t)len * sizeof(int), cudaMemcpyDeviceToHost, st));
  SpTrsvCUDACall(cudaStreamSynchronize(st));
  for (PetscInt k = 0; k < len; k++) h[k] = tmp[k];
  PetscCall(PetscFree(tmp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* SpTrsvCUDAMCDownloadPattern - the host arrays perm, ptr, idx, vmap, dmap of mc (allocated by the caller) from the device */
PetscErrorCode SpTrsvCUDAMCDownloadPattern(SpTrsvCUDAMC g, SpTrsvMC mc)
{
  cudaStream_t st = NULL;

  PetscFunctionBegin;
  PetscCall(SpTrsvCUDAGetStream(&st));
  PetscCall(SpTrsvMCDownloadInts(g->perm, mc->n, mc->perm, st));
  PetscCall(SpTrsvMCDownloadInts(g->ptr, mc->n + 1, mc->ptr, st));
  PetscCall(SpTrsvMCDownloadInts(g->dmap, mc->n, mc->dmap, st));
  PetscCall(SpTrsvMCDownloadInts(g->idx, mc->nnz, mc->idx, st));
  PetscCall(SpTrsvMCDownloadInts(g->vmap, mc->nnz, mc->vmap, st));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* SpTrsvCUDAMCUploadValues - values and idiag by position from host arrays; complete before any later sweep */
PetscErrorCode SpTrsvCUDAMCUploadValues(SpTrsvCUDAMC g, const PetscScalar *val, const PetscScalar *idiag)
{
  cudaStream_t st = NULL;

  PetscFunctionBegin;
  PetscCall(SpTrsvCUDAGetStream(&st));
  if (g->nnz) SpTrsvCUDACall(cudaMemcpyAsync(g->val, val, (size_t)g->nnz * sizeof(PetscScalar), cudaMemcpyHostToDevice, st));
  if (g->n) SpTrsvCUDACall(cudaMemcpyAsync(g->idiag, idiag, (size_t)g->n * sizeof(PetscScalar), cudaMemcpyHostToDevice, st));
  SpTrsvCUDACall(cudaStreamSynchronize(st));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* SpTrsvCUDAMCGatherValues - values and idiag from the matrix's device value array a; *clean: no flagged entry */
PetscErrorCode SpTrsvCUDAMCGatherValues(SpTrsvCUDAMC g, const PetscScalar *a, PetscBool *clean)
{
  cudaStream_t st = NULL;
  int          hflag = 0;

  PetscFunctionBegin;
  PetscCall(SpTrsvCUDAGetStream(&st));
  SpTrsvCUDACall(cudaMemsetAsync(g->flag, 0, sizeof(int), st));
  SpTrsvCUDACall(SpTrsvCUDALaunchGSGather(g->nnz, g->vmap, a, g->val, g->flag, st));
  SpTrsvCUDACall(SpTrsvCUDALaunchGSInvDiag(g->n, g->dmap, a, g->idiag, g->omega, g->shift, g->plain, g->flag, st));
  SpTrsvCUDACall(cudaMemcpyAsync(&hflag, g->flag, sizeof(int), cudaMemcpyDeviceToHost, st));
  SpTrsvCUDACall(cudaStreamSynchronize(st));
  *clean = (PetscBool)!hflag;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* SpTrsvCUDAMCSweep - one sweep on device arrays (b != x), enqueued on the backend's stream */
PetscErrorCode SpTrsvCUDAMCSweep(SpTrsvCUDAMC g, PetscBool backward, PetscBool zero, const PetscScalar *b, PetscScalar *x)
{
  SpTrsvCUDAGraph  *gr = &g->graph[backward ? 1 : 0];
  SpTrsvCUDAVecPtrs v  = {b, x, NULL};
  cudaStream_t      st = NULL;

  PetscFunctionBegin;
  if (!g->n) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(SpTrsvCUDAGetStream(&st));
  if (zero) SpTrsvCUDACall(cudaMemsetAsync(x, 0, (size_t)g->n * sizeof(PetscScalar), st));
  if (gr->exec) PetscCall(SpTrsvCUDAGraphLaunch(gr, g->d_vp[backward ? 1 : 0], v, st, NULL)); /* one d_vp per direction */
  else SpTrsvCUDACall(SpTrsvMCLaunch(g, backward, v, NULL, st));
  PetscFunctionReturn(PETSC_SUCCESS);
}
#else /* complex or exotic scalars: the CUDA backend reports itself unavailable, nothing here is called */
PetscErrorCode SpTrsvCUDAMCCreate(SpTrsvMC mc, SpTrsvCUDAMC *gout)
{
  SETERRQ(PETSC_COMM_SELF, PETSC_ERR_SUP, "The CUDA kernels need real scalars");
}
PetscErrorCode SpTrsvCUDAMCCreateFromColors(SpTrsvMC mc, const int *ia, const int *ja, const int *color, PetscInt ncolors, SpTrsvCUDAMC *gout)
{
  SETERRQ(PETSC_COMM_SELF, PETSC_ERR_SUP, "The CUDA kernels need real scalars");
}
PetscErrorCode SpTrsvCUDAMCColorAndCreate(SpTrsvMC mc, const int *ia, const int *ja, const PetscInt *hia, const PetscInt *hja, const SpTrsvColoringSpec *spec, const PetscInt *hcolor, PetscInt nc, SpTrsvCUDAMC *gout)
{
  SETERRQ(PETSC_COMM_SELF, PETSC_ERR_SUP, "The CUDA kernels need real scalars");
}
PetscErrorCode SpTrsvCUDAMCDownloadPattern(SpTrsvCUDAMC g, SpTrsvMC mc)
{
  SETERRQ(PETSC_COMM_SELF, PETSC_ERR_SUP, "The CUDA kernels need real scalars");
}
PetscErrorCode SpTrsvCUDAMCUploadValues(SpTrsvCUDAMC g, const PetscScalar *val, const PetscScalar *idiag)
{
  SETERRQ(PETSC_COMM_SELF, PETSC_ERR_SUP, "The CUDA kernels need real scalars");
}
PetscErrorCode SpTrsvCUDAMCGatherValues(SpTrsvCUDAMC g, const PetscScalar *a, PetscBool *clean)
{
  SETERRQ(PETSC_COMM_SELF, PETSC_ERR_SUP, "The CUDA kernels need real scalars");
}
PetscErrorCode SpTrsvCUDAMCSweep(SpTrsvCUDAMC g, PetscBool backward, PetscBool zero, const PetscScalar *b, PetscScalar *x)
{
  SETERRQ(PETSC_COMM_SELF, PETSC_ERR_SUP, "The CUDA kernels need real scalars");
}
#endif

PetscErrorCode SpTrsvCUDAMCDestroy(SpTrsvCUDAMC *gp)
{
  SpTrsvCUDAMC g = *gp;

  PetscFunctionBegin;
  if (!g) PetscFunctionReturn(PETSC_SUCCESS);
  for (int d = 0; d < 2; d++) {
    PetscCall(SpTrsvCUDAGraphDestroy(&g->graph[d]));
    SpTrsvCUDACall(SpTrsvCUDAFree(g->d_vp[d]));
  }
  SpTrsvCUDACall(SpTrsvCUDAFree(g->perm));
  SpTrsvCUDACall(SpTrsvCUDAFree(g->ptr));
  SpTrsvCUDACall(SpTrsvCUDAFree(g->idx));
  SpTrsvCUDACall(SpTrsvCUDAFree(g->vmap));
  SpTrsvCUDACall(SpTrsvCUDAFree(g->dmap));
  SpTrsvCUDACall(SpTrsvCUDAFree(g->val));
  SpTrsvCUDACall(SpTrsvCUDAFree(g->idiag));
  SpTrsvCUDACall(SpTrsvCUDAFree(g->flag));
  PetscCall(PetscFree(g->colptr));
  PetscCall(PetscFree(*gp));
  PetscFunctionReturn(PETSC_SUCCESS);
}
