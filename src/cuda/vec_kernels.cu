/* The kernels every path shares: the CSC sweep right-hand side, the copy that starts a push (CSC) solve,
   the graph's vector pointers, and vector and permutation kernels (private to the CUDA backend) */
#include "row_ops.cuh"

#if defined(SPTRSV_CUDA_SCALAR_OK)

/* CSC sweeps: w[i] = b[i] + cdiag_i xold[i] - sum_j R_ij xold[j]; group g of K lanes takes the rest row
   at schedule position g. Nothing in this launch writes xold (or x), so plain loads are safe. */
template <int K>
__global__ void __launch_bounds__(SPTRSV_CUDA_ROW_BLOCK) SpTrsvSweepRHSKernel(const SpTrsvCUDATri t, int n, SpTrsvCUDAVecPtrs v, PetscScalar *w, const SpTrsvCUDAVecPtrs *vp)
{
  const long long g      = (long long)blockIdx.x * (SPTRSV_CUDA_ROW_BLOCK / K) + threadIdx.x / K;
  const bool      active = g < n;
  const int       k = active ? (int)g : 0, lane = threadIdx.x & (K - 1);
  PetscScalar     sum;

  if (vp) SpTrsvReadVecPtrs<true>(v, vp);
  sum = SpTrsvGroupSum<K>(SpTrsvRestDot<K, false>(t.rest, k, active, lane, v.xold));
  if (active && lane == 0) {
    const int i = __ldg(t.order + k);
    w[i]        = v.b[i] + __ldg(t.rest.cdiag + k) * v.xold[i] - sum;
  }
}

/* CSC: x = the right-hand side (b, or the sweep's w when w != NULL) before the scatters */
__global__ void SpTrsvCopyKernel(PetscInt n, const PetscScalar *w, SpTrsvCUDAVecPtrs v, const SpTrsvCUDAVecPtrs *vp)
{
  if (vp) SpTrsvReadVecPtrs<false>(v, vp);
  if (w) v.b = w;
  for (size_t k = (size_t)blockIdx.x * blockDim.x + threadIdx.x; k < (size_t)n; k += (size_t)gridDim.x * blockDim.x) v.x[k] = v.b[k];
}

__global__ void SpTrsvSetVecPtrsKernel(SpTrsvCUDAVecPtrs *vp, SpTrsvCUDAVecPtrs v)
{
  *vp = v;
}

/* y may be x: each element is read before it is written, by the same thread (plain loads) */
__global__ void SpTrsvPointwiseMultKernel(PetscInt n, const PetscScalar *d, const PetscScalar *x, PetscScalar *y)
{
  for (size_t k = (size_t)blockIdx.x * blockDim.x + threadIdx.x; k < (size_t)n; k += (size_t)gridDim.x * blockDim.x) y[k] = d[k] * x[k];
}

__global__ void SpTrsvGatherKernel(PetscInt n, const int *perm, const PetscScalar *x, PetscScalar *y)
{
  for (size_t k = (size_t)blockIdx.x * blockDim.x + threadIdx.x; k < (size_t)n; k += (size_t)gridDim.x * blockDim.x) y[k] = x[__ldg(perm + k)];
}

__global__ void SpTrsvScatterKernel(PetscInt n, const int *perm, const PetscScalar *x, PetscScalar *y)
{
  for (size_t k = (size_t)blockIdx.x * blockDim.x + threadIdx.x; k < (size_t)n; k += (size_t)gridDim.x * blockDim.x) y[__ldg(perm + k)] = x[k];
}

/* ---- launchers ----------------------------------------------------------------------------------- */

cudaError_t SpTrsvCUDALaunchSweepRHS(const SpTrsvCUDATri *t, PetscInt n, SpTrsvCUDAVecPtrs v, PetscScalar *w, const SpTrsvCUDAVecPtrs *vp, cudaStream_t st)
{
  const int          K    = t->rest.K;
  const unsigned int grid = (unsigned int)(((PetscInt64)n * K + SPTRSV_CUDA_ROW_BLOCK - 1) / SPTRSV_CUDA_ROW_BLOCK);

  return SpTrsvWithLanes(K, [&](auto KK) { SpTrsvSweepRHSKernel<decltype(KK)::value><<<grid, SPTRSV_CUDA_ROW_BLOCK, 0, st>>>(*t, (int)n, v, w, vp); });
}

