static char help[] = "Unit tests of the setup's host threads (src/mat/threads.c, -mat_sptrsv_setup_threads) and what runs on them: every row\n"
                     "of a split loop once, the pages of a faulted array, two tasks at once, every part of a loop, the side job beside a pair\n"
                     "(once, its error returned after both tasks, dropped or run at its end); the level sort, the level-0 pattern and the diagonal search\n"
                     "with 1 to 7 threads against one; the runs dispatch's windows of L and U analysed at once (SpTrsvPlanCreatePair)\n"
                     "against one at a time, and one error for a pair of non-triangles.\n";

#include <sptrsv/paths/syncfree.h>
#include <sptrsv/threads.h>
#include <sptrsv/factor.h>
#include <sptrsv/plan.h>
#include "../../src/mat/factor/fill_core.h"
#include "../../examples/common/stencil.h"
#include "unit_common.h"
#include "test_helpers.h"

static void CountRows(void *ctx, PetscInt lo, PetscInt hi)
{
  PetscInt *seen = (PetscInt *)ctx;

  for (PetscInt i = lo; i < hi; i++) seen[i]++;
}

static void SetOne(void *ctx, PetscInt lo, PetscInt hi)
{
  (void)lo;
  (void)hi;
  *(PetscInt *)ctx = 1;
}

/* SpTrsvThreadsFor: every row once, for loop lengths around the split threshold; SpTrsvThreadsPair: both tasks;
   SpTrsvThreadsFault: an array of several threads' pages, written afterwards */
