/*
   PC isai's GPU factorization pipeline (part of the cuda backend, isaicuda.c): when the apply runs on the GPU
   and the factor is a block ILU (block sizes 2..8), the whole numeric phase stays on the device:
     1. the matrix's values (a MATSEQAIJCUSPARSE's device array in place, or a host AIJ/BAIJ array uploaded
        once) are gathered into the block factor through the value map of the BILU symbolic phase
        (src/mat/factor/bilumap.c; src/cuda/bilu_kernels.cu),
     2. the block ILU is computed there, level set by level set,
     3. the ISAI columns of N_L and N_U are solved from it in place (src/cuda/isai_kernels.cu),
     4. their values are written straight into the device value arrays of the MATSEQAIJCUSPARSE matrices the
        apply multiplies by (src/cuda/block_expand_kernels.cu).
   Only the symbolic phase (block ILU pattern, ISAI patterns, the maps between them) runs on the host, once
   per nonzero pattern. The arithmetic is the host path's, so both give the same preconditioner up to
   rounding; errors (non-finite entries, zero pivots) name the entry or the block row as the host does. The
   host copies of N_L, N_U (PCISAIGetApplyMatrices()) are refreshed only when asked for.
   It needs a CUDA build and a CUDA PETSc; otherwise SpTrsvISAIDeviceUsable() says no and nothing else is called on
   the device. Everything on the GPU goes through the device-ops table (include/sptrsv/deviceops.h).
*/
#include "isaicuda.h"
#include <petscpc.h> /* PCFailedReasons, for -info */
#include <petsctime.h>

