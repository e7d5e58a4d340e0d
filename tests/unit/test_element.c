static char help[] = "Unit tests of the element path's analysis: warp packing (lanes per row, rows per warp), the schedule check, and host solves for every packing.\n";

#include <sptrsv/paths/element.h>
#include <sptrsv/warps.h>
#include "unit_common.h"

static PetscErrorCode OptionsWith(PetscInt lanes, PetscInt rows, SpTrsvSolverOptions *opts)
{
  PetscFunctionBeginUser;
  PetscCall(SpTrsvSolverOptionsInitialize(opts));
  opts->element_lanes         = lanes;
  opts->element_rows_per_warp = rows;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode AnalyzeWith(const SpTrsvOp *op, SpTrsvFormat format, PetscInt lanes, PetscInt rows, SpTrsvPlan *plan)
{
  SpTrsvSolverOptions opts;
  SpTrsvPath          path;

  PetscFunctionBeginUser;
  PetscCall(OptionsWith(lanes, rows, &opts));
  PetscCall(SpTrsvPathFind("element", &path));
  PetscCall(SpTrsvPlanCreate(op, path, format, &opts, plan));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscBool SameWarps(SpTrsvElementSchedule *es, PetscInt nw, const PetscInt *wstart, const int *wlanes)
{
  if (es->nwarps != nw) return PETSC_FALSE;
  for (PetscInt w = 0; w < nw; w++)
    if (es->wstart[w] != wstart[w] || es->wlanes[w] != wlanes[w]) return PETSC_FALSE;
  return (PetscBool)(es->wstart[nw] == wstart[nw]);
}

/* the hand DAG of test_levels (1<-0, 3<-{1,2}, 4<-0, 5<-{3,4}; levels 0 1 0 2 1 3, lengths 0 1 0 2 1 2): order
   0 2 | 1 4 | 3 | 5. Default packing: [0 2] K1, [1 4] K1, [3] K2, [5] K2; one row per warp: 6 warps of 32 lanes;
   at most 1 lane: K1 everywhere (rows 3 and 5 loop over their two entries) */
static PetscErrorCode TestHandDAG(void)
{
  const PetscInt ai[] = {0, 0, 1, 1, 3, 4, 6}, aj[] = {0, 1, 2, 0, 3, 4};
  const PetscInt ws4[] = {0, 2, 4, 5, 6}, ws6[] = {0, 1, 2, 3, 4, 5, 6};
  const int      wl_def[] = {1, 1, 2, 2}, wl_one[] = {32, 32, 32, 32, 32, 32}, wl_l1[] = {1, 1, 1, 1};
  SpTrsvTri      t;
  SpTrsvOp       op;
  SpTrsvPlan     plan;

  PetscFunctionBeginUser;
  PetscCall(TriFromCSR(6, SPTRSV_LOWER, PETSC_TRUE, ai, aj, &t));
  PetscCall(SpTrsvTriGetOp(t, PETSC_FALSE, &op));
  for (PetscInt f = 0; f < 2; f++) {
    PetscCall(AnalyzeWith(&op, (SpTrsvFormat)f, 32, 32, &plan));
    EXPECT(SameWarps((SpTrsvElementSchedule *)plan->data, 4, ws4, wl_def), "hand DAG %s: wrong default packing", SpTrsvFormats[f]);
    PetscCall(SpTrsvElementScheduleCheck(&op, plan));
    PetscCall(SpTrsvPlanDestroy(&plan));
    PetscCall(AnalyzeWith(&op, (SpTrsvFormat)f, 32, 1, &plan));
    EXPECT(SameWarps((SpTrsvElementSchedule *)plan->data, 6, ws6, wl_one), "hand DAG %s: one row per warp is not 6 warps of 32 lanes", SpTrsvFormats[f]);
    PetscCall(SpTrsvElementScheduleCheck(&op, plan));
    PetscCall(SpTrsvPlanDestroy(&plan));
    PetscCall(AnalyzeWith(&op, (SpTrsvFormat)f, 1, 32, &plan));
    EXPECT(SameWarps((SpTrsvElementSchedule *)plan->data, 4, ws4, wl_l1), "hand DAG %s: wrong packing with 1 lane per row", SpTrsvFormats[f]);
    PetscCall(SpTrsvElementScheduleCheck(&op, plan));
    PetscCall(SpTrsvPlanDestroy(&plan));
  }
  PetscCall(SpTrsvTriDestroy(&t));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* greedy packing inside one level: 40 rows of one entry, a row of 40 entries, 10 rows of 3 or 4 entries, then
   rows of lengths 1 1 3 1 ... (K grows to 4 in the warp that meets the first 3); level 0 holds the empty rows */
static PetscErrorCode TestGreedy(void)
{
  const PetscInt n = 220;
  PetscInt      *ai, *aj, nnz = 0;
  SpTrsvTri      t;
  SpTrsvOp       op;
  SpTrsvPlan     plan;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc2(n + 1, &ai, 4 * n + 100, &aj));
  ai[0] = 0;
  for (PetscInt i = 0; i < n; i++) {
    if (i >= 40 && i < 80) aj[nnz++] = i - 40; /* level 1, one entry */
    else if (i == 80)
      for (PetscInt j = 0; j < 40; j++) aj[nnz++] = j; /* level 1, 40 entries */
    else if (i > 80 && i <= 90)
      for (PetscInt j = 0; j < 3 + (i % 2); j++) aj[nnz++] = j; /* level 1, 3 or 4 entries */
    else if (i > 200)
      for (PetscInt j = 0; j < (i % 4 == 3 ? 3 : 1); j++) aj[nnz++] = j; /* level 1, 1 1 3 1 1 1 3 1 ... */
    ai[i + 1] = nnz;
  }
  PetscCall(TriFromCSR(n, SPTRSV_LOWER, PETSC_TRUE, ai, aj, &t));
  PetscCall(SpTrsvTriGetOp(t, PETSC_FALSE, &op));
  PetscCall(AnalyzeWith(&op, SPTRSV_FORMAT_CSR, 32, 32, &plan));
  {
    SpTrsvElementSchedule *es = (SpTrsvElementSchedule *)plan->data;
    /* level 0: rows 0..39 and 91..200, 150 empty rows: 5 warps of K = 1 (32 32 32 32 22); level 1 (by index):
       rows 40..71 (K1), 72..79 (K1: the next row has 40 entries and does not fit), 80 (K32), 81..88, 89..90 and
       201..206 (K4: 8 rows), 207..214 (K4), 215..219 (K4) */
    const PetscInt wstart[] = {0, 32, 64, 96, 128, 150, 182, 190, 191, 199, 207, 215, 220};
    const int      wlanes[] = {1, 1, 1, 1, 1, 1, 1, 32, 4, 4, 4, 4};
    EXPECT(plan->nlevels == 2, "greedy: %" PetscInt_FMT " levels, expected 2", plan->nlevels);
    EXPECT(SameWarps(es, 12, wstart, wlanes), "greedy: wrong warps (%" PetscInt_FMT ")", es->nwarps);
    PetscCall(SpTrsvElementScheduleCheck(&op, plan));
  }
  PetscCall(SpTrsvPlanDestroy(&plan));
  PetscCall(SpTrsvTriDestroy(&t));
  PetscCall(PetscFree2(ai, aj));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the options the analysis refuses: lanes or rows per warp not a power of two in 1..32, or a product below 32 */
static PetscErrorCode TestBadOptions(void)
{
  const PetscInt ai[] = {0, 0, 1}, aj[] = {0};
  const PetscInt bad[][2] = {{3, 32}, {64, 32}, {0, 32}, {32, 5}, {32, 0}, {4, 4}, {1, 16}};
  SpTrsvTri      t;
  SpTrsvOp       op;

  PetscFunctionBeginUser;
  PetscCall(TriFromCSR(2, SPTRSV_LOWER, PETSC_TRUE, ai, aj, &t));
  PetscCall(SpTrsvTriGetOp(t, PETSC_FALSE, &op));
  for (size_t c = 0; c < sizeof(bad) / sizeof(bad[0]); c++) {
    SpTrsvPlan     plan = NULL;
    PetscErrorCode ierr;
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    ierr = AnalyzeWith(&op, SPTRSV_FORMAT_CSR, bad[c][0], bad[c][1], &plan);
    PetscCall(PetscPopErrorHandler());
    EXPECT(ierr != PETSC_SUCCESS && !plan, "lanes %" PetscInt_FMT " rows per warp %" PetscInt_FMT " were accepted", bad[c][0], bad[c][1]);
  }
  PetscCall(SpTrsvTriDestroy(&t));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* random triangles, lower and upper, both orientations, CSR and CSC, every lanes/rows-per-warp pair the analysis
   accepts: the schedule check passes, warps are greedy (the next row of the level would not fit), a corrupted
   packing is rejected, and the host executor solves as the level path does */
static PetscErrorCode TestRandom(PetscRandom rnd, PetscInt n, PetscReal density, SpTrsvUplo uplo)
{
  PetscInt    *ai, *aj, nnz = 0;
  SpTrsvTri    t;
  SpTrsvPath   level;
  PetscScalar *b, *x, *xref;
  PetscReal    r;

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
  PetscCall(TriFromCSR(n, uplo, PETSC_FALSE, ai, aj, &t));
  for (PetscInt p = 0; p < nnz; p++) {
    PetscCall(PetscRandomGetValueReal(rnd, &r));
    t->a[p] = (r - 0.5) / (1.0 + density * n);
  }
  for (PetscInt i = 0; i < n; i++) {
    PetscCall(PetscRandomGetValueReal(rnd, &r));
    t->idiag[i] = 1.0 / (1.0 + r);
  }
  PetscCall(SpTrsvTriValuesChanged(t));
  PetscCall(SpTrsvPathFind("level", &level));
  PetscCall(PetscMalloc3(n + 1, &b, n + 1, &x, n + 1, &xref));
  for (PetscInt i = 0; i < n; i++) PetscCall(PetscRandomGetValue(rnd, &b[i]));
  for (PetscInt tr = 0; tr < 2; tr++) {
    SpTrsvSolver ref;
    SpTrsvOp     op;
    PetscCall(SpTrsvTriGetOp(t, (PetscBool)tr, &op));
    PetscCall(SpTrsvSolverCreate(t, (PetscBool)tr, SPTRSV_FORMAT_CSR, level, &SpTrsvBackendHost, &ref));
    PetscCall(SpTrsvSolverApply(ref, b, xref));
    PetscCall(SpTrsvSolverDestroy(&ref));
    for (PetscInt f = 0; f < 2; f++)
      for (PetscInt lanes = 1; lanes <= 32; lanes *= 2)
        for (PetscInt rows = 32 / lanes; rows <= 32; rows *= 2) {
          SpTrsvSolverOptions    opts;
          SpTrsvPlan             plan;
          SpTrsvElementSchedule *es;
          SpTrsvSolver           s;
          SpTrsvPath             element;
          PetscBool              greedy = PETSC_TRUE;
          PetscErrorCode         ierr;
          PetscReal              err = 0, nrm = 0;
          PetscCall(AnalyzeWith(&op, (SpTrsvFormat)f, lanes, rows, &plan));
          es = (SpTrsvElementSchedule *)plan->data;
          PetscCall(SpTrsvElementScheduleCheck(&op, plan));
          for (PetscInt w = 0; w + 1 < es->nwarps; w++) {
            const PetscInt k1 = es->wstart[w + 1], i = plan->order[k1];
            int            K  = PetscMax(es->wlanes[w], SpTrsvWarpRowLanes(op.ri[i + 1] - op.ri[i], 32 / rows, lanes));
            if (plan->level[i] == plan->level[plan->order[es->wstart[w]]] && (k1 - es->wstart[w] + 1) * K <= 32) greedy = PETSC_FALSE;
          }
          EXPECT(greedy, "random n=%" PetscInt_FMT " lanes %" PetscInt_FMT " rows %" PetscInt_FMT ": a warp stops before a row of its level that fits", n, lanes, rows);
          /* corrupt: more lanes than the first warp's rows take must be caught */
          if (es->nwarps > 0) {
            const int K = es->wlanes[0];
            es->wlanes[0] = K == 32 ? 16 : 2 * K;
            PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
            ierr = SpTrsvElementScheduleCheck(&op, plan);
            PetscCall(PetscPopErrorHandler());
            EXPECT(ierr == PETSC_ERR_PLIB, "random n=%" PetscInt_FMT " lanes %" PetscInt_FMT " rows %" PetscInt_FMT ": a corrupted packing passed the check", n, lanes, rows);
            es->wlanes[0] = K;
          }
          /* a warp across two levels must be caught */
          if (es->nwarps > 1 && plan->nlevels > 1) {
            PetscInt w = 0;
            while (w + 1 < es->nwarps && plan->level[plan->order[es->wstart[w + 1]]] == plan->level[plan->order[es->wstart[w]]]) w++;
            if (w + 1 < es->nwarps) {
              const PetscInt k = es->wstart[w + 1];
              es->wstart[w + 1]++;
              PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
              ierr = SpTrsvElementScheduleCheck(&op, plan);
              PetscCall(PetscPopErrorHandler());
              EXPECT(ierr == PETSC_ERR_PLIB, "random n=%" PetscInt_FMT " lanes %" PetscInt_FMT " rows %" PetscInt_FMT ": a warp across two levels passed the check", n, lanes, rows);
              es->wstart[w + 1] = k;
            }
          }
          PetscCall(SpTrsvPlanDestroy(&plan));
          /* the host executor (which checks the schedule at setup) solves as the level path */
          PetscCall(OptionsWith(lanes, rows, &opts));
          PetscCall(SpTrsvPathFind("element", &element));
          PetscCall(SpTrsvSolverCreateWithOptions(t, (PetscBool)tr, (SpTrsvFormat)f, element, &SpTrsvBackendHost, &opts, &s));
          PetscCall(SpTrsvSolverApply(s, b, x));
          for (PetscInt i = 0; i < n; i++) {
            err = PetscMax(err, PetscAbsScalar(x[i] - xref[i]));
            nrm = PetscMax(nrm, PetscAbsScalar(xref[i]));
          }
          EXPECT(err <= 1e-12 * PetscMax(nrm, 1.0), "random n=%" PetscInt_FMT " %s%s %s lanes %" PetscInt_FMT " rows %" PetscInt_FMT ": error %g", n, uplo == SPTRSV_LOWER ? "lower" : "upper", tr ? " transpose" : "", SpTrsvFormats[f], lanes, rows, (double)err);
          PetscCall(SpTrsvSolverDestroy(&s));
        }
  }
  PetscCall(PetscFree3(b, x, xref));
  PetscCall(SpTrsvTriDestroy(&t));
  PetscCall(PetscFree2(ai, aj));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  PetscRandom rnd;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SpTrsvInitializePackage());
  PetscCall(TestHandDAG());
  PetscCall(TestGreedy());
  PetscCall(TestBadOptions());
  PetscCall(PetscRandomCreate(PETSC_COMM_SELF, &rnd));
  PetscCall(PetscRandomSetSeed(rnd, 20261124));
  PetscCall(PetscRandomSeed(rnd));
  for (PetscInt u = 0; u < 2; u++) {
    PetscCall(TestRandom(rnd, 1, 0.5, (SpTrsvUplo)u));
    PetscCall(TestRandom(rnd, 70, 0.03, (SpTrsvUplo)u));
    PetscCall(TestRandom(rnd, 70, 0.4, (SpTrsvUplo)u));
    PetscCall(TestRandom(rnd, 150, 0.1, (SpTrsvUplo)u));
    PetscCall(TestRandom(rnd, 80, 1.0, (SpTrsvUplo)u));
  }
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "test_element: %" PetscInt_FMT " passed, %" PetscInt_FMT " failed\n", npass, nfail));
  PetscCall(PetscFinalize());
  return nfail ? 1 : 0;
}
