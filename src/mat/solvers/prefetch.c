/*
   The factor's setup side job (include/sptrsv/threads.h): while two of the setup's threads analyse L and U (the runs
   dispatch's windows pass, SpTrsvThreadsPair()), the setup's own thread uploads what the GPU numeric ILU needs and
   would otherwise upload after the analysis, one after the other:
   - A's values and pattern: PETSc's own copy of a MATSEQAIJCUSPARSE (the one its MatMult uses, made at the first
     product otherwise), which the GPU ILU reads in place (src/mat/factor/ilu_device.c);
   - the factor's L and U patterns, kept on the device until the end of the symbolic phase (src/cuda/cuda_upload.h):
     the runs dispatch's device setup and the GPU ILU's setup each uploaded them before; now the first reads the kept
     ones in place and the second copies them on the device.
   At ksp ex45 160^3 ILU(0) that is about 0.06 s of uploads (docs/PERFORMANCE.md, e2e run 19) under a windows pass of
   about the same length. With fewer than three threads, or when no pair runs (another path, the automatic choice's
   analysis one triangle at a time), the job runs after the analysis (MatSpTrsvPrefetchFlush()): the same uploads as
   before, not hidden, the GPU ILU's pattern upload a device copy.
   Only for an ILU factor whose numeric phase will run on the GPU as far as is known before the analysis
   (MatSpTrsvNumericOnDevice(), the predicate MatSpTrsvSetUpNumeric() uses, whose one further condition is the
   executors' support of device values: where that is missing the
   numeric phase runs on the host and A's device copy was made early; PETSc makes it at the first MatMult anyway when
   A is the operator); otherwise the job does nothing. Its failure is no error (MatSpTrsvPrefetchRun()).
*/
#include <sptrsv/factormat.h>
#include <sptrsv/deviceops.h>
#include <sptrsv/threads.h>

/* the kept patterns freed (none kept: nothing) */
static PetscErrorCode MatSpTrsvPrefetchRelease(MatSpTrsvPrefetch *pf)
{
  const SpTrsvDeviceOps *dev;

  PetscFunctionBegin;
  if (!pf->kept) PetscFunctionReturn(PETSC_SUCCESS);
  pf->kept = PETSC_FALSE;
  PetscCall(SpTrsvDeviceOpsGet(&dev, NULL, NULL));
  PetscCall((*dev->indices.release)());
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the uploads of the job: A's device copy, then the factor's L and U patterns kept */
static PetscErrorCode MatSpTrsvPrefetchUpload(MatSpTrsvPrefetch *pf)
{
  Mat_SpTrsv            *sp  = (Mat_SpTrsv *)pf->F->data;
  SpTrsvFactor           fac = sp->fac;
  const SpTrsvDeviceOps *dev;
  const PetscScalar     *v;
  PetscBool              got;

  PetscFunctionBegin;
  PetscCall(SpTrsvDeviceOpsGet(&dev, NULL, NULL));
  PetscCall((*dev->petsc->mat_read)(pf->A, PETSC_FALSE, &v, &got)); /* PETSc uploads A now unless the device holds it */
  if (got) PetscCall((*dev->petsc->mat_restore_read)(pf->A, &v));
  pf->kept = PETSC_TRUE;
  PetscCall((*dev->indices.keep)(fac->L->i, fac->n + 1));
  PetscCall((*dev->indices.keep)(fac->L->j, fac->L->i[fac->n]));
  PetscCall((*dev->indices.keep)(fac->U->i, fac->n + 1));
  PetscCall((*dev->indices.keep)(fac->U->j, fac->U->i[fac->n]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the job (SpTrsvSideFn), counted in the factor's device memory. Only an optimization: a failure (out of device memory)
   gives back what it kept and says so with -info; the readers then upload for themselves, and a real fault shows there */
static PetscErrorCode MatSpTrsvPrefetchRun(void *ctx)
{
  MatSpTrsvPrefetch *pf = (MatSpTrsvPrefetch *)ctx;
  Mat_SpTrsv        *sp = (Mat_SpTrsv *)pf->F->data;
  PetscBool          want;
  SpTrsvDevMem      *saved;
  PetscErrorCode     ierr;

  PetscFunctionBegin;
  PetscCall(MatSpTrsvNumericOnDevice(pf->F, NULL, 0, &want)); /* as far as is known before the analysis */
  if (!want) PetscFunctionReturn(PETSC_SUCCESS);
  SpTrsvDevMemBegin(&sp->mem, &saved);
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = MatSpTrsvPrefetchUpload(pf);
  PetscCall(PetscPopErrorHandler());
  SpTrsvDevMemEnd(saved);
  if (ierr) {
    PetscCall(PetscInfo(pf->F, "The setup's uploads beside the analysis stopped (%s): the solvers and the GPU ILU upload for themselves\n", SpTrsvErrorText(ierr, "?")));
    PetscCall(MatSpTrsvPrefetchRelease(pf));
  }
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
  pf->kept = PETSC_FALSE;
  PetscCall(SpTrsvThreadsSideBegin(MatSpTrsvPrefetchRun, pf));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* MatSpTrsvPrefetchFlush - after the analysis: the job, if no pair of threads ran it */
PetscErrorCode MatSpTrsvPrefetchFlush(MatSpTrsvPrefetch *pf)
{
  PetscFunctionBegin;
  (void)pf;
  PetscCall(SpTrsvThreadsSideEnd(PETSC_TRUE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* MatSpTrsvPrefetchEnd - the end of the symbolic phase, an error included: the job dropped if it has not run, the kept
   patterns freed */
PetscErrorCode MatSpTrsvPrefetchEnd(MatSpTrsvPrefetch *pf)
{
  PetscFunctionBegin;
  PetscCall(SpTrsvThreadsSideEnd(PETSC_FALSE));
  PetscCall(MatSpTrsvPrefetchRelease(pf));
  PetscFunctionReturn(PETSC_SUCCESS);
}
