/*
   sptrsv_element (paper 000, section 4: ELMR / ELMC): element (synchronization-free) scheduling. The
   level plan is read as a dispatch order: each row goes to one warp in that order and waits only for
   its own dependencies (the deadlock-freedom argument is in src/mat/analysis/dispatch.c). The analysis
   also decides, per row, what the waiting lane spins on (include/sptrsv/paths/element.h): for CSR the
   critical dependency (the one dispatched last, the most likely to finish last), for CSC the number of
   updates to wait for. The host executor runs the same dispatch order and checks both once per pattern.
*/
#include <sptrsv/paths/element.h>
#include <sptrsv/paths/level.h> /* its paper's citation */
#include <sptrsv/host_rows.h>
#include <petsctime.h>

static PetscErrorCode SpTrsvElementScheduleDestroy(SpTrsvPlan plan)
{
  SpTrsvElementSchedule *es = (SpTrsvElementSchedule *)plan->data;

  PetscFunctionBegin;
  if (es) PetscCall(PetscFree(es->aux));
  PetscCall(PetscFree(plan->data));
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

PetscErrorCode SpTrsvAnalyze_element(const SpTrsvOp *op, SpTrsvFormat format, const SpTrsvPathOptions *opts, const void *own, SpTrsvPlan *plan)
{
  SpTrsvPlan             p;
  SpTrsvElementSchedule *es;
  PetscInt              *pos;
  PetscLogDouble         t0, t1;

  PetscFunctionBegin;
  PetscCall(PetscTime(&t0));
  PetscCall(SpTrsvPlanCreateLevelSets(op, &p));
  PetscCall(PetscNew(&es));
  PetscCall(PetscMalloc1(op->n + 1, &es->aux));
  es->csc        = (PetscBool)(format == SPTRSV_FORMAT_CSC);
  p->data        = es;
  p->destroydata = SpTrsvElementScheduleDestroy;
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
  PetscCall(PetscTime(&t1));
  p->stats.analysis_time = t1 - t0;
  *plan                  = p;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the dispatch order puts every dependency first, and the spin targets are what the analysis says */
static PetscErrorCode SpTrsvElementScheduleCheck(const SpTrsvOp *op, SpTrsvPlan plan)
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

/* no options of its own: its parser reads the common -mat_sptrsv_graph (inside the caller's PetscOptionsBegin/End) */
static PetscErrorCode SpTrsvOptionsSet_element(SpTrsvOptionItems PetscOptionsObject, SpTrsvPathOptions *opts, void *own)
{
  PetscFunctionBegin;
  PetscCall(PetscOptionsBool("-mat_sptrsv_graph", "CUDA: replay each solve's launch as a CUDA graph", "MatSolverType sptrsv_element", opts->use_graph, &opts->use_graph, NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the path's registry entry (it shares the level path's paper); PC gs sweeps with it on the GPU when its scheduler is auto */
const struct _n_SpTrsvPath SpTrsvPath_element = {
  .name        = "element",
  .solvertype  = MATSOLVERSPTRSVELEMENT,
  .summary     = "element scheduling: one warp per row in level order, each waits only for its own dependencies (paper 000)",
  .ilu         = PETSC_TRUE,
  .icc         = PETSC_TRUE,
  .csc         = PETSC_TRUE,
  .sweeps      = PETSC_TRUE,
  .analyze     = SpTrsvAnalyze_element,
  .exec        = {&SpTrsvExecHost_element, SPTRSV_CUDA_EXEC(element)},
  .options_set = SpTrsvOptionsSet_element,
  .citation    = SpTrsvCitationLi2020,
  .cited       = &SpTrsvCitedLi2020,
  .gs_device   = PETSC_TRUE,
  .rule_rank   = {4, 3, 3},
};
