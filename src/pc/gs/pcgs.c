/*
   PC gs: Gauss-Seidel / SOR preconditioner and smoother whose sweeps run on the GPU (paper 000,
   section 5.2), with the semantics of PETSc's PCSOR (point sweeps, as PCSOR on a matrix without
   inodes or with -mat_no_inode).
*/
#include <sptrsv/deviceops.h> /* SpTrsvDeviceBackendHelp */
#include <sptrsv/gs.h>
#include <petsc/private/pcimpl.h>

const char *const PCGSTypes[]      = {"", "forward", "backward", "symmetric", "PCGSType", "PC_GS_", NULL};
const char *const PCGSOrderings[]  = {"exact", "multicolor", "PCGSOrdering", "PC_GS_ORDERING_", NULL};

typedef struct {
  /* options */
  PCGSType            type;
  PCGSOrdering        ordering;
  SpTrsvColoringType  coloring; /* multicolor: natural, jp, dmda or auto */
  char                coloring_option[256]; /* its option name as the user types it (with the prefix) */
  PetscReal           omega, shift;
  PetscInt            its;
  PetscInt            lits; /* PCSOR's local iterations (-pc_sor_lits): its * lits iterations on one process */
  /* which PCSOR option name set a value (NULL: the default, a -pc_gs_* option or a PCGSSet...() call) */
  const char *src_type, *src_omega, *src_its, *src_lits, *src_shift;
  PetscBool   type_global; /* the sweep type came from -pc_sor_symmetric/forward/backward (not local) */
  char        scheduler[64]; /* a path with sweeps (the registry's names) or "auto" */
  SpTrsvFormat        format;
  SpTrsvBackendType   backendreq;
  SpTrsvPathOptions opts;
  /* state */
  SpTrsvGS                gs;
  Mat                     Aloc;     /* the sequential matrix the sweeps read (pmat, or its diagonal block) */
  PetscBool               local;    /* pmat is parallel: local sweeps on the diagonal block */
  PetscReal               gs_omega, gs_shift; /* parameters gs was built with */
  SpTrsvFormat            gs_format;
  PCGSOrdering            gs_ordering;
  SpTrsvColoringType      gs_coloring;
  SpTrsvPath              path; /* the path the sweeps run on */
  const SpTrsvBackendOps *backend;
  char                    backend_note[256];
  SpTrsvStaging           staging; /* PETSc vectors on the backend */
  PetscScalar            *work;    /* backend work vector of the transposed application */
  SpTrsvDevMem            mem;     /* its device memory: sweep solvers (children), storage, values, work vectors */
} PC_GS;

