/* PC isai on the GPU: block ILU, ISAI column solves, scalar expansion (src/cuda/; private to the plugin; the
   functions exist in CUDA builds only; host code calls them through the device-ops table, deviceops.h) */
#pragma once
#include <sptrsv/isai.h>
#include <sptrsv/biluk.h>
#include <sptrsv/backend.h>

/*
   SpTrsvCUDABILU - the numeric block ILU on the GPU (src/cuda/bilu_kernels.cu) on the pattern of a host
   SpTrsvBILU after its symbolic phase, block sizes 2..8. The input values (nval of them, host or device)
   go into the factor through amap (input value k -> value index in the factor F = [L strict | diagonal
   | U strict] by block rows, bs*bs per block, column-major). The numeric phase reports the first
   non-finite input value (badval) and the first zero pivot (zerorow, zeropivot), -1 when none; the
   caller turns them into errors.
*/
typedef struct _n_SpTrsvCUDABILU *SpTrsvCUDABILU;
typedef struct {
  int                n, bs;
  const int         *fi, *fj, *fd; /* F's block rows, block columns, diagonal slots */
  const PetscScalar *fa, *idiag;   /* F's values, inverted diagonal blocks */
} SpTrsvCUDABILUArrays;

SPTRSV_INTERN PetscErrorCode SpTrsvCUDABILUCreate(SpTrsvBILU, PetscInt, const PetscInt *, SpTrsvCUDABILU *);
SPTRSV_INTERN PetscErrorCode SpTrsvCUDABILUNumeric(SpTrsvCUDABILU, const PetscScalar *, PetscMemType, PetscReal, PetscInt *, PetscInt *, PetscInt *);
SPTRSV_INTERN PetscErrorCode SpTrsvCUDABILUGetArrays(SpTrsvCUDABILU, SpTrsvCUDABILUArrays *);
SPTRSV_INTERN PetscErrorCode SpTrsvCUDABILUGetLevels(SpTrsvCUDABILU, PetscInt *);
SPTRSV_INTERN PetscErrorCode SpTrsvCUDABILUDestroy(SpTrsvCUDABILU *);

/*
   SpTrsvCUDAISAI - device copies of the column view of N ~ T^{-1} (src/cuda/isai_kernels.cu), made once
   per pattern; SpTrsvCUDAISAINumeric() solves every block column of N on the GPU (the arithmetic of
   SpTrsvISAINumeric(), in the same order). T is either a host triangle, uploaded at each numeric phase
   (SpTrsvCUDAISAICreate()), or the L or U of a GPU block ILU, read in place (SpTrsvCUDAISAICreateOnBILU()).
   Whether a usable GPU is there is the CUDA backend's question (SpTrsvDeviceOpsGet()).
*/
typedef struct _n_SpTrsvCUDAISAI *SpTrsvCUDAISAI;

SPTRSV_INTERN PetscErrorCode SpTrsvCUDAISAICreate(SpTrsvISAI, SpTrsvBlockTri, SpTrsvCUDAISAI *);
SPTRSV_INTERN PetscErrorCode SpTrsvCUDAISAICreateOnBILU(SpTrsvISAI, SpTrsvCUDABILU, SpTrsvCUDAISAI *);
SPTRSV_INTERN PetscErrorCode SpTrsvCUDAISAINumeric(SpTrsvCUDAISAI, SpTrsvISAI, SpTrsvBlockTri, PetscBool);
SPTRSV_INTERN PetscErrorCode SpTrsvCUDAISAIDownload(SpTrsvCUDAISAI, SpTrsvISAI);
SPTRSV_INTERN PetscErrorCode SpTrsvCUDAISAIGetDeviceValues(SpTrsvCUDAISAI, const PetscScalar **);
SPTRSV_INTERN PetscErrorCode SpTrsvCUDAISAIDestroy(SpTrsvCUDAISAI *);

/* SpTrsvCUDAExpand - device values of a block CSR matrix written as the scalar CSR values of its
   expansion (src/cuda/block_expand_kernels.cu) */
typedef struct _n_SpTrsvCUDAExpand *SpTrsvCUDAExpand;

SPTRSV_INTERN PetscErrorCode SpTrsvCUDAExpandCreate(PetscInt, PetscInt, const PetscInt *, const PetscInt *, SpTrsvCUDAExpand *);
SPTRSV_INTERN PetscErrorCode SpTrsvCUDAExpandApply(SpTrsvCUDAExpand, const PetscScalar *, PetscScalar *);
SPTRSV_INTERN PetscErrorCode SpTrsvCUDAExpandDestroy(SpTrsvCUDAExpand *);

/* SpTrsvCUDABSR - y = N x with cuSPARSE's BSR SpMV on device block values (src/cuda/bsr_spmv.cu) */
typedef struct _n_SpTrsvCUDABSR *SpTrsvCUDABSR;

SPTRSV_INTERN PetscErrorCode SpTrsvCUDABSRCreate(PetscInt, PetscInt, const PetscInt *, const PetscInt *, const PetscScalar *, SpTrsvCUDABSR *);
SPTRSV_INTERN PetscErrorCode SpTrsvCUDABSRMult(SpTrsvCUDABSR, const PetscScalar *, PetscScalar *);
SPTRSV_INTERN PetscErrorCode SpTrsvCUDABSRDestroy(SpTrsvCUDABSR *);
