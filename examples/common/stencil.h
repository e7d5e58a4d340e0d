/* Generated stencil matrices shared by the benchmarks and the device check */
#pragma once
#include <petscmat.h>

PetscErrorCode SpTrsvBuildStencil(PetscInt, PetscInt, PetscInt, PetscInt, Mat *);
PetscErrorCode SpTrsvBuildBlockCD(PetscInt, PetscInt, PetscReal, MatType, Mat *);
