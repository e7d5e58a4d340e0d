static char help[] = "Unit tests of the sync-free runs dispatch's groups of windows (-mat_sptrsv_run_group): the boxes on 3-D grids, their dispatch order, the property the CUDA kernel's deadlock freedom rests on, and the schedule check's refusals.\n";

#include <sptrsv/paths/syncfree.h>
#include "unit_common.h"

/* the host analysis of the runs dispatch with groups of up to B x B windows */
static PetscErrorCode AnalyzeGroups(const SpTrsvOp *op, PetscInt B, SpTrsvPlan *plan)
{
  SpTrsvPathOptions      opts;
  SpTrsvSyncFreeOptions *sf;
  SpTrsvPath             path;

  PetscFunctionBeginUser;
  PetscCall(SpTrsvPathFind("syncfree", &path));
  PetscCall(SpTrsvPathOptionsDefault(NULL, &opts));
  PetscCall(SpTrsvPathOptionsGet(&opts, path, &sf));
  sf->runs            = PETSC_TRUE;
  sf->run_group       = B;
  sf->analysis_device = PETSC_FALSE;
  PetscCall(SpTrsvPlanCreate(op, path, SPTRSV_FORMAT_CSR, &opts, plan));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* every dependency of a window on another lies in an earlier group or in an earlier window of its own group (checked
   here from the triangle, apart from SpTrsvSyncFreeScheduleCheck); returns the windows whose group holds more than one */
static PetscErrorCode CheckGroupOrder(const SpTrsvOp *op, SpTrsvPlan plan, const char *what, PetscInt *grouped)
{
  SpTrsvSyncFreeSchedule *sf = (SpTrsvSyncFreeSchedule *)plan->data;
  PetscInt               *win, *grp, bad = 0;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc2(op->n + 1, &win, sf->nwarps + 1, &grp));
  *grouped = 0;
  for (PetscInt g = 0; g < sf->ngroups; g++)
    for (PetscInt w = sf->gstart[g]; w < sf->gstart[g + 1]; w++) {
      grp[w] = g;
      for (PetscInt k = sf->wstart[w]; k < sf->wstart[w] + sf->wlanes[w]; k++) win[k] = w;
      if (sf->gstart[g + 1] - sf->gstart[g] > 1) (*grouped)++;
    }
  for (PetscInt w = 0; w < sf->nwarps; w++)
    for (PetscInt k = sf->wstart[w]; k < sf->wstart[w] + sf->wlanes[w]; k++) {
      const PetscInt i = plan->order[k];
      for (PetscInt e = op->ri[i]; e < op->ri[i + 1]; e++) {
        const PetscInt q = SpTrsvSyncFreeNaturalPos(op, op->rj[e]), wq = win[q];
        if (wq == w) continue; /* the chain inside the window */
        if (!(grp[wq] < grp[w] || (grp[wq] == grp[w] && wq < w))) bad++;
      }
    }
  EXPECT(bad == 0, "%s: %" PetscInt_FMT " dependencies on a later group or a later window of the same group", what, bad);
  PetscCall(PetscFree2(win, grp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* 7-point grids in natural order (lines of nx points in windows of up to 32): on an ny x nz plane of lines that the
   boxes tile, every group is a full B x B box of windows of one x range, and the groups' critical path is the boxes'
   wavefront; on the transpose (upper) the same. Shapes the boxes do not tile keep the order property and the check */
static PetscErrorCode TestGroupsGrid(void)
{
  const struct {
    PetscInt nx, ny, nz, B, ngroups, depth; /* ngroups < 0: shapes not tiled (only the property and the check) */
  } g[] = {
    {20, 8, 8, 4, 4, 3},   /* 64 lines of one window: 2 x 2 boxes of 16 */
    {40, 8, 8, 4, 8, 4},   /* windows of 32 and 8 rows: the boxes of the second x range wait for the first's */
    {20, 8, 8, 2, 16, 7},  /* boxes of 2 x 2: 4 x 4 of them */
    {20, 12, 8, 4, 6, 4},  /* 3 x 2 boxes */
    {20, 6, 5, 4, -1, -1}, /* boxes cut by the grid's ends */
    {70, 5, 7, 3, -1, -1},
    {8, 9, 1, 4, -1, -1},  /* a 2-D grid: boxes of one plane */
  };
  SpTrsvTri  t;
  SpTrsvOp   op;
  SpTrsvPlan plan;

  PetscFunctionBeginUser;
  for (size_t c = 0; c < sizeof(g) / sizeof(g[0]); c++) {
    PetscCall(GridLower7(g[c].nx, g[c].ny, g[c].nz, &t));
    for (PetscInt tr = 0; tr < 2; tr++) {
      SpTrsvSyncFreeSchedule *sf;
      PetscInt                grouped;
      char                    what[96];
      PetscCall(PetscSNPrintf(what, sizeof(what), "groups %" PetscInt_FMT " on %" PetscInt_FMT "x%" PetscInt_FMT "x%" PetscInt_FMT "%s", g[c].B, g[c].nx, g[c].ny, g[c].nz, tr ? " (transpose)" : ""));
      PetscCall(SpTrsvTriGetOp(t, (PetscBool)tr, &op));
      PetscCall(AnalyzeGroups(&op, g[c].B, &plan));
      sf = (SpTrsvSyncFreeSchedule *)plan->data;
      EXPECT(sf->runs && sf->run_group == g[c].B && sf->run_rows == 1, "%s: not a grouped runs schedule", what);
      PetscCall(SpTrsvSyncFreeScheduleCheck(&op, plan));
      PetscCall(CheckGroupOrder(&op, plan, what, &grouped));
      EXPECT(sf->grouped == grouped, "%s: %" PetscInt_FMT " windows in groups of more than one, counted %" PetscInt_FMT, what, sf->grouped, grouped);
      if (g[c].ngroups >= 0) {
        PetscBool full = PETSC_TRUE;
        for (PetscInt q = 0; q < sf->ngroups; q++) full = (PetscBool)(full && sf->gstart[q + 1] - sf->gstart[q] == g[c].B * g[c].B);
        EXPECT(sf->ngroups == g[c].ngroups && sf->group_depth == g[c].depth && full && grouped == sf->nwarps, "%s: %" PetscInt_FMT " groups (%s), critical path %" PetscInt_FMT ", %" PetscInt_FMT " of %" PetscInt_FMT " windows grouped; expected %" PetscInt_FMT " full boxes, critical path %" PetscInt_FMT, what, sf->ngroups, full ? "full" : "not all full", sf->group_depth, grouped, sf->nwarps, g[c].ngroups, g[c].depth);
      } else EXPECT(grouped > 0, "%s: no window in a group of more than one", what);
      /* refusals: (1) the first group's first two windows swapped (its second waits for its first); (2) two groups
         merged into one of more than B^2 windows */
      if (sf->ngroups > 1 && sf->gstart[1] >= 2) {
        const PetscInt s0 = sf->wstart[0], g1 = sf->gstart[1];
        const int      l0 = sf->wlanes[0];
        PetscErrorCode ierr;
        sf->wstart[0] = sf->wstart[1];
        sf->wlanes[0] = sf->wlanes[1];
        sf->wstart[1] = s0;
        sf->wlanes[1] = l0;
        PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
        ierr = SpTrsvSyncFreeScheduleCheck(&op, plan);
        PetscCall(PetscPopErrorHandler());
        EXPECT(ierr == PETSC_ERR_PLIB, "%s: a group whose second window goes before the first passed the check", what);
        sf->wstart[1] = sf->wstart[0];
        sf->wlanes[1] = sf->wlanes[0];
        sf->wstart[0] = s0;
        sf->wlanes[0] = l0;
        PetscCall(SpTrsvSyncFreeScheduleCheck(&op, plan)); /* restored */
        if (sf->ngroups > 2 && sf->gstart[2] > g[c].B * g[c].B) {
          sf->gstart[1] = 0;
          PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
          ierr = SpTrsvSyncFreeScheduleCheck(&op, plan);
          PetscCall(PetscPopErrorHandler());
          EXPECT(ierr == PETSC_ERR_PLIB, "%s: an empty group passed the check", what);
          sf->gstart[1] = sf->gstart[2];
          PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
          ierr = SpTrsvSyncFreeScheduleCheck(&op, plan);
          PetscCall(PetscPopErrorHandler());
          EXPECT(ierr == PETSC_ERR_PLIB, "%s: a group of more than %" PetscInt_FMT " windows passed the check", what, g[c].B * g[c].B);
          sf->gstart[1] = g1;
          PetscCall(SpTrsvSyncFreeScheduleCheck(&op, plan)); /* restored */
        }
      }
      PetscCall(SpTrsvPlanDestroy(&plan));
    }
    PetscCall(SpTrsvTriDestroy(&t));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* a pattern where boxes cannot form everywhere: a 27-point lower stencil (every neighbour before the point) on a 3-D
   grid, and random triangles: the groups shrink, the order property and the check hold */
static PetscErrorCode TestGroupsIrregular(PetscRandom rnd)
{
  const PetscInt nx = 40, ny = 6, nz = 5, n = nx * ny * nz;
  PetscInt      *ai, *aj, nnz = 0;
  SpTrsvTri      t;
  SpTrsvOp       op;
  SpTrsvPlan     plan;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc2(n + 1, &ai, 13 * n + 1, &aj));
  ai[0] = 0;
  for (PetscInt i = 0; i < n; i++) {
    const PetscInt x = i % nx, y = (i / nx) % ny, z = i / (nx * ny);
    for (PetscInt dz = -1; dz <= 0; dz++)
      for (PetscInt dy = -1; dy <= 1; dy++)
        for (PetscInt dx = -1; dx <= 1; dx++) {
          const PetscInt j = i + dx + nx * (dy + ny * dz);
          if (j >= i || x + dx < 0 || x + dx >= nx || y + dy < 0 || y + dy >= ny || z + dz < 0) continue;
          aj[nnz++] = j;
        }
    ai[i + 1] = nnz;
  }
  PetscCall(TriFromCSR(n, SPTRSV_LOWER, PETSC_TRUE, ai, aj, &t));
  PetscCall(PetscFree2(ai, aj));
  for (PetscInt tr = 0; tr < 2; tr++)
    for (PetscInt B = 2; B <= SPTRSV_SYNCFREE_RUN_GROUP_MAX; B++) {
      PetscInt grouped;
      PetscCall(SpTrsvTriGetOp(t, (PetscBool)tr, &op));
      PetscCall(AnalyzeGroups(&op, B, &plan));
      PetscCall(SpTrsvSyncFreeScheduleCheck(&op, plan));
      PetscCall(CheckGroupOrder(&op, plan, tr ? "groups on the 27-point grid (transpose)" : "groups on the 27-point grid", &grouped));
      PetscCall(SpTrsvPlanDestroy(&plan));
    }
  PetscCall(SpTrsvTriDestroy(&t));
  for (PetscInt c = 0; c < 20; c++) { /* random lower triangles, sparse and dense */
    const PetscInt m = 50 + (PetscInt)(300 * Rand(rnd));
    const PetscReal dens = c % 2 ? 0.02 : 0.3;
    PetscCall(PetscMalloc2(m + 1, &ai, m * m + 1, &aj));
    nnz   = 0;
    ai[0] = 0;
    for (PetscInt i = 0; i < m; i++) {
      for (PetscInt j = 0; j < i; j++)
        if (j == i - 1 ? Rand(rnd) < 0.8 : Rand(rnd) < dens / (1.0 + 0.2 * (PetscReal)(i - j))) aj[nnz++] = j;
      ai[i + 1] = nnz;
    }
    PetscCall(TriFromCSR(m, SPTRSV_LOWER, PETSC_TRUE, ai, aj, &t));
    PetscCall(PetscFree2(ai, aj));
    for (PetscInt tr = 0; tr < 2; tr++) {
      PetscInt grouped;
      PetscCall(SpTrsvTriGetOp(t, (PetscBool)tr, &op));
      PetscCall(AnalyzeGroups(&op, 2 + c % 3, &plan));
      PetscCall(SpTrsvSyncFreeScheduleCheck(&op, plan));
      PetscCall(CheckGroupOrder(&op, plan, "groups of a random triangle", &grouped));
      PetscCall(SpTrsvPlanDestroy(&plan));
    }
    PetscCall(SpTrsvTriDestroy(&t));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  PetscRandom rnd;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SpTrsvInitializePackage());
  PetscCall(TestGroupsGrid());
  PetscCall(PetscRandomCreate(PETSC_COMM_SELF, &rnd));
  PetscCall(PetscRandomSetSeed(rnd, 20261130));
  PetscCall(PetscRandomSeed(rnd));
  PetscCall(TestGroupsIrregular(rnd));
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "test_syncfree_groups: %" PetscInt_FMT " passed, %" PetscInt_FMT " failed\n", npass, nfail));
  PetscCall(PetscFinalize());
  return nfail ? 1 : 0;
}
