/* The ISAI column solves on the GPU (src/cuda/isai_kernels.cu; private to the plugin, CUDA builds only) */
#pragma once
#include <sptrsv/isai.h>

/*
   SpTrsvCUDAISAI - device copies of the patterns of a block triangle T and of N ~ T^{-1} (its column
   view), made once per pattern; SpTrsvCUDAISAINumeric() uploads T's values, solves every block column of
   N on the GPU (the arithmetic of SpTrsvISAINumeric(), in the same order) and copies N's values back into
   N->a. Whether a usable GPU is there is the CUDA backend's question (SpTrsvBackendCUDAGet()).
*/
typedef struct _n_SpTrsvCUDAISAI *SpTrsvCUDAISAI;

SPTRSV_INTERN PetscErrorCode SpTrsvCUDAISAICreate(SpTrsvISAI, SpTrsvBlockTri, SpTrsvCUDAISAI *);
SPTRSV_INTERN PetscErrorCode SpTrsvCUDAISAINumeric(SpTrsvCUDAISAI, SpTrsvISAI, SpTrsvBlockTri);
SPTRSV_INTERN PetscErrorCode SpTrsvCUDAISAIDestroy(SpTrsvCUDAISAI *);
