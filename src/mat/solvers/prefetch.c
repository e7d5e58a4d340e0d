/*
   The factor's setup side job (include/sptrsv/threads.h): while two of the setup's threads analyse L and U (the runs
   dispatch's windows pass, SpTrsvThreadsPair()), the setup's own thread uploads what the GPU numeric ILU needs and
   would otherwise upload after the analysis, one after the other:
   - A's values and pattern: PETSc's own copy of a MATSEQAIJCUSPARSE (the one its MatMult uses, made at the first
     product otherwise), which the GPU ILU reads in place (src/mat/factor/ilu_device.c);
   - the factor's L and U patterns, kept on the device until the end of the symbolic phase (src/cuda/cuda_upload.h):
     the runs dispatch's device setup and the GPU ILU's setup each uploaded them before, now both copy the kept ones.
   At ksp ex45 160^3 ILU(0) that is about 0.06 s of uploads (docs/PERFORMANCE.md, e2e run 19) under a windows pass of
   about the same length. With fewer than three threads, or when no pair runs (another path, the automatic choice's
   analysis one triangle at a time), the job runs before the pair or after the analysis: the same uploads, not hidden,
   the second pattern upload still saved.
   Only for an ILU factor whose numeric phase will run on the GPU (MatSpTrsvSetUpNumeric()'s conditions that are known
   before the analysis); otherwise the job does nothing.
*/
#include <sptrsv/factormat.h>
#include <sptrsv/deviceops.h>
#include <sptrsv/threads.h>

/* whether the numeric phase of F can run on the GPU, as far as is known before the analysis (the backend is chosen) */
static PetscErrorCode MatSpTrsvPrefetchWanted(Mat_SpTrsv *sp, PetscBool *want)
{
  PetscBool avail;

  PetscFunctionBegin;
  *want = PETSC_FALSE;
  if (!sp->backend || sp->backend->slot != SPTRSV_EXEC_CUDA || !sp->factor_device || !sp->fac || sp->fac->ftype != MAT_FACTOR_ILU || SpTrsvFactorDirectHead(sp->fac)) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(SpTrsvFactorILUDeviceAvailable(&avail, NULL));
  *want = avail;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the job (SpTrsvSideFn), counted in the factor's device memory */
static PetscErrorCode MatSpTrsvPrefetchRun(void *ctx)
{
  MatSpTrsvPrefetch     *pf = (MatSpTrsvPrefetch *)ctx;
  Mat_SpTrsv            *sp = (Mat_SpTrsv *)pf->F->data;
  const SpTrsvDeviceOps *dev;
  SpTrsvFactor           fac = sp->fac;
  const PetscScalar     *v;
  PetscBool              want, got;
  SpTrsvDevMem          *saved;
  PetscErrorCode         ierr;

  PetscFunctionBegin;
  pf->ran = PETSC_TRUE;
  PetscCall(MatSpTrsvPrefetchWanted(sp, &want));
  if (!want) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(SpTrsvDeviceOpsGet(&dev, NULL, NULL));
  PetscCall((*dev->petsc->mat_read)(pf->A, PETSC_FALSE, &v, &got)); /* PETSc uploads A now unless the device holds it */
  if (got) PetscCall((*dev->petsc->mat_restore_read)(pf->A, &v));
  pf->kept = PETSC_TRUE;
  SpTrsvDevMemBegin(&sp->mem, &saved);
  ierr = (*dev->indices.keep)(fac->L->i, fac->n + 1);
  if (!ierr) ierr = (*dev->indices.keep)(fac->L->j, fac->L->i[fac->n]);
  if (!ierr) ierr = (*dev->indices.keep)(fac->U->i, fac->n + 1);
  if (!ierr) ierr = (*dev->indices.keep)(fac->U->j, fac->U->i[fac->n]);
  SpTrsvDevMemEnd(saved);
  PetscCall(ierr);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  MatSpTrsvPrefetchBegin - after the factor's pattern (F's sp->fac, unchanged until MatSpTrsvPrefetchEnd()): the side job
  for the setup's threads (run by the analysis's pair of threads, else by MatSpTrsvPrefetchFlush())
*/
PetscErrorCode MatSpTrsvPrefetchBegin(Mat F, Mat A, MatSpTrsvPrefetch *pf)
{
  PetscFunctionBegin;
  pf->F    = F;
  pf->A    = A;
  pf->ran  = PETSC_FALSE;
  pf->kept = PETSC_FALSE;
  PetscCall(SpTrsvThreadsSideBegin(MatSpTrsvPrefetchRun, pf));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* MatSpTrsvPrefetchFlush - after the analysis: the job, if no pair of threads ran it */
PetscErrorCode MatSpTrsvPrefetchFlush(MatSpTrsvPrefetch *pf)
{
  Mat_SpTrsv   *sp = (Mat_SpTrsv *)pf->F->data;
  SpTrsvDevMem *saved;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  SpTrsvDevMemBegin(&sp->mem, &saved);
  ierr = SpTrsvThreadsSideEnd(PETSC_TRUE);
  SpTrsvDevMemEnd(saved);
  PetscCall(ierr);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* MatSpTrsvPrefetchEnd - the end of the symbolic phase, an error included: the job dropped if it has not run, the kept
   patterns freed */
PetscErrorCode MatSpTrsvPrefetchEnd(MatSpTrsvPrefetch *pf)
{
  const SpTrsvDeviceOps *dev;

  PetscFunctionBegin;
  PetscCall(SpTrsvThreadsSideEnd(PETSC_FALSE));
  if (pf->kept) {
    PetscCall(SpTrsvDeviceOpsGet(&dev, NULL, NULL));
    PetscCall((*dev->indices.release)());
    pf->kept = PETSC_FALSE;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
