/* The factor matrix returned by every sptrsv_* MatSolverType: symbolic factorization + analysis once
   per pattern, numeric factorization once per values, solves through the chosen backend */
#include <sptrsv/deviceops.h> /* SpTrsvDeviceBackendHelp */
#include <sptrsv/factormat.h>
#include <sptrsv/threads.h>
#include <petsctime.h>

/* read -mat_sptrsv_* with the factor's prefix (so -sub_mat_sptrsv_* works under block Jacobi) */
static PetscErrorCode MatSpTrsvSetFromOptions(Mat F)
{
  Mat_SpTrsv *sp = (Mat_SpTrsv *)F->data;

  PetscFunctionBegin;
  PetscOptionsBegin(PetscObjectComm((PetscObject)F), ((PetscObject)F)->prefix, "petsc-sptrsv triangular-solve options", "Mat");
  PetscCall(PetscOptionsEnum("-mat_sptrsv_format", "Storage the solves read: rows (csr) or columns (csc)", "MatSolverType sptrsv", SpTrsvFormats, (PetscEnum)sp->format, (PetscEnum *)&sp->format, NULL));
  { /* the help names the scalar limit of the CUDA paths, where PETSc's scalars have one (the text outlives this call) */
    static char help[512];

    PetscCall(SpTrsvDeviceBackendHelp("Where the solves run", help, sizeof(help)));
    PetscCall(PetscOptionsEnum("-mat_sptrsv_backend", help, "MatSolverType sptrsv", SpTrsvBackendTypes, (PetscEnum)sp->backendreq, (PetscEnum *)&sp->backendreq, NULL));
  }
  PetscCall(PetscOptionsBool("-mat_sptrsv_factor_device", "ILU: numeric factorization on the GPU when the solves run there (ICC: always on the host)", "MatSolverType sptrsv", sp->factor_device, &sp->factor_device, NULL));
  {
    const char *const orders[] = {"row", "level"};
    PetscInt          o        = sp->factor_device_cfg.level_order ? 1 : 0;
    PetscCall(PetscOptionsEList("-mat_sptrsv_factor_device_order", "ILU on the GPU: the order its warps take the rows in, level (the wavefront of L's DAG: more rows at once on 2-D grids in natural order) or row (increasing rows)", "MatSolverType sptrsv", orders, 2, orders[o], &o, NULL));
    sp->factor_device_cfg.level_order = (PetscBool)(o == 1);
  }
  {
    const char *const rows[] = {"global", "shared"};
    PetscInt          r      = sp->factor_device_cfg.rows_shared ? 1 : 0;
    PetscCall(PetscOptionsEList("-mat_sptrsv_factor_device_rows", "ILU on the GPU: where each row's warp keeps the row while it eliminates it, shared (the warp's shared memory, rows of up to 128 entries; longer rows in place) or global (the factor's arrays in place)", "MatSolverType sptrsv", rows, 2, rows[r], &r, NULL));
    sp->factor_device_cfg.rows_shared = (PetscBool)(r == 1);
  }
  PetscCall(PetscOptionsInt("-mat_sptrsv_factor_device_blocks_per_sm", "ILU on the GPU: at most this many blocks of 4 warps of the elimination resident per multiprocessor (fewer warps polling at once; 0: as many as fit; -1: " PetscStringize(SPTRSV_ILU_AUTO_CAP) " when L's levels hold at most " PetscStringize(SPTRSV_ILU_AUTO_CAP_WIDTH) " rows on average, else no cap)", "MatSolverType sptrsv", sp->factor_device_cfg.blocks_per_sm, &sp->factor_device_cfg.blocks_per_sm, NULL));
  if (sp->factor_device_cfg.blocks_per_sm < -1 || sp->factor_device_cfg.blocks_per_sm > 16) {
    char option[256];
    PetscCall(SpTrsvOptionName((PetscObject)F, "mat_sptrsv_factor_device_blocks_per_sm", option, sizeof(option)));
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "%s must be in [-1, 16] (-1: automatic; 0: no cap; 16 blocks of 4 warps fill a multiprocessor), got %" PetscInt_FMT, option, sp->factor_device_cfg.blocks_per_sm);
  }
  if (F->factortype == MAT_FACTOR_LU || F->factortype == MAT_FACTOR_CHOLESKY) PetscCall(SpTrsvDirectOptionsRead(PetscOptionsObject, (PetscObject)F, F->factortype, &sp->direct));
  PetscCall(PetscOptionsInt("-mat_sptrsv_setup_threads", "Host threads of the symbolic phase and the analysis (the first touch of their large arrays, loops over independent rows); 0: automatic (the CPUs this process may run on, shared with the node's other ranks, at most " PetscStringize(SPTRSV_THREADS_AUTO_MAX) "), 1: none", "MatSolverType sptrsv", sp->setup_threads_req, &sp->setup_threads_req, NULL));
  if (sp->setup_threads_req < 0 || sp->setup_threads_req > 256) {
    char option[256];
    PetscCall(SpTrsvOptionName((PetscObject)F, "mat_sptrsv_setup_threads", option, sizeof(option)));
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "%s must be in [0, 256] (0: automatic; 1: no threads), got %" PetscInt_FMT, option, sp->setup_threads_req);
  }
  PetscCall(PetscOptionsBool("-mat_sptrsv_compare_cusparse_memory", "CUDA: at the symbolic phase, ask cuSPARSE what its SpSV would hold for L and U (matrix + buffer), shown by -ksp_view", "MatSolverType sptrsv", sp->compare_cusparse, &sp->compare_cusparse, NULL));
  /* the choice's options, and every path's own (whichever is chosen reads them); else the path's own and, where it
     hands some triangles to a delegate path (sptrsv_supernodal's nested sync-free solver), the delegate's */
  if (sp->automatic) PetscCall(SpTrsvAutoOptionsRead(PetscOptionsObject, (PetscObject)F, &sp->autoopts));
  PetscCall(SpTrsvPathOptionsSetFromOptions(PetscOptionsObject, sp->path, &sp->opts));
  PetscOptionsEnd();
  if (!sp->automatic && sp->format == SPTRSV_FORMAT_CSC && !sp->path->csc) {
    char option[256];
    PetscCall(SpTrsvOptionName((PetscObject)F, "mat_sptrsv_format", option, sizeof(option)));
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_SUP, "%s reads rows only: %s csc is not supported, use csr", sp->path->solvertype, option);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatSpTrsvFreeSolves(Mat_SpTrsv *sp)
{
  PetscFunctionBegin;
  for (PetscInt t = 0; t < 2; t++)
    for (PetscInt k = 0; k < 2; k++) PetscCall(SpTrsvSolverDestroy(&sp->tri[t][k]));
  PetscCall(SpTrsvSolverDestroy(&sp->pair_u));
  sp->pair_u_path    = NULL;
  sp->pair_u_variant = NULL;
  sp->pair_u_ms      = 0;
  if (sp->backend) {
    if (sp->rperm) PetscCall((*sp->backend->perm_destroy)(&sp->rperm));
    if (sp->cperm) PetscCall((*sp->backend->perm_destroy)(&sp->cperm));
    if (sp->w1) PetscCall((*sp->backend->vec_free)(&sp->w1));
    if (sp->w2) PetscCall((*sp->backend->vec_free)(&sp->w2));
    PetscCall(SpTrsvStagingDestroy(&sp->staging));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  MatSpTrsvAutoCreate - MatSolverType sptrsv: the solver of L (k = 0) or U (k = 1) on the path the chooser ranks first among
  the candidates (-mat_sptrsv_auto_candidates, else every path) that take the factor type, the format and the backend;
  a candidate whose analysis or setup refuses the triangle is passed over for the next one (-ksp_view says so)
*/
static PetscErrorCode MatSpTrsvAutoCreate(Mat F, PetscInt k)
{
  Mat_SpTrsv            *sp = (Mat_SpTrsv *)F->data;
  SpTrsvTri              T  = k ? sp->fac->U : sp->fac->L;
  SpTrsvAutoChoice      *c  = &sp->choice[k];
  SpTrsvPath             cand[SPTRSV_AUTO_MAXPATHS];
  PetscInt               ncand = 0, npaths;
  const SpTrsvAutoModel *model = NULL;
  PetscBool              isauto, host = PETSC_FALSE;
  SpTrsvOp               op;
  SpTrsvStats            f;

  PetscFunctionBegin;
  PetscCall(SpTrsvPathGetCount(&npaths));
  for (PetscInt p = 0; p < (sp->autoopts.ncand ? sp->autoopts.ncand : npaths); p++) {
    SpTrsvPath path;

    if (sp->autoopts.ncand) path = sp->autoopts.cand[p];
    else PetscCall(SpTrsvPathGetByIndex(p, &path));
    if (!(SpTrsvFactorTypeIsSymmetric(sp->fac->ftype) ? path->icc : path->ilu)) continue;
    if (sp->format == SPTRSV_FORMAT_CSC && !path->csc) continue;
    if (!path->exec[sp->backend->slot]) continue;
    if (ncand < SPTRSV_AUTO_MAXPATHS) cand[ncand++] = path;
  }
  if (!ncand) {
    char option[256];
    PetscCall(SpTrsvOptionName((PetscObject)F, "mat_sptrsv_auto_candidates", option, sizeof(option)));
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_SUP, "%s: no candidate path solves %s factors in format %s on the %s backend (%s)", MATSOLVERSPTRSV, SpTrsvFactorTypeName(sp->fac->ftype), SpTrsvFormats[sp->format], sp->backend->name, sp->autoopts.ncand ? option : "every path");
  }
  PetscCall(PetscStrcasecmp(sp->autoopts.model, "auto", &isauto));
  if (!isauto) PetscCall(SpTrsvAutoModelFind(sp->autoopts.model, &model));
  else if (sp->backend->slot == SPTRSV_EXEC_CUDA) {
    char device[256];
    PetscCall(SpTrsvBackendCUDAGetDeviceName(device, sizeof(device)));
    PetscCall(SpTrsvAutoModelForDevice(device, &model)); /* NULL: the fallback rule */
  } else host = PETSC_TRUE;
  if (sp->autoopts.learn) { /* the default: start cheap, learn the solve count (autolearn.c) */
    c->model = model;
    PetscCall(MatSpTrsvAutoLearnCreate(F, k, ncand, cand));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(SpTrsvTriGetOp(T, PETSC_FALSE, &op));
  PetscCall(SpTrsvAutoFeatures(&op, &f));
  PetscCall(SpTrsvAutoRank(model, host, &sp->opts, &f, sp->autoopts.nsolves, ncand, cand, c));
  PetscCall(SpTrsvAutoRefine(&op, &sp->opts, c));
  PetscCall(MatSpTrsvAutoCreateFirst(F, k, NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* after the symbolic factorization: choose the backend, analyse L and U, allocate work vectors */
static PetscErrorCode MatSpTrsvAnalyze(Mat F)
{
  Mat_SpTrsv    *sp  = (Mat_SpTrsv *)F->data;
  SpTrsvFactor   fac = sp->fac;
  PetscInt       n   = fac->n;
  char           option[256];
  SpTrsvExecSlot slot;

  PetscFunctionBegin;
  PetscCall(MatSpTrsvFreeSolves(sp));
  sp->measure_done = PETSC_FALSE;
  PetscCall(SpTrsvOptionName((PetscObject)F, "mat_sptrsv_backend", option, sizeof(option)));
  PetscCall(SpTrsvBackendSelect(sp->backendreq, option, NULL, &slot, sp->backend_note, sizeof(sp->backend_note)));
  PetscCall(SpTrsvBackendGet(slot, &sp->backend));
  if (sp->automatic) {
    PetscCall(MatSpTrsvAutoCreate(F, 0));
    PetscCall(MatSpTrsvAutoCreate(F, 1));
  } else {
    sp->tripath[0] = sp->tripath[1] = sp->path;
    sp->triopts[0] = sp->triopts[1] = sp->opts;
    PetscCall(SpTrsvSolverCreatePairWithOptions(fac->L, fac->U, sp->format, sp->path, sp->backend, &sp->opts, &sp->tri[0][0], &sp->tri[0][1]));
  }
  if (fac->rperm) PetscCall((*sp->backend->perm_create)(n, fac->rperm, &sp->rperm));
  if (fac->cperm) PetscCall((*sp->backend->perm_create)(n, fac->cperm, &sp->cperm));
  PetscCall((*sp->backend->vec_alloc)(n, &sp->w1));
  PetscCall((*sp->backend->vec_alloc)(n, &sp->w2));
  PetscCall(SpTrsvStagingCreate(sp->backend, n, &sp->staging));
  for (PetscInt k = 0; k < 2; k++)
    if (sp->tripath[k]->citation) PetscCall(PetscCitationsRegister(sp->tripath[k]->citation, sp->tripath[k]->cited));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* where the numeric phase runs (after MatSpTrsvAnalyze(): the backend is known); sets up the GPU one */
static PetscErrorCode MatSpTrsvSetUpNumeric(Mat F, Mat A)
{
  Mat_SpTrsv *sp = (Mat_SpTrsv *)F->data;
  PetscBool   device;

  PetscFunctionBegin;
  sp->numeric_device = PETSC_FALSE;
  PetscCall(MatSpTrsvNumericOnDevice(F, sp->numeric_note, sizeof(sp->numeric_note), &device));
  if (device && (!sp->tri[0][0]->exec->update_values_device || !sp->tri[0][1]->exec->update_values_device)) PetscCall(PetscSNPrintf(sp->numeric_note, sizeof(sp->numeric_note), "host (the CUDA executor of %s takes host values only)", sp->tripath[sp->tri[0][0]->exec->update_values_device ? 1 : 0]->solvertype));
  else if (device) { /* else the note says why not */
    SpTrsvILUDeviceConfig rc; /* as it runs: the automatic cap resolved */
    const PetscBool       autocap = (PetscBool)(sp->factor_device_cfg.blocks_per_sm < 0);
    const SpTrsvSolver    sL      = sp->tri[0][0];
    const SpTrsvPlan      pL      = sL->plan; /* L's own levels when its analysis computed them (every ASAP plan of L's rows) */
    const PetscBool       reuse   = (PetscBool)(sL->format == SPTRSV_FORMAT_CSR && !sL->transpose && pL && pL->level_asap && pL->level && pL->n == sp->fac->n);

    PetscCall(SpTrsvFactorILUDeviceSetUp(A, sp->fac, &sp->factor_device_cfg, reuse ? pL->level : NULL, reuse ? pL->nlevels : 0));
    PetscCall(SpTrsvFactorILUDeviceGetConfig(sp->fac, &rc));
    sp->numeric_device = PETSC_TRUE;
    if (!rc.level_order && !rc.rows_shared) PetscCall(PetscStrncpy(sp->numeric_note, "device", sizeof(sp->numeric_note)));
    else PetscCall(PetscSNPrintf(sp->numeric_note, sizeof(sp->numeric_note), "device (rows in %s order%s)", rc.level_order ? "level" : "row", rc.rows_shared ? ", each in its warp's shared memory" : ""));
    if (rc.blocks_per_sm || autocap) {
      char part[96];
      if (rc.blocks_per_sm) PetscCall(PetscSNPrintf(part, sizeof(part), ", at most %" PetscInt_FMT " blocks per SM%s", rc.blocks_per_sm, autocap ? " (automatic: narrow levels)" : ""));
      else PetscCall(PetscStrncpy(part, ", no residency cap (automatic: wide levels)", sizeof(part)));
      PetscCall(PetscStrlcat(sp->numeric_note, part, sizeof(sp->numeric_note)));
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* a triangle moved to a path whose CUDA executor takes host values only (the measured check, a switch of the learning
   choice) while the numeric phase runs on the GPU: the numeric phase decides again where it runs */
static PetscErrorCode MatSpTrsvNumericPlaceCheck(Mat F, Mat A)
{
  Mat_SpTrsv *sp = (Mat_SpTrsv *)F->data;

  PetscFunctionBegin;
  if (sp->numeric_device && (!sp->tri[0][0]->exec->update_values_device || !sp->tri[0][1]->exec->update_values_device)) SpTrsvDevMemScope(&sp->mem, MatSpTrsvSetUpNumeric(F, A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the solve on backend arrays: x = Q^T U^{-1} L^{-1} P b, or for the transpose x = P^T L^{-T} U^{-T} Q b */
typedef struct {
  Mat         F;
  Mat_SpTrsv *sp;
  PetscBool   transpose;
  PetscBool   timed; /* time each triangle (the learning choice): the backend synchronized around it */
} MatSpTrsvSolveCtx;

/* s: b -> x, timed for the learning choice as triangle k when ctx asks for it */
static PetscErrorCode MatSpTrsvApplyTimed(MatSpTrsvSolveCtx *ctx, PetscInt k, SpTrsvSolver s, const PetscScalar *b, PetscScalar *x)
{
  PetscReal ms;

  PetscFunctionBegin;
  if (!ctx->timed) {
    PetscCall(SpTrsvSolverApply(s, b, x));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(MatSpTrsvTimeSolves(ctx->sp->backend, s, b, x, 1, &ms));
  PetscCall(MatSpTrsvAutoLearnTimed(ctx->F, k, ms));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatSpTrsvSolveArrays(void *ctx, const PetscScalar *b, PetscScalar *x, PetscLogDouble *flops)
{
  Mat_SpTrsv             *sp        = ((MatSpTrsvSolveCtx *)ctx)->sp;
  const PetscBool         transpose = ((MatSpTrsvSolveCtx *)ctx)->transpose;
  const SpTrsvBackendOps *be        = sp->backend;
  const PetscInt          n         = sp->fac->n;
  SpTrsvSolver            first     = transpose ? sp->tri[1][1] : sp->tri[0][0];
  SpTrsvSolver            second    = transpose ? sp->tri[1][0] : sp->tri[0][1];
  void                   *pin       = transpose ? sp->cperm : sp->rperm;
  void                   *pout      = transpose ? sp->rperm : sp->cperm;
  const PetscScalar      *in        = b;

  PetscFunctionBegin;
  if (n) {
    if (pin) {
      PetscCall((*be->gather)(n, pin, b, sp->w1));
      in = sp->w1;
    }
    PetscCall(MatSpTrsvApplyTimed((MatSpTrsvSolveCtx *)ctx, 0, first, in, sp->w2));
    PetscCall(MatSpTrsvApplyTimed((MatSpTrsvSolveCtx *)ctx, 1, second, sp->w2, pout ? sp->w1 : x));
    if (pout) PetscCall((*be->scatter)(n, pout, sp->w1, x));
  }
  *flops = SpTrsvSolverFlops(first) + SpTrsvSolverFlops(second);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatSolve_SpTrsv_Private(Mat F, Vec b, Vec x, PetscBool transpose)
{
  Mat_SpTrsv       *sp  = (Mat_SpTrsv *)F->data;
  MatSpTrsvSolveCtx ctx = {F, sp, transpose, PETSC_FALSE};

  PetscFunctionBegin;
  PetscCall(MatSpTrsvAutoLearnSolve(F, transpose, &ctx.timed)); /* the learning choice: count, time, look */
  PetscCall(PetscLogEventBegin(SPTRSV_Solve, F, b, x, 0));
  if (transpose && !sp->tri[1][0]) {
    /* transposed triangles are analysed on first use: U^T is lower, L^T is upper */
    PetscCall(SpTrsvSolverCreateWithOptions(sp->fac->U, PETSC_TRUE, sp->format, sp->tripath[1], sp->backend, &sp->triopts[1], &sp->tri[1][1]));
    PetscCall(SpTrsvSolverCreateWithOptions(sp->fac->L, PETSC_TRUE, sp->format, sp->tripath[0], sp->backend, &sp->triopts[0], &sp->tri[1][0]));
    if (sp->fac->host_stale) { /* the values of a GPU numeric phase: device to device, no download */
      PetscCall(MatSpTrsvSolverFromDevice(sp, sp->tri[1][1]));
      PetscCall(MatSpTrsvSolverFromDevice(sp, sp->tri[1][0]));
    }
  }
  if (sp->fac->host_stale) { /* after a GPU numeric phase that stopped early (an error): its values, not the host's */
    for (PetscInt t = 0; t < 2; t++)
      for (PetscInt k = 0; k < 2; k++)
        if (sp->tri[t][k] && sp->tri[t][k]->state != sp->tri[t][k]->tri->state) PetscCall(MatSpTrsvSolverFromDevice(sp, sp->tri[t][k]));
  }
  SpTrsvDevMemScope(&sp->mem, SpTrsvStagingApply(&sp->staging, b, x, PETSC_FALSE, MatSpTrsvSolveArrays, &ctx));
  PetscCall(PetscLogEventEnd(SPTRSV_Solve, F, b, x, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatSolve_SpTrsv(Mat F, Vec b, Vec x)
{
  PetscFunctionBegin;
  PetscCall(MatSolve_SpTrsv_Private(F, b, x, PETSC_FALSE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatSolveTranspose_SpTrsv(Mat F, Vec b, Vec x)
{
  PetscFunctionBegin;
  PetscCall(MatSolve_SpTrsv_Private(F, b, x, PETSC_TRUE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* one solve per column of the dense right-hand side */
static PetscErrorCode MatMatSolve_SpTrsv_Private(Mat F, Mat B, Mat X, PetscBool transpose)
{
  PetscInt N;

  PetscFunctionBegin;
  PetscCall(MatGetSize(B, NULL, &N));
  for (PetscInt c = 0; c < N; c++) {
    Vec bc, xc;
    PetscCall(MatDenseGetColumnVecRead(B, c, &bc));
    PetscCall(MatDenseGetColumnVecWrite(X, c, &xc));
    PetscCall(MatSolve_SpTrsv_Private(F, bc, xc, transpose));
    PetscCall(MatDenseRestoreColumnVecWrite(X, c, &xc));
    PetscCall(MatDenseRestoreColumnVecRead(B, c, &bc));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatMatSolve_SpTrsv(Mat F, Mat B, Mat X)
{
  PetscFunctionBegin;
  PetscCall(MatMatSolve_SpTrsv_Private(F, B, X, PETSC_FALSE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatMatSolveTranspose_SpTrsv(Mat F, Mat B, Mat X)
{
  PetscFunctionBegin;
  PetscCall(MatMatSolve_SpTrsv_Private(F, B, X, PETSC_TRUE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatSpTrsvCheckInput(Mat F, Mat A)
{
  PetscBool isaij;

  PetscFunctionBegin;
  PetscCheck(A->rmap->n == A->cmap->n, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "%s needs a square matrix, got %" PetscInt_FMT " x %" PetscInt_FMT, F->solvertype, A->rmap->n, A->cmap->n);
  PetscCall(PetscObjectBaseTypeCompare((PetscObject)A, MATSEQAIJ, &isaij));
  PetscCheck(isaij, PETSC_COMM_SELF, PETSC_ERR_SUP, "%s does not support matrix type %s (use a MATSEQAIJ matrix, or -pc_type bjacobi/asm in parallel)", F->solvertype, ((PetscObject)A)->type_name);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  the numeric phase: new values on the symbolic pattern; the analysis is reused.
  Failures behave as PETSc's own ILU/ICC (MatLUFactorNumeric_SeqAIJ, MatPivotCheck_none()): with
  A->erroriffailure (PCSetUp_ILU/ICC set it under -ksp_error_if_not_converged or PCSetErrorIfFailure())
  a zero pivot or a NaN/Inf is an error naming the row; otherwise a zero pivot sets the factor's error
  (MAT_FACTOR_NUMERIC_ZEROPIVOT with the row and |pivot|, which PCSetUp turns into PC_FACTOR_NUMERIC_ZEROPIVOT,
  MatSolve() into Inf and KSP into KSP_DIVERGED_PC_FAILED), and a NaN/Inf flows into the solves
  (KSP_DIVERGED_NANORINF). A successful factorization clears an earlier error and the solve operations stay
  set either way, so a later numeric factorization on the same factor works (PETSc 3.18's PCSetUp_ILU/ICC do
  not call it again on the same pattern while the factor's error is set, for PETSc's own factor as for ours:
  MatFactorClearError() on PCFactorGetMatrix() lets them).
*/
static PetscErrorCode MatFactorNumeric_SpTrsv(Mat F, Mat A, const MatFactorInfo *info)
{
  Mat_SpTrsv *sp = (Mat_SpTrsv *)F->data;

  PetscFunctionBegin;
  PetscCall(MatSpTrsvCheckInput(F, A));
  PetscCall(PetscLogEventBegin(SPTRSV_Numeric, F, A, 0, 0));
  PetscCall(MatSpTrsvNumericPlaceCheck(F, A)); /* after a switch of the learning choice */
  sp->learn_numeric++;
  if (sp->fac->ftype == MAT_FACTOR_ICC) PetscCall(SpTrsvFactorICCNumeric(A, info, sp->fac));
  else if (sp->fac->ftype == MAT_FACTOR_CHOLESKY) PetscCall(SpTrsvFactorCholeskyNumeric(A, info, sp->fac));
  else if (sp->fac->ftype == MAT_FACTOR_LU) {
    PetscCall(SpTrsvFactorLUNumeric(A, info, sp->fac));
    if (SpTrsvFactorDirectHead(sp->fac)->rebuilt) { /* a new pivot order: new triangles, a new analysis */
      SpTrsvDevMemScope(&sp->mem, MatSpTrsvAnalyze(F));
      SpTrsvDevMemScope(&sp->mem, MatSpTrsvSetUpNumeric(F, A));
    }
  } else if (sp->numeric_device) SpTrsvDevMemScope(&sp->mem, SpTrsvFactorILUNumericDevice(A, info, sp->fac));
  else PetscCall(SpTrsvFactorILUNumeric(A, info, sp->fac));
  F->factorerrortype             = sp->fac->error;
  F->factorerror_zeropivot_value = sp->fac->error ? sp->fac->zeropivot_value : 0.0;
  F->factorerror_zeropivot_row   = sp->fac->error ? sp->fac->zeropivot_row : 0;
  if (sp->fac->error) PetscCall(PetscInfo(F, "Zero pivot in row %" PetscInt_FMT " of the factored matrix, |pivot| %g: factor error MAT_FACTOR_NUMERIC_ZEROPIVOT\n", sp->fac->zeropivot_row, (double)sp->fac->zeropivot_value));
  for (PetscInt t = 0; t < 2; t++)
    for (PetscInt k = 0; k < 2; k++)
      if (sp->tri[t][k]) {
        if (sp->numeric_device) PetscCall(MatSpTrsvSolverFromDevice(sp, sp->tri[t][k]));
        else PetscCall(SpTrsvSolverUpdateValues(sp->tri[t][k]));
      }
  if (sp->automatic && !sp->measure_done && !sp->fac->error) {
    SpTrsvDevMemScope(&sp->mem, MatSpTrsvAutoMeasure(F));
    PetscCall(MatSpTrsvNumericPlaceCheck(F, A)); /* the next numeric phases */
  }
  PetscCall(PetscLogEventEnd(SPTRSV_Numeric, F, A, 0, 0));
  F->ops->solve                 = MatSolve_SpTrsv;
  F->ops->solvetranspose        = MatSolveTranspose_SpTrsv;
  F->ops->matsolve              = MatMatSolve_SpTrsv;
  F->ops->matsolvetranspose     = MatMatSolveTranspose_SpTrsv;
  F->assembled                  = PETSC_TRUE;
  F->preallocated               = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatSpTrsvSymbolicBegin(Mat F, Mat A, MatFactorType ftype, const MatFactorInfo *info)
{
  Mat_SpTrsv *sp = (Mat_SpTrsv *)F->data;

  PetscFunctionBegin;
  sp->fill_given = info->fill;
  PetscCall(MatSpTrsvCheckInput(F, A));
  PetscCall(MatSpTrsvSetFromOptions(F));
  PetscCall(MatSpTrsvFreeSolves(sp));
  PetscCall(SpTrsvFactorDestroy(&sp->fac));
  PetscCall(SpTrsvFactorCreate(ftype, A->rmap->n, &sp->fac));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* after the factor's pattern: the analysis, the side job if the analysis did not run it, the numeric phase's setup */
static PetscErrorCode MatSpTrsvSymbolicAnalyze(Mat F, Mat A, MatSpTrsvPrefetch *pf)
{
  Mat_SpTrsv *sp = (Mat_SpTrsv *)F->data;

  PetscFunctionBegin;
  SpTrsvDevMemScope(&sp->mem, MatSpTrsvAnalyze(F));
  PetscCall(MatSpTrsvPrefetchFlush(pf));
  PetscCall(PetscLogEventBegin(SPTRSV_NumericSetUp, F, A, 0, 0));
  SpTrsvDevMemScope(&sp->mem, MatSpTrsvSetUpNumeric(F, A));
  PetscCall(PetscLogEventEnd(SPTRSV_NumericSetUp, F, A, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the factor's pattern, the analysis and the numeric phase's setup (MatSpTrsvSymbolic(), under the setup's threads) */
static PetscErrorCode MatSpTrsvSymbolicRun(Mat F, Mat A, MatFactorType ftype, IS row, IS col, const MatFactorInfo *info)
{
  Mat_SpTrsv       *sp = (Mat_SpTrsv *)F->data;
  MatSpTrsvPrefetch pf;
  PetscErrorCode    ierr;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(SPTRSV_FactorSym, F, A, 0, 0));
  switch (ftype) {
  case MAT_FACTOR_ILU:
    PetscCall(SpTrsvFactorILUSymbolic(A, row, col, info, sp->fac));
    break;
  case MAT_FACTOR_ICC:
    PetscCall(SpTrsvFactorICCSymbolic(A, row, info, sp->fac));
    break;
  case MAT_FACTOR_LU:
    PetscCall(SpTrsvFactorLUSymbolic(A, col, info, &sp->direct, sp->fac));
    break;
  case MAT_FACTOR_CHOLESKY:
    PetscCall(SpTrsvFactorCholeskySymbolic(A, row, info, &sp->direct, sp->fac));
    break;
  default:
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_SUP, "Factor type %s", MatFactorTypes[ftype]);
  }
  PetscCall(PetscLogEventEnd(SPTRSV_FactorSym, F, A, 0, 0));
  PetscCall(MatSpTrsvPrefetchBegin(F, A, &pf)); /* A and the patterns uploaded while threads analyse (prefetch.c) */
  ierr = MatSpTrsvSymbolicAnalyze(F, A, &pf);
  {
    const PetscErrorCode ierr2 = MatSpTrsvPrefetchEnd(&pf);
    if (!ierr) ierr = ierr2;
  }
  PetscCall(ierr);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* every symbolic phase: the factor's pattern (ILU(k), ICC(k), SuperLU's LU, CHOLMOD's Cholesky), then the analysis,
   with -mat_sptrsv_setup_threads host threads (threads.h), back to none after it, an error included */
static PetscErrorCode MatSpTrsvSymbolic(Mat F, Mat A, MatFactorType ftype, IS row, IS col, const MatFactorInfo *info)
{
  Mat_SpTrsv    *sp;
  PetscInt       prev_threads;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(SPTRSV_Symbolic, F, A, 0, 0));
  PetscCall(MatSpTrsvSymbolicBegin(F, A, ftype, info));
  sp = (Mat_SpTrsv *)F->data;
  PetscCall(SpTrsvThreadsPush(sp->setup_threads_req, &prev_threads));
  sp->setup_threads = SpTrsvThreadsCurrent();
  ierr              = MatSpTrsvSymbolicRun(F, A, ftype, row, col, info);
  PetscCall(SpTrsvThreadsPop(prev_threads));
  PetscCall(ierr);
  PetscCall(MatSpTrsvCompareCusparse(F));
  PetscCall(PetscLogEventEnd(SPTRSV_Symbolic, F, A, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatILUFactorSymbolic_SpTrsv(Mat F, Mat A, IS row, IS col, const MatFactorInfo *info)
{
  PetscFunctionBegin;
  PetscCall(MatSpTrsvSymbolic(F, A, MAT_FACTOR_ILU, row, col, info));
  F->ops->lufactornumeric = MatFactorNumeric_SpTrsv;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatICCFactorSymbolic_SpTrsv(Mat F, Mat A, IS perm, const MatFactorInfo *info)
{
  PetscFunctionBegin;
  PetscCall(MatSpTrsvSymbolic(F, A, MAT_FACTOR_ICC, perm, perm, info));
  F->ops->choleskyfactornumeric = MatFactorNumeric_SpTrsv;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* LU (SuperLU): the column IS is the ordering; the row order comes from SuperLU's pivoting */
static PetscErrorCode MatLUFactorSymbolic_SpTrsv(Mat F, Mat A, IS row, IS col, const MatFactorInfo *info)
{
  PetscFunctionBegin;
  PetscCall(MatSpTrsvSymbolic(F, A, MAT_FACTOR_LU, row, col, info));
  F->ops->lufactornumeric = MatFactorNumeric_SpTrsv;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatCholeskyFactorSymbolic_SpTrsv(Mat F, Mat A, IS perm, const MatFactorInfo *info)
{
  PetscFunctionBegin;
  PetscCall(MatSpTrsvSymbolic(F, A, MAT_FACTOR_CHOLESKY, perm, perm, info));
  F->ops->choleskyfactornumeric = MatFactorNumeric_SpTrsv;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatGetInfo_SpTrsv(Mat F, MatInfoType flag, MatInfo *info)
{
  Mat_SpTrsv *sp = (Mat_SpTrsv *)F->data;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(info, sizeof(*info)));
  info->block_size = 1.0;
  if (sp->fac && sp->fac->L) {
    PetscLogDouble nz = (PetscLogDouble)sp->fac->L->i[sp->fac->n] + sp->fac->U->i[sp->fac->n] + sp->fac->n;
    info->nz_allocated      = nz;
    info->nz_used           = nz;
    info->fill_ratio_needed = sp->fac->nnzA ? nz / sp->fac->nnzA : 0;
    info->fill_ratio_given  = sp->fill_given;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatView_SpTrsv(Mat F, PetscViewer viewer)
{
  Mat_SpTrsv       *sp = (Mat_SpTrsv *)F->data;
  PetscBool         iascii;
  PetscViewerFormat format;
  const char       *names[2] = {"L", "U"};

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &iascii));
  if (!iascii) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscViewerGetFormat(viewer, &format));
  if (format != PETSC_VIEWER_ASCII_INFO && format != PETSC_VIEWER_ASCII_INFO_DETAIL && format != PETSC_VIEWER_DEFAULT) PetscFunctionReturn(PETSC_SUCCESS);
  if (sp->automatic && sp->tri[0][0]) PetscCall(PetscViewerASCIIPrintf(viewer, "petsc-sptrsv: path %s (automatic: L %s, U %s), format %s\n", MATSOLVERSPTRSV, sp->tripath[0]->solvertype, sp->tripath[1]->solvertype, SpTrsvFormats[sp->format]));
  else PetscCall(PetscViewerASCIIPrintf(viewer, "petsc-sptrsv: path %s, format %s\n", sp->automatic ? MATSOLVERSPTRSV : sp->path->solvertype, SpTrsvFormats[sp->format]));
  if (!sp->fac || !sp->backend) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscViewerASCIIPushTab(viewer));
  PetscCall(PetscViewerASCIIPrintf(viewer, "backend %s (%s)%s\n", sp->backend->name, sp->backend_note, sp->staging.copies ? "; vectors copied to and from the device" : ""));
  PetscCall(SpTrsvStagingView(&sp->staging, viewer));
  if (sp->backend->memtype != PETSC_MEMTYPE_HOST) PetscCall(PetscViewerASCIIPrintf(viewer, "CUDA graphs %s\n", sp->opts.use_graph ? "on" : "off"));
  if (SpTrsvFactorDirectHead(sp->fac)) PetscCall(SpTrsvFactorDirectView(sp->fac, viewer));
  else PetscCall(PetscViewerASCIIPrintf(viewer, "factor %s(%" PetscInt_FMT "), ordering %s, shift %g (%" PetscInt_FMT " tries)\n", sp->fac->ftype == MAT_FACTOR_ICC ? "ICC" : "ILU", sp->fac->levels, (sp->fac->rperm || sp->fac->cperm) ? "permuted" : "natural", (double)sp->fac->shift_amount, sp->fac->nshifts));
  PetscCall(PetscViewerASCIIPrintf(viewer, "numeric factorization: %s\n", sp->numeric_note));
  PetscCall(PetscViewerASCIIPrintf(viewer, "setup: %" PetscInt_FMT " host thread%s (-mat_sptrsv_setup_threads %" PetscInt_FMT "%s)\n", sp->setup_threads, sp->setup_threads == 1 ? "" : "s", sp->setup_threads_req, sp->setup_threads_req ? "" : ": automatic"));
  PetscCall(MatSpTrsvViewMemory(F, viewer));
  for (PetscInt t = 0; t < 2; t++) {
    for (PetscInt k = 0; k < 2; k++) {
      SpTrsvSolver s = sp->tri[t][k];
      if (!s) continue;
      PetscCall(PetscViewerASCIIPrintf(viewer, "%s%s:\n", names[k], t ? "^T" : ""));
      PetscCall(PetscViewerASCIIPushTab(viewer));
      if (sp->automatic && !t) PetscCall(SpTrsvAutoView(&sp->choice[k], viewer));
      PetscCall(SpTrsvPlanView(s->plan, viewer));
      PetscCall(PetscViewerASCIIPopTab(viewer));
    }
  }
  PetscCall(PetscViewerASCIIPopTab(viewer));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatFactorGetSolverType_SpTrsv(Mat F, MatSolverType *type)
{
  Mat_SpTrsv *sp = (Mat_SpTrsv *)F->data;

  PetscFunctionBegin;
  *type = sp->automatic ? MATSOLVERSPTRSV : sp->path->solvertype;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatSpTrsvGetStats_SpTrsv(Mat F, SpTrsvStats *L, SpTrsvStats *U)
{
  Mat_SpTrsv *sp = (Mat_SpTrsv *)F->data;

  PetscFunctionBegin;
  PetscCheck(sp->tri[0][0], PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "Factor has not been analysed yet");
  if (L) *L = sp->tri[0][0]->plan->stats;
  if (U) *U = sp->tri[0][1]->plan->stats;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatSpTrsvGetBackend_SpTrsv(Mat F, const char **name)
{
  Mat_SpTrsv *sp = (Mat_SpTrsv *)F->data;

  PetscFunctionBegin;
  *name = sp->backend ? sp->backend->name : "none";
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the device record of the factor's staging, with its work vectors, permutations and the executors' arrays checked */
static PetscErrorCode MatSpTrsvGetDeviceInfo_SpTrsv(Mat F, SpTrsvDeviceInfo *info)
{
  Mat_SpTrsv *sp = (Mat_SpTrsv *)F->data;
  const void *bufs[4 + 4 * 16];
  PetscInt    n = 0, m;

  PetscFunctionBegin;
  PetscCheck(sp->backend, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "MatSpTrsvGetDeviceInfo: the factor has no symbolic factorization yet");
  bufs[n++] = sp->w1;
  bufs[n++] = sp->w2;
  bufs[n++] = sp->rperm;
  bufs[n++] = sp->cperm;
  for (PetscInt t = 0; t < 2; t++)
    for (PetscInt k = 0; k < 2; k++) {
      PetscCall(SpTrsvSolverGetDeviceBuffers(sp->tri[t][k], 16, &bufs[n], &m));
      n += m;
    }
  if (sp->backend->memtype == PETSC_MEMTYPE_HOST) n = 0; /* host arrays: nothing to check */
  PetscCall(SpTrsvStagingGetDeviceInfo(&sp->staging, n, bufs, info));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatDestroy_SpTrsv(Mat F)
{
  Mat_SpTrsv *sp = (Mat_SpTrsv *)F->data;

  PetscFunctionBegin;
  PetscCall(MatSpTrsvFreeSolves(sp));
  PetscCall(SpTrsvFactorDestroy(&sp->fac));
  SpTrsvDevMemDetach(&sp->mem);
  PetscCall(PetscFree(F->data));
  PetscCall(PetscObjectComposeFunction((PetscObject)F, "MatFactorGetSolverType_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)F, "MatSpTrsvGetStats_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)F, "MatSpTrsvGetBackend_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)F, "MatSpTrsvGetDeviceInfo_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)F, "MatSpTrsvGetDeviceMemory_C", NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  MatGetFactor_SpTrsv - the factor matrix of a path (ILU, ICC; LU by SuperLU, Cholesky by CHOLMOD); path NULL: MatSolverType sptrsv, a path per
  triangle chosen at the symbolic phase
*/
PetscErrorCode MatGetFactor_SpTrsv(Mat A, MatFactorType ftype, SpTrsvPath path, Mat *F)
{
  Mat         B;
  Mat_SpTrsv *sp;
  const char *stype = path ? path->solvertype : MATSOLVERSPTRSV;

  PetscFunctionBegin;
  PetscCall(SpTrsvEventsRegister()); /* the events, when a program registered the constructor itself */
  PetscCheck(ftype == MAT_FACTOR_ILU || ftype == MAT_FACTOR_ICC || ftype == MAT_FACTOR_LU || ftype == MAT_FACTOR_CHOLESKY, PETSC_COMM_SELF, PETSC_ERR_SUP, "%s supports ILU, ICC, LU and Cholesky factorizations", stype);
  PetscCheck(A->rmap->n == A->cmap->n, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "%s needs a square matrix, got %" PetscInt_FMT " x %" PetscInt_FMT, stype, A->rmap->n, A->cmap->n);
  PetscCall(MatCreate(PetscObjectComm((PetscObject)A), &B));
  PetscCall(MatSetSizes(B, A->rmap->n, A->cmap->n, PETSC_DETERMINE, PETSC_DETERMINE));
  PetscCall(PetscStrallocpy("sptrsv", &((PetscObject)B)->type_name));
  PetscCall(MatSetUp(B));
  PetscCall(PetscNew(&sp));
  sp->path       = path;
  sp->automatic  = (PetscBool)!path;
  PetscCall(PetscStrncpy(sp->autoopts.model, "auto", sizeof(sp->autoopts.model)));
  sp->autoopts.margin   = 2.0;
  sp->autoopts.remember = PETSC_TRUE;
  sp->format     = SPTRSV_FORMAT_CSR;
  sp->backendreq = SPTRSV_BACKEND_AUTO;
  sp->factor_device       = PETSC_TRUE; /* used when the solves run on the GPU */
  sp->factor_device_cfg.level_order = PETSC_TRUE; /* its rows in level order: 4.3x less PCSetUp than row order on ex2 1000^2 (docs/perf-data/e2e-tts-run3-*) */
  /* each row in its warp's shared memory, the residency cap automatic: 578 against 635 us a refactorization of the long-run
     workload (docs/perf-data/refactor-variants-2026-11-30.txt) */
  sp->factor_device_cfg.rows_shared   = PETSC_TRUE;
  sp->factor_device_cfg.blocks_per_sm = PETSC_DECIDE;
  PetscCall(SpTrsvPathOptionsInitialize(&sp->opts));
  B->data        = sp;
  B->factortype  = ftype;
  B->canuseordering = PETSC_TRUE;
  /* as PETSc's own: natural for ILU/ICC, nested dissection for LU/Cholesky */
  PetscCall(PetscStrallocpy(ftype == MAT_FACTOR_ILU || ftype == MAT_FACTOR_ICC ? MATORDERINGNATURAL : MATORDERINGND, (char **)&B->preferredordering[ftype]));
  PetscCall(SpTrsvDirectOptionsInitialize(&sp->direct));
  PetscCall(PetscFree(B->solvertype));
  PetscCall(PetscStrallocpy(stype, &B->solvertype));
  if (ftype == MAT_FACTOR_ILU) B->ops->ilufactorsymbolic = MatILUFactorSymbolic_SpTrsv;
  else if (ftype == MAT_FACTOR_ICC) B->ops->iccfactorsymbolic = MatICCFactorSymbolic_SpTrsv;
  else if (ftype == MAT_FACTOR_LU) B->ops->lufactorsymbolic = MatLUFactorSymbolic_SpTrsv;
  else B->ops->choleskyfactorsymbolic = MatCholeskyFactorSymbolic_SpTrsv;
  B->ops->getinfo = MatGetInfo_SpTrsv;
  B->ops->view    = MatView_SpTrsv;
  B->ops->destroy = MatDestroy_SpTrsv;
  B->assembled    = PETSC_TRUE; /* -ksp_view views the factor */
  B->preallocated = PETSC_TRUE;
  PetscCall(PetscObjectComposeFunction((PetscObject)B, "MatFactorGetSolverType_C", MatFactorGetSolverType_SpTrsv));
  PetscCall(PetscObjectComposeFunction((PetscObject)B, "MatSpTrsvGetStats_C", MatSpTrsvGetStats_SpTrsv));
  PetscCall(PetscObjectComposeFunction((PetscObject)B, "MatSpTrsvGetBackend_C", MatSpTrsvGetBackend_SpTrsv));
  PetscCall(PetscObjectComposeFunction((PetscObject)B, "MatSpTrsvGetDeviceInfo_C", MatSpTrsvGetDeviceInfo_SpTrsv));
  PetscCall(PetscObjectComposeFunction((PetscObject)B, "MatSpTrsvGetDeviceMemory_C", MatSpTrsvGetDeviceMemory_SpTrsv));
  *F = B;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   MatSpTrsvGetStats - analysis figures of the L and U solves of a petsc-sptrsv factor

   Not Collective

   Input Parameter:
.  F - a factor matrix from an sptrsv_* MatSolverType, after the symbolic factorization

   Output Parameters:
+  L - statistics of the L solve (or NULL)
-  U - statistics of the U solve (or NULL)

   Level: intermediate

.seealso: `SpTrsvStats`, `MatSpTrsvGetBackend()`
@*/
PetscErrorCode MatSpTrsvGetStats(Mat F, SpTrsvStats *L, SpTrsvStats *U)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(F, MAT_CLASSID, 1);
  PetscUseMethod(F, "MatSpTrsvGetStats_C", (Mat, SpTrsvStats *, SpTrsvStats *), (F, L, U));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
   MatSpTrsvGetBackend - name of the backend ("host" or "cuda") a petsc-sptrsv factor solves on

   Not Collective

   Input Parameter:
.  F - a factor matrix from an sptrsv_* MatSolverType

   Output Parameter:
.  name - the backend's name ("none" before the symbolic factorization)

   Level: intermediate

.seealso: `MatSpTrsvGetStats()`
@*/
PetscErrorCode MatSpTrsvGetBackend(Mat F, const char **name)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(F, MAT_CLASSID, 1);
  PetscUseMethod(F, "MatSpTrsvGetBackend_C", (Mat, const char **), (F, name));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
   MatSpTrsvGetDeviceInfo - the GPU a petsc-sptrsv factor runs on, from the factor's own record (made at its symbolic
   factorization on the CUDA backend), with a check that its device buffers (work vectors, permutations, staging
   buffers, the triangles' arrays) live on that GPU

   Not Collective

   Input Parameter:
.  F - a factor matrix of an sptrsv_* MatSolverType, after its symbolic factorization

   Output Parameter:
.  info - id -1 (nothing checked) on the host backend; else device number, PCI bus id, name, devices seen, and
          nbuffers / nforeign: buffers checked, and those not on that device (0)

   Level: intermediate

.seealso: `SpTrsvDeviceInfo`, `PCGSGetDeviceInfo()`, `MatSpTrsvGetBackend()`
@*/
PetscErrorCode MatSpTrsvGetDeviceInfo(Mat F, SpTrsvDeviceInfo *info)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(F, MAT_CLASSID, 1);
  PetscUseMethod(F, "MatSpTrsvGetDeviceInfo_C", (Mat, SpTrsvDeviceInfo *), (F, info));
  PetscFunctionReturn(PETSC_SUCCESS);
}
