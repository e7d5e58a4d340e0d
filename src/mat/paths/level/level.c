/*
   sptrsv_level (paper 000: LEVR / LEVC): level-set scheduling. Rows are grouped by level,
   lev(i) = 1 + max lev(j) over the dependencies j of row i; the rows of a level are solved in parallel,
   one level after the other. The analysis also decides the launch geometry the CUDA kernels follow
   (include/sptrsv/paths/level.h): lanes per row of each level, and which runs of small levels are fused
   into one single-block launch. The host executor runs the rows in the same order and checks that
   schedule once per pattern.
*/
#include <sptrsv/paths/level.h>
#include <sptrsv/hostexec.h>
#include <petsctime.h>

/* lanes per row of a level: the smallest power of two >= the mean row length, clamped to 2..32 (paper
   000 uses groups of 2..32 lanes). Rows at least as long as K keep every lane busy on the first pass
   of the row loop; longer rows loop. */
int SpTrsvLanesPerRow(PetscReal mean)
{
  int K = 2;
  while (K < 32 && (PetscReal)K < mean) K *= 2;
  return K;
}

static int SpTrsvRoundUpWarp(PetscInt64 t)
{
  return (int)(PetscMax(32, PetscMin((PetscInt64)SPTRSV_LEVEL_FUSED_MAX_THREADS, (t + 31) / 32 * 32)));
}

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

/*
  SpTrsvLevelSegmentsBuild - choose K per level (from its mean row length in ptr, i.e. the rows of op(T)
  for CSR and its columns for CSC) and group consecutive small levels into fused segments. The rows of level l
  are the positions levptr[l] .. levptr[l+1]-1; ptr is indexed by row (order[position]), or by position when
  order is NULL (a path that stores its own rows in plan order: the partitioned inverse). ls->seg and ls->levK
  hold nlevels + 1 entries.
*/
PetscErrorCode SpTrsvLevelSegmentsBuild(PetscInt nlevels, const PetscInt *levptr, const PetscInt *order, const PetscInt *ptr, PetscInt fuse_passes, SpTrsvLevelSchedule *ls)
{
  PetscBool          *small;
  PetscInt            ns = 0;
  SpTrsvLevelSegment *s;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(nlevels + 1, &small));
  for (PetscInt l = 0; l < nlevels; l++) {
    const PetscInt rows = levptr[l + 1] - levptr[l];
    PetscInt64     len  = 0;
    for (PetscInt k = levptr[l]; k < levptr[l + 1]; k++) {
      const PetscInt i = order ? order[k] : k;
      len += ptr[i + 1] - ptr[i];
    }
    ls->levK[l] = SpTrsvLanesPerRow(rows ? (PetscReal)len / rows : 0);
    /* the fused block loops over the rows of a level: a level is fused when it takes at most fuse_passes
       passes of the block (one barrier instead of one launch, at the price of a single SM's throughput) */
    small[l] = (PetscBool)((PetscInt64)rows * ls->levK[l] <= (PetscInt64)fuse_passes * SPTRSV_LEVEL_FUSED_MAX_THREADS);
  }
  /* count: a run of small levels is one segment, every large level is one */
  for (PetscInt l = 0; l < nlevels; l++)
    if (!small[l] || l == 0 || !small[l - 1]) ns++;
  s = ls->seg;
  ns = 0;
  for (PetscInt l = 0; l < nlevels;) {
    SpTrsvLevelSegment *g = &s[ns++];
    if (small[l]) {
      PetscInt64 need = 0;
      g->kind         = SPTRSV_LEVEL_SEG_FUSED;
      g->l0           = (int)l;
      for (; l < nlevels && small[l]; l++) need = PetscMax(need, (PetscInt64)(levptr[l + 1] - levptr[l]) * ls->levK[l]);
      g->l1    = (int)l;
      g->start = (int)levptr[g->l0];
      g->nrows = (int)(levptr[l] - levptr[g->l0]);
      g->K     = 0;
      g->block = SpTrsvRoundUpWarp(need); /* just enough warps for the widest level of the run */
      g->grid  = 1;
    } else {
      const PetscInt64 threads = (PetscInt64)(levptr[l + 1] - levptr[l]) * ls->levK[l];
      g->kind                  = SPTRSV_LEVEL_SEG_LEVEL;
      g->l0                    = (int)l;
      g->l1                    = (int)(l + 1);
      g->start                 = (int)levptr[l];
      g->nrows                 = (int)(levptr[l + 1] - levptr[l]);
      g->K                     = ls->levK[l];
      g->block                 = SPTRSV_LEVEL_BLOCK;
      g->grid                  = (unsigned int)((threads + SPTRSV_LEVEL_BLOCK - 1) / SPTRSV_LEVEL_BLOCK);
      l++;
    }
  }
  ls->nseg = ns;
  PetscCall(PetscFree(small));
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

/* SpTrsvLevelSegmentsCheck - the same check on levels given as position ranges (SpTrsvLevelSegmentsBuild()) */
PetscErrorCode SpTrsvLevelSegmentsCheck(PetscInt nlevels, const PetscInt *levptr, const SpTrsvLevelSchedule *ls, PetscInt fuse_passes)
{
  PetscInt next = 0;

  PetscFunctionBegin;
  for (PetscInt l = 0; l < nlevels; l++) {
    const int K = ls->levK[l];
    PetscCheck(K >= 2 && K <= 32 && (K & (K - 1)) == 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Level %" PetscInt_FMT ": %d lanes per row", l, K);
  }
  for (PetscInt k = 0; k < ls->nseg; k++) {
    const SpTrsvLevelSegment *g = &ls->seg[k];
    PetscCheck(g->l0 == next && g->l1 > g->l0 && g->l1 <= nlevels, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Segment %" PetscInt_FMT " covers levels [%d, %d), expected to start at %" PetscInt_FMT, k, g->l0, g->l1, next);
    PetscCheck(g->start == levptr[g->l0] && g->start + g->nrows == levptr[g->l1], PETSC_COMM_SELF, PETSC_ERR_PLIB, "Segment %" PetscInt_FMT ": rows [%d, %d) do not match its levels", k, g->start, g->start + g->nrows);
    if (g->kind == SPTRSV_LEVEL_SEG_FUSED) {
      PetscCheck(g->grid == 1 && g->block % 32 == 0 && g->block >= 32 && g->block <= SPTRSV_LEVEL_FUSED_MAX_THREADS, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Fused segment %" PetscInt_FMT ": %u blocks of %d threads", k, g->grid, g->block);
      for (int l = g->l0; l < g->l1; l++) PetscCheck((PetscInt64)(levptr[l + 1] - levptr[l]) * ls->levK[l] <= (PetscInt64)fuse_passes * SPTRSV_LEVEL_FUSED_MAX_THREADS, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Fused segment %" PetscInt_FMT ": level %d takes more than %" PetscInt_FMT " passes", k, l, fuse_passes);
    } else {
      PetscCheck(g->l1 == g->l0 + 1 && g->K == ls->levK[g->l0] && g->block == SPTRSV_LEVEL_BLOCK, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Level segment %" PetscInt_FMT " is malformed", k);
      PetscCheck((PetscInt64)g->grid * (g->block / g->K) >= g->nrows, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Level segment %" PetscInt_FMT ": %u blocks cannot hold %d rows", k, g->grid, g->nrows);
    }
    next = g->l1;
  }
  PetscCheck(next == nlevels, PETSC_COMM_SELF, PETSC_ERR_PLIB, "The launch sequence covers %" PetscInt_FMT " of %" PetscInt_FMT " levels", next, nlevels);
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
};
