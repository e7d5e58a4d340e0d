/*
   Distance-1 colouring on the GPU (include/sptrsv/coloring.h; the host reference is src/mat/gs/coloring.c):

   - dmda: one thread per row computes SpTrsvGridColor(); a second kernel looks for an entry (r, c), c != r, whose ends
     share a colour (the smallest such row, atomicMin). Reading A's own rows is enough: the conflict is symmetric.
   - jp: the symmetrized graph needs the rows that name a row (A^T's pattern, off-diagonal): counted with atomics,
     scanned (CUB), filled with atomics (the order inside a list does not matter below). Then rounds, one launch each,
     one thread per uncoloured row v: v wins when no uncoloured neighbour comes before it in the jp order
     (SpTrsvColoringBefore()); a winner takes the smallest colour that none of its coloured neighbours holds
     (64-colour windows of a bit mask). The loop ends when a round leaves no row uncoloured.

   Why the result is the host's greedy in jp order, whatever the timing (include/sptrsv/coloring.h has the argument):
   a colour, once stored, never changes, and every read of color[] is a volatile load, so a thread sees each entry as
   -1 or its final value and, reading an entry twice, never sees it go back to -1. When v wins, each neighbour that
   comes before v was seen coloured (else v loses), and no neighbour after v can be coloured yet (it waits for v):
   the colours v reads when it picks are exactly those of its neighbours before it. No thread waits on another: a
   round is one launch, and each round colours at least the first uncoloured row in jp order, so at most n rounds run
   (the loop checks that bound).
*/
#include <sptrsv/coloring.h>
#include "cuda_check.h"
#include "device_tri.h"
#include <climits>
#include <cub/cub.cuh>

__global__ void SpTrsvColGridKernel(int n, SpTrsvGrid grid, int *__restrict__ color)
{
  for (size_t r = (size_t)blockIdx.x * blockDim.x + threadIdx.x; r < (size_t)n; r += (size_t)gridDim.x * blockDim.x) color[r] = (int)SpTrsvGridColor(&grid, (PetscInt)r);
}

/* *bad = min over rows r with an entry (r, c), c != r, color[c] == color[r] */
__global__ void SpTrsvColCheckKernel(int n, const int *__restrict__ ia, const int *__restrict__ ja, const int *__restrict__ color, int *bad)
{
  for (size_t r = (size_t)blockIdx.x * blockDim.x + threadIdx.x; r < (size_t)n; r += (size_t)gridDim.x * blockDim.x) {
    const int cr = color[r];
    for (int p = ia[r]; p < ia[r + 1]; p++) {
      const int c = ja[p];
      if (c != (int)r && color[c] == cr) {
        atomicMin(bad, (int)r);
        break;
      }
    }
  }
}

/* ti[c + 1] = the off-diagonal entries of column c */
__global__ void SpTrsvColCountKernel(int n, const int *__restrict__ ia, const int *__restrict__ ja, int *ti)
{
  for (size_t r = (size_t)blockIdx.x * blockDim.x + threadIdx.x; r < (size_t)n; r += (size_t)gridDim.x * blockDim.x)
    for (int p = ia[r]; p < ia[r + 1]; p++)
      if (ja[p] != (int)r) atomicAdd(ti + ja[p] + 1, 1);
}

/* tj[ti[c] ..]: the rows with an off-diagonal entry in column c (any order); fill counts the entries placed */
__global__ void SpTrsvColFillKernel(int n, const int *__restrict__ ia, const int *__restrict__ ja, const int *__restrict__ ti, int *fill, int *tj)
{
  for (size_t r = (size_t)blockIdx.x * blockDim.x + threadIdx.x; r < (size_t)n; r += (size_t)gridDim.x * blockDim.x)
    for (int p = ia[r]; p < ia[r + 1]; p++) {
      const int c = ja[p];
      if (c != (int)r) tj[ti[c] + atomicAdd(fill + c, 1)] = (int)r;
    }
}

