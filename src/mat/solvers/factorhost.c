/* The values of an sptrsv factor Mat where they are current: the host factor, the solvers after a GPU numeric phase
   (include/sptrsv/factorhost.h) */
#include <sptrsv/factorhost.h>

/* a solver of L or U (or their transposes) takes the values of a GPU numeric phase, device to device */
PetscErrorCode MatSpTrsvSolverFromDevice(Mat_SpTrsv *sp, SpTrsvSolver s)
{
  const PetscScalar *la, *ua, *idiag;

  PetscFunctionBegin;
  PetscCall(SpTrsvFactorILUDeviceGetArrays(sp->fac, &la, &ua, &idiag));
  if (s->tri == sp->fac->L) PetscCall(SpTrsvSolverUpdateValuesDevice(s, la, NULL, NULL));
  else PetscCall(SpTrsvSolverUpdateValuesDevice(s, ua, idiag, NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  MatSpTrsvGetFactorHost - the factor of F with current host values: after a GPU numeric phase its values are
  downloaded once (the solvers, already current on the device, stay so)
*/
PetscErrorCode MatSpTrsvGetFactorHost(Mat F, SpTrsvFactor *fac)
{
  Mat_SpTrsv *sp = (Mat_SpTrsv *)F->data;
  PetscBool   current[2][2];

  PetscFunctionBegin;
  PetscCheck(sp->fac, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "Factor has not been computed yet");
  for (PetscInt t = 0; t < 2; t++)
    for (PetscInt k = 0; k < 2; k++) current[t][k] = (PetscBool)(sp->tri[t][k] && sp->tri[t][k]->state == sp->tri[t][k]->tri->state);
  PetscCall(SpTrsvFactorSyncHost(sp->fac));
  for (PetscInt t = 0; t < 2; t++)
    for (PetscInt k = 0; k < 2; k++)
      if (current[t][k]) PetscCall(SpTrsvSolverMarkCurrent(sp->tri[t][k]));
  *fac = sp->fac;
  PetscFunctionReturn(PETSC_SUCCESS);
}
