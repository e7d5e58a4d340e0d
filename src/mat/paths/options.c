/* SpTrsvPathOptions: the options of the paths (include/sptrsv/registry.h), each path's own read by its own parser */
#include <sptrsv/registry.h>

/*
  SpTrsvPathOptionsInitialize - the defaults: CUDA graphs on, no prefix, and each registered path's own defaults
  (its options_default; zeros without one)
*/
PetscErrorCode SpTrsvPathOptionsInitialize(SpTrsvPathOptions *opts)
{
  PetscInt npaths;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(opts, sizeof(*opts)));
  opts->use_graph = PETSC_TRUE;
  PetscCall(SpTrsvPathGetCount(&npaths));
  for (PetscInt k = 0; k < npaths; k++) {
    SpTrsvPath path;

    PetscCall(SpTrsvPathGetByIndex(k, &path));
    if (path->options_default) PetscCall((*path->options_default)(opts->own[k]));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* SpTrsvPathOptionsGet - *(void **)own = path's own options struct inside opts */
PetscErrorCode SpTrsvPathOptionsGet(const SpTrsvPathOptions *opts, SpTrsvPath path, void *own)
{
  PetscInt k;

  PetscFunctionBegin;
  PetscCall(SpTrsvPathGetIndex(path, &k));
  *(void **)own = (void *)opts->own[k];
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* SpTrsvPathOptionsOwn - path's own options struct inside opts; NULL when path is not registered */
void *SpTrsvPathOptionsOwn(const SpTrsvPathOptions *opts, SpTrsvPath path)
{
  PetscInt npaths;

  if (SpTrsvPathGetCount(&npaths)) return NULL;
  for (PetscInt k = 0; k < npaths; k++) {
    SpTrsvPath p;
    if (SpTrsvPathGetByIndex(k, &p)) return NULL;
    if (p == path) return (void *)opts->own[k];
  }
  return NULL;
}

/* one path's parser on its own struct inside opts */
static PetscErrorCode SpTrsvPathOptionsSet_Private(SpTrsvOptionItems PetscOptionsObject, SpTrsvPath path, SpTrsvPathOptions *opts)
{
  void *own = NULL;

  PetscFunctionBegin;
  if (!path->options_set) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(SpTrsvPathOptionsGet(opts, path, &own));
  PetscCall((*path->options_set)(PetscOptionsObject, opts, own));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvPathOptionsSetFromOptions - read the options inside the caller's PetscOptionsBegin/End, so with its prefix (a
  factor's: -<prefix>mat_sptrsv_...; PC gs's own): path NULL, every registered path's (the automatic choice, whichever is
  chosen reads them); else path's own and, when it hands some triangles to a delegate path, the delegate's too, checked
  (so that a bad value stops here and not only when a triangle happens to be delegated)
*/
PetscErrorCode SpTrsvPathOptionsSetFromOptions(SpTrsvOptionItems PetscOptionsObject, SpTrsvPath path, SpTrsvPathOptions *opts)
{
  PetscFunctionBegin;
  PetscCall(PetscStrncpy(opts->prefix, PetscOptionsObject->prefix ? PetscOptionsObject->prefix : "", sizeof(opts->prefix))); /* for the analysis's messages */
  if (!path) {
    PetscInt npaths;

    PetscCall(SpTrsvPathGetCount(&npaths));
    for (PetscInt k = 0; k < npaths; k++) {
      SpTrsvPath p;
      PetscCall(SpTrsvPathGetByIndex(k, &p));
      PetscCall(SpTrsvPathOptionsSet_Private(PetscOptionsObject, p, opts));
    }
  } else {
    SpTrsvPath delegate = NULL;

    PetscCall(SpTrsvPathOptionsSet_Private(PetscOptionsObject, path, opts));
    if (path->delegate) PetscCall(SpTrsvPathFindSolverType(path->delegate, &delegate));
    if (delegate) {
      void *own = NULL;

      PetscCall(SpTrsvPathOptionsSet_Private(PetscOptionsObject, delegate, opts));
      PetscCall(SpTrsvPathOptionsGet(opts, delegate, &own));
      if (delegate->options_check) PetscCall((*delegate->options_check)(opts, own));
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvPathOptionsDefault - the defaults, then the global options without a prefix (-mat_sptrsv_...), read by the same
  parsers as a factor's: path's (with its delegate's), or every path's when path is NULL. For programs that use the
  solver API directly (no factor Mat, so no prefix).
*/
PetscErrorCode SpTrsvPathOptionsDefault(SpTrsvPath path, SpTrsvPathOptions *opts)
{
  PetscFunctionBegin;
  PetscCall(SpTrsvPathOptionsInitialize(opts));
  PetscOptionsBegin(PETSC_COMM_SELF, NULL, "petsc-sptrsv triangular-solve options", "Mat");
  PetscCall(SpTrsvPathOptionsSetFromOptions(PetscOptionsObject, path, opts));
  PetscOptionsEnd();
  PetscFunctionReturn(PETSC_SUCCESS);
}
