/* Device check of PC isai's GPU apply (check_isai.c) */
#pragma once
#include <sptrsv/compat.h>

/* PC isai with the column solves and the apply on the GPU (cuSPARSE matrices, CUDA vectors) against the host, on a
   scalar and block (bs 2, 3, 4, 6) cases, power 1..3, apply and transpose, with and without relaxation steps;
   counts into *npass / *nfail. Needs a PETSc configured with CUDA (otherwise says so and counts nothing). */
PetscErrorCode ISAICheckRun(PetscRandom rnd, PetscReal tol, PetscBool quick, PetscInt *npass, PetscInt *nfail);
