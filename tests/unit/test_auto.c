static char help[] = "Unit tests of the automatic path choice (MatSolverType sptrsv): the chooser on synthetic feature vectors with the\n"
                     "fitted H100 constants, the fallback and host rules, candidates refused, the model lookup, the features of a triangle.\n";

#include <sptrsv/auto.h>
#include <sptrsv/paths/pinv.h> /* SpTrsvPinvOptions */

#include "unit_common.h"

/* the H100 constants read independently of auto.c, straight from the generated file */
typedef struct {
  const char *path;
  PetscReal   solve[SPTRSV_AUTO_NSOLVE], setup[SPTRSV_AUTO_NSETUP], range[4];
} Cost;
#define SPTRSV_AUTO_SOLVE(...)        {__VA_ARGS__}
#define SPTRSV_AUTO_SETUP(...)        {__VA_ARGS__}
#define SPTRSV_AUTO_RANGE(...)        {__VA_ARGS__}
#define SPTRSV_AUTO_MODEL(name, variant, s, u, r) {#name, s, u, r},
static const Cost h100[] = {
#include "../../src/mat/paths/auto_models/h100.h"
};
#define NH100 ((PetscInt)(sizeof(h100) / sizeof(h100[0])))

/* the features of a triangle with n rows, nnz strict entries, nlev levels (what SpTrsvPlanSetStats fills) */
static SpTrsvStats Features(PetscInt n, PetscInt nnz, PetscInt nlev)
{
  SpTrsvStats f;

  PetscMemzero(&f, sizeof(f));
  f.n               = n;
  f.nnz             = nnz;
  f.nlevels         = nlev;
  f.mean_level_rows = (PetscReal)n / nlev;
  f.max_level_rows  = (PetscInt)(2 * f.mean_level_rows);
  f.mean_row_nnz    = (PetscReal)nnz / n;
  f.max_row_nnz     = (PetscInt)(f.mean_row_nnz + 1);
  return f;
}

/* the model's prediction computed here from the file's constants (the terms of fit-auto-model.py's solve_x/setup_x) */
static PetscReal Expected(const Cost *c, const SpTrsvStats *f, PetscInt nsolves)
{
  const PetscReal lev = (PetscReal)f->nlevels, n = (PetscReal)f->n;
  const PetscReal x[SPTRSV_AUTO_NSOLVE] = {1.0, lev, f->nnz / 1e6, n / 1e6, lev * PetscMin(1.0, n / lev / 1024.0), lev * f->nnz / n};
  const PetscReal y[SPTRSV_AUTO_NSETUP] = {1.0, lev, f->nnz / 1e6, n / 1e6};
  PetscReal       s = 0, u = 0;

  for (PetscInt k = 0; k < SPTRSV_AUTO_NSOLVE; k++) s += c->solve[k] * x[k];
  for (PetscInt k = 0; k < SPTRSV_AUTO_NSETUP; k++) u += c->setup[k] * y[k];
  return nsolves > 0 ? u + nsolves * s : s;
}

/* inside the rows/levels range of an entry (0: unbounded), as the chooser checks */
static PetscBool InRange(const PetscReal r[4], const SpTrsvStats *f)
{
  return (PetscBool)(!(r[0] > 0 && f->n < r[0]) && !(r[1] > 0 && f->n > r[1]) && !(r[2] > 0 && f->nlevels < r[2]) && !(r[3] > 0 && f->nlevels > r[3]));
}