static PetscErrorCode PCGSFree_Private(PC_GS *jac)
{
  PetscFunctionBegin;
  PetscCall(SpTrsvStagingDestroy(&jac->staging));
  if (jac->work) PetscCall((*jac->backend->vec_free)(&jac->work));
  PetscCall(SpTrsvGSDestroy(&jac->gs));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the sequential AIJ matrix to sweep: pmat itself, or the diagonal block of a parallel AIJ matrix */
static PetscErrorCode PCGSGetLocalMatrix(PC pc, Mat *Aloc, PetscBool *local)
{
  Mat       P = pc->pmat;
  PetscBool seq, mpi;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompareAny((PetscObject)P, &seq, MATSEQAIJ, MATSEQAIJCUSPARSE, ""));
  PetscCall(PetscObjectTypeCompareAny((PetscObject)P, &mpi, MATMPIAIJ, MATMPIAIJCUSPARSE, ""));
  PetscCheck(seq || mpi, PetscObjectComm((PetscObject)pc), PETSC_ERR_SUP, "PC gs needs an AIJ matrix (seqaij, mpiaij, or their cusparse types), got %s", ((PetscObject)P)->type_name);
  if (seq) {
    *Aloc  = P;
    *local = PETSC_FALSE;
  } else {
    PetscCall(MatMPIAIJGetSeqAIJ(P, Aloc, NULL, NULL));
    *local = PETSC_TRUE;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the name of the option that set the iterations (for error messages) */
static const char *PCGSItsName_Private(PC_GS *jac)
{
  return jac->src_its ? jac->src_its : "-pc_gs_its";
}

/*
  PCGSCheckValues_Private - what MatSOR's outcome would be for the values just read (SpTrsvGSFillValues()):
  with pc->erroriffailure (-ksp_error_if_not_converged, PCSetErrorIfFailure()) a zero diagonal entry met with
  omega = 1 and a negative shift, or a NaN/Inf, is an error naming the row. Otherwise each apply reports the
  zero diagonal entry as PCApply_SOR does (pc->failedreason = PC_FACTOR_NUMERIC_ZEROPIVOT: KSP_DIVERGED_PC_FAILED)
  and returns Inf, as it does for a NaN/Inf (MatSOR would return NaN/Inf: KSP_DIVERGED_NANORINF).
*/
static PetscErrorCode PCGSCheckValues_Private(PC pc)
{
  PC_GS   *jac = (PC_GS *)pc->data;
  SpTrsvGS gs  = jac->gs;

  PetscFunctionBegin;
  if (gs->zerodiag_row >= 0) {
    PetscCheck(!pc->erroriffailure, PETSC_COMM_SELF, PETSC_ERR_MAT_LU_ZRPVT, "Gauss-Seidel: zero diagonal on row %" PetscInt_FMT " (with omega = 1 a negative diagonal shift is not added, as in PCSOR: the zero diagonal entry makes the PC fail)", gs->zerodiag_row);
    PetscCall(PetscInfo(pc, "Zero diagonal on row %" PetscInt_FMT ": the PC fails (%s), as PCSOR\n", gs->zerodiag_row, PCFailedReasons[PC_FACTOR_NUMERIC_ZEROPIVOT]));
  }
  if (gs->nonfinite_row >= 0) {
    if (gs->nonfinite_idiag) {
      PetscCheck(!pc->erroriffailure, PETSC_COMM_SELF, PETSC_ERR_FP, "Gauss-Seidel: the relaxed inverse diagonal entry omega / (a_ii + shift) of row %" PetscInt_FMT " is not finite (omega %g, shift %g): a zero diagonal after the shift", gs->nonfinite_row, (double)gs->omega, (double)gs->shift);
    } else if (gs->nonfinite_col == gs->nonfinite_row) {
      PetscCheck(!pc->erroriffailure, PETSC_COMM_SELF, PETSC_ERR_FP, "Gauss-Seidel: Inf/NaN diagonal entry in row %" PetscInt_FMT, gs->nonfinite_row);
    } else PetscCheck(!pc->erroriffailure, PETSC_COMM_SELF, PETSC_ERR_FP, "Gauss-Seidel: Inf/NaN entry at (%" PetscInt_FMT ", %" PetscInt_FMT ")", gs->nonfinite_row, gs->nonfinite_col);
    PetscCall(PetscInfo(pc, "Inf/NaN in row %" PetscInt_FMT " (column %" PetscInt_FMT "): the applies return Inf\n", gs->nonfinite_row, gs->nonfinite_col));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* as PCApply_SOR after MatSOR: pc->failedreason from the zero diagonal rule; *failed: y was set to Inf */
static PetscErrorCode PCGSFailed_Private(PC pc, Vec y, PetscBool *failed)
{
  PC_GS *jac = (PC_GS *)pc->data;

  PetscFunctionBegin;
  pc->failedreason = jac->gs->zerodiag_row >= 0 ? PC_FACTOR_NUMERIC_ZEROPIVOT : PC_NOERROR;
  *failed          = (PetscBool)(jac->gs->zerodiag_row >= 0 || jac->gs->nonfinite_row >= 0);
  if (*failed) PetscCall(SpTrsvVecSetInf(y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the path PC gs's scheduler auto stands for on the host backend (host) or the GPU: the registry's gs_host, gs_device */
static PetscErrorCode PCGSAutoPath(PetscBool host, SpTrsvPath *path)
{
  PetscInt npaths;

  PetscFunctionBegin;
  PetscCall(SpTrsvPathGetCount(&npaths));
  for (PetscInt k = 0; k < npaths; k++) {
    PetscCall(SpTrsvPathGetByIndex(k, path));
    if (host ? (*path)->gs_host : (*path)->gs_device) PetscFunctionReturn(PETSC_SUCCESS);
  }
  SETERRQ(PETSC_COMM_SELF, PETSC_ERR_PLIB, "No path is PC gs's automatic scheduler on the %s backend", host ? "host" : "GPU");
}

static PetscErrorCode PCSetUp_GS_Private(PC pc)
{
  PC_GS    *jac = (PC_GS *)pc->data;
  Mat       Aloc  = NULL;
  PetscBool local = PETSC_FALSE, rebuild;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(SPTRSV_GSSetup, pc, 0, 0, 0));
  PetscCall(PCGSGetLocalMatrix(pc, &Aloc, &local));
  PetscCheck(!local || !jac->type_global, PetscObjectComm((PetscObject)pc), PETSC_ERR_SUP, "%s: PCSOR's sweeps over the whole parallel matrix are not supported (PCSOR says \"Parallel SOR not supported\"); use its local variant (%s), which is what PC gs does on each process's diagonal block", jac->src_type,
             jac->type == PC_GS_FORWARD ? "-pc_sor_local_forward" : (jac->type == PC_GS_BACKWARD ? "-pc_sor_local_backward" : "-pc_sor_local_symmetric"));
  rebuild = (PetscBool)(!jac->gs || !pc->setupcalled || pc->flag == DIFFERENT_NONZERO_PATTERN || Aloc != jac->Aloc || jac->gs_omega != jac->omega || jac->gs_shift != jac->shift || jac->gs_format != jac->format || jac->gs_ordering != jac->ordering || jac->gs_coloring != jac->coloring);
  if (rebuild) {
    PetscBool      automatic;
    char           option[256];
    SpTrsvExecSlot slot;

    PetscCall(PCGSFree_Private(jac));
    PetscCall(SpTrsvOptionName((PetscObject)pc, "pc_gs_backend", option, sizeof(option)));
    PetscCall(SpTrsvBackendSelect(jac->backendreq, option, NULL, &slot, jac->backend_note, sizeof(jac->backend_note)));
    PetscCall(SpTrsvBackendGet(slot, &jac->backend));
    PetscCall(PetscStrcmp(jac->scheduler, "auto", &automatic));
    /* auto: the path the registry marks as PC gs's choice on this backend (element on the GPU: no barrier per level;
       level on the host: the same rows, fewer checks) */
    if (automatic) PetscCall(PCGSAutoPath(jac->backend->memtype == PETSC_MEMTYPE_HOST, &jac->path));
    else PetscCall(SpTrsvPathFind(jac->scheduler, &jac->path));
    if (jac->ordering == PC_GS_ORDERING_MULTICOLOR) {
      SpTrsvColoringSpec spec;
      PetscInt           m;

      spec.type = jac->coloring;
      PetscCall(MatGetLocalSize(Aloc, &m, NULL));
      PetscCall(SpTrsvGridFromDM(pc->dm, m, &spec.grid)); /* the dmda rule's grid, when the PC's DMDA has Aloc's rows */
      PetscCall(SpTrsvOptionName((PetscObject)pc, "pc_gs_coloring", jac->coloring_option, sizeof(jac->coloring_option)));
      PetscCall(SpTrsvGSCreateMulticolor(Aloc, jac->omega, jac->shift, jac->backend, &jac->opts, &spec, jac->coloring_option, &jac->gs));
    }
    else PetscCall(SpTrsvGSCreate(Aloc, jac->omega, jac->shift, jac->format, jac->path, jac->backend, &jac->opts, &jac->gs));
    PetscCall(SpTrsvStagingCreate(jac->backend, jac->gs->n, &jac->staging));
    PetscCall((*jac->backend->vec_alloc)(jac->gs->n, &jac->work));
    jac->Aloc      = Aloc;
    jac->local     = local;
    jac->gs_omega  = jac->omega;
    jac->gs_shift  = jac->shift;
    jac->gs_format   = jac->format;
    jac->gs_ordering = jac->ordering;
    jac->gs_coloring = jac->coloring;
  } else PetscCall(SpTrsvGSUpdateValues(jac->gs, Aloc));
  PetscCall(PCGSCheckValues_Private(pc));
  PetscCall(PetscLogEventEnd(SPTRSV_GSSetup, pc, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* run op on the backend arrays of b (read) and x (written; read first when x_in) */
typedef enum {
  PCGS_APPLY,
  PCGS_APPLY_TRANSPOSE
} PCGSOp;

typedef struct {
  PC_GS    *jac;
  PCGSOp    op;
  PetscInt  its;
  PetscBool zero_guess;
} PCGSRunCtx;

/* the sweeps on backend arrays: b read, x written (read first, as the iterate, without a zero guess) */
static PetscErrorCode PCGSRunArrays(void *ctx, const PetscScalar *b, PetscScalar *x, PetscLogDouble *flops)
{
  PCGSRunCtx    *c  = (PCGSRunCtx *)ctx;
  SpTrsvGS       gs = c->jac->gs;
  PetscLogDouble f0 = gs->flops;

  PetscFunctionBegin;
  if (c->op == PCGS_APPLY_TRANSPOSE) PetscCall(SpTrsvGSApplyTranspose(gs, (SpTrsvGSSweep)c->jac->type, b, x, c->jac->work));
  else PetscCall(SpTrsvGSApply(gs, (SpTrsvGSSweep)c->jac->type, c->its, c->zero_guess, b, x));
  *flops = gs->flops - f0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the setup with the PC's tally current (every device allocation it makes is counted for -ksp_view) */
static PetscErrorCode PCSetUp_GS(PC pc)
{
  PetscFunctionBegin;
  SpTrsvDevMemScope(&((PC_GS *)pc->data)->mem, PCSetUp_GS_Private(pc));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCGSRun_Private(PC pc, PCGSOp op, Vec b, Vec x, PetscInt its, PetscBool zero_guess)
{
  PC_GS     *jac = (PC_GS *)pc->data;
  PCGSRunCtx ctx = {jac, op, its, zero_guess};

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(SPTRSV_GSApply, pc, b, x, 0));
  SpTrsvDevMemScope(&jac->mem, SpTrsvStagingApply(&jac->staging, b, x, (PetscBool)!zero_guess, PCGSRunArrays, &ctx));
  PetscCall(PetscLogEventEnd(SPTRSV_GSApply, pc, b, x, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* PCApply: its iterations from a zero guess, as PCApply_SOR (MatSOR with SOR_ZERO_INITIAL_GUESS) */
static PetscErrorCode PCApply_GS(PC pc, Vec x, Vec y)
{
  PC_GS    *jac = (PC_GS *)pc->data;
  PetscBool failed;

  PetscFunctionBegin;
  PetscCheck(!jac->local || jac->its == 1, PetscObjectComm((PetscObject)pc), PETSC_ERR_SUP, "PC gs on a parallel matrix sweeps each process's diagonal block (lits iterations from a zero guess, PCSOR's local sweeps) and does not support %s %" PetscInt_FMT "; use -pc_type bjacobi -sub_pc_type gs", PCGSItsName_Private(jac), jac->its);
  PetscCall(PCGSFailed_Private(pc, y, &failed));
  if (!failed) PetscCall(PCGSRun_Private(pc, PCGS_APPLY, x, y, jac->local ? jac->lits : jac->its * jac->lits, PETSC_TRUE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  PCApplyTranspose: the exact transpose of one iteration from a zero guess (any sweep type); for more
  iterations the transpose is the same operator only for a symmetric matrix and symmetric sweeps, as
  PCApplyTranspose_SOR requires
*/
static PetscErrorCode PCApplyTranspose_GS(PC pc, Vec x, Vec y)
{
  PC_GS         *jac = (PC_GS *)pc->data;
  PetscBool      set = PETSC_FALSE, sym = PETSC_FALSE, failed;
  const PetscInt its = jac->local ? jac->lits : jac->its * jac->lits;

  PetscFunctionBegin;
  PetscCheck(!jac->local || jac->its == 1, PetscObjectComm((PetscObject)pc), PETSC_ERR_SUP, "PC gs on a parallel matrix sweeps each process's diagonal block and does not support %s %" PetscInt_FMT, PCGSItsName_Private(jac), jac->its);
  PetscCall(PCGSFailed_Private(pc, y, &failed));
  if (failed) PetscFunctionReturn(PETSC_SUCCESS);
  if (its == 1) PetscCall(PCGSRun_Private(pc, PCGS_APPLY_TRANSPOSE, x, y, 1, PETSC_TRUE));
  else {
    PetscCall(MatIsSymmetricKnown(pc->pmat, &set, &sym));
    PetscCheck(set && sym && jac->type == PC_GS_SYMMETRIC, PetscObjectComm((PetscObject)pc), PETSC_ERR_SUP, "The transpose of %" PetscInt_FMT " Gauss-Seidel iterations is available only for a matrix known to be symmetric (MatSetOption MAT_SYMMETRIC) and -pc_gs_type symmetric", its);
    PetscCall(PCGSRun_Private(pc, PCGS_APPLY, x, y, its, PETSC_TRUE));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* PCApplyRichardson: its * (-pc_gs_its) iterations from y (or from zero), convergence tests ignored,
   as PCApplyRichardson_SOR; this is what -ksp_type richardson and multigrid smoothers call */
static PetscErrorCode PCApplyRichardson_GS(PC pc, Vec b, Vec y, Vec w, PetscReal rtol, PetscReal abstol, PetscReal dtol, PetscInt its, PetscBool guesszero, PetscInt *outits, PCRichardsonConvergedReason *reason)
{
  PC_GS    *jac = (PC_GS *)pc->data;
  PetscBool failed;

  PetscFunctionBegin;
  PetscCheck(!jac->local || (guesszero && its * jac->its == 1), PetscObjectComm((PetscObject)pc), PETSC_ERR_SUP, "PC gs on a parallel matrix sweeps each process's diagonal block from a zero guess (lits iterations, PCSOR's local sweeps), once; use -pc_type bjacobi -sub_pc_type gs (or -mg_levels_pc_type bjacobi -mg_levels_sub_pc_type gs)");
  PetscCall(PetscInfo(pc, "Convergence criteria ignored, using %" PetscInt_FMT " iterations\n", its));
  *outits = its;
  *reason = PCRICHARDSON_CONVERGED_ITS;
  PetscCall(PCGSFailed_Private(pc, y, &failed));
  if (failed) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PCGSRun_Private(pc, PCGS_APPLY, b, y, jac->local ? jac->lits : its * jac->its * jac->lits, guesszero));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  PCSetFromOptions_GS - PC gs's own options, and PCSOR's names for them so that -pc_type gs is a drop-in for
  -pc_type sor: -pc_sor_omega, -pc_sor_its, -pc_sor_lits, -pc_sor_diagonal_shift and the sweep types
  -pc_sor_symmetric, -pc_sor_forward, -pc_sor_backward, -pc_sor_local_symmetric, -pc_sor_local_forward,
  -pc_sor_local_backward (read as PCSOR reads them: the last of these given wins). A -pc_gs_* option given
  too takes precedence. -ksp_view names the PCSOR options that set a value.
*/
static PetscErrorCode PCSetFromOptions_GS(PC pc, SpTrsvOptionItems PetscOptionsObject)
{
  PC_GS      *jac = (PC_GS *)pc->data;
  PetscReal   somega = jac->omega, sshift = jac->shift;
  PetscInt    sits = jac->its, slits = jac->lits;
  PetscBool   fomega, fshift, fits, flits, flg, gtype, gomega, gits, gshift;
  PCGSType    stype     = jac->type;
  const char *stypename = NULL;
  PetscBool   sglobal   = PETSC_FALSE;

  PetscFunctionBegin;
  PetscOptionsHeadBegin(PetscOptionsObject, "Gauss-Seidel on the GPU (petsc-sptrsv) options");
  PetscCall(PetscOptionsEnum("-pc_gs_type", "Sweeps of one iteration", "PCGSSetType", PCGSTypes, (PetscEnum)jac->type, (PetscEnum *)&jac->type, &gtype));
  PetscCall(PetscOptionsReal("-pc_gs_omega", "Relaxation factor (0 < omega < 2)", "PCGSSetOmega", jac->omega, &jac->omega, &gomega));
  PetscCall(PetscOptionsInt("-pc_gs_its", "Iterations per application", "PCGSSetIterations", jac->its, &jac->its, &gits));
  PetscCall(PetscOptionsReal("-pc_gs_diagonal_shift", "Add to the diagonal entries", "", jac->shift, &jac->shift, &gshift));
  PetscCall(PetscOptionsEnum("-pc_gs_ordering", "Order of the rows: exact (natural, PCSOR's iterates) or multicolor (colour by colour, one launch per colour)", "PCGSSetOrdering", PCGSOrderings, (PetscEnum)jac->ordering, (PetscEnum *)&jac->ordering, NULL));
  PetscCall(PetscOptionsEnum("-pc_gs_coloring", "Multicolor: the colouring (auto: dmda when the PC's DMDA rule colours the matrix, else jp; jp: parallel greedy, on the GPU for the CUDA backend; natural: greedy in row order, on the host)", "PCGSSetOrdering", SpTrsvColoringTypes, (PetscEnum)jac->coloring, (PetscEnum *)&jac->coloring, NULL));
  {
    PetscInt           npaths;
    const char *const *paths;
    char               list[256] = "auto";
    PetscBool          flg, known = PETSC_FALSE;

    PetscCall(SpTrsvPathGetNames(PETSC_TRUE, &npaths, &paths));
    for (PetscInt k = 0; k < npaths; k++) {
      PetscCall(PetscStrlcat(list, ", ", sizeof(list)));
      PetscCall(PetscStrlcat(list, paths[k], sizeof(list)));
    }
    PetscCall(PetscOptionsString("-pc_gs_scheduler", "Row scheduling of a sweep: a path with sweeps or auto", "PCGSSetScheduler", jac->scheduler, jac->scheduler, sizeof(jac->scheduler), &flg));
    PetscCall(PetscStrcmp(jac->scheduler, "auto", &known));
    for (PetscInt k = 0; k < npaths && !known; k++) PetscCall(PetscStrcmp(jac->scheduler, paths[k], &known));
    PetscCheck(known, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_UNKNOWN_TYPE, "-%spc_gs_scheduler %s: unknown scheduler (choose from %s)", ((PetscObject)pc)->prefix ? ((PetscObject)pc)->prefix : "", jac->scheduler, list);
    /* the scheduler's own options, by its parser, with the PC's prefix (auto: those of every path with sweeps) */
    for (PetscInt k = 0; k < npaths; k++) {
      PetscBool  auto_or_this;
      SpTrsvPath path;

      PetscCall(PetscStrcmp(jac->scheduler, "auto", &auto_or_this));
      if (!auto_or_this) PetscCall(PetscStrcmp(jac->scheduler, paths[k], &auto_or_this));
      if (!auto_or_this) continue;
      PetscCall(SpTrsvPathFind(paths[k], &path));
      PetscCall(SpTrsvPathOptionsSetFromOptions(PetscOptionsObject, path, &jac->opts));
    }
  }
  PetscCall(PetscOptionsEnum("-pc_gs_format", "Storage the sweeps read: rows (csr, fused sweeps) or columns (csc)", "", SpTrsvFormats, (PetscEnum)jac->format, (PetscEnum *)&jac->format, NULL));
  { /* the help names the scalar limit of the CUDA paths, where PETSc's scalars have one (the text outlives this call) */
    static char help[512];

    PetscCall(SpTrsvDeviceBackendHelp("Where the sweeps run", help, sizeof(help)));
    PetscCall(PetscOptionsEnum("-pc_gs_backend", help, "", SpTrsvBackendTypes, (PetscEnum)jac->backendreq, (PetscEnum *)&jac->backendreq, NULL));
  }
  PetscCall(PetscOptionsBool("-pc_gs_graph", "CUDA: replay each sweep's launches as a CUDA graph", "", jac->opts.use_graph, &jac->opts.use_graph, NULL));
  /* PCSOR's names (PCSetFromOptions_SOR), used when the -pc_gs_* option is not given */
  PetscCall(PetscOptionsReal("-pc_sor_omega", "PCSOR's name for -pc_gs_omega", "PCSORSetOmega", somega, &somega, &fomega));
  PetscCall(PetscOptionsReal("-pc_sor_diagonal_shift", "PCSOR's name for -pc_gs_diagonal_shift", "", sshift, &sshift, &fshift));
  PetscCall(PetscOptionsInt("-pc_sor_its", "PCSOR's name for -pc_gs_its", "PCSORSetIterations", sits, &sits, &fits));
  PetscCall(PetscOptionsInt("-pc_sor_lits", "PCSOR's local iterations: its * lits iterations on one process; on a parallel matrix, lits iterations on each diagonal block", "PCSORSetIterations", slits, &slits, &flits));
  PetscCall(PetscOptionsBoolGroupBegin("-pc_sor_symmetric", "PCSOR's name for -pc_gs_type symmetric (not supported on a parallel matrix, as PCSOR)", "PCSORSetSymmetric", &flg));
  if (flg) {
    stype     = PC_GS_SYMMETRIC;
    stypename = "-pc_sor_symmetric";
    sglobal   = PETSC_TRUE;
  }
  PetscCall(PetscOptionsBoolGroup("-pc_sor_backward", "PCSOR's name for -pc_gs_type backward (not supported on a parallel matrix, as PCSOR)", "PCSORSetSymmetric", &flg));
  if (flg) {
    stype     = PC_GS_BACKWARD;
    stypename = "-pc_sor_backward";
    sglobal   = PETSC_TRUE;
  }
  PetscCall(PetscOptionsBoolGroup("-pc_sor_forward", "PCSOR's name for -pc_gs_type forward (not supported on a parallel matrix, as PCSOR)", "PCSORSetSymmetric", &flg));
  if (flg) {
    stype     = PC_GS_FORWARD;
    stypename = "-pc_sor_forward";
    sglobal   = PETSC_TRUE;
  }
  PetscCall(PetscOptionsBoolGroup("-pc_sor_local_symmetric", "PCSOR's name for -pc_gs_type symmetric (each process's diagonal block)", "PCSORSetSymmetric", &flg));
  if (flg) {
    stype     = PC_GS_SYMMETRIC;
    stypename = "-pc_sor_local_symmetric";
    sglobal   = PETSC_FALSE;
  }
  PetscCall(PetscOptionsBoolGroup("-pc_sor_local_backward", "PCSOR's name for -pc_gs_type backward (each process's diagonal block)", "PCSORSetSymmetric", &flg));
  if (flg) {
    stype     = PC_GS_BACKWARD;
    stypename = "-pc_sor_local_backward";
    sglobal   = PETSC_FALSE;
  }
  PetscCall(PetscOptionsBoolGroupEnd("-pc_sor_local_forward", "PCSOR's name for -pc_gs_type forward (each process's diagonal block)", "PCSORSetSymmetric", &flg));
  if (flg) {
    stype     = PC_GS_FORWARD;
    stypename = "-pc_sor_local_forward";
    sglobal   = PETSC_FALSE;
  }
  PetscOptionsHeadEnd();
  /* own names first; otherwise PCSOR's, remembered for -ksp_view and for error messages */
  if (gtype) {
    jac->src_type    = NULL;
    jac->type_global = PETSC_FALSE;
  } else if (stypename) {
    jac->type        = stype;
    jac->src_type    = stypename;
    jac->type_global = sglobal;
  }
  if (gomega) jac->src_omega = NULL;
  else if (fomega) {
    jac->omega     = somega;
    jac->src_omega = "-pc_sor_omega";
  }
  if (gits) jac->src_its = NULL;
  else if (fits) {
    jac->its     = sits;
    jac->src_its = "-pc_sor_its";
  }
  if (gshift) jac->src_shift = NULL;
  else if (fshift) {
    jac->shift     = sshift;
    jac->src_shift = "-pc_sor_diagonal_shift";
  }
  if (flits) {
    jac->lits     = slits;
    jac->src_lits = "-pc_sor_lits";
  }
  if ((gtype && stypename) || (gomega && fomega) || (gits && fits) || (gshift && fshift)) PetscCall(PetscInfo(pc, "Both -pc_gs_* and -pc_sor_* options were given: the -pc_gs_* ones are used\n"));
  PetscCheck(jac->omega > 0.0 && jac->omega < 2.0, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "%s %g is outside (0, 2)", jac->src_omega ? jac->src_omega : "-pc_gs_omega", (double)jac->omega);
  PetscCheck(jac->its > 0, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "%s must be positive, got %" PetscInt_FMT, PCGSItsName_Private(jac), jac->its);
  PetscCheck(jac->lits > 0, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "-pc_sor_lits must be positive, got %" PetscInt_FMT, jac->lits);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the device memory line of -ksp_view (exact bytes of the plugin's allocations; PETSc's own matrix is not in it) */
static PetscErrorCode PCGSViewMemory_Private(PC_GS *jac, PetscViewer viewer)
{
  PetscFunctionBegin;
  if (jac->backend->memtype == PETSC_MEMTYPE_HOST) PetscCall(PetscViewerASCIIPrintf(viewer, "device memory: none (host backend)\n"));
  else PetscCall(PetscViewerASCIIPrintf(viewer, "device memory: %.2f MB (sweep solvers or colour-ordered storage, values, maps, work vectors; peak %.2f MB)\n", (double)jac->mem.bytes / 1e6, (double)jac->mem.peak / 1e6));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCView_GS(PC pc, PetscViewer viewer)
{
  PC_GS    *jac = (PC_GS *)pc->data;
  PetscBool iascii;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &iascii));
  if (!iascii) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscViewerASCIIPrintf(viewer, "  type = %s, iterations = %" PetscInt_FMT ", local iterations = %" PetscInt_FMT ", omega = %g, diagonal shift = %g%s\n", PCGSTypes[jac->type], jac->its, jac->lits, (double)jac->omega, (double)jac->shift, jac->local ? " (local sweeps of each process's diagonal block)" : ""));
  if (jac->src_type || jac->src_omega || jac->src_its || jac->src_lits || jac->src_shift) {
    char   line[512] = "", item[128];
    size_t len;

    if (jac->src_type) {
      PetscCall(PetscSNPrintf(item, sizeof(item), " %s (type %s);", jac->src_type, PCGSTypes[jac->type]));
      PetscCall(PetscStrlcat(line, item, sizeof(line)));
    }
    if (jac->src_omega) {
      PetscCall(PetscSNPrintf(item, sizeof(item), " %s %g;", jac->src_omega, (double)jac->omega));
      PetscCall(PetscStrlcat(line, item, sizeof(line)));
    }
    if (jac->src_its) {
      PetscCall(PetscSNPrintf(item, sizeof(item), " %s %" PetscInt_FMT ";", jac->src_its, jac->its));
      PetscCall(PetscStrlcat(line, item, sizeof(line)));
    }
    if (jac->src_lits) {
      PetscCall(PetscSNPrintf(item, sizeof(item), " %s %" PetscInt_FMT ";", jac->src_lits, jac->lits));
      PetscCall(PetscStrlcat(line, item, sizeof(line)));
    }
    if (jac->src_shift) {
      PetscCall(PetscSNPrintf(item, sizeof(item), " %s %g;", jac->src_shift, (double)jac->shift));
      PetscCall(PetscStrlcat(line, item, sizeof(line)));
    }
    PetscCall(PetscStrlen(line, &len));
    if (len) line[len - 1] = 0; /* the last ';' */
    PetscCall(PetscViewerASCIIPrintf(viewer, "  values from PCSOR's option names:%s\n", line));
  }
  if (jac->omega == 1.0 && jac->shift < 0.0) PetscCall(PetscViewerASCIIPrintf(viewer, "  the negative diagonal shift is not added with omega = 1 (as PCSOR): zero diagonal entries make the PC fail instead of an error\n"));
  if (jac->gs && jac->gs->zerodiag_row >= 0) PetscCall(PetscViewerASCIIPrintf(viewer, "  FAILED: zero diagonal on row %" PetscInt_FMT " (%s); the applies return Inf\n", jac->gs->zerodiag_row, PCFailedReasons[PC_FACTOR_NUMERIC_ZEROPIVOT]));
  else if (jac->gs && jac->gs->nonfinite_row >= 0) PetscCall(PetscViewerASCIIPrintf(viewer, "  NaN/Inf in row %" PetscInt_FMT " (or its relaxed inverse diagonal); the applies return Inf\n", jac->gs->nonfinite_row));
  if (!jac->gs) {
    PetscCall(PetscViewerASCIIPrintf(viewer, "  ordering %s, scheduler %s, format %s (not set up yet)\n", PCGSOrderings[jac->ordering], jac->scheduler, SpTrsvFormats[jac->format]));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (jac->gs->ordering == SPTRSV_GS_ORDERING_MULTICOLOR) {
    PetscCall(PetscViewerASCIIPrintf(viewer, "  ordering multicolor: Gauss-Seidel in colour order, in-place sweeps (not PCSOR's iterates; -pc_gs_scheduler and -pc_gs_format do not apply)\n"));
    PetscCall(PetscViewerASCIIPrintf(viewer, "  backend %s (%s)%s\n", jac->backend->name, jac->backend_note, jac->staging.copies ? "; vectors copied to/from the backend" : ""));
    PetscCall(PetscViewerASCIIPushTab(viewer));
    PetscCall(SpTrsvStagingView(&jac->staging, viewer));
    PetscCall(SpTrsvMCView(jac->gs->mc, viewer));
    PetscCall(PetscViewerASCIIPrintf(viewer, "values %s\n", jac->gs->devvalues ? "gathered on the GPU from the matrix's device array (no host copy)" : "read from the matrix's host array"));
    PetscCall(PetscViewerASCIIPrintf(viewer, "sweeps so far %" PetscInt_FMT "\n", jac->gs->nsweeps));
    PetscCall(PCGSViewMemory_Private(jac, viewer));
    PetscCall(PetscViewerASCIIPopTab(viewer));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscViewerASCIIPrintf(viewer, "  scheduler %s (requested %s), format %s, %s sweeps\n", jac->path->name, jac->scheduler, SpTrsvFormats[jac->format], jac->gs->structsym || jac->format == SPTRSV_FORMAT_CSC ? "in-place (one vector)" : "two-vector (pattern not structurally symmetric)"));
  PetscCall(PetscViewerASCIIPrintf(viewer, "  backend %s (%s)%s\n", jac->backend->name, jac->backend_note, jac->staging.copies ? "; vectors copied to/from the backend" : ""));
  PetscCall(PetscViewerASCIIPushTab(viewer));
  PetscCall(SpTrsvStagingView(&jac->staging, viewer));
  PetscCall(PetscViewerASCIIPrintf(viewer, "forward sweep (waits on L):\n"));
  PetscCall(PetscViewerASCIIPushTab(viewer));
  PetscCall(SpTrsvPlanView(jac->gs->fwd->plan, viewer));
  PetscCall(PetscViewerASCIIPopTab(viewer));
  PetscCall(PetscViewerASCIIPrintf(viewer, "backward sweep (waits on U):\n"));
  PetscCall(PetscViewerASCIIPushTab(viewer));
  PetscCall(SpTrsvPlanView(jac->gs->bwd->plan, viewer));
  PetscCall(PetscViewerASCIIPopTab(viewer));
  PetscCall(PetscViewerASCIIPrintf(viewer, "values %s\n", jac->gs->devvalues ? "gathered on the GPU from the matrix's device array (no host copy)" : "read from the matrix's host array"));
  PetscCall(PetscViewerASCIIPrintf(viewer, "sweeps so far %" PetscInt_FMT "\n", jac->gs->nsweeps));
  PetscCall(PCGSViewMemory_Private(jac, viewer));
  PetscCall(PetscViewerASCIIPopTab(viewer));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCReset_GS(PC pc)
{
  PC_GS *jac = (PC_GS *)pc->data;

  PetscFunctionBegin;
  PetscCall(PCGSFree_Private(jac));
  jac->Aloc    = NULL;
  jac->backend = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCGSSetType_GS(PC pc, PCGSType type)
{
  PetscFunctionBegin;
  ((PC_GS *)pc->data)->type        = type;
  ((PC_GS *)pc->data)->src_type    = NULL;
  ((PC_GS *)pc->data)->type_global = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCGSSetOmega_GS(PC pc, PetscReal omega)
{
  PetscFunctionBegin;
  PetscCheck(omega > 0.0 && omega < 2.0, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "Relaxation factor omega = %g is outside (0, 2)", (double)omega);
  ((PC_GS *)pc->data)->omega     = omega;
  ((PC_GS *)pc->data)->src_omega = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCGSSetIterations_GS(PC pc, PetscInt its)
{
  PetscFunctionBegin;
  PetscCheck(its > 0, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "Number of iterations must be positive, got %" PetscInt_FMT, its);
  ((PC_GS *)pc->data)->its     = its;
  ((PC_GS *)pc->data)->src_its = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCGSSetOrdering_GS(PC pc, PCGSOrdering ordering)
{
  PetscFunctionBegin;
  PetscCheck(ordering == PC_GS_ORDERING_EXACT || ordering == PC_GS_ORDERING_MULTICOLOR, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "Unknown Gauss-Seidel ordering %d", (int)ordering);
  ((PC_GS *)pc->data)->ordering = ordering;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCGSSetScheduler_GS(PC pc, const char s[])
{
  PC_GS    *jac = (PC_GS *)pc->data;
  PetscBool automatic;
  SpTrsvPath path;

  PetscFunctionBegin;
  PetscCall(PetscStrcmp(s, "auto", &automatic));
  if (!automatic) {
    PetscCall(SpTrsvPathFind(s, &path));
    PetscCheck(path->sweeps, PetscObjectComm((PetscObject)pc), PETSC_ERR_SUP, "Path %s has no Gauss-Seidel sweeps", path->name);
  }
  PetscCall(PetscStrncpy(jac->scheduler, s, sizeof(jac->scheduler)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the device record of the PC's staging, with its work vectors and (exact ordering) its sweep solvers' arrays checked */
static PetscErrorCode PCGSGetDeviceInfo_GS(PC pc, SpTrsvDeviceInfo *info)
{
  PC_GS       *jac = (PC_GS *)pc->data;
  SpTrsvGS     gs  = jac->gs;
  const void  *bufs[3 + 4 * 16];
  PetscInt     n = 0, m;
  SpTrsvSolver sv[4];

  PetscFunctionBegin;
  PetscCheck(gs && jac->backend, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "PCGSGetDeviceInfo: call PCSetUp() first");
  bufs[n++] = jac->work;
  bufs[n++] = gs->xold;
  bufs[n++] = gs->dscale;
  sv[0]     = gs->fwd;
  sv[1]     = gs->bwd;
  sv[2]     = gs->fwdT;
  sv[3]     = gs->bwdT;
  for (PetscInt k = 0; k < 4; k++) {
    PetscCall(SpTrsvSolverGetDeviceBuffers(sv[k], 16, &bufs[n], &m));
    n += m;
  }
  if (jac->backend->memtype == PETSC_MEMTYPE_HOST) n = 0;
  PetscCall(SpTrsvStagingGetDeviceInfo(&jac->staging, n, bufs, info));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCDestroy_GS(PC pc)
{
  PetscFunctionBegin;
  PetscCall(PCReset_GS(pc));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCGSGetDeviceInfo_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCGSSetType_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCGSSetOmega_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCGSSetIterations_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCGSSetScheduler_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCGSSetOrdering_C", NULL));
  SpTrsvDevMemDetach(&((PC_GS *)pc->data)->mem);
  PetscCall(PetscFree(pc->data));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*MC
   PCGS - Gauss-Seidel / SOR with sweeps on the GPU (petsc-sptrsv, paper 000): the semantics of `PCSOR`
   (same iterations and residuals as -pc_type sor with the same options on a matrix without inodes),
   sweeps scheduled by level sets or by rows (element scheduling) on the CUDA backend, or on the host.

   Options Database Keys:
+  -pc_gs_type <forward,backward,symmetric> - the sweeps (default symmetric)
.  -pc_gs_omega <omega> - relaxation factor (default 1)
.  -pc_gs_its <its> - iterations per application (default 1)
.  -pc_gs_diagonal_shift <shift> - added to the diagonal
.  -pc_gs_ordering <exact,multicolor> - natural row order (PCSOR's iterates) or colour by colour (one launch per
                  colour, `PCGSSetOrdering()`)
.  -pc_gs_coloring <auto,natural,jp,dmda> - multicolor: the colouring (auto: the rule of the PC's DMDA when it colours
                  the matrix, else jp, a parallel greedy colouring made on the GPU for the CUDA backend)
.  -pc_gs_scheduler <level,element,auto> - scheduling of the rows (auto: element on the GPU)
.  -pc_gs_format <csr,csc> - rows (fused sweeps, in place for structurally symmetric patterns, else
                             from a copy of the old iterate) or columns (right-hand side update + solve)
.  -pc_gs_backend <auto,host,cuda> - where the sweeps run
.  -pc_gs_graph <bool> - CUDA graphs for multi-launch sweeps
.  -pc_sor_omega, -pc_sor_its, -pc_sor_diagonal_shift - PCSOR's names of -pc_gs_omega, -pc_gs_its,
                  -pc_gs_diagonal_shift, used when those are not given (-pc_type gs is a drop-in for -pc_type sor)
.  -pc_sor_lits <lits> - PCSOR's local iterations: its * lits iterations on one process, lits sweeps of each
                  process's diagonal block on a parallel matrix
-  -pc_sor_symmetric, -pc_sor_forward, -pc_sor_backward, -pc_sor_local_symmetric, -pc_sor_local_forward,
   -pc_sor_local_backward - PCSOR's names of the sweep types (the non-local ones are errors on a parallel
                  matrix, as in PCSOR)

   Notes:
   Use it as a multigrid smoother with -mg_levels_ksp_type richardson -mg_levels_pc_type gs
   (`PCApplyRichardson()` is provided). On a parallel matrix it sweeps each process's diagonal block
   once from a zero guess (PCSOR's local sweeps); for more use `PCBJACOBI` with -sub_pc_type gs.

   Failures follow `PCSOR` (MatSOR, PETSc 3.18): with omega = 1 and no diagonal shift a zero diagonal entry
   is an error; with omega = 1 a negative shift is not added but turns such an entry into a PC failure
   (`PC_FACTOR_NUMERIC_ZEROPIVOT`, KSP stops with `KSP_DIVERGED_PC_FAILED`); otherwise the diagonal used is
   a_ii + shift and a zero one, like a NaN/Inf entry, makes the applies return Inf (`KSP_DIVERGED_NANORINF`).
   With `PCSetErrorIfFailure()` (-ksp_error_if_not_converged) these are errors naming the row.

   Level: beginner

.seealso: `PCSOR`, `PCGSSetType()`, `PCGSSetOmega()`, `PCGSSetIterations()`, `PCGSSetScheduler()`, `PCGSSetOrdering()`
M*/
PETSC_EXTERN PetscErrorCode PCCreate_GS(PC pc)
{
  PC_GS *jac;

  PetscFunctionBegin;
  PetscCall(SpTrsvInitializePackage()); /* events, when a program registered the PC itself */
  PetscCall(PetscNew(&jac));
  jac->type       = PC_GS_SYMMETRIC;
  jac->omega      = 1.0;
  jac->its        = 1;
  jac->lits       = 1;
  PetscCall(PetscStrncpy(jac->scheduler, "auto", sizeof(jac->scheduler)));
  jac->format     = SPTRSV_FORMAT_CSR;
  jac->backendreq = SPTRSV_BACKEND_AUTO;
  PetscCall(SpTrsvPathOptionsInitialize(&jac->opts)); /* PCSetFromOptions reads the scheduler's */
  pc->data                 = (void *)jac;
  pc->ops->apply           = PCApply_GS;
  pc->ops->applytranspose  = PCApplyTranspose_GS;
  pc->ops->applyrichardson = PCApplyRichardson_GS;
  pc->ops->setup           = PCSetUp_GS;
  pc->ops->reset           = PCReset_GS;
  pc->ops->destroy         = PCDestroy_GS;
  pc->ops->setfromoptions  = PCSetFromOptions_GS;
  pc->ops->view            = PCView_GS;
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCGSSetType_C", PCGSSetType_GS));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCGSSetOmega_C", PCGSSetOmega_GS));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCGSSetIterations_C", PCGSSetIterations_GS));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCGSSetScheduler_C", PCGSSetScheduler_GS));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCGSSetOrdering_C", PCGSSetOrdering_GS));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCGSGetDeviceInfo_C", PCGSGetDeviceInfo_GS));
  PetscFunctionReturn(PETSC_SUCCESS);
}
