/*
   The learning choice of MatSolverType sptrsv, on the factor (its default when -mat_sptrsv_expected_solves is not given;
   -mat_sptrsv_auto_learn). The weighing itself is src/mat/paths/auto_learn.c; here the factor

   - starts each triangle on the first start path that takes it (the registry's auto_start on a GPU backend: sync-free for
     ILU/ICC, supernodal for LU/Cholesky, whose setup is about PETSc's own; the host rule on the host backend), with no
     feature pass and no measured check at the setup;
   - counts the solves of the pattern across its numeric factorizations (a new analysis starts the count again);
   - times each triangle inside the 2nd and 3rd solves (the backend synchronized around each triangle: no extra solve);
   - looks at SPTRSV_AUTO_LEARN_FIRST_LOOK solves and at every doubling after: the model's predictions are made at the
     first look, from the features the start path's analysis computed (on the GPU for sync-free); a candidate the
     weighing names is built and timed against the path in place on the live factor (MatSpTrsvAutoChallenge, the measured
     check's timing); it replaces the path in place when measured SPTRSV_AUTO_LEARN_MIN_GAIN faster, and a candidate that
     did not is not built for the other triangle of the factor either. -ksp_view shows the last look and the last timing, -info each of them, and
     -log_view the event SpTrsvAutoLearn.
*/
#include <sptrsv/automeasure.h>
#include <petsctime.h>

/* what the builds of the process measured, per path (registry index): the largest ratio of a build's measured time per
   solve to the prediction the weighing counted for it (0: none measured, or none slower); -mat_sptrsv_auto_learn_remember.
   A plain table of numbers, kept for the life of the process (a later factor of another pattern, another block of block
   Jacobi, another Newton run) */
static PetscReal SpTrsvAutoLearnSeen[SPTRSV_PATHS_MAX];

/*
  MatSpTrsvAutoLearnCreate - triangle k of a learning factor: the candidates cand[0..ncand) (registry order; put in start
  order here) are tried in turn, the first whose analysis and setup take the triangle is kept
*/
PetscErrorCode MatSpTrsvAutoLearnCreate(Mat F, PetscInt k, PetscInt ncand, SpTrsvPath cand[])
{
  Mat_SpTrsv            *sp       = (Mat_SpTrsv *)F->data;
  SpTrsvAutoChoice      *c        = &sp->choice[k];
  const SpTrsvAutoModel *model    = c->model; /* set by the caller */
  const PetscBool        host     = (PetscBool)(sp->backend->slot != SPTRSV_EXEC_CUDA);
  const PetscBool        complete = (PetscBool)(sp->fac->ftype == MAT_FACTOR_LU || sp->fac->ftype == MAT_FACTOR_CHOLESKY);

  PetscFunctionBegin;
  PetscCall(SpTrsvAutoStartOrder(host, complete, sp->autoopts.start, ncand, cand));
  PetscCall(PetscMemzero(c, sizeof(*c)));
  c->model    = model;
  c->ncand    = ncand;
  c->chain_ms = -1;
  for (PetscInt j = 0; j < ncand; j++) {
    c->cand[j]     = cand[j];
    c->solve_ms[j] = c->setup_ms[j] = -1;
  }
  c->learn.on     = PETSC_TRUE;
  c->learn.cur_ms = -1;
  c->chosen       = c->cand[0]; /* the first not refused, as the creation goes on (SpTrsvAutoReject) */
  PetscCall(MatSpTrsvAutoCreateFirst(F, k, &c->learn.start_setup_ms)); /* the variants are the paths' defaults (NULL) */
  c->learn.start = c->chosen;
  c->f           = sp->tri[0][k]->plan->stats;
  if (sp->autoopts.start == c->chosen) {
    char option[256];
    PetscCall(SpTrsvOptionName((PetscObject)F, "mat_sptrsv_auto_start", option, sizeof(option)));
    PetscCall(PetscSNPrintf(c->reason, sizeof(c->reason), "learning: the start path %s names", option));
  } else if (host) PetscCall(PetscStrncpy(c->reason, "learning on the host backend: the host rule's first, level, the host reference", sizeof(c->reason)));
  else PetscCall(PetscSNPrintf(c->reason, sizeof(c->reason), "learning: the start path of %s factors, a setup about PETSc's own", complete ? "LU/Cholesky" : "ILU/ICC"));
  sp->learn_solves  = 0;
  sp->learn_numeric = 0;
  sp->learn_next    = SPTRSV_AUTO_LEARN_FIRST_LOOK;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the model's predictions for every candidate of triangle k, from the features of the path in place (its analysis's level
   statistics; a host level analysis where it computed none), as the choice at the setup would rank them; the learning
   state, the path in place and the refusals stay */
