/*
   sptrsv_syncfree (paper 001): synchronization-free solves with warp packing. The analysis levels the
   rows (as soon as possible, or as late as possible with -mat_sptrsv_levels alap), bins the rows of each
   level by length and packs them into warps of 32/K rows with K lanes each (include/sptrsv/paths/syncfree.h),
   and with -mat_sptrsv_storage warpell lays the entries out as a warp-packed ELL image. The GPU kernel
   hands the warps out in that order; every row waits only for its own dependencies. The host executor
   runs the rows in the same order and checks the whole schedule (dispatch order, warps, bins, ELL image)
   once per pattern: it is what the deadlock-freedom argument of src/cuda/paths/syncfree/syncfree.cu rests on.
*/
#include <sptrsv/paths/syncfree.h>
#include <sptrsv/utils.h>
#include <sptrsv/host_rows.h>
#include <sptrsv/threads.h>
#include "runs.h"
#include <petsctime.h>

/* lanes per row for a row of len entries: the smallest power of two >= len, 1..32 (32 for longer rows) */
int SpTrsvSyncFreeLanes(PetscInt len)
{
  int K = 1;
  while (K < 32 && K < len) K *= 2;
  return K;
}

/* lanes of a row of len entries with at most maxK lanes per row: min(SpTrsvSyncFreeLanes(len), maxK) */
int SpTrsvSyncFreeRowLanes(PetscInt len, PetscInt maxK)
{
  return (int)PetscMin((PetscInt)SpTrsvSyncFreeLanes(len), maxK);
}

/* a long row: more than 32 entries with up to 32 lanes per row; it gets a warp of its own */
static PetscBool SpTrsvSyncFreeLong(PetscInt len, PetscInt maxK)
{
  return (PetscBool)(len > 32 && maxK == 32);
}

/* bin of a row: log2 of its lanes, or SPTRSV_SYNCFREE_NBINS - 1 for a long row */
static int SpTrsvSyncFreeBin(PetscInt len, PetscInt maxK)
{
  return SpTrsvSyncFreeRowBin(len, maxK); /* include/sptrsv/paths/syncfree.h: shared with the device analysis */
}

/* lanes word of the warp holding rows order[k0 .. k1-1] with K lanes each: K, with SPTRSV_SYNCFREE_TAIL when
   a row has more entries than K */
static int SpTrsvSyncFreeWarpWord(const SpTrsvOp *op, const PetscInt *order, PetscInt k0, PetscInt k1, int K)
{
  int w = K;
  for (PetscInt k = k0; k < k1; k++)
    if (op->ri[order[k] + 1] - op->ri[order[k]] > K) w |= SPTRSV_SYNCFREE_TAIL;
  return w;
}

