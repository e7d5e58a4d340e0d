/* SpTrsvPlanCreate: a path's analysis of one triangle, with the path's own options; SpTrsvPlanCreatePair: of a factor's two */
#include <sptrsv/registry.h>

/*
  SpTrsvPlanCreate - run a path's analysis on the pattern of op(T), read in format
*/
PetscErrorCode SpTrsvPlanCreate(const SpTrsvOp *op, SpTrsvPath path, SpTrsvFormat format, const SpTrsvPathOptions *opts, SpTrsvPlan *plan)
{
  const void *own;

  PetscFunctionBegin;
  PetscCall(SpTrsvPathOptionsGet(opts, path, &own));
  PetscCall((*path->analyze)(op, format, opts, own, plan));
  (*plan)->path     = path;
  (*plan)->pathname = path->name;
  PetscCall(PetscStrncpy((*plan)->prefix, opts->prefix, sizeof((*plan)->prefix)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvPlanCreatePair - the plans of a factor's two triangles op0 and op1 (L and U, both read in format) on one path: the
  path's analyze_pair where it has one (its analyses at once), else SpTrsvPlanCreate() of each
*/
PetscErrorCode SpTrsvPlanCreatePair(const SpTrsvOp *op0, const SpTrsvOp *op1, SpTrsvPath path, SpTrsvFormat format, const SpTrsvPathOptions *opts, SpTrsvPlan *plan0, SpTrsvPlan *plan1)
{
  const void *own;

  PetscFunctionBegin;
  if (!path->analyze_pair) {
    PetscErrorCode ierr;

    PetscCall(SpTrsvPlanCreate(op0, path, format, opts, plan0));
    ierr = SpTrsvPlanCreate(op1, path, format, opts, plan1);
    if (ierr) PetscCall(SpTrsvPlanDestroy(plan0));
    PetscCall(ierr);
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(SpTrsvPathOptionsGet(opts, path, &own));
  PetscCall((*path->analyze_pair)(op0, op1, format, opts, own, plan0, plan1));
  for (PetscInt t = 0; t < 2; t++) {
    SpTrsvPlan p = t ? *plan1 : *plan0;

    p->path     = path;
    p->pathname = path->name;
    PetscCall(PetscStrncpy(p->prefix, opts->prefix, sizeof(p->prefix)));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
