/* Generated stencil matrices shared by the benchmark and the device check */
#pragma once
#include <petscmat.h>

PetscErrorCode SpTrsvBuildStencil(PetscInt, PetscInt, PetscInt, PetscInt, Mat *);