static PetscErrorCode SpTrsvSyncFreeScheduleDestroy(SpTrsvPlan plan)
{
  SpTrsvSyncFreeSchedule *sf = (SpTrsvSyncFreeSchedule *)plan->data;

  PetscFunctionBegin;
  if (sf) {
    PetscCall(PetscFree2(sf->wstart, sf->wlanes));
    PetscCall(PetscFree(sf->ellmap));
  }
  PetscCall(PetscFree(plan->data));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvSyncFreePack - order the rows level by level, bin by bin inside a level, by index inside a bin,
  and cut each (level, bin) run into warps of 32/K rows (one row per warp for rows longer than 32)
*/
static PetscErrorCode SpTrsvSyncFreePack(const SpTrsvOp *op, SpTrsvPlan p, SpTrsvSyncFreeSchedule *sf)
{
  const PetscInt n = op->n;
  PetscInt      *cnt, *tmp, nw = 0;

  PetscFunctionBegin;
  PetscCall(PetscMalloc2(SPTRSV_SYNCFREE_NBINS + 1, &cnt, n + 1, &tmp));
  /* warps: count per level and bin; the widest case is one warp per row */
  PetscCall(PetscMalloc2(n + 1, &sf->wstart, n + 1, &sf->wlanes));
  for (PetscInt l = 0; l < p->nlevels; l++) {
    const PetscInt l0 = p->levptr[l], l1 = p->levptr[l + 1];
    PetscInt       pos;
    /* stable counting sort of the level's rows by bin (they come by ascending index) */
    PetscCall(PetscArrayzero(cnt, SPTRSV_SYNCFREE_NBINS + 1));
    for (PetscInt k = l0; k < l1; k++) {
      const PetscInt i = p->order[k];
      cnt[SpTrsvSyncFreeBin(op->ri[i + 1] - op->ri[i], sf->max_lanes) + 1]++;
    }
    for (int b = 0; b < SPTRSV_SYNCFREE_NBINS; b++) cnt[b + 1] += cnt[b];
    for (PetscInt k = l0; k < l1; k++) {
      const PetscInt i = p->order[k];
      tmp[l0 + cnt[SpTrsvSyncFreeBin(op->ri[i + 1] - op->ri[i], sf->max_lanes)]++] = i;
    }
    PetscCall(PetscArraycpy(p->order + l0, tmp + l0, l1 - l0));
    /* cut into warps: cnt[b] is now the end of bin b inside the level */
    pos = l0;
    for (int b = 0; b < SPTRSV_SYNCFREE_NBINS; b++) {
      const PetscInt end = l0 + cnt[b];
      const int      K   = SpTrsvSyncFreeBinLanes(b);
      const PetscInt per = SpTrsvSyncFreeBinRowsPerWarp(b);
      sf->binrows[b] += end - pos;
      for (; pos < end; pos += per) {
        sf->wstart[nw] = pos;
        sf->wlanes[nw] = SpTrsvSyncFreeWarpWord(op, p->order, pos, PetscMin(pos + per, end), K);
        nw++;
        sf->binwarps[b]++;
      }
      pos = end;
    }
  }
  sf->wstart[nw] = n;
  sf->nwarps     = nw;
  PetscCall(PetscFree2(cnt, tmp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the plan's order becomes the triangle's own order (natural dispatch; the runs dispatch's work sets it in runs.c; the position map is its own inverse) */
static PetscErrorCode SpTrsvSyncFreeNaturalOrder(const SpTrsvOp *op, SpTrsvPlan p)
{
  PetscFunctionBegin;
  for (PetscInt k = 0; k < op->n; k++) p->order[k] = SpTrsvSyncFreeNaturalPos(op, k);
  PetscCall(PetscFree(p->levptr)); /* the order is not by level any more */
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvSyncFreePackNatural - the rows in the triangle's own order (a topological order), consecutive rows in one
  warp while they fit: r rows of K lanes with r K <= 32, K the smallest power of two >= the longest of them;
  a row longer than 32 has a warp of its own
*/
static PetscErrorCode SpTrsvSyncFreePackNatural(const SpTrsvOp *op, SpTrsvPlan p, SpTrsvSyncFreeSchedule *sf)
{
  const PetscInt n = op->n;
  PetscInt       nw = 0;

  PetscFunctionBegin;
  PetscCall(SpTrsvSyncFreeNaturalOrder(op, p));
  PetscCall(PetscMalloc2(n + 1, &sf->wstart, n + 1, &sf->wlanes));
  for (PetscInt k = 0; k < n;) {
    PetscInt r = 0;
    int      K = 1;
    sf->wstart[nw] = k;
    while (k + r < n) {
      const PetscInt i = p->order[k + r], len = op->ri[i + 1] - op->ri[i];
      const int      Kn = PetscMax(K, SpTrsvSyncFreeRowLanes(len, sf->max_lanes));
      const PetscBool lng = SpTrsvSyncFreeLong(len, sf->max_lanes);
      if (lng && r > 0) break;      /* a long row starts a warp of its own */
      if ((r + 1) * Kn > 32) break; /* it does not fit */
      K = Kn;
      r++;
      if (lng) break; /* and ends it */
    }
    sf->wlanes[nw] = SpTrsvSyncFreeWarpWord(op, p->order, k, k + r, K);
    for (PetscInt q = k; q < k + r; q++) sf->binrows[SpTrsvSyncFreeBin(op->ri[p->order[q] + 1] - op->ri[p->order[q]], sf->max_lanes)]++;
    sf->binwarps[r == 1 && SpTrsvSyncFreeLong(op->ri[p->order[k] + 1] - op->ri[p->order[k]], sf->max_lanes) ? SPTRSV_SYNCFREE_NBINS - 1 : SpTrsvSyncFreeBin(K, 32)]++;
    k += r;
    nw++;
  }
  sf->wstart[nw] = n;
  sf->nwarps     = nw;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* runs, CUDA: the entries a lane loads at once (the kernel's template B, include/sptrsv/paths/syncfree.h): the request,
   else the smallest of 4, 8, 16 that holds the longest lane's lanemax entries; never below min(16, 4 R), the batch of
   R 7-point rows (the instantiated pairs of R and B) */
static PetscInt SpTrsvSyncFreeRunBatch(PetscInt req, PetscInt R, PetscInt lanemax)
{
  PetscInt b = req ? req : 4;

  if (!req)
    while (b < SPTRSV_SYNCFREE_RUN_BATCH && b < lanemax) b *= 2;
  return PetscMax(b, PetscMin((PetscInt)SPTRSV_SYNCFREE_RUN_BATCH, 4 * R));
}

/* the runs dispatch's windows (runs.c) into the schedule: their arrays whatever happened (the plan frees them), and when the
   pass worked (ok) the figures, the kernel's batch of loads and the automatic pause from the longest lane's entries */
static void SpTrsvSyncFreeTakeRuns(PetscInt n, const SpTrsvRunsWindows *w, PetscBool ok, SpTrsvSyncFreeSchedule *sf)
{
  sf->wstart = w->wstart;
  sf->wlanes = w->wlanes;
  if (!ok) return;
  sf->nwarps       = w->nw;
  sf->binrows[5]   = n; /* 32 lanes per window */
  sf->binwarps[5]  = w->nw;
  sf->run_depth    = w->depth;
  sf->run_chained  = w->chained;
  sf->run_rows     = w->rows;
  sf->run_lane_max = w->lane_max;
  sf->run_batch    = SpTrsvSyncFreeRunBatch(sf->run_batch_req, sf->run_rows, sf->run_lane_max);
  if (sf->spin_ns_req == PETSC_DECIDE) sf->spin_ns = sf->run_poll_all && sf->run_lane_max > SPTRSV_SYNCFREE_RUN_SLEEP_ENTRIES ? SPTRSV_SYNCFREE_RUN_SLEEP_NS : 0;
}

PetscErrorCode SpTrsvSyncFreeCheckELL(PetscInt64 nwarps)
{
  PetscFunctionBegin;
  PetscCall(SpTrsvCheckIndex32(32 * nwarps, "The warp-packed ELL image (32 slots per warp)", "use -mat_sptrsv_storage csr"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the warp-packed ELL image: slot 32 w + g K + e holds entry e of row g of warp w */
static PetscErrorCode SpTrsvSyncFreeBuildELL(const SpTrsvOp *op, SpTrsvPlan p, SpTrsvSyncFreeSchedule *sf)
{
  PetscFunctionBegin;
  PetscCall(SpTrsvSyncFreeCheckELL(sf->nwarps));
  PetscCall(PetscMalloc1(32 * (size_t)sf->nwarps + 1, &sf->ellmap));
  sf->ell_filled = 0;
  for (PetscInt w = 0; w < sf->nwarps; w++) {
    const int K = sf->wlanes[w] & (SPTRSV_SYNCFREE_TAIL - 1);
    for (int lane = 0; lane < 32; lane++) {
      const PetscInt k = sf->wstart[w] + lane / K, e = lane % K;
      PetscInt       slot = -1;
      if (k < sf->wstart[w + 1]) {
        const PetscInt i = p->order[k];
        if (e < op->ri[i + 1] - op->ri[i]) slot = op->ri[i] + e;
      }
      sf->ellmap[32 * w + lane] = slot;
      if (slot >= 0) sf->ell_filled++;
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* insertion sort of a few sector numbers, then the count of distinct ones */
static PetscInt SpTrsvSyncFreeDistinct(PetscInt m, PetscInt64 *s)
{
  PetscInt d = 0;

  for (PetscInt a = 1; a < m; a++) {
    const PetscInt64 v = s[a];
    PetscInt         b = a - 1;
    for (; b >= 0 && s[b] > v; b--) s[b + 1] = s[b];
    s[b + 1] = v;
  }
  for (PetscInt a = 0; a < m; a++)
    if (!a || s[a] != s[a - 1]) d++;
  return d;
}

/*
  SpTrsvSyncFreeSectors - the memory model behind -mat_sptrsv_relabel auto: in its first poll round warp w reads, per
  lane, the solution word of one dependency (entry e of row g for lane g K + e). Those loads cost one 32-byte
  sector per distinct sector touched. Count the sectors of every warp's first round with the words indexed by row
  (x_j in word j) and by dispatch position (word pos(j)); relabel when positions touch fewer.
*/
static PetscErrorCode SpTrsvSyncFreeSectors(const SpTrsvOp *op, SpTrsvPlan p, SpTrsvSyncFreeSchedule *sf)
{
  const PetscInt per = 32 / (PetscInt)sizeof(PetscScalar); /* words per sector */
  PetscInt      *pos;
  PetscInt64     srow[32], spos[32];

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(op->n + 1, &pos));
  for (PetscInt k = 0; k < op->n; k++) pos[p->order[k]] = k;
  sf->sectors_row = sf->sectors_pos = 0;
  for (PetscInt w = 0; w < sf->nwarps; w++) {
    const int K = sf->wlanes[w] & (SPTRSV_SYNCFREE_TAIL - 1);
    PetscInt  m = 0;
    for (PetscInt k = sf->wstart[w]; k < sf->wstart[w + 1]; k++) {
      const PetscInt i = p->order[k], q = PetscMin(op->ri[i + 1], op->ri[i] + K);
      for (PetscInt e = op->ri[i]; e < q && m < 32; e++, m++) {
        srow[m] = op->rj[e] / per;
        spos[m] = pos[op->rj[e]] / per;
      }
    }
    sf->sectors_row += SpTrsvSyncFreeDistinct(m, srow);
    sf->sectors_pos += SpTrsvSyncFreeDistinct(m, spos);
  }
  PetscCall(PetscFree(pos));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* SpTrsvSyncFreeRelabelDecide - -mat_sptrsv_relabel auto: index the solution words by dispatch position when that
   touches fewer sectors in the first poll rounds (the counts of SpTrsvSyncFreeSectors, or of the device analysis's
   SpTrsvSyncFreeSectorsKernel); otherwise the choice the plan recorded stands */
void SpTrsvSyncFreeRelabelDecide(SpTrsvSyncFreeSchedule *sf)
{
  if (sf->relabel_auto) sf->relabel = (PetscBool)(sf->sectors_pos < sf->sectors_row);
}

static PetscErrorCode SpTrsvSyncFreePlanAttach(SpTrsvPlan p, SpTrsvSyncFreeSchedule *sf)
{
  PetscFunctionBegin;
  p->data        = sf;
  p->destroydata = SpTrsvSyncFreeScheduleDestroy;
  p->view        = SpTrsvSyncFreeScheduleView;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvSyncFreeBuild - the host analysis of the schedule sf asks for (its options set, sf->device false; taken over
  by the plan): levels (ASAP, or ALAP), the dispatch order, the warps and bins, the ELL image, the sectors and the
  relabel decision. The device analysis (syncfree_analysis.cu) builds the same arrays and figures for ASAP level
  dispatch; SpTrsvSyncFreeAnalyzeHostOf gives the device check this reference.
*/
static PetscErrorCode SpTrsvSyncFreeBuild(const SpTrsvOp *op, SpTrsvSyncFreeSchedule *sf, SpTrsvPlan *plan)
{
  SpTrsvPlan p;

  PetscFunctionBegin;
  if (sf->runs) { /* the windows give the levels in the same pass */
    PetscCall(SpTrsvPlanCreateRows(op->n, &p));
    PetscCall(SpTrsvSyncFreePlanAttach(p, sf));
    {
      SpTrsvRunsWindows    w    = {sf->run_rows_max, NULL, NULL, 0, 0, 0, 0, 0};
      const PetscErrorCode ierr = SpTrsvRunsPack(op, p, &w);

      SpTrsvSyncFreeTakeRuns(op->n, &w, (PetscBool)!ierr, sf);
      if (ierr) { /* the plan (and sf, taken over) freed */
        PetscCall(SpTrsvPlanDestroy(&p));
        PetscCall(ierr);
      }
    }
    *plan = p; /* with its statistics */
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(SpTrsvPlanCreateLevels(op, (PetscBool)!sf->natural, &p)); /* natural: its own order, no level sort */
  if (sf->alap && !sf->natural && p->nlevels > 1) {
    PetscCall(SpTrsvLevelsALAP(op->n, op->ri, op->rj, op->lower, p->nlevels, p->level));
    p->level_asap = PETSC_FALSE;
    PetscCall(PetscFree(p->levptr));
    PetscCall(SpTrsvLevelsSort(op->n, p->level, p->nlevels, &p->levptr, p->order));
    PetscCall(SpTrsvPlanComputeStats(op, p));
  }
  PetscCall(SpTrsvSyncFreePlanAttach(p, sf));
  if (sf->natural) PetscCall(SpTrsvSyncFreePackNatural(op, p, sf));
  else PetscCall(SpTrsvSyncFreePack(op, p, sf));
  if (sf->warpell) PetscCall(SpTrsvSyncFreeBuildELL(op, p, sf));
  if (sf->relabel_auto) PetscCall(SpTrsvSyncFreeSectors(op, p, sf));
  SpTrsvSyncFreeRelabelDecide(sf);
  *plan = p;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SpTrsvOptionsCheck_syncfree(const SpTrsvPathOptions *, const void *);

/* the schedule the options ask for (*sf, PetscNew'ed), before any analysis: what to build and where */
static PetscErrorCode SpTrsvSyncFreeScheduleNew(SpTrsvFormat format, const SpTrsvPathOptions *popts, const void *own, SpTrsvSyncFreeSchedule **sfp)
{
  const SpTrsvSyncFreeOptions *opts = (const SpTrsvSyncFreeOptions *)own;
  SpTrsvSyncFreeSchedule      *sf;

  PetscFunctionBegin;
  PetscCheck(format == SPTRSV_FORMAT_CSR, PETSC_COMM_SELF, PETSC_ERR_SUP, "sptrsv_syncfree reads rows: the CSR format only");
  PetscCall(SpTrsvOptionsCheck_syncfree(popts, own)); /* the options' ranges, named with the prefix */
  /* what to build: the options, and where (the device analysis builds ASAP level dispatch only) */
  PetscCall(PetscNew(&sf));
  sf->device          = (PetscBool)(opts->analysis_device && !opts->natural && !opts->runs && !opts->alap);
  sf->pattern_device  = (PetscBool)(opts->analysis_device && opts->runs); /* runs: the windows here, the rest in the CUDA setup */
  sf->device_fallback = (PetscBool)(opts->analysis_device && !sf->device && !sf->pattern_device);
  sf->runs            = opts->runs;
  sf->dispatch_auto   = opts->dispatch_auto;
  sf->run_rows_max    = opts->run_rows;
  sf->natural         = (PetscBool)(opts->natural || opts->runs);
  sf->alap            = sf->natural ? PETSC_FALSE : opts->alap;
  sf->warpell         = opts->warpell;
  sf->max_lanes       = opts->max_lanes;
  sf->spin_ns_req     = opts->spin_ns;
  sf->spin_ns         = PetscMax(opts->spin_ns, 0); /* automatic: no pause, but for the runs dispatch's long lanes (SpTrsvSyncFreeTakeRuns) */
  sf->blocks_per_sm   = opts->blocks_per_sm;
  sf->blocks_per_sm_launch = PETSC_DECIDE;
  sf->block_warps_req = opts->block_warps;
  sf->block_warps     = opts->block_warps ? opts->block_warps : (opts->runs ? 1 : SPTRSV_SYNCFREE_WARPS); /* runs: one window per block (docs/PERFORMANCE.md, run 14), two on a wide wavefront (the CUDA setup) */
  sf->run_poll_all    = (PetscBool)(opts->runs && opts->run_poll_all);
  sf->run_batch_req   = opts->run_batch;
  sf->relabel_auto    = (PetscBool)(opts->relabel == SPTRSV_RELABEL_AUTO);
  sf->relabel         = (PetscBool)(!sf->relabel_auto && opts->relabel != 0); /* auto: SpTrsvSyncFreeRelabelDecide */
  if (sf->runs) sf->relabel_auto = PETSC_FALSE; /* runs: the CUDA executor indexes the words by position whatever the option (no sector count: its windows are not warps of rows) */
  *sfp = sf;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvSyncFreeAutoCheck - the automatic dispatch's check of a runs plan (*plan, from the windows pass). It estimates both
  dispatches' solve times (the constants in include/sptrsv/paths/syncfree.h): the runs dispatch's max(path x hop, windows x
  window), its path the windows' critical path plus the longest lane's extra batches of loads (each a round trip, on the
  path where that lane is: a row of hundreds of entries in one lane), against the level dispatch's max(levels x hop,
  entries x entry). Where the runs dispatch's is not the smaller, or its path (with those batches) is no shorter than the
  levels whatever the estimate (its work term counts windows, not entries: a triangle of few wide levels whose rows hold
  hundreds of entries would look cheap), the plan is replaced by the level dispatch's (its analysis again, with the same
  options but the dispatch), and -ksp_view says why. -info gives every runs plan's figures (the single and the paired
  analyses both come here):
  - a triangle without grid lines: windows of unrelated rows whose order makes them wait in a path no shorter than the
    levels (494_bus, zenios among the shared matrices), or a long row's lane on a path almost as long (rajat19's U);
  - many short windows where the levels are few and wide: a block-diagonal triangle's 500000 windows of 2 rows cost 9x
    the level dispatch's warps of 4 rows (docs/PERFORMANCE.md, runs dispatch run 20).
  The grids measured have 0.45-0.94 as many windows as levels on the critical path, and windows of 32 rows.
*/
static PetscErrorCode SpTrsvSyncFreeAutoCheck(const SpTrsvOp *op, SpTrsvFormat format, const SpTrsvPathOptions *popts, const void *own, SpTrsvPlan *plan)
{
  SpTrsvSyncFreeSchedule *sf = (SpTrsvSyncFreeSchedule *)(*plan)->data;
  SpTrsvSyncFreeOptions   lv = *(const SpTrsvSyncFreeOptions *)own;
  const PetscInt          L = (*plan)->nlevels, W = sf->run_depth, B = sf->run_batch > 0 ? sf->run_batch : SPTRSV_SYNCFREE_RUN_BATCH;
  const PetscInt          extra = sf->run_lane_max > B ? (sf->run_lane_max + B - 1) / B - 1 : 0, nwin = sf->nwarps;
  const double            path = (double)(W + extra) * SPTRSV_SYNCFREE_AUTO_HOP_NS, work = (double)nwin * SPTRSV_SYNCFREE_AUTO_WINDOW_NS;
  const double            tr = PetscMax(path, work), tl = PetscMax((double)L * SPTRSV_SYNCFREE_AUTO_HOP_NS, (double)(op->ri[op->n] - op->ri[0]) * SPTRSV_SYNCFREE_AUTO_ENTRY_NS);
  const PetscBool         longpath = (PetscBool)(W + extra >= L); /* the windows' path no shorter than the levels */
  SpTrsvSyncFreeSchedule *lsf;

  PetscFunctionBegin;
  if (!sf->runs) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscInfo(NULL, "sptrsv_syncfree: the %" PetscInt_FMT "-row %s triangle's windows: %" PetscInt_FMT " of %.1f rows on average, critical path %" PetscInt_FMT " windows (%" PetscInt_FMT " levels), longest lane %" PetscInt_FMT " entries\n", op->n, op->lower ? "lower" : "upper", nwin, nwin ? (double)op->n / (double)nwin : 0.0, W, L, sf->run_lane_max));
  if (!lv.dispatch_auto || L <= 0 || (!longpath && tr < tl)) PetscFunctionReturn(PETSC_SUCCESS);
  if (longpath) PetscCall(PetscInfo(NULL, "sptrsv_syncfree: the %" PetscInt_FMT "-row %s triangle's windows wait in a path of %" PetscInt_FMT " windows and %" PetscInt_FMT " more batches against %" PetscInt_FMT " levels: the level dispatch (-mat_sptrsv_dispatch auto)\n", op->n, op->lower ? "lower" : "upper", W, extra, L));
  else PetscCall(PetscInfo(NULL, "sptrsv_syncfree: the %" PetscInt_FMT "-row %s triangle's %" PetscInt_FMT " windows: about %.0f us of work against the level dispatch's %.0f: the level dispatch (-mat_sptrsv_dispatch auto)\n", op->n, op->lower ? "lower" : "upper", nwin, 1e-3 * tr, 1e-3 * tl));
  PetscCall(SpTrsvPlanDestroy(plan));
  lv.runs = PETSC_FALSE;
  PetscCall(SpTrsvAnalyze_syncfree(op, format, popts, &lv, plan));
  lsf               = (SpTrsvSyncFreeSchedule *)(*plan)->data;
  lsf->auto_windows = W;
  lsf->auto_batches = extra;
  lsf->auto_nwin    = longpath ? 0 : nwin;
  lsf->auto_us[0]   = 1e-3 * tr;
  lsf->auto_us[1]   = 1e-3 * tl;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SpTrsvAnalyze_syncfree(const SpTrsvOp *op, SpTrsvFormat format, const SpTrsvPathOptions *popts, const void *own, SpTrsvPlan *plan)
{
  SpTrsvPlan              p;
  SpTrsvSyncFreeSchedule *sf;
  PetscLogDouble          t0, t1;

  PetscFunctionBegin;
  PetscCall(PetscTime(&t0));
  PetscCall(SpTrsvSyncFreeScheduleNew(format, popts, own, &sf));
  if (sf->device) { /* the CUDA executor's setup builds the schedule (SpTrsvSyncFreeAnalyzeDevice) */
    PetscCall(PetscNew(&p));
    p->n = op->n;
    PetscCall(SpTrsvSyncFreePlanAttach(p, sf));
    *plan = p;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(SpTrsvSyncFreeBuild(op, sf, &p));
  PetscCall(SpTrsvSyncFreeAutoCheck(op, format, popts, own, &p));
  PetscCall(PetscTime(&t1));
  p->stats.analysis_time = t1 - t0;
  *plan                  = p;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvAnalyzePair_syncfree - the plans of a factor's two triangles (the path's analyze_pair): for the runs dispatch,
  the two windows passes at once in two of the setup's threads (SpTrsvRunsPackPair()), the same plans as two
  SpTrsvAnalyze_syncfree() calls, each with half the pair's time as its analysis time; otherwise two such calls
*/
static PetscErrorCode SpTrsvAnalyzePair_syncfree(const SpTrsvOp *op0, const SpTrsvOp *op1, SpTrsvFormat format, const SpTrsvPathOptions *popts, const void *own, SpTrsvPlan *plan0, SpTrsvPlan *plan1)
{
  SpTrsvPlan              p[2] = {NULL, NULL};
  SpTrsvSyncFreeSchedule *sf[2] = {NULL, NULL};
  const SpTrsvOp         *op[2] = {op0, op1};
  PetscLogDouble          t0, t1;
  PetscErrorCode          ierr = PETSC_SUCCESS;

  PetscFunctionBegin;
  if (!((const SpTrsvSyncFreeOptions *)own)->runs) {
    PetscCall(SpTrsvAnalyze_syncfree(op0, format, popts, own, plan0));
    ierr = SpTrsvAnalyze_syncfree(op1, format, popts, own, plan1);
    if (ierr) PetscCall(SpTrsvPlanDestroy(plan0));
    PetscCall(ierr);
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscTime(&t0));
  for (PetscInt t = 0; t < 2 && !ierr; t++) { /* each schedule taken over by its plan as soon as both exist */
    ierr = SpTrsvSyncFreeScheduleNew(format, popts, own, &sf[t]);
    if (!ierr) ierr = SpTrsvPlanCreateRows(op[t]->n, &p[t]);
    if (!ierr) ierr = SpTrsvSyncFreePlanAttach(p[t], sf[t]);
    else PetscCall(PetscFree(sf[t]));
  }
  if (!ierr) {
    SpTrsvRunsWindows w[2] = {
      {sf[0]->run_rows_max, NULL, NULL, 0, 0, 0, 0, 0},
      {sf[1]->run_rows_max, NULL, NULL, 0, 0, 0, 0, 0}
    };

    ierr = SpTrsvRunsPackPair(op0, p[0], &w[0], op1, p[1], &w[1]);
    for (PetscInt t = 0; t < 2; t++) SpTrsvSyncFreeTakeRuns(op[t]->n, &w[t], (PetscBool)!ierr, sf[t]);
    for (PetscInt t = 0; t < 2 && !ierr; t++) ierr = SpTrsvSyncFreeAutoCheck(op[t], format, popts, own, &p[t]);
  }
  if (ierr) { /* a plan the check replaced and whose new analysis failed is NULL */
    PetscCall(SpTrsvPlanDestroy(&p[0]));
    PetscCall(SpTrsvPlanDestroy(&p[1]));
    PetscCall(ierr);
  }
  PetscCall(PetscTime(&t1));
  for (PetscInt t = 0; t < 2; t++) p[t]->stats.analysis_time = (t1 - t0) / 2;
  *plan0 = p[0];
  *plan1 = p[1];
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvSyncFreeAnalyzeHostOf - the host analysis of what a plan left to the device analysis asks for (its options,
  built by SpTrsvSyncFreeBuild): every array and decision the device analysis must reproduce (the device check,
  tests/device/check_analysis.c, compares them entry by entry)
*/
PetscErrorCode SpTrsvSyncFreeAnalyzeHostOf(const SpTrsvOp *op, SpTrsvPlan dplan, SpTrsvPlan *hplan)
{
  const SpTrsvSyncFreeSchedule *dsf = (const SpTrsvSyncFreeSchedule *)dplan->data;
  SpTrsvSyncFreeSchedule       *sf;

  PetscFunctionBegin;
  PetscCheck(dsf->device, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Not a plan left to the device analysis");
  PetscCall(PetscNew(&sf));
  sf->warpell       = dsf->warpell;
  sf->max_lanes     = dsf->max_lanes;
  sf->spin_ns       = dsf->spin_ns;
  sf->spin_ns_req   = dsf->spin_ns_req;
  sf->blocks_per_sm = dsf->blocks_per_sm;
  sf->blocks_per_sm_launch = PETSC_DECIDE;
  sf->block_warps   = dsf->block_warps;
  sf->block_warps_req = dsf->block_warps_req;
  sf->relabel_auto  = dsf->relabel_auto;
  sf->relabel       = dsf->relabel_auto ? PETSC_FALSE : dsf->relabel;
  PetscCall(SpTrsvSyncFreeBuild(op, sf, hplan));
  (*hplan)->path = dplan->path;
  PetscCall(PetscStrncpy((*hplan)->prefix, dplan->prefix, sizeof((*hplan)->prefix)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvSyncFreeScheduleCheck - what the kernel relies on: the dispatch order puts every dependency
  first; the warps cover the positions in order; a warp's rows share one level (so none waits for
  another of its own warp) and one bin, K is a power of two in 1..32, at most 32/K rows per warp, every
  row has at most K entries except the single row of a long-row warp; the ELL image holds exactly the
  entries the lanes read
*/
PetscErrorCode SpTrsvSyncFreeScheduleCheck(const SpTrsvOp *op, SpTrsvPlan plan)
{
  SpTrsvSyncFreeSchedule *sf = (SpTrsvSyncFreeSchedule *)plan->data;

  PetscFunctionBegin;
  if (!sf->runs) PetscCall(SpTrsvPlanCheckDispatchOrder(op, plan)); /* runs: implied by the checks of its branch (every row at its own position, every dependency at an earlier one) */
  PetscCheck(sf->nwarps >= 0 && sf->wstart[0] == 0 && sf->wstart[sf->nwarps] == op->n, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Sync-free schedule: %" PetscInt_FMT " warps do not cover %" PetscInt_FMT " rows", sf->nwarps, op->n);
  if (sf->runs) { /* windows of consecutive positions in the triangle's order, each position in one; inside one, a row
                     depends on the row before it at most; every other dependency in a window dispatched earlier */
    PetscInt *disp;
    PetscCheck(sf->run_rows >= 1 && sf->run_rows <= SPTRSV_SYNCFREE_RUN_MAX_R && (sf->run_rows & (sf->run_rows - 1)) == 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Sync-free runs: %" PetscInt_FMT " rows per lane", sf->run_rows);
    PetscCheck(SpTrsvSyncFreeRunBatchValid(sf->run_batch, sf->run_rows), PETSC_COMM_SELF, PETSC_ERR_PLIB, "Sync-free runs: batches of %" PetscInt_FMT " entries with %" PetscInt_FMT " rows per lane", sf->run_batch, sf->run_rows);
    PetscCall(PetscMalloc1(op->n + 1, &disp));
    for (PetscInt k = 0; k < op->n; k++) disp[k] = -1;
    for (PetscInt w = 0; w < sf->nwarps; w++) {
      const PetscInt k0 = sf->wstart[w], k1 = k0 + sf->wlanes[w];
      PetscCheck(k0 >= 0 && k1 > k0 && k1 <= op->n && k1 - k0 <= 32 * sf->run_rows, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Sync-free runs: window %" PetscInt_FMT " holds positions %" PetscInt_FMT " to %" PetscInt_FMT ", at most %" PetscInt_FMT " rows", w, k0, k1 - 1, 32 * sf->run_rows);
      for (PetscInt k = k0; k < k1; k++) {
        PetscCheck(disp[k] < 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Sync-free runs: position %" PetscInt_FMT " in windows %" PetscInt_FMT " and %" PetscInt_FMT, k, disp[k], w);
        disp[k] = w;
      }
    }
    for (PetscInt k = 0; k < op->n; k++) PetscCheck(disp[k] >= 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Sync-free runs: position %" PetscInt_FMT " in no window", k);
    for (PetscInt k = 0; k < op->n; k++) {
      const PetscInt i = plan->order[k], w = disp[k], k0 = sf->wstart[w];
      PetscCheck(SpTrsvSyncFreeNaturalPos(op, i) == k, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Sync-free runs: row %" PetscInt_FMT " at position %" PetscInt_FMT, i, k);
      for (PetscInt e = op->ri[i]; e < op->ri[i + 1]; e++) {
        const PetscInt q = SpTrsvSyncFreeNaturalPos(op, op->rj[e]);
        PetscCheck(q < k0 || (q == k - 1 && k > k0), PETSC_COMM_SELF, PETSC_ERR_PLIB, "Sync-free runs: row %" PetscInt_FMT " of window %" PetscInt_FMT " depends on row %" PetscInt_FMT " of the same window, not the row before it", i, w, op->rj[e]);
        PetscCheck(q >= k0 || disp[q] < w, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Sync-free runs: row %" PetscInt_FMT " of window %" PetscInt_FMT " depends on row %" PetscInt_FMT " of window %" PetscInt_FMT ", dispatched later", i, w, op->rj[e], disp[q]);
      }
    }
    PetscCall(PetscFree(disp));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  for (PetscInt w = 0; w < sf->nwarps; w++) {
    const int      K  = sf->wlanes[w] & (SPTRSV_SYNCFREE_TAIL - 1);
    const PetscInt k0 = sf->wstart[w], k1 = sf->wstart[w + 1], lev = plan->level[plan->order[k0]];
    PetscCheck((sf->wlanes[w] & ~(SPTRSV_SYNCFREE_TAIL | (SPTRSV_SYNCFREE_TAIL - 1))) == 0 && K >= 1 && K <= 32 && (K & (K - 1)) == 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Sync-free schedule: warp %" PetscInt_FMT " has %d lanes per row", w, K);
    PetscCheck(k1 > k0 && (k1 - k0) * K <= 32, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Sync-free schedule: warp %" PetscInt_FMT " holds %" PetscInt_FMT " rows of %d lanes", w, k1 - k0, K);
    PetscCheck(sf->wlanes[w] == SpTrsvSyncFreeWarpWord(op, plan->order, k0, k1, K), PETSC_COMM_SELF, PETSC_ERR_PLIB, "Sync-free schedule: warp %" PetscInt_FMT ": wrong tail flag", w);
    for (PetscInt k = k0; k < k1; k++) {
      const PetscInt i = plan->order[k], len = op->ri[i + 1] - op->ri[i];
      const int      need = SpTrsvSyncFreeRowLanes(len, sf->max_lanes);
      /* level dispatch: one level and one bin per warp (no row waits for its own warp); natural dispatch:
         consecutive rows in the triangle's order, K enough lanes for each */
      if (!sf->natural) PetscCheck(plan->level[i] == lev, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Sync-free schedule: warp %" PetscInt_FMT " mixes levels %" PetscInt_FMT " and %" PetscInt_FMT, w, lev, plan->level[i]);
      else PetscCheck(SpTrsvSyncFreeNaturalPos(op, i) == k, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Sync-free schedule: natural dispatch puts row %" PetscInt_FMT " at position %" PetscInt_FMT, i, k);
      PetscCheck(!SpTrsvSyncFreeLong(len, sf->max_lanes) || k1 == k0 + 1, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Sync-free schedule: long row %" PetscInt_FMT " shares warp %" PetscInt_FMT, i, w);
      PetscCheck(sf->natural ? need <= K : need == K, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Sync-free schedule: row %" PetscInt_FMT " of length %" PetscInt_FMT " is in a warp of %d lanes per row", i, len, K);
    }
    if (sf->warpell)
      for (int lane = 0; lane < 32; lane++) {
        const PetscInt k = k0 + lane / K, e = lane % K, s = sf->ellmap[32 * w + lane];
        PetscInt       want = -1;
        if (k < k1 && e < op->ri[plan->order[k] + 1] - op->ri[plan->order[k]]) want = op->ri[plan->order[k]] + e;
        PetscCheck(s == want, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Sync-free ELL image: warp %" PetscInt_FMT " lane %d holds entry %" PetscInt_FMT ", expected %" PetscInt_FMT, w, lane, s, want);
      }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the host executor runs the rows in dispatch order, after checking the schedule the GPU would follow */
static PetscErrorCode SpTrsvHostSyncFreeSetup(SpTrsvSolver s)
{
  PetscFunctionBegin;
  PetscCheck(!((SpTrsvSyncFreeSchedule *)s->plan->data)->device, PETSC_COMM_SELF, PETSC_ERR_PLIB, "A sync-free plan left to the device analysis reached the host executor");
  PetscCall(SpTrsvSyncFreeScheduleCheck(&s->op, s->plan));
  PetscCall(SpTrsvHostOrderedSetup(s));
  PetscFunctionReturn(PETSC_SUCCESS);
}

const SpTrsvExecutor SpTrsvExecHost_syncfree = {SpTrsvHostSyncFreeSetup, SpTrsvHostOrderedUpdateValues, SpTrsvHostOrderedSolve, NULL, SpTrsvHostOrderedDestroy, NULL};

/* the sync-free path's options: the defaults (the measurements behind them: docs/perf-data/history/syncfree-runs.md and
   docs/PERFORMANCE.md): the automatic dispatch (the runs dispatch on the CUDA backend: faster end to end than the level
   dispatch on every PETSc tutorial of e2e run 19, its setup no longer above the level dispatch's; the level dispatch on
   the host), ASAP levels, CSR storage, up to 32 lanes per row, polls without pause, one block per ticket (the
   runs dispatch: persistent blocks by its wavefront's width), the
   solution's indexing (row or dispatch position) chosen by the analysis, the schedule built on the GPU by the CUDA
   backend */
static PetscErrorCode SpTrsvOptionsDefault_syncfree(void *own)
{
  SpTrsvSyncFreeOptions *o = (SpTrsvSyncFreeOptions *)own;

  PetscFunctionBegin;
  o->max_lanes       = 32;
  o->dispatch_auto   = PETSC_TRUE; /* the runs dispatch on the GPU: docs/PERFORMANCE.md, e2e run 19 */
  o->run_rows        = 1;
  o->run_poll_all    = PETSC_TRUE; /* every lane polls: docs/PERFORMANCE.md, run 14 */
  o->blocks_per_sm   = PETSC_DECIDE; /* runs dispatch: persistent blocks by its wavefront (run 15); else one block per ticket */
  o->spin_ns         = PETSC_DECIDE; /* runs dispatch: a pause between polls for long lanes (run 17); else none */
  o->relabel         = SPTRSV_RELABEL_AUTO;
  o->analysis_device = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvOptionsCheck_syncfree - the numeric sync-free options' ranges (the analysis checks them too), each message naming
  the option with the options' prefix: for a factor that may hand a triangle to a nested sync-free solver (a path whose
  delegate is sync-free), so that a bad value stops at the options and not only when a triangle happens to be delegated
*/
static PetscErrorCode SpTrsvOptionsCheck_syncfree(const SpTrsvPathOptions *popts, const void *own)
{
  const SpTrsvSyncFreeOptions *opts = (const SpTrsvSyncFreeOptions *)own;

  PetscFunctionBegin;
  PetscCheck(opts->max_lanes >= 1 && opts->max_lanes <= 32 && (opts->max_lanes & (opts->max_lanes - 1)) == 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-%smat_sptrsv_max_lanes must be 1, 2, 4, 8, 16 or 32, got %" PetscInt_FMT, popts->prefix, opts->max_lanes);
  PetscCheck(opts->spin_ns >= -1 && opts->spin_ns <= 1000000, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-%smat_sptrsv_spin_ns must be in [-1, 1000000] (-1: automatic), got %" PetscInt_FMT, popts->prefix, opts->spin_ns);
  PetscCheck(opts->blocks_per_sm >= -1 && opts->blocks_per_sm <= 64, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-%smat_sptrsv_blocks_per_sm must be in [-1, 64] (-1: automatic, 0: one block per ticket), got %" PetscInt_FMT, popts->prefix, opts->blocks_per_sm);
  PetscCheck(opts->block_warps == 0 || opts->block_warps == 1 || opts->block_warps == 2 || opts->block_warps == SPTRSV_SYNCFREE_WARPS, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-%smat_sptrsv_block_warps must be 0 (automatic), 1, 2 or %d, got %" PetscInt_FMT, popts->prefix, SPTRSV_SYNCFREE_WARPS, opts->block_warps);
  PetscCheck(opts->run_batch == 0 || opts->run_batch == 4 || opts->run_batch == 8 || opts->run_batch == SPTRSV_SYNCFREE_RUN_BATCH, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-%smat_sptrsv_run_batch must be 0 (automatic), 4, 8 or %d, got %" PetscInt_FMT, popts->prefix, SPTRSV_SYNCFREE_RUN_BATCH, opts->run_batch);
  PetscCheck(opts->run_rows >= 1 && opts->run_rows <= SPTRSV_SYNCFREE_RUN_MAX_R && (opts->run_rows & (opts->run_rows - 1)) == 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-%smat_sptrsv_run_rows must be 1, 2, 4 or 8, got %" PetscInt_FMT, popts->prefix, opts->run_rows);
  PetscCheck(!opts->runs || !opts->warpell, PETSC_COMM_SELF, PETSC_ERR_ARG_INCOMP, "-%smat_sptrsv_dispatch runs reads CSR: it cannot be combined with -%smat_sptrsv_storage warpell", popts->prefix, popts->prefix);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* a device analysis and the relabelled solution words only concern the CUDA executor; the automatic dispatch is the runs
   dispatch there (with ASAP levels and CSR storage: the options the runs dispatch reads), the level dispatch elsewhere */
static PetscErrorCode SpTrsvOptionsBackend_syncfree(SpTrsvExecSlot slot, void *own)
{
  SpTrsvSyncFreeOptions *o = (SpTrsvSyncFreeOptions *)own;

  PetscFunctionBegin;
  if (o->dispatch_auto && !o->runs && !o->natural) o->runs = (PetscBool)(slot == SPTRSV_EXEC_CUDA && !o->alap && !o->warpell); /* a dispatch set in the struct stays */
  if (slot != SPTRSV_EXEC_CUDA) {
    o->analysis_device = PETSC_FALSE;
    o->relabel         = 0;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the sync-free path's parser, inside the caller's PetscOptionsBegin/End (so with its prefix) */
static PetscErrorCode SpTrsvOptionsSet_syncfree(SpTrsvOptionItems PetscOptionsObject, SpTrsvPathOptions *popts, void *own)
{
  SpTrsvSyncFreeOptions *opts       = (SpTrsvSyncFreeOptions *)own;
  const char *const      levels[]   = {"asap", "alap"};
  const char *const      storage[]  = {"csr", "warpell"};
  const char *const      dispatch[] = {"level", "natural", "runs", "auto"};
  const char *const      where[]    = {"host", "device"};
  PetscInt               lv = opts->alap ? 1 : 0, st = opts->warpell ? 1 : 0, dp = opts->dispatch_auto ? 3 : (opts->runs ? 2 : (opts->natural ? 1 : 0)), an = opts->analysis_device ? 1 : 0;
  PetscBool              lvset = PETSC_FALSE;

  PetscFunctionBegin;
  (void)popts;
  PetscCall(PetscOptionsEList("-mat_sptrsv_levels", "Levels the rows are dispatched by: as soon as possible or as late as possible (given with -mat_sptrsv_dispatch auto: the level dispatch)", "MatSolverType sptrsv_syncfree", levels, 2, levels[lv], &lv, &lvset));
  PetscCall(PetscOptionsEList("-mat_sptrsv_storage", "Storage the kernel reads: CSR in dispatch order, or warp-packed ELL (32 slots per warp) with a CSR tail", "MatSolverType sptrsv_syncfree", storage, 2, storage[st], &st, NULL));
  PetscCall(PetscOptionsEList("-mat_sptrsv_dispatch", "Order the rows go out in: level by level (packed by length), the triangle's own order (no level sort), that order in windows of up to 256 rows, one warp each, a row's dependency on the row before it solved inside the warp (runs: grid lines), or auto: runs on the CUDA backend, level elsewhere", "MatSolverType sptrsv_syncfree", dispatch, 4, dispatch[dp], &dp, NULL));
  PetscCall(PetscOptionsEList("-mat_sptrsv_analysis", "Where the CUDA backend builds the schedule: host (the reference) or device (ASAP level dispatch; ALAP and natural dispatch stay on the host)", "MatSolverType sptrsv_syncfree", where, 2, where[an], &an, NULL));
  opts->analysis_device = (PetscBool)(an == 1);
  opts->natural       = (PetscBool)(dp == 1);
  opts->runs          = (PetscBool)(dp == 2);
  opts->dispatch_auto = (PetscBool)(dp == 3 && !lvset); /* resolved per backend (SpTrsvOptionsBackend_syncfree); levels asked for: the level dispatch */
  opts->alap    = (PetscBool)(lv == 1);
  opts->warpell = (PetscBool)(st == 1);
  PetscCall(PetscOptionsInt("-mat_sptrsv_max_lanes", "Lanes per row at most (1, 2, 4, ..., 32): rows with more entries loop over them", "MatSolverType sptrsv_syncfree", opts->max_lanes, &opts->max_lanes, NULL));
  PetscCall(PetscOptionsInt("-mat_sptrsv_run_rows", "Runs dispatch: rows per lane at most (1, 2, 4, 8): a window holds up to 32 times as many rows, longer chains are cut into windows", "MatSolverType sptrsv_syncfree", opts->run_rows, &opts->run_rows, NULL));
  PetscCall(PetscOptionsInt("-mat_sptrsv_run_batch", "Runs dispatch, CUDA: entries a lane loads at once, 4, 8 or " PetscStringize(SPTRSV_SYNCFREE_RUN_BATCH) " (0: automatic, the smallest that holds the longest lane's entries; at least 4 times the rows per lane, up to " PetscStringize(SPTRSV_SYNCFREE_RUN_BATCH) ")", "MatSolverType sptrsv_syncfree", opts->run_batch, &opts->run_batch, NULL));
  {
    const char *const poll[] = {"lane", "all"};
    PetscInt          pl     = opts->run_poll_all ? 1 : 0;
    PetscCall(PetscOptionsEList("-mat_sptrsv_run_poll", "Runs dispatch, CUDA: how a window waiting for earlier windows polls: every lane loads its missing words again each round (all), or one lane spins on the latest word while the warp waits (lane)", "MatSolverType sptrsv_syncfree", poll, 2, poll[pl], &pl, NULL));
    opts->run_poll_all = (PetscBool)(pl == 1);
  }
  PetscCall(PetscOptionsInt("-mat_sptrsv_spin_ns", "CUDA: nanoseconds a lane waiting for a dependency sleeps between two polls (0: poll without pause; -1: automatic, " PetscStringize(SPTRSV_SYNCFREE_RUN_SLEEP_NS) " for the runs dispatch with every lane polling when the longest lane holds more than " PetscStringize(SPTRSV_SYNCFREE_RUN_SLEEP_ENTRIES) " entries, else 0)", "MatSolverType sptrsv_syncfree", opts->spin_ns, &opts->spin_ns, NULL));
  PetscCall(PetscOptionsInt("-mat_sptrsv_blocks_per_sm", "CUDA: resident blocks per multiprocessor that take the warps in turn (0: one block per ticket; -1: automatic, for the runs dispatch by the width of its windows' wavefront, else 0)", "MatSolverType sptrsv_syncfree", opts->blocks_per_sm, &opts->blocks_per_sm, NULL));
  PetscCall(PetscOptionsInt("-mat_sptrsv_block_warps", "CUDA: warps per block, each a window (runs dispatch) or a warp of rows, 1, 2 or " PetscStringize(SPTRSV_SYNCFREE_WARPS) " (0: automatic, for the runs dispatch 2 where a depth of its windows' DAG holds " PetscStringize(SPTRSV_SYNCFREE_RUN_PAIR_WIDTH) " or more windows per multiprocessor, else 1; " PetscStringize(SPTRSV_SYNCFREE_WARPS) " otherwise)", "MatSolverType sptrsv_syncfree", opts->block_warps, &opts->block_warps, NULL));
  {
    const char *const relabel[] = {"auto", "false", "true"};
    PetscInt          rl        = opts->relabel == SPTRSV_RELABEL_AUTO ? 0 : (opts->relabel ? 2 : 1);
    PetscCall(PetscOptionsEList("-mat_sptrsv_relabel", "CUDA: index the solution the rows wait on by dispatch position (true), by row (false), or whichever touches fewer memory sectors per poll round (auto)", "MatSolverType sptrsv_syncfree", relabel, 3, relabel[rl], &rl, NULL));
    opts->relabel = rl == 0 ? SPTRSV_RELABEL_AUTO : (rl == 2 ? 1 : 0);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvAutoVariant_syncfree - the variants the automatic choice may name: "" (the options as given) and "runs" (the runs
  dispatch, for the learning choice: SpTrsvAutoLearnVariant_syncfree), which the options own allow unless they ask for
  another dispatch, ALAP levels or the warp-packed ELL (own NULL: any); its options into set when set is given
*/
static PetscBool SpTrsvAutoVariant_syncfree(const char *variant, const void *own, void *set)
{
  const SpTrsvSyncFreeOptions *o = (const SpTrsvSyncFreeOptions *)own;

  if (!variant || !variant[0]) return PETSC_TRUE;
  if (strcmp(variant, "runs")) return PETSC_FALSE;
  if (set) {
    ((SpTrsvSyncFreeOptions *)set)->runs          = PETSC_TRUE;
    ((SpTrsvSyncFreeOptions *)set)->natural       = PETSC_FALSE;
    ((SpTrsvSyncFreeOptions *)set)->dispatch_auto = PETSC_FALSE;
  }
  return (PetscBool)(!o || o->runs || (!o->natural && !o->alap && !o->warpell));
}

/*
  SpTrsvAutoLearnVariant_syncfree - for a triangle solved many times, the runs dispatch (when the options in place, as its
  solver resolved them for the backend, are the level dispatch with CSR storage: on the host backend at the defaults): predicted at SPTRSV_SYNCFREE_RUNS_LEARN_RATIO of the level dispatch's measured time,
  with a setup of SPTRSV_SYNCFREE_RUNS_LEARN_NS per row and entry (its host pass cutting the windows, then its pattern
  built on the GPU; the rest of its setup runs on the GPU as the level dispatch's does). The ratio from the time to
  solution on the H200 with run 17's kernel: the runs dispatch's MatSolve is 0.36-0.48 of the level dispatch's on ex45 at
  96^3 (ILU(0), ILU(1), ILU(2)) and 160^3 (docs/perf-data/e2e-tts-run17-runs.csv and e2e-tts-run18-*.csv against the
  level dispatch's of e2e runs 14 and 18; 0.49-0.59 in run 15, 0.60-0.83 in run 6); the setup from e2e run 18 on the H200's
  host, ex45 at 160^3 with -mat_sptrsv_setup_threads 1 (a switch of the learning choice runs outside the symbolic phase,
  on one thread): SpTrsvAnalysis 106-152 ms for L and U in two calls, 3.2-4.6 ns per row and strict entry (8 in run 6),
  and SpTrsvUpload 18-23 ms, 0.5-0.7 ns.
  The learning choice times
  the build against the level dispatch on the live factor and keeps it only when measured faster (on ex2's 4000x250 grid,
  many short lines, it is slower and stays unbuilt past one try).
*/
#define SPTRSV_SYNCFREE_RUNS_LEARN_RATIO 0.5
#define SPTRSV_SYNCFREE_RUNS_LEARN_NS    5.0
static PetscBool SpTrsvAutoLearnVariant_syncfree(const void *own, const SpTrsvStats *f, const char **variant, PetscReal *ratio, PetscReal *setup_ms)
{
  const SpTrsvSyncFreeOptions *o = (const SpTrsvSyncFreeOptions *)own;

  if (!o || o->runs || o->natural || o->alap || o->warpell) return PETSC_FALSE;
  *variant  = "runs";
  *ratio    = SPTRSV_SYNCFREE_RUNS_LEARN_RATIO;
  *setup_ms = SPTRSV_SYNCFREE_RUNS_LEARN_NS * (PetscReal)(f->n + f->nnz) * 1e-6;
  return PETSC_TRUE;
}

/* paper 001: warp-packed sync-free solves, ALAP levels, warp-packed ELL */
static PetscBool  cited_freire  = PETSC_FALSE;
static const char cite_freire[] = "@article{freire2022sptrsv,\n"
                                  "  author  = {Manuel Freire and Ernesto Dufrechou and Pablo Ezzatti},\n"
                                  "  title   = {A new level-set analysis and sparse storage format for the {SpTRSV} in {GPUs}},\n"
                                  "  year    = {2022}\n}\n";

/* the path's registry entry */
const struct _n_SpTrsvPath SpTrsvPath_syncfree = {
  .name            = "syncfree",
  .solvertype      = MATSOLVERSPTRSVSYNCFREE,
  .summary         = "sync-free with warp packing: rows binned by length, 32/K rows of K lanes per warp, each waits on its own dependencies (paper 001)",
  .ilu             = PETSC_TRUE,
  .icc             = PETSC_TRUE,
  .analyze         = SpTrsvAnalyze_syncfree,
  .analyze_pair    = SpTrsvAnalyzePair_syncfree,
  .exec            = {&SpTrsvExecHost_syncfree, SPTRSV_CUDA_EXEC(syncfree)},
  .options_size    = sizeof(SpTrsvSyncFreeOptions),
  .options_default = SpTrsvOptionsDefault_syncfree,
  .options_set     = SpTrsvOptionsSet_syncfree,
  .options_check   = SpTrsvOptionsCheck_syncfree,
  .options_backend = SpTrsvOptionsBackend_syncfree,
  .citation        = cite_freire,
  .cited           = &cited_freire,
  .rule_rank       = {2, 2, 1},
  .auto_start      = {1, 2},
  .auto_variant       = SpTrsvAutoVariant_syncfree,
  .auto_learn_variant = SpTrsvAutoLearnVariant_syncfree,
};
