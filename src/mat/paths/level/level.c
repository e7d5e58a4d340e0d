/*
   sptrsv_level (paper 000: LEVR / LEVC): level-set scheduling. Rows are grouped by level,
   lev(i) = 1 + max lev(j) over the dependencies j of row i; the rows of a level are solved in parallel,
   one level after the other. The analysis also decides the launch geometry the CUDA kernels follow
   (include/sptrsv/segments.h, built by src/mat/analysis/segments.c): lanes per row of each level, and which runs
   of small levels are fused into one single-block launch. The host executor runs the rows in the same order and checks that
   schedule once per pattern.
*/
#include <sptrsv/paths/level.h>
#include <sptrsv/host_rows.h>
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

PetscErrorCode SpTrsvAnalyze_level(const SpTrsvOp *op, SpTrsvFormat format, const SpTrsvPathOptions *opts, const void *own, SpTrsvPlan *plan)
{
  const SpTrsvLevelOptions *lo = (const SpTrsvLevelOptions *)own;
  SpTrsvPlan           p;
  SpTrsvLevelSchedule *ls;
  PetscLogDouble       t0, t1;

  PetscFunctionBegin;
  /* its parser checks the option where it reads it (SpTrsvOptionsSet_level()); a program may fill the options itself */
  (void)opts;
  PetscCheck(lo->fuse_passes >= 1, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "The level path fuses at least 1 pass per block: mat_sptrsv_fuse_passes must be >= 1, got %" PetscInt_FMT, lo->fuse_passes);
  PetscCall(PetscTime(&t0));
  PetscCall(SpTrsvPlanCreateLevelSets(op, &p));
  PetscCall(PetscNew(&ls));
  PetscCall(PetscMalloc2(p->nlevels + 1, &ls->seg, p->nlevels + 1, &ls->levK)); /* at most one segment per level */
  p->data        = ls;
  p->destroydata = SpTrsvLevelScheduleDestroy;
  p->view        = SpTrsvLevelScheduleView;
  PetscCall(SpTrsvLevelSegmentsBuild(p->nlevels, p->levptr, p->order, format == SPTRSV_FORMAT_CSC ? op->ci : op->ri, lo->fuse_passes, ls));
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
  PetscCall(SpTrsvLevelScheduleCheck(s->plan, ((const SpTrsvLevelOptions *)s->own)->fuse_passes));
  PetscCall(SpTrsvHostOrderedSetup(s));
  PetscFunctionReturn(PETSC_SUCCESS);
}

const SpTrsvExecutor SpTrsvExecHost_level = {SpTrsvHostLevelSetup, SpTrsvHostOrderedUpdateValues, SpTrsvHostOrderedSolve, SpTrsvHostOrderedSweep, SpTrsvHostOrderedDestroy, NULL};

/* the level path's options: the defaults, and its parser (inside the caller's PetscOptionsBegin/End, with its prefix) */
static PetscErrorCode SpTrsvOptionsDefault_level(void *own)
{
  PetscFunctionBegin;
  ((SpTrsvLevelOptions *)own)->fuse_passes = 1;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SpTrsvOptionsSet_level(SpTrsvOptionItems PetscOptionsObject, SpTrsvPathOptions *opts, void *own)
{
  SpTrsvLevelOptions *lo = (SpTrsvLevelOptions *)own;

  PetscFunctionBegin;
  PetscCall(PetscOptionsBool("-mat_sptrsv_graph", "CUDA: replay each solve's launches as a CUDA graph", "MatSolverType sptrsv_level", opts->use_graph, &opts->use_graph, NULL));
  PetscCall(PetscOptionsInt("-mat_sptrsv_fuse_passes", "CUDA: fuse a level into one block when it takes at most this many passes of the block", "MatSolverType sptrsv_level", lo->fuse_passes, &lo->fuse_passes, NULL));
  PetscCheck(lo->fuse_passes >= 1, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-%smat_sptrsv_fuse_passes must be >= 1, got %" PetscInt_FMT, PetscOptionsObject->prefix ? PetscOptionsObject->prefix : "", lo->fuse_passes);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* paper 000: level (LEVR/LEVC) and element (ELMR/ELMC) scheduling */
PetscBool  SpTrsvCitedLi2020     = PETSC_FALSE;
const char SpTrsvCitationLi2020[] = "@article{li2017sptrsv,\n"
                                    "  author  = {Ruipeng Li and Chaoyu Zhang},\n"
                                    "  title   = {Efficient Parallel Implementations of Sparse Triangular Solves for {GPU} Architectures},\n"
                                    "  journal = {Proceedings of the SIAM Conference on Parallel Processing for Scientific Computing},\n"
                                    "  year    = {2020}\n}\n";

/* the path's registry entry; PC gs sweeps with it on the host when its scheduler is auto */
const struct _n_SpTrsvPath SpTrsvPath_level = {
  .name            = "level",
  .solvertype      = MATSOLVERSPTRSVLEVEL,
  .summary         = "level-set scheduling: rows grouped by dependency depth, one barrier per level (paper 000)",
  .ilu             = PETSC_TRUE,
  .icc             = PETSC_TRUE,
  .csc             = PETSC_TRUE,
  .sweeps          = PETSC_TRUE,
  .analyze         = SpTrsvAnalyze_level,
  .exec            = {&SpTrsvExecHost_level, SPTRSV_CUDA_EXEC(level)},
  .options_size    = sizeof(SpTrsvLevelOptions),
  .options_default = SpTrsvOptionsDefault_level,
  .options_set     = SpTrsvOptionsSet_level,
  .citation        = SpTrsvCitationLi2020,
  .cited           = &SpTrsvCitedLi2020,
  .gs_host         = PETSC_TRUE,
  .rule_rank       = {3, 1, 2},
  .auto_start      = {2, 3},
};