static PetscErrorCode TestLoops(PetscInt nt)
{
  const PetscInt lens[] = {0, 1, SPTRSV_THREADS_MIN_ROWS - 1, SPTRSV_THREADS_MIN_ROWS, 3 * SPTRSV_THREADS_MIN_ROWS + 7};
  PetscInt       prev, *seen, a = 0, b = 0;
  double        *big;
  const size_t   nbig = (3 * SPTRSV_THREADS_MIN_BYTES) / sizeof(double) + 11;

  PetscFunctionBeginUser;
  PetscCall(SpTrsvThreadsPush(nt, &prev));
  EXPECT(SpTrsvThreadsCurrent() == nt, "threads: pushed %" PetscInt_FMT ", current %" PetscInt_FMT, nt, SpTrsvThreadsCurrent());
  for (size_t c = 0; c < sizeof(lens) / sizeof(lens[0]); c++) {
    PetscInt bad = 0;

    PetscCall(PetscCalloc1(lens[c] + 1, &seen));
    PetscCall(SpTrsvThreadsFor(lens[c], CountRows, seen));
    for (PetscInt i = 0; i < lens[c]; i++) bad += seen[i] != 1;
    EXPECT(!bad, "threads %" PetscInt_FMT ": a loop of %" PetscInt_FMT " rows ran %" PetscInt_FMT " of them not exactly once", nt, lens[c], bad);
    PetscCall(PetscFree(seen));
  }
  PetscCall(SpTrsvThreadsPair(SetOne, &a, SetOne, &b));
  EXPECT(a == 1 && b == 1, "threads %" PetscInt_FMT ": a pair ran tasks %" PetscInt_FMT " and %" PetscInt_FMT, nt, a, b);
  PetscCall(SpTrsvMallocFaulted1(nbig, &big));
  for (size_t k = 0; k < nbig; k++) big[k] = (double)k;
  EXPECT(big[nbig - 1] == (double)(nbig - 1) && big[0] == 0.0, "threads %" PetscInt_FMT ": a faulted array does not keep what was written", nt);
  PetscCall(PetscFree(big));
  PetscCall(SpTrsvThreadsPop(prev));
  EXPECT(SpTrsvThreadsCurrent() == prev, "threads: popped to %" PetscInt_FMT ", current %" PetscInt_FMT, prev, SpTrsvThreadsCurrent());
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* a side job: counts its runs, fails when asked */
typedef struct {
  PetscInt  runs;
  PetscBool fail;
} SideCtx;

static PetscErrorCode SideJob(void *ctx)
{
  SideCtx *c = (SideCtx *)ctx;

  PetscFunctionBegin;
  c->runs++;
  PetscCheck(!c->fail, PETSC_COMM_SELF, PETSC_ERR_LIB, "the side job failed as asked");
  PetscFunctionReturn(PETSC_SUCCESS);
}

static void MarkParts(void *ctx, PetscInt lo, PetscInt hi)
{
  PetscInt *seen = (PetscInt *)ctx;

  for (PetscInt t = lo; t < hi; t++) seen[t]++;
}

/* SpTrsvThreadsEach: every task once; the side job: run once by a pair beside its two tasks with three threads or more,
   its error after both; run by SideEnd(PETSC_TRUE) when no pair took it, dropped by SideEnd(PETSC_FALSE); a second job
   while one waits is an error */
static PetscErrorCode TestSide(PetscInt nt)
{
  PetscInt       prev, a = 0, b = 0, seen[9] = {0};
  SideCtx        c = {0, PETSC_FALSE};
  PetscErrorCode ierr;
  char           msg[512];

  PetscFunctionBeginUser;
  PetscCall(SpTrsvThreadsPush(nt, &prev));
  PetscCall(SpTrsvThreadsEach(9, MarkParts, seen));
  for (PetscInt t = 0; t < 9; t++) EXPECT(seen[t] == 1, "threads %" PetscInt_FMT ": task %" PetscInt_FMT " of 9 ran %" PetscInt_FMT " times", nt, t, seen[t]);
  EXPECT(SpTrsvThreadsParts(SPTRSV_THREADS_MIN_ROWS - 1) == 1 && SpTrsvThreadsParts(100 * SPTRSV_THREADS_MIN_ROWS) == nt, "threads %" PetscInt_FMT ": parts %" PetscInt_FMT " and %" PetscInt_FMT, nt, SpTrsvThreadsParts(SPTRSV_THREADS_MIN_ROWS - 1), SpTrsvThreadsParts(100 * SPTRSV_THREADS_MIN_ROWS));
  PetscCall(SpTrsvThreadsSideBegin(SideJob, &c));
  PetscCall(SpTrsvThreadsPair(SetOne, &a, SetOne, &b));
  EXPECT(c.runs == (nt >= 3 ? 1 : 0) && a == 1 && b == 1, "threads %" PetscInt_FMT ": a pair with a side job ran it %" PetscInt_FMT " times (beside it with 3 threads or more only), tasks %" PetscInt_FMT " %" PetscInt_FMT, nt, c.runs, a, b);
  PetscCall(SpTrsvThreadsSideEnd(PETSC_TRUE)); /* taken by the pair: not again; else now */
  EXPECT(c.runs == 1, "threads %" PetscInt_FMT ": the side job ran %" PetscInt_FMT " times after its end", nt, c.runs);
  a = b = 0;
  PetscCall(SpTrsvThreadsPair(SetOne, &a, SetOne, &b)); /* none waits now */
  EXPECT(c.runs == 1 && a == 1 && b == 1, "threads %" PetscInt_FMT ": a pair after the side job ran it again (%" PetscInt_FMT ")", nt, c.runs);
  c.fail = PETSC_TRUE;
  a = b = 0;
  PetscCall(SpTrsvThreadsSideBegin(SideJob, &c));
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = SpTrsvThreadsPair(SetOne, &a, SetOne, &b);
  if (!ierr) ierr = SpTrsvThreadsSideEnd(PETSC_TRUE); /* fewer than 3 threads: the job runs here */
  PetscCall(PetscPopErrorHandler());
  LastMessage(ierr, msg, sizeof(msg));
  EXPECT(ierr == PETSC_ERR_LIB && strstr(msg, "the side job failed as asked") && a == 1 && b == 1 && c.runs == 2, "threads %" PetscInt_FMT ": a failing side job gave error %d '%s', tasks %" PetscInt_FMT " %" PetscInt_FMT, nt, (int)ierr, msg, a, b);
  PetscCall(SpTrsvThreadsSideEnd(PETSC_FALSE)); /* none waits (taken either way) */
  c.fail = PETSC_FALSE;
  PetscCall(SpTrsvThreadsSideBegin(SideJob, &c));
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = SpTrsvThreadsSideBegin(SideJob, &c);
  PetscCall(PetscPopErrorHandler());
  EXPECT(ierr == PETSC_ERR_ORDER, "threads %" PetscInt_FMT ": a second side job while one waits gave %d", nt, (int)ierr);
  PetscCall(SpTrsvThreadsSideEnd(PETSC_TRUE));
  EXPECT(c.runs == 3, "threads %" PetscInt_FMT ": SideEnd(true) with no pair ran the job %" PetscInt_FMT " times in all, expected 3", nt, c.runs);
  PetscCall(SpTrsvThreadsSideBegin(SideJob, &c));
  PetscCall(SpTrsvThreadsSideEnd(PETSC_FALSE));
  PetscCall(SpTrsvThreadsSideEnd(PETSC_TRUE));
  EXPECT(c.runs == 3, "threads %" PetscInt_FMT ": a dropped side job ran (%" PetscInt_FMT ")", nt, c.runs);
  PetscCall(SpTrsvThreadsPop(prev));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the level sort in nt threads: the same level pointers and the same stable order as one thread's, on pseudo-random
   levels, few (split over the threads) or many (a count per level and part would outgrow the rows: one part) */
static PetscErrorCode TestLevelsSort(PetscInt nt, PetscInt nlevels)
{
  const PetscInt n = 5 * SPTRSV_THREADS_MIN_ROWS + 3;
  PetscInt      *level, *order[2], *ptr[2], prev;
  PetscBool      same, same2;
  unsigned       x = 12345u;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc3(n, &level, n, &order[0], n, &order[1]));
  for (PetscInt i = 0; i < n; i++) {
    x         = x * 1103515245u + 12345u;
    level[i] = (PetscInt)((x >> 16) % (unsigned)nlevels);
  }
  for (PetscInt r = 0; r < 2; r++) {
    PetscCall(SpTrsvThreadsPush(r ? nt : 1, &prev));
    PetscCall(SpTrsvLevelsSort(n, level, nlevels, &ptr[r], order[r]));
    PetscCall(SpTrsvThreadsPop(prev));
  }
  PetscCall(PetscArraycmp(ptr[0], ptr[1], nlevels + 1, &same));
  PetscCall(PetscArraycmp(order[0], order[1], n, &same2));
  same = (PetscBool)(same && same2 && ptr[0][nlevels] == n);
  for (PetscInt l = 0; l < nlevels && same; l++) /* stable: ascending rows of one level */
    for (PetscInt k = ptr[0][l]; k < ptr[0][l + 1]; k++) same = (PetscBool)(same && level[order[0][k]] == l && (k == ptr[0][l] || order[0][k - 1] < order[0][k]));
  EXPECT(same, "threads %" PetscInt_FMT ", %" PetscInt_FMT " levels: the level sort differs from one thread's or is not a stable sort by level", nt, nlevels);
  PetscCall(PetscFree(ptr[0]));
  PetscCall(PetscFree(ptr[1]));
  PetscCall(PetscFree3(level, order[0], order[1]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the level-0 pattern (ILU(0), ICC(0)'s upper part) and the diagonals of a 3-D 7-point matrix large enough to be split,
   with nt threads against one: the same arrays; a missing diagonal named by its first row whatever the split */
static PetscErrorCode TestPattern(PetscInt nt)
{
  Mat             A;
  const PetscInt *ai, *aj;
  PetscInt        n, prev, *adiag[2], *li[2], *lj[2], *ui[2], *uj[2], *u2i[2], *u2j[2];
  PetscBool       done;

  PetscFunctionBeginUser;
  PetscCall(SpTrsvBuildStencil(48, 48, 40, 7, &A));
  PetscCall(MatGetRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &n, &ai, &aj, &done));
  for (PetscInt r = 0; r < 2; r++) {
    PetscCall(SpTrsvThreadsPush(r ? nt : 1, &prev));
    PetscCall(PetscMalloc1(n + 1, &adiag[r]));
    PetscCall(SpTrsvFactorFindDiagonal(n, ai, aj, adiag[r]));
    PetscCall(SpTrsvFillPatternLevel0(n, ai, aj, adiag[r], NULL, NULL, PETSC_FALSE, &li[r], &lj[r], &ui[r], &uj[r]));
    PetscCall(SpTrsvFillPatternLevel0(n, ai, aj, NULL, NULL, NULL, PETSC_FALSE, NULL, NULL, &u2i[r], &u2j[r])); /* ICC(0): no diagonals given, a search */
    PetscCall(SpTrsvThreadsPop(prev));
  }
  {
    PetscBool same = PETSC_TRUE;

    for (PetscInt i = 0; i < n && same; i++) same = (PetscBool)(adiag[0][i] == adiag[1][i]);
    PetscCall(PetscArraycmp(li[0], li[1], n + 1, &done));
    same = (PetscBool)(same && done);
    PetscCall(PetscArraycmp(ui[0], ui[1], n + 1, &done));
    same = (PetscBool)(same && done);
    if (same) PetscCall(PetscArraycmp(lj[0], lj[1], li[0][n], &done));
    same = (PetscBool)(same && done);
    if (same) PetscCall(PetscArraycmp(uj[0], uj[1], ui[0][n], &done));
    same = (PetscBool)(same && done);
    if (same) PetscCall(PetscArraycmp(u2i[0], u2i[1], n + 1, &done));
    same = (PetscBool)(same && done);
    if (same) PetscCall(PetscArraycmp(u2j[0], u2j[1], u2i[0][n], &done));
    same = (PetscBool)(same && done);
    /* the strict lower part of a 48 x 48 x 40 grid: 3 n entries but for the first line, plane and row of each direction */
    EXPECT(same && li[0][n] == 3 * n - 48 * 40 - 48 * 40 - 48 * 48 && li[0][n] == ui[0][n] && u2i[0][n] == ui[0][n], "threads %" PetscInt_FMT ": the level-0 pattern or the diagonals differ from one thread's (L %" PetscInt_FMT ", U %" PetscInt_FMT " entries)", nt, li[0][n], ui[0][n]);
  }
  for (PetscInt r = 0; r < 2; r++) {
    PetscCall(PetscFree(adiag[r]));
    PetscCall(PetscFree(li[r]));
    PetscCall(PetscFree(lj[r]));
    PetscCall(PetscFree(ui[r]));
    PetscCall(PetscFree(uj[r]));
    PetscCall(PetscFree(u2i[r]));
    PetscCall(PetscFree(u2j[r]));
  }
  {
    PetscInt      *aj2, *ad;
    const PetscInt miss[2] = {70001, 3 * 48 * 48 * 10 + 5}; /* the second lies earlier in the rows: the one the error names */
    PetscErrorCode ierr;
    char           want[64], msg[512];

    /* two rows lose their diagonal entry (its column index set to -1 - i: the search for column i then fails) */
    PetscCall(PetscMalloc1(ai[n] + 1, &aj2));
    PetscCall(PetscMalloc1(n + 1, &ad));
    PetscCall(PetscArraycpy(aj2, aj, ai[n]));
    for (PetscInt m = 0; m < 2; m++)
      for (PetscInt e = ai[miss[m]]; e < ai[miss[m] + 1]; e++)
        if (aj2[e] == miss[m]) aj2[e] = -1 - miss[m];
    PetscCall(SpTrsvThreadsPush(nt, &prev));
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    ierr = SpTrsvFactorFindDiagonal(n, ai, aj2, ad);
    PetscCall(PetscPopErrorHandler());
    PetscCall(SpTrsvThreadsPop(prev));
    LastMessage(ierr, msg, sizeof(msg));
    PetscCall(PetscSNPrintf(want, sizeof(want), "row %" PetscInt_FMT, PetscMin(miss[0], miss[1])));
    EXPECT(ierr == PETSC_ERR_ARG_WRONGSTATE && strstr(msg, want), "threads %" PetscInt_FMT ": two missing diagonals gave error %d '%s', expected one naming %s", nt, (int)ierr, msg, want);
    PetscCall(PetscFree(aj2));
    PetscCall(PetscFree(ad));
  }
  PetscCall(MatRestoreRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &n, &ai, &aj, &done));
  PetscCall(MatDestroy(&A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the sync-free path's options asking for the runs dispatch, analysed on the host */
static PetscErrorCode RunsOptions(SpTrsvPath *path, SpTrsvPathOptions *opts)
{
  SpTrsvSyncFreeOptions *own;

  PetscFunctionBeginUser;
  PetscCall(SpTrsvPathFind("syncfree", path));
  PetscCall(SpTrsvPathOptionsDefault(NULL, opts));
  PetscCall(SpTrsvPathOptionsGet(opts, *path, &own));
  own->runs            = PETSC_TRUE;
  own->dispatch_auto   = PETSC_FALSE; /* the runs dispatch asked for */
  own->analysis_device = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the runs dispatch's plans of a 3-D grid's L and of its transpose (an upper triangle) analysed as a pair with nt threads:
   the same windows, order, levels and figures as each analysed alone */
static PetscErrorCode TestPair(PetscInt nx, PetscInt ny, PetscInt nz, PetscInt nt)
{
  SpTrsvTri              t;
  SpTrsvOp               op[2];
  SpTrsvPath             path;
  SpTrsvPathOptions      opts;
  SpTrsvPlan             one[2], two[2];
  PetscInt               prev;

  PetscFunctionBeginUser;
  PetscCall(GridLower7(nx, ny, nz, &t));
  PetscCall(SpTrsvTriGetOp(t, PETSC_FALSE, &op[0]));
  PetscCall(SpTrsvTriGetOp(t, PETSC_TRUE, &op[1]));
  PetscCall(RunsOptions(&path, &opts));
  PetscCall(SpTrsvPlanCreate(&op[0], path, SPTRSV_FORMAT_CSR, &opts, &one[0]));
  PetscCall(SpTrsvPlanCreate(&op[1], path, SPTRSV_FORMAT_CSR, &opts, &one[1]));
  PetscCall(SpTrsvThreadsPush(nt, &prev));
  PetscCall(SpTrsvPlanCreatePair(&op[0], &op[1], path, SPTRSV_FORMAT_CSR, &opts, &two[0], &two[1]));
  PetscCall(SpTrsvThreadsPop(prev));
  for (PetscInt k = 0; k < 2; k++) {
    const SpTrsvSyncFreeSchedule *a = (const SpTrsvSyncFreeSchedule *)one[k]->data, *b = (const SpTrsvSyncFreeSchedule *)two[k]->data;
    const PetscInt                n = op[k].n;
    PetscBool                     so, sl, sw, sn = PETSC_TRUE;

    PetscCall(PetscArraycmp(one[k]->order, two[k]->order, n, &so));
    PetscCall(PetscArraycmp(one[k]->level, two[k]->level, n, &sl));
    PetscCall(PetscArraycmp(a->wstart, b->wstart, PetscMin(a->nwarps, b->nwarps) + 1, &sw));
    for (PetscInt w = 0; w < PetscMin(a->nwarps, b->nwarps); w++) sn = (PetscBool)(sn && a->wlanes[w] == b->wlanes[w]);
    EXPECT(so && sl && sw && sn && a->nwarps == b->nwarps && one[k]->nlevels == two[k]->nlevels && two[k]->level_asap && a->run_depth == b->run_depth && a->run_chained == b->run_chained && a->run_rows == b->run_rows && a->run_lane_max == b->run_lane_max && a->run_batch == b->run_batch && a->spin_ns == b->spin_ns && two[k]->stats.max_level_rows == one[k]->stats.max_level_rows && two[k]->path == path,
           "runs %" PetscInt_FMT "x%" PetscInt_FMT "x%" PetscInt_FMT " %s, %" PetscInt_FMT " threads: the pair's plan differs from the plan alone (order %d, levels %d, windows %d/%d, %" PetscInt_FMT " / %" PetscInt_FMT " windows)", nx, ny, nz, k ? "U" : "L", nt, (int)so, (int)sl, (int)sw, (int)sn, a->nwarps, b->nwarps);
    PetscCall(SpTrsvPlanDestroy(&one[k]));
    PetscCall(SpTrsvPlanDestroy(&two[k]));
  }
  PetscCall(SpTrsvTriDestroy(&t));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* a pair of which neither is triangular (operators made by hand: a triangle's pattern is checked when it is set): one
   error, the first's (PETSC_ERR_ARG_WRONG naming its row and column), whatever the threads */
static PetscErrorCode TestPairNotTriangular(PetscInt nt)
{
  /* L: row 2 depends on column 3 (above the diagonal); U (rows in decreasing order): row 1 depends on column 0 */
  const PetscInt         li[] = {0, 0, 1, 2, 3}, lj[] = {0, 3, 2}, ui[] = {0, 1, 2, 3, 3}, uj[] = {1, 0, 3};
  SpTrsvOp               op[2];
  SpTrsvPath             path;
  SpTrsvPathOptions      opts;
  SpTrsvPlan             p0 = NULL, p1 = NULL;
  PetscInt               prev;
  PetscErrorCode         ierr;
  char                   msg[512];

  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(op, sizeof(op)));
  op[0].n = op[1].n = 4;
  op[0].lower = PETSC_TRUE;
  op[0].ri = li, op[0].rj = lj, op[0].nnz = 3;
  op[1].ri = ui, op[1].rj = uj, op[1].nnz = 3;
  PetscCall(RunsOptions(&path, &opts));
  PetscCall(SpTrsvThreadsPush(nt, &prev));
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = SpTrsvPlanCreatePair(&op[0], &op[1], path, SPTRSV_FORMAT_CSR, &opts, &p0, &p1);
  PetscCall(PetscPopErrorHandler());
  PetscCall(SpTrsvThreadsPop(prev));
  LastMessage(ierr, msg, sizeof(msg));
  EXPECT(ierr == PETSC_ERR_ARG_WRONG && strstr(msg, "Not a lower triangle: row 2 depends on column 3") && !p0 && !p1, "threads %" PetscInt_FMT ": a pair of non-triangles gave error %d '%s'", nt, (int)ierr, msg);
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  PetscInt autont, prev;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SpTrsvInitializePackage());
  EXPECT(SpTrsvThreadsCurrent() == 1, "threads outside a setup: %" PetscInt_FMT ", expected 1", SpTrsvThreadsCurrent());
  PetscCall(SpTrsvThreadsAuto(&autont));
  EXPECT(autont >= 1 && autont <= SPTRSV_THREADS_AUTO_MAX, "automatic threads %" PetscInt_FMT ", expected 1 to %d", autont, SPTRSV_THREADS_AUTO_MAX);
  PetscCall(SpTrsvThreadsPush(0, &prev));
  EXPECT(SpTrsvThreadsCurrent() == autont && prev == 1, "threads pushed automatic: %" PetscInt_FMT " (automatic %" PetscInt_FMT "), previous %" PetscInt_FMT, SpTrsvThreadsCurrent(), autont, prev);
  PetscCall(SpTrsvThreadsPop(prev));
  for (PetscInt nt = 1; nt <= 7; nt += 2) {
    PetscCall(TestLoops(nt));
    PetscCall(TestSide(nt));
    PetscCall(TestLevelsSort(nt, 37));
    PetscCall(TestLevelsSort(nt, SPTRSV_THREADS_MIN_ROWS));
    PetscCall(TestPattern(nt));
    PetscCall(TestPair(40, 30, 20, nt));
    PetscCall(TestPair(70, 3, 2, nt));
    PetscCall(TestPairNotTriangular(nt));
  }
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "test_setup_threads: %" PetscInt_FMT " passed, %" PetscInt_FMT " failed\n", npass, nfail));
  PetscCall(PetscFinalize());
  return nfail ? 1 : 0;
}
