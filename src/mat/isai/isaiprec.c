/*
   SpTrsvISAIPrec: PC isai's preconditioner apart from the PC, and what its backends share (isaiprec.h):
   the factorization on the host, the ISAI patterns, the host matrices of N_L, N_U (and L, U) and the apply
   as SpMVs with whatever matrices the backend made.
*/
#include <sptrsv/isaiprec.h>
#include <sptrsv/deviceops.h>
#include <petscpc.h> /* PCFailedReasons, for -info */
#include <petsctime.h>

/*
  SpTrsvISAIPrecCreate - an empty preconditioner on the backend of slot; obj (the PC) names the messages,
  opts are read at every use; bs is the block size, scalar says the factor is the scalar ILU/ICC
*/
PetscErrorCode SpTrsvISAIPrecCreate(PetscObject obj, SpTrsvExecSlot slot, const SpTrsvISAIOptions *opts, PetscInt bs, PetscBool scalar, SpTrsvISAIPrec *prec)
{
  const SpTrsvISAIOps *ops;
  SpTrsvISAIPrec       p;

  PetscFunctionBegin;
  PetscCheck(slot == SPTRSV_EXEC_HOST || slot == SPTRSV_EXEC_CUDA, PetscObjectComm(obj), PETSC_ERR_ARG_OUTOFRANGE, "Unknown backend slot %d", (int)slot);
  ops = slot == SPTRSV_EXEC_CUDA ? &SpTrsvISAIOpsCUDA : &SpTrsvISAIOpsHost;
  if (slot == SPTRSV_EXEC_CUDA) { /* the cuda backend multiplies with PETSc's cuSPARSE matrices */
    const SpTrsvDeviceOps *dev;

    PetscCall(SpTrsvDeviceOpsGet(&dev, NULL, NULL));
    PetscCheck(dev->petsc->cuda, PetscObjectComm(obj), PETSC_ERR_SUP, "PC isai has no %s backend in this build", ops->name);
  }
  PetscCall(PetscNew(&p));
  p->obj    = obj;
  p->ops    = ops;
  p->opts   = opts;
  p->bs     = bs;
  p->scalar = scalar;
  *prec     = p;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SpTrsvISAIPrecDestroy(SpTrsvISAIPrec *prec)
{
  SpTrsvISAIPrec p = *prec;

  PetscFunctionBegin;
  if (!p) PetscFunctionReturn(PETSC_SUCCESS);
  /* the matrices first: a backend's may sit on arrays its data owns */
  PetscCall(MatDestroy(&p->ML));
  PetscCall(MatDestroy(&p->MU));
  PetscCall(MatDestroy(&p->TL));
  PetscCall(MatDestroy(&p->TU));
  PetscCall(MatDestroy(&p->AL));
  PetscCall(MatDestroy(&p->AU));
  PetscCall(MatDestroy(&p->ATL));
  PetscCall(MatDestroy(&p->ATU));
  if (p->ops->destroy) PetscCall((*p->ops->destroy)(p));
  if (p->fac) {
    PetscCall(SpTrsvBlockTriDestroy(&p->L));
    PetscCall(SpTrsvBlockTriDestroy(&p->U));
  }
  PetscCall(SpTrsvFactorDestroy(&p->fac));
  PetscCall(SpTrsvBILUDestroy(&p->bilu));
  PetscCall(SpTrsvISAIDestroy(&p->NL));
  PetscCall(SpTrsvISAIDestroy(&p->NU));
  PetscCall(PetscFree(p->tli));
  PetscCall(PetscFree(p->tlj));
  PetscCall(PetscFree(p->tui));
  PetscCall(PetscFree(p->tuj));
  PetscCall(PetscFree(p->tla));
  PetscCall(PetscFree(p->tua));
  PetscCall(VecDestroy(&p->w));
  PetscCall(VecDestroy(&p->r));
  PetscCall(PetscFree(p));
  *prec = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* SpTrsvISAIPrecSetUp - the symbolic phase on the pattern of P (once per nonzero pattern) */
PetscErrorCode SpTrsvISAIPrecSetUp(SpTrsvISAIPrec p, Mat P)
{
  PetscFunctionBegin;
  p->time_factor_symbolic = 0;
  p->time_symbolic        = 0;
  PetscCall((*p->ops->setup)(p, P));
  p->setup_done = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvISAIPrecNumeric - the numeric phase on the values of P. Without opts->erroriffailure a zero pivot or a
  NaN/Inf is recorded (p->error, p->failrow, p->nonfinite), as PETSc's factorizations do, and the apply must
  not be used (PC isai returns Inf instead)
*/
PetscErrorCode SpTrsvISAIPrecNumeric(SpTrsvISAIPrec p, Mat P)
{
  PetscFunctionBegin;
  p->error     = MAT_FACTOR_NOERROR;
  p->failrow   = 0;
  p->nonfinite = PETSC_FALSE;
  if (!p->setup_done) { /* the timings of a setup without the symbolic phase */
    p->time_factor_symbolic = 0;
    p->time_symbolic        = 0;
  }
  PetscCall((*p->ops->numeric)(p, P));
  p->setup_done = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* SpTrsvISAIPrecApply - y = M^{-1} x, or its transpose */
PetscErrorCode SpTrsvISAIPrecApply(SpTrsvISAIPrec p, PetscBool transpose, Vec x, Vec y)
{
  PetscFunctionBegin;
  PetscCall((*p->ops->apply)(p, transpose, x, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* SpTrsvISAIPrecGetHostMatrices - N_L and N_U as host matrices (brought back from the device when they live there) */
PetscErrorCode SpTrsvISAIPrecGetHostMatrices(SpTrsvISAIPrec p, Mat *NL, Mat *NU)
{
  PetscFunctionBegin;
  if (p->ops->sync_host) PetscCall((*p->ops->sync_host)(p));
  if (NL) *NL = p->ML;
  if (NU) *NU = p->MU;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- the factorization on the host ---------------------------------------------------------------- */

/* SpTrsvISAIPrecFactorSymbolic - the symbolic factorization of P on the host (scalar or block) */
PetscErrorCode SpTrsvISAIPrecFactorSymbolic(SpTrsvISAIPrec p, Mat P)
{
  const SpTrsvISAIOptions *o = p->opts;
  PetscLogDouble           t0, t1;

  PetscFunctionBegin;
  PetscCall(PetscTime(&t0));
  if (p->scalar) {
    PetscInt n;

    PetscCall(MatGetLocalSize(P, &n, NULL));
    PetscCall(SpTrsvFactorCreate(o->ftype, n, &p->fac));
    if (o->ftype == MAT_FACTOR_ICC) PetscCall(SpTrsvFactorICCSymbolic(P, NULL, &o->info, p->fac));
    else PetscCall(SpTrsvFactorILUSymbolic(P, NULL, NULL, &o->info, p->fac));
  } else {
    SpTrsvBlockCSR B;
    PetscErrorCode ierr;

    PetscCheck(o->ftype == MAT_FACTOR_ILU, PetscObjectComm(p->obj), PETSC_ERR_SUP, "PC isai with block size %" PetscInt_FMT " supports only -pc_isai_factor_type ilu (block ILU)", p->bs);
    PetscCall(SpTrsvBlockCSRGet(P, p->bs, &B));
    ierr = SpTrsvBILUCreate(B.n, B.bs, &p->bilu);
    if (!ierr) ierr = SpTrsvBILUSymbolic(&B, NULL, NULL, &o->info, p->bilu);
    PetscCall(SpTrsvBlockCSRRestore(&B));
    PetscCall(ierr);
  }
  PetscCall(PetscTime(&t1));
  p->time_factor_symbolic = t1 - t0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the numeric factorization of P on the host; L and U point to the triangles */
static PetscErrorCode SpTrsvISAIPrecFactorNumeric(SpTrsvISAIPrec p, Mat P)
{
  const SpTrsvISAIOptions *o = p->opts;

  PetscFunctionBegin;
  if (p->scalar) {
    if (o->ftype == MAT_FACTOR_ICC) PetscCall(SpTrsvFactorICCNumeric(P, &o->info, p->fac));
    else PetscCall(SpTrsvFactorILUNumeric(P, &o->info, p->fac));
    PetscCall(SpTrsvBlockTriDestroy(&p->L));
    PetscCall(SpTrsvBlockTriDestroy(&p->U));
    PetscCall(SpTrsvBlockTriCreateFromTri(p->fac->L, &p->L));
    PetscCall(SpTrsvBlockTriCreateFromTri(p->fac->U, &p->U));
  } else {
    SpTrsvBlockCSR B;
    PetscErrorCode ierr;

    PetscCall(SpTrsvBlockCSRGet(P, p->bs, &B));
    p->bilu->erroriffailure = o->erroriffailure;
    ierr                    = SpTrsvBILUNumeric(&B, &o->info, p->bilu);
    PetscCall(SpTrsvBlockCSRRestore(&B));
    PetscCall(ierr);
    p->L = p->bilu->L;
    p->U = p->bilu->U;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  the outcome of a host factorization without opts->erroriffailure: a zero pivot fails the PC as PCSetUp_ILU
  does after MatFactorGetError(), a NaN/Inf is remembered; either way the column solves are skipped and the
  apply returns Inf
*/
static PetscErrorCode SpTrsvISAIPrecFactorOutcome(SpTrsvISAIPrec p)
{
  PetscFunctionBegin;
  if (p->fac) {
    p->error     = p->fac->error;
    p->failrow   = p->fac->zeropivot_row;
    p->nonfinite = p->fac->nonfinite;
  } else if (p->bilu) {
    p->error     = p->bilu->error;
    p->failrow   = p->bilu->zeropivot_row * p->bs + p->bilu->zeropivot_sub;
    p->nonfinite = p->bilu->nonfinite;
  }
  if (p->error) PetscCall(PetscInfo(p->obj, "PC isai: zero pivot in row %" PetscInt_FMT " of the factor: the PC failed (%s)\n", p->failrow, PCFailedReasons[(PCFailedReason)p->error]));
  else if (p->nonfinite) PetscCall(PetscInfo(p->obj, "PC isai: NaN/Inf in the matrix: the apply returns Inf\n"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* SpTrsvISAIPrecCreatePatterns - the patterns of N_L and N_U (once per pattern of the factor) */
PetscErrorCode SpTrsvISAIPrecCreatePatterns(SpTrsvISAIPrec p)
{
  PetscFunctionBegin;
  PetscCall(SpTrsvISAICreate(p->L, p->opts->power, &p->NL));
  PetscCall(SpTrsvISAICreate(p->U, p->opts->power, &p->NU));
  p->time_pattern = p->NL->time_pattern + p->NU->time_pattern;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* SpTrsvISAIPrecColumnsHost - the column solves of N_L and N_U on the host */
PetscErrorCode SpTrsvISAIPrecColumnsHost(SpTrsvISAIPrec p, PetscBool created)
{
  PetscFunctionBegin;
  PetscCall(SpTrsvISAINumeric(p->NL, p->L));
  PetscCall(SpTrsvISAINumeric(p->NU, p->U));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* SpTrsvISAIPrecApplyMatHost - a host apply multiplies by the host matrix itself (a new reference) */
PetscErrorCode SpTrsvISAIPrecApplyMatHost(Mat H, Mat *A)
{
  PetscFunctionBegin;
  PetscCall(MatDestroy(A));
  if (!H) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscObjectReference((PetscObject)H));
  *A = H;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  the one place that makes the host matrices the apply multiplies by: N_L, N_U and, with relaxation steps,
  L and U (MATSEQAIJ for bs = 1, MATSEQBAIJ otherwise)
*/
static PetscErrorCode SpTrsvISAIPrecCreateHostMatrices(SpTrsvISAIPrec p)
{
  const size_t bs2 = (size_t)p->bs * p->bs;

  PetscFunctionBegin;
  PetscCall(SpTrsvBlockMatCreate(p->NL->n, p->bs, p->NL->i, p->NL->j, &p->ML));
  PetscCall(SpTrsvBlockMatCreate(p->NU->n, p->bs, p->NU->i, p->NU->j, &p->MU));
  if (p->opts->relax > 0) {
    PetscCall(SpTrsvBlockTriGetFull(p->L, &p->tli, &p->tlj));
    PetscCall(SpTrsvBlockTriGetFull(p->U, &p->tui, &p->tuj));
    PetscCall(PetscMalloc1(bs2 * p->tli[p->L->n] + 1, &p->tla));
    PetscCall(PetscMalloc1(bs2 * p->tui[p->U->n] + 1, &p->tua));
    PetscCall(SpTrsvBlockMatCreate(p->L->n, p->bs, p->tli, p->tlj, &p->TL));
    PetscCall(SpTrsvBlockMatCreate(p->U->n, p->bs, p->tui, p->tuj, &p->TU));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* new values of the host matrices after a numeric phase, and the apply matrices made from them */
static PetscErrorCode SpTrsvISAIPrecUpdateMatrices(SpTrsvISAIPrec p, SpTrsvISAIApplyMatFn applymat)
{
  PetscFunctionBegin;
  PetscCall(SpTrsvBlockMatSetValues(p->ML, p->NL->a));
  PetscCall(SpTrsvBlockMatSetValues(p->MU, p->NU->a));
  if (p->TL) {
    PetscCall(SpTrsvBlockTriGetFullValues(p->L, p->tli, p->tla));
    PetscCall(SpTrsvBlockTriGetFullValues(p->U, p->tui, p->tua));
    PetscCall(SpTrsvBlockMatSetValues(p->TL, p->tla));
    PetscCall(SpTrsvBlockMatSetValues(p->TU, p->tua));
  }
  PetscCall((*applymat)(p->ML, &p->AL));
  PetscCall((*applymat)(p->MU, &p->AU));
  PetscCall((*applymat)(p->TL, &p->ATL));
  PetscCall((*applymat)(p->TU, &p->ATU));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvISAIPrecNumericHostFactor - the numeric phase on a host factorization: factor (its symbolic phase,
  when it just ran, counts in the factor time), then unless it failed: the ISAI patterns (first time), the
  column solves (columns), the host matrices (first time) and their values, the apply matrices (applymat)
*/
PetscErrorCode SpTrsvISAIPrecNumericHostFactor(SpTrsvISAIPrec p, Mat P, SpTrsvISAIColumnsFn columns, SpTrsvISAIApplyMatFn applymat)
{
  PetscLogDouble t0, t1;
  PetscBool      created;

  PetscFunctionBegin;
  PetscCall(PetscTime(&t0));
  PetscCall(SpTrsvISAIPrecFactorNumeric(p, P));
  PetscCall(PetscTime(&t1));
  p->time_factor = p->time_factor_symbolic + (t1 - t0);
  PetscCall(SpTrsvISAIPrecFactorOutcome(p));
  if (p->error || p->nonfinite) PetscFunctionReturn(PETSC_SUCCESS); /* without N_L the next setup starts over */
  created = (PetscBool)!p->NL;
  if (created) PetscCall(SpTrsvISAIPrecCreatePatterns(p));
  PetscCall((*columns)(p, created));
  if (created) PetscCall(SpTrsvISAIPrecCreateHostMatrices(p));
  PetscCall(SpTrsvISAIPrecUpdateMatrices(p, applymat));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- the apply -------------------------------------------------------------------------------------- */

/* x = N b, then m Richardson steps x <- x + N (b - T x); with op(.) = transpose when asked */
static PetscErrorCode SpTrsvISAIStage(Mat N, Mat T, PetscInt m, PetscBool transpose, Vec b, Vec x, Vec r)
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

/* SpTrsvISAIPrecApplyMatrices - M^{-1} x = N_U (N_L x); its transpose N_L^T (N_U^T x); the work vectors are made
   like x on first use (the backend made w before, when it needed it itself) */
PetscErrorCode SpTrsvISAIPrecApplyMatrices(SpTrsvISAIPrec p, PetscBool transpose, Vec x, Vec y)
{
  const PetscInt m = p->opts->relax;

  PetscFunctionBegin;
  if (!p->w) PetscCall(VecDuplicate(x, &p->w));
  if (!p->r && m > 0) PetscCall(VecDuplicate(x, &p->r));
  if (!transpose) {
    PetscCall(SpTrsvISAIStage(p->AL, p->ATL, m, PETSC_FALSE, x, p->w, p->r));
    PetscCall(SpTrsvISAIStage(p->AU, p->ATU, m, PETSC_FALSE, p->w, y, p->r));
  } else {
    PetscCall(SpTrsvISAIStage(p->AU, p->ATU, m, PETSC_TRUE, x, p->w, p->r));
    PetscCall(SpTrsvISAIStage(p->AL, p->ATL, m, PETSC_TRUE, p->w, y, p->r));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
