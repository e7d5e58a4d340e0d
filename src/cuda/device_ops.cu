/*
   The device-ops table of a CUDA build (include/sptrsv/deviceops.h): every GPU operation the host code asks for, by
   concern. The petsc part (PETSc's own CUDA types) is src/mat/deviceops.c's, which also picks this table.
*/
#include <sptrsv/deviceops.h>
#include <sptrsv/gs.h>         /* the Gauss-Seidel functions (multicolor.h, gs.h) */
#include <sptrsv/isai.h>       /* the column solves */
#include <sptrsv/biluk.h>      /* the block ILU */
#include <sptrsv/ilu_device.h> /* SpTrsvILUDeviceOpsCUDA */
#include "device_tri.h" /* the backend's device functions (backend_cuda.cu), SpTrsvCUDASolverGetDeviceBuffers() */
#include "cuda_upload.h" /* the kept index arrays */

#if defined(SPTRSV_CUDA_SCALAR_OK)
  #define SPTRSV_ILU_DEVICE_WHY NULL
#else
  #define SPTRSV_ILU_DEVICE_WHY "the GPU numeric factorization needs real scalars"
#endif

const SpTrsvDeviceOps SpTrsvDeviceOpsCUDA = {
  "cuda",
  PETSC_TRUE,
  /* backend */
  {SpTrsvCUDABackendGet, SpTrsvCUDAGetDeviceName, SpTrsvCUDAGetDevice, SpTrsvCUDACheckCurrent, SpTrsvCUDACheckBuffers, SpTrsvCUDASolverGetDeviceBuffers},
  /* mem */
  {SpTrsvCUDAMemoryGetInfo, SpTrsvCUDASpSVMemory},
  /* indices */
  {SpTrsvCUDAIndicesKeep, SpTrsvCUDAIndicesRelease},
  /* gs */
  {SpTrsvCUDAMCCreate, SpTrsvCUDAMCColorAndCreate, SpTrsvCUDAMCDownloadPattern, SpTrsvCUDAMCUploadValues, SpTrsvCUDAMCGatherValues, SpTrsvCUDAMCSweep, SpTrsvCUDAMCDestroy, SpTrsvGSExactDeviceCreate, SpTrsvGSExactDeviceGather, SpTrsvGSExactDeviceGetArrays, SpTrsvGSExactDeviceDownload, SpTrsvGSExactDeviceDestroy},
  /* isai */
  {SpTrsvCUDABILUCreate, SpTrsvCUDABILUNumeric, SpTrsvCUDABILUGetArrays, SpTrsvCUDABILUGetLevels, SpTrsvCUDABILUDestroy, SpTrsvCUDAISAICreate, SpTrsvCUDAISAICreateOnBILU, SpTrsvCUDAISAINumeric, SpTrsvCUDAISAIDownload, SpTrsvCUDAISAIGetDeviceValues, SpTrsvCUDAISAIDestroy, SpTrsvCUDAExpandCreate, SpTrsvCUDAExpandApply, SpTrsvCUDAExpandDestroy, SpTrsvCUDABSRCreate, SpTrsvCUDABSRMult, SpTrsvCUDABSRDestroy},
  /* ilu */
  {&SpTrsvILUDeviceOpsCUDA, SPTRSV_ILU_DEVICE_WHY},
  &SpTrsvDevicePETSc,
};
