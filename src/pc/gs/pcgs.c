/*
   PC gs: Gauss-Seidel / SOR preconditioner and smoother whose sweeps run on the GPU (paper 000,
   section 5.2), with the semantics of PETSc's PCSOR (point sweeps, as PCSOR on a matrix without
   inodes or with -mat_no_inode).
*/
#include <sptrsv/gs.h>
#include <petsc/private/pcimpl.h>

const char *const PCGSTypes[]      = {"", "forward", "backward", "symmetric", "PCGSType", "PC_GS_", NULL};

typedef struct {
  /* options */
  PCGSType            type;
  PetscReal           omega, shift;
  PetscInt            its;
  char                scheduler[64]; /* a path with sweeps (the registry's names) or "auto" */
  SpTrsvFormat        format;
  SpTrsvBackendType   backendreq;
  SpTrsvSolverOptions opts;
  /* state */
  SpTrsvGS                gs;
  Mat                     Aloc;     /* the sequential matrix the sweeps read (pmat, or its diagonal block) */
  PetscBool               local;    /* pmat is parallel: local sweeps on the diagonal block */
  PetscReal               gs_omega, gs_shift; /* parameters gs was built with */
  SpTrsvFormat            gs_format;
  SpTrsvPath              path; /* the path the sweeps run on */
  const SpTrsvBackendOps *backend;
  char                    backend_note[256];
  SpTrsvStaging           staging; /* PETSc vectors on the backend */
  PetscScalar            *work;    /* backend work vector of the transposed application */
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

static PetscErrorCode PCSetUp_GS(PC pc)
{
  PC_GS    *jac = (PC_GS *)pc->data;
  Mat       Aloc  = NULL;
  PetscBool local = PETSC_FALSE, rebuild;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(SPTRSV_GSSetup, pc, 0, 0, 0));
  PetscCall(PCGSGetLocalMatrix(pc, &Aloc, &local));
  rebuild = (PetscBool)(!jac->gs || !pc->setupcalled || pc->flag == DIFFERENT_NONZERO_PATTERN || Aloc != jac->Aloc || jac->gs_omega != jac->omega || jac->gs_shift != jac->shift || jac->gs_format != jac->format);
  if (rebuild) {
    PetscBool automatic;
    char      option[256];

    PetscCall(PCGSFree_Private(jac));
    PetscCall(SpTrsvOptionName((PetscObject)pc, "pc_gs_backend", option, sizeof(option)));
    PetscCall(SpTrsvBackendSelect(jac->backendreq, option, &jac->backend, jac->backend_note, sizeof(jac->backend_note)));
    PetscCall(PetscStrcmp(jac->scheduler, "auto", &automatic));
    /* auto: element on the GPU (no barrier per level), level on the host (the same rows, fewer checks) */
    PetscCall(SpTrsvPathFind(automatic ? (jac->backend->memtype == PETSC_MEMTYPE_HOST ? "level" : "element") : jac->scheduler, &jac->path));
    PetscCall(SpTrsvGSCreate(Aloc, jac->omega, jac->shift, jac->format, jac->path, jac->backend, &jac->opts, &jac->gs));
    PetscCall(SpTrsvStagingCreate(jac->backend, jac->gs->n, &jac->staging));
    PetscCall((*jac->backend->vec_alloc)(jac->gs->n, &jac->work));
    jac->Aloc      = Aloc;
    jac->local     = local;
    jac->gs_omega  = jac->omega;
    jac->gs_shift  = jac->shift;
    jac->gs_format = jac->format;
  } else PetscCall(SpTrsvGSUpdateValues(jac->gs, Aloc));
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

static PetscErrorCode PCGSRun_Private(PC pc, PCGSOp op, Vec b, Vec x, PetscInt its, PetscBool zero_guess)
{
  PC_GS     *jac = (PC_GS *)pc->data;
  PCGSRunCtx ctx = {jac, op, its, zero_guess};

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(SPTRSV_GSApply, pc, b, x, 0));
  PetscCall(SpTrsvStagingApply(&jac->staging, b, x, (PetscBool)!zero_guess, PCGSRunArrays, &ctx));
  PetscCall(PetscLogEventEnd(SPTRSV_GSApply, pc, b, x, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* PCApply: its iterations from a zero guess, as PCApply_SOR (MatSOR with SOR_ZERO_INITIAL_GUESS) */
static PetscErrorCode PCApply_GS(PC pc, Vec x, Vec y)
{
  PC_GS *jac = (PC_GS *)pc->data;

  PetscFunctionBegin;
  PetscCheck(!jac->local || jac->its == 1, PetscObjectComm((PetscObject)pc), PETSC_ERR_SUP, "PC gs on a parallel matrix sweeps each process's diagonal block once (-pc_gs_its 1); for more use -pc_type bjacobi -sub_pc_type gs");
  PetscCall(PCGSRun_Private(pc, PCGS_APPLY, x, y, jac->its, PETSC_TRUE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  PCApplyTranspose: the exact transpose of one iteration from a zero guess (any sweep type); for more
  iterations the transpose is the same operator only for a symmetric matrix and symmetric sweeps, as
  PCApplyTranspose_SOR requires
*/
static PetscErrorCode PCApplyTranspose_GS(PC pc, Vec x, Vec y)
{
  PC_GS    *jac = (PC_GS *)pc->data;
  PetscBool set = PETSC_FALSE, sym = PETSC_FALSE;

  PetscFunctionBegin;
  PetscCheck(!jac->local || jac->its == 1, PetscObjectComm((PetscObject)pc), PETSC_ERR_SUP, "PC gs on a parallel matrix sweeps each process's diagonal block once (-pc_gs_its 1)");
  if (jac->its == 1) PetscCall(PCGSRun_Private(pc, PCGS_APPLY_TRANSPOSE, x, y, 1, PETSC_TRUE));
  else {
    PetscCall(MatIsSymmetricKnown(pc->pmat, &set, &sym));
    PetscCheck(set && sym && jac->type == PC_GS_SYMMETRIC, PetscObjectComm((PetscObject)pc), PETSC_ERR_SUP, "The transpose of %" PetscInt_FMT " Gauss-Seidel iterations is available only for a matrix known to be symmetric (MatSetOption MAT_SYMMETRIC) and -pc_gs_type symmetric", jac->its);
    PetscCall(PCGSRun_Private(pc, PCGS_APPLY, x, y, jac->its, PETSC_TRUE));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* PCApplyRichardson: its * (-pc_gs_its) iterations from y (or from zero), convergence tests ignored,
   as PCApplyRichardson_SOR; this is what -ksp_type richardson and multigrid smoothers call */
static PetscErrorCode PCApplyRichardson_GS(PC pc, Vec b, Vec y, Vec w, PetscReal rtol, PetscReal abstol, PetscReal dtol, PetscInt its, PetscBool guesszero, PetscInt *outits, PCRichardsonConvergedReason *reason)
{
  PC_GS *jac = (PC_GS *)pc->data;

  PetscFunctionBegin;
  PetscCheck(!jac->local || (guesszero && its * jac->its == 1), PetscObjectComm((PetscObject)pc), PETSC_ERR_SUP, "PC gs on a parallel matrix sweeps each process's diagonal block once from a zero guess; use -pc_type bjacobi -sub_pc_type gs (or -mg_levels_pc_type bjacobi -mg_levels_sub_pc_type gs)");
  PetscCall(PetscInfo(pc, "Convergence criteria ignored, using %" PetscInt_FMT " iterations\n", its));
  PetscCall(PCGSRun_Private(pc, PCGS_APPLY, b, y, its * jac->its, guesszero));
  *outits = its;
  *reason = PCRICHARDSON_CONVERGED_ITS;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCSetFromOptions_GS(PC pc, SpTrsvOptionItems PetscOptionsObject)
{
  PC_GS *jac = (PC_GS *)pc->data;

  PetscFunctionBegin;
  PetscOptionsHeadBegin(PetscOptionsObject, "Gauss-Seidel on the GPU (petsc-sptrsv) options");
  PetscCall(PetscOptionsEnum("-pc_gs_type", "Sweeps of one iteration", "PCGSSetType", PCGSTypes, (PetscEnum)jac->type, (PetscEnum *)&jac->type, NULL));
  PetscCall(PetscOptionsReal("-pc_gs_omega", "Relaxation factor (0 < omega < 2)", "PCGSSetOmega", jac->omega, &jac->omega, NULL));
  PetscCall(PetscOptionsInt("-pc_gs_its", "Iterations per application", "PCGSSetIterations", jac->its, &jac->its, NULL));
  PetscCall(PetscOptionsReal("-pc_gs_diagonal_shift", "Add to the diagonal entries", "", jac->shift, &jac->shift, NULL));
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
  }
  PetscCall(PetscOptionsEnum("-pc_gs_format", "Storage the sweeps read: rows (csr, fused sweeps) or columns (csc)", "", SpTrsvFormats, (PetscEnum)jac->format, (PetscEnum *)&jac->format, NULL));
  PetscCall(PetscOptionsEnum("-pc_gs_backend", "Where the sweeps run", "", SpTrsvBackendTypes, (PetscEnum)jac->backendreq, (PetscEnum *)&jac->backendreq, NULL));
  PetscCall(PetscOptionsBool("-pc_gs_graph", "CUDA: replay each sweep's launches as a CUDA graph", "", jac->opts.use_graph, &jac->opts.use_graph, NULL));
  PetscOptionsHeadEnd();
  PetscCheck(jac->omega > 0.0 && jac->omega < 2.0, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "-pc_gs_omega %g is outside (0, 2)", (double)jac->omega);
  PetscCheck(jac->its > 0, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "-pc_gs_its must be positive, got %" PetscInt_FMT, jac->its);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCView_GS(PC pc, PetscViewer viewer)
{
  PC_GS    *jac = (PC_GS *)pc->data;
  PetscBool iascii;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &iascii));
  if (!iascii) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscViewerASCIIPrintf(viewer, "  type = %s, iterations = %" PetscInt_FMT ", omega = %g, diagonal shift = %g%s\n", PCGSTypes[jac->type], jac->its, (double)jac->omega, (double)jac->shift, jac->local ? " (local sweeps of each process's diagonal block)" : ""));
  if (!jac->gs) {
    PetscCall(PetscViewerASCIIPrintf(viewer, "  scheduler %s, format %s (not set up yet)\n", jac->scheduler, SpTrsvFormats[jac->format]));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscViewerASCIIPrintf(viewer, "  scheduler %s (requested %s), format %s, %s sweeps\n", jac->path->name, jac->scheduler, SpTrsvFormats[jac->format], jac->gs->structsym || jac->format == SPTRSV_FORMAT_CSC ? "in-place (one vector)" : "two-vector (pattern not structurally symmetric)"));
  PetscCall(PetscViewerASCIIPrintf(viewer, "  backend %s (%s)%s\n", jac->backend->name, jac->backend_note, jac->staging.copies ? "; vectors copied to/from the backend" : ""));
  PetscCall(PetscViewerASCIIPushTab(viewer));
  PetscCall(PetscViewerASCIIPrintf(viewer, "forward sweep (waits on L):\n"));
  PetscCall(PetscViewerASCIIPushTab(viewer));
  PetscCall(SpTrsvPlanView(jac->gs->fwd->plan, viewer));
  PetscCall(PetscViewerASCIIPopTab(viewer));
  PetscCall(PetscViewerASCIIPrintf(viewer, "backward sweep (waits on U):\n"));
  PetscCall(PetscViewerASCIIPushTab(viewer));
  PetscCall(SpTrsvPlanView(jac->gs->bwd->plan, viewer));
  PetscCall(PetscViewerASCIIPopTab(viewer));
  PetscCall(PetscViewerASCIIPrintf(viewer, "sweeps so far %" PetscInt_FMT "\n", jac->gs->nsweeps));
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
  ((PC_GS *)pc->data)->type = type;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCGSSetOmega_GS(PC pc, PetscReal omega)
{
  PetscFunctionBegin;
  PetscCheck(omega > 0.0 && omega < 2.0, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "Relaxation factor omega = %g is outside (0, 2)", (double)omega);
  ((PC_GS *)pc->data)->omega = omega;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCGSSetIterations_GS(PC pc, PetscInt its)
{
  PetscFunctionBegin;
  PetscCheck(its > 0, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "Number of iterations must be positive, got %" PetscInt_FMT, its);
  ((PC_GS *)pc->data)->its = its;
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

static PetscErrorCode PCDestroy_GS(PC pc)
{
  PetscFunctionBegin;
  PetscCall(PCReset_GS(pc));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCGSSetType_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCGSSetOmega_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCGSSetIterations_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCGSSetScheduler_C", NULL));
  PetscCall(PetscFree(pc->data));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PCGSSetType - forward, backward or symmetric sweeps

   Logically Collective

   Input Parameters:
+  pc   - the preconditioner context
-  type - `PC_GS_FORWARD`, `PC_GS_BACKWARD` or `PC_GS_SYMMETRIC` (default)

   Options Database Key:
.  -pc_gs_type <forward,backward,symmetric> - the sweeps

   Level: beginner

.seealso: `PCGS`, `PCSORSetSymmetric()`
@*/
PetscErrorCode PCGSSetType(PC pc, PCGSType type)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscTryMethod(pc, "PCGSSetType_C", (PC, PCGSType), (pc, type));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PCGSSetOmega - the relaxation factor (1 = Gauss-Seidel)

   Logically Collective

   Input Parameters:
+  pc    - the preconditioner context
-  omega - in (0, 2)

   Options Database Key:
.  -pc_gs_omega <omega> - the relaxation factor

   Level: beginner

.seealso: `PCGS`, `PCSORSetOmega()`
@*/
PetscErrorCode PCGSSetOmega(PC pc, PetscReal omega)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscTryMethod(pc, "PCGSSetOmega_C", (PC, PetscReal), (pc, omega));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PCGSSetIterations - iterations per application of the preconditioner

   Logically Collective

   Input Parameters:
+  pc  - the preconditioner context
-  its - a positive number (default 1)

   Options Database Key:
.  -pc_gs_its <its> - the iterations

   Level: beginner

.seealso: `PCGS`, `PCSORSetIterations()`
@*/
PetscErrorCode PCGSSetIterations(PC pc, PetscInt its)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscTryMethod(pc, "PCGSSetIterations_C", (PC, PetscInt), (pc, its));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PCGSSetScheduler - level-set or element (synchronization-free) scheduling of the sweeps

   Logically Collective

   Input Parameters:
+  pc        - the preconditioner context
-  scheduler - the name of a path that runs sweeps ("level", "element") or "auto" (default: element on the GPU, level on the host)

   Options Database Key:
.  -pc_gs_scheduler <level,element,auto> - the scheduler

   Level: intermediate

.seealso: `PCGS`
@*/
PetscErrorCode PCGSSetScheduler(PC pc, const char scheduler[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscTryMethod(pc, "PCGSSetScheduler_C", (PC, const char[]), (pc, scheduler));
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
.  -pc_gs_scheduler <level,element,auto> - scheduling of the rows (auto: element on the GPU)
.  -pc_gs_format <csr,csc> - rows (fused sweeps, in place for structurally symmetric patterns, else
                             from a copy of the old iterate) or columns (right-hand side update + solve)
.  -pc_gs_backend <auto,host,cuda> - where the sweeps run
-  -pc_gs_graph <bool> - CUDA graphs for multi-launch sweeps

   Notes:
   Use it as a multigrid smoother with -mg_levels_ksp_type richardson -mg_levels_pc_type gs
   (`PCApplyRichardson()` is provided). On a parallel matrix it sweeps each process's diagonal block
   once from a zero guess (PCSOR's local sweeps); for more use `PCBJACOBI` with -sub_pc_type gs.

   Level: beginner

.seealso: `PCSOR`, `PCGSSetType()`, `PCGSSetOmega()`, `PCGSSetIterations()`, `PCGSSetScheduler()`
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
  PetscCall(PetscStrncpy(jac->scheduler, "auto", sizeof(jac->scheduler)));
  jac->format     = SPTRSV_FORMAT_CSR;
  jac->backendreq = SPTRSV_BACKEND_AUTO;
  PetscCall(SpTrsvSolverOptionsDefault(&jac->opts));
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
  PetscFunctionReturn(PETSC_SUCCESS);
}
