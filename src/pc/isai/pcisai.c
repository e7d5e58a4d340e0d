/*
   PC isai: incomplete sparse approximate inverse preconditioning (paper 003, block ISAI; Anzt et al.).
   M = L U is an incomplete factorization of the matrix (scalar ILU(k)/ICC(k) for AIJ, block ILU(k) for
   BAIJ or AIJ with a block size); N_L ~ L^{-1} and N_U ~ U^{-1} are computed column by column on the
   patterns S(|L|^k), S(|U|^k), and the preconditioner is applied as two (block) SpMVs:
       M^{-1} v ~ N_U (N_L v),
   optionally with m Richardson steps per triangle, x <- x + N (b - T x).
*/
#include "pcisaiimpl.h"
#include <sptrsv/backend.h>
#include <sptrsv/isaiprec.h>
#if defined(PETSC_SPTRSV_HAVE_CUDA)
  #include <sptrsv/isai_cuda.h>
#endif
#include <petsctime.h>

static const char *const PCISAIFactorTypes[] = {"ilu", "icc"};


static PetscErrorCode PCISAIFreeViews_Private(PC_ISAI *jac)
{
  PetscFunctionBegin;
  if (jac->fac) {
    PetscCall(SpTrsvBlockTriDestroy(&jac->L));
    PetscCall(SpTrsvBlockTriDestroy(&jac->U));
  }
  jac->L = jac->U = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCISAIFree_Private(PC_ISAI *jac)
{
  PetscFunctionBegin;
  PetscCall(PCISAIDeviceFree_Private(jac));
  PetscCall(PCISAIFreeViews_Private(jac));
  PetscCall(SpTrsvFactorDestroy(&jac->fac));
  PetscCall(SpTrsvBILUDestroy(&jac->bilu));
  PetscCall(SpTrsvISAIDestroy(&jac->NL));
  PetscCall(SpTrsvISAIDestroy(&jac->NU));
#if defined(PETSC_SPTRSV_HAVE_CUDA)
  PetscCall(SpTrsvCUDAISAIDestroy((SpTrsvCUDAISAI *)&jac->gNL));
  PetscCall(SpTrsvCUDAISAIDestroy((SpTrsvCUDAISAI *)&jac->gNU));
#endif
  jac->gpucols = PETSC_FALSE;
  PetscCall(MatDestroy(&jac->ML));
  PetscCall(MatDestroy(&jac->MU));
  PetscCall(MatDestroy(&jac->TL));
  PetscCall(MatDestroy(&jac->TU));
  PetscCall(MatDestroy(&jac->AL));
  PetscCall(MatDestroy(&jac->AU));
  PetscCall(MatDestroy(&jac->ATL));
  PetscCall(MatDestroy(&jac->ATU));
  for (PetscInt k = 0; k < 4; k++) { /* the arrays under the GPU pipeline's matrices, now destroyed */
    PetscCall(PetscFree(jac->xi[k]));
    PetscCall(PetscFree(jac->xj[k]));
    PetscCall(PetscFree(jac->xa[k]));
  }
  PetscCall(PetscFree(jac->tli));
  PetscCall(PetscFree(jac->tlj));
  PetscCall(PetscFree(jac->tui));
  PetscCall(PetscFree(jac->tuj));
  PetscCall(PetscFree(jac->tla));
  PetscCall(PetscFree(jac->tua));
  PetscCall(VecDestroy(&jac->w));
  PetscCall(VecDestroy(&jac->r));
  PetscCall(VecDestroy(&jac->xd));
  PetscCall(VecDestroy(&jac->yd));
  jac->pmat = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the factorization options, with PCFactor's defaults and PCILU's rule for block matrices */
static PetscErrorCode PCISAISetFactorInfo_Private(PC pc, PetscBool scalar)
{
  PC_ISAI *jac = (PC_ISAI *)pc->data;
  MatFactorShiftType st;

  PetscFunctionBegin;
  st = jac->shifttype_set ? jac->shifttype : (jac->ftype == MAT_FACTOR_ICC ? MAT_SHIFT_POSITIVE_DEFINITE : MAT_SHIFT_NONE);
  if (!scalar && st == MAT_SHIFT_NONZERO) {
    st = MAT_SHIFT_INBLOCKS;
    PetscCall(PetscInfo(pc, "Changing shift type from NONZERO to INBLOCKS because block matrices do not support NONZERO\n"));
  }
  PetscCall(MatFactorInfoInitialize(&jac->info));
  jac->info.levels        = (PetscReal)jac->levels;
  jac->info.fill          = 1.0;
  jac->info.diagonal_fill = 0.0;
  jac->info.shifttype     = (PetscReal)st;
  jac->info.shiftamount   = jac->shiftamount;
  jac->info.zeropivot     = jac->zeropivot;
  jac->info.pivotinblocks = 1.0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* symbolic (when build) and numeric factorization of pmat; L and U point to the triangles */
static PetscErrorCode PCISAIFactor_Private(PC pc, PetscBool scalar, PetscBool build)
{
  PC_ISAI *jac = (PC_ISAI *)pc->data;
  Mat      P   = pc->pmat;

  PetscFunctionBegin;
  if (scalar) {
    PetscInt n;

    if (build) {
      PetscCall(MatGetLocalSize(P, &n, NULL));
      PetscCall(SpTrsvFactorCreate(jac->ftype, n, &jac->fac));
      if (jac->ftype == MAT_FACTOR_ICC) PetscCall(SpTrsvFactorICCSymbolic(P, NULL, &jac->info, jac->fac));
      else PetscCall(SpTrsvFactorILUSymbolic(P, NULL, NULL, &jac->info, jac->fac));
    }
    if (jac->ftype == MAT_FACTOR_ICC) PetscCall(SpTrsvFactorICCNumeric(P, &jac->info, jac->fac));
    else PetscCall(SpTrsvFactorILUNumeric(P, &jac->info, jac->fac));
    PetscCall(PCISAIFreeViews_Private(jac));
    PetscCall(SpTrsvBlockTriCreateFromTri(jac->fac->L, &jac->L));
    PetscCall(SpTrsvBlockTriCreateFromTri(jac->fac->U, &jac->U));
  } else {
    SpTrsvBlockCSR B;
    PetscErrorCode ierr;

    PetscCheck(jac->ftype == MAT_FACTOR_ILU, PetscObjectComm((PetscObject)pc), PETSC_ERR_SUP, "PC isai with block size %" PetscInt_FMT " supports only -pc_isai_factor_type ilu (block ILU)", jac->bs);
    PetscCall(SpTrsvBlockCSRGet(P, jac->bs, &B));
    ierr = PETSC_SUCCESS;
    if (build) {
      ierr = SpTrsvBILUCreate(B.n, B.bs, &jac->bilu);
      if (!ierr) ierr = SpTrsvBILUSymbolic(&B, NULL, NULL, &jac->info, jac->bilu);
    }
    if (!ierr) {
      jac->bilu->erroriffailure = pc->erroriffailure;
      ierr                      = SpTrsvBILUNumeric(&B, &jac->info, jac->bilu);
    }
    PetscCall(SpTrsvBlockCSRRestore(&B));
    PetscCall(ierr);
    jac->L = jac->bilu->L;
    jac->U = jac->bilu->U;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  PCISAIFactorOutcome_Private - after a host factorization without pc->erroriffailure: a zero pivot fails the
  PC as PCSetUp_ILU does after MatFactorGetError() (pc->failedreason = PC_FACTOR_NUMERIC_ZEROPIVOT), a NaN/Inf
  is remembered; either way the column solves are skipped and the apply returns Inf
*/
static PetscErrorCode PCISAIFactorOutcome_Private(PC pc)
{
  PC_ISAI       *jac = (PC_ISAI *)pc->data;
  MatFactorError err = MAT_FACTOR_NOERROR;

  PetscFunctionBegin;
  if (jac->fac) {
    err            = jac->fac->error;
    jac->failrow   = jac->fac->zeropivot_row;
    jac->nonfinite = jac->fac->nonfinite;
  } else if (jac->bilu) {
    err            = jac->bilu->error;
    jac->failrow   = jac->bilu->zeropivot_row * jac->bs + jac->bilu->zeropivot_sub;
    jac->nonfinite = jac->bilu->nonfinite;
  }
  if (err) {
    jac->failed      = (PCFailedReason)err; /* PETSc's cast: MAT_FACTOR_NUMERIC_ZEROPIVOT is PC_FACTOR_NUMERIC_ZEROPIVOT */
    pc->failedreason = jac->failed;
    PetscCall(PetscInfo(pc, "PC isai: zero pivot in row %" PetscInt_FMT " of the factor: the PC failed (%s)\n", jac->failrow, PCFailedReasons[jac->failed]));
  } else if (jac->nonfinite) PetscCall(PetscInfo(pc, "PC isai: NaN/Inf in the matrix: the apply returns Inf\n"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  PCISAICreateApplyMatrices_Private - the one place that makes the matrices the apply multiplies by:
  N_L, N_U and, with relaxation steps, L and U (MATSEQAIJ for bs = 1, MATSEQBAIJ otherwise). A GPU
  backend converts them here to its matrix types.
*/
PetscErrorCode PCISAICreateApplyMatrices_Private(PC pc)
{
  PC_ISAI *jac = (PC_ISAI *)pc->data;
  size_t   bs2 = (size_t)jac->bs * jac->bs;

  PetscFunctionBegin;
  PetscCall(SpTrsvBlockMatCreate(jac->NL->n, jac->bs, jac->NL->i, jac->NL->j, &jac->ML));
  PetscCall(SpTrsvBlockMatCreate(jac->NU->n, jac->bs, jac->NU->i, jac->NU->j, &jac->MU));
  if (jac->relax > 0) {
    PetscCall(SpTrsvBlockTriGetFull(jac->L, &jac->tli, &jac->tlj));
    PetscCall(SpTrsvBlockTriGetFull(jac->U, &jac->tui, &jac->tuj));
    PetscCall(PetscMalloc1(bs2 * jac->tli[jac->L->n] + 1, &jac->tla));
    PetscCall(PetscMalloc1(bs2 * jac->tui[jac->U->n] + 1, &jac->tua));
    PetscCall(SpTrsvBlockMatCreate(jac->L->n, jac->bs, jac->tli, jac->tlj, &jac->TL));
    PetscCall(SpTrsvBlockMatCreate(jac->U->n, jac->bs, jac->tui, jac->tuj, &jac->TU));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  PCISAIApplyMatrix_Private - the matrix the apply multiplies by for the host matrix H: H itself on the
  host; on the GPU a copy of H in PETSc's MATSEQAIJCUSPARSE type (blocks expanded to scalar CSR), whose
  MatMult() is a cuSPARSE SpMV on the device vectors. Made anew after every numeric setup (the values
  of all four matrices change together; the copy is part of the setup time).
*/
static PetscErrorCode PCISAIApplyMatrix_Private(PetscBool gpu, Mat H, Mat *A)
{
  PetscFunctionBegin;
  PetscCall(MatDestroy(A));
  if (!H) PetscFunctionReturn(PETSC_SUCCESS);
  if (!gpu) {
    PetscCall(PetscObjectReference((PetscObject)H));
    *A = H;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
#if defined(PETSC_HAVE_CUDA)
  {
    PetscInt bs;

    PetscCall(MatGetBlockSize(H, &bs));
    if (bs > 1) PetscCall(MatConvert(H, MATSEQAIJ, MAT_INITIAL_MATRIX, A));
    else PetscCall(MatDuplicate(H, MAT_COPY_VALUES, A));
    PetscCall(MatConvert(*A, MATSEQAIJCUSPARSE, MAT_INPLACE_MATRIX, A));
    PetscCall(MatBindToCPU(*A, PETSC_FALSE));
  }
#else
  SETERRQ(PETSC_COMM_SELF, PETSC_ERR_PLIB, "GPU apply requested from a PETSc without CUDA");
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* new values of the apply matrices after a numeric setup */
static PetscErrorCode PCISAIUpdateApplyMatrices_Private(PC pc)
{
  PC_ISAI *jac = (PC_ISAI *)pc->data;

  PetscFunctionBegin;
  PetscCall(SpTrsvBlockMatSetValues(jac->ML, jac->NL->a));
  PetscCall(SpTrsvBlockMatSetValues(jac->MU, jac->NU->a));
  if (jac->TL) {
    PetscCall(SpTrsvBlockTriGetFullValues(jac->L, jac->tli, jac->tla));
    PetscCall(SpTrsvBlockTriGetFullValues(jac->U, jac->tui, jac->tua));
    PetscCall(SpTrsvBlockMatSetValues(jac->TL, jac->tla));
    PetscCall(SpTrsvBlockMatSetValues(jac->TU, jac->tua));
  }
  PetscCall(PCISAIApplyMatrix_Private(jac->gpu, jac->ML, &jac->AL));
  PetscCall(PCISAIApplyMatrix_Private(jac->gpu, jac->MU, &jac->AU));
  PetscCall(PCISAIApplyMatrix_Private(jac->gpu, jac->TL, &jac->ATL));
  PetscCall(PCISAIApplyMatrix_Private(jac->gpu, jac->TU, &jac->ATU));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  PCISAIColumnSolves_Private - the values of N_L and N_U: on the GPU (src/cuda/isai_kernels.cu) when the
  apply runs there and the plugin was built with CUDA, else on the host; the same arithmetic either way
*/
static PetscErrorCode PCISAIColumnSolves_Private(PC pc, PetscBool build)
{
  PC_ISAI *jac = (PC_ISAI *)pc->data;

  PetscFunctionBegin;
#if defined(PETSC_SPTRSV_HAVE_CUDA)
  if (build && jac->gpu) {
    const SpTrsvBackendOps *cuda;
    const char             *why;
    PetscBool               avail;

    PetscCall(SpTrsvBackendCUDAGet(&cuda, &avail, &why)); /* the CUDA backend's device check (cached) */
    if (avail) {
      PetscCall(SpTrsvCUDAISAICreate(jac->NL, jac->L, (SpTrsvCUDAISAI *)&jac->gNL));
      PetscCall(SpTrsvCUDAISAICreate(jac->NU, jac->U, (SpTrsvCUDAISAI *)&jac->gNU));
      jac->gpucols = PETSC_TRUE;
    }
  }
  if (jac->gpucols) {
    PetscCall(SpTrsvCUDAISAINumeric((SpTrsvCUDAISAI)jac->gNL, jac->NL, jac->L, PETSC_TRUE));
    PetscCall(SpTrsvCUDAISAINumeric((SpTrsvCUDAISAI)jac->gNU, jac->NU, jac->U, PETSC_TRUE));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
#endif
  PetscCall(SpTrsvISAINumeric(jac->NL, jac->L));
  PetscCall(SpTrsvISAINumeric(jac->NU, jac->U));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  PCISAISelectBackend_Private - whether the apply runs on the GPU, chosen by SpTrsvBackendSelect() from
  -pc_isai_backend (named with the PC's prefix in the messages) and what PC isai's GPU variant needs
  (SpTrsvISAICUDAUse(): a PETSc configured with CUDA; auto takes it for a matrix of PETSc's CUDA types)
*/
static PetscErrorCode PCISAISelectBackend_Private(PC pc, PetscBool *gpu)
{
  PC_ISAI             *jac = (PC_ISAI *)pc->data;
  SpTrsvBackendCUDAUse use;
  SpTrsvExecSlot       slot;
  char                 option[256], note[256];

  PetscFunctionBegin;
  PetscCall(SpTrsvOptionName((PetscObject)pc, "pc_isai_backend", option, sizeof(option)));
  PetscCall(SpTrsvISAICUDAUse(pc->pmat, &use));
  PetscCall(SpTrsvBackendSelect(jac->backendreq, option, &use, &slot, note, sizeof(note)));
  PetscCall(PetscInfo(pc, "PC isai backend %s: %s\n", slot == SPTRSV_EXEC_CUDA ? "cuda" : "host", note));
  *gpu = (PetscBool)(slot == SPTRSV_EXEC_CUDA);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCSetUp_ISAI(PC pc)
{
  PC_ISAI       *jac = (PC_ISAI *)pc->data;
  Mat            P   = pc->pmat;
  PetscBool      isaij, isbaij, scalar, build, gpu;
  PetscInt       bs;
  PetscLogDouble t0, t1;
  MatType        type;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(SPTRSV_ISAISetup, pc, 0, 0, 0));
  /* failures as PCSetUp_ILU: a fresh start, and errors instead of failures when the PC asks for them */
  pc->failedreason = PC_NOERROR;
  jac->failed      = PC_NOERROR;
  jac->nonfinite   = PETSC_FALSE;
  PetscCall(MatSetErrorIfFailure(P, pc->erroriffailure));
  PetscCall(MatGetType(P, &type));
  PetscCall(PetscObjectBaseTypeCompare((PetscObject)P, MATSEQAIJ, &isaij));
  PetscCall(PetscObjectBaseTypeCompare((PetscObject)P, MATSEQBAIJ, &isbaij));
  PetscCheck(isaij || isbaij, PetscObjectComm((PetscObject)pc), PETSC_ERR_SUP, "PC isai needs a sequential AIJ or BAIJ matrix, got %s; in parallel use -pc_type bjacobi (or asm) -sub_pc_type isai", type);
  if (jac->bsreq > 0) bs = jac->bsreq;
  else PetscCall(MatGetBlockSize(P, &bs));
  PetscCheck(bs >= 1 && bs <= SPTRSV_BS_MAX, PetscObjectComm((PetscObject)pc), PETSC_ERR_SUP, "PC isai supports block sizes 1 to %d, not %" PetscInt_FMT, SPTRSV_BS_MAX, bs);
  PetscCall(PCISAISelectBackend_Private(pc, &gpu));
  scalar = (PetscBool)(isaij && bs == 1);
  build  = (PetscBool)(gpu != jac->gpu || !jac->NL || !pc->setupcalled || pc->flag != SAME_NONZERO_PATTERN || P != jac->pmat || bs != jac->bs || jac->power != jac->b_power || jac->levels != jac->b_levels || jac->ftype != jac->b_ftype || (jac->relax > 0) != (jac->b_relax > 0));
  PetscCall(PCISAISetFactorInfo_Private(pc, scalar));
  if (build) {
    PetscCall(PCISAIFree_Private(jac));
    jac->bs  = bs;
    jac->gpu = gpu;
  }
  if (build) PetscCall(PCISAIDeviceUsable_Private(pc, gpu, scalar, bs, &jac->gpufactor));
  if (jac->gpufactor) PetscCall(PCISAIDeviceSetUp_Private(pc, build)); /* factor, columns and apply values on the GPU */
  else {
    PetscCall(PetscTime(&t0));
    PetscCall(PCISAIFactor_Private(pc, scalar, build));
    PetscCall(PetscTime(&t1));
    jac->time_factor = t1 - t0;
    PetscCall(PCISAIFactorOutcome_Private(pc));
    if (!jac->failed && !jac->nonfinite) { /* after a failure with build, N_L stays NULL: the next setup builds again */
      if (build) {
        PetscCall(SpTrsvISAICreate(jac->L, jac->power, &jac->NL));
        PetscCall(SpTrsvISAICreate(jac->U, jac->power, &jac->NU));
        jac->time_pattern = jac->NL->time_pattern + jac->NU->time_pattern;
      }
      PetscCall(PCISAIColumnSolves_Private(pc, build));
      if (build) PetscCall(PCISAICreateApplyMatrices_Private(pc));
      PetscCall(PCISAIUpdateApplyMatrices_Private(pc));
    }
  }
  jac->pmat     = P;
  jac->b_power  = jac->power;
  jac->b_levels = jac->levels;
  jac->b_ftype  = jac->ftype;
  jac->b_relax  = jac->relax;
  jac->nsetups++;
  PetscCall(PetscLogEventEnd(SPTRSV_ISAISetup, pc, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* x = N b, then m Richardson steps x <- x + N (b - T x); with op(.) = transpose when asked */
static PetscErrorCode PCISAIStage_Private(Mat N, Mat T, PetscInt m, PetscBool transpose, Vec b, Vec x, Vec r)
{
  PetscFunctionBegin;
  if (transpose) PetscCall(MatMultTranspose(N, b, x));
  else PetscCall(MatMult(N, b, x));
  for (PetscInt s = 0; s < m; s++) {
    if (transpose) PetscCall(MatMultTranspose(T, x, r));
    else PetscCall(MatMult(T, x, r));
    PetscCall(VecAYPX(r, -1.0, b));
    if (transpose) PetscCall(MatMultTransposeAdd(N, r, x, x));
    else PetscCall(MatMultAdd(N, r, x, x));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* M^{-1} x = N_U (N_L x); its transpose N_L^T (N_U^T x) */
static PetscErrorCode PCISAIApply_Private(PC pc, PetscBool transpose, Vec x, Vec y)
{
  PC_ISAI *jac = (PC_ISAI *)pc->data;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(SPTRSV_ISAIApply, pc, x, y, 0));
  if (jac->gpu) { /* host vectors with a GPU apply: through device copies */
    PetscBool dev;

    PetscCall(PetscObjectTypeCompareAny((PetscObject)x, &dev, VECSEQCUDA, VECMPICUDA, ""));
    if (!dev) {
      if (!jac->xd) {
        PetscCall(MatCreateVecs(jac->AL, &jac->xd, &jac->yd));
        PetscCall(PetscInfo(pc, "PC isai: host vectors are copied to and from the device for the GPU apply\n"));
      }
      PetscCall(VecCopy(x, jac->xd));
      PetscCall(PCISAIApply_Private(pc, transpose, jac->xd, jac->yd));
      PetscCall(VecCopy(jac->yd, y));
      PetscCall(PetscLogEventEnd(SPTRSV_ISAIApply, pc, x, y, 0));
      PetscFunctionReturn(PETSC_SUCCESS);
    }
  }
  if (!jac->w) PetscCall(VecDuplicate(x, &jac->w));
  if (!jac->r && jac->relax > 0) PetscCall(VecDuplicate(x, &jac->r));
  if (!transpose) {
    PetscBool done;

    PetscCall(PCISAIDeviceApply_Private(pc, x, y, &done)); /* BSR SpMVs of the GPU pipeline */
    if (done) {
      PetscCall(PetscLogEventEnd(SPTRSV_ISAIApply, pc, x, y, 0));
      PetscFunctionReturn(PETSC_SUCCESS);
    }
    PetscCall(PCISAIStage_Private(jac->AL, jac->ATL, jac->relax, PETSC_FALSE, x, jac->w, jac->r));
    PetscCall(PCISAIStage_Private(jac->AU, jac->ATU, jac->relax, PETSC_FALSE, jac->w, y, jac->r));
  } else {
    PetscCall(PCISAIStage_Private(jac->AU, jac->ATU, jac->relax, PETSC_TRUE, x, jac->w, jac->r));
    PetscCall(PCISAIStage_Private(jac->AL, jac->ATL, jac->relax, PETSC_TRUE, jac->w, y, jac->r));
  }
  PetscCall(PetscLogEventEnd(SPTRSV_ISAIApply, pc, x, y, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* after a failed numeric setup the apply returns Inf, as MatSolve() does for a failed factor: KSP then stops
   with KSP_DIVERGED_PC_FAILED (a zero pivot: pc->failedreason is set) or KSP_DIVERGED_NANORINF (NaN/Inf) */
static PetscErrorCode PCApply_ISAI(PC pc, Vec x, Vec y)
{
  PC_ISAI *jac = (PC_ISAI *)pc->data;

  PetscFunctionBegin;
  if (jac->failed || jac->nonfinite) PetscCall(SpTrsvVecSetInf(y));
  else PetscCall(PCISAIApply_Private(pc, PETSC_FALSE, x, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCApplyTranspose_ISAI(PC pc, Vec x, Vec y)
{
  PC_ISAI *jac = (PC_ISAI *)pc->data;

  PetscFunctionBegin;
  if (jac->failed || jac->nonfinite) PetscCall(SpTrsvVecSetInf(y));
  else PetscCall(PCISAIApply_Private(pc, PETSC_TRUE, x, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCSetFromOptions_ISAI(PC pc, SpTrsvOptionItems PetscOptionsObject)
{
  PC_ISAI  *jac = (PC_ISAI *)pc->data;
  PetscInt  power = jac->power, levels = jac->levels, bs = jac->bsreq, relax = jac->relax, ft = jac->ftype == MAT_FACTOR_ICC ? 1 : 0;
  PetscBool flg, gpufactor = jac->gpufactor_req;

  PetscFunctionBegin;
  PetscOptionsHeadBegin(PetscOptionsObject, "Incomplete sparse approximate inverse (petsc-sptrsv) options");
  PetscCall(PetscOptionsInt("-pc_isai_power", "Pattern power k: N_L on S(|L|^k), N_U on S(|U|^k) (1 to 4)", "PCISAISetPower", power, &power, NULL));
  PetscCall(PetscOptionsInt("-pc_isai_levels", "Levels of fill of the incomplete factorization", "PCISAISetLevels", levels, &levels, NULL));
  PetscCall(PetscOptionsInt("-pc_isai_block_size", "Block size (0: the matrix's); AIJ input is cut into blocks of this size", "PCISAISetBlockSize", bs, &bs, NULL));
  PetscCall(PetscOptionsInt("-pc_isai_relaxation_steps", "Richardson steps x <- x + N (b - T x) per triangle in the apply", "PCISAISetRelaxationSteps", relax, &relax, NULL));
  PetscCall(PetscOptionsEList("-pc_isai_factor_type", "Incomplete factorization (icc: scalar AIJ only)", "PCISAISetFactorType", PCISAIFactorTypes, 2, PCISAIFactorTypes[ft], &ft, NULL));
  PetscCall(PetscOptionsEnum("-pc_isai_shift_type", "Shift for zero pivots, as -pc_factor_shift_type", "", MatFactorShiftTypes, (PetscEnum)jac->shifttype, (PetscEnum *)&jac->shifttype, &flg));
  if (flg) jac->shifttype_set = PETSC_TRUE;
  PetscCall(PetscOptionsReal("-pc_isai_shift_amount", "Shift amount, as -pc_factor_shift_amount", "", jac->shiftamount, &jac->shiftamount, NULL));
  PetscCall(PetscOptionsReal("-pc_isai_zeropivot", "Pivot size treated as zero, as -pc_factor_zeropivot", "", jac->zeropivot, &jac->zeropivot, NULL));
  PetscCall(PetscOptionsEnum("-pc_isai_backend", "Where the column solves and the apply run (cuda: GPU column solves and PETSc's cuSPARSE SpMV; auto: cuda for a CUDA matrix type)", "", SpTrsvBackendTypes, (PetscEnum)jac->backendreq, (PetscEnum *)&jac->backendreq, NULL));
  PetscCall(PetscOptionsBool("-pc_isai_gpu_bsr", "With the GPU factorization, apply N_L, N_U with cuSPARSE's BSR SpMV (forward applies without relaxation steps; else the CSR SpMV)", "", jac->bsr, &jac->bsr, NULL));
  PetscCall(PetscOptionsBool("-pc_isai_gpu_factor", "With the cuda backend, factor on the GPU too (block ILU, block sizes 2 to 8): the whole numeric setup stays on the device", "", jac->gpufactor_req, &gpufactor, NULL));
  if (gpufactor != jac->gpufactor_req) pc->setupcalled = 0;
  jac->gpufactor_req = gpufactor;
  PetscOptionsHeadEnd();
  PetscCall(PCISAISetPower(pc, power));
  PetscCall(PCISAISetLevels(pc, levels));
  PetscCall(PCISAISetBlockSize(pc, bs));
  PetscCall(PCISAISetRelaxationSteps(pc, relax));
  PetscCall(PCISAISetFactorType(pc, ft ? MAT_FACTOR_ICC : MAT_FACTOR_ILU));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCISAIGetInfo_ISAI(PC pc, PCISAIInfo *info)
{
  PC_ISAI *jac = (PC_ISAI *)pc->data;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(info, sizeof(*info)));
  info->power            = jac->power;
  info->levels           = jac->levels;
  info->relaxation_steps = jac->relax;
  info->nsetups          = jac->nsetups;
  info->short_max        = SPTRSV_ISAI_SHORT_MAX;
  if (!jac->NL) PetscFunctionReturn(PETSC_SUCCESS);
  info->gpu_apply    = jac->gpu;
  info->gpu_columns  = jac->gpucols;
  info->gpu_factor   = jac->gpufactor;
  info->nlevels      = jac->nlevels;
  info->bs           = jac->bs;
  info->nnzL         = jac->L->i[jac->L->n] + jac->L->n;
  info->nnzU         = jac->U->i[jac->U->n] + jac->U->n;
  info->nnzNL        = jac->NL->i[jac->NL->n];
  info->nnzNU        = jac->NU->i[jac->NU->n];
  info->maxcolL      = jac->NL->maxcol;
  info->maxcolU      = jac->NU->maxcol;
  info->longL        = jac->NL->nlong;
  info->longU        = jac->NU->nlong;
  info->short_max    = jac->NL->short_max;
  info->time_factor  = jac->time_factor;
  info->time_pattern = jac->time_pattern;
  info->time_symbolic = jac->time_symbolic;
  info->time_solve   = jac->NL->time_solve + jac->NU->time_solve;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCView_ISAI(PC pc, PetscViewer viewer)
{
  PC_ISAI   *jac = (PC_ISAI *)pc->data;
  PetscBool  iascii;
  PCISAIInfo s;
  char       fac[64];

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &iascii));
  if (!iascii) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PCISAIGetInfo_ISAI(pc, &s));
  PetscCall(PetscViewerASCIIPrintf(viewer, "  ISAI: N_L ~ L^-1 on S(|L|^%" PetscInt_FMT "), N_U ~ U^-1 on S(|U|^%" PetscInt_FMT "); relaxation steps %" PetscInt_FMT "\n", s.power, s.power, s.relaxation_steps));
  if (jac->failed) PetscCall(PetscViewerASCIIPrintf(viewer, "  last numeric setup FAILED: zero pivot in row %" PetscInt_FMT " of the factor (%s); the apply returns Inf\n", jac->failrow, PCFailedReasons[jac->failed]));
  else if (jac->nonfinite) PetscCall(PetscViewerASCIIPrintf(viewer, "  last numeric setup met a NaN/Inf in the matrix; the apply returns Inf\n"));
  if (!jac->NL) {
    if (jac->bsreq) PetscCall(PetscViewerASCIIPrintf(viewer, "  factor %s(%" PetscInt_FMT "), block size %" PetscInt_FMT " (not set up yet)\n", jac->ftype == MAT_FACTOR_ICC ? "ICC" : "ILU", jac->levels, jac->bsreq));
    else PetscCall(PetscViewerASCIIPrintf(viewer, "  factor %s(%" PetscInt_FMT "), block size of the matrix (not set up yet)\n", jac->ftype == MAT_FACTOR_ICC ? "ICC" : "ILU", jac->levels));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscSNPrintf(fac, sizeof(fac), "%s%s(%" PetscInt_FMT ")", jac->fac ? "" : "B", jac->ftype == MAT_FACTOR_ICC ? "ICC" : "ILU", s.levels));
  PetscCall(PetscViewerASCIIPrintf(viewer, "  factor %s, block size %" PetscInt_FMT ", natural ordering, shift type %s\n", fac, s.bs, MatFactorShiftTypes[(int)jac->info.shifttype]));
  PetscCall(PetscViewerASCIIPrintf(viewer, "  L: %" PetscInt_FMT " blocks (diagonal included), N_L: %" PetscInt_FMT " blocks (%.2fx); longest column %" PetscInt_FMT " blocks, long path (> %" PetscInt_FMT " blocks): %" PetscInt_FMT " of %" PetscInt_FMT " columns\n", s.nnzL, s.nnzNL,
                                   s.nnzL ? (double)s.nnzNL / s.nnzL : 0.0, s.maxcolL, s.short_max, s.longL, jac->NL->n));
  PetscCall(PetscViewerASCIIPrintf(viewer, "  U: %" PetscInt_FMT " blocks (diagonal included), N_U: %" PetscInt_FMT " blocks (%.2fx); longest column %" PetscInt_FMT " blocks, long path (> %" PetscInt_FMT " blocks): %" PetscInt_FMT " of %" PetscInt_FMT " columns\n", s.nnzU, s.nnzNU,
                                   s.nnzU ? (double)s.nnzNU / s.nnzU : 0.0, s.maxcolU, s.short_max, s.longU, jac->NU->n));
  PetscCall(PetscViewerASCIIPrintf(viewer, "  setup time: factor %.3e s, patterns %.3e s, column solves %.3e s; numeric setups %" PetscInt_FMT "\n", s.time_factor, s.time_pattern, s.time_solve, s.nsetups));
  if (jac->gpufactor) PetscCall(PetscViewerASCIIPrintf(viewer, "  factorization on the GPU (%" PetscInt_FMT " level sets); the numeric setup stays on the device; symbolic phase (host: patterns, maps, matrices) %.3e s\n", s.nlevels, s.time_symbolic));
  PetscCall(PetscViewerASCIIPrintf(viewer, "  backend %s (requested %s): column solves on the %s; apply: %" PetscInt_FMT " SpMVs with %s matrices%s\n", jac->gpu ? "cuda" : "host", SpTrsvBackendTypes[jac->backendreq], jac->gpucols ? "GPU" : "host", 2 + 4 * s.relaxation_steps, ((PetscObject)jac->AL)->type_name,
                                   jac->gBL && jac->bsr && !s.relaxation_steps ? " (forward applies on CUDA vectors: cuSPARSE BSR SpMV)" : ""));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCReset_ISAI(PC pc)
{
  PetscFunctionBegin;
  PetscCall(PCISAIFree_Private((PC_ISAI *)pc->data));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* setters of options that change the patterns or the factor make the next PCSetUp() start over */
static PetscErrorCode PCISAISetInt_Private(PC pc, PetscInt *field, PetscInt value)
{
  PetscFunctionBegin;
  if (*field != value) pc->setupcalled = 0;
  *field = value;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCISAISetPower_ISAI(PC pc, PetscInt k)
{
  PetscFunctionBegin;
  PetscCheck(k >= 1 && k <= 4, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "Pattern power %" PetscInt_FMT " is outside 1 .. 4", k);
  PetscCall(PCISAISetInt_Private(pc, &((PC_ISAI *)pc->data)->power, k));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCISAISetLevels_ISAI(PC pc, PetscInt levels)
{
  PetscFunctionBegin;
  PetscCheck(levels >= 0, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "Levels of fill must be nonnegative, got %" PetscInt_FMT, levels);
  PetscCall(PCISAISetInt_Private(pc, &((PC_ISAI *)pc->data)->levels, levels));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCISAISetBlockSize_ISAI(PC pc, PetscInt bs)
{
  PetscFunctionBegin;
  PetscCheck(bs >= 0 && bs <= SPTRSV_BS_MAX, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "Block size %" PetscInt_FMT " is outside 0 (the matrix's) .. %d", bs, SPTRSV_BS_MAX);
  PetscCall(PCISAISetInt_Private(pc, &((PC_ISAI *)pc->data)->bsreq, bs));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCISAISetRelaxationSteps_ISAI(PC pc, PetscInt m)
{
  PetscFunctionBegin;
  PetscCheck(m >= 0, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "Relaxation steps must be nonnegative, got %" PetscInt_FMT, m);
  PetscCall(PCISAISetInt_Private(pc, &((PC_ISAI *)pc->data)->relax, m));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCISAISetFactorType_ISAI(PC pc, MatFactorType ftype)
{
  PC_ISAI *jac = (PC_ISAI *)pc->data;

  PetscFunctionBegin;
  PetscCheck(ftype == MAT_FACTOR_ILU || ftype == MAT_FACTOR_ICC, PetscObjectComm((PetscObject)pc), PETSC_ERR_SUP, "PC isai factors with ILU or ICC, not %s", MatFactorTypes[ftype]);
  if (jac->ftype != ftype) pc->setupcalled = 0;
  jac->ftype = ftype;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCISAIGetApplyMatrices_ISAI(PC pc, Mat *NL, Mat *NU)
{
  PC_ISAI *jac = (PC_ISAI *)pc->data;

  PetscFunctionBegin;
  PetscCheck(jac->NL, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_WRONGSTATE, "Call PCSetUp() first");
  PetscCall(PCISAIDeviceSyncHost_Private(pc)); /* after a GPU factorization the values live on the device */
  if (NL) *NL = jac->ML;
  if (NU) *NU = jac->MU;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static const char *const PCISAIComposed[] = {"PCISAISetPower_C", "PCISAISetLevels_C", "PCISAISetBlockSize_C", "PCISAISetRelaxationSteps_C", "PCISAISetFactorType_C", "PCISAIGetInfo_C", "PCISAIGetApplyMatrices_C"};

static PetscErrorCode PCDestroy_ISAI(PC pc)
{
  PetscFunctionBegin;
  PetscCall(PCReset_ISAI(pc));
  for (size_t k = 0; k < sizeof(PCISAIComposed) / sizeof(PCISAIComposed[0]); k++) PetscCall(PetscObjectComposeFunction((PetscObject)pc, PCISAIComposed[k], NULL));
  PetscCall(PetscFree(pc->data));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PCISAISetPower - the pattern power k: N_L ~ L^{-1} has the pattern of |L|^k, N_U that of |U|^k

   Logically Collective

   Input Parameters:
+  pc - the preconditioner context
-  k  - 1 (the patterns of L and U, default) to 4

   Options Database Key:
.  -pc_isai_power <k> - the pattern power

   Level: beginner

.seealso: `PCISAI`, `PCISAISetRelaxationSteps()`
@*/
PetscErrorCode PCISAISetPower(PC pc, PetscInt k)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscTryMethod(pc, "PCISAISetPower_C", (PC, PetscInt), (pc, k));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PCISAISetLevels - levels of fill of the incomplete factorization whose factors are approximated

   Logically Collective

   Input Parameters:
+  pc     - the preconditioner context
-  levels - the levels of fill (default 0)

   Options Database Key:
.  -pc_isai_levels <levels> - the levels of fill

   Level: beginner

.seealso: `PCISAI`, `PCFactorSetLevels()`
@*/
PetscErrorCode PCISAISetLevels(PC pc, PetscInt levels)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscTryMethod(pc, "PCISAISetLevels_C", (PC, PetscInt), (pc, levels));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PCISAISetBlockSize - the block size of the block ILU and the block ISAI

   Logically Collective

   Input Parameters:
+  pc - the preconditioner context
-  bs - 0 (default: the block size of the matrix), or 1 to 8; a MATSEQAIJ matrix is cut into blocks of
        this size, a MATSEQBAIJ matrix must have it

   Options Database Key:
.  -pc_isai_block_size <bs> - the block size

   Level: intermediate

.seealso: `PCISAI`, `MatSetBlockSize()`
@*/
PetscErrorCode PCISAISetBlockSize(PC pc, PetscInt bs)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscTryMethod(pc, "PCISAISetBlockSize_C", (PC, PetscInt), (pc, bs));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PCISAISetRelaxationSteps - Richardson steps x <- x + N (b - T x) added to each triangle's apply

   Logically Collective

   Input Parameters:
+  pc - the preconditioner context
-  m  - the steps (default 0); each costs two SpMVs per triangle. Since N T - I is strictly
        (block) triangular, enough steps give the exact triangular solves.

   Options Database Key:
.  -pc_isai_relaxation_steps <m> - the steps

   Level: intermediate

.seealso: `PCISAI`, `PCISAISetPower()`
@*/
PetscErrorCode PCISAISetRelaxationSteps(PC pc, PetscInt m)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscTryMethod(pc, "PCISAISetRelaxationSteps_C", (PC, PetscInt), (pc, m));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PCISAISetFactorType - the incomplete factorization: `MAT_FACTOR_ILU` (default) or `MAT_FACTOR_ICC`
   (scalar AIJ matrices only)

   Logically Collective

   Input Parameters:
+  pc    - the preconditioner context
-  ftype - `MAT_FACTOR_ILU` or `MAT_FACTOR_ICC`

   Options Database Key:
.  -pc_isai_factor_type <ilu,icc> - the factorization

   Level: intermediate

.seealso: `PCISAI`
@*/
PetscErrorCode PCISAISetFactorType(PC pc, MatFactorType ftype)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscTryMethod(pc, "PCISAISetFactorType_C", (PC, MatFactorType), (pc, ftype));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PCISAIGetInfo - what the last setup built: sizes of L, U, N_L, N_U, long columns, setup times

   Not Collective

   Input Parameter:
.  pc - the preconditioner context

   Output Parameter:
.  info - the figures (block counts and sizes are zero before the first setup)

   Level: intermediate

.seealso: `PCISAI`, `PCISAIInfo`
@*/
PetscErrorCode PCISAIGetInfo(PC pc, PCISAIInfo *info)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscUseMethod(pc, "PCISAIGetInfo_C", (PC, PCISAIInfo *), (pc, info));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PCISAIGetApplyMatrices - the matrices N_L ~ L^{-1} and N_U ~ U^{-1} the preconditioner multiplies by

   Not Collective

   Input Parameter:
.  pc - the preconditioner context (set up)

   Output Parameters:
+  NL - N_L (MATSEQAIJ for block size 1, MATSEQBAIJ otherwise), or NULL
-  NU - N_U, or NULL

   Level: advanced

.seealso: `PCISAI`
@*/
PetscErrorCode PCISAIGetApplyMatrices(PC pc, Mat *NL, Mat *NU)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscUseMethod(pc, "PCISAIGetApplyMatrices_C", (PC, Mat *, Mat *), (pc, NL, NU));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*MC
   PCISAI - incomplete sparse approximate inverse preconditioning (petsc-sptrsv, paper 003): the
   factors L, U of an incomplete factorization are replaced by approximate inverses N_L, N_U on the
   patterns S(|L|^k), S(|U|^k), each column computed from a small (block) triangular system, and the
   preconditioner is applied as M^{-1} v = N_U (N_L v): two (block) SpMVs and no triangular solve.

   Options Database Keys:
+  -pc_isai_power <k> - pattern power, 1 to 4 (default 1: the patterns of L and U)
.  -pc_isai_levels <k> - levels of fill of the factorization (default 0)
.  -pc_isai_block_size <bs> - block size (default: the matrix's); MATSEQAIJ input is cut into blocks
.  -pc_isai_factor_type <ilu,icc> - the factorization (icc: scalar AIJ only)
.  -pc_isai_relaxation_steps <m> - Richardson steps x <- x + N (b - T x) per triangle (default 0)
.  -pc_isai_shift_type <none,nonzero,positive_definite,inblocks> - zero-pivot shifts, as -pc_factor_shift_type
.  -pc_isai_shift_amount <a> - as -pc_factor_shift_amount
.  -pc_isai_zeropivot <tol> - as -pc_factor_zeropivot
.  -pc_isai_backend <auto,host,cuda> - where the column solves and the SpMVs of the apply run (cuda: GPU column solves, PETSc's MATSEQAIJCUSPARSE; auto: cuda when the matrix has a CUDA type)
.  -pc_isai_gpu_bsr <true> - with the GPU factorization, forward applies on CUDA vectors use cuSPARSE's BSR SpMV on N_L, N_U (faster than the CSR SpMV on blocks); transposed applies and relaxation steps use the CSR matrices
-  -pc_isai_gpu_factor <true> - with the cuda backend, the block ILU (block sizes 2 to 8) runs on the GPU too, so the numeric setup never leaves the device; otherwise the factorization runs on the host

   Notes:
   Block size 1 on a MATSEQAIJ matrix uses the scalar ILU(k)/ICC(k) of the plugin (PETSc's SeqAIJ
   factors); otherwise the block ILU(k) reproduces PETSc's MATSEQBAIJ ILU (block sizes 1 to 8). Only the
   natural ordering is used. With a pattern that covers the inverse, or enough relaxation steps, the
   preconditioner equals the ILU preconditioner. A zero or singular diagonal block stops with an error
   that names the block row. In parallel, use it for the blocks of `PCBJACOBI` or `PCASM`.

   Level: intermediate

.seealso: `PCILU`, `PCISAISetPower()`, `PCISAISetLevels()`, `PCISAISetBlockSize()`, `PCISAISetRelaxationSteps()`, `PCISAIGetInfo()`
M*/
PETSC_EXTERN PetscErrorCode PCCreate_ISAI(PC pc)
{
  PC_ISAI *jac;

  PetscFunctionBegin;
  PetscCall(SpTrsvInitializePackage()); /* events, when a program registered the PC itself */
  PetscCall(PetscNew(&jac));
  jac->power       = 1;
  jac->ftype       = MAT_FACTOR_ILU;
  jac->shifttype   = MAT_SHIFT_NONE;
  jac->shiftamount = 100.0 * PETSC_MACHINE_EPSILON;
  jac->zeropivot   = 100.0 * PETSC_MACHINE_EPSILON;
  jac->backendreq  = SPTRSV_BACKEND_AUTO;
  jac->gpufactor_req = PETSC_TRUE;
  jac->bsr           = PETSC_TRUE;
  pc->data                = (void *)jac;
  pc->ops->apply          = PCApply_ISAI;
  pc->ops->applytranspose = PCApplyTranspose_ISAI;
  pc->ops->setup          = PCSetUp_ISAI;
  pc->ops->reset          = PCReset_ISAI;
  pc->ops->destroy        = PCDestroy_ISAI;
  pc->ops->setfromoptions = PCSetFromOptions_ISAI;
  pc->ops->view           = PCView_ISAI;
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCISAISetPower_C", PCISAISetPower_ISAI));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCISAISetLevels_C", PCISAISetLevels_ISAI));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCISAISetBlockSize_C", PCISAISetBlockSize_ISAI));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCISAISetRelaxationSteps_C", PCISAISetRelaxationSteps_ISAI));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCISAISetFactorType_C", PCISAISetFactorType_ISAI));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCISAIGetInfo_C", PCISAIGetInfo_ISAI));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCISAIGetApplyMatrices_C", PCISAIGetApplyMatrices_ISAI));
  PetscFunctionReturn(PETSC_SUCCESS);
}
