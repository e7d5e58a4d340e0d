/* SpTrsvSolver: one oriented triangle op(T) bound to a storage format, a path's plan and a backend's executor */
#include <sptrsv/backend.h>
#include <sptrsv/paths/locality.h> /* SpTrsvLocalityPartitioners, SpTrsvLocalityKernels */

/*
  SpTrsvSolverOptionsInitialize - the defaults of every path's options: graphs on, one pass per fused level; sync-free:
  level dispatch with ASAP levels, CSR storage, up to 32 lanes per row, polls without pause, one block per ticket, the
  solution's indexing (row or dispatch position) chosen by the analysis
  (docs/PERFORMANCE.md, "Sync-free solves", has the measurements behind them). Factor matrices then read the options
  with their prefix.
*/
PetscErrorCode SpTrsvSolverOptionsInitialize(SpTrsvSolverOptions *opts)
{
  PetscFunctionBegin;
  opts->prefix[0]     = 0;
  opts->use_graph     = PETSC_TRUE;
  opts->fuse_passes   = 1;
  opts->alap          = PETSC_FALSE;
  opts->warpell       = PETSC_FALSE;
  opts->natural       = PETSC_FALSE;
  opts->max_lanes     = 32;
  opts->spin_ns       = 0;
  opts->blocks_per_sm = 0;
  opts->relabel       = SPTRSV_RELABEL_AUTO;
  opts->analysis_device = PETSC_TRUE; /* CUDA backend only (SpTrsvSolverCreate_Private turns it off elsewhere) */
  opts->subgraph_rows   = 0;          /* locality: the shared-memory capacity of a block */
  opts->locality_partition = 0;      /* locality: auto (SPTRSV_LOCALITY_PARTITION_AUTO) */
  opts->locality_sms       = 132;    /* locality: the H100's multiprocessors (SPTRSV_LOCALITY_DEFAULT_SMS) */
  opts->locality_stage     = 2;      /* locality: pointers and entries in shared memory where they fit */
  opts->locality_pack      = PETSC_TRUE;
  opts->locality_kernel    = 0;      /* locality: auto (SPTRSV_LOCALITY_KERNEL_AUTO) */
  opts->locality_block_cond = 1e6;   /* locality, blocks kernel: SPTRSV_BLOCKS_COND */
  opts->locality_block_rows = 0;     /* locality, blocks kernel: the cost model's choice */
  opts->supernode_mode  = 0;          /* supernodal: auto (push for a lower op(T), pull for an upper one) */
  opts->invert_diag     = -1;           /* supernodal: auto, each well-conditioned diagonal block inverted */
  opts->invert_cond     = 1e6;          /* SPTRSV_SUPERNODE_INVERT_COND */
  opts->supernode_merge = PETSC_FALSE;
  opts->supernode_relax = -1;           /* SPTRSV_SUPERNODE_RELAX_AUTO */
  opts->supernode_cublas_width = 256; /* SPTRSV_SUPERNODE_CUBLAS_WIDTH */
  opts->supernode_split        = 0;   /* SPTRSV_SUPERNODE_SPLIT_AUTO */
  opts->supernode_min_width    = 16;  /* supernodal: triangles without a supernode this wide (ILU factors) go to sync-free */
  opts->pinv_parts      = 0;          /* pinv: whole levels (SPTRSV_PINV_PARTS_LEVELS) */
  opts->pinv_fill       = 1.0;        /* pinv: no fill */
  opts->pinv_tol        = 1000 * PETSC_MACHINE_EPSILON;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* a global option naming one of the values of list (PetscOptionsEnum's layout: the names, then the type name, its prefix and
   NULL), case-insensitive: *value = its index when given; an error naming the values (alts) otherwise */
static PetscErrorCode SpTrsvOptionsGetChoice(const char *name, const char *const *list, const char *alts, PetscInt *value)
{
  char      str[16];
  PetscBool flg, match = PETSC_FALSE;
  PetscInt  n = 0;

  PetscFunctionBegin;
  PetscCall(PetscOptionsGetString(NULL, NULL, name, str, sizeof(str), &flg));
  if (!flg) PetscFunctionReturn(PETSC_SUCCESS);
  while (list[n + 2]) n++; /* the names: the entries before the type name and its prefix (then NULL) */
  for (PetscInt k = 0; k < n && !match; k++) {
    PetscCall(PetscStrcasecmp(str, list[k], &match));
    if (match) *value = k;
  }
  PetscCheck(match, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "%s must be %s, got %s", name, alts, str);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvSolverOptionsDefault - SpTrsvSolverOptionsInitialize(); a program that uses the solver API directly (no factor
  Mat, so no prefix) may override them with the global -mat_sptrsv_graph, -mat_sptrsv_fuse_passes, -mat_sptrsv_levels,
  -mat_sptrsv_storage, -mat_sptrsv_dispatch, -mat_sptrsv_max_lanes, -mat_sptrsv_spin_ns, -mat_sptrsv_blocks_per_sm,
  -mat_sptrsv_relabel, -mat_sptrsv_analysis, -mat_sptrsv_subgraph_rows, -mat_sptrsv_locality_partition,
  -mat_sptrsv_locality_sms, -mat_sptrsv_locality_stage, -mat_sptrsv_locality_pack, -mat_sptrsv_locality_kernel, -mat_sptrsv_locality_block_cond, -mat_sptrsv_locality_block_rows, the supernodal path's -mat_sptrsv_supernode_mode, -mat_sptrsv_invert_diag,
  -mat_sptrsv_invert_diag_cond, -mat_sptrsv_merge, -mat_sptrsv_supernode_relax, -mat_sptrsv_supernode_cublas_width, -mat_sptrsv_supernode_split, -mat_sptrsv_supernode_min_width, and -mat_sptrsv_pinv_parts,
  -mat_sptrsv_pinv_fill and -mat_sptrsv_pinv_tol
*/
PetscErrorCode SpTrsvSolverOptionsDefault(SpTrsvSolverOptions *opts)
{
  PetscBool flg;
  char      str[16];

  PetscFunctionBegin;
  PetscCall(SpTrsvSolverOptionsInitialize(opts));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-mat_sptrsv_graph", &opts->use_graph, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-mat_sptrsv_fuse_passes", &opts->fuse_passes, NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-mat_sptrsv_levels", str, sizeof(str), &flg));
  if (flg) PetscCall(PetscStrcmp(str, "alap", &opts->alap));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-mat_sptrsv_storage", str, sizeof(str), &flg));
  if (flg) PetscCall(PetscStrcmp(str, "warpell", &opts->warpell));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-mat_sptrsv_dispatch", str, sizeof(str), &flg));
  if (flg) PetscCall(PetscStrcmp(str, "natural", &opts->natural));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-mat_sptrsv_max_lanes", &opts->max_lanes, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-mat_sptrsv_spin_ns", &opts->spin_ns, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-mat_sptrsv_blocks_per_sm", &opts->blocks_per_sm, NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-mat_sptrsv_relabel", str, sizeof(str), &flg));
  if (flg) {
    PetscBool isauto, istrue;
    PetscCall(PetscStrcasecmp(str, "auto", &isauto));
    PetscCall(PetscStrcasecmp(str, "true", &istrue));
    opts->relabel = isauto ? SPTRSV_RELABEL_AUTO : (istrue ? 1 : 0);
  }
  PetscCall(PetscOptionsGetString(NULL, NULL, "-mat_sptrsv_analysis", str, sizeof(str), &flg));
  if (flg) PetscCall(PetscStrcmp(str, "device", &opts->analysis_device));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-mat_sptrsv_subgraph_rows", &opts->subgraph_rows, NULL));
  PetscCall(SpTrsvOptionsGetChoice("-mat_sptrsv_locality_partition", SpTrsvLocalityPartitioners, "auto, paper or regions", &opts->locality_partition));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-mat_sptrsv_locality_sms", &opts->locality_sms, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-mat_sptrsv_locality_stage", &opts->locality_stage, NULL));
  PetscCheck(opts->locality_stage >= 0 && opts->locality_stage <= 2, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-mat_sptrsv_locality_stage must be 0, 1 or 2, got %" PetscInt_FMT, opts->locality_stage);
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-mat_sptrsv_locality_pack", &opts->locality_pack, NULL));
  PetscCall(SpTrsvOptionsGetChoice("-mat_sptrsv_locality_kernel", SpTrsvLocalityKernels, "auto, slots, chain or blocks", &opts->locality_kernel));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-mat_sptrsv_locality_block_cond", &opts->locality_block_cond, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-mat_sptrsv_locality_block_rows", &opts->locality_block_rows, NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-mat_sptrsv_supernode_mode", str, sizeof(str), &flg));
  if (flg) {
    PetscBool push, pull;
    PetscCall(PetscStrcasecmp(str, "push", &push));
    PetscCall(PetscStrcasecmp(str, "pull", &pull));
    opts->supernode_mode = push ? 1 : (pull ? 2 : 0);
  }
  {
    PetscBool inv;
    PetscCall(PetscOptionsGetBool(NULL, NULL, "-mat_sptrsv_invert_diag", &inv, &flg));
    if (flg) opts->invert_diag = inv ? 1 : 0;
  }
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-mat_sptrsv_invert_diag_cond", &opts->invert_cond, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-mat_sptrsv_merge", &opts->supernode_merge, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-mat_sptrsv_supernode_relax", &opts->supernode_relax, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-mat_sptrsv_supernode_cublas_width", &opts->supernode_cublas_width, NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-mat_sptrsv_supernode_split", str, sizeof(str), &flg));
  if (flg) {
    static const char *names[] = {"auto", "never", "always"};
    PetscBool          match   = PETSC_FALSE;
    for (PetscInt k = 0; k < 3 && !match; k++) {
      PetscCall(PetscStrcasecmp(str, names[k], &match));
      if (match) opts->supernode_split = k;
    }
    PetscCheck(match, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-mat_sptrsv_supernode_split must be auto, never or always, got %s", str);
  }
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-mat_sptrsv_supernode_min_width", &opts->supernode_min_width, NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-mat_sptrsv_pinv_parts", str, sizeof(str), &flg));
  if (flg) {
    PetscBool greedy;
    PetscCall(PetscStrcmp(str, "greedy", &greedy));
    opts->pinv_parts = greedy ? 1 : 0; /* SpTrsvPinvParts */
  }
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-mat_sptrsv_pinv_fill", &opts->pinv_fill, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-mat_sptrsv_pinv_tol", &opts->pinv_tol, &flg));
  if (flg) opts->pinv_tol_set = PETSC_TRUE;
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-mat_sptrsv_pinv_threads", &opts->pinv_threads, NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvSolverCreate - SpTrsvSolverCreateWithOptions() with SpTrsvSolverOptionsDefault()
*/
PetscErrorCode SpTrsvSolverCreate(SpTrsvTri tri, PetscBool transpose, SpTrsvFormat format, SpTrsvPath path, const SpTrsvBackendOps *backend, SpTrsvSolver *solver)
{
  SpTrsvSolverOptions opts;

  PetscFunctionBegin;
  PetscCall(SpTrsvSolverOptionsDefault(&opts));
  PetscCall(SpTrsvSolverCreateWithOptions(tri, transpose, format, path, backend, &opts, solver));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the relaxation term of a CSC sweep, keep / idiag_i = (1 - omega) a_ii / omega */
static PetscErrorCode SpTrsvSolverComputeCDiag(SpTrsvSolver s)
{
  PetscFunctionBegin;
  for (PetscInt i = 0; i < s->tri->n; i++) s->cdiag[i] = s->keep / s->tri->idiag[i];
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* create, analyse (pattern of op(T) only) and hand to the backend; rest and omega only for sweeps */
static PetscErrorCode SpTrsvSolverCreate_Private(SpTrsvTri tri, PetscBool transpose, SpTrsvTri rest, PetscReal omega, SpTrsvFormat format, SpTrsvPath path, const SpTrsvBackendOps *backend, const SpTrsvSolverOptions *opts, SpTrsvSolver *solver)
{
  SpTrsvSolver   s;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  PetscCall(PetscNew(&s));
  s->opts      = *opts;
  if (backend->slot != SPTRSV_EXEC_CUDA) { /* a device analysis and the relabelled solution words only concern the CUDA executor */
    s->opts.analysis_device = PETSC_FALSE;
    s->opts.relabel         = 0;
  }
  s->tri       = tri;
  s->transpose = transpose;
  s->format    = format;
  s->backend   = backend;
  s->rest      = rest;
  s->keep      = 1.0 - omega;
  PetscCall(SpTrsvPathGetExecutor(path, backend->slot, &s->exec));
  PetscCheck(!rest || s->exec->sweep, PETSC_COMM_SELF, PETSC_ERR_SUP, "Path %s has no Gauss-Seidel sweeps", path->name);
  PetscCall(PetscLogEventBegin(SPTRSV_Analysis, 0, 0, 0, 0));
  if (format == SPTRSV_FORMAT_CSC) PetscCall(SpTrsvTriBuildCSC(tri)); /* the columns of op(T) (a transpose builds it anyway) */
  PetscCall(SpTrsvTriGetOp(tri, transpose, &s->op));
  ierr = SpTrsvPlanCreate(&s->op, path, format, &s->opts, &s->plan);
  PetscCall(PetscLogEventEnd(SPTRSV_Analysis, 0, 0, 0, 0));
  if (ierr) { /* e.g. an option value the path rejects: nothing is kept */
    PetscCall(PetscFree(s));
    PetscCall(ierr);
  }
  if (rest && format == SPTRSV_FORMAT_CSC) {
    PetscCall(PetscMalloc1(tri->n + 1, &s->cdiag));
    PetscCall(SpTrsvSolverComputeCDiag(s));
  }
  PetscCall(PetscLogEventBegin(SPTRSV_Upload, 0, 0, 0, 0));
  {
    SpTrsvDevMem *saved;

    SpTrsvDevMemBegin(&s->mem, &saved);
    ierr = (*s->exec->setup)(s);
    SpTrsvDevMemEnd(saved);
  }
  PetscCall(PetscLogEventEnd(SPTRSV_Upload, 0, 0, 0, 0));
  if (ierr) { /* e.g. a device allocation that failed: give back what the setup made, then report */
    PetscCall(SpTrsvSolverDestroy(&s));
    PetscCall(ierr);
  }
  s->state      = tri->state;
  s->rest_state = rest ? rest->state : 0;
  *solver       = s;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvSolverCreateWithOptions - analyse op(T) (pattern only) and hand the plan to the backend
*/
PetscErrorCode SpTrsvSolverCreateWithOptions(SpTrsvTri tri, PetscBool transpose, SpTrsvFormat format, SpTrsvPath path, const SpTrsvBackendOps *backend, const SpTrsvSolverOptions *opts, SpTrsvSolver *solver)
{
  PetscFunctionBegin;
  PetscCall(SpTrsvSolverCreate_Private(tri, transpose, NULL, 1.0, format, path, backend, opts, solver));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvSolverCreateSweep - a relaxed sweep over A = T + R (see SpTrsvSolver in backend.h): T holds
  the strict triangle the sweep waits for and idiag_i = omega / a_ii, R the opposite strict triangle
  (same n). The plan is computed on T alone.
*/
PetscErrorCode SpTrsvSolverCreateSweep(SpTrsvTri tri, SpTrsvTri rest, PetscReal omega, SpTrsvFormat format, SpTrsvPath path, const SpTrsvBackendOps *backend, const SpTrsvSolverOptions *opts, SpTrsvSolver *solver)
{
  PetscFunctionBegin;
  PetscCheck(rest && rest->n == tri->n && rest->uplo != tri->uplo, PETSC_COMM_SELF, PETSC_ERR_ARG_INCOMP, "A sweep needs the opposite strict triangle of the same size");
  PetscCheck(!tri->unit && tri->idiag, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "A sweep needs an explicit diagonal");
  PetscCall(SpTrsvSolverCreate_Private(tri, PETSC_FALSE, rest, omega, format, path, backend, opts, solver));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvSolverUpdateValues - refresh the backend's copy of the values if the triangle (or the rest of
  a sweep) changed
*/
PetscErrorCode SpTrsvSolverUpdateValues(SpTrsvSolver s)
{
  PetscFunctionBegin;
  if (s->state == s->tri->state && (!s->rest || s->rest_state == s->rest->state)) PetscFunctionReturn(PETSC_SUCCESS);
  if (s->cdiag) PetscCall(SpTrsvSolverComputeCDiag(s));
  SpTrsvDevMemScope(&s->mem, (*s->exec->update_values)(s));
  s->state = s->tri->state;
  if (s->rest) s->rest_state = s->rest->state;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvSolverUpdateValuesDevice - the triangle's new values are already on the device (a GPU numeric
  factorization, PC gs's device refresh): a = T's CSR values, d = T's inverted diagonal (NULL for a unit triangle),
  r = the rest's CSR values of a sweep solver (NULL for a plain triangle), device arrays in T->a's, T->idiag's and
  R->a's layouts. The executor copies them into its own order (a CSC sweep's keep / idiag too) and the solver is
  marked current, so SpTrsvSolverUpdateValues() does not upload the (stale) host values later; the host cdiag of a
  CSC sweep is recomputed at the next host refresh.
*/
PetscErrorCode SpTrsvSolverUpdateValuesDevice(SpTrsvSolver s, const PetscScalar *a, const PetscScalar *d, const PetscScalar *r)
{
  PetscFunctionBegin;
  PetscCheck(s->exec->update_values_device, PETSC_COMM_SELF, PETSC_ERR_SUP, "The %s executor cannot take values from the device", s->backend->name);
  PetscCheck(!s->rest == !r, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "%s", s->rest ? "Device values for a sweep solver need the rest's values" : "Device rest values for a solver without a rest");
  SpTrsvDevMemScope(&s->mem, (*s->exec->update_values_device)(s, a, d, r));
  s->state = s->tri->state;
  if (s->rest) s->rest_state = s->rest->state;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvSolverMarkCurrent - the backend's copy of the values is current (the host values were brought in line with it,
  e.g. downloaded after a GPU numeric phase): no upload at the next use; a nested solver it forwards to (s->nested) too
*/
PetscErrorCode SpTrsvSolverMarkCurrent(SpTrsvSolver s)
{
  PetscFunctionBegin;
  s->state = s->tri->state;
  if (s->rest) s->rest_state = s->rest->state;
  if (s->nested) PetscCall(SpTrsvSolverMarkCurrent(s->nested));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvSolverApply - x = op(T)^{-1} b, arrays in the backend's memory, b != x. For a sweep solver this
  is the sweep from a zero iterate.
*/
PetscErrorCode SpTrsvSolverApply(SpTrsvSolver s, const PetscScalar *b, PetscScalar *x)
{
  PetscFunctionBegin;
  PetscCall(SpTrsvSolverUpdateValues(s));
  SpTrsvDevMemScope(&s->mem, (*s->exec->solve)(s, b, x));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvSolverSweep - x_i = keep xold_i + idiag_i (b_i - sum_j T_ij x_j - sum_j R_ij xold_j) in the
  plan's order (a sweep solver), arrays in the backend's memory; b != x. xold may be x itself when
  every entry R_ij has a matching T_ji (a structurally symmetric A): row j then depends on row i, so it
  is solved after row i has read the old x_j.
*/
PetscErrorCode SpTrsvSolverSweep(SpTrsvSolver s, const PetscScalar *b, const PetscScalar *xold, PetscScalar *x)
{
  PetscFunctionBegin;
  PetscCheck(s->rest, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "Not a sweep solver");
  PetscCall(SpTrsvSolverUpdateValues(s));
  SpTrsvDevMemScope(&s->mem, (*s->exec->sweep)(s, b, xold, x));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* flops of one solve, counted as PETSc counts MatSolve: a multiply-add per off-diagonal entry and a
   multiply per row for an explicit diagonal */
PetscLogDouble SpTrsvSolverFlops(SpTrsvSolver s)
{
  return 2.0 * s->op.nnz + (s->op.unit ? 0.0 : s->op.n);
}

/* flops of a sweep from a nonzero iterate: T and R entries, and the relaxation of each row */
PetscLogDouble SpTrsvSolverSweepFlops(SpTrsvSolver s)
{
  return 2.0 * (s->op.nnz + (s->rest ? s->rest->i[s->rest->n] : 0)) + 3.0 * s->op.n;
}

PetscErrorCode SpTrsvSolverDestroy(SpTrsvSolver *solver)
{
  SpTrsvSolver s = *solver;

  PetscFunctionBegin;
  if (!s) PetscFunctionReturn(PETSC_SUCCESS);
  if (s->exec) PetscCall((*s->exec->destroy)(s));
  PetscCall(SpTrsvPlanDestroy(&s->plan));
  PetscCall(PetscFree(s->cdiag));
  SpTrsvDevMemDetach(&s->mem); /* nothing should be left; if something is, no table entry points into s */
  PetscCall(PetscFree(s));
  *solver = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}
