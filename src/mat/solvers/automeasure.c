/*
   The measured check of the automatic choice (MatSolverType sptrsv, -mat_sptrsv_auto_measure).

   The cost model ranks the paths from a triangle's level statistics; it cannot see what only a path's own analysis or
   numeric phase finds (the fill of a partitioned inverse, a stability check that sends the solves to a fallback), and
   there it can choose a path slower than cuSPARSE. At the first numeric factorization after an analysis, on the CUDA
   backend, each triangle's chosen path and cuSPARSE's SpSV (the path sptrsv_cusparse) are timed on that triangle with
   its values and one random right-hand side: one warm-up solve each, then three rounds of R solves of each in turn
   (R from the solve time of the path in place: about 1 ms of solves per round, 2 to 5; the time the learning choice
   measured when it has one, else the model's prediction), the fastest round of each counts; from the second round on,
   a best time more than twice the other's ends the timing (a single round decides nothing: a burst of noise on a busy
   host can make one round of a few microsecond solves look ten times slower). The
   faster is kept: when cuSPARSE wins, its solver replaces the chosen one (the transposed solvers, made on first use,
   follow). -ksp_view prints both times and the outcome. The check costs cuSPARSE's analysis of each triangle and at most
   16 solves of each path; it is on by default when the expected solve count is unknown (the choice is by solve time) and
   off when -mat_sptrsv_expected_solves is given (the choice is by setup + solves, and on the H100 data the check's cost
   is not paid back by 10, 100 or 1000 solves: fit-auto-model.py, "with the measured check").

   Before cuSPARSE, the model's runner-up is timed the same way against the choice when its predicted solve time is
   within SPTRSV_AUTO_MEASURE_RUNNER_UP times the choice's (the next candidate of the ranking that is neither cuSPARSE,
   timed anyway, nor refused): the model's error is largest where a path's own analysis changes what it runs (the
   partitioned inverse's fill on a chain, the locality path's chain kernel), and there the two best predictions are
   often close. The faster of the two stays, then meets cuSPARSE.
*/
#include <sptrsv/automeasure.h>
#include <petsctime.h>

#define SPTRSV_AUTO_MEASURE_ROUNDS   3
#define SPTRSV_AUTO_MEASURE_ROUND_MS 1.0
#define SPTRSV_AUTO_MEASURE_MAX_REPS 5
#define SPTRSV_AUTO_MEASURE_CLEAR    2.0 /* a round where one is this many times the other decides */
#define SPTRSV_AUTO_MEASURE_RUNNER_UP 4.0 /* the runner-up is timed when predicted within this factor of the choice */

