/* The learning choice of MatSolverType sptrsv (its default when the expected solve count is unknown): the weighing of the
   candidates at a look and its -ksp_view lines. Plain C on the choice's numbers; the factor (src/mat/solvers/autolearn.c)
   counts the solves, times the path in place, and builds and times the candidate this weighing names.

   Why it decides so. A factor's solve count is not known at its setup (one KSPSolve of 70 iterations, a Newton run that
   refactors 1500 times, an eigensolver's thousands of solves), and a faster path's setup is repaid only by enough solves.
   The rule is the ski-rental one: after S solves of a pattern, expect about S more, and build a candidate when its
   predicted saving over S solves exceeds margin times its predicted setup. A user whose solves stop at S pays at most
   (margin + 1) times the best fixed choice, and one who goes on gets the faster path after a bounded share of the solves.

   Trust. The saving is counted from the measured time of the path in place, not from the model's prediction of it; the
   model's ratio between the candidate and the path in place scales the measured time (bounded to [1/3, 3]: a model off by
   more on this triangle is not trusted further), and no candidate counts more than SPTRSV_AUTO_LEARN_TRUST times faster
   than what was measured; a path whose build measured slower than its counted prediction on an earlier factor of the
   process (-mat_sptrsv_auto_learn_remember) is counted that much slower again. Setups are counted from the model's, scaled up (never down) by the ratio of the start path's
   measured setup to its prediction: a model that underestimated the setup in place underestimates the others'. A
   candidate is then built and timed against the path in place on the live factor; the measured
   faster stays, and each candidate is built at most once per pattern.
*/
#include <sptrsv/auto.h>

/* the prediction of cand[k] as the learning choice counts it: the model's, scaled by cal, no faster than cur_ms / TRUST,
   times what a build of the same path measured against its counted prediction on an earlier factor (seen, > 1) */
static PetscReal SpTrsvAutoLearnCounted(const SpTrsvAutoChoice *c, PetscInt k, PetscReal cal, PetscReal cur_ms, const PetscReal *seen)
{
  return PetscMax(c->solve_ms[k] * cal, cur_ms / SPTRSV_AUTO_LEARN_TRUST) * (seen && seen[k] > 1 ? seen[k] : 1.0);
}

static PetscBool SpTrsvAutoLearnTried(const SpTrsvAutoChoice *c, SpTrsvPath p)
{
  for (PetscInt t = 0; t < c->learn.ntried; t++)
    if (c->learn.tried[t] == p) return PETSC_TRUE;
  return PETSC_FALSE;
}