/*
  SpTrsvISAIDeviceUsable - whether this setup can factor on the GPU: a CUDA build and a CUDA PETSc, ILU on blocks of
  size 2..8, -pc_isai_gpu_factor, a usable device (which needs real scalars)
*/
PetscErrorCode SpTrsvISAIDeviceUsable(SpTrsvISAIPrec p, PetscBool *usable)
{
  const SpTrsvDeviceOps *dev;

  PetscFunctionBegin;
  *usable = PETSC_FALSE;
  PetscCall(SpTrsvDeviceOpsGet(&dev, NULL, NULL));
  if (dev->compiled && dev->petsc->cuda && p->gpu && p->opts->gpufactor && !p->scalar && p->bs >= 2 && p->opts->ftype == MAT_FACTOR_ILU) {
    const char *why;

    PetscCall(SpTrsvDeviceOpsGet(&dev, usable, &why));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* apply matrix k (AL, AU, ATL, ATU) on the GPU; its device value array exists once the matrix has been copied
   to the GPU */
static PetscErrorCode SpTrsvISAIDeviceMat(SpTrsvISAIPrec p, PetscInt k, PetscInt n, const PetscInt *bi, const PetscInt *bj, Mat *M)
{
  SpTrsvISAICUDA        *d = (SpTrsvISAICUDA *)p->data;
  const SpTrsvDeviceOps *dev;
  const PetscScalar     *v;
  PetscBool              got;

  PetscFunctionBegin;
  PetscCall(SpTrsvDeviceOpsGet(&dev, NULL, NULL));
  PetscCall(SpTrsvBlockMatCreateExpanded(n, p->bs, bi, bj, MATSEQAIJCUSPARSE, &d->xi[k], &d->xj[k], &d->xa[k], M));
  PetscCall(MatBindToCPU(*M, PETSC_FALSE));
  PetscCall((*dev->petsc->mat_read)(*M, PETSC_FALSE, &v, &got));
  PetscCheck(got, PETSC_COMM_SELF, PETSC_ERR_PLIB, "The apply matrix is not a MATSEQAIJCUSPARSE");
  PetscCall((*dev->petsc->mat_restore_read)(*M, &v));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SpTrsvISAIDeviceExpandInto(const SpTrsvDeviceOps *dev, SpTrsvCUDAExpand e, const PetscScalar *src, Mat M)
{
  PetscScalar *v;

  PetscFunctionBegin;
  PetscCall((*dev->petsc->mat_write)(M, &v));
  PetscCall((*dev->isai.expand_apply)(e, src, v));
  PetscCall((*dev->petsc->mat_restore_write)(M, &v));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* SpTrsvISAIDeviceSetUp - the symbolic phase: block ILU pattern and value map, ISAI patterns, device objects */
PetscErrorCode SpTrsvISAIDeviceSetUp(SpTrsvISAIPrec p, Mat P)
{
  SpTrsvISAICUDA        *d = (SpTrsvISAICUDA *)p->data;
  const SpTrsvDeviceOps *dev;
  SpTrsvBlockCSR         B;
  PetscErrorCode         ierr;
  PetscInt              *src = NULL;
  const PetscScalar     *na;
  PetscLogDouble         t0, t1, t2, t3;

  PetscFunctionBegin;
  PetscCall(SpTrsvDeviceOpsGet(&dev, NULL, NULL));
  PetscCall(PetscTime(&t0));
  PetscCall(SpTrsvBlockCSRGet(P, p->bs, &B));
  ierr = SpTrsvBILUCreate(B.n, B.bs, &p->bilu);
  if (!ierr) {
    p->bilu->valuemap = PETSC_TRUE; /* the GPU gathers the matrix's own value array */
    ierr              = SpTrsvBILUSymbolic(&B, NULL, NULL, &p->opts->info, p->bilu);
  }
  PetscCall(SpTrsvBlockCSRRestore(&B));
  PetscCall(ierr);
  p->L = p->bilu->L;
  p->U = p->bilu->U;
  PetscCall((*dev->isai.bilu_create)(p->bilu, p->bilu->nval, p->bilu->amap, &d->gF));
  PetscCall((*dev->isai.bilu_get_levels)(d->gF, &p->nlevels));
  PetscCall(PetscTime(&t1));

  PetscCall(SpTrsvISAIPrecCreatePatterns(p));
  PetscCall((*dev->isai.cols_create_on_bilu)(p->NL, d->gF, &d->gNL));
  PetscCall((*dev->isai.cols_create_on_bilu)(p->NU, d->gF, &d->gNU));
  p->gpucols = PETSC_TRUE;
  /* BSR SpMVs on the device values of N_L, N_U themselves */
  PetscCall((*dev->isai.cols_values)(d->gNL, &na));
  PetscCall((*dev->isai.bsr_create)(p->NL->n, p->bs, p->NL->i, p->NL->j, na, &d->gBL));
  PetscCall((*dev->isai.cols_values)(d->gNU, &na));
  PetscCall((*dev->isai.bsr_create)(p->NU->n, p->bs, p->NU->i, p->NU->j, na, &d->gBU));
  p->bsrapply = PETSC_TRUE;

  PetscCall(PetscTime(&t2));
  /* the device matrices the apply multiplies by (the host copies of N_L, N_U are made when asked for) */
  PetscCall(SpTrsvISAIDeviceMat(p, 0, p->NL->n, p->NL->i, p->NL->j, &p->AL));
  PetscCall(SpTrsvISAIDeviceMat(p, 1, p->NU->n, p->NU->i, p->NU->j, &p->AU));
  PetscCall((*dev->isai.expand_create)(p->NL->n, p->bs, p->NL->i, NULL, &d->gEL));
  PetscCall((*dev->isai.expand_create)(p->NU->n, p->bs, p->NU->i, NULL, &d->gEU));
  if (p->opts->relax > 0) {
    PetscCall(SpTrsvBlockTriGetFull(p->L, &p->tli, &p->tlj));
    PetscCall(SpTrsvBlockTriGetFull(p->U, &p->tui, &p->tuj));
    PetscCall(SpTrsvISAIDeviceMat(p, 2, p->L->n, p->tli, p->tlj, &p->ATL));
    PetscCall(SpTrsvISAIDeviceMat(p, 3, p->U->n, p->tui, p->tuj, &p->ATU));
    PetscCall(SpTrsvBILUTriangleSources(p->bilu, p->L, p->tli, &src));
    PetscCall((*dev->isai.expand_create)(p->L->n, p->bs, p->tli, src, &d->gETL));
    PetscCall(PetscFree(src));
    PetscCall(SpTrsvBILUTriangleSources(p->bilu, p->U, p->tui, &src));
    PetscCall((*dev->isai.expand_create)(p->U->n, p->bs, p->tui, src, &d->gETU));
    PetscCall(PetscFree(src));
  }
  PetscCall(PetscTime(&t3));
  p->time_symbolic = t3 - t0;
  PetscCall(PetscInfo(p->obj, "GPU pipeline symbolic phase: block ILU pattern and value map %g s, ISAI patterns %g s, device matrices %g s\n", t1 - t0, t2 - t1, t3 - t2));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the matrix's values where they are: a MATSEQAIJCUSPARSE's device array, else the host array */
static PetscErrorCode SpTrsvISAIGetValues(const SpTrsvDeviceOps *ops, Mat P, PetscBool isbaij, const PetscScalar **v, PetscMemType *mtype, PetscBool *dev)
{
  PetscFunctionBegin;
  PetscCall((*ops->petsc->mat_read)(P, PETSC_FALSE, v, dev));
  if (*dev) {
    *mtype = PETSC_MEMTYPE_DEVICE;
  } else {
    if (isbaij) PetscCall(MatSeqBAIJGetArray(P, (PetscScalar **)v));
    else PetscCall(MatSeqAIJGetArrayRead(P, v));
    *mtype = PETSC_MEMTYPE_HOST;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SpTrsvISAIRestoreValues(const SpTrsvDeviceOps *ops, Mat P, PetscBool isbaij, const PetscScalar **v, PetscBool dev)
{
  PetscFunctionBegin;
  if (dev) PetscCall((*ops->petsc->mat_restore_read)(P, v));
  else if (isbaij) PetscCall(MatSeqBAIJRestoreArray(P, (PetscScalar **)v));
  else PetscCall(MatSeqAIJRestoreArrayRead(P, v));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvISAIDeviceNumeric - the numeric phase on the GPU. Failures as the host path's: errors with
  opts->erroriffailure, else a NaN/Inf is recorded (p->nonfinite) and a zero pivot fails the PC (p->error); the
  apply then returns Inf
*/
PetscErrorCode SpTrsvISAIDeviceNumeric(SpTrsvISAIPrec p, Mat P)
{
  SpTrsvISAICUDA        *d  = (SpTrsvISAICUDA *)p->data;
  const PetscInt         bs = p->bs;
  PetscBool              isbaij, dev;
  const PetscScalar     *v;
  PetscMemType           mtype = PETSC_MEMTYPE_HOST;
  PetscInt               bad, zr, zp;
  const PetscScalar     *na;
  PetscLogDouble         t0, t1;
  PetscErrorCode         ierr;
  const SpTrsvDeviceOps *ops;

  PetscFunctionBegin;
  PetscCall(SpTrsvDeviceOpsGet(&ops, NULL, NULL));
  PetscCall(PetscObjectBaseTypeCompare((PetscObject)P, MATSEQBAIJ, &isbaij));
  if (!p->setup_done) {
    PetscCall(SpTrsvBILUGetValueCount(p->bilu, P, &zr));
    PetscCheck(zr == p->bilu->nval, PetscObjectComm(p->obj), PETSC_ERR_ARG_WRONGSTATE, "The matrix has %" PetscInt_FMT " stored values, the GPU block ILU was built for %" PetscInt_FMT ": a new nonzero pattern needs DIFFERENT_NONZERO_PATTERN", zr, p->bilu->nval);
  }

  /* 1-2: block ILU on the device */
  PetscCall(PetscTime(&t0));
  PetscCall(SpTrsvISAIGetValues(ops, P, isbaij, &v, &mtype, &dev));
  ierr = (*ops->isai.bilu_numeric)(d->gF, v, mtype, p->opts->info.shiftamount, &bad, &zr, &zp);
  PetscCall(SpTrsvISAIRestoreValues(ops, P, isbaij, &v, dev));
  PetscCall(ierr);
  PetscCall(PetscTime(&t1));
  p->time_factor = t1 - t0;
  if (bad >= 0) {
    PetscInt row = -1, col = -1;

    PetscCall(SpTrsvBILUValueLocation(p->bilu, P, bad, &row, &col));
    PetscCheck(!p->opts->erroriffailure, PETSC_COMM_SELF, PETSC_ERR_FP, "Matrix entry (%" PetscInt_FMT ", %" PetscInt_FMT ") is not finite (NaN or Inf)", row, col);
    PetscCall(PetscInfo(p->obj, "PC isai: matrix entry (%" PetscInt_FMT ", %" PetscInt_FMT ") is not finite (NaN or Inf): the apply returns Inf\n", row, col));
    p->nonfinite = PETSC_TRUE;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (zr >= 0) {
    PetscCheck(!p->opts->erroriffailure, PETSC_COMM_SELF, PETSC_ERR_MAT_LU_ZRPVT, "Zero pivot in the diagonal block of block row %" PetscInt_FMT " (rows %" PetscInt_FMT " to %" PetscInt_FMT "), at its row %" PetscInt_FMT ": the matrix's diagonal block of this row is zero or the pivot block (the diagonal block after the elimination) is singular (GPU block ILU)", zr,
               zr * bs, zr * bs + bs - 1, zp);
    p->error   = MAT_FACTOR_NUMERIC_ZEROPIVOT;
    p->failrow = zr * bs + zp;
    PetscCall(PetscInfo(p->obj, "PC isai: zero pivot in the diagonal block of block row %" PetscInt_FMT " (GPU block ILU): the PC failed (%s)\n", zr, PCFailedReasons[(PCFailedReason)p->error]));
    PetscFunctionReturn(PETSC_SUCCESS);
  }

  /* 3: ISAI columns from the factor in place; 4: values of the apply matrices */
  PetscCall((*ops->isai.cols_numeric)(d->gNL, p->NL, NULL, PETSC_FALSE));
  PetscCall((*ops->isai.cols_numeric)(d->gNU, p->NU, NULL, PETSC_FALSE));
  PetscCall((*ops->isai.cols_values)(d->gNL, &na));
  PetscCall(SpTrsvISAIDeviceExpandInto(ops, d->gEL, na, p->AL));
  PetscCall((*ops->isai.cols_values)(d->gNU, &na));
  PetscCall(SpTrsvISAIDeviceExpandInto(ops, d->gEU, na, p->AU));
  if (p->ATL) {
    SpTrsvCUDABILUArrays f;

    PetscCall((*ops->isai.bilu_get_arrays)(d->gF, &f));
    PetscCall(SpTrsvISAIDeviceExpandInto(ops, d->gETL, f.fa, p->ATL));
    PetscCall(SpTrsvISAIDeviceExpandInto(ops, d->gETU, f.fa, p->ATU));
  }
  d->host_stale = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* SpTrsvISAIDeviceSyncHost - bring the host copies of N_L, N_U up to date (for PCISAIGetApplyMatrices()) */
PetscErrorCode SpTrsvISAIDeviceSyncHost(SpTrsvISAIPrec p)
{
  SpTrsvISAICUDA        *d = (SpTrsvISAICUDA *)p->data;
  const SpTrsvDeviceOps *dev;

  PetscFunctionBegin;
  if (!d || !d->host_stale) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(SpTrsvDeviceOpsGet(&dev, NULL, NULL));
  if (!p->ML) { /* made on the first request only: the GPU pipeline does not need them */
    PetscCall(SpTrsvBlockMatCreate(p->NL->n, p->bs, p->NL->i, p->NL->j, &p->ML));
    PetscCall(SpTrsvBlockMatCreate(p->NU->n, p->bs, p->NU->i, p->NU->j, &p->MU));
  }
  PetscCall((*dev->isai.cols_download)(d->gNL, p->NL));
  PetscCall((*dev->isai.cols_download)(d->gNU, p->NU));
  PetscCall(SpTrsvBlockMatSetValues(p->ML, p->NL->a));
  PetscCall(SpTrsvBlockMatSetValues(p->MU, p->NU->a));
  d->host_stale = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* SpTrsvISAIDeviceDestroy - the device objects of the cuda backend (column solves included) */
PetscErrorCode SpTrsvISAIDeviceDestroy(SpTrsvISAIPrec p)
{
  SpTrsvISAICUDA        *d = (SpTrsvISAICUDA *)p->data;
  const SpTrsvDeviceOps *dev;

  PetscFunctionBegin;
  PetscCall(SpTrsvDeviceOpsGet(&dev, NULL, NULL));
  PetscCall((*dev->isai.bsr_destroy)(&d->gBL));
  PetscCall((*dev->isai.bsr_destroy)(&d->gBU));
  PetscCall((*dev->isai.expand_destroy)(&d->gEL));
  PetscCall((*dev->isai.expand_destroy)(&d->gEU));
  PetscCall((*dev->isai.expand_destroy)(&d->gETL));
  PetscCall((*dev->isai.expand_destroy)(&d->gETU));
  PetscCall((*dev->isai.cols_destroy)(&d->gNL)); /* the ISAIs read the factor: first */
  PetscCall((*dev->isai.cols_destroy)(&d->gNU));
  PetscCall((*dev->isai.bilu_destroy)(&d->gF));
  d->host_stale = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvISAIDeviceApplyBSR - y = N_U (N_L x) with cuSPARSE's BSR SpMV on CUDA vectors, when the GPU pipeline made
  the BSR forms and the apply has no relaxation steps (*done = PETSC_FALSE otherwise: the caller uses the CSR
  matrices)
*/
PetscErrorCode SpTrsvISAIDeviceApplyBSR(SpTrsvISAIPrec p, Vec x, Vec y, PetscBool *done)
{
  SpTrsvISAICUDA        *d = (SpTrsvISAICUDA *)p->data;
  const SpTrsvDeviceOps *dev;
  PetscBool              cx, cy;
  const PetscScalar     *xa;
  PetscScalar           *wa, *ya;

  PetscFunctionBegin;
  *done = PETSC_FALSE;
  if (!d->gBL || !p->opts->bsr || p->opts->relax > 0 || !p->w) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(SpTrsvDeviceOpsGet(&dev, NULL, NULL));
  PetscCall(PetscObjectTypeCompare((PetscObject)x, VECSEQCUDA, &cx));
  PetscCall(PetscObjectTypeCompare((PetscObject)y, VECSEQCUDA, &cy));
  if (!cx || !cy) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscLogGpuTimeBegin());
  PetscCall((*dev->petsc->vec_read)(x, &xa));
  PetscCall((*dev->petsc->vec_write)(p->w, &wa));
  PetscCall((*dev->isai.bsr_mult)(d->gBL, xa, wa));
  PetscCall((*dev->petsc->vec_restore_write)(p->w, &wa));
  PetscCall((*dev->petsc->vec_restore_read)(x, &xa));
  PetscCall((*dev->petsc->vec_read)(p->w, &xa));
  PetscCall((*dev->petsc->vec_write)(y, &ya));
  PetscCall((*dev->isai.bsr_mult)(d->gBU, xa, ya));
  PetscCall((*dev->petsc->vec_restore_write)(y, &ya));
  PetscCall((*dev->petsc->vec_restore_read)(p->w, &xa));
  PetscCall(PetscLogGpuTimeEnd());
  PetscCall(PetscLogGpuFlops(2.0 * p->bs * p->bs * (p->NL->i[p->NL->n] + p->NU->i[p->NU->n])));
  *done = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}
