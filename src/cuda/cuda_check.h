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