/*
  SpTrsvAutoLearnWeigh - the look of the learning choice (see above) at nsolves solves of the pattern (nnumeric numeric
  factorizations): cur is the path in place, cur_ms its measured time per solve. device_numeric: the numeric phase runs on
  the GPU, so a candidate whose CUDA executor takes host values only would move it to the host; such a candidate is charged
  its setup again for every numeric factorization seen (the refactorizations to come, expected as many). *best: the index
  of the candidate to build (-1: none); note: what was weighed, for -ksp_view and -info.
*/
PetscErrorCode SpTrsvAutoLearnWeigh(const SpTrsvAutoChoice *c, SpTrsvPath cur, PetscReal cur_ms, PetscInt nsolves, PetscInt nnumeric, PetscBool device_numeric, PetscReal margin, const PetscReal *seen, PetscInt *best, PetscReal *counted, char *note, size_t len)
{
  PetscReal pred_cur = -1, cal = 1, scal = 1, top_worth = 0, top_cost = 0;
  PetscInt  top = -1;

  PetscFunctionBegin;
  *best = -1;
  if (counted) *counted = -1;
  note[0] = 0;
  for (PetscInt k = 0; k < c->ncand; k++) {
    if (c->cand[k] == cur && c->solve_ms[k] > 0) pred_cur = c->solve_ms[k];
    /* the start path's setup was measured: where the model predicted it too small, every setup counts that much larger */
    if (c->cand[k] == c->learn.start && c->setup_ms[k] > 0 && c->learn.start_setup_ms > c->setup_ms[k]) scal = PetscMin(100.0, c->learn.start_setup_ms / c->setup_ms[k]);
  }
  if (pred_cur > 0 && cur_ms > 0) cal = PetscMin(SPTRSV_AUTO_LEARN_TRUST, PetscMax(1.0 / SPTRSV_AUTO_LEARN_TRUST, cur_ms / pred_cur));
  for (PetscInt k = 0; k < c->ncand; k++) {
    const SpTrsvExecutor *ex = c->cand[k]->exec[SPTRSV_EXEC_CUDA];
    PetscReal             p, gain, setup, cost, worth;

    if (c->cand[k] == cur || c->rejected[k] || c->solve_ms[k] < 0 || SpTrsvAutoLearnTried(c, c->cand[k])) continue;
    p    = SpTrsvAutoLearnCounted(c, k, cal, cur_ms, seen);
    gain = cur_ms - p;
    if (gain < SPTRSV_AUTO_LEARN_MIN_GAIN * cur_ms) continue;
    setup = PetscMax(0.0, c->setup_ms[k]) * scal;
    cost  = setup + (device_numeric && ex && !ex->update_values_device ? (PetscReal)nnumeric * setup : 0.0);
    worth = (PetscReal)nsolves * gain - margin * cost;
    if (top < 0 || worth > top_worth) { /* the candidate closest to being worth it (the best one when any is) */
      top       = k;
      top_worth = worth;
      top_cost  = cost;
    }
  }
  if (top >= 0 && top_worth > 0) *best = top;
  if (top >= 0 && top_worth > 0 && counted) *counted = SpTrsvAutoLearnCounted(c, top, cal, cur_ms, seen);
  if (top < 0) {
    PetscCall(PetscSNPrintf(note, len, "after %" PetscInt_FMT " solves: %s measured %.4g ms per solve; no candidate left predicted %.0f%% faster", nsolves, cur->name, (double)cur_ms, 100 * SPTRSV_AUTO_LEARN_MIN_GAIN));
  } else {
    const PetscReal p = SpTrsvAutoLearnCounted(c, top, cal, cur_ms, seen), setup = PetscMax(0.0, c->setup_ms[top]) * scal;
    char            mem[96] = "";

    if (seen && seen[top] > 1) PetscCall(PetscSNPrintf(mem, sizeof(mem), ", x%.3g as a build measured on an earlier factor", (double)seen[top]));

    PetscCall(PetscSNPrintf(note, len, "after %" PetscInt_FMT " solves: %s measured %.4g ms per solve; %s%s%s counted %.4g ms (model %.4g%s%s), setup %.4g ms%s: saving %.4g ms over %" PetscInt_FMT " more solves %s %g x %.4g ms%s", nsolves, cur->name, (double)cur_ms, c->cand[top]->name,
                           c->variant[top] && c->variant[top][0] ? " " : "", c->variant[top] ? c->variant[top] : "", (double)p, (double)c->solve_ms[top], c->solve_ms[top] * cal < cur_ms / SPTRSV_AUTO_LEARN_TRUST ? ", trusted 3x at most" : "", mem, (double)setup, top_cost > setup ? " and again per numeric factorization (its values from the host)" : "", (double)(nsolves * (cur_ms - p)), nsolves, *best == top ? ">" : "<=", (double)margin, (double)top_cost, *best == top ? ": build and time it" : ": not yet"));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvAutoLearnWeighVariant - the look's second question, asked when no other candidate is worth building: the path in
  place may have a variant of its own for triangles solved many times (the registry's auto_learn_variant: sync-free's
  runs dispatch), whose setup the first solves do not repay. It is weighed by the same rule as the candidates: its
  predicted saving, cur_ms (1 - ratio) per solve over nsolves more solves, against margin times its predicted setup. The
  prediction is the path's own (a fraction of the measured time in place, no cost model), so the build that follows is
  timed against the path in place on the live factor and kept only when measured faster, as any candidate.
*/
PetscErrorCode SpTrsvAutoLearnWeighVariant(SpTrsvPath cur, const void *own, const SpTrsvStats *f, PetscReal cur_ms, PetscInt nsolves, PetscReal margin, const char **variant, PetscBool *build, char *note, size_t len)
{
  PetscReal ratio = 1, setup = 0, saving;

  PetscFunctionBegin;
  *variant = NULL;
  *build   = PETSC_FALSE;
  note[0]  = 0;
  if (!cur->auto_learn_variant || !(cur_ms > 0) || !(*cur->auto_learn_variant)(own, f, variant, &ratio, &setup)) {
    *variant = NULL;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  saving = (PetscReal)nsolves * cur_ms * (1 - ratio);
  *build = (PetscBool)(saving > margin * setup);
  PetscCall(PetscSNPrintf(note, len, "after %" PetscInt_FMT " solves: %s %s predicted %.3g of the %.4g ms measured, setup %.4g ms: saving %.4g ms over %" PetscInt_FMT " more solves %s %g x %.4g ms%s", nsolves, cur->name, *variant, (double)ratio, (double)cur_ms, (double)setup, (double)saving, nsolves, *build ? ">" : "<=", (double)margin, (double)setup, *build ? ": build and time it" : ": not yet"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the -ksp_view lines of a triangle's learning choice */
PetscErrorCode SpTrsvAutoLearnView(const SpTrsvAutoChoice *c, PetscViewer viewer)
{
  const SpTrsvAutoLearn *l = &c->learn;
  char                   line[512], part[160];

  PetscFunctionBegin;
  if (!l->on) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscSNPrintf(line, sizeof(line), "learning: started on %s (setup %.4g ms)", l->start ? l->start->name : "none", (double)l->start_setup_ms));
  if (l->cur_ms > 0) {
    PetscCall(PetscSNPrintf(part, sizeof(part), "; %s in place, measured %.4g ms per solve", c->chosen ? c->chosen->name : "none", (double)l->cur_ms));
    PetscCall(PetscStrlcat(line, part, sizeof(line)));
  }
  if (l->switch_solves) {
    PetscCall(PetscSNPrintf(part, sizeof(part), "; switched after %" PetscInt_FMT " solves", l->switch_solves));
    PetscCall(PetscStrlcat(line, part, sizeof(line)));
  }
  PetscCall(PetscViewerASCIIPrintf(viewer, "%s; %" PetscInt_FMT " looks\n", line, l->nlooks));
  if (l->look[0]) PetscCall(PetscViewerASCIIPrintf(viewer, "last look: %s\n", l->look));
  if (l->outcome[0]) PetscCall(PetscViewerASCIIPrintf(viewer, "timed: %s\n", l->outcome));
  PetscFunctionReturn(PETSC_SUCCESS);
}
