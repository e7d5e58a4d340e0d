/*
   PC isai's cuda backend (plain C over PETSc's CUDA types and the plugin's CUDA functions, src/cuda/):
   - the apply multiplies by PETSc MATSEQAIJCUSPARSE matrices (blocks expanded to scalar CSR), a cuSPARSE SpMV
     on the device vectors; host vectors are copied through device ones;
   - with a CUDA build of the plugin and a usable GPU, the column solves run on the GPU
     (src/cuda/isai_kernels.cu), from the host factor uploaded at each numeric phase;
   - for block ILU (block sizes 2..8, -pc_isai_gpu_factor) the whole numeric phase stays on the device
     (isaidevice.c), with BSR SpMVs for the forward applies.
   It needs a PETSc configured with CUDA (SpTrsvISAICUDAUse()); without one SpTrsvBackendSelect() never chooses it
   and SpTrsvISAIPrecCreate() refuses it. Everything on the GPU goes through the device-ops table (deviceops.h).
*/
#include "isaicuda.h"

/*
  SpTrsvISAICUDAUse - the GPU apply multiplies with PETSc's MATSEQAIJCUSPARSE matrices, so it needs a PETSc
  configured with CUDA; auto takes it when the user chose the GPU for the matrix (-mat_type aijcusparse,
  -dm_mat_type aijcusparse)
*/
PetscErrorCode SpTrsvISAICUDAUse(Mat P, SpTrsvBackendCUDAUse *use)
{
  const SpTrsvDeviceOps *dev;

  PetscFunctionBegin;
  PetscCall(SpTrsvDeviceOpsGet(&dev, NULL, NULL));
  if (dev->petsc->cuda) {
    use->available = PETSC_TRUE;
    PetscCall(PetscObjectTypeCompareAny((PetscObject)P, &use->automatic, MATSEQAIJCUSPARSE, MATAIJCUSPARSE, ""));
    use->why = use->automatic ? "the matrix has a CUDA type" : "the matrix has no CUDA type (use -mat_type aijcusparse for the GPU)";
  } else {
    use->available = PETSC_FALSE;
    use->automatic = PETSC_FALSE;
    use->why       = "PC isai's GPU apply needs a PETSc configured with CUDA (it multiplies with PETSc's cuSPARSE matrices); this PETSc has none: use auto or host";
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the symbolic phase: on the device when the GPU can factor (isaidevice.c), else the host factor's */
static PetscErrorCode SpTrsvISAICUDASetUp(SpTrsvISAIPrec p, Mat P)
{
  SpTrsvISAICUDA *d;

  PetscFunctionBegin;
  PetscCall(PetscNew(&d));
  p->data = d;
  p->gpu  = PETSC_TRUE;
  PetscCall(SpTrsvISAIDeviceUsable(p, &p->gpufactor));
  if (p->gpufactor) PetscCall(SpTrsvISAIDeviceSetUp(p, P));
  else PetscCall(SpTrsvISAIPrecFactorSymbolic(p, P));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the column solves after a host factorization: on the GPU when the plugin's CUDA backend can run (the same
   arithmetic as the host's), else on the host */
static PetscErrorCode SpTrsvISAICUDAColumns(SpTrsvISAIPrec p, PetscBool created)
{
  SpTrsvISAICUDA        *d = (SpTrsvISAICUDA *)p->data;
  const SpTrsvDeviceOps *dev;

  PetscFunctionBegin;
  PetscCall(SpTrsvDeviceOpsGet(&dev, NULL, NULL));
  if (created) {
    const char *why;
    PetscBool   avail;

    PetscCall(SpTrsvDeviceOpsGet(&dev, &avail, &why)); /* the CUDA backend's device check (cached) */
    if (avail) {
      PetscCall((*dev->isai.cols_create)(p->NL, p->L, &d->gNL));
      PetscCall((*dev->isai.cols_create)(p->NU, p->U, &d->gNU));
      p->gpucols = PETSC_TRUE;
    }
  }
  if (p->gpucols) {
    PetscCall((*dev->isai.cols_numeric)(d->gNL, p->NL, p->L, PETSC_TRUE));
    PetscCall((*dev->isai.cols_numeric)(d->gNU, p->NU, p->U, PETSC_TRUE));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(SpTrsvISAIPrecColumnsHost(p, created));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  the apply matrix of a host matrix H: a copy in PETSc's MATSEQAIJCUSPARSE type (blocks expanded to scalar CSR),
  whose MatMult() is a cuSPARSE SpMV on the device vectors; made anew after every numeric phase (the values of all
  four matrices change together; the copy is part of the setup time)
*/
static PetscErrorCode SpTrsvISAICUDAApplyMat(Mat H, Mat *A)
{
  PetscInt bs;

  PetscFunctionBegin;
  PetscCall(MatDestroy(A));
  if (!H) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MatGetBlockSize(H, &bs));
  if (bs > 1) PetscCall(MatConvert(H, MATSEQAIJ, MAT_INITIAL_MATRIX, A));
  else PetscCall(MatDuplicate(H, MAT_COPY_VALUES, A));
  PetscCall(MatConvert(*A, MATSEQAIJCUSPARSE, MAT_INPLACE_MATRIX, A));
  PetscCall(MatBindToCPU(*A, PETSC_FALSE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SpTrsvISAICUDANumeric(SpTrsvISAIPrec p, Mat P)
{
  PetscFunctionBegin;
  if (p->gpufactor) PetscCall(SpTrsvISAIDeviceNumeric(p, P)); /* factor, columns and apply values on the GPU */
  else PetscCall(SpTrsvISAIPrecNumericHostFactor(p, P, SpTrsvISAICUDAColumns, SpTrsvISAICUDAApplyMat));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* y = M^{-1} x on the device: host vectors through device copies; forward applies of the GPU factorization with
   the BSR SpMV when it can, else the cuSPARSE matrices */
static PetscErrorCode SpTrsvISAICUDAApply(SpTrsvISAIPrec p, PetscBool transpose, Vec x, Vec y)
{
  SpTrsvISAICUDA *d = (SpTrsvISAICUDA *)p->data;
  PetscBool       dev;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompareAny((PetscObject)x, &dev, VECSEQCUDA, VECMPICUDA, ""));
  if (!dev) {
    if (!d->xd) {
      PetscCall(MatCreateVecs(p->AL, &d->xd, &d->yd));
      PetscCall(PetscInfo(p->obj, "PC isai: host vectors are copied to and from the device for the GPU apply\n"));
    }
    PetscCall(VecCopy(x, d->xd));
    PetscCall(SpTrsvISAICUDAApply(p, transpose, d->xd, d->yd));
    PetscCall(VecCopy(d->yd, y));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (!p->w) PetscCall(VecDuplicate(x, &p->w));
  if (!p->r && p->opts->relax > 0) PetscCall(VecDuplicate(x, &p->r));
  if (!transpose) {
    PetscBool done;

    PetscCall(SpTrsvISAIDeviceApplyBSR(p, x, y, &done));
    if (done) PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(SpTrsvISAIPrecApplyMatrices(p, transpose, x, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* called after the matrices are destroyed (SpTrsvISAIPrecDestroy()): the arrays under the device ones go last */
static PetscErrorCode SpTrsvISAICUDADestroy(SpTrsvISAIPrec p)
{
  SpTrsvISAICUDA *d = (SpTrsvISAICUDA *)p->data;

  PetscFunctionBegin;
  if (!d) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(SpTrsvISAIDeviceDestroy(p));
  for (PetscInt k = 0; k < 4; k++) {
    PetscCall(PetscFree(d->xi[k]));
    PetscCall(PetscFree(d->xj[k]));
    PetscCall(PetscFree(d->xa[k]));
  }
  PetscCall(VecDestroy(&d->xd));
  PetscCall(VecDestroy(&d->yd));
  PetscCall(PetscFree(p->data));
  PetscFunctionReturn(PETSC_SUCCESS);
}

const SpTrsvISAIOps SpTrsvISAIOpsCUDA = {"cuda", SpTrsvISAICUDASetUp, SpTrsvISAICUDANumeric, SpTrsvISAICUDAApply, SpTrsvISAIDeviceSyncHost, SpTrsvISAICUDADestroy};
