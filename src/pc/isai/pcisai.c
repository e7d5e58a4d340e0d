/*
   PC isai: incomplete sparse approximate inverse preconditioning (paper 003, block ISAI; Anzt et al.).
   M = L U is an incomplete factorization of the matrix (scalar ILU(k)/ICC(k) for AIJ, block ILU(k) for
   BAIJ or AIJ with a block size); N_L ~ L^{-1} and N_U ~ U^{-1} are computed column by column on the
   patterns S(|L|^k), S(|U|^k), and the preconditioner is applied as two (block) SpMVs:
       M^{-1} v ~ N_U (N_L v),
   optionally with m Richardson steps per triangle, x <- x + N (b - T x).
   The PC is a thin layer (options, setup decisions, failures, view) over SpTrsvISAIPrec (src/mat/isai/,
   include/sptrsv/isaiprec.h), whose host or cuda backend SpTrsvBackendSelect() chooses.
*/
#include <sptrsv/deviceops.h> /* SpTrsvDeviceBackendHelp */
#include <sptrsv/isaiprec.h>
#include <petsc/private/pcimpl.h>

typedef struct {
  /* options: those the preconditioner reads (opts: power, relax, ftype, info, gpufactor, bsr) and the PC's own */
  SpTrsvISAIOptions  opts;
  PetscInt           levels, bsreq;
  MatFactorShiftType shifttype;
  PetscBool          shifttype_set;
  PetscReal          shiftamount, zeropivot;
  SpTrsvBackendType  backendreq;
  /* what the preconditioner was built with */
  SpTrsvISAIPrec prec;
  SpTrsvExecSlot slot;
  Mat            pmat;
  PetscInt       bs, b_power, b_levels, b_relax;
  MatFactorType  b_ftype;
  /* the outcome of the last numeric setup without pc->erroriffailure (with it these are errors): a zero pivot
     fails the PC (pc->failedreason, as PCSetUp_ILU does) and the apply returns Inf (as MatSolve() of a failed
     factor); a NaN/Inf in the matrix makes the apply return Inf too, without failing the PC (PETSc's ILU solves
     would return NaN/Inf: KSP stops with KSP_DIVERGED_NANORINF either way) */
  PCFailedReason failed;
  PetscInt       failrow; /* the (scalar) row of the zero pivot */
  PetscBool      nonfinite;
  PetscInt       nsetups;
  SpTrsvDevMem   mem; /* the plugin's device memory of the preconditioner (GPU factor, column solves, value expansion) */
} PC_ISAI;

static const char *const PCISAIFactorTypes[] = {"ilu", "icc"};

