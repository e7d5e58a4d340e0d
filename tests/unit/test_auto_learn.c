static char help[] = "Unit tests of the learning choice of MatSolverType sptrsv (src/mat/paths/auto_learn.c, auto.c): the start order\n"
                     "of the candidates, and the weighing of a look on hand-made predictions: the ski-rental rule (saving over as\n"
                     "many solves again against margin x setup), the minimum gain, the 3x trust limit, the calibration by the\n"
                     "measured path in place, the setups scaled by the start path's measured setup, the candidates already tried,\n"
                     "and the charge per refactorization of a path whose CUDA executor takes host values.\n";

#include <sptrsv/auto.h>
#include <sptrsv/paths/syncfree.h> /* SpTrsvSyncFreeOptions */

#include "unit_common.h"

static PetscErrorCode Find(const char *name, SpTrsvPath *p)
{
  PetscFunctionBeginUser;
  PetscCall(SpTrsvPathFind(name, p));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the start order: sync-free first for ILU/ICC on a GPU, supernodal for LU/Cholesky, level on the host, the user's first */
static PetscErrorCode TestStartOrder(void)
{
  SpTrsvPath all[SPTRSV_AUTO_MAXPATHS], cand[SPTRSV_AUTO_MAXPATHS], pinv;
  PetscInt   n;

  PetscFunctionBeginUser;
  PetscCall(SpTrsvPathGetCount(&n));
  n = PetscMin(n, SPTRSV_AUTO_MAXPATHS);
  for (PetscInt k = 0; k < n; k++) PetscCall(SpTrsvPathGetByIndex(k, &all[k]));
  PetscCall(Find("pinv", &pinv));
  for (PetscInt k = 0; k < n; k++) cand[k] = all[k];
  PetscCall(SpTrsvAutoStartOrder(PETSC_FALSE, PETSC_FALSE, NULL, n, cand));
  EXPECT(!strcmp(cand[0]->name, "syncfree") && !strcmp(cand[1]->name, "level"), "GPU, ILU: start order %s, %s", cand[0]->name, cand[1]->name);
  for (PetscInt k = 0; k < n; k++) cand[k] = all[k];
  PetscCall(SpTrsvAutoStartOrder(PETSC_FALSE, PETSC_TRUE, NULL, n, cand));
  EXPECT(!strcmp(cand[0]->name, "supernodal") && !strcmp(cand[1]->name, "syncfree"), "GPU, LU: start order %s, %s", cand[0]->name, cand[1]->name);
  for (PetscInt k = 0; k < n; k++) cand[k] = all[k];
  PetscCall(SpTrsvAutoStartOrder(PETSC_TRUE, PETSC_FALSE, NULL, n, cand));
  EXPECT(!strcmp(cand[0]->name, "level"), "host: start order %s first", cand[0]->name);
  for (PetscInt k = 0; k < n; k++) cand[k] = all[k];
  PetscCall(SpTrsvAutoStartOrder(PETSC_FALSE, PETSC_FALSE, pinv, n, cand));
  EXPECT(cand[0] == pinv && !strcmp(cand[1]->name, "syncfree"), "-mat_sptrsv_auto_start pinv: start order %s, %s", cand[0]->name, cand[1]->name);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* a choice on sync-free (the path in place and the start) with level and pinv as candidates: predicted solve ms 1, 0.5,
   0.2 and setup ms 1, 10, 100 */
static PetscErrorCode Choice(SpTrsvAutoChoice *c)
{
  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(c, sizeof(*c)));
  c->ncand = 3;
  PetscCall(Find("syncfree", &c->cand[0]));
  PetscCall(Find("level", &c->cand[1]));
  PetscCall(Find("pinv", &c->cand[2]));
  c->solve_ms[0] = 1.0, c->solve_ms[1] = 0.5, c->solve_ms[2] = 0.2;
  c->setup_ms[0] = 1.0, c->setup_ms[1] = 10.0, c->setup_ms[2] = 100.0;
  c->chosen               = c->cand[0];
  c->learn.on             = PETSC_TRUE;
  c->learn.start          = c->cand[0];
  c->learn.start_setup_ms = 1.0;
  c->learn.predicted      = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static const PetscReal *seen = NULL; /* what earlier builds measured, per candidate (NULL: nothing) */

static PetscErrorCode Weigh(const SpTrsvAutoChoice *c, PetscReal cur_ms, PetscInt nsolves, PetscInt nnumeric, PetscBool device_numeric, PetscInt *best, char *note)
{
  PetscFunctionBeginUser;
  PetscCall(SpTrsvAutoLearnWeigh(c, c->cand[0], cur_ms, nsolves, nnumeric, device_numeric, 2.0, seen, best, NULL, note, 256));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TestWeigh(void)
{
  SpTrsvAutoChoice c;
  PetscInt         best;
  char             note[256];
  char            *hit;

  PetscFunctionBeginUser;
  PetscCall(Choice(&c));
  /* 8 solves: level saves 8 x 0.5 = 4 ms < 2 x 10; pinv (0.2 trusted only to 1/3 of the measured 1 ms) 8 x 0.667 < 2 x 100 */
  PetscCall(Weigh(&c, 1.0, 8, 1, PETSC_FALSE, &best, note));
  PetscCall(PetscStrstr(note, "not yet", &hit));
  EXPECT(best == -1 && hit, "8 solves: candidate %" PetscInt_FMT " (%s)", best, note);
  /* 64 solves: level 32 > 20 */
  PetscCall(Weigh(&c, 1.0, 64, 1, PETSC_FALSE, &best, note));
  EXPECT(best == 1, "64 solves: candidate %" PetscInt_FMT ", want level (%s)", best, note);
  /* 1024: level 512 - 20 against pinv 1024 x 0.667 - 200 = 483: level; 4096: pinv 2531 against level 2028 */
  PetscCall(Weigh(&c, 1.0, 1024, 1, PETSC_FALSE, &best, note));
  EXPECT(best == 1, "1024 solves: candidate %" PetscInt_FMT ", want level (%s)", best, note);
  PetscCall(Weigh(&c, 1.0, 4096, 1, PETSC_FALSE, &best, note));
  PetscCall(PetscStrstr(note, "trusted 3x at most", &hit));
  EXPECT(best == 2 && hit, "4096 solves: candidate %" PetscInt_FMT ", want pinv counted at the trust limit (%s)", best, note);
  /* the numeric phase on the GPU and 100 refactorizations seen: pinv's CUDA executor takes host values, charged its setup
     per refactorization (only where the build has that executor) */
  if (c.cand[2]->exec[SPTRSV_EXEC_CUDA] && !c.cand[2]->exec[SPTRSV_EXEC_CUDA]->update_values_device) {
    PetscCall(Weigh(&c, 1.0, 4096, 100, PETSC_TRUE, &best, note));
    EXPECT(best == 1, "4096 solves, 100 GPU refactorizations: candidate %" PetscInt_FMT ", want level (%s)", best, note);
  }
  { /* an earlier build of pinv measured 3x slower than counted: pinv counts 3x slower (1 ms: no gain), level is back */
    const PetscReal pinv3[3] = {0, 0, 3};
    seen = pinv3;
    PetscCall(Weigh(&c, 1.0, 4096, 1, PETSC_FALSE, &best, note));
    EXPECT(best == 1, "4096 solves, pinv measured 3x slower on an earlier factor: candidate %" PetscInt_FMT ", want level (%s)", best, note);
    seen = NULL;
  }
  /* tried candidates are not weighed again */
  c.learn.tried[c.learn.ntried++] = c.cand[1];
  PetscCall(Weigh(&c, 1.0, 64, 1, PETSC_FALSE, &best, note));
  EXPECT(best == -1, "64 solves, level tried: candidate %" PetscInt_FMT " (%s)", best, note);
  c.learn.ntried = 0;
  /* the start path's setup measured 10x its prediction: every setup counts 10x (level 32 < 2 x 100 at 64 solves) */
  c.learn.start_setup_ms = 10.0;
  PetscCall(Weigh(&c, 1.0, 64, 1, PETSC_FALSE, &best, note));
  EXPECT(best == -1, "64 solves, setups x10: candidate %" PetscInt_FMT " (%s)", best, note);
  c.learn.start_setup_ms = 1.0;
  /* a candidate predicted less than 10% faster is not weighed */
  c.solve_ms[1] = 0.95, c.solve_ms[2] = 0.99;
  PetscCall(Weigh(&c, 1.0, 100000, 1, PETSC_FALSE, &best, note));
  PetscCall(PetscStrstr(note, "no candidate left predicted 10% faster", &hit));
  EXPECT(best == -1 && hit, "5%% faster: candidate %" PetscInt_FMT " (%s)", best, note);
  /* the path in place measured 3x its prediction: the candidates' predictions count 3x too (level 0.5 -> 1.5 ms against 3) */
  c.solve_ms[1] = 0.5, c.solve_ms[2] = -1; /* pinv: no constants */
  PetscCall(Weigh(&c, 3.0, 64, 1, PETSC_FALSE, &best, note));
  PetscCall(PetscStrstr(note, "counted 1.5 ms", &hit));
  EXPECT(best == 1 && hit, "calibrated by the measured path in place: candidate %" PetscInt_FMT " (%s)", best, note);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the look's second question: sync-free's runs dispatch for many solves (5 ns per row and entry of setup, 0.5 of the
   measured time), offered by the level dispatch in CSR only, built when its saving over as many solves again passes
   margin x setup; its options applied as the variant "runs" */
static PetscErrorCode TestWeighVariant(void)
{
  SpTrsvPath              sf, level;
  SpTrsvPathOptions       opts;
  SpTrsvSyncFreeOptions  *o;
  SpTrsvStats             f;
  const char             *variant;
  PetscBool               build;
  char                    note[256], *hit;

  PetscFunctionBeginUser;
  PetscCall(Find("syncfree", &sf));
  PetscCall(Find("level", &level));
  PetscCall(PetscMemzero(&f, sizeof(f)));
  f.n   = 1000000;
  f.nnz = 3000000; /* setup 5 ns x 4e6 = 20 ms; saving 0.5 ms per solve at 1 ms (64 solves: 32 ms < 2 x 20; 128: 64 ms > 40) */
  PetscCall(SpTrsvPathOptionsInitialize(&opts));
  PetscCall(SpTrsvPathOptionsGet(&opts, sf, &o));
  PetscCall(SpTrsvAutoLearnWeighVariant(sf, o, &f, 1.0, 64, 2.0, &variant, &build, note, sizeof(note)));
  EXPECT(variant && !strcmp(variant, "runs") && !build, "64 solves: variant %s, build %d (%s)", variant ? variant : "none", (int)build, note);
  PetscCall(SpTrsvAutoLearnWeighVariant(sf, o, &f, 1.0, 128, 2.0, &variant, &build, note, sizeof(note)));
  PetscCall(PetscStrstr(note, "setup 20 ms", &hit));
  EXPECT(variant && build && hit, "128 solves: variant %s, build %d (%s)", variant ? variant : "none", (int)build, note);
  PetscCall(SpTrsvAutoLearnWeighVariant(level, NULL, &f, 1.0, 100000, 2.0, &variant, &build, note, sizeof(note)));
  EXPECT(!variant && !build, "level offers no variant, got %s", variant ? variant : "none");
  /* the variant's options; a dispatch, ALAP levels or ELL storage the user chose leave it out */
  PetscCall(SpTrsvAutoVariantApply(sf, "runs", &opts));
  EXPECT(o->runs && !o->natural, "variant runs applied: runs %d natural %d", (int)o->runs, (int)o->natural);
  PetscCall(SpTrsvAutoLearnWeighVariant(sf, o, &f, 1.0, 100000, 2.0, &variant, &build, note, sizeof(note)));
  EXPECT(!variant && !build, "the runs dispatch in place offers no variant, got %s", variant ? variant : "none");
  PetscCall(SpTrsvPathOptionsInitialize(&opts));
  PetscCall(SpTrsvPathOptionsGet(&opts, sf, &o));
  o->warpell = PETSC_TRUE;
  PetscCall(SpTrsvAutoLearnWeighVariant(sf, o, &f, 1.0, 100000, 2.0, &variant, &build, note, sizeof(note)));
  EXPECT(!variant && !build, "-mat_sptrsv_storage warpell: no variant, got %s", variant ? variant : "none");
  EXPECT(!(*sf->auto_variant)("runs", o, NULL) && (*sf->auto_variant)("", o, NULL) && !(*sf->auto_variant)("fill4", NULL, NULL), "sync-free's variants with warpell");
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SpTrsvInitializePackage());
  PetscCall(TestStartOrder());
  PetscCall(TestWeigh());
  PetscCall(TestWeighVariant());
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "test_auto_learn: %" PetscInt_FMT " passed, %" PetscInt_FMT " failed\n", npass, nfail));
  PetscCall(PetscFinalize());
  return nfail ? 1 : 0;
}
