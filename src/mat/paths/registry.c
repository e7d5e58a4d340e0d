/*
   The path registry: the paths of SPTRSV_PATHS (include/petscsptrsv.h, one line per path, each path's entry
   SpTrsvPath_<name> in its own folder src/mat/paths/<name>/), then any appended at run time (SpTrsvPathRegister).
   MatSolverType registration, the factor constructors, -ksp_view, PC gs's schedulers and the automatic choice all
   read it; no other list of paths exists. Adding a path: see docs/ARCHITECTURE.md.
*/
#include <sptrsv/factormat.h>
#include <sptrsv/paths/level.h>
#include <sptrsv/paths/element.h>
#include <sptrsv/paths/syncfree.h>
#include <sptrsv/paths/locality.h>
#include <sptrsv/paths/supernodal.h>
#include <sptrsv/paths/pinv.h>
#include <sptrsv/paths/cusparse.h>

/* the MatSolverType names (MATSOLVERSPTRSV<NAME>, declared by the public header) */
#define SPTRSV_PATH_SOLVERTYPE(name, NAME) const char MATSOLVERSPTRSV##NAME[] = "sptrsv_" #name;
SPTRSV_PATHS(SPTRSV_PATH_SOLVERTYPE)

/* the registered paths, in registry order (its index: a path's own options in SpTrsvPathOptions) */
#define SPTRSV_PATH_BUILTIN(name, NAME) &SpTrsvPath_##name,
static SpTrsvPath SpTrsvPathList[SPTRSV_PATHS_MAX] = {SPTRSV_PATHS(SPTRSV_PATH_BUILTIN)};
#define SPTRSV_PATH_ONE(name, NAME)     +1
static PetscInt SpTrsvPathCount = 0 SPTRSV_PATHS(SPTRSV_PATH_ONE);

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

