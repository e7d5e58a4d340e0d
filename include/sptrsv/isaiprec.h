/* PC isai's preconditioner apart from the PC: its backends (src/mat/isai/; private to the plugin) */
#pragma once
#include <sptrsv/backend.h>

/* what PC isai's GPU variant needs (a PETSc configured with CUDA: the apply multiplies with PETSc's cuSPARSE
   matrices) and when auto takes it (a matrix of PETSc's CUDA types), for SpTrsvBackendSelect() */
SPTRSV_INTERN PetscErrorCode SpTrsvISAICUDAUse(Mat, SpTrsvBackendCUDAUse *);
