/* SpTrsvAuto: the automatic path choice of MatSolverType sptrsv (private to the plugin)

   One chooser for every triangle: the features of the triangle (its level analysis: SpTrsvStats), a cost model per
   path with constants fitted once per GPU model from the benchmark CSVs (src/mat/paths/auto_models/<gpu>.h, written by
   examples/benchmarks/fit-auto-model.py), or a fixed rule when no model fits the device. The chooser ranks the candidate
   paths; the factor (factormat.c) takes the first whose analysis and setup accept the triangle.
*/
#pragma once
#include <sptrsv/registry.h>
#include <sptrsv/utils.h> /* SpTrsvOptionName() */

#define SPTRSV_AUTO_NSOLVE   6 /* solve terms: 1, levels, nnz/1e6, n/1e6, levels * min(1, n/levels/1024), levels * nnz/n */
#define SPTRSV_AUTO_NSETUP   4 /* setup terms: 1, levels, nnz/1e6, n/1e6 */
#define SPTRSV_AUTO_MAXPATHS 8

/* the constants of one path in one GPU model (milliseconds), measured with the path's default options (variant "") or
   with the options a variant names (pinv: "fill4" = -mat_sptrsv_pinv_fill 4); a path may have several entries: the
   chooser takes, per triangle, the entry (variant) it predicts fastest among those the user's options allow */
typedef struct {
  const char *path;
  const char *variant;
  PetscReal   solve[SPTRSV_AUTO_NSOLVE];
  PetscReal   setup[SPTRSV_AUTO_NSETUP];
  PetscReal   range[4]; /* rows min, max, levels min, max of the triangles it was fitted on, widened (0: no bound): the
                           chooser does not extrapolate an entry fitted on a few matrices outside them */
} SpTrsvAutoCost;

/* a GPU model's cost model: its name (-mat_sptrsv_auto_model), the text its device name contains, its constants */
typedef struct {
  const char           *name;
  const char           *device;
  const SpTrsvAutoCost *cost;
  PetscInt              ncost;
} SpTrsvAutoModel;

/* the learning choice of one triangle (the default when the expected solve count is unknown: -mat_sptrsv_auto_learn,
   src/mat/paths/auto_learn.c weighs, src/mat/solvers/autolearn.c counts, times and switches): it starts on the start path
   (the registry's auto_start: a setup about PETSc's own), counts the solves of the pattern across its numeric
   factorizations, and at every doubling of that count weighs each faster candidate's predicted saving over as many solves
   again against its predicted setup; a candidate worth it is built and timed against the path in place on the live
   factor, and the faster stays */
#define SPTRSV_AUTO_LEARN_FIRST_LOOK 8   /* solves of the pattern before the first look; then at every doubling */
#define SPTRSV_AUTO_LEARN_MIN_GAIN   0.1 /* a candidate must be predicted at least this fraction faster than the path in place */
#define SPTRSV_AUTO_LEARN_TRUST      3.0 /* a prediction counts at most this many times faster than the measured path in place */
typedef struct {
  PetscBool  on;
  SpTrsvPath start;             /* the path it started on */
  PetscReal  start_setup_ms;    /* the start path's setup (analysis + executor setup), measured */
  PetscReal  cur_ms;            /* measured ms per solve of the path in place (-1: not yet timed) */
  PetscBool  predicted;         /* the model's predictions are in the choice (made at the first look) */
  PetscInt   nlooks;            /* looks so far */
  SpTrsvPath tried[SPTRSV_AUTO_MAXPATHS]; /* candidates built and timed on this pattern (each once) */
  PetscInt   ntried;
  PetscInt   switch_solves;     /* solves of the pattern at the last switch (0: none) */
  PetscBool  variant_tried;     /* the path in place's variant for many solves (its auto_learn_variant) was built and timed */
  char       look[256];         /* what the last look weighed */
  char       outcome[256];      /* the last candidate timed: switched, or kept the path in place */
} SpTrsvAutoLearn;

