/* Where the numeric phase of an sptrsv factor Mat runs: the one predicate of the factor Mat (factormat.c) and of its
   setup's side job (prefetch.c) (include/sptrsv/factorhost.h) */
#include <sptrsv/factorhost.h>

/*
  MatSpTrsvNumericOnDevice - whether the numeric phase of F's factor can run on the GPU as far as the factor, the backend
  and the options say (the executors' support of device values aside: MatSpTrsvSetUpNumeric() checks it once they
  exist); else, into note (may be NULL) the -ksp_view reason it runs on the host. The side job of the setup
  (prefetch.c) asks it before the analysis, MatSpTrsvSetUpNumeric() after it.
*/
PetscErrorCode MatSpTrsvNumericOnDevice(Mat F, char *note, size_t len, PetscBool *device)
{
  Mat_SpTrsv *sp = (Mat_SpTrsv *)F->data;
  PetscBool   avail;
  const char *why;
  char        option[256], reason[256];

  PetscFunctionBegin;
  *device = PETSC_FALSE;
  PetscCall(SpTrsvFactorILUDeviceAvailable(&avail, &why));
  if (!sp->fac || !sp->backend) PetscCall(PetscStrncpy(reason, "host (no factor or backend yet)", sizeof(reason)));
  else if (SpTrsvFactorDirectHead(sp->fac)) PetscCall(PetscSNPrintf(reason, sizeof(reason), "host (%s)", SpTrsvFactorDirectHead(sp->fac)->library));
  else if (sp->fac->ftype == MAT_FACTOR_ICC) PetscCall(PetscStrncpy(reason, "host (ICC factors on the host)", sizeof(reason)));
  else if (sp->backend->slot != SPTRSV_EXEC_CUDA) PetscCall(PetscStrncpy(reason, "host (the solves run on the host)", sizeof(reason)));
  else if (!sp->factor_device) {
    PetscCall(SpTrsvOptionName((PetscObject)F, "mat_sptrsv_factor_device", option, sizeof(option)));
    PetscCall(PetscSNPrintf(reason, sizeof(reason), "host (%s 0)", option));
  } else if (!avail) PetscCall(PetscSNPrintf(reason, sizeof(reason), "host (%s)", why));
  else *device = PETSC_TRUE;
  if (note && !*device) PetscCall(PetscStrncpy(note, reason, len));
  PetscFunctionReturn(PETSC_SUCCESS);
}
