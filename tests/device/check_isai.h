/* Device check of PC isai's GPU apply (check_isai.c) */
#pragma once
#include <sptrsv/compat.h>

/* PC isai with the apply on the GPU (PETSc's cuSPARSE matrices, CUDA vectors) against the host apply, on a
   scalar and a block (bs 2..4) case, power 1..3, apply and transpose, with and without relaxation steps;
   counts into *npass / *nfail. Needs a PETSc configured with CUDA (otherwise says so and counts nothing). */
PetscErrorCode ISAICheckRun(PetscRandom rnd, PetscReal tol, PetscBool quick, PetscInt *npass, PetscInt *nfail);