/* what the chooser decided for one triangle, and why (for -ksp_view) */
typedef struct _n_SpTrsvAutoChoice {
  SpTrsvStats            f;     /* the features: the level analysis of the triangle */
  const SpTrsvAutoModel *model; /* NULL: the fallback rule (or the host rule) */
  PetscInt               nsolves; /* expected solves (0: unknown, solve time only) */
  PetscInt               ncand;
  SpTrsvPath             cand[SPTRSV_AUTO_MAXPATHS];     /* the candidates, best first */
  PetscReal              solve_ms[SPTRSV_AUTO_MAXPATHS]; /* predictions (model only) */
  PetscReal              setup_ms[SPTRSV_AUTO_MAXPATHS];
  const char            *variant[SPTRSV_AUTO_MAXPATHS];  /* the variant each prediction is of ("" or NULL: the path's defaults) */
  PetscBool              rejected[SPTRSV_AUTO_MAXPATHS]; /* its analysis or setup refused the triangle */
  char                   rejected_why[SPTRSV_AUTO_MAXPATHS][128];
  SpTrsvPath             chosen;
  char                   reason[160];
  /* the measured check (-mat_sptrsv_auto_measure, src/mat/solvers/automeasure.c): the chosen path and cuSPARSE's SpSV
     (sptrsv_cusparse) timed on this triangle at the first numeric factorization, the faster kept */
  PetscBool              measured;
  SpTrsvPath             measured_path;  /* the path the model chose */
  PetscReal              measured_ms[2]; /* ms per solve: that path, cuSPARSE */
  PetscBool              replaced;       /* cuSPARSE was faster: chosen is sptrsv_cusparse */
  char                   measured_note[160]; /* why it did not run (empty: it ran, or is still to run) */
  /* the model's runner-up, timed first when its prediction is close (automeasure.c) */
  SpTrsvPath             runner_path;    /* NULL: not tried */
  PetscBool              runner_timed, runner_won;
  PetscReal              runner_ms[2];   /* ms per solve: the model's choice, the runner-up */
  char                   runner_note[160];
  /* the locality path's chain or blocks kernel (banded, block-diagonal: SpTrsvAutoLocalityChain): the faster by their
     own cost models, whose solve time replaces the model entry's (fitted on the slot kernel) when smaller; chain_ms < 0:
     not applicable */
  PetscReal              chain_ms;
  PetscInt               chain_reach, chain_W;
  PetscInt               chain_B; /* > 0: the blocks kernel, of blocks of chain_B rows; 0: the chain kernel */
  SpTrsvAutoLearn        learn;   /* the learning choice (the default), its state for this triangle */
} SpTrsvAutoChoice;

/* the options of the automatic choice (read by the factor with its prefix) */
typedef struct {
  PetscInt  nsolves;                        /* -mat_sptrsv_expected_solves (0: unknown) */
  PetscInt  ncand;                          /* -mat_sptrsv_auto_candidates (0: every path) */
  SpTrsvPath cand[SPTRSV_AUTO_MAXPATHS];
  char      model[PETSC_MAX_PATH_LEN];      /* -mat_sptrsv_auto_model: auto, none, a model's name or a model file */
  PetscBool measure;                        /* -mat_sptrsv_auto_measure: time the choice against cuSPARSE (CUDA backend); default on
                                               when the expected solve count is unknown (the choice is by solve time), off when
                                               it is given (the choice is by setup + that many solves, which the check's cost
                                               does not pay back on the H100 data: fit-auto-model.py) */
  PetscBool measure_set;                    /* given explicitly: it then runs on the host backend too (its cusparse path is the
                                               host executor's row loop: a test of the mechanism, not of cuSPARSE) */
  PetscBool learn;                          /* -mat_sptrsv_auto_learn: start on the start path and learn the solve count
                                               (default: on unless -mat_sptrsv_expected_solves is given) */
  SpTrsvPath start;                         /* -mat_sptrsv_auto_start: the path to start on (NULL: the registry's auto_start) */
  PetscBool remember;                       /* -mat_sptrsv_auto_learn_remember: builds measured slower than counted make that path
                                               count slower on the later factors of the process */
  PetscReal margin;                         /* -mat_sptrsv_auto_learn_margin: a switch needs the predicted saving over the
                                               solves seen so far above this many times the candidate's predicted setup */
} SpTrsvAutoOptions;

