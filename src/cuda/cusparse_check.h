/* Turning cuSPARSE errors into PETSc errors (private to the CUDA backend) */
#pragma once
#include <cusparse.h>
#include <petscsys.h>

/*
   SpTrsvCusparseCall(expr) - evaluate a cuSPARSE call; on failure raise PETSC_ERR_GPU with cuSPARSE's status and text
   and the failing expression. For functions that return PetscErrorCode, between PetscFunctionBegin and
   PetscFunctionReturn.
*/
#define SpTrsvCusparseCall(...) \
  do { \
    const cusparseStatus_t sptrsv_cusp_err_ = (__VA_ARGS__); \
    PetscCheck(sptrsv_cusp_err_ == CUSPARSE_STATUS_SUCCESS, PETSC_COMM_SELF, PETSC_ERR_GPU, "cuSPARSE error %d (%s) in %s", (int)sptrsv_cusp_err_, cusparseGetErrorString(sptrsv_cusp_err_), #__VA_ARGS__); \
  } while (0)
