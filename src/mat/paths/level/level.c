/*
   sptrsv_level (paper 000: LEVR / LEVC): level-set scheduling. Rows are grouped by level,
   lev(i) = 1 + max lev(j) over the dependencies j of row i; the rows of a level are solved in parallel,
   one level after the other. The analysis also decides the launch geometry the CUDA kernels follow
   (include/sptrsv/segments.h, built by src/mat/analysis/segments.c): lanes per row of each level, and which runs
   of small levels are fused into one single-block launch. The host executor runs the rows in the same order and checks that
   schedule once per pattern.
*/
#include <sptrsv/paths/level.h>
#include <sptrsv/hostexec.h>
#include <petsctime.h>

static PetscErrorCode SpTrsvLevelScheduleDestroy(SpTrsvPlan plan)
{
  SpTrsvLevelSchedule *ls = (SpTrsvLevelSchedule *)plan->data;

  PetscFunctionBegin;
  if (ls) PetscCall(PetscFree2(ls->seg, ls->levK));
  PetscCall(PetscFree(plan->data));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SpTrsvLevelScheduleView(SpTrsvPlan plan, PetscViewer viewer)
{
  SpTrsvLevelSchedule *ls     = (SpTrsvLevelSchedule *)plan->data;
  PetscInt             nfused = 0, fused_levels = 0;

  PetscFunctionBegin;
  for (PetscInt k = 0; k < ls->nseg; k++)
    if (ls->seg[k].kind == SPTRSV_LEVEL_SEG_FUSED) {
      nfused++;
      fused_levels += ls->seg[k].l1 - ls->seg[k].l0;
    }
  PetscCall(PetscViewerASCIIPrintf(viewer, "launches %" PetscInt_FMT ": %" PetscInt_FMT " single-block runs holding %" PetscInt_FMT " levels, %" PetscInt_FMT " levels with a grid each\n", ls->nseg, nfused, fused_levels, ls->nseg - nfused));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SpTrsvAnalyze_level(const SpTrsvOp *op, SpTrsvFormat format, const SpTrsvSolverOptions *opts, SpTrsvPlan *plan)
{
  SpTrsvPlan           p;
  SpTrsvLevelSchedule *ls;
  PetscLogDouble       t0, t1;

  PetscFunctionBegin;
  /* the factor checks its prefixed option when reading it (SpTrsvOptions_level()); PC gs reads it unprefixed */
  PetscCheck(opts->fuse_passes >= 1, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "The level path fuses at least 1 pass per block: mat_sptrsv_fuse_passes must be >= 1, got %" PetscInt_FMT, opts->fuse_passes);
  PetscCall(PetscTime(&t0));
  PetscCall(SpTrsvPlanCreateLevelSets(op, &p));
  PetscCall(PetscNew(&ls));
  PetscCall(PetscMalloc2(p->nlevels + 1, &ls->seg, p->nlevels + 1, &ls->levK)); /* at most one segment per level */
  p->data        = ls;
  p->destroydata = SpTrsvLevelScheduleDestroy;
  p->view        = SpTrsvLevelScheduleView;
  PetscCall(SpTrsvLevelSegmentsBuild(p->nlevels, p->levptr, p->order, format == SPTRSV_FORMAT_CSC ? op->ci : op->ri, opts->fuse_passes, ls));
  PetscCall(PetscTime(&t1));
  p->stats.analysis_time = t1 - t0;
  *plan                  = p;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvLevelScheduleCheck - the launch sequence a CUDA executor follows covers every level once, in order:
  fused runs in one block of whole warps no larger than the fused limit, each of their levels within
  fuse_passes passes of it; every other level alone, with enough groups of K lanes (a power of two in
  2..32) for its rows
*/
PetscErrorCode SpTrsvLevelScheduleCheck(SpTrsvPlan plan, PetscInt fuse_passes)
{
  PetscFunctionBegin;
  PetscCall(SpTrsvLevelSegmentsCheck(plan->nlevels, plan->levptr, (const SpTrsvLevelSchedule *)plan->data, fuse_passes));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the host executor runs the rows level after level; it checks the schedule the GPU would follow */
static PetscErrorCode SpTrsvHostLevelSetup(SpTrsvSolver s)
{
  PetscFunctionBegin;
  PetscCall(SpTrsvLevelScheduleCheck(s->plan, s->opts.fuse_passes));
  PetscCall(SpTrsvHostOrderedSetup(s));
  PetscFunctionReturn(PETSC_SUCCESS);
}

const SpTrsvExecutor SpTrsvExecHost_level = {SpTrsvHostLevelSetup, SpTrsvHostOrderedUpdateValues, SpTrsvHostOrderedSolve, SpTrsvHostOrderedSweep, SpTrsvHostOrderedDestroy, NULL};

/* the level path's options, read with the factor's prefix */
PetscErrorCode SpTrsvOptions_level(SpTrsvOptionItems PetscOptionsObject, SpTrsvSolverOptions *opts)
{
  PetscFunctionBegin;
  PetscCall(PetscOptionsBool("-mat_sptrsv_graph", "CUDA: replay each solve's launches as a CUDA graph", "MatSolverType sptrsv_level", opts->use_graph, &opts->use_graph, NULL));
  PetscCall(PetscOptionsInt("-mat_sptrsv_fuse_passes", "CUDA: fuse a level into one block when it takes at most this many passes of the block", "MatSolverType sptrsv_level", opts->fuse_passes, &opts->fuse_passes, NULL));
  PetscCheck(opts->fuse_passes >= 1, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-%smat_sptrsv_fuse_passes must be >= 1, got %" PetscInt_FMT, PetscOptionsObject->prefix ? PetscOptionsObject->prefix : "", opts->fuse_passes);
  PetscFunctionReturn(PETSC_SUCCESS);
}