SPTRSV_INTERN PetscErrorCode SpTrsvAutoModelFind(const char *, const SpTrsvAutoModel **);        /* by name ("none": NULL) or file (loaded once); error naming the models */
SPTRSV_INTERN PetscErrorCode SpTrsvAutoModelLoad(const char *, const SpTrsvAutoModel **);        /* a model file written by fit-auto-model.py --write */
SPTRSV_INTERN PetscErrorCode SpTrsvAutoVariantApply(SpTrsvPath, const char *, SpTrsvPathOptions *); /* the options of a variant */
SPTRSV_INTERN PetscErrorCode SpTrsvAutoModelForDevice(const char *, const SpTrsvAutoModel **);   /* the model whose device text the name contains, or NULL */
SPTRSV_INTERN PetscErrorCode SpTrsvAutoModelNames(char *, size_t);                              /* "h100" ..., for messages and -help */
SPTRSV_INTERN PetscErrorCode SpTrsvAutoFeatures(const SpTrsvOp *, SpTrsvStats *);               /* one host level analysis */
SPTRSV_INTERN PetscErrorCode SpTrsvAutoPredict(const SpTrsvAutoModel *, SpTrsvPath, const SpTrsvPathOptions *, const SpTrsvStats *, PetscInt, PetscReal *, PetscReal *, const char **); /* solve, setup ms of the best variant; -1: no constants */
SPTRSV_INTERN PetscErrorCode SpTrsvAutoRank(const SpTrsvAutoModel *, PetscBool, const SpTrsvPathOptions *, const SpTrsvStats *, PetscInt, PetscInt, const SpTrsvPath[], SpTrsvAutoChoice *);
SPTRSV_INTERN PetscErrorCode SpTrsvAutoReject(SpTrsvAutoChoice *, PetscInt, const char *);       /* candidate k refused the triangle: the next one */
SPTRSV_INTERN PetscErrorCode SpTrsvAutoRefine(const SpTrsvOp *, const SpTrsvPathOptions *, SpTrsvAutoChoice *); /* the candidates' own cost models (the registry's auto_refine), ranked again */
SPTRSV_INTERN PetscErrorCode SpTrsvAutoStartOrder(PetscBool, PetscBool, SpTrsvPath, PetscInt, SpTrsvPath[]); /* host?, complete factor?, the user's start (or NULL): the candidates in start order */
/* the learning choice's look (auto_learn.c): the candidate (index in the choice, -1: none) whose predicted saving over
   nsolves more solves, against the measured cur_ms of the path in place, best exceeds margin times its setup (and, when it
   would move the numeric phase to the host, that setup again per numeric factorization seen); seen (per candidate, or
   NULL): how much slower than counted an earlier build of that path measured (> 1: counted that much slower); counted: the
   prediction it counted for the candidate named (or NULL); the note says what it weighed */
SPTRSV_INTERN PetscErrorCode SpTrsvAutoLearnWeigh(const SpTrsvAutoChoice *, SpTrsvPath, PetscReal, PetscInt, PetscInt, PetscBool, PetscReal, const PetscReal *, PetscInt *, PetscReal *, char *, size_t);
SPTRSV_INTERN PetscErrorCode SpTrsvAutoLearnView(const SpTrsvAutoChoice *, PetscViewer);
/* the look's second question (auto_learn.c): the variant for many solves of the path in place cur (its options own), by the
   same rule: its predicted saving over nsolves more solves against margin times its predicted setup; *variant: its name
   (NULL: the path offers none for these options), *build: worth it now; the note says what it weighed */
SPTRSV_INTERN PetscErrorCode SpTrsvAutoLearnWeighVariant(SpTrsvPath, const void *, const SpTrsvStats *, PetscReal, PetscInt, PetscReal, const char **, PetscBool *, char *, size_t);
SPTRSV_INTERN PetscErrorCode SpTrsvAutoView(const SpTrsvAutoChoice *, PetscViewer);
SPTRSV_INTERN PetscErrorCode SpTrsvAutoOptionsRead(SpTrsvOptionItems, PetscObject, SpTrsvAutoOptions *);
