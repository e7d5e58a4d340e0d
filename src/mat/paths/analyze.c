/* SpTrsvPlanCreate: a path's analysis of one triangle, with the path's own options */
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
