/* Index uploads shared by the CUDA sources (private to them; defined in backend_cuda.cu) */
#pragma once
#include "cuda_check.h"

/*
  SpTrsvCUDAMallocInt - a new device int array of n + 1 entries (the last left unset) holding the n ints
  of h; asynchronous on st (h must stay valid until st has run the copy)
*/
PetscErrorCode SpTrsvCUDAMallocInt(int **, PetscInt, const int *, cudaStream_t);

/*
  SpTrsvCUDAUploadIndices - the same from a PetscInt array of len entries; the caller checked that every
  value fits in an int. h may change once it returns (a 32-bit PetscInt array is copied as it is, from pageable
  memory: staged before cudaMemcpyAsync returns; a 64-bit one through an int copy, synchronous on st).
*/
PetscErrorCode SpTrsvCUDAUploadIndices(const PetscInt *, PetscInt, int **, cudaStream_t);

/*
  Index arrays kept on the device for one setup (a factor's symbolic phase): the L and U patterns its analysis and its
  GPU ILU's setup would each upload, uploaded once (the setup's side job, include/sptrsv/threads.h, while the host's
  threads analyse) and read from here. The caller keeps the host arrays unchanged and alive from Keep to Release.

  SpTrsvCUDAIndicesKeep - uploads the len PetscInts of h as ints (a device array of len + 1), kept for the setup; nothing
  when h is kept already, the table is full or len does not fit 32-bit indices (then readers upload it themselves)
  SpTrsvCUDAIndicesKept - *d: the kept copy of exactly (h, len), else NULL
  SpTrsvCUDAIndicesRelease - frees every kept copy (the end of the setup, an error included); the table is empty after it
  whatever fails
*/
PetscErrorCode SpTrsvCUDAIndicesKeep(const PetscInt *, PetscInt);
PetscErrorCode SpTrsvCUDAIndicesKept(const PetscInt *, PetscInt, const int **);
PetscErrorCode SpTrsvCUDAIndicesRelease(void);
