/*
   The value gathers of PC gs on the GPU (declared in gs_values.h): a matrix's device value array read through the
   index maps of an ordering, NaN/Inf values and MatSOR's failing diagonals flagged for the host to name.
*/
#include "gs_values.h"
#include "device_tri.h" /* SPTRSV_CUDA_VEC_BLOCK, SpTrsvCUDAVecGrid() */

#if defined(SPTRSV_CUDA_SCALAR_OK)
/* val[q] = a[map[q]]; a non-finite value sets the flag */
__global__ void SpTrsvGSGatherKernel(int nnz, const int *__restrict__ map, const PetscScalar *__restrict__ a, PetscScalar *__restrict__ val, int *flag)
{
  for (size_t q = (size_t)blockIdx.x * blockDim.x + threadIdx.x; q < (size_t)nnz; q += (size_t)gridDim.x * blockDim.x) {
    const PetscScalar v = a[map[q]];
    if (!isfinite(v)) *flag = 1;
    val[q] = v;
  }
}

/* idiag[k] = 1 / a_kk (plain) or omega / (a_kk + shift); a non-finite entry, or a zero a_kk when plain, sets the flag */
__global__ void SpTrsvGSInvDiagKernel(int n, const int *__restrict__ dmap, const PetscScalar *__restrict__ a, PetscScalar *__restrict__ idiag, PetscReal omega, PetscReal shift, int plain, int *flag)
{
  for (size_t k = (size_t)blockIdx.x * blockDim.x + threadIdx.x; k < (size_t)n; k += (size_t)gridDim.x * blockDim.x) {
    const PetscScalar d  = a[dmap[k]];
    const PetscScalar id = plain ? (PetscScalar)1 / d : (PetscScalar)omega / (d + (PetscScalar)shift);
    if (!isfinite(d) || !isfinite(id) || (plain && d == (PetscScalar)0)) *flag = 1;
    idiag[k] = id;
  }
}

cudaError_t SpTrsvCUDALaunchGSGather(int nnz, const int *map, const PetscScalar *a, PetscScalar *val, int *flag, cudaStream_t st)
{
  if (!nnz) return cudaSuccess;
  SpTrsvGSGatherKernel<<<SpTrsvCUDAVecGrid(nnz), SPTRSV_CUDA_VEC_BLOCK, 0, st>>>(nnz, map, a, val, flag);
  return cudaGetLastError();
}

cudaError_t SpTrsvCUDALaunchGSInvDiag(int n, const int *dmap, const PetscScalar *a, PetscScalar *idiag, PetscReal omega, PetscReal shift, int plain, int *flag, cudaStream_t st)
{
  if (!n) return cudaSuccess;
  SpTrsvGSInvDiagKernel<<<SpTrsvCUDAVecGrid(n), SPTRSV_CUDA_VEC_BLOCK, 0, st>>>(n, dmap, a, idiag, omega, shift, plain, flag);
  return cudaGetLastError();
}
#else /* complex or exotic scalars: the CUDA backend reports itself unavailable, nothing here is called */
cudaError_t SpTrsvCUDALaunchGSGather(int nnz, const int *map, const PetscScalar *a, PetscScalar *val, int *flag, cudaStream_t st)
{
  return cudaErrorNotSupported;
}
cudaError_t SpTrsvCUDALaunchGSInvDiag(int n, const int *dmap, const PetscScalar *a, PetscScalar *idiag, PetscReal omega, PetscReal shift, int plain, int *flag, cudaStream_t st)
{
  return cudaErrorNotSupported;
}
#endif
