static char help[] = "Unit tests of the sync-free path's analysis: ALAP levels, warp packing, the warp-packed ELL image, the runs dispatch, and the schedule check.\n";

#include <sptrsv/paths/syncfree.h>
#include "unit_common.h"

static PetscInt  max_lanes = 32;          /* -mat_sptrsv_max_lanes of AnalyzeWith */
static PetscBool runs      = PETSC_FALSE; /* -mat_sptrsv_dispatch runs for AnalyzeWith's natural dispatch */
static PetscInt  run_rows  = 1;           /* -mat_sptrsv_run_rows of AnalyzeWith */
static PetscInt  run_batch = 0;           /* -mat_sptrsv_run_batch of AnalyzeWith */

static PetscErrorCode AnalyzeWith(const SpTrsvOp *op, PetscBool natural, PetscBool alap, PetscBool warpell, SpTrsvPlan *plan)
{
  SpTrsvPathOptions      opts;
  SpTrsvSyncFreeOptions *sf;
  SpTrsvPath             path;

  PetscFunctionBeginUser;
  PetscCall(SpTrsvPathFind("syncfree", &path));
  PetscCall(SpTrsvPathOptionsDefault(NULL, &opts));
  PetscCall(SpTrsvPathOptionsGet(&opts, path, &sf));
  sf->natural   = (PetscBool)(natural && !runs);
  sf->runs      = (PetscBool)(natural && runs);
  sf->dispatch_auto = PETSC_FALSE; /* the dispatch asked for */
  sf->run_rows  = run_rows;
  sf->run_batch = run_batch;
  sf->max_lanes = max_lanes;
  sf->alap      = alap;
  sf->warpell   = warpell;
  sf->analysis_device = PETSC_FALSE; /* the host analysis (SpTrsvSolverCreate turns the device one off for the host backend) */
  PetscCall(SpTrsvPlanCreate(op, path, SPTRSV_FORMAT_CSR, &opts, plan));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Analyze(const SpTrsvOp *op, PetscBool alap, PetscBool warpell, SpTrsvPlan *plan)
{
  PetscFunctionBeginUser;
  PetscCall(AnalyzeWith(op, PETSC_FALSE, alap, warpell, plan));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* natural dispatch of the hand DAG: rows 0..5 in order, lengths 0 1 0 2 1 2; greedy warps of consecutive rows:
   all six fit one warp of K = 2 (6 x 2 <= 32); the transpose (upper) goes 5..0 */
static PetscErrorCode TestNatural(void)
{
  const PetscInt ai[] = {0, 0, 1, 1, 3, 4, 6}, aj[] = {0, 1, 2, 0, 3, 4};
  SpTrsvTri      t;
  SpTrsvOp       op;
  SpTrsvPlan     plan;

  PetscFunctionBeginUser;
  PetscCall(TriFromCSR(6, SPTRSV_LOWER, PETSC_TRUE, ai, aj, &t));
  for (PetscInt tr = 0; tr < 2; tr++) {
    SpTrsvSyncFreeSchedule *sf;
    PetscBool               ok = PETSC_TRUE;
    PetscCall(SpTrsvTriGetOp(t, (PetscBool)tr, &op));
    PetscCall(AnalyzeWith(&op, PETSC_TRUE, PETSC_FALSE, PETSC_TRUE, &plan));
    sf = (SpTrsvSyncFreeSchedule *)plan->data;
    for (PetscInt k = 0; k < 6; k++) ok = (PetscBool)(ok && plan->order[k] == (tr ? 5 - k : k));
    EXPECT(ok, "natural dispatch%s: wrong order", tr ? " (transpose)" : "");
    EXPECT(sf->nwarps == 1 && sf->wlanes[0] == 2 && sf->wstart[1] == 6, "natural dispatch%s: %" PetscInt_FMT " warps, K = %d", tr ? " (transpose)" : "", sf->nwarps, sf->wlanes[0]);
    EXPECT(plan->nlevels == 4 && !plan->levptr, "natural dispatch%s: %" PetscInt_FMT " levels", tr ? " (transpose)" : "", plan->nlevels);
    PetscCall(SpTrsvSyncFreeScheduleCheck(&op, plan));
    PetscCall(SpTrsvPlanDestroy(&plan));
  }
  PetscCall(SpTrsvTriDestroy(&t));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the hand DAG of test_levels (1<-0, 3<-{1,2}, 4<-0, 5<-{3,4}): ASAP levels 0 1 0 2 1 3, ALAP 0 1 1 2 2 3;
   ALAP packing: [0] K1 | [1 2] K1 | [4] K1, [3] K2 | [5] K2 */
static PetscErrorCode TestHandDAG(void)
{
  const PetscInt ai[] = {0, 0, 1, 1, 3, 4, 6}, aj[] = {0, 1, 2, 0, 3, 4};
  const PetscInt alap[] = {0, 1, 1, 2, 2, 3}, order[] = {0, 1, 2, 4, 3, 5}, wstart[] = {0, 1, 3, 4, 5, 6};
  const int      wlanes[] = {1, 1, 1, 2, 2};
  SpTrsvTri      t;
  SpTrsvOp       op;
  SpTrsvPlan     plan;
  PetscBool      same1, same2, same3;

  PetscFunctionBeginUser;
  PetscCall(TriFromCSR(6, SPTRSV_LOWER, PETSC_TRUE, ai, aj, &t));
  PetscCall(SpTrsvTriGetOp(t, PETSC_FALSE, &op));
  PetscCall(Analyze(&op, PETSC_TRUE, PETSC_TRUE, &plan));
  {
    SpTrsvSyncFreeSchedule *sf = (SpTrsvSyncFreeSchedule *)plan->data;
    PetscCall(PetscArraycmp(plan->level, alap, 6, &same1));
    PetscCall(PetscArraycmp(plan->order, order, 6, &same2));
    PetscCall(PetscArraycmp(sf->wstart, wstart, 6, &same3));
    EXPECT(plan->nlevels == 4 && same1, "hand DAG: wrong ALAP levels");
    EXPECT(same2, "hand DAG: wrong dispatch order");
    EXPECT(sf->nwarps == 5 && same3 && !memcmp(sf->wlanes, wlanes, sizeof(wlanes)), "hand DAG: wrong warps");
    /* ELL: warp 3 (row 3, K = 2) holds entries 1 and 2 of the CSR (columns 1 and 2) in lanes 0 and 1 */
    EXPECT(sf->ellmap[32 * 3 + 0] == 1 && sf->ellmap[32 * 3 + 1] == 2 && sf->ellmap[32 * 3 + 2] == -1, "hand DAG: wrong ELL slots of row 3");
    EXPECT(sf->ell_filled == 6, "hand DAG: %" PetscInt_FMT " ELL slots filled, expected 6", sf->ell_filled);
    EXPECT(sf->binrows[0] == 4 && sf->binrows[1] == 2 && sf->binwarps[0] == 3 && sf->binwarps[1] == 2, "hand DAG: wrong bins");
    PetscCall(SpTrsvSyncFreeScheduleCheck(&op, plan));
  }
  PetscCall(SpTrsvPlanDestroy(&plan));
  PetscCall(SpTrsvTriDestroy(&t));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* warp packing: 40 rows of one entry in one level are 2 warps (32 + 8); a row of 40 entries is a warp of its
   own (long row); rows of 3 and 4 entries share the K = 4 bin, 8 per warp */
static PetscErrorCode TestBins(void)
{
  const PetscInt n = 200;
  PetscInt      *ai, *aj, nnz = 0;
  SpTrsvTri      t;
  SpTrsvOp       op;
  SpTrsvPlan     plan;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc2(n + 1, &ai, 4 * n + 100, &aj));
  ai[0] = 0;
  for (PetscInt i = 0; i < n; i++) {
    if (i >= 40 && i < 80) aj[nnz++] = i - 40;                      /* level 1, one entry */
    else if (i == 80)
      for (PetscInt j = 0; j < 40; j++) aj[nnz++] = j;              /* level 1, 40 entries */
    else if (i > 80 && i <= 90)
      for (PetscInt j = 0; j < 3 + (i % 2); j++) aj[nnz++] = j;     /* level 1, 3 or 4 entries */
    ai[i + 1] = nnz;
  }
  PetscCall(TriFromCSR(n, SPTRSV_LOWER, PETSC_TRUE, ai, aj, &t));
  PetscCall(SpTrsvTriGetOp(t, PETSC_FALSE, &op));
  PetscCall(Analyze(&op, PETSC_FALSE, PETSC_TRUE, &plan));
  {
    SpTrsvSyncFreeSchedule *sf = (SpTrsvSyncFreeSchedule *)plan->data;
    /* level 0: 40 + 109 empty rows = 149 rows of K = 1: 5 warps; level 1: 40 rows K = 1 (2 warps), 10 rows K = 4 (2 warps), 1 long row */
    EXPECT(plan->nlevels == 2, "bins: %" PetscInt_FMT " levels, expected 2", plan->nlevels);
    EXPECT(sf->binrows[0] == 189 && sf->binwarps[0] == 7, "bins: K=1 holds %" PetscInt_FMT " rows in %" PetscInt_FMT " warps, expected 189 in 7", sf->binrows[0], sf->binwarps[0]);
    EXPECT(sf->binrows[2] == 10 && sf->binwarps[2] == 2, "bins: K=4 holds %" PetscInt_FMT " rows in %" PetscInt_FMT " warps, expected 10 in 2", sf->binrows[2], sf->binwarps[2]);
    EXPECT(sf->binrows[SPTRSV_SYNCFREE_NBINS - 1] == 1 && sf->binwarps[SPTRSV_SYNCFREE_NBINS - 1] == 1, "bins: the 40-entry row is not a long-row warp");
    EXPECT(sf->nwarps == 10, "bins: %" PetscInt_FMT " warps, expected 10", sf->nwarps);
    PetscCall(SpTrsvSyncFreeScheduleCheck(&op, plan));
  }
  PetscCall(SpTrsvPlanDestroy(&plan));
  PetscCall(SpTrsvTriDestroy(&t));
  PetscCall(PetscFree2(ai, aj));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* random triangles, lower and upper, both orientations, all four option sets: the schedule check passes,
   ALAP levels are valid and as late as possible, and a corrupted schedule is rejected */
static PetscErrorCode TestRandom(PetscRandom rnd, PetscInt n, PetscReal density, SpTrsvUplo uplo)
{
  PetscInt *ai, *aj, nnz = 0;
  SpTrsvTri t;
  PetscReal r;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc2(n + 1, &ai, n * n + 1, &aj));
  ai[0] = 0;
  for (PetscInt i = 0; i < n; i++) {
    PetscInt lo = uplo == SPTRSV_LOWER ? 0 : i + 1, hi = uplo == SPTRSV_LOWER ? i : n;
    for (PetscInt j = lo; j < hi; j++) {
      PetscCall(PetscRandomGetValueReal(rnd, &r));
      if (r < density) aj[nnz++] = j;
    }
    ai[i + 1] = nnz;
  }
  PetscCall(TriFromCSR(n, uplo, PETSC_TRUE, ai, aj, &t));
  for (PetscInt tr = 0; tr < 2; tr++)
    for (PetscInt cfg = 0; cfg < 7; cfg++) {
      SpTrsvOp       op;
      SpTrsvPlan     plan, asap;
      PetscBool      valid = PETSC_TRUE, late = PETSC_TRUE;
      PetscErrorCode ierr;
      PetscCall(SpTrsvTriGetOp(t, (PetscBool)tr, &op));
      /* cfg 0..3: level dispatch, ASAP/ALAP x CSR/ELL; 4, 5: natural dispatch, CSR/ELL; 6: runs dispatch */
      runs = (PetscBool)(cfg == 6);
      PetscCall(AnalyzeWith(&op, (PetscBool)(cfg >= 4), (PetscBool)(cfg < 4 && (cfg & 1)), (PetscBool)(cfg >= 4 ? cfg == 5 : cfg >> 1), &plan));
      runs = PETSC_FALSE;
      PetscCall(SpTrsvPlanCreateLevelSets(&op, &asap));
      PetscCall(SpTrsvSyncFreeScheduleCheck(&op, plan));
      EXPECT(plan->nlevels == asap->nlevels, "random n=%" PetscInt_FMT ": %" PetscInt_FMT " levels, ASAP has %" PetscInt_FMT, n, plan->nlevels, asap->nlevels);
      if (cfg < 4 && (cfg & 1)) {
        /* ALAP: after its dependencies, not before its ASAP level, and each row with dependents sits right below one of them */
        PetscInt *minnext;
        PetscCall(PetscMalloc1(n + 1, &minnext));
        for (PetscInt i = 0; i < n; i++) minnext[i] = plan->nlevels;
        for (PetscInt i = 0; i < n; i++)
          for (PetscInt p = op.ri[i]; p < op.ri[i + 1]; p++) {
            if (plan->level[op.rj[p]] >= plan->level[i]) valid = PETSC_FALSE;
            minnext[op.rj[p]] = PetscMin(minnext[op.rj[p]], plan->level[i]);
          }
        for (PetscInt i = 0; i < n; i++) {
          if (plan->level[i] < asap->level[i]) valid = PETSC_FALSE;
          if (plan->level[i] != minnext[i] - 1) late = PETSC_FALSE;
        }
        PetscCall(PetscFree(minnext));
        EXPECT(valid && late, "random n=%" PetscInt_FMT " %s%s: ALAP levels %s", n, uplo == SPTRSV_LOWER ? "lower" : "upper", tr ? " transpose" : "", valid ? "not as late as possible" : "invalid");
      }
      /* corrupt: level dispatch, another lane count in the first warp than its bin's; natural dispatch, the
         first and last rows swapped (or, for n = 1, too few lanes for the row) must be caught */
      if (((SpTrsvSyncFreeSchedule *)plan->data)->nwarps > 0) {
        SpTrsvSyncFreeSchedule *sf = (SpTrsvSyncFreeSchedule *)plan->data;
        const int               K  = sf->wlanes[0];
        const PetscInt          o0 = plan->order[0], o1 = plan->order[n - 1];
        const PetscInt          R  = sf->run_rows;
        if (cfg == 6 && n == 1) sf->run_rows = 3; /* runs: rows per lane not a power of two */
        else if (cfg < 4 || n == 1) sf->wlanes[0] = K == 32 ? 16 : 2 * K;
        else {
          plan->order[0]     = o1;
          plan->order[n - 1] = o0;
        }
        PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
        ierr = SpTrsvSyncFreeScheduleCheck(&op, plan);
        PetscCall(PetscPopErrorHandler());
        EXPECT(ierr == PETSC_ERR_PLIB || (cfg >= 4 && cfg < 6 && n == 1 && K == 1), "random n=%" PetscInt_FMT " cfg %" PetscInt_FMT ": a corrupted schedule passed the check (error %d)", n, cfg, (int)ierr);
        sf->wlanes[0]      = K;
        sf->run_rows       = R;
        plan->order[0]     = o0;
        plan->order[n - 1] = o1;
      }
      PetscCall(SpTrsvPlanDestroy(&asap));
      PetscCall(SpTrsvPlanDestroy(&plan));
    }
  PetscCall(SpTrsvTriDestroy(&t));
  PetscCall(PetscFree2(ai, aj));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* runs dispatch: windows are the grid lines (cut at 256 rows), the rows per lane fit the longest, every point but a
   line's first is chained, the critical path counts windows; on the transpose (upper, the lines from the last row down)
   the same; a window that holds a row depending on another row of it than the one before is refused by the check */
static PetscErrorCode TestRuns(void)
{
  const struct {
    PetscInt nx, ny, nz, Rmax, nwarps, R, chained, depth, B;
  } g[] = {
    /* B: the automatic batch, the smallest of 4, 8, 16 holding a lane's entries (R rows of 3, or 2 when nz = 1), at least min(16, 4 R) */
    {40, 3, 2, 2, 6, 2, 6 * 39, 4, 8},            /* lines of 40 rows: 2 per lane; depth (ny - 1) + (nz - 1) + 1 */
    {600, 2, 1, 8, 6, 8, 2 * (599 - 2), 4, 16},   /* lines of 600 rows, -mat_sptrsv_run_rows 8: windows 256, 256, 88; the cut rows are not chained */
    {600, 2, 1, 2, 20, 2, 2 * (599 - 9), 11, 8},  /* -mat_sptrsv_run_rows 2: windows of 64 rows, 10 per line; 4 entries per lane, the batch at 4 R */
    {20, 4, 4, 2, 16, 1, 16 * 19, 7, 4},          /* 20 rows: one per lane */
    {40, 3, 2, 1, 12, 1, 6 * 38, 5, 4},           /* the default 1: lines of 40 in windows of 32 and 8, the next line's first row not packed in */
    {33, 3, 2, 1, 12, 1, 6 * 31, 5, 4},           /* lines of 33: windows of 32 and 1; the 1-row window continues a chain, so the next line's first row is not packed in */
  };
  const PetscInt ai[] = {0, 0, 1, 3, 4}, aj[] = {0, 0, 1, 2}; /* row 2 depends on rows 0 and 1: it opens a window */
  SpTrsvTri      t;
  SpTrsvOp       op;
  SpTrsvPlan     plan;

  PetscFunctionBeginUser;
  runs = PETSC_TRUE;
  for (size_t c = 0; c < sizeof(g) / sizeof(g[0]); c++) {
    PetscCall(GridLower7(g[c].nx, g[c].ny, g[c].nz, &t));
    run_rows = g[c].Rmax;
    for (PetscInt tr = 0; tr < 2; tr++) {
      SpTrsvSyncFreeSchedule *sf;
      PetscErrorCode          ierr;
      PetscCall(SpTrsvTriGetOp(t, (PetscBool)tr, &op));
      PetscCall(AnalyzeWith(&op, PETSC_TRUE, PETSC_FALSE, PETSC_FALSE, &plan));
      sf = (SpTrsvSyncFreeSchedule *)plan->data;
      EXPECT(sf->runs && sf->natural, "runs %" PetscInt_FMT "x%" PetscInt_FMT "x%" PetscInt_FMT ": not a runs schedule", g[c].nx, g[c].ny, g[c].nz);
      EXPECT(sf->nwarps == g[c].nwarps && sf->run_rows == g[c].R && sf->run_chained == g[c].chained && sf->run_depth == g[c].depth, "runs %" PetscInt_FMT "x%" PetscInt_FMT "x%" PetscInt_FMT "%s: %" PetscInt_FMT " windows, R %" PetscInt_FMT ", %" PetscInt_FMT " chained, depth %" PetscInt_FMT "; expected %" PetscInt_FMT ", %" PetscInt_FMT ", %" PetscInt_FMT ", %" PetscInt_FMT, g[c].nx, g[c].ny, g[c].nz, tr ? " (transpose)" : "", sf->nwarps, sf->run_rows, sf->run_chained, sf->run_depth, g[c].nwarps, g[c].R, g[c].chained, g[c].depth);
      EXPECT(sf->run_lane_max == (g[c].nz > 1 ? 3 : 2) * g[c].R && sf->run_batch == g[c].B, "runs %" PetscInt_FMT "x%" PetscInt_FMT "x%" PetscInt_FMT "%s: %" PetscInt_FMT " entries in the longest lane, batches of %" PetscInt_FMT "; expected %" PetscInt_FMT ", %" PetscInt_FMT, g[c].nx, g[c].ny, g[c].nz, tr ? " (transpose)" : "", sf->run_lane_max, sf->run_batch, (g[c].nz > 1 ? 3 : 2) * g[c].R, g[c].B);
      /* the automatic pause between polls: for lanes of more than SPTRSV_SYNCFREE_RUN_SLEEP_ENTRIES entries only (R rows of 3 or 2) */
      EXPECT(sf->spin_ns_req == PETSC_DECIDE && sf->spin_ns == ((g[c].nz > 1 ? 3 : 2) * g[c].R > 4 ? SPTRSV_SYNCFREE_RUN_SLEEP_NS : 0), "runs %" PetscInt_FMT "x%" PetscInt_FMT "x%" PetscInt_FMT "%s: %" PetscInt_FMT " ns between polls (automatic)", g[c].nx, g[c].ny, g[c].nz, tr ? " (transpose)" : "", sf->spin_ns);
      PetscCall(SpTrsvSyncFreeScheduleCheck(&op, plan));
      /* dispatch in wavefront order: the window of each grid line at its depth y + z + 1 (lines shorter than 256 rows) */
      if (sf->wlanes[0] == g[c].nx) {
        PetscBool wave = PETSC_TRUE;
        for (PetscInt w = 1; w < sf->nwarps; w++) {
          const PetscInt l0 = (tr ? op.n - 1 - sf->wstart[w - 1] : sf->wstart[w - 1]) / g[c].nx, l1 = (tr ? op.n - 1 - sf->wstart[w] : sf->wstart[w]) / g[c].nx;
          const PetscInt d0 = tr ? (g[c].ny - 1 - l0 % g[c].ny) + (g[c].nz - 1 - l0 / g[c].ny) : l0 % g[c].ny + l0 / g[c].ny;
          const PetscInt d1 = tr ? (g[c].ny - 1 - l1 % g[c].ny) + (g[c].nz - 1 - l1 / g[c].ny) : l1 % g[c].ny + l1 / g[c].ny;
          if (d1 < d0 || (d1 == d0 && sf->wstart[w] < sf->wstart[w - 1])) wave = PETSC_FALSE;
        }
        EXPECT(wave, "runs %" PetscInt_FMT "x%" PetscInt_FMT "x%" PetscInt_FMT "%s: windows not in wavefront order", g[c].nx, g[c].ny, g[c].nz, tr ? " (transpose)" : "");
      }
      /* corruptions the check must refuse: (1) the first two windows dispatched (the lines at depth 1 and the first at
         depth 2) merged into one window, with room for both: a row then depends on another row of its window than the
         one before; (2) the first two windows swapped: the line at depth 2 goes out before the one it waits for */
      if (sf->nwarps > 1 && sf->wlanes[0] == g[c].nx && sf->wstart[1] == sf->wstart[0] + (tr ? 1 : 1) * g[c].nx) {
        const PetscInt R = sf->run_rows, s0 = sf->wstart[0], s1 = sf->wstart[1], n1 = sf->wlanes[1];
        sf->run_rows  = SPTRSV_SYNCFREE_RUN_MAX_R;
        sf->wlanes[0] = (int)(g[c].nx + n1);
        sf->wlanes[1] = 0; /* an empty window is refused too: drop it by moving the last one into its place */
        sf->wstart[1] = sf->wstart[sf->nwarps - 1];
        sf->wlanes[1] = sf->wlanes[sf->nwarps - 1];
        sf->nwarps--;
        PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
        ierr = SpTrsvSyncFreeScheduleCheck(&op, plan);
        PetscCall(PetscPopErrorHandler());
        EXPECT(ierr == PETSC_ERR_PLIB, "runs %" PetscInt_FMT "x%" PetscInt_FMT "x%" PetscInt_FMT ": a window of two lines passed the check", g[c].nx, g[c].ny, g[c].nz);
        sf->nwarps++;
        sf->wstart[sf->nwarps - 1] = sf->wstart[1];
        sf->wlanes[sf->nwarps - 1] = sf->wlanes[1];
        sf->wstart[0] = s0;
        sf->wlanes[0] = (int)g[c].nx;
        sf->wstart[1] = s1;
        sf->wlanes[1] = (int)n1;
        sf->run_rows  = R;
        PetscCall(SpTrsvSyncFreeScheduleCheck(&op, plan)); /* restored */
        { /* the deepest window dispatched second, the second last: every window stays whole and in its place, only
             the order breaks (the first window stays first) */
          const PetscInt L = sf->nwarps - 1, sL = sf->wstart[L];
          const int      nL = sf->wlanes[L];
          sf->wstart[L] = s1;
          sf->wlanes[L] = (int)n1;
          sf->wstart[1] = sL;
          sf->wlanes[1] = nL;
          PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
          ierr = SpTrsvSyncFreeScheduleCheck(&op, plan);
          PetscCall(PetscPopErrorHandler());
          EXPECT(ierr == PETSC_ERR_PLIB, "runs %" PetscInt_FMT "x%" PetscInt_FMT "x%" PetscInt_FMT ": a window dispatched before one it waits for passed the check", g[c].nx, g[c].ny, g[c].nz);
          sf->wstart[1] = s1;
          sf->wlanes[1] = (int)n1;
          sf->wstart[L] = sL;
          sf->wlanes[L] = nL;
          PetscCall(SpTrsvSyncFreeScheduleCheck(&op, plan)); /* restored */
        }
      }
      PetscCall(SpTrsvPlanDestroy(&plan));
    }
    PetscCall(SpTrsvTriDestroy(&t));
  }
  run_rows = 2;
  /* rows 0, 1 chained; row 2 (on rows 0 and 1) and row 3 (on row 2, chained) in a second window */
  PetscCall(TriFromCSR(4, SPTRSV_LOWER, PETSC_TRUE, ai, aj, &t));
  PetscCall(SpTrsvTriGetOp(t, PETSC_FALSE, &op));
  PetscCall(AnalyzeWith(&op, PETSC_TRUE, PETSC_FALSE, PETSC_FALSE, &plan));
  {
    SpTrsvSyncFreeSchedule *sf = (SpTrsvSyncFreeSchedule *)plan->data;
    EXPECT(sf->nwarps == 2 && sf->wstart[1] == 2 && sf->run_chained == 2 && sf->run_depth == 2 && sf->run_rows == 1, "runs of the 4-row triangle: %" PetscInt_FMT " windows, second at %" PetscInt_FMT ", %" PetscInt_FMT " chained, depth %" PetscInt_FMT, sf->nwarps, sf->wstart[1], sf->run_chained, sf->run_depth);
  }
  PetscCall(SpTrsvSyncFreeScheduleCheck(&op, plan));
  PetscCall(SpTrsvPlanDestroy(&plan));
  PetscCall(SpTrsvTriDestroy(&t));
  runs = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* runs dispatch on a 2-D 9-point lower pattern (x-1 on its line; x-1, x, x+1 on the line before): row x = 31 of a line
   depends on x = 32 of the line before, in that line's next window. The analysis cuts a window before a row that would
   make it wait for a deeper window, so the windows of each line shift one point left of the line before's and every
   line costs one window step: the critical path is about ny windows, not the 2 ny of windows cut at multiples of 32 */
static PetscErrorCode TestRunsSkew(void)
{
  const PetscInt nx = 96, ny = 24, n = nx * ny;
  PetscInt      *ai, *aj, nnz = 0;
  SpTrsvTri      t;
  SpTrsvOp       op;
  SpTrsvPlan     plan;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc2(n + 1, &ai, 4 * n + 1, &aj));
  ai[0] = 0;
  for (PetscInt i = 0; i < n; i++) {
    const PetscInt x = i % nx, y = i / nx;
    if (y)
      for (PetscInt d = -1; d <= 1; d++)
        if (x + d >= 0 && x + d < nx) aj[nnz++] = i - nx + d;
    if (x) aj[nnz++] = i - 1;
    ai[i + 1] = nnz;
  }
  PetscCall(TriFromCSR(n, SPTRSV_LOWER, PETSC_TRUE, ai, aj, &t));
  PetscCall(PetscFree2(ai, aj));
  runs     = PETSC_TRUE;
  run_rows = 1;
  for (PetscInt tr = 0; tr < 2; tr++) {
    SpTrsvSyncFreeSchedule *sf;
    PetscCall(SpTrsvTriGetOp(t, (PetscBool)tr, &op));
    for (run_batch = 0; run_batch <= 16; run_batch = run_batch ? 2 * run_batch : 8) { /* 0 (automatic: 4 entries per row, one row per lane), 8, 16 */
      PetscCall(AnalyzeWith(&op, PETSC_TRUE, PETSC_FALSE, PETSC_FALSE, &plan));
      sf = (SpTrsvSyncFreeSchedule *)plan->data;
      EXPECT(sf->run_lane_max == 4 && sf->run_batch == (run_batch ? run_batch : 4), "runs of the 9-point grid%s, -mat_sptrsv_run_batch %" PetscInt_FMT ": %" PetscInt_FMT " entries in the longest lane, batches of %" PetscInt_FMT, tr ? " (transpose)" : "", run_batch, sf->run_lane_max, sf->run_batch);
      PetscCall(SpTrsvPlanDestroy(&plan));
    }
    run_batch = 0;
    PetscCall(AnalyzeWith(&op, PETSC_TRUE, PETSC_FALSE, PETSC_FALSE, &plan));
    sf = (SpTrsvSyncFreeSchedule *)plan->data;
    EXPECT(sf->run_depth >= ny && sf->run_depth <= ny + nx / 32 + 1, "runs of the 9-point %" PetscInt_FMT "x%" PetscInt_FMT " grid%s: critical path %" PetscInt_FMT " windows, expected %" PetscInt_FMT " to %" PetscInt_FMT, nx, ny, tr ? " (transpose)" : "", sf->run_depth, ny, ny + nx / 32 + 1);
    EXPECT(sf->run_rows == 1 && sf->run_chained == n - ny - (sf->nwarps - ny), "runs of the 9-point grid%s: %" PetscInt_FMT " rows per lane, %" PetscInt_FMT " chained in %" PetscInt_FMT " windows", tr ? " (transpose)" : "", sf->run_rows, sf->run_chained, sf->nwarps);
    PetscCall(SpTrsvSyncFreeScheduleCheck(&op, plan));
    PetscCall(SpTrsvPlanDestroy(&plan));
  }
  PetscCall(SpTrsvTriDestroy(&t));
  runs = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the CUDA runs kernel's arithmetic on the host (SpTrsvSyncFreeRun in src/cuda/paths/syncfree/syncfree_runs.cuh, through the
   same map functions of syncfree.h): the windows in dispatch order; in each, lane l composes the maps of its per rows,
   the 32 lanes scan (Hillis-Steele, d = 1, 2, 4, 8, 16, as the shuffles), and each lane computes its rows' x from the x
   its left neighbour ends on, with the substitution's arithmetic (SpTrsvSyncFreeRunRow). x is indexed by row. */
static PetscErrorCode EmulateRuns(const SpTrsvOp *op, SpTrsvPlan plan, const PetscScalar *b, PetscScalar *x)
{
  const SpTrsvSyncFreeSchedule *sf = (const SpTrsvSyncFreeSchedule *)plan->data;
  const PetscInt                n  = op->n;
  PetscInt                     *pos;
  PetscScalar                  *c, *m, *sr, *ar;
  int                          *chained;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc6(n + 1, &pos, n + 1, &c, n + 1, &m, n + 1, &chained, n + 1, &sr, n + 1, &ar));
  for (PetscInt k = 0; k < n; k++) pos[plan->order[k]] = k;
  for (PetscInt i = 0; i < n; i++) x[i] = (PetscScalar)NAN; /* a dependency read before its window ran would spread it */
  for (PetscInt w = 0; w < sf->nwarps; w++) {
    const PetscInt k0 = sf->wstart[w], len = sf->wlanes[w], per = (len + 31) / 32;
    PetscScalar    C[32], M[32], Cn[32], Mn[32];
    int            K[32], Kn[32];
    for (PetscInt k = k0; k < k0 + len; k++) { /* the rows' maps: c from b and the x of earlier windows, m from the chain entry */
      const PetscInt i = plan->order[k], len_i = op->ri[i + 1] - op->ri[i];
      PetscScalar    sk = b[i], chk = 0;
      chained[k]        = 0;
      for (PetscInt f = 0; f < len_i; f++) { /* by position, as the CUDA setup sorts a row: a sorted CSR row reversed in an upper triangle */
        const PetscInt e = op->lower ? op->ri[i] + f : op->ri[i + 1] - 1 - f;
        if (pos[op->rj[e]] < k0) sk -= op->ra[e] * x[op->rj[e]];
      }
      if (len_i) { /* the chain entry as the kernel reads it: the row's last by position, when at or after k0 */
        const PetscInt e = op->lower ? op->ri[i + 1] - 1 : op->ri[i];
        if (pos[op->rj[e]] >= k0) {
          chk        = op->ra[e];
          chained[k] = 1;
        }
      }
      c[k]  = op->unit ? sk : sk * op->idiag[i];
      m[k]  = -(op->unit ? chk : chk * op->idiag[i]);
      sr[k] = sk; /* for the row's own x (SpTrsvSyncFreeRunRow) */
      ar[k] = chk;
    }
    for (PetscInt l = 0; l < 32; l++) {
      C[l] = 0;
      M[l] = 1;
      K[l] = 0;
      for (PetscInt k = k0 + l * per; k < PetscMin(k0 + (l + 1) * per, k0 + len); k++) SpTrsvSyncFreeRunAppend(&C[l], &M[l], &K[l], c[k], m[k], chained[k]);
    }
    for (PetscInt d = 1; d < 32; d *= 2) {
      for (PetscInt l = 0; l < 32; l++) {
        Cn[l] = C[l];
        Mn[l] = M[l];
        Kn[l] = K[l];
        if (l >= d) SpTrsvSyncFreeRunAfter(&Cn[l], &Mn[l], &Kn[l], C[l - d], M[l - d], K[l - d]);
      }
      for (PetscInt l = 0; l < 32; l++) {
        C[l] = Cn[l];
        M[l] = Mn[l];
        K[l] = Kn[l];
      }
    }
    for (PetscInt l = 0; l < 32; l++) {
      PetscScalar xp = l ? C[l - 1] : 0;
      for (PetscInt k = k0 + l * per; k < PetscMin(k0 + (l + 1) * per, k0 + len); k++) {
        xp                = SpTrsvSyncFreeRunRow(xp, sr[k], ar[k], op->unit ? 1 : op->idiag[plan->order[k]], chained[k], (int)op->unit);
        x[plan->order[k]] = xp;
      }
    }
  }
  PetscCall(PetscFree6(pos, c, m, chained, sr, ar));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the substitution, rows in the triangle's own order */
static void Substitute(const SpTrsvOp *op, const PetscScalar *b, PetscScalar *x)
{
  for (PetscInt kk = 0; kk < op->n; kk++) {
    const PetscInt i = op->lower ? kk : op->n - 1 - kk;
    PetscScalar    s = b[i];
    for (PetscInt e = op->ri[i]; e < op->ri[i + 1]; e++) s -= op->ra[e] * x[op->rj[e]];
    x[i] = op->unit ? s : s * op->idiag[i];
  }
}

/* the runs kernel's arithmetic (EmulateRuns: the windows in dispatch order, x at NaN until a window writes it) against
   the substitution, on random triangles (lower, upper, transposed, unit or not) and 3-D grid triangles, at every
   -mat_sptrsv_run_rows: the same solution to rounding (so every dependency was written before it was read: the dispatch
   is a topological order); with a NaN in one entry of b, NaN exactly in the rows that depend on it, the others as
   without it */
static PetscErrorCode TestRunsArithmetic(PetscRandom rnd)
{
  PetscFunctionBeginUser;
  runs = PETSC_TRUE;
  for (PetscInt c = 0; c < 24; c++) {
    const PetscInt n = c < 20 ? 1 + (PetscInt)(700 * Rand(rnd)) : 0;
    SpTrsvTri      t;
    PetscInt      *ai, *aj, nnz = 0, cap;
    const PetscBool unit = (PetscBool)(c % 3 == 0);
    if (c < 20) { /* random: each row depends on the row before it with probability 0.8, and on a few random earlier rows */
      cap = 6 * n + 1;
      PetscCall(PetscMalloc2(n + 1, &ai, cap, &aj));
      ai[0] = 0;
      for (PetscInt i = 0; i < n; i++) {
        const PetscBool lower = (PetscBool)(c % 2 == 0);
        const PetscInt  lo = lower ? 0 : i + 1, hi = lower ? i : n; /* the columns a row may hold */
        PetscInt        row0 = nnz;
        if (hi > lo) {
          for (PetscInt q = 0; q < 3; q++)
            if (Rand(rnd) < 0.4) {
              const PetscInt j = lo + (PetscInt)((hi - lo) * Rand(rnd)) % (hi - lo);
              PetscBool      dup = PETSC_FALSE;
              for (PetscInt e = row0; e < nnz; e++) dup = (PetscBool)(dup || aj[e] == j);
              if (!dup) aj[nnz++] = j;
            }
          if (Rand(rnd) < 0.8) {
            const PetscInt j   = lower ? i - 1 : i + 1;
            PetscBool      dup = PETSC_FALSE;
            for (PetscInt e = row0; e < nnz; e++) dup = (PetscBool)(dup || aj[e] == j);
            if (!dup) aj[nnz++] = j;
          }
          PetscCall(PetscSortInt(nnz - row0, aj + row0));
        }
        ai[i + 1] = nnz;
      }
      PetscCall(TriFromCSR(n, c % 2 == 0 ? SPTRSV_LOWER : SPTRSV_UPPER, unit, ai, aj, &t));
      PetscCall(PetscFree2(ai, aj));
    } else PetscCall(GridLower7(c == 20 ? 40 : (c == 21 ? 70 : 33), 5, 4, &t)); /* lines of 40, 70, 33 points */
    for (PetscInt p = 0; p < t->i[t->n]; p++) t->a[p] = (PetscScalar)((Rand(rnd) - 0.5) * 0.6);
    if (!t->unit)
      for (PetscInt i = 0; i < t->n; i++) t->idiag[i] = (PetscScalar)(1.0 / (1.0 + Rand(rnd)));
    PetscCall(SpTrsvTriValuesChanged(t));
    for (PetscInt tr = 0; tr < 2; tr++)
      for (PetscInt R = 1; R <= SPTRSV_SYNCFREE_RUN_MAX_R; R *= 2) {
        SpTrsvOp     op;
        SpTrsvPlan   plan;
        PetscScalar *b, *x, *xr;
        PetscReal    err = 0, nrm = 0;
        PetscBool    nanok = PETSC_TRUE;
        PetscCall(SpTrsvTriGetOp(t, (PetscBool)tr, &op));
        run_rows = R;
        PetscCall(AnalyzeWith(&op, PETSC_TRUE, PETSC_FALSE, PETSC_FALSE, &plan));
        PetscCall(SpTrsvSyncFreeScheduleCheck(&op, plan));
        PetscCall(PetscMalloc3(op.n + 1, &b, op.n + 1, &x, op.n + 1, &xr));
        for (PetscInt i = 0; i < op.n; i++) b[i] = (PetscScalar)(Rand(rnd) - 0.5);
        PetscCall(EmulateRuns(&op, plan, b, x));
        Substitute(&op, b, xr);
        for (PetscInt i = 0; i < op.n; i++) {
          err = PetscMax(err, PetscAbsScalar(x[i] - xr[i]));
          nrm = PetscMax(nrm, PetscAbsScalar(xr[i]));
        }
        EXPECT(err <= 1e-12 * PetscMax(nrm, 1.0), "runs arithmetic case %" PetscInt_FMT " (n %" PetscInt_FMT "%s, run_rows %" PetscInt_FMT "): max error %g against the substitution (max |x| %g)", c, op.n, tr ? ", transposed" : "", R, (double)err, (double)nrm);
        if (op.n > 0) { /* a NaN in b: the same NaN pattern as the substitution, the finite rows as close */
          const PetscInt i0 = (PetscInt)(op.n * Rand(rnd)) % op.n;
          b[i0]             = (PetscScalar)NAN;
          PetscCall(EmulateRuns(&op, plan, b, x));
          Substitute(&op, b, xr);
          for (PetscInt i = 0; i < op.n; i++) {
            const PetscBool nx = PetscIsNanScalar(x[i]), nr = PetscIsNanScalar(xr[i]);
            if (nx != nr || (!nr && PetscAbsScalar(x[i] - xr[i]) > 1e-12 * PetscMax(nrm, 1.0))) nanok = PETSC_FALSE;
          }
          EXPECT(nanok, "runs arithmetic case %" PetscInt_FMT " (n %" PetscInt_FMT "%s, run_rows %" PetscInt_FMT "): a NaN in row %" PetscInt_FMT " of b reaches other rows than the substitution's", c, op.n, tr ? ", transposed" : "", R, i0);
        }
        PetscCall(PetscFree3(b, x, xr));
        PetscCall(SpTrsvPlanDestroy(&plan));
      }
    PetscCall(SpTrsvTriDestroy(&t));
  }
  { /* cancellation: a chained row whose b nearly equals its chain entry times the x before it (an ILU factor of zenios):
       the row's own x computed as the substitution computes it (SpTrsvSyncFreeRunRow), not as c + m x, which rounds b d
       and a d x apart (a relative error of about 1e-4 here, the result being 1e-12 of them) */
    const PetscInt ai[4] = {0, 0, 1, 2}, aj[2] = {0, 1};
    SpTrsvTri      t;
    SpTrsvOp       op;
    SpTrsvPlan     plan;
    PetscScalar    b[3], x[3], xr[3];

    PetscCall(TriFromCSR(3, SPTRSV_LOWER, PETSC_FALSE, ai, aj, &t));
    t->a[0]     = 1.0 / 3.0;
    t->a[1]     = 0.7;
    t->idiag[0] = 1.0 / 7.0;
    t->idiag[1] = 1.0 / 11.0;
    t->idiag[2] = 1.0 / 13.0;
    PetscCall(SpTrsvTriValuesChanged(t));
    PetscCall(SpTrsvTriGetOp(t, PETSC_FALSE, &op));
    run_rows = 1;
    PetscCall(AnalyzeWith(&op, PETSC_TRUE, PETSC_FALSE, PETSC_FALSE, &plan));
    b[0] = 1.0;
    b[1] = (1.0 / 3.0) * (1.0 / 7.0) * (1.0 + 1e-12);
    b[2] = 0.5;
    PetscCall(EmulateRuns(&op, plan, b, x));
    Substitute(&op, b, xr);
    for (PetscInt i = 0; i < 3; i++) EXPECT(PetscAbsScalar(x[i] - xr[i]) <= 1e-14 * PetscAbsScalar(xr[i]), "runs arithmetic, cancellation: x[%" PetscInt_FMT "] = %.17g, the substitution's %.17g", i, (double)x[i], (double)xr[i]);
    PetscCall(SpTrsvPlanDestroy(&plan));
    PetscCall(SpTrsvTriDestroy(&t));
  }
  runs     = PETSC_FALSE;
  run_rows = 1;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the automatic dispatch (-mat_sptrsv_dispatch auto, the default): the runs dispatch for a CUDA solver, the level dispatch
   for a host one and with ALAP levels or the warp-packed ELL; a dispatch asked for stays; -mat_sptrsv_levels given asks
   for the level dispatch */
static PetscErrorCode TestDispatchAuto(void)
{
  SpTrsvPath             path;
  SpTrsvPathOptions      opts;
  SpTrsvSyncFreeOptions *o;
  const struct {
    PetscBool      alap, warpell, auto_;
    SpTrsvExecSlot slot;
    PetscBool      runs;
  } cases[] = {
    {PETSC_FALSE, PETSC_FALSE, PETSC_TRUE,  SPTRSV_EXEC_CUDA, PETSC_TRUE },
    {PETSC_FALSE, PETSC_FALSE, PETSC_TRUE,  SPTRSV_EXEC_HOST, PETSC_FALSE},
    {PETSC_TRUE,  PETSC_FALSE, PETSC_TRUE,  SPTRSV_EXEC_CUDA, PETSC_FALSE},
    {PETSC_FALSE, PETSC_TRUE,  PETSC_TRUE,  SPTRSV_EXEC_CUDA, PETSC_FALSE},
    {PETSC_FALSE, PETSC_FALSE, PETSC_FALSE, SPTRSV_EXEC_CUDA, PETSC_FALSE},
  };

  PetscFunctionBeginUser;
  PetscCall(SpTrsvPathFind("syncfree", &path));
  for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
    PetscCall(SpTrsvPathOptionsDefault(NULL, &opts));
    PetscCall(SpTrsvPathOptionsGet(&opts, path, &o));
    EXPECT(o->dispatch_auto && !o->runs && !o->natural, "the default dispatch is not the automatic one (auto %d runs %d natural %d)", (int)o->dispatch_auto, (int)o->runs, (int)o->natural);
    o->alap          = cases[c].alap;
    o->warpell       = cases[c].warpell;
    o->dispatch_auto = cases[c].auto_;
    PetscCall((*path->options_backend)(cases[c].slot, o));
    EXPECT(o->runs == cases[c].runs && !o->natural, "dispatch case %d (alap %d, warpell %d, auto %d, %s): runs %d natural %d, expected runs %d", (int)c, (int)cases[c].alap, (int)cases[c].warpell, (int)cases[c].auto_, cases[c].slot == SPTRSV_EXEC_CUDA ? "cuda" : "host", (int)o->runs, (int)o->natural, (int)cases[c].runs);
  }
  /* the analysis's check of the automatic dispatch's runs (resolved so for a CUDA solver, the analysis on the host here),
     its estimate of both dispatches' times (SpTrsvSyncFreeAutoCheck):
     0: a 7-point grid keeps them (3 windows against 21 levels on the critical path, windows of 16 rows);
     1: a triangle whose rows depend on the row two before (two interleaved chains: windows of two rows, each waiting for
        the one before) has as many windows as levels on its critical path: the level dispatch, the windows' path recorded;
     2: a chain of 64 rows, 1000 rows without dependencies and a last row depending on all of them (rajat19's U): 3
        windows on the critical path against 65 levels, but the last row's lane loads its 1064 entries in 67 batches of
        16, one round trip each: the level dispatch, the path and its extra batches recorded;
     3: block-diagonal, 4000 dense blocks of 8 rows: windows of 2 rows, 4 of them on the path against 8 levels, but 16000
        windows cost more than the level dispatch's 112000 entries: the level dispatch, the windows' number recorded;
     4: 10 levels of 2000 rows, each row depending on 100 rows of the level before (the review's case): the estimate
        alone would keep the runs dispatch (its work term counts windows, not the 1.8e6 entries), but the windows' path,
        10 windows and 6 more batches, is no shorter than the 10 levels: the level dispatch.
     Each then as -ksp_view says it */
  for (PetscInt c = 0; c < 5; c++) {
    SpTrsvTri               t;
    SpTrsvOp                op;
    SpTrsvPlan              plan;
    SpTrsvSyncFreeSchedule *sf;
    PetscInt                W = 0, nwin = 0, lane = 0;
    const PetscInt          m = 2000; /* case 4's rows per level */

    if (!c) PetscCall(GridLower7(16, 3, 4, &t));
    else {
      const PetscInt n = c == 1 ? 200 : (c == 2 ? 1065 : (c == 3 ? 32000 : 10 * m)), nnz = c == 1 ? n : (c == 2 ? 63 + 1064 : (c == 3 ? n / 8 * 28 : 9 * m * 100));
      PetscInt      *i, *j;

      PetscCall(PetscMalloc2(n + 1, &i, nnz, &j));
      i[0] = 0;
      for (PetscInt r = 0; r < n; r++) {
        PetscInt e = i[r];
        if (c == 1 && r >= 2) j[e++] = r - 2;
        if (c == 2 && r >= 1 && r < 64) j[e++] = r - 1; /* the chain */
        if (c == 2 && r == n - 1)
          for (PetscInt q = 0; q < n - 1; q++) j[e++] = q; /* the long row */
        if (c == 3)
          for (PetscInt q = r - r % 8; q < r; q++) j[e++] = q; /* its block's rows before it */
        if (c == 4 && r >= m) { /* 100 rows of the level before, ascending */
          const PetscInt lev0 = (r / m - 1) * m, o = r % m;
          for (PetscInt q = 0; q < 100; q++) j[e++] = lev0 + (o + 7 * q) % m;
          PetscCall(PetscSortInt(100, j + e - 100));
        }
        i[r + 1] = e;
      }
      PetscCall(TriFromCSR(n, SPTRSV_LOWER, PETSC_TRUE, i, j, &t));
      PetscCall(PetscFree2(i, j));
    }
    PetscCall(SpTrsvTriGetOp(t, PETSC_FALSE, &op));
    PetscCall(SpTrsvPathOptionsDefault(NULL, &opts));
    PetscCall(SpTrsvPathOptionsGet(&opts, path, &o));
    o->runs            = PETSC_TRUE; /* the automatic dispatch as a CUDA solver resolves it */
    o->analysis_device = PETSC_FALSE;
    PetscCall(SpTrsvPlanCreate(&op, path, SPTRSV_FORMAT_CSR, &opts, &plan));
    sf = (SpTrsvSyncFreeSchedule *)plan->data;
    if (c) {
      SpTrsvPlan              pr;
      SpTrsvSyncFreeSchedule *rsf;

      o->dispatch_auto = PETSC_FALSE; /* the runs dispatch asked for: its windows' critical path, windows, longest lane */
      PetscCall(SpTrsvPlanCreate(&op, path, SPTRSV_FORMAT_CSR, &opts, &pr));
      rsf  = (SpTrsvSyncFreeSchedule *)pr->data;
      W    = rsf->run_depth;
      nwin = rsf->nwarps;
      lane = rsf->run_lane_max;
      PetscCall(SpTrsvPlanDestroy(&pr));
    }
    if (!c) EXPECT(sf->runs && sf->dispatch_auto && !sf->auto_windows && sf->run_depth < plan->nlevels, "auto dispatch, a 7-point grid: runs %d, windows' path %" PetscInt_FMT " against %" PetscInt_FMT " levels, recorded %" PetscInt_FMT, (int)sf->runs, sf->run_depth, plan->nlevels, sf->auto_windows);
    else {
      char           text[4096], want[200];
      const PetscInt extra = c == 2 ? (1064 + 15) / 16 - 1 : (c == 4 ? (100 + 15) / 16 - 1 : 0);

      EXPECT(!sf->runs && !sf->natural && sf->dispatch_auto && sf->auto_windows == W && sf->auto_batches == extra && sf->auto_nwin == (c == 3 ? nwin : 0), "auto dispatch, case %" PetscInt_FMT ": runs %d, recorded windows' path %" PetscInt_FMT " + %" PetscInt_FMT " batches, %" PetscInt_FMT " windows (the runs dispatch's %" PetscInt_FMT ", %" PetscInt_FMT ", longest lane %" PetscInt_FMT ") against %" PetscInt_FMT " levels", c, (int)sf->runs, sf->auto_windows, sf->auto_batches, sf->auto_nwin, W, nwin, lane, plan->nlevels);
      if (c == 1) EXPECT(W >= plan->nlevels && plan->nlevels == 100, "two interleaved chains: windows' path %" PetscInt_FMT " against %" PetscInt_FMT " levels", W, plan->nlevels);
      if (c == 2) EXPECT(W < plan->nlevels && plan->nlevels == 65 && lane == 1064, "the long row: windows' path %" PetscInt_FMT " against %" PetscInt_FMT " levels, longest lane %" PetscInt_FMT, W, plan->nlevels, lane);
      if (c == 3) EXPECT(W < plan->nlevels && plan->nlevels == 8 && nwin == 16000, "block-diagonal: windows' path %" PetscInt_FMT " against %" PetscInt_FMT " levels, %" PetscInt_FMT " windows", W, plan->nlevels, nwin);
      if (c == 4) {
        const double tr = PetscMax((W + extra) * SPTRSV_SYNCFREE_AUTO_HOP_NS, nwin * SPTRSV_SYNCFREE_AUTO_WINDOW_NS), tl = PetscMax(10 * SPTRSV_SYNCFREE_AUTO_HOP_NS, 9 * m * 100 * SPTRSV_SYNCFREE_AUTO_ENTRY_NS);
        EXPECT(W == 10 && plan->nlevels == 10 && lane == 100 && tr < tl, "levels of 100-entry rows: windows' path %" PetscInt_FMT " against %" PetscInt_FMT " levels, longest lane %" PetscInt_FMT ", estimates %g against %g ns", W, plan->nlevels, lane, tr, tl);
      }
      PetscCall(PlanViewText(plan, "test_syncfree_auto.txt", text, sizeof(text)));
      if (c == 1) PetscCall(PetscSNPrintf(want, sizeof(want), "dispatch chosen by -mat_sptrsv_dispatch auto: level (the windows' critical path, %" PetscInt_FMT " windows, is no shorter than the 100 levels)", W));
      else if (c == 2 || c == 4) PetscCall(PetscSNPrintf(want, sizeof(want), "dispatch chosen by -mat_sptrsv_dispatch auto: level (the windows' critical path, %" PetscInt_FMT " windows and %" PetscInt_FMT " more batches of the longest lane's loads, is no shorter than the %d levels)", W, extra, c == 2 ? 65 : 10));
      else PetscCall(PetscSNPrintf(want, sizeof(want), "dispatch chosen by -mat_sptrsv_dispatch auto: level (16000 windows of 2.0 rows on average: about 18 us of work against the level dispatch's 6)"));
      EXPECT(strstr(text, want) != NULL, "auto dispatch, case %" PetscInt_FMT ": -ksp_view lacks '%s':\n%s", c, want, text);
    }
    PetscCall(SpTrsvPlanDestroy(&plan));
    PetscCall(SpTrsvTriDestroy(&t));
  }
  for (PetscInt given = 0; given < 2; given++) {
    PetscCall(SpTrsvPathOptionsDefault(NULL, &opts));
    if (given) PetscCall(PetscOptionsSetValue(NULL, "-mat_sptrsv_levels", "asap"));
    PetscOptionsBegin(PETSC_COMM_SELF, NULL, "test", "Mat");
    PetscCall(SpTrsvPathOptionsSetFromOptions(PetscOptionsObject, path, &opts));
    PetscOptionsEnd();
    PetscCall(PetscOptionsClearValue(NULL, "-mat_sptrsv_levels"));
    PetscCall(SpTrsvPathOptionsGet(&opts, path, &o));
    EXPECT(o->dispatch_auto == (PetscBool)!given, "-mat_sptrsv_levels %s: automatic dispatch %d", given ? "given" : "not given", (int)o->dispatch_auto);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  PetscRandom rnd;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SpTrsvInitializePackage());
  PetscCall(TestHandDAG());
  PetscCall(TestBins());
  PetscCall(TestNatural());
  PetscCall(TestRuns());
  PetscCall(TestRunsSkew());
  PetscCall(TestDispatchAuto());
  PetscCall(PetscRandomCreate(PETSC_COMM_SELF, &rnd));
  PetscCall(PetscRandomSetSeed(rnd, 20261124));
  PetscCall(PetscRandomSeed(rnd));
  PetscCall(TestRunsArithmetic(rnd));
  for (PetscInt u = 0; u < 2; u++) {
    PetscCall(TestRandom(rnd, 1, 0.5, (SpTrsvUplo)u));
    PetscCall(TestRandom(rnd, 70, 0.03, (SpTrsvUplo)u));
    PetscCall(TestRandom(rnd, 70, 0.4, (SpTrsvUplo)u));
    PetscCall(TestRandom(rnd, 200, 0.2, (SpTrsvUplo)u));
    PetscCall(TestRandom(rnd, 120, 1.0, (SpTrsvUplo)u));
  }
  /* rows longer than their lanes (the CSR tail): at most 1 and at most 4 lanes per row */
  for (max_lanes = 1; max_lanes <= 4; max_lanes *= 4)
    for (PetscInt u = 0; u < 2; u++) {
      PetscCall(TestRandom(rnd, 70, 0.4, (SpTrsvUplo)u));
      PetscCall(TestRandom(rnd, 120, 1.0, (SpTrsvUplo)u));
    }
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "test_syncfree: %" PetscInt_FMT " passed, %" PetscInt_FMT " failed\n", npass, nfail));
  PetscCall(PetscFinalize());
  return nfail ? 1 : 0;
}
