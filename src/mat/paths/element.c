/*
   sptrsv_element (paper 000, section 4: ELMR / ELMC): element (synchronization-free) scheduling. The
   level plan is read as a dispatch order: each row goes to K lanes of a warp in that order and waits only
   for its own dependencies (the deadlock-freedom argument is in src/mat/analysis/dispatch.c and, for
   several rows per warp, in src/cuda/paths/element.cu). The analysis decides, per row, what its waiting
   lane spins on (include/sptrsv/paths/element.h): for CSR the critical dependency (the one dispatched last,
   the most likely to finish last), for CSC the number of updates to wait for; and it packs the rows of
   each level, without reordering them, into warps of 32/K rows with K lanes each (SpTrsvWarpPack). The host
   executor runs the same dispatch order and checks all of it once per pattern.
*/
#include <sptrsv/paths/element.h>
#include <sptrsv/warps.h>
#include <sptrsv/hostexec.h>
#include <petsctime.h>

static PetscErrorCode SpTrsvElementScheduleDestroy(SpTrsvPlan plan)
{
  SpTrsvElementSchedule *es = (SpTrsvElementSchedule *)plan->data;

  PetscFunctionBegin;
  if (es) {
    PetscCall(PetscFree(es->aux));
    PetscCall(PetscFree2(es->wstart, es->wlanes));
  }
  PetscCall(PetscFree(plan->data));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* -ksp_view: the packing, and how many warps have each lane count */
static PetscErrorCode SpTrsvElementScheduleView(SpTrsvPlan plan, PetscViewer viewer)
{
  SpTrsvElementSchedule *es = (SpTrsvElementSchedule *)plan->data;
  PetscInt               nw[6] = {0, 0, 0, 0, 0, 0};

  PetscFunctionBegin;
  for (PetscInt w = 0; w < es->nwarps; w++) {
    int b = 0;
    while ((1 << b) < es->wlanes[w]) b++;
    nw[b]++;
  }
  PetscCall(PetscViewerASCIIPrintf(viewer, "element: %" PetscInt_FMT " warps of 32 threads in blocks of %d warps, %.2f rows per warp (at most %" PetscInt_FMT " lanes per row, at most %" PetscInt_FMT " rows per warp)\n", es->nwarps, SPTRSV_ELEMENT_WARPS, es->nwarps ? (double)plan->n / (double)es->nwarps : 0.0, es->max_lanes, es->rows_per_warp));
  PetscCall(PetscViewerASCIIPrintf(viewer, "warps by lanes per row: 1: %" PetscInt_FMT ", 2: %" PetscInt_FMT ", 4: %" PetscInt_FMT ", 8: %" PetscInt_FMT ", 16: %" PetscInt_FMT ", 32: %" PetscInt_FMT "\n", nw[0], nw[1], nw[2], nw[3], nw[4], nw[5]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* pos[i] = dispatch position of row i */
static PetscErrorCode SpTrsvElementPositions(SpTrsvPlan plan, PetscInt **pos)
{
  PetscFunctionBegin;
  PetscCall(PetscMalloc1(plan->n + 1, pos));
  for (PetscInt k = 0; k < plan->n; k++) (*pos)[plan->order[k]] = k;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the option values the analysis accepts (the messages name the options without the factor's prefix: the
   factor checks them with it when it reads them, SpTrsvOptions_element) */
static PetscErrorCode SpTrsvElementCheckOptions(const char *prefix, PetscInt lanes, PetscInt rows)
{
  const char *p = prefix ? prefix : "";

  PetscFunctionBegin;
  PetscCheck(SpTrsvWarpLanesValid(lanes), PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-%smat_sptrsv_element_lanes must be 1, 2, 4, 8, 16 or 32, got %" PetscInt_FMT, p, lanes);
  PetscCheck(SpTrsvWarpLanesValid(rows), PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-%smat_sptrsv_element_rows_per_warp must be 1, 2, 4, 8, 16 or 32, got %" PetscInt_FMT, p, rows);
  PetscCheck(lanes * rows >= 32, PETSC_COMM_SELF, PETSC_ERR_ARG_INCOMP, "-%smat_sptrsv_element_lanes %" PetscInt_FMT " with -%smat_sptrsv_element_rows_per_warp %" PetscInt_FMT " leaves lanes of every warp idle: their product must be at least 32", p, lanes, p, rows);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SpTrsvAnalyze_element(const SpTrsvOp *op, SpTrsvFormat format, const SpTrsvSolverOptions *opts, SpTrsvPlan *plan)
{
  SpTrsvPlan             p;
  SpTrsvElementSchedule *es;
  PetscInt              *pos;
  PetscLogDouble         t0, t1;

  PetscFunctionBegin;
  PetscCall(SpTrsvElementCheckOptions(NULL, opts->element_lanes, opts->element_rows_per_warp));
  PetscCall(PetscTime(&t0));
  PetscCall(SpTrsvPlanCreateLevelSets(op, &p));
  PetscCall(PetscNew(&es));
  PetscCall(PetscMalloc1(op->n + 1, &es->aux));
  es->csc           = (PetscBool)(format == SPTRSV_FORMAT_CSC);
  es->max_lanes     = opts->element_lanes;
  es->rows_per_warp = opts->element_rows_per_warp;
  p->data           = es;
  p->destroydata    = SpTrsvElementScheduleDestroy;
  p->view           = SpTrsvElementScheduleView;
  PetscCall(SpTrsvElementPositions(p, &pos));
  for (PetscInt k = 0; k < op->n; k++) {
    const PetscInt i = p->order[k];
    if (es->csc) es->aux[k] = op->ri[i + 1] - op->ri[i];
    else {
      PetscInt best = -1;
      for (PetscInt q = op->ri[i]; q < op->ri[i + 1]; q++)
        if (best < 0 || pos[op->rj[q]] > pos[op->rj[op->ri[i] + best]]) best = q - op->ri[i];
      es->aux[k] = best;
    }
  }
  PetscCall(PetscFree(pos));
  /* the rows of each level, in order, into warps (a warp never spans two levels: its rows never depend on each other) */
  PetscCall(PetscMalloc2(op->n + 1, &es->wstart, op->n + 1, &es->wlanes));
  for (PetscInt l = 0; l < p->nlevels; l++) PetscCall(SpTrsvWarpPack(op, p->order, p->levptr[l], p->levptr[l + 1], 32 / es->rows_per_warp, es->max_lanes, &es->nwarps, es->wstart, es->wlanes));
  es->wstart[es->nwarps] = op->n;
  PetscCall(PetscTime(&t1));
  p->stats.analysis_time = t1 - t0;
  *plan                  = p;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvElementScheduleCheck - what the kernels rely on: the dispatch order puts every dependency first; the spin
  targets are what the analysis says; the warps cover the positions in order, each with r rows of K lanes (K a
  power of two, r K <= 32) all of one level (so no row of a warp waits for another of the same warp), K the
  lanes the packing gives its longest row (at least 32 / rows_per_warp, at most max_lanes)
*/
PetscErrorCode SpTrsvElementScheduleCheck(const SpTrsvOp *op, SpTrsvPlan plan)
{
  SpTrsvElementSchedule *es = (SpTrsvElementSchedule *)plan->data;
  PetscInt              *pos;

  PetscFunctionBegin;
  PetscCall(SpTrsvPlanCheckDispatchOrder(op, plan));
  PetscCall(SpTrsvElementPositions(plan, &pos));
  for (PetscInt k = 0; k < op->n; k++) {
    const PetscInt i = plan->order[k], len = op->ri[i + 1] - op->ri[i];
    if (es->csc) PetscCheck(es->aux[k] == len, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Element schedule: row %" PetscInt_FMT " waits for %" PetscInt_FMT " updates, it has %" PetscInt_FMT " dependencies", i, es->aux[k], len);
    else {
      PetscCheck(len ? (es->aux[k] >= 0 && es->aux[k] < len) : es->aux[k] == -1, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Element schedule: row %" PetscInt_FMT " spins on entry %" PetscInt_FMT " of %" PetscInt_FMT, i, es->aux[k], len);
      for (PetscInt q = op->ri[i]; q < op->ri[i + 1]; q++) PetscCheck(pos[op->rj[q]] <= pos[op->rj[op->ri[i] + es->aux[k]]], PETSC_COMM_SELF, PETSC_ERR_PLIB, "Element schedule: row %" PetscInt_FMT " spins on row %" PetscInt_FMT " but row %" PetscInt_FMT " is dispatched later", i, op->rj[op->ri[i] + es->aux[k]], op->rj[q]);
    }
  }
  PetscCall(PetscFree(pos));
  PetscCall(SpTrsvElementCheckOptions(NULL, es->max_lanes, es->rows_per_warp));
  PetscCheck(es->nwarps >= 0 && es->nwarps <= op->n && es->wstart[0] == 0 && es->wstart[es->nwarps] == op->n, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Element schedule: %" PetscInt_FMT " warps do not cover %" PetscInt_FMT " rows", es->nwarps, op->n);
  for (PetscInt w = 0; w < es->nwarps; w++) {
    const PetscInt k0 = es->wstart[w], k1 = es->wstart[w + 1];
    const int      K  = es->wlanes[w];
    int            want = (int)(32 / es->rows_per_warp);
    PetscCheck(SpTrsvWarpLanesValid(K), PETSC_COMM_SELF, PETSC_ERR_PLIB, "Element schedule: warp %" PetscInt_FMT " has %d lanes per row", w, K);
    PetscCheck(k1 > k0 && (k1 - k0) * K <= 32, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Element schedule: warp %" PetscInt_FMT " holds %" PetscInt_FMT " rows of %d lanes", w, k1 - k0, K);
    for (PetscInt k = k0; k < k1; k++) {
      const PetscInt i = plan->order[k];
      PetscCheck(plan->level[i] == plan->level[plan->order[k0]], PETSC_COMM_SELF, PETSC_ERR_PLIB, "Element schedule: warp %" PetscInt_FMT " mixes levels %" PetscInt_FMT " and %" PetscInt_FMT, w, plan->level[plan->order[k0]], plan->level[i]);
      want = PetscMax(want, SpTrsvWarpRowLanes(op->ri[i + 1] - op->ri[i], 32 / es->rows_per_warp, es->max_lanes));
    }
    PetscCheck(K == want, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Element schedule: warp %" PetscInt_FMT " has %d lanes per row, its rows take %d", w, K, want);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the host executor runs the rows in dispatch order; the kernels rely on the schedule for deadlock
   freedom, so it is checked once per pattern */
static PetscErrorCode SpTrsvHostElementSetup(SpTrsvSolver s)
{
  PetscFunctionBegin;
  PetscCall(SpTrsvElementScheduleCheck(&s->op, s->plan));
  PetscCall(SpTrsvHostOrderedSetup(s));
  PetscFunctionReturn(PETSC_SUCCESS);
}

const SpTrsvExecutor SpTrsvExecHost_element = {SpTrsvHostElementSetup, SpTrsvHostOrderedUpdateValues, SpTrsvHostOrderedSolve, SpTrsvHostOrderedSweep, SpTrsvHostOrderedDestroy, NULL};

/* the element path's options, read with the factor's prefix (PC gs and the solver API read the global ones:
   SpTrsvSolverOptionsDefault) */
PetscErrorCode SpTrsvOptions_element(SpTrsvOptionItems PetscOptionsObject, SpTrsvSolverOptions *opts)
{
  PetscFunctionBegin;
  PetscCall(PetscOptionsBool("-mat_sptrsv_graph", "CUDA: replay each solve's launch as a CUDA graph", "MatSolverType sptrsv_element", opts->use_graph, &opts->use_graph, NULL));
  PetscCall(PetscOptionsInt("-mat_sptrsv_element_lanes", "Lanes per row at most (1, 2, 4, ..., 32): a row gets the smallest power of two >= its length, rows with more entries loop", "MatSolverType sptrsv_element", opts->element_lanes, &opts->element_lanes, NULL));
  PetscCall(PetscOptionsInt("-mat_sptrsv_element_rows_per_warp", "Rows per warp at most (1, 2, 4, ..., 32; 1: a warp per row, the unpacked kernel)", "MatSolverType sptrsv_element", opts->element_rows_per_warp, &opts->element_rows_per_warp, NULL));
  PetscCall(SpTrsvElementCheckOptions(PetscOptionsObject->prefix, opts->element_lanes, opts->element_rows_per_warp));
  PetscFunctionReturn(PETSC_SUCCESS);
}