static PetscErrorCode MatSpTrsvAutoLearnPredict(Mat F, PetscInt k)
{
  Mat_SpTrsv       *sp = (Mat_SpTrsv *)F->data;
  SpTrsvAutoChoice *c  = &sp->choice[k];
  SpTrsvAutoLearn   keep = c->learn;
  SpTrsvPath        chosen = c->chosen, cand[SPTRSV_AUTO_MAXPATHS], refused[SPTRSV_AUTO_MAXPATHS];
  char              reason[sizeof(c->reason)], why[SPTRSV_AUTO_MAXPATHS][128];
  PetscInt          ncand = c->ncand, nrefused = 0;
  SpTrsvStats       f = sp->tri[0][k]->plan->stats;
  SpTrsvOp          op;

  PetscFunctionBegin;
  PetscCall(PetscStrncpy(reason, c->reason, sizeof(reason)));
  for (PetscInt j = 0; j < ncand; j++) {
    cand[j] = c->cand[j];
    if (c->rejected[j]) {
      PetscCall(PetscStrncpy(why[nrefused], c->rejected_why[j], sizeof(why[nrefused])));
      refused[nrefused++] = c->cand[j];
    }
  }
  PetscCall(SpTrsvTriGetOp(k ? sp->fac->U : sp->fac->L, PETSC_FALSE, &op));
  if (f.n != op.n || f.nlevels <= 0) PetscCall(SpTrsvAutoFeatures(&op, &f));
  PetscCall(SpTrsvAutoRank(c->model, PETSC_FALSE, &sp->opts, &f, 0, ncand, cand, c));
  PetscCall(SpTrsvAutoRefine(&op, &sp->opts, c));
  c->learn           = keep;
  c->learn.predicted = PETSC_TRUE;
  c->chosen          = chosen;
  PetscCall(PetscStrncpy(c->reason, reason, sizeof(c->reason)));
  for (PetscInt r = 0; r < nrefused; r++)
    for (PetscInt j = 0; j < c->ncand; j++)
      if (c->cand[j] == refused[r]) {
        c->rejected[j] = PETSC_TRUE;
        PetscCall(PetscStrncpy(c->rejected_why[j], why[r], sizeof(c->rejected_why[j])));
      }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  MatSpTrsvAutoLearnBuild - a build a look named on triangle k: path to with the options base and its variant, timed against
  the path in place on the live factor (MatSpTrsvAutoChallenge); l->outcome (and -info) says what happened. Measured
  faster: it replaced the path in place (*won) and its time counts from now on; slower: the better of the two times counts;
  refused: best[1] = PETSC_MAX_REAL and the outcome is the refusal's note. The caller records what the build means for
  later looks (tried, remembered, refused, the reason of a switch).
*/
static PetscErrorCode MatSpTrsvAutoLearnBuild(Mat F, PetscInt k, SpTrsvPath to, const char *variant, const SpTrsvPathOptions *base, PetscReal best[2], PetscBool *won)
{
  Mat_SpTrsv       *sp   = (Mat_SpTrsv *)F->data;
  SpTrsvAutoLearn  *l    = &sp->choice[k].learn;
  SpTrsvPath        from = sp->tripath[k]; /* the path in place before the build may replace it */
  SpTrsvPathOptions opts = *base;
  PetscScalar      *b = NULL, *x = NULL;
  PetscReal         setup_ms = 0;
  char              note[256] = "";
  PetscErrorCode    ierr;

  PetscFunctionBegin;
  PetscCall(SpTrsvAutoVariantApply(to, variant, &opts));
  if (l->cur_ms > 0) opts.ceiling_ms = (1.0 - SPTRSV_AUTO_LEARN_MIN_GAIN) * l->cur_ms; /* a path whose analysis finds it cannot beat that refuses there */
  PetscCall(MatSpTrsvAutoVectors(F, &b, &x));
  ierr = MatSpTrsvAutoChallenge(F, k, to, &opts, 1.0 - SPTRSV_AUTO_LEARN_MIN_GAIN, b, x, best, won, &setup_ms, note, sizeof(note));
  PetscCall((*sp->backend->vec_free)(&b)); /* on an error too, then it goes on */
  PetscCall((*sp->backend->vec_free)(&x));
  PetscCall(ierr);
  if (best[1] == PETSC_MAX_REAL) PetscCall(PetscStrncpy(l->outcome, note, sizeof(l->outcome)));
  else {
    PetscCall(PetscSNPrintf(l->outcome, sizeof(l->outcome), "after %" PetscInt_FMT " solves %s%s%s built in %.4g ms, %.4g ms per solve against %s %.4g ms: %s", sp->learn_solves, to->name, variant && variant[0] ? " " : "", variant ? variant : "", (double)setup_ms, (double)best[1], from->name, (double)best[0], *won ? "switched" : "kept (a switch needs 10% less)"));
    if (*won) {
      l->cur_ms        = best[1];
      l->switch_solves = sp->learn_solves;
    } else l->cur_ms = PetscMin(l->cur_ms, best[0]);
  }
  PetscCall(PetscInfo(F, "%s: %s triangle, learning: %s\n", MATSOLVERSPTRSV, k ? "U" : "L", l->outcome));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  the look's second question (SpTrsvAutoLearnWeighVariant), when no candidate was worth building: the path in place's own
  variant for many solves, built and timed against the options in place on the live factor, kept when measured faster;
  built at most once per pattern and triangle (and not for the other triangle when it lost)
*/
static PetscErrorCode MatSpTrsvAutoLearnVariant(Mat F, PetscInt k)
{
  Mat_SpTrsv       *sp  = (Mat_SpTrsv *)F->data;
  SpTrsvAutoChoice *c   = &sp->choice[k];
  SpTrsvAutoLearn  *l   = &c->learn;
  SpTrsvPath        cur = sp->tripath[k];
  const char       *variant = NULL;
  const void       *own     = NULL;
  PetscBool         build, won;
  PetscReal         best[2];
  SpTrsvStats       f;
  char              note[sizeof(l->look)];

  PetscFunctionBegin;
  if (!cur->auto_learn_variant || !sp->tri[0][k] || !sp->tri[0][k]->plan) PetscFunctionReturn(PETSC_SUCCESS); /* no variant of its own */
  f   = sp->tri[0][k]->plan->stats;
  own = sp->tri[0][k]->own; /* the options in place as the solver resolved them for its backend (an automatic dispatch decided) */
  PetscCall(SpTrsvAutoLearnWeighVariant(cur, own, &f, l->cur_ms, sp->learn_solves, sp->autoopts.margin, &variant, &build, note, sizeof(note)));
  if (!variant) PetscFunctionReturn(PETSC_SUCCESS); /* the look's note stays the first question's */
  PetscCall(PetscStrncpy(l->look, note, sizeof(l->look)));
  PetscCall(PetscInfo(F, "%s: %s triangle, learning: %s\n", MATSOLVERSPTRSV, k ? "U" : "L", note));
  if (!build) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MatSpTrsvAutoLearnBuild(F, k, cur, variant, &sp->triopts[k], best, &won));
  l->variant_tried = PETSC_TRUE;
  if (best[1] == PETSC_MAX_REAL) PetscFunctionReturn(PETSC_SUCCESS); /* refused: the outcome says why */
  if (won) PetscCall(PetscSNPrintf(c->reason, sizeof(c->reason), "learning: %s %s after %" PetscInt_FMT " solves, measured faster", cur->name, variant, sp->learn_solves));
  else sp->choice[1 - k].learn.variant_tried = PETSC_TRUE; /* the other triangle is alike: not built there either */
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* one look at triangle k (see the file's header) */
static PetscErrorCode MatSpTrsvAutoLearnLook(Mat F, PetscInt k)
{
  Mat_SpTrsv       *sp = (Mat_SpTrsv *)F->data;
  SpTrsvAutoChoice *c  = &sp->choice[k];
  SpTrsvAutoLearn  *l  = &c->learn;
  const char       *tri = k ? "U" : "L";
  PetscInt          j;
  PetscReal         seen[SPTRSV_AUTO_MAXPATHS], counted = -1;

  PetscFunctionBegin;
  if (l->cur_ms <= 0) PetscFunctionReturn(PETSC_SUCCESS); /* not timed yet */
  l->nlooks++;
  if (!c->model) {
    char option[256];
    PetscCall(SpTrsvOptionName((PetscObject)F, "mat_sptrsv_auto_model", option, sizeof(option)));
    PetscCall(PetscSNPrintf(l->look, sizeof(l->look), "after %" PetscInt_FMT " solves: %s measured %.4g ms per solve; no cost model for this %s (%s names one): it stays", sp->learn_solves, c->chosen->name, (double)l->cur_ms, sp->backend->slot == SPTRSV_EXEC_CUDA ? "GPU" : "backend", option));
    if (!l->variant_tried) PetscCall(MatSpTrsvAutoLearnVariant(F, k));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (!l->predicted) {
    PetscLogDouble t0, t1;
    PetscCall(PetscTime(&t0));
    PetscCall(MatSpTrsvAutoLearnPredict(F, k));
    PetscCall(PetscTime(&t1));
    PetscCall(PetscInfo(F, "%s: %s triangle, learning: the model's predictions made in %g ms\n", MATSOLVERSPTRSV, tri, (t1 - t0) * 1e3));
  }
  for (PetscInt q = 0; q < c->ncand; q++) {
    PetscInt idx;
    PetscCall(SpTrsvPathGetIndex(c->cand[q], &idx));
    seen[q] = sp->autoopts.remember && idx < SPTRSV_PATHS_MAX ? SpTrsvAutoLearnSeen[idx] : 0.0;
  }
  PetscCall(SpTrsvAutoLearnWeigh(c, sp->tripath[k], l->cur_ms, sp->learn_solves, PetscMax(1, sp->learn_numeric), sp->numeric_device, sp->autoopts.margin, seen, &j, &counted, l->look, sizeof(l->look)));
  PetscCall(PetscInfo(F, "%s: %s triangle, learning: %s\n", MATSOLVERSPTRSV, tri, l->look));
  if (j >= 0) {
    SpTrsvPath from = sp->tripath[k], to = c->cand[j];
    PetscReal  best[2];
    PetscBool  won;

    PetscCall(MatSpTrsvAutoLearnBuild(F, k, to, c->variant[j], &sp->opts, best, &won));
    l->tried[l->ntried++] = to;
    if (best[1] < PETSC_MAX_REAL && counted > 0 && best[1] > counted) { /* slower than counted: remembered for later factors */
      PetscInt idx;
      PetscCall(SpTrsvPathGetIndex(to, &idx));
      if (idx < SPTRSV_PATHS_MAX) SpTrsvAutoLearnSeen[idx] = PetscMax(SpTrsvAutoLearnSeen[idx], best[1] / counted);
    }
    if (best[1] == PETSC_MAX_REAL) { /* refused: the outcome is its note */
      c->rejected[j] = PETSC_TRUE;
      PetscCall(PetscStrncpy(c->rejected_why[j], l->outcome, sizeof(c->rejected_why[j])));
    } else if (won) {
      c->chosen = to;
      PetscCall(PetscSNPrintf(c->reason, sizeof(c->reason), "learning: switched from %s after %" PetscInt_FMT " solves, measured faster", from->name, sp->learn_solves));
    }
    if (!won) { /* refused or slower: the other triangle of the factor is alike, not built there either */
      SpTrsvAutoLearn *o = &sp->choice[1 - k].learn;

      if (o->ntried < SPTRSV_AUTO_MAXPATHS) o->tried[o->ntried++] = to;
    }
  }
  if (j < 0 && !l->variant_tried) PetscCall(MatSpTrsvAutoLearnVariant(F, k));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  MatSpTrsvAutoLearnSolve - before a solve of a learning factor: count it; *timed: this solve times each triangle (the 2nd
  and 3rd of the pattern; not transposed ones); at SPTRSV_AUTO_LEARN_FIRST_LOOK solves and every doubling, a look at each
  triangle. Nothing after a failed numeric factorization (the solves then give Inf, as PETSc's).
*/
PetscErrorCode MatSpTrsvAutoLearnSolve(Mat F, PetscBool transpose, PetscBool *timed)
{
  Mat_SpTrsv *sp = (Mat_SpTrsv *)F->data;

  PetscFunctionBegin;
  *timed = PETSC_FALSE;
  if (!sp->automatic || !sp->autoopts.learn || !sp->tri[0][0]) PetscFunctionReturn(PETSC_SUCCESS);
  sp->learn_solves++;
  if (sp->fac->error || !sp->fac->n) PetscFunctionReturn(PETSC_SUCCESS);
  if (!transpose && (sp->learn_solves == 2 || sp->learn_solves == 3)) *timed = PETSC_TRUE;
  if (sp->learn_solves >= sp->learn_next) {
    while (sp->learn_next <= sp->learn_solves) sp->learn_next *= 2;
    PetscCall(PetscLogEventBegin(SPTRSV_AutoLearn, F, 0, 0, 0));
    for (PetscInt k = 0; k < 2; k++) SpTrsvDevMemScope(&sp->mem, MatSpTrsvAutoLearnLook(F, k));
    PetscCall(PetscLogEventEnd(SPTRSV_AutoLearn, F, 0, 0, 0));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* triangle k of a learning factor took ms in a timed solve: the least seen counts */
PetscErrorCode MatSpTrsvAutoLearnTimed(Mat F, PetscInt k, PetscReal ms)
{
  SpTrsvAutoLearn *l = &((Mat_SpTrsv *)F->data)->choice[k].learn;

  PetscFunctionBegin;
  l->cur_ms = l->cur_ms > 0 ? PetscMin(l->cur_ms, ms) : ms;
  PetscFunctionReturn(PETSC_SUCCESS);
}
