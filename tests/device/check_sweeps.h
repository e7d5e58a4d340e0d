/* Direct checks of sweep solvers (SpTrsvSolverCreateSweep) for the device check (check_sweeps.c) */
#pragma once
#include <sptrsv/backend.h>
#include "../../examples/common/relerr.h"

/* the names of the sweep checks (selected with -cases like the factor cases) */
PetscErrorCode SweepCheckNames(PetscInt *, const char *const **);
/* run sweep check number w: the host backend against a natural-order reference and, when cuda is not
   NULL, the CUDA backend against the same reference; counts into *npass / *nfail */
PetscErrorCode SweepCheckRun(PetscInt w, const SpTrsvBackendOps *cuda, PetscRandom rnd, PetscReal tol, PetscInt *npass, PetscInt *nfail);
