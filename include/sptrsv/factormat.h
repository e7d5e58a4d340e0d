/* The factor matrix every sptrsv_* MatSolverType returns (private to the plugin) */
#pragma once
#include <sptrsv/factorhost.h>  /* Mat_SpTrsv */
#include <sptrsv/automeasure.h> /* the measured check */

SPTRSV_INTERN PetscErrorCode MatGetFactor_SpTrsv(Mat, MatFactorType, SpTrsvPath, Mat *);
/* device memory of a factor (factormem.c): the -ksp_view lines, and the cuSPARSE comparison made at the symbolic phase */
SPTRSV_INTERN PetscErrorCode MatSpTrsvViewMemory(Mat, PetscViewer);
SPTRSV_INTERN PetscErrorCode MatSpTrsvCompareCusparse(Mat);
SPTRSV_INTERN PetscErrorCode MatSpTrsvGetDeviceMemory_SpTrsv(Mat, PetscInt64 *, PetscInt64 *, PetscInt64 *);

/* the MatSolverTypes of the registry's paths (src/mat/solvers/register.c) */
SPTRSV_INTERN PetscErrorCode SpTrsvPathRegister(const struct _n_SpTrsvPath *); /* append a path (SpTrsvPathAppend) and register its MatSolverTypes */
SPTRSV_INTERN PetscErrorCode SpTrsvPathRegisterAll(void);                     /* the MatSolverTypes of the paths of SPTRSV_PATHS and of sptrsv */