static PetscErrorCode AllPaths(PetscInt *n, SpTrsvPath cand[])
{
  PetscFunctionBeginUser;
  PetscCall(SpTrsvPathGetCount(n));
  for (PetscInt k = 0; k < *n; k++) PetscCall(SpTrsvPathGetByIndex(k, &cand[k]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the chooser picks the predicted best on a feature vector, ranks the rest in order, and says why */
static PetscErrorCode TestPredictedBest(const char *name, SpTrsvStats f, PetscInt nsolves, const char *want)
{
  const SpTrsvAutoModel *model;
  SpTrsvPath             cand[SPTRSV_AUTO_MAXPATHS];
  PetscInt               ncand;
  SpTrsvAutoChoice       c;
  PetscReal              best = PETSC_MAX_REAL;
  const char            *bestname = NULL;
  char                  *hit;

  PetscFunctionBeginUser;
  PetscCall(SpTrsvAutoModelFind("h100", &model));
  PetscCall(AllPaths(&ncand, cand));
  PetscCall(SpTrsvAutoRank(model, PETSC_FALSE, NULL, &f, nsolves, ncand, cand, &c));
  for (PetscInt k = 0; k < NH100; k++) {
    PetscReal t = Expected(&h100[k], &f, nsolves);
    if (!InRange(h100[k].range, &f)) continue;
    if (t < best) best = t, bestname = h100[k].path;
  }
  EXPECT(c.ncand == ncand, "%s: %" PetscInt_FMT " candidates ranked, expected %" PetscInt_FMT, name, c.ncand, ncand);
  EXPECT(bestname && !strcmp(c.chosen->name, bestname), "%s: chose %s, the constants say %s", name, c.chosen->name, bestname ? bestname : "?");
  if (want) EXPECT(!strcmp(c.chosen->name, want), "%s: chose %s, expected %s", name, c.chosen->name, want);
  for (PetscInt k = 1; k < c.ncand; k++) {
    if (c.solve_ms[k] < 0) { /* a path without constants in the model (e.g. one added after the fit) ranks after every path with some */
      for (PetscInt j = k; j < c.ncand; j++) EXPECT(c.solve_ms[j] < 0, "%s: candidate %" PetscInt_FMT " (%s) has constants but ranks after one without", name, j, c.cand[j]->name);
      break;
    }
    PetscReal a = nsolves ? c.setup_ms[k - 1] + nsolves * c.solve_ms[k - 1] : c.solve_ms[k - 1], b = nsolves ? c.setup_ms[k] + nsolves * c.solve_ms[k] : c.solve_ms[k];
    /* a path without constants in the model (solve_ms < 0, e.g. a path newer than the fit) ranks after every modelled one */
    if (c.solve_ms[k - 1] < 0) EXPECT(c.solve_ms[k] < 0, "%s: unmodelled candidate %" PetscInt_FMT " (%s) ranked before a modelled one", name, k - 1, c.cand[k - 1]->name);
    else EXPECT(a <= b || c.solve_ms[k] < 0, "%s: candidate %" PetscInt_FMT " (%s) ranked before a cheaper one", name, k - 1, c.cand[k - 1]->name);
  }
  for (PetscInt k = 0; k < c.ncand; k++) { /* a path with several entries (variants, e.g. pinv's fill limits): the cheapest */
    PetscReal e = PETSC_MAX_REAL;
    for (PetscInt j = 0; j < NH100; j++)
      if (!strcmp(h100[j].path, c.cand[k]->name) && InRange(h100[j].range, &f)) e = PetscMin(e, Expected(&h100[j], &f, nsolves));
    if (e < PETSC_MAX_REAL) {
      PetscReal t = nsolves ? c.setup_ms[k] + nsolves * c.solve_ms[k] : c.solve_ms[k];
      EXPECT(PetscAbsReal(t - e) <= 1e-12 * PetscMax(1.0, e), "%s: %s predicted %g ms, the constants give %g", name, c.cand[k]->name, (double)t, (double)e);
    }
  }
  PetscCall(PetscStrstr(c.reason, nsolves ? "setup +" : "smallest predicted solve time", &hit));
  EXPECT(hit, "%s: reason '%s'", name, c.reason);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the rules without a model, a restricted candidate list, candidates refused */
static PetscErrorCode TestRules(void)
{
  SpTrsvPath       cand[SPTRSV_AUTO_MAXPATHS], two[2];
  PetscInt         ncand;
  SpTrsvAutoChoice c;
  SpTrsvStats      wide = Features(1000000, 2000000, 1999), chain = Features(1000, 999, 1000), longchain = Features(200000, 199999, 200000);

  PetscFunctionBeginUser;
  PetscCall(AllPaths(&ncand, cand));
  PetscCall(SpTrsvAutoRank(NULL, PETSC_FALSE, NULL, &wide, 0, ncand, cand, &c));
  EXPECT(!strcmp(c.chosen->name, "syncfree") && !strcmp(c.cand[1]->name, "level"), "fallback rule, wide levels: %s then %s", c.chosen->name, c.cand[1]->name);
  PetscCall(SpTrsvAutoRank(NULL, PETSC_FALSE, NULL, &chain, 0, ncand, cand, &c));
  EXPECT(!strcmp(c.chosen->name, "locality") && !strcmp(c.cand[1]->name, "syncfree"), "fallback rule, a chain of one sub-graph: %s then %s", c.chosen->name, c.cand[1]->name);
  PetscCall(SpTrsvAutoRank(NULL, PETSC_FALSE, NULL, &longchain, 0, ncand, cand, &c));
  EXPECT(!strcmp(c.chosen->name, "level"), "fallback rule, a chain of 200000 rows: %s", c.chosen->name);
  EXPECT(!strncmp(c.reason, "fallback rule", 13), "fallback rule: reason '%s'", c.reason);
  PetscCall(SpTrsvAutoRank(NULL, PETSC_TRUE, NULL, &wide, 0, ncand, cand, &c));
  EXPECT(!strcmp(c.chosen->name, "level") && !strncmp(c.reason, "host rule", 9), "host rule: %s (%s)", c.chosen->name, c.reason);
  /* candidates restricted: the best among them */
  PetscCall(SpTrsvPathFind("locality", &two[0]));
  PetscCall(SpTrsvPathFind("element", &two[1]));
  PetscCall(SpTrsvAutoRank(NULL, PETSC_FALSE, NULL, &wide, 0, 2, two, &c));
  EXPECT(c.ncand == 2 && !strcmp(c.chosen->name, "element"), "restricted fallback: %s", c.chosen->name);
  /* refused: the next one, then none */
  PetscCall(SpTrsvAutoRank(NULL, PETSC_FALSE, NULL, &wide, 0, ncand, cand, &c));
  PetscCall(SpTrsvAutoReject(&c, 0, "test"));
  EXPECT(c.chosen && !strcmp(c.chosen->name, "level") && c.rejected[0], "refused syncfree: next %s", c.chosen ? c.chosen->name : "none");
  for (PetscInt k = 1; k < ncand; k++) PetscCall(SpTrsvAutoReject(&c, k, "test"));
  EXPECT(!c.chosen, "every candidate refused: none chosen");
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TestModels(void)
{
  const SpTrsvAutoModel *m;
  PetscErrorCode         ierr;

  PetscFunctionBeginUser;
  PetscCall(SpTrsvAutoModelFind("none", &m));
  EXPECT(!m, "model none: a model");
  PetscCall(SpTrsvAutoModelFind("H100", &m));
  EXPECT(m && !strcmp(m->name, "h100") && m->ncost == NH100, "model H100: not found");
  PetscCall(SpTrsvAutoModelForDevice("NVIDIA H100 80GB HBM3", &m));
  EXPECT(m && !strcmp(m->name, "h100"), "device NVIDIA H100 80GB HBM3: no model");
  PetscCall(SpTrsvAutoModelForDevice("NVIDIA H200", &m)); /* the H100's constants under the H200's name */
  EXPECT(m && !strcmp(m->name, "h200") && m->ncost == NH100 && m->cost[0].solve[0] == h100[0].solve[0], "device NVIDIA H200: not the H100's constants");
  PetscCall(SpTrsvAutoModelForDevice("NVIDIA A100-SXM4-40GB", &m));
  EXPECT(!m, "device A100: a model");
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = SpTrsvAutoModelFind("a100", &m);
  PetscCall(PetscPopErrorHandler());
  EXPECT(ierr == PETSC_ERR_ARG_UNKNOWN_TYPE, "model a100: error %d", (int)ierr);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* a model file (the format fit-auto-model.py --write produces): loaded once, pinv's fill variants weighed by setup +
   expected solves, a fill the user set keeps only its own constants, the chosen variant's options, bad files refused */
static PetscErrorCode TestModelFile(void)
{
  const char            *file = "test_auto_model.h";
  const SpTrsvAutoModel *m, *m2;
  SpTrsvPath             cand[2];
  SpTrsvAutoChoice       c;
  SpTrsvPathOptions      opts;
  SpTrsvPinvOptions     *po;
  SpTrsvStats            f = Features(64000, 12000000, 300);
  FILE                  *fp;
  PetscErrorCode         ierr;

  PetscFunctionBeginUser;
  fp = fopen(file, "w");
  PetscCheck(fp, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "cannot write %s", file);
  fprintf(fp, "/* a comment line */\nSPTRSV_AUTO_MODEL(syncfree, \"\", SPTRSV_AUTO_SOLVE(1, 0, 0, 0, 0, 0), SPTRSV_AUTO_SETUP(1, 0, 0, 0), SPTRSV_AUTO_RANGE(0, 0, 0, 0))\n");
  fprintf(fp, "SPTRSV_AUTO_MODEL(pinv, \"\", SPTRSV_AUTO_SOLVE(2, 0, 0, 0, 0, 0), SPTRSV_AUTO_SETUP(1, 0, 0, 0), SPTRSV_AUTO_RANGE(0, 0, 0, 0))\n");
  fprintf(fp, "SPTRSV_AUTO_MODEL(pinv, \"fill4\", SPTRSV_AUTO_SOLVE(0.1, 0, 0, 0, 0, 0), SPTRSV_AUTO_SETUP(1000, 0, 0, 0), SPTRSV_AUTO_RANGE(1000, 100000, 0, 0))\n");
  fclose(fp);
  PetscCall(SpTrsvAutoModelFind(file, &m));
  PetscCall(SpTrsvAutoModelFind(file, &m2));
  EXPECT(m && m == m2 && m->ncost == 3 && !strcmp(m->cost[2].variant, "fill4"), "model file: not loaded once with 3 entries");
  PetscCall(SpTrsvPathFind("syncfree", &cand[0]));
  PetscCall(SpTrsvPathFind("pinv", &cand[1]));
  PetscCall(SpTrsvPathOptionsInitialize(&opts));
  PetscCall(SpTrsvPathOptionsGet(&opts, cand[1], &po));
  PetscCall(SpTrsvAutoRank(m, PETSC_FALSE, &opts, &f, 10, 2, cand, &c)); /* 10 solves: 11 ms, fill1 21, fill4 1001 */
  EXPECT(!strcmp(c.chosen->name, "syncfree") && !c.variant[1][0], "10 solves: chose %s, pinv variant '%s'", c.chosen->name, c.variant[1]);
  PetscCall(SpTrsvAutoRank(m, PETSC_FALSE, &opts, &f, 100000, 2, cand, &c)); /* 1e5 solves: fill4 11000 ms beats 1e5 */
  EXPECT(!strcmp(c.chosen->name, "pinv") && !strcmp(c.variant[0], "fill4"), "1e5 solves: chose %s %s", c.chosen->name, c.variant[0]);
  PetscCall(SpTrsvAutoVariantApply(c.chosen, c.variant[0], &opts));
  EXPECT(po->pinv_fill == 4.0, "variant fill4: pinv_fill %g", (double)po->pinv_fill);
  po->pinv_fill = 2; /* the user's fill: no constants measured at 2 */
  PetscCall(SpTrsvAutoRank(m, PETSC_FALSE, &opts, &f, 100000, 2, cand, &c));
  EXPECT(!strcmp(c.chosen->name, "syncfree") && c.solve_ms[1] < 0, "user fill 2: chose %s", c.chosen->name);
  po->pinv_fill = 1;
  f              = Features(500, 1000, 300); /* below fill4's rows range: only pinv's default entry predicts */
  PetscCall(SpTrsvAutoRank(m, PETSC_FALSE, &opts, &f, 100000, 2, cand, &c));
  EXPECT(!strcmp(c.chosen->name, "syncfree") && c.variant[1] && !c.variant[1][0], "out of fill4's range: chose %s, pinv variant '%s'", c.chosen->name, c.variant[1] ? c.variant[1] : "(none)");
  (void)remove(file);
  fp = fopen("test_auto_model_bad.h", "w");
  fprintf(fp, "SPTRSV_AUTO_MODEL(pinv, \"fillx\", SPTRSV_AUTO_SOLVE(2, 0, 0, 0, 0, 0), SPTRSV_AUTO_SETUP(1, 0, 0, 0))\n");
  fclose(fp);
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = SpTrsvAutoModelLoad("test_auto_model_bad.h", &m);
  EXPECT(ierr == PETSC_ERR_FILE_UNEXPECTED, "model file with variant fillx: error %d", (int)ierr);
  ierr = SpTrsvAutoModelLoad("test_auto_model_missing.h", &m);
  EXPECT(ierr == PETSC_ERR_FILE_OPEN, "missing model file: error %d", (int)ierr);
  PetscCall(PetscPopErrorHandler());
  (void)remove("test_auto_model_bad.h");
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the features are the triangle's level analysis: the hand DAG of test_levels.c */
static PetscErrorCode TestFeatures(void)
{
  const PetscInt ai[] = {0, 0, 1, 1, 3, 4, 6}, aj[] = {0, 1, 2, 0, 3, 4};
  SpTrsvTri      t;
  SpTrsvOp       op;
  SpTrsvStats    f;

  PetscFunctionBeginUser;
  PetscCall(TriFromCSR(6, SPTRSV_LOWER, PETSC_TRUE, ai, aj, &t));
  PetscCall(SpTrsvTriGetOp(t, PETSC_FALSE, &op));
  PetscCall(SpTrsvAutoFeatures(&op, &f));
  EXPECT(f.n == 6 && f.nnz == 6 && f.nlevels == 4 && f.max_level_rows == 2 && f.max_row_nnz == 2 && PetscAbsReal(f.mean_level_rows - 1.5) < 1e-12, "hand DAG features: n %" PetscInt_FMT " nnz %" PetscInt_FMT " levels %" PetscInt_FMT, f.n, f.nnz, f.nlevels);
  PetscCall(SpTrsvTriDestroy(&t));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SpTrsvInitializePackage());
  EXPECT(NH100 == 8, "h100 model: %" PetscInt_FMT " entries", NH100); /* 7 of the plugin's schedules (pinv twice) and cusparse */
  /* measured on the H100 (docs/perf-data/supernodal-pinv-run2.csv, syncfree-run7-bench.csv): the 2-D 5-point Laplacian
     of ex2 (1000 x 1000): pinv with fill 4 (2.96x cuSPARSE, sync-free 2.53x), but with 10 solves per factorization
     sync-free (pinv fill 4's setup 1.4 s); the ND LU factor of the 3-D 7-point Laplacian on 32^3: pinv with fill 4
     (14.5x cuSPARSE); a chain of 1000 rows (olm1000's shape): not element (measured 3.5x slower than level there); a
     small matrix solved 10 times: the cheapest setup wins */
  PetscCall(TestPredictedBest("lap2d5 1000x1000", Features(1000000, 1998000, 1999), 0, "pinv"));
  PetscCall(TestPredictedBest("lap2d5 1000x1000, 10 solves", Features(1000000, 1998000, 1999), 10, "syncfree"));
  PetscCall(TestPredictedBest("lap3d7 32^3 ND LU", Features(32768, 4891322, 1951), 0, "pinv"));
  PetscCall(TestPredictedBest("chain 1000", Features(1000, 999, 1000), 0, NULL));
  PetscCall(TestPredictedBest("bayer10-like, 10 solves", Features(13436, 55385, 8), 10, NULL));
  PetscCall(TestPredictedBest("494_bus-like", Features(494, 586, 11), 0, NULL));
  PetscCall(TestPredictedBest("one row", Features(1, 0, 1), 0, NULL));
  {
    const SpTrsvAutoModel *m;
    SpTrsvPath             cand[SPTRSV_AUTO_MAXPATHS];
    PetscInt               ncand;
    SpTrsvAutoChoice       c;
    SpTrsvStats            f = Features(1000, 999, 1000);

    PetscCall(SpTrsvAutoModelFind("h100", &m));
    PetscCall(AllPaths(&ncand, cand));
    PetscCall(SpTrsvAutoRank(m, PETSC_FALSE, NULL, &f, 0, ncand, cand, &c));
    EXPECT(strcmp(c.chosen->name, "element"), "chain 1000: element chosen");
  }
  PetscCall(TestRules());
  PetscCall(TestModels());
  PetscCall(TestModelFile());
  PetscCall(TestFeatures());
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "test_auto: %" PetscInt_FMT " passed, %" PetscInt_FMT " failed\n", npass, nfail));
  PetscCall(PetscFinalize());
  return nfail ? 1 : 0;
}
