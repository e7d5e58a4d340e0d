/* The relative error the benchmarks and the device checks report (examples/benchmarks, tests/device) */
#pragma once
#include <petscsys.h>

/* ||x - ref||_inf / ||ref||_inf (the absolute error when ref is zero); a NaN/Inf difference counts as an
   infinite error */
static inline PetscReal RelErrInf(PetscInt n, const PetscScalar *x, const PetscScalar *ref)
{
  PetscReal dmax = 0, rmax = 0;

  for (PetscInt i = 0; i < n; i++) {
    PetscReal d = PetscAbsScalar(x[i] - ref[i]);
    if (PetscIsInfOrNanReal(d)) d = PETSC_INFINITY;
    dmax = PetscMax(dmax, d);
    rmax = PetscMax(rmax, PetscAbsScalar(ref[i]));
  }
  return rmax > 0 ? dmax / rmax : dmax;
}