static PetscErrorCode PCISAIFree_Private(PC_ISAI *jac)
{
  PetscFunctionBegin;
  PetscCall(SpTrsvISAIPrecDestroy(&jac->prec));
  jac->pmat = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the factorization options, with PCFactor's defaults and PCILU's rule for block matrices */
static PetscErrorCode PCISAISetFactorInfo_Private(PC pc, PetscBool scalar)
{
  PC_ISAI           *jac  = (PC_ISAI *)pc->data;
  MatFactorInfo     *info = &jac->opts.info;
  MatFactorShiftType st;

  PetscFunctionBegin;
  st = jac->shifttype_set ? jac->shifttype : (jac->opts.ftype == MAT_FACTOR_ICC ? MAT_SHIFT_POSITIVE_DEFINITE : MAT_SHIFT_NONE);
  if (!scalar && st == MAT_SHIFT_NONZERO) {
    st = MAT_SHIFT_INBLOCKS;
    PetscCall(PetscInfo(pc, "Changing shift type from NONZERO to INBLOCKS because block matrices do not support NONZERO\n"));
  }
  PetscCall(MatFactorInfoInitialize(info));
  info->levels        = (PetscReal)jac->levels;
  info->fill          = 1.0;
  info->diagonal_fill = 0.0;
  info->shifttype     = (PetscReal)st;
  info->shiftamount   = jac->shiftamount;
  info->zeropivot     = jac->zeropivot;
  info->pivotinblocks = 1.0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  PCISAISelectBackend_Private - the backend (host, or cuda: the apply on the GPU), chosen by SpTrsvBackendSelect()
  from -pc_isai_backend (named with the PC's prefix in the messages) and what PC isai's cuda backend needs
  (SpTrsvISAICUDAUse(): a PETSc configured with CUDA; auto takes it for a matrix of PETSc's CUDA types)
*/
static PetscErrorCode PCISAISelectBackend_Private(PC pc, SpTrsvExecSlot *slot)
{
  PC_ISAI             *jac = (PC_ISAI *)pc->data;
  SpTrsvBackendCUDAUse use;
  char                 option[256], note[256];

  PetscFunctionBegin;
  PetscCall(SpTrsvOptionName((PetscObject)pc, "pc_isai_backend", option, sizeof(option)));
  PetscCall(SpTrsvISAICUDAUse(pc->pmat, &use));
  PetscCall(SpTrsvBackendSelect(jac->backendreq, option, &use, slot, note, sizeof(note)));
  PetscCall(PetscInfo(pc, "PC isai backend %s: %s\n", *slot == SPTRSV_EXEC_CUDA ? "cuda" : "host", note));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCSetUp_ISAI_Private(PC pc)
{
  PC_ISAI       *jac = (PC_ISAI *)pc->data;
  Mat            P   = pc->pmat;
  PetscBool      isaij, isbaij, scalar, build;
  PetscInt       bs;
  SpTrsvExecSlot slot;
  MatType        type;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(SPTRSV_ISAISetup, pc, 0, 0, 0));
  /* failures as PCSetUp_ILU: a fresh start, and errors instead of failures when the PC asks for them */
  pc->failedreason         = PC_NOERROR;
  jac->failed              = PC_NOERROR;
  jac->nonfinite           = PETSC_FALSE;
  jac->opts.erroriffailure = pc->erroriffailure;
  PetscCall(MatSetErrorIfFailure(P, pc->erroriffailure));
  PetscCall(MatGetType(P, &type));
  PetscCall(PetscObjectBaseTypeCompare((PetscObject)P, MATSEQAIJ, &isaij));
  PetscCall(PetscObjectBaseTypeCompare((PetscObject)P, MATSEQBAIJ, &isbaij));
  PetscCheck(isaij || isbaij, PetscObjectComm((PetscObject)pc), PETSC_ERR_SUP, "PC isai needs a sequential AIJ or BAIJ matrix, got %s; in parallel use -pc_type bjacobi (or asm) -sub_pc_type isai", type);
  if (jac->bsreq > 0) bs = jac->bsreq;
  else PetscCall(MatGetBlockSize(P, &bs));
  PetscCheck(bs >= 1 && bs <= SPTRSV_BS_MAX, PetscObjectComm((PetscObject)pc), PETSC_ERR_SUP, "PC isai supports block sizes 1 to %d, not %" PetscInt_FMT, SPTRSV_BS_MAX, bs);
  PetscCall(PCISAISelectBackend_Private(pc, &slot));
  scalar = (PetscBool)(isaij && bs == 1);
  build  = (PetscBool)(!jac->prec || slot != jac->slot || !jac->prec->NL || !pc->setupcalled || pc->flag != SAME_NONZERO_PATTERN || P != jac->pmat || bs != jac->bs || jac->opts.power != jac->b_power || jac->levels != jac->b_levels || jac->opts.ftype != jac->b_ftype ||
                      (jac->opts.relax > 0) != (jac->b_relax > 0));
  PetscCall(PCISAISetFactorInfo_Private(pc, scalar));
  if (build) { /* after a failed numeric phase of a build, N_L is missing: the next setup builds again */
    PetscCall(PCISAIFree_Private(jac));
    jac->bs   = bs;
    jac->slot = slot;
    PetscCall(SpTrsvISAIPrecCreate((PetscObject)pc, slot, &jac->opts, bs, scalar, &jac->prec));
    PetscCall(SpTrsvISAIPrecSetUp(jac->prec, P));
  }
  PetscCall(SpTrsvISAIPrecNumeric(jac->prec, P));
  jac->failrow   = jac->prec->failrow;
  jac->nonfinite = jac->prec->nonfinite;
  if (jac->prec->error) {
    jac->failed      = (PCFailedReason)jac->prec->error; /* PETSc's cast: MAT_FACTOR_NUMERIC_ZEROPIVOT is PC_FACTOR_NUMERIC_ZEROPIVOT */
    pc->failedreason = jac->failed;
  }
  jac->pmat     = P;
  jac->b_power  = jac->opts.power;
  jac->b_levels = jac->levels;
  jac->b_ftype  = jac->opts.ftype;
  jac->b_relax  = jac->opts.relax;
  jac->nsetups++;
  PetscCall(PetscLogEventEnd(SPTRSV_ISAISetup, pc, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* after a failed numeric setup the apply returns Inf, as MatSolve() does for a failed factor: KSP then stops
   with KSP_DIVERGED_PC_FAILED (a zero pivot: pc->failedreason is set) or KSP_DIVERGED_NANORINF (NaN/Inf);
   otherwise M^{-1} x = N_U (N_L x), or its transpose N_L^T (N_U^T x) */
/* the setup with the PC's tally current (every device allocation of the plugin it makes is counted for -ksp_view) */
static PetscErrorCode PCSetUp_ISAI(PC pc)
{
  PetscFunctionBegin;
  SpTrsvDevMemScope(&((PC_ISAI *)pc->data)->mem, PCSetUp_ISAI_Private(pc));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCISAIApply_Private(PC pc, PetscBool transpose, Vec x, Vec y)
{
  PC_ISAI *jac = (PC_ISAI *)pc->data;

  PetscFunctionBegin;
  if (jac->failed || jac->nonfinite) {
    PetscCall(SpTrsvVecSetInf(y));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscLogEventBegin(SPTRSV_ISAIApply, pc, x, y, 0));
  SpTrsvDevMemScope(&jac->mem, SpTrsvISAIPrecApply(jac->prec, transpose, x, y));
  PetscCall(PetscLogEventEnd(SPTRSV_ISAIApply, pc, x, y, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCApply_ISAI(PC pc, Vec x, Vec y)
{
  PetscFunctionBegin;
  PetscCall(PCISAIApply_Private(pc, PETSC_FALSE, x, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCApplyTranspose_ISAI(PC pc, Vec x, Vec y)
{
  PetscFunctionBegin;
  PetscCall(PCISAIApply_Private(pc, PETSC_TRUE, x, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCSetFromOptions_ISAI(PC pc, SpTrsvOptionItems PetscOptionsObject)
{
  PC_ISAI  *jac = (PC_ISAI *)pc->data;
  PetscInt  power = jac->opts.power, levels = jac->levels, bs = jac->bsreq, relax = jac->opts.relax, ft = jac->opts.ftype == MAT_FACTOR_ICC ? 1 : 0;
  PetscBool flg, gpufactor = jac->opts.gpufactor;

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
  { /* the help names the scalar limit of the CUDA paths, where PETSc's scalars have one (the text outlives this call) */
    static char help[512];

    PetscCall(SpTrsvDeviceBackendHelp("Where the column solves and the apply run (cuda: GPU column solves and PETSc's cuSPARSE SpMV; auto: cuda for a CUDA matrix type)", help, sizeof(help)));
    PetscCall(PetscOptionsEnum("-pc_isai_backend", help, "", SpTrsvBackendTypes, (PetscEnum)jac->backendreq, (PetscEnum *)&jac->backendreq, NULL));
  }
  PetscCall(PetscOptionsBool("-pc_isai_gpu_bsr", "With the GPU factorization, apply N_L, N_U with cuSPARSE's BSR SpMV (forward applies without relaxation steps; else the CSR SpMV)", "", jac->opts.bsr, &jac->opts.bsr, NULL));
  PetscCall(PetscOptionsBool("-pc_isai_gpu_factor", "With the cuda backend, factor on the GPU too (block ILU, block sizes 2 to 8): the whole numeric setup stays on the device", "", jac->opts.gpufactor, &gpufactor, NULL));
  if (gpufactor != jac->opts.gpufactor) pc->setupcalled = 0;
  jac->opts.gpufactor = gpufactor;
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
  PC_ISAI             *jac = (PC_ISAI *)pc->data;
  const SpTrsvISAIPrec p   = jac->prec;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(info, sizeof(*info)));
  info->power            = jac->opts.power;
  info->levels           = jac->levels;
  info->relaxation_steps = jac->opts.relax;
  info->nsetups          = jac->nsetups;
  info->short_max        = SPTRSV_ISAI_SHORT_MAX;
  if (!p || !p->NL) PetscFunctionReturn(PETSC_SUCCESS);
  info->gpu_apply     = p->gpu;
  info->gpu_columns   = p->gpucols;
  info->gpu_factor    = p->gpufactor;
  info->nlevels       = p->nlevels;
  info->bs            = jac->bs;
  info->nnzL          = p->L->i[p->L->n] + p->L->n;
  info->nnzU          = p->U->i[p->U->n] + p->U->n;
  info->nnzNL         = p->NL->i[p->NL->n];
  info->nnzNU         = p->NU->i[p->NU->n];
  info->maxcolL       = p->NL->maxcol;
  info->maxcolU       = p->NU->maxcol;
  info->longL         = p->NL->nlong;
  info->longU         = p->NU->nlong;
  info->short_max     = p->NL->short_max;
  info->time_factor   = p->time_factor;
  info->time_pattern  = p->time_pattern;
  info->time_symbolic = p->time_symbolic;
  info->time_solve    = p->NL->time_solve + p->NU->time_solve;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the device memory line of -ksp_view: the plugin's allocations exactly; the device matrices the apply multiplies by are
   PETSc's (MATSEQAIJCUSPARSE), estimated as their CSR (values + 32-bit indices + row pointers) */
static PetscErrorCode PCISAIViewMemory_Private(PC_ISAI *jac, PetscViewer viewer)
{
  const SpTrsvISAIPrec p = jac->prec;
  Mat                  M[4];
  PetscLogDouble       petsc = 0;

  PetscFunctionBegin;
  if (!p->gpu) {
    PetscCall(PetscViewerASCIIPrintf(viewer, "  device memory: none (host backend)\n"));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  M[0] = p->AL;
  M[1] = p->AU;
  M[2] = p->ATL;
  M[3] = p->ATU;
  for (PetscInt k = 0; k < 4; k++) {
    MatInfo  info;
    PetscInt m;

    if (!M[k] || (k >= 2 && (M[k] == M[0] || M[k] == M[1]))) continue;
    PetscCall(MatGetInfo(M[k], MAT_LOCAL, &info));
    PetscCall(MatGetLocalSize(M[k], &m, NULL));
    petsc += info.nz_used * (sizeof(PetscScalar) + sizeof(int)) + (m + 1.0) * sizeof(int);
  }
  PetscCall(PetscViewerASCIIPrintf(viewer, "  device memory: plugin %.2f MB (GPU factor, column solves, value expansion; peak %.2f MB); PETSc's apply matrices about %.2f MB (their CSR)\n", (double)jac->mem.bytes / 1e6, (double)jac->mem.peak / 1e6, petsc / 1e6));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCView_ISAI(PC pc, PetscViewer viewer)
{
  PC_ISAI             *jac = (PC_ISAI *)pc->data;
  const SpTrsvISAIPrec p   = jac->prec;
  PetscBool            iascii;
  PCISAIInfo           s;
  char                 fac[64];

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &iascii));
  if (!iascii) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PCISAIGetInfo_ISAI(pc, &s));
  PetscCall(PetscViewerASCIIPrintf(viewer, "  ISAI: N_L ~ L^-1 on S(|L|^%" PetscInt_FMT "), N_U ~ U^-1 on S(|U|^%" PetscInt_FMT "); relaxation steps %" PetscInt_FMT "\n", s.power, s.power, s.relaxation_steps));
  if (jac->failed) PetscCall(PetscViewerASCIIPrintf(viewer, "  last numeric setup FAILED: zero pivot in row %" PetscInt_FMT " of the factor (%s); the apply returns Inf\n", jac->failrow, PCFailedReasons[jac->failed]));
  else if (jac->nonfinite) PetscCall(PetscViewerASCIIPrintf(viewer, "  last numeric setup met a NaN/Inf in the matrix; the apply returns Inf\n"));
  if (!p || !p->NL) {
    if (jac->bsreq) PetscCall(PetscViewerASCIIPrintf(viewer, "  factor %s(%" PetscInt_FMT "), block size %" PetscInt_FMT " (not set up yet)\n", jac->opts.ftype == MAT_FACTOR_ICC ? "ICC" : "ILU", jac->levels, jac->bsreq));
    else PetscCall(PetscViewerASCIIPrintf(viewer, "  factor %s(%" PetscInt_FMT "), block size of the matrix (not set up yet)\n", jac->opts.ftype == MAT_FACTOR_ICC ? "ICC" : "ILU", jac->levels));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscSNPrintf(fac, sizeof(fac), "%s%s(%" PetscInt_FMT ")", p->fac ? "" : "B", jac->opts.ftype == MAT_FACTOR_ICC ? "ICC" : "ILU", s.levels));
  PetscCall(PetscViewerASCIIPrintf(viewer, "  factor %s, block size %" PetscInt_FMT ", natural ordering, shift type %s\n", fac, s.bs, MatFactorShiftTypes[(int)jac->opts.info.shifttype]));
  PetscCall(PetscViewerASCIIPrintf(viewer, "  L: %" PetscInt_FMT " blocks (diagonal included), N_L: %" PetscInt_FMT " blocks (%.2fx); longest column %" PetscInt_FMT " blocks, long path (> %" PetscInt_FMT " blocks): %" PetscInt_FMT " of %" PetscInt_FMT " columns\n", s.nnzL, s.nnzNL,
                                   s.nnzL ? (double)s.nnzNL / s.nnzL : 0.0, s.maxcolL, s.short_max, s.longL, p->NL->n));
  PetscCall(PetscViewerASCIIPrintf(viewer, "  U: %" PetscInt_FMT " blocks (diagonal included), N_U: %" PetscInt_FMT " blocks (%.2fx); longest column %" PetscInt_FMT " blocks, long path (> %" PetscInt_FMT " blocks): %" PetscInt_FMT " of %" PetscInt_FMT " columns\n", s.nnzU, s.nnzNU,
                                   s.nnzU ? (double)s.nnzNU / s.nnzU : 0.0, s.maxcolU, s.short_max, s.longU, p->NU->n));
  PetscCall(PetscViewerASCIIPrintf(viewer, "  setup time: factor %.3e s, patterns %.3e s, column solves %.3e s; numeric setups %" PetscInt_FMT "\n", s.time_factor, s.time_pattern, s.time_solve, s.nsetups));
  if (p->gpufactor) PetscCall(PetscViewerASCIIPrintf(viewer, "  factorization on the GPU (%" PetscInt_FMT " level sets); the numeric setup stays on the device; symbolic phase (host: patterns, maps, matrices) %.3e s\n", s.nlevels, s.time_symbolic));
  PetscCall(PetscViewerASCIIPrintf(viewer, "  backend %s (requested %s): column solves on the %s; apply: %" PetscInt_FMT " SpMVs with %s matrices%s\n", p->gpu ? "cuda" : "host", SpTrsvBackendTypes[jac->backendreq], p->gpucols ? "GPU" : "host", 2 + 4 * s.relaxation_steps, ((PetscObject)p->AL)->type_name,
                                   p->bsrapply && jac->opts.bsr && !s.relaxation_steps ? " (forward applies on CUDA vectors: cuSPARSE BSR SpMV)" : ""));
  PetscCall(PCISAIViewMemory_Private(jac, viewer));
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
  PetscCheck(k >= 1 && k <= 4, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "Pattern power %" PetscInt_FMT " is outside 1 .. 4 (-%spc_isai_power, PCISAISetPower())", k, ((PetscObject)pc)->prefix ? ((PetscObject)pc)->prefix : "");
  PetscCall(PCISAISetInt_Private(pc, &((PC_ISAI *)pc->data)->opts.power, k));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCISAISetLevels_ISAI(PC pc, PetscInt levels)
{
  PetscFunctionBegin;
  PetscCheck(levels >= 0, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "Levels of fill must be nonnegative, got %" PetscInt_FMT " (-%spc_isai_levels, PCISAISetLevels())", levels, ((PetscObject)pc)->prefix ? ((PetscObject)pc)->prefix : "");
  PetscCall(PCISAISetInt_Private(pc, &((PC_ISAI *)pc->data)->levels, levels));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCISAISetBlockSize_ISAI(PC pc, PetscInt bs)
{
  PetscFunctionBegin;
  PetscCheck(bs >= 0 && bs <= SPTRSV_BS_MAX, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "Block size %" PetscInt_FMT " is outside 0 (the matrix's) .. %d (-%spc_isai_block_size, PCISAISetBlockSize())", bs, SPTRSV_BS_MAX, ((PetscObject)pc)->prefix ? ((PetscObject)pc)->prefix : "");
  PetscCall(PCISAISetInt_Private(pc, &((PC_ISAI *)pc->data)->bsreq, bs));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCISAISetRelaxationSteps_ISAI(PC pc, PetscInt m)
{
  PetscFunctionBegin;
  PetscCheck(m >= 0, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "Relaxation steps must be nonnegative, got %" PetscInt_FMT " (-%spc_isai_relaxation_steps, PCISAISetRelaxationSteps())", m, ((PetscObject)pc)->prefix ? ((PetscObject)pc)->prefix : "");
  PetscCall(PCISAISetInt_Private(pc, &((PC_ISAI *)pc->data)->opts.relax, m));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCISAISetFactorType_ISAI(PC pc, MatFactorType ftype)
{
  PC_ISAI *jac = (PC_ISAI *)pc->data;

  PetscFunctionBegin;
  PetscCheck(ftype == MAT_FACTOR_ILU || ftype == MAT_FACTOR_ICC, PetscObjectComm((PetscObject)pc), PETSC_ERR_SUP, "PC isai factors with ILU or ICC, not %s", MatFactorTypes[ftype]);
  if (jac->opts.ftype != ftype) pc->setupcalled = 0;
  jac->opts.ftype = ftype;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCISAIGetApplyMatrices_ISAI(PC pc, Mat *NL, Mat *NU)
{
  PC_ISAI *jac = (PC_ISAI *)pc->data;

  PetscFunctionBegin;
  PetscCheck(jac->prec && jac->prec->NL, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_WRONGSTATE, "Call PCSetUp() first");
  PetscCall(SpTrsvISAIPrecGetHostMatrices(jac->prec, NL, NU)); /* after a GPU factorization the values live on the device */
  PetscFunctionReturn(PETSC_SUCCESS);
}

static const char *const PCISAIComposed[] = {"PCISAISetPower_C", "PCISAISetLevels_C", "PCISAISetBlockSize_C", "PCISAISetRelaxationSteps_C", "PCISAISetFactorType_C", "PCISAIGetInfo_C", "PCISAIGetApplyMatrices_C"};

static PetscErrorCode PCDestroy_ISAI(PC pc)
{
  PetscFunctionBegin;
  PetscCall(PCReset_ISAI(pc));
  for (size_t k = 0; k < sizeof(PCISAIComposed) / sizeof(PCISAIComposed[0]); k++) PetscCall(PetscObjectComposeFunction((PetscObject)pc, PCISAIComposed[k], NULL));
  SpTrsvDevMemDetach(&((PC_ISAI *)pc->data)->mem);
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
  jac->opts.power     = 1;
  jac->opts.ftype     = MAT_FACTOR_ILU;
  jac->opts.gpufactor = PETSC_TRUE;
  jac->opts.bsr       = PETSC_TRUE;
  jac->shifttype      = MAT_SHIFT_NONE;
  jac->shiftamount    = 100.0 * PETSC_MACHINE_EPSILON;
  jac->zeropivot      = 100.0 * PETSC_MACHINE_EPSILON;
  jac->backendreq     = SPTRSV_BACKEND_AUTO;
  pc->data            = (void *)jac;
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
