/* The factor matrix every sptrsv_* MatSolverType returns (private to the plugin) */
#pragma once
#include <sptrsv/factorhost.h>  /* Mat_SpTrsv */
#include <sptrsv/automeasure.h> /* the measured check */

SPTRSV_INTERN PetscErrorCode MatGetFactor_SpTrsv(Mat, MatFactorType, SpTrsvPath, Mat *);
/* device memory of a factor (factormem.c): the -ksp_view lines, and the cuSPARSE comparison made at the symbolic phase */
SPTRSV_INTERN PetscErrorCode MatSpTrsvViewMemory(Mat, PetscViewer);
SPTRSV_INTERN PetscErrorCode MatSpTrsvCompareCusparse(Mat);
SPTRSV_INTERN PetscErrorCode MatSpTrsvGetDeviceMemory_SpTrsv(Mat, PetscInt64 *, PetscInt64 *, PetscInt64 *);
