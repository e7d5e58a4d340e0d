/* Generated matrices shared by the benchmarks, the device checks and the unit tests */
#pragma once
#include <petscmat.h>

PetscErrorCode SpTrsvBuildStencil(PetscInt, PetscInt, PetscInt, PetscInt, Mat *);
PetscErrorCode SpTrsvBuildBlockCD(PetscInt, PetscInt, PetscReal, MatType, Mat *);
PetscErrorCode SpTrsvBuildConvDiff2D(PetscInt, PetscReal, Mat *);
PetscErrorCode SpTrsvBuildZeroPivotPairs(PetscInt, Mat *);