PetscErrorCode SpTrsvPathGetCount(PetscInt *n)
{
  PetscFunctionBegin;
  *n = SpTrsvPathCount;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SpTrsvPathGetByIndex(PetscInt k, SpTrsvPath *path)
{
  PetscFunctionBegin;
  PetscCheck(k >= 0 && k < SpTrsvPathCount, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Path index %" PetscInt_FMT " not in [0, %" PetscInt_FMT ")", k, SpTrsvPathCount);
  *path = SpTrsvPathList[k];
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SpTrsvPathGetIndex(SpTrsvPath path, PetscInt *k)
{
  PetscFunctionBegin;
  for (*k = 0; *k < SpTrsvPathCount; (*k)++)
    if (SpTrsvPathList[*k] == path) PetscFunctionReturn(PETSC_SUCCESS);
  SETERRQ(PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Path %s is not registered", path ? path->solvertype : "(null)");
}

/* NULL when no path has that name or MatSolverType */
PetscErrorCode SpTrsvPathFindSolverType(const char *name, SpTrsvPath *path)
{
  PetscFunctionBegin;
  *path = NULL;
  for (PetscInt k = 0; k < SpTrsvPathCount && name; k++) {
    PetscBool a, b;
    PetscCall(PetscStrcmp(name, SpTrsvPathList[k]->name, &a));
    PetscCall(PetscStrcmp(name, SpTrsvPathList[k]->solvertype, &b));
    if (a || b) {
      *path = SpTrsvPathList[k];
      break;
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SpTrsvPathFind(const char *name, SpTrsvPath *path)
{
  PetscFunctionBegin;
  PetscCall(SpTrsvPathFindSolverType(name, path));
  PetscCheck(*path, PETSC_COMM_SELF, PETSC_ERR_ARG_UNKNOWN_TYPE, "No triangular-solve path named %s", name ? name : "(null)");
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvPathGetRelated - the path named name (a delegate or fallback of path, see struct _n_SpTrsvPath), or path's
  fallback_last when that one is not registered or has no executor on backend slot
*/
PetscErrorCode SpTrsvPathGetRelated(const char *name, SpTrsvPath path, SpTrsvExecSlot slot, SpTrsvPath *related)
{
  PetscFunctionBegin;
  PetscCall(SpTrsvPathFindSolverType(name, related));
  if ((!*related || !(*related)->exec[slot]) && path->fallback_last) PetscCall(SpTrsvPathFind(path->fallback_last, related));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvPathGetNames - the names of the paths (only those that run Gauss-Seidel sweeps when sweeps is
  true), for option lists; the array lives as long as the library (paths registered later are added on the next call)
*/
PetscErrorCode SpTrsvPathGetNames(PetscBool sweeps, PetscInt *n, const char *const **names)
{
  static const char *all[SPTRSV_PATHS_MAX + 1], *sw[SPTRSV_PATHS_MAX + 1];
  PetscInt           nall = 0, nsw = 0;

  PetscFunctionBegin;
  for (PetscInt k = 0; k < SpTrsvPathCount; k++) {
    all[nall++] = SpTrsvPathList[k]->name;
    if (SpTrsvPathList[k]->sweeps) sw[nsw++] = SpTrsvPathList[k]->name;
  }
  *n     = sweeps ? nsw : nall;
  *names = sweeps ? sw : all;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SpTrsvPathGetExecutor(SpTrsvPath path, SpTrsvExecSlot slot, const SpTrsvExecutor **exec)
{
  PetscFunctionBegin;
  *exec = path->exec[slot];
  PetscCheck(*exec, PETSC_COMM_SELF, PETSC_ERR_SUP, "Path %s has no %s executor", path->solvertype, slot == SPTRSV_EXEC_CUDA ? "CUDA" : "host");
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the factor constructors of the paths registered at run time: one per registry slot (MatSolverTypeRegister takes a
   function, not a path) */
#define SPTRSV_PATH_SLOT(k) \
  static PetscErrorCode MatGetFactor_SpTrsv_Slot##k(Mat A, MatFactorType ftype, Mat *F) \
  { \
    PetscFunctionBegin; \
    PetscCall(MatGetFactor_SpTrsv(A, ftype, SpTrsvPathList[k], F)); \
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
  const MatType mtypes[] = {MATSEQAIJ,
#if defined(PETSC_HAVE_CUDA)
                            MATSEQAIJCUSPARSE,
#endif
                            NULL};

  PetscFunctionBegin;
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
  SpTrsvPathRegister - append a path to the registry at run time (the entry must live as long as the library) and
  register its MatSolverTypes; its name and MatSolverType must be new, its options struct fit SPTRSV_PATH_OPTIONS_MAX
*/
PetscErrorCode SpTrsvPathRegister(const struct _n_SpTrsvPath *path)
{
  SpTrsvPath same;

  PetscFunctionBegin;
  PetscCheck(path && path->name && path->solvertype && path->analyze && path->exec[SPTRSV_EXEC_HOST], PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "A path needs a name, a MatSolverType, an analysis and a host executor");
  PetscCall(SpTrsvPathFindSolverType(path->name, &same));
  if (!same) PetscCall(SpTrsvPathFindSolverType(path->solvertype, &same));
  PetscCheck(!same, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "Path %s (%s) clashes with the registered path %s", path->name, path->solvertype, same->solvertype);
  PetscCheck(SpTrsvPathCount < SPTRSV_PATHS_MAX, PETSC_COMM_SELF, PETSC_ERR_SUP, "At most %d paths can be registered", SPTRSV_PATHS_MAX);
  PetscCheck(path->options_size <= SPTRSV_PATH_OPTIONS_MAX, PETSC_COMM_SELF, PETSC_ERR_SUP, "Path %s: its options take %zu bytes, more than SPTRSV_PATH_OPTIONS_MAX (%d)", path->name, path->options_size, SPTRSV_PATH_OPTIONS_MAX);
  SpTrsvPathList[SpTrsvPathCount] = path;
  PetscCall(SpTrsvPathRegister_Private(path, MatGetFactor_SpTrsv_Slots[SpTrsvPathCount]));
  SpTrsvPathCount++;
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
