static const char help[] = "Host set-up passes of ILU(k) with a sptrsv solver type (issue 12): the symbolic factorization and\n"
                           "the set-up of the GPU numeric phase (the map of A into the factor and the host side of its upload),\n"
                           "timed one by one on a 3-D 7-point Laplacian, then the whole MatILUFactorSymbolic + MatLUFactorNumeric.\n"
                           "  -n <129>: grid size per direction; -levels <0>; -ordering <natural>; -reps <3>; -solver <sptrsv_syncfree>;\n"
                           "  -level_order: the set-up computes the level order of the rows (-mat_sptrsv_factor_device_order level)\n";

#include <petscsptrsv.h>
#include <sptrsv/factor.h>
#include <sptrsv/ilu_device.h>

#include "../common/stencil.h"

/* an implementation of the device ops whose create does nothing: what remains is the host work of the set-up */
static PetscErrorCode NullCreate(SpTrsvFactor fac, const SpTrsvILUDeviceConfig *cfg, const PetscInt *ai, const PetscInt *adiag, const PetscInt *amap, const PetscInt *order, void **ctx)
{
  PetscFunctionBeginUser;
  *ctx = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static const SpTrsvILUDeviceOps NullOps = {"null", PETSC_TRUE, NullCreate, NULL, NULL, NULL, NULL, NULL, NULL};

int main(int argc, char **argv)
{
  Mat           A, F;
  IS            row, col;
  MatFactorInfo info;
  MatInfo       minfo;
  PetscInt      N, n = 129, levels = 0, reps = 3;
  PetscBool     level_order = PETSC_FALSE; /* -level_order: the host work of -mat_sptrsv_factor_device_order level too */
  SpTrsvILUDeviceConfig cfg = {PETSC_FALSE, PETSC_FALSE, 0}; /* the set-up's configuration: its level order only */
  char          ordering[64] = MATORDERINGNATURAL, solver[64] = "sptrsv_syncfree";
  PetscLogDouble t0, t1, best[3] = {1e30, 1e30, 1e30}, first[3] = {0, 0, 0};

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SpTrsvInitializePackage());
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &n, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-levels", &levels, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-reps", &reps, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-level_order", &level_order, NULL));
  cfg.level_order = level_order;
  PetscCall(PetscOptionsGetString(NULL, NULL, "-ordering", ordering, sizeof(ordering), NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-solver", solver, sizeof(solver), NULL));
  PetscCall(SpTrsvBuildStencil(n, n, n, 7, &A));
  PetscCall(MatGetSize(A, &N, NULL));
  PetscCall(MatGetOrdering(A, ordering, &row, &col));
  PetscCall(MatFactorInfoInitialize(&info));
  info.levels = (PetscReal)levels;
  info.fill   = 1.0;

  for (PetscInt r = 0; r < reps; r++) {
    SpTrsvFactor fac;

    PetscCall(SpTrsvFactorCreate(MAT_FACTOR_ILU, N, &fac));
    PetscCall(PetscTime(&t0));
    PetscCall(SpTrsvFactorILUSymbolic(A, row, col, &info, fac));
    PetscCall(PetscTime(&t1));
    best[0] = PetscMin(best[0], t1 - t0);
    if (!r) first[0] = t1 - t0;
    PetscCall(PetscTime(&t0));
    PetscCall(SpTrsvFactorILUDeviceSetUpOps(A, fac, &cfg, NULL, 0, &NullOps));
    PetscCall(PetscTime(&t1));
    best[1] = PetscMin(best[1], t1 - t0);
    if (!r) first[1] = t1 - t0;
    PetscCall(SpTrsvFactorDestroy(&fac));
  }
  PetscCall(MatGetInfo(A, MAT_LOCAL, &minfo));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "n = %" PetscInt_FMT " (%" PetscInt_FMT " rows, %.0f nonzeros), ILU(%" PetscInt_FMT "), ordering %s, seconds: first run, best of %" PetscInt_FMT "\n", n, N, minfo.nz_used, levels, ordering, reps));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "  SpTrsvFactorILUSymbolic                       %8.4f %8.4f\n", first[0], best[0]));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "  SpTrsvFactorILUDeviceSetUpOps (host part)     %8.4f %8.4f\n", first[1], best[1]));

  for (PetscInt r = 0; r < reps; r++) {
    PetscCall(MatGetFactor(A, solver, MAT_FACTOR_ILU, &F));
    PetscCall(PetscTime(&t0));
    PetscCall(MatILUFactorSymbolic(F, A, row, col, &info));
    PetscCall(MatLUFactorNumeric(F, A, &info));
    PetscCall(PetscTime(&t1));
    best[2] = PetscMin(best[2], t1 - t0);
    if (!r) first[2] = t1 - t0;
    PetscCall(MatDestroy(&F));
  }
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "  MatILUFactorSymbolic + MatLUFactorNumeric     %8.4f %8.4f (%s, host backend)\n", first[2], best[2], solver));
  PetscCall(ISDestroy(&row));
  PetscCall(ISDestroy(&col));
  PetscCall(MatDestroy(&A));
  PetscCall(PetscFinalize());
  return 0;
}
