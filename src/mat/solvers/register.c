/*
   The MatSolverTypes of the registered paths (the registry: src/mat/paths/registry.c): the factor constructor of each
   path, MatGetFactor_SpTrsv_<name> (exported, for MatSolverTypeRegister in user code), those of the paths appended at
   run time, and their registration for every matrix and factor type a path takes. The solver layer makes factor
   matrices (factormat.c), so this is where the registry meets PETSc's MatSolverType table.
*/
#include <sptrsv/factormat.h>
#include <sptrsv/deviceops.h> /* SpTrsvDeviceMatTypes */

#define SPTRSV_PATH_ENTRY_DECL(name, NAME) SPTRSV_INTERN const struct _n_SpTrsvPath SpTrsvPath_##name;
SPTRSV_PATHS(SPTRSV_PATH_ENTRY_DECL)

/* the exported factor constructors (for MatSolverTypeRegister in user code), one per path */
#define SPTRSV_PATH_GETFACTOR(name, NAME) \
  PetscErrorCode MatGetFactor_SpTrsv_##name(Mat A, MatFactorType ftype, Mat *F) \
  { \
    PetscFunctionBegin; \
    PetscCall(MatGetFactor_SpTrsv(A, ftype, &SpTrsvPath_##name, F)); \
    PetscFunctionReturn(PETSC_SUCCESS); \
  }
SPTRSV_PATHS(SPTRSV_PATH_GETFACTOR)

/* MatSolverType sptrsv: no path of its own; the factor chooses one per triangle (src/mat/paths/auto.c) */
PetscErrorCode MatGetFactor_SpTrsv_auto(Mat A, MatFactorType ftype, Mat *F)
{
  PetscFunctionBegin;
  PetscCall(MatGetFactor_SpTrsv(A, ftype, NULL, F));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the factor constructors of the paths registered at run time: one per registry slot (MatSolverTypeRegister takes a
   function, not a path) */
#define SPTRSV_PATH_SLOT(k) \
  static PetscErrorCode MatGetFactor_SpTrsv_Slot##k(Mat A, MatFactorType ftype, Mat *F) \
  { \
    PetscFunctionBegin; \
    SpTrsvPath path; \
    PetscCall(SpTrsvPathGetByIndex(k, &path)); \
    PetscCall(MatGetFactor_SpTrsv(A, ftype, path, F)); \
    PetscFunctionReturn(PETSC_SUCCESS); \
  }
SPTRSV_PATH_SLOT(0) SPTRSV_PATH_SLOT(1) SPTRSV_PATH_SLOT(2) SPTRSV_PATH_SLOT(3) SPTRSV_PATH_SLOT(4) SPTRSV_PATH_SLOT(5) SPTRSV_PATH_SLOT(6) SPTRSV_PATH_SLOT(7)
SPTRSV_PATH_SLOT(8) SPTRSV_PATH_SLOT(9) SPTRSV_PATH_SLOT(10) SPTRSV_PATH_SLOT(11) SPTRSV_PATH_SLOT(12) SPTRSV_PATH_SLOT(13) SPTRSV_PATH_SLOT(14) SPTRSV_PATH_SLOT(15)
static PetscErrorCode (*const MatGetFactor_SpTrsv_Slots[SPTRSV_PATHS_MAX])(Mat, MatFactorType, Mat *) = {MatGetFactor_SpTrsv_Slot0, MatGetFactor_SpTrsv_Slot1, MatGetFactor_SpTrsv_Slot2, MatGetFactor_SpTrsv_Slot3, MatGetFactor_SpTrsv_Slot4, MatGetFactor_SpTrsv_Slot5, MatGetFactor_SpTrsv_Slot6, MatGetFactor_SpTrsv_Slot7,
                                                                                                      MatGetFactor_SpTrsv_Slot8, MatGetFactor_SpTrsv_Slot9, MatGetFactor_SpTrsv_Slot10, MatGetFactor_SpTrsv_Slot11, MatGetFactor_SpTrsv_Slot12, MatGetFactor_SpTrsv_Slot13, MatGetFactor_SpTrsv_Slot14, MatGetFactor_SpTrsv_Slot15};

/* the MatSolverTypes: every path for every matrix type and factor type it supports (a path that takes ILU takes the
   complete LU of SuperLU too, one that takes ICC the complete Cholesky of CHOLMOD: they are stored alike, see
   direct.h); path NULL: sptrsv (automatic: every factor type, each path takes both kinds of triangles) */
static PetscErrorCode SpTrsvPathRegister_Private(SpTrsvPath path, PetscErrorCode (*getfactor)(Mat, MatFactorType, Mat *))
{
  const MatType *mtypes;

  PetscFunctionBegin;
  PetscCall(SpTrsvDeviceMatTypes(&mtypes)); /* MATSEQAIJ, and MATSEQAIJCUSPARSE when PETSc has CUDA */
  for (PetscInt m = 0; mtypes[m]; m++) {
    if (!path) {
      PetscCall(MatSolverTypeRegister(MATSOLVERSPTRSV, mtypes[m], MAT_FACTOR_ILU, getfactor));
      PetscCall(MatSolverTypeRegister(MATSOLVERSPTRSV, mtypes[m], MAT_FACTOR_ICC, getfactor));
      PetscCall(MatSolverTypeRegister(MATSOLVERSPTRSV, mtypes[m], MAT_FACTOR_LU, getfactor));
      PetscCall(MatSolverTypeRegister(MATSOLVERSPTRSV, mtypes[m], MAT_FACTOR_CHOLESKY, getfactor));
      continue;
    }
    if (path->ilu) PetscCall(MatSolverTypeRegister(path->solvertype, mtypes[m], MAT_FACTOR_ILU, getfactor));
    if (path->icc) PetscCall(MatSolverTypeRegister(path->solvertype, mtypes[m], MAT_FACTOR_ICC, getfactor));
    if (path->ilu) PetscCall(MatSolverTypeRegister(path->solvertype, mtypes[m], MAT_FACTOR_LU, getfactor));
    if (path->icc) PetscCall(MatSolverTypeRegister(path->solvertype, mtypes[m], MAT_FACTOR_CHOLESKY, getfactor));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvPathRegister - append a path to the registry at run time (SpTrsvPathAppend: the entry must live as long as the
  library, its name and MatSolverType be new, its options struct fit SPTRSV_PATH_OPTIONS_MAX) and register its
  MatSolverTypes
*/
PetscErrorCode SpTrsvPathRegister(const struct _n_SpTrsvPath *path)
{
  PetscInt k;

  PetscFunctionBegin;
  PetscCall(SpTrsvPathAppend(path, &k));
  PetscCall(SpTrsvPathRegister_Private(path, MatGetFactor_SpTrsv_Slots[k]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

#define SPTRSV_PATH_REGISTER(name, NAME) PetscCall(SpTrsvPathRegister_Private(&SpTrsvPath_##name, MatGetFactor_SpTrsv_##name));
PetscErrorCode SpTrsvPathRegisterAll(void)
{
  PetscFunctionBegin;
  SPTRSV_PATHS(SPTRSV_PATH_REGISTER)
  PetscCall(SpTrsvPathRegister_Private(NULL, MatGetFactor_SpTrsv_auto));
  PetscFunctionReturn(PETSC_SUCCESS);
}