/* does an uncoloured neighbour in list [p, q) of v come before v? */
__device__ static bool SpTrsvColBeaten(int v, int p, int q, const int *__restrict__ adj, const volatile int *color)
{
  for (; p < q; p++) {
    const int u = adj[p];
    if (u != v && color[u] < 0 && SpTrsvColoringBefore((unsigned int)u, (unsigned int)v)) return true;
  }
  return false;
}

/* the colours in [base, base + 64) held by the neighbours in list [p, q) of v, as bits */
__device__ static unsigned long long SpTrsvColMask(int v, int p, int q, const int *__restrict__ adj, const volatile int *color, int base)
{
  unsigned long long m = 0;

  for (; p < q; p++) {
    const int u = adj[p];
    if (u != v) {
      const int c = color[u];
      if (c >= base && c < base + 64) m |= 1ULL << (c - base);
    }
  }
  return m;
}

/* one jp round: *left counts the rows still uncoloured after it, *maxc the largest colour */
__global__ void SpTrsvColJPKernel(int n, const int *__restrict__ ia, const int *__restrict__ ja, const int *__restrict__ ti, const int *__restrict__ tj, volatile int *color, int *left, int *maxc)
{
  for (size_t r = (size_t)blockIdx.x * blockDim.x + threadIdx.x; r < (size_t)n; r += (size_t)gridDim.x * blockDim.x) {
    const int v = (int)r;
    int       c;

    if (color[v] >= 0) continue;
    if (SpTrsvColBeaten(v, ia[v], ia[v + 1], ja, color) || SpTrsvColBeaten(v, ti[v], ti[v + 1], tj, color)) {
      atomicAdd(left, 1);
      continue;
    }
    for (int base = 0;; base += 64) {
      const unsigned long long m = SpTrsvColMask(v, ia[v], ia[v + 1], ja, color, base) | SpTrsvColMask(v, ti[v], ti[v + 1], tj, color, base);
      if (~m) {
        c = base + __ffsll((long long)~m) - 1;
        break;
      }
    }
    color[v] = c;
    atomicMax(maxc, c);
  }
}

#define SPTRSV_COL_MALLOC(ptr, count) SpTrsvCUDAMallocN(ptr, count)

