/*
   The path registry: the paths of SPTRSV_PATHS (include/petscsptrsv.h, one line per path, each path's entry
   SpTrsvPath_<name> in its own folder src/mat/paths/<name>/), then any appended at run time (SpTrsvPathRegister).
   MatSolverType registration, the factor constructors, -ksp_view, PC gs's schedulers and the automatic choice all
   read it; no other list of paths exists. Adding a path: see docs/ARCHITECTURE.md.
*/
#include <sptrsv/registry.h>

/* each path's entry, defined in its own folder (src/mat/paths/<name>/) */
#define SPTRSV_PATH_ENTRY_DECL(name, NAME) SPTRSV_INTERN const struct _n_SpTrsvPath SpTrsvPath_##name;
SPTRSV_PATHS(SPTRSV_PATH_ENTRY_DECL)

/* the MatSolverType names (MATSOLVERSPTRSV<NAME>, declared by the public header) */
#define SPTRSV_PATH_SOLVERTYPE(name, NAME) const char MATSOLVERSPTRSV##NAME[] = "sptrsv_" #name;
SPTRSV_PATHS(SPTRSV_PATH_SOLVERTYPE)

/* the registered paths, in registry order (its index: a path's own options in SpTrsvPathOptions) */
#define SPTRSV_PATH_BUILTIN(name, NAME) &SpTrsvPath_##name,
static SpTrsvPath SpTrsvPathList[SPTRSV_PATHS_MAX] = {SPTRSV_PATHS(SPTRSV_PATH_BUILTIN)};
#define SPTRSV_PATH_ONE(name, NAME)     +1
static PetscInt SpTrsvPathCount = 0 SPTRSV_PATHS(SPTRSV_PATH_ONE);

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

/*
  SpTrsvPathAppend - append a path to the registry at run time (the entry must live as long as the library), *index its
  place; its name and MatSolverType must be new, its options struct fit SPTRSV_PATH_OPTIONS_MAX
*/
PetscErrorCode SpTrsvPathAppend(const struct _n_SpTrsvPath *path, PetscInt *index)
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
  *index = SpTrsvPathCount++;
  PetscFunctionReturn(PETSC_SUCCESS);
}