cudaError_t SpTrsvCUDALaunchCopyRHS(PetscInt n, const PetscScalar *w, SpTrsvCUDAVecPtrs v, const SpTrsvCUDAVecPtrs *vp, cudaStream_t st)
{
  SpTrsvCopyKernel<<<SpTrsvCUDAVecGrid(n), SPTRSV_CUDA_VEC_BLOCK, 0, st>>>(n, w, v, vp);
  return cudaGetLastError();
}

cudaError_t SpTrsvCUDALaunchSetVecPtrs(SpTrsvCUDAVecPtrs *vp, SpTrsvCUDAVecPtrs v, cudaStream_t st)
{
  SpTrsvSetVecPtrsKernel<<<1, 1, 0, st>>>(vp, v);
  return cudaGetLastError();
}

cudaError_t SpTrsvCUDALaunchPointwiseMult(PetscInt n, const PetscScalar *d, const PetscScalar *x, PetscScalar *y, cudaStream_t st)
{
  SpTrsvPointwiseMultKernel<<<SpTrsvCUDAVecGrid(n), SPTRSV_CUDA_VEC_BLOCK, 0, st>>>(n, d, x, y);
  return cudaGetLastError();
}

cudaError_t SpTrsvCUDALaunchGather(PetscInt n, const int *perm, const PetscScalar *x, PetscScalar *y, cudaStream_t st)
{
  SpTrsvGatherKernel<<<SpTrsvCUDAVecGrid(n), SPTRSV_CUDA_VEC_BLOCK, 0, st>>>(n, perm, x, y);
  return cudaGetLastError();
}

cudaError_t SpTrsvCUDALaunchScatter(PetscInt n, const int *perm, const PetscScalar *x, PetscScalar *y, cudaStream_t st)
{
  SpTrsvScatterKernel<<<SpTrsvCUDAVecGrid(n), SPTRSV_CUDA_VEC_BLOCK, 0, st>>>(n, perm, x, y);
  return cudaGetLastError();
}

cudaError_t SpTrsvCUDAKernelsProbe(void)
{
  cudaFuncAttributes attr;

  /* fails (cudaErrorNoKernelImageForDevice or similar) when this build has no code for the device */
  return cudaFuncGetAttributes(&attr, SpTrsvGatherKernel);
}

#else /* complex or exotic scalars: the backend reports itself unavailable and never launches these */

cudaError_t SpTrsvCUDALaunchSweepRHS(const SpTrsvCUDATri *t, PetscInt n, SpTrsvCUDAVecPtrs v, PetscScalar *w, const SpTrsvCUDAVecPtrs *vp, cudaStream_t st)
{
  return cudaErrorNotSupported;
}
cudaError_t SpTrsvCUDALaunchCopyRHS(PetscInt n, const PetscScalar *w, SpTrsvCUDAVecPtrs v, const SpTrsvCUDAVecPtrs *vp, cudaStream_t st)
{
  return cudaErrorNotSupported;
}
cudaError_t SpTrsvCUDALaunchSetVecPtrs(SpTrsvCUDAVecPtrs *vp, SpTrsvCUDAVecPtrs v, cudaStream_t st)
{
  return cudaErrorNotSupported;
}
cudaError_t SpTrsvCUDALaunchPointwiseMult(PetscInt n, const PetscScalar *d, const PetscScalar *x, PetscScalar *y, cudaStream_t st)
{
  return cudaErrorNotSupported;
}
cudaError_t SpTrsvCUDALaunchGather(PetscInt n, const int *perm, const PetscScalar *x, PetscScalar *y, cudaStream_t st)
{
  return cudaErrorNotSupported;
}
cudaError_t SpTrsvCUDALaunchScatter(PetscInt n, const int *perm, const PetscScalar *x, PetscScalar *y, cudaStream_t st)
{
  return cudaErrorNotSupported;
}
cudaError_t SpTrsvCUDAKernelsProbe(void)
{
  return cudaErrorNotSupported;
}
#endif
