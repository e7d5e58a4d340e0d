/* Index uploads shared by the CUDA sources (private to them) */
#pragma once
#include "cuda_check.h"

/*
  SpTrsvCUDAUploadIndices - a new device int array (len + 1 entries, the last left unset) holding the
  PetscInt array h; the caller checked that every value fits in an int. Synchronous on st (the host
  buffer is pageable and freed before returning).
*/
static inline PetscErrorCode SpTrsvCUDAUploadIndices(const PetscInt *h, PetscInt len, int **d, cudaStream_t st)
{
  int *tmp;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(len + 1, &tmp));
  for (PetscInt k = 0; k < len; k++) tmp[k] = (int)h[k];
  SpTrsvCUDACall(cudaMalloc((void **)d, sizeof(int) * (len + 1)));
  if (len) SpTrsvCUDACall(cudaMemcpyAsync(*d, tmp, sizeof(int) * len, cudaMemcpyHostToDevice, st));
  SpTrsvCUDACall(cudaStreamSynchronize(st));
  PetscCall(PetscFree(tmp));
  PetscFunctionReturn(PETSC_SUCCESS);
}