/* ms per solve of s over reps solves of b into x (the backend synchronized before and after) */
PetscErrorCode MatSpTrsvTimeSolves(const SpTrsvBackendOps *be, SpTrsvSolver s, const PetscScalar *b, PetscScalar *x, PetscInt reps, PetscReal *ms)
{
  PetscLogDouble t0, t1;

  PetscFunctionBegin;
  PetscCall((*be->synchronize)());
  PetscCall(PetscTime(&t0));
  for (PetscInt r = 0; r < reps; r++) PetscCall(SpTrsvSolverApply(s, b, x));
  PetscCall((*be->synchronize)());
  PetscCall(PetscTime(&t1));
  *ms = (PetscReal)((t1 - t0) * 1e3 / reps);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the timing of triangle k: the chosen solver and s2 (values refreshed first when they live on the device), best[] the
   fastest round of each in ms per solve */
static PetscErrorCode MatSpTrsvAutoMeasureTime(Mat F, PetscInt k, SpTrsvSolver s2, const PetscScalar *b, PetscScalar *x, PetscReal best[2], PetscInt *nreps)
{
  Mat_SpTrsv       *sp   = (Mat_SpTrsv *)F->data;
  SpTrsvAutoChoice *c    = &sp->choice[k];
  PetscReal         pred = -1;
  PetscInt          reps;

  PetscFunctionBegin;
  if (sp->numeric_device) { /* the host values are stale */
    if (s2->exec->update_values_device) PetscCall(MatSpTrsvSolverFromDevice(sp, s2));
    else { /* a candidate that takes host values only (pinv, supernodal): the factor's values downloaded once */
      SpTrsvFactor fac;
      PetscCall(MatSpTrsvGetFactorHost(F, &fac));
      PetscCall(SpTrsvSolverUpdateValues(s2));
    }
  }
  if (c->learn.cur_ms > 0) pred = c->learn.cur_ms; /* the learning choice measured the path in place: its time counts, not the model's */
  else
    for (PetscInt j = 0; j < c->ncand; j++)
      if (c->cand[j] == sp->tripath[k] && c->solve_ms[j] > 0) pred = c->solve_ms[j];
  reps = pred > 0 ? (PetscInt)PetscMax(2.0, PetscMin((PetscReal)SPTRSV_AUTO_MEASURE_MAX_REPS, SPTRSV_AUTO_MEASURE_ROUND_MS / pred)) : SPTRSV_AUTO_MEASURE_MAX_REPS;
  PetscCall(SpTrsvSolverApply(sp->tri[0][k], b, x)); /* warm-up: first-use work (graphs, caches) outside the timings */
  PetscCall(SpTrsvSolverApply(s2, b, x));
  for (PetscInt r = 0; r < SPTRSV_AUTO_MEASURE_ROUNDS; r++) {
    PetscReal t;
    PetscCall(MatSpTrsvTimeSolves(sp->backend, sp->tri[0][k], b, x, reps, &t));
    best[0] = PetscMin(best[0], t);
    PetscCall(MatSpTrsvTimeSolves(sp->backend, s2, b, x, reps, &t));
    best[1] = PetscMin(best[1], t);
    if (r && (best[1] > SPTRSV_AUTO_MEASURE_CLEAR * best[0] || best[0] > SPTRSV_AUTO_MEASURE_CLEAR * best[1])) break; /* a clear winner after two rounds: no more (one round can be one noisy burst) */
  }
  *nreps = reps;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* triangle k: the solver in place against a new solver of path (options opts) on the same triangle, timed; the new one
   replaces it when it took less than need times its time (*won; 1: the faster stays). best[0], best[1]: ms per solve of the two; a refusal of the new path leaves
   *won false, best[1] = PETSC_MAX_REAL and note its message */
PetscErrorCode MatSpTrsvAutoChallenge(Mat F, PetscInt k, SpTrsvPath path, const SpTrsvPathOptions *opts, PetscReal need, const PetscScalar *b, PetscScalar *x, PetscReal best[2], PetscBool *won, PetscReal *setup_ms, char *note, size_t len)
{
  PetscLogDouble s0, s1;
  Mat_SpTrsv    *sp = (Mat_SpTrsv *)F->data;
  SpTrsvTri      T  = k ? sp->fac->U : sp->fac->L;
  SpTrsvSolver   s2 = NULL;
  PetscInt       reps = 0;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  *won    = PETSC_FALSE;
  best[0] = best[1] = PETSC_MAX_REAL;
  PetscCall(PetscTime(&s0));
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = SpTrsvSolverCreateWithOptions(T, PETSC_FALSE, sp->format, path, sp->backend, opts, &s2);
  PetscCall(PetscPopErrorHandler());
  PetscCall(PetscTime(&s1));
  *setup_ms += (PetscReal)((s1 - s0) * 1e3);
  if (ierr) {
    PetscCall(PetscSNPrintf(note, len, "%s refused the triangle: %s", path->name, SpTrsvErrorText(ierr, "error")));
    PetscCall(PetscInfo(F, "%s: %s triangle, %s\n", MATSOLVERSPTRSV, k ? "U" : "L", note));
    PetscCall(SpTrsvSolverDestroy(&s2));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  ierr = MatSpTrsvAutoMeasureTime(F, k, s2, b, x, best, &reps);
  if (ierr) PetscCall(SpTrsvSolverDestroy(&s2)); /* then the error goes on */
  PetscCall(ierr);
  PetscCall(PetscInfo(F, "%s: %s triangle, %s %g ms per solve, %s %g ms (%" PetscInt_FMT " solves per round)\n", MATSOLVERSPTRSV, k ? "U" : "L", sp->tripath[k]->name, (double)best[0], path->name, (double)best[1], reps));
  if (best[1] < need * best[0]) {
    PetscCall(SpTrsvSolverDestroy(&sp->tri[0][k]));
    sp->tri[0][k]  = s2;
    sp->tripath[k] = path;
    sp->triopts[k] = *opts;
    sp->triopts[k].ceiling_ms = 0; /* the bar was this build's: the transposed solvers and later analyses of the path take none */
    *won           = PETSC_TRUE;
    for (PetscInt t = 0; t < 2; t++) PetscCall(SpTrsvSolverDestroy(&sp->tri[1][t])); /* made again on first use, on the new paths */
  } else PetscCall(SpTrsvSolverDestroy(&s2));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the candidate the check times before cuSPARSE (see above): the next of the ranking after the choice that is neither
   cuSPARSE nor refused, when its predicted solve time is within SPTRSV_AUTO_MEASURE_RUNNER_UP times the choice's; -1 if none */
static PetscInt MatSpTrsvAutoRunnerUp(const SpTrsvAutoChoice *c, SpTrsvPath chosen, SpTrsvPath cus)
{
  PetscInt kc = -1;

  for (PetscInt j = 0; j < c->ncand && kc < 0; j++)
    if (c->cand[j] == chosen) kc = j;
  if (kc < 0 || !(c->solve_ms[kc] > 0)) return -1;
  for (PetscInt j = kc + 1; j < c->ncand; j++) {
    if (c->rejected[j] || c->cand[j] == cus) continue;
    return c->solve_ms[j] > 0 && c->solve_ms[j] <= SPTRSV_AUTO_MEASURE_RUNNER_UP * c->solve_ms[kc] ? j : -1;
  }
  return -1;
}

/* triangle k: the model's runner-up (when close), then cuSPARSE (sptrsv_cusparse), each against the solver in place */
static PetscErrorCode MatSpTrsvAutoMeasureTriangle(Mat F, PetscInt k, SpTrsvPath cus, const PetscScalar *b, PetscScalar *x, PetscReal *setup_ms)
{
  Mat_SpTrsv       *sp      = (Mat_SpTrsv *)F->data;
  SpTrsvAutoChoice *c       = &sp->choice[k];
  SpTrsvPath        model   = sp->tripath[k];
  PetscBool         allowed = PETSC_FALSE, won;
  PetscReal         best[2];
  PetscInt          j;

  PetscFunctionBegin;
  j = MatSpTrsvAutoRunnerUp(c, sp->tripath[k], cus);
  if (j >= 0) {
    SpTrsvPathOptions opts = sp->opts;

    PetscCall(SpTrsvAutoVariantApply(c->cand[j], c->variant[j], &opts));
    PetscCall(MatSpTrsvAutoChallenge(F, k, c->cand[j], &opts, 1.0, b, x, best, &won, setup_ms, c->runner_note, sizeof(c->runner_note)));
    c->runner_path = c->cand[j];
    c->runner_timed = (PetscBool)(best[1] < PETSC_MAX_REAL);
    c->runner_ms[0] = best[0];
    c->runner_ms[1] = best[1];
    if (won) {
      c->runner_won = PETSC_TRUE;
      c->chosen     = c->cand[j];
      PetscCall(PetscSNPrintf(c->reason, sizeof(c->reason), "the model's runner-up, measured faster than %s, the model's choice", model->name));
    }
  }
  if (sp->tripath[k] == cus) {
    PetscCall(PetscStrncpy(c->measured_note, "the model chose cusparse", sizeof(c->measured_note)));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  for (PetscInt i = 0; i < c->ncand; i++) allowed = (PetscBool)(allowed || (c->cand[i] == cus && !c->rejected[i]));
  if (!allowed) { /* the user's -mat_sptrsv_auto_candidates leave cuSPARSE out */
    char option[256];
    PetscCall(SpTrsvOptionName((PetscObject)F, "mat_sptrsv_auto_candidates", option, sizeof(option)));
    PetscCall(PetscSNPrintf(c->measured_note, sizeof(c->measured_note), "none (cusparse is not among the candidates, %s)", option));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  c->measured_path = sp->tripath[k];
  PetscCall(MatSpTrsvAutoChallenge(F, k, cus, &sp->opts, 1.0, b, x, best, &won, setup_ms, c->measured_note, sizeof(c->measured_note)));
  if (best[1] == PETSC_MAX_REAL) PetscFunctionReturn(PETSC_SUCCESS); /* refused: the note says why */
  c->measured       = PETSC_TRUE;
  c->measured_ms[0] = best[0];
  c->measured_ms[1] = best[1];
  if (won) {
    c->replaced = PETSC_TRUE;
    c->chosen   = cus;
    PetscCall(PetscSNPrintf(c->reason, sizeof(c->reason), "measured faster than %s, the %s", c->measured_path->name, c->runner_won ? "measured runner-up" : "model's choice"));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* backend vectors for the timings: b random in [-1, 1] (a right-hand side like any), x (freed with the backend's vec_free) */
PetscErrorCode MatSpTrsvAutoVectors(Mat F, PetscScalar **b, PetscScalar **x)
{
  Mat_SpTrsv  *sp = (Mat_SpTrsv *)F->data;
  PetscInt     n  = sp->fac->n;
  PetscScalar *hb;
  PetscRandom  rnd;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(n, &hb));
  PetscCall(PetscRandomCreate(PETSC_COMM_SELF, &rnd));
  PetscCall(PetscRandomSetInterval(rnd, -1.0, 1.0));
  for (PetscInt i = 0; i < n; i++) PetscCall(PetscRandomGetValue(rnd, &hb[i]));
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall((*sp->backend->vec_alloc)(n, b));
  PetscCall((*sp->backend->vec_alloc)(n, x));
  PetscCall((*sp->backend->set_values)(n, hb, *b));
  PetscCall(PetscFree(hb));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  MatSpTrsvAutoMeasure - the measured check of MatSolverType sptrsv (see above), once per analysis; a no-op on the host
  backend (unless the option is given explicitly: the tests run the mechanism there), in the CSC format (cuSPARSE's path reads rows), without the option, and without a cusparse path in the registry
*/
PetscErrorCode MatSpTrsvAutoMeasure(Mat F)
{
  Mat_SpTrsv  *sp = (Mat_SpTrsv *)F->data;
  SpTrsvPath   cus = NULL;
  const char  *why = NULL;
  char         off[600];
  PetscInt     n   = sp->fac->n;
  PetscScalar *b = NULL, *x = NULL;
  PetscLogDouble t0, t1;
  PetscReal      tsetup[2] = {0, 0};
  PetscErrorCode ierr = PETSC_SUCCESS;

  PetscFunctionBegin;
  sp->measure_done = PETSC_TRUE;
  PetscCall(SpTrsvPathFindSolverType(MATSOLVERSPTRSVCUSPARSE, &cus));
  if (sp->autoopts.learn) {
    for (PetscInt k = 0; k < 2; k++) sp->choice[k].measured_note[0] = 0; /* learning times its own candidates */
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (!sp->autoopts.measure) {
    char o1[256], o2[256];
    PetscCall(SpTrsvOptionName((PetscObject)F, "mat_sptrsv_auto_measure", o1, sizeof(o1)));
    PetscCall(SpTrsvOptionName((PetscObject)F, "mat_sptrsv_expected_solves", o2, sizeof(o2)));
    PetscCall(PetscSNPrintf(off, sizeof(off), "off (%s 0; off by default when %s is given)", o1, o2));
    why = off;
  }
  else if (sp->backend->slot != SPTRSV_EXEC_CUDA && !sp->autoopts.measure_set) why = "none on the host backend";
  else if (!cus || !cus->exec[sp->backend->slot]) why = "no cusparse executor in this build";
  else if (sp->format != SPTRSV_FORMAT_CSR) why = "none in the CSC format (cusparse reads rows)";
  else if (!n) why = "empty factor";
  if (why) {
    for (PetscInt k = 0; k < 2; k++) PetscCall(PetscStrncpy(sp->choice[k].measured_note, why, sizeof(sp->choice[k].measured_note)));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscLogEventBegin(SPTRSV_AutoMeasure, F, 0, 0, 0));
  PetscCall(PetscTime(&t0));
  PetscCall(MatSpTrsvAutoVectors(F, &b, &x));
  for (PetscInt k = 0; k < 2 && !ierr; k++) ierr = MatSpTrsvAutoMeasureTriangle(F, k, cus, b, x, &tsetup[k]);
  PetscCall((*sp->backend->vec_free)(&b)); /* on an error too, then it goes on */
  PetscCall((*sp->backend->vec_free)(&x));
  PetscCall(PetscLogEventEnd(SPTRSV_AutoMeasure, F, 0, 0, 0));
  PetscCall(ierr);
  PetscCall(PetscTime(&t1));
  PetscCall(PetscInfo(F, "%s: the measured check took %g ms, of which %g ms the setup of the solvers it timed (L, U)\n", MATSOLVERSPTRSV, (t1 - t0) * 1e3, (double)(tsetup[0] + tsetup[1])));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* two variants of a candidate are the same ("" and NULL: the path's defaults) */
static PetscBool MatSpTrsvSameVariant(const char *a, const char *b)
{
  if (!a || !a[0]) return (PetscBool)(!b || !b[0]);
  return (PetscBool)(b && !strcmp(a, b));
}

/*
  MatSpTrsvAutoCreateFirst - triangle k of MatSolverType sptrsv on the first of its choice's candidates, in the choice's
  order, whose analysis and setup take the triangle, with the options of the model entry the prediction is of (pinv: its
  fill limit); a refusal is passed over for the next one (-info and -ksp_view say why). setup_ms (NULL: not timed): the
  kept solver's setup, the backend synchronized after it.
*/
PetscErrorCode MatSpTrsvAutoCreateFirst(Mat F, PetscInt k, PetscReal *setup_ms)
{
  Mat_SpTrsv       *sp = (Mat_SpTrsv *)F->data;
  SpTrsvTri         T  = k ? sp->fac->U : sp->fac->L;
  SpTrsvAutoChoice *c  = &sp->choice[k];

  PetscFunctionBegin;
  for (PetscInt j = 0; j < c->ncand && !sp->tri[0][k]; j++) {
    PetscErrorCode ierr;
    PetscLogDouble t0, t1;
    PetscBool      paired;

    sp->triopts[k] = sp->opts;
    PetscCall(SpTrsvAutoVariantApply(c->cand[j], c->variant[j], &sp->triopts[k]));
    if (k == 1 && sp->pair_u && sp->pair_u_path == c->cand[j] && MatSpTrsvSameVariant(sp->pair_u_variant, c->variant[j])) { /* made with L's */
      sp->tri[0][1] = sp->pair_u;
      sp->pair_u    = NULL;
      if (setup_ms) *setup_ms = sp->pair_u_ms;
      break;
    }
    if (k == 1) PetscCall(SpTrsvSolverDestroy(&sp->pair_u)); /* U's choice goes elsewhere: its device memory back first */
    PetscCall(PetscTime(&t0));
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    ierr   = PETSC_ERR_SUP;
    paired = PETSC_FALSE;
    if (k == 0 && c->learn.on && c->cand[j]->analyze_pair) { /* the learning start: U starts on the same path with the same options (the
                                                                same candidates in the same order), so L and U are analysed at once,
                                                                the setup's side job beside them (threads.h); U's solver waits for its turn */
      ierr = SpTrsvSolverCreatePairWithOptions(sp->fac->L, sp->fac->U, sp->format, c->cand[j], sp->backend, &sp->triopts[0], &sp->tri[0][0], &sp->pair_u);
      if (!ierr) {
        paired             = PETSC_TRUE;
        sp->pair_u_path    = c->cand[j];
        sp->pair_u_variant = c->variant[j];
        PetscCall(PetscInfo(F, "%s: learning starts L and U on %s, analysed at once\n", MATSOLVERSPTRSV, c->cand[j]->solvertype));
      }
    }
    if (ierr) ierr = SpTrsvSolverCreateWithOptions(T, PETSC_FALSE, sp->format, c->cand[j], sp->backend, &sp->triopts[k], &sp->tri[0][k]); /* alone (U refused the pair's path, or no pair) */
    PetscCall(PetscPopErrorHandler());
    if (!ierr) {
      if (setup_ms) {
        PetscCall((*sp->backend->synchronize)());
        PetscCall(PetscTime(&t1));
        *setup_ms = (PetscReal)((t1 - t0) * 1e3);
        if (paired) { /* the pair's time, half each */
          *setup_ms /= 2;
          sp->pair_u_ms = *setup_ms;
        }
      }
      break;
    }
    sp->tri[0][k] = NULL;
    PetscCall(PetscInfo(F, "%s: path %s refused the %s triangle: %s\n", MATSOLVERSPTRSV, c->cand[j]->name, k ? "U" : "L", SpTrsvErrorText(ierr, "?")));
    PetscCall(SpTrsvAutoReject(c, j, SpTrsvErrorText(ierr, "error")));
  }
  if (k == 1) PetscCall(SpTrsvSolverDestroy(&sp->pair_u)); /* no candidate of U's took it */
  PetscCheck(sp->tri[0][k], PETSC_COMM_SELF, PETSC_ERR_LIB, "%s: every candidate path refused the %s triangle (-info says why)", MATSOLVERSPTRSV, k ? "U" : "L");
  sp->tripath[k] = c->chosen;
  PetscFunctionReturn(PETSC_SUCCESS);
}
