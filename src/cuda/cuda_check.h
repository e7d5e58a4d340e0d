/* Turning CUDA runtime errors into PETSc errors (private to the CUDA backend) */
#pragma once
#include <cuda_runtime.h>
#include <petscsys.h>
#include <sptrsv/compat.h>

/*
   SpTrsvCUDACall(expr) - evaluate a CUDA runtime call; on failure raise PETSC_ERR_GPU with the CUDA
   error's name and text and the failing expression (PETSc adds file, line and function). For use in
   functions that return PetscErrorCode, between PetscFunctionBegin and PetscFunctionReturn.
*/
#define SpTrsvCUDACall(...) \
  do { \
    const cudaError_t sptrsv_cuda_err_ = (__VA_ARGS__); \
    if (PetscUnlikely(sptrsv_cuda_err_ != cudaSuccess)) { \
      (void)cudaGetLastError(); /* clear a non-sticky error so later calls are not blamed for it */ \
      SETERRQ(PETSC_COMM_SELF, PETSC_ERR_GPU, "CUDA error %d %s (%s) in %s", (int)sptrsv_cuda_err_, cudaGetErrorName(sptrsv_cuda_err_), cudaGetErrorString(sptrsv_cuda_err_), #__VA_ARGS__); \
    } \
  } while (0)

/* SpTrsvCUDACheckLaunch() - check the kernel launch just made (configuration errors; no synchronisation) */
#define SpTrsvCUDACheckLaunch() SpTrsvCUDACall(cudaGetLastError())

/*
   Device allocations of the plugin (backend_cuda.cu): every cudaMalloc/cudaFree of src/cuda goes through these, so
   that each is counted in the current tally and the plugin's totals (include/sptrsv/devmem.h) and a failure is a
   PETSc error (PETSC_ERR_MEM) naming what was asked for, the bytes and the free device memory, never a crash.
   SpTrsvCUDAMalloc(p, bytes, what); SpTrsvCUDAFree(p) returns a cudaError_t, for SpTrsvCUDACall(SpTrsvCUDAFree(p)).
   SpTrsvCUDAMallocN(ptr, count): count + 1 elements of *ptr (the usual "+ 1": never a zero-byte request), the
   count computed in 64 bits, named by the expression in the error.
*/
PetscErrorCode SpTrsvCUDAMalloc(void **, size_t, const char *);
cudaError_t    SpTrsvCUDAFree(const void *);
#define SpTrsvCUDAMallocN(ptr, count) PetscCall(SpTrsvCUDAMalloc((void **)&(ptr), ((size_t)(count) + 1) * sizeof(*(ptr)), #ptr))