/* the jp rounds; the transposed pattern is freed before returning */
static PetscErrorCode SpTrsvCUDAColoringJP(PetscInt n, const int *ia, const int *ja, int *color, PetscInt *ncolors, PetscInt *rounds, cudaStream_t st)
{
  int   *ti = NULL, *tj = NULL, *fill = NULL, *cnt = NULL, h[2] = {0, 0}, nnz = 0;
  void  *temp  = NULL;
  size_t bytes = 0;

  PetscFunctionBegin;
  SpTrsvCUDACall(cudaMemcpyAsync(&nnz, ia + n, sizeof(int), cudaMemcpyDeviceToHost, st));
  SpTrsvCUDACall(cudaStreamSynchronize(st));
  SPTRSV_COL_MALLOC(ti, n + 1);
  SPTRSV_COL_MALLOC(fill, n);
  SPTRSV_COL_MALLOC(tj, nnz);
  SPTRSV_COL_MALLOC(cnt, 2);
  SpTrsvCUDACall(cudaMemsetAsync(ti, 0, (size_t)(n + 1) * sizeof(int), st));
  SpTrsvCUDACall(cudaMemsetAsync(fill, 0, (size_t)n * sizeof(int), st));
  SpTrsvCUDACall(cudaMemsetAsync(color, 0xff, (size_t)n * sizeof(int), st)); /* -1: uncoloured */
  SpTrsvColCountKernel<<<SpTrsvCUDAVecGrid(n), SPTRSV_CUDA_VEC_BLOCK, 0, st>>>((int)n, ia, ja, ti);
  SpTrsvCUDACheckLaunch();
  SpTrsvCUDACall(cub::DeviceScan::InclusiveSum(NULL, bytes, ti, ti, (int)n + 1, st));
  PetscCall(SpTrsvCUDAMalloc((void **)&temp, bytes, "temp"));
  SpTrsvCUDACall(cub::DeviceScan::InclusiveSum(temp, bytes, ti, ti, (int)n + 1, st));
  SpTrsvColFillKernel<<<SpTrsvCUDAVecGrid(n), SPTRSV_CUDA_VEC_BLOCK, 0, st>>>((int)n, ia, ja, ti, fill, tj);
  SpTrsvCUDACheckLaunch();
  SpTrsvCUDACall(cudaMemsetAsync(cnt + 1, 0, sizeof(int), st));
  for (*rounds = 0;; (*rounds)++) {
    PetscCheck(*rounds <= n, PETSC_COMM_SELF, PETSC_ERR_PLIB, "The GPU colouring did not end after %" PetscInt_FMT " rounds (%d rows left)", *rounds, h[0]);
    SpTrsvCUDACall(cudaMemsetAsync(cnt, 0, sizeof(int), st));
    SpTrsvColJPKernel<<<SpTrsvCUDAVecGrid(n), SPTRSV_CUDA_VEC_BLOCK, 0, st>>>((int)n, ia, ja, ti, tj, color, cnt, cnt + 1);
    SpTrsvCUDACheckLaunch();
    SpTrsvCUDACall(cudaMemcpyAsync(h, cnt, 2 * sizeof(int), cudaMemcpyDeviceToHost, st));
    SpTrsvCUDACall(cudaStreamSynchronize(st));
    if (!h[0]) break;
  }
  (*rounds)++;
  *ncolors = n ? h[1] + 1 : 0;
  SpTrsvCUDACall(SpTrsvCUDAFree(temp));
  SpTrsvCUDACall(SpTrsvCUDAFree(ti));
  SpTrsvCUDACall(SpTrsvCUDAFree(tj));
  SpTrsvCUDACall(SpTrsvCUDAFree(fill));
  SpTrsvCUDACall(SpTrsvCUDAFree(cnt));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* SpTrsvCUDAColoring - see include/sptrsv/coloring.h */
PetscErrorCode SpTrsvCUDAColoring(PetscInt n, const int *ia, const int *ja, SpTrsvColoringType type, const SpTrsvGrid *grid, int *color, PetscInt *ncolors, PetscInt *badrow, PetscInt *rounds)
{
  cudaStream_t st = NULL;

  PetscFunctionBegin;
  PetscCall(SpTrsvCUDAGetStream(&st));
  *badrow = -1;
  *rounds = 0;
  *ncolors = 0;
  if (!n) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCheck(n < INT_MAX, PETSC_COMM_SELF, PETSC_ERR_INT_OVERFLOW, "The GPU colouring uses 32-bit indices: n = %" PetscInt_FMT, n);
  if (type == SPTRSV_COLORING_DMDA) {
    int *bad = NULL, hbad = INT_MAX;

    SpTrsvColGridKernel<<<SpTrsvCUDAVecGrid(n), SPTRSV_CUDA_VEC_BLOCK, 0, st>>>((int)n, *grid, color);
    SpTrsvCUDACheckLaunch();
    PetscCall(SpTrsvCUDAMalloc((void **)&bad, sizeof(int), "bad"));
    SpTrsvCUDACall(cudaMemcpyAsync(bad, &hbad, sizeof(int), cudaMemcpyHostToDevice, st));
    SpTrsvColCheckKernel<<<SpTrsvCUDAVecGrid(n), SPTRSV_CUDA_VEC_BLOCK, 0, st>>>((int)n, ia, ja, color, bad);
    SpTrsvCUDACheckLaunch();
    SpTrsvCUDACall(cudaMemcpyAsync(&hbad, bad, sizeof(int), cudaMemcpyDeviceToHost, st));
    SpTrsvCUDACall(cudaStreamSynchronize(st));
    SpTrsvCUDACall(SpTrsvCUDAFree(bad));
    *badrow  = hbad == INT_MAX ? -1 : hbad;
    *ncolors = SpTrsvGridColors(grid);
  } else {
    PetscCheck(type == SPTRSV_COLORING_JP, PETSC_COMM_SELF, PETSC_ERR_SUP, "The GPU colours with jp or dmda, not %s", SpTrsvColoringTypes[type]);
    PetscCall(SpTrsvCUDAColoringJP(n, ia, ja, color, ncolors, rounds, st));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
