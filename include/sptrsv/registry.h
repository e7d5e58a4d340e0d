/* SpTrsvPath: the registry of triangular-solve paths (private to the plugin)

   A path is one entry of one table (src/mat/paths/registry.c): its name, the MatSolverType it
   registers, the factor types it accepts, its analysis, one executor per backend, its citation and its
   options. Everything that lists paths (MatSolverType registration, -ksp_view, PC gs's schedulers, the
   automatic choice) reads that table. Files mirror each other across backends:

     src/mat/paths/<name>.c    analysis (plain C: fills plan->data) + host executor of exactly that plan
     src/cuda/paths/<name>.cu  kernels + CUDA executor (setup / update_values / solve / sweep / destroy)
*/
#pragma once
#include <sptrsv/plan.h>
#include <sptrsv/devmem.h> /* SpTrsvDevMem: a solver's device memory */

typedef struct _n_SpTrsvSolver *SpTrsvSolver;
struct _n_SpTrsvAutoChoice; /* the automatic choice of one triangle (include/sptrsv/auto.h) */

/* registered paths at most, and bytes of one path's own options struct at most */
#define SPTRSV_PATHS_MAX        16
#define SPTRSV_PATH_OPTIONS_MAX 256

/*
   SpTrsvPathOptions - how the paths run: what every path reads alike (-mat_sptrsv_graph, the prefix its messages name) and
   each registered path's own options struct (include/sptrsv/paths/<name>.h), at the path's registry index (own[k]; a
   path reaches its own with SpTrsvPathOptionsGet()). Plain values: copied by assignment. A factor reads them with its
   prefix, PC gs with its own, a program of the solver API from the global options (SpTrsvPathOptionsDefault()); each
   path's own options are read by that path's parser alone (the registry's options_set).
*/
typedef struct {
  PetscBool  use_graph;  /* CUDA: capture the launch sequence in a CUDA graph (-mat_sptrsv_graph) */
  char       prefix[64]; /* the options prefix they were read with ("" for none): messages and views name an option as the user types it, -<prefix>mat_sptrsv_... */
  PetscReal  ceiling_ms; /* a build timed against a path in place (the learning choice): the time per solve it must beat; a path whose analysis finds its solve cannot go below it refuses the triangle there, before its numeric phase (0: none) */
  PetscInt64 own[SPTRSV_PATHS_MAX][SPTRSV_PATH_OPTIONS_MAX / sizeof(PetscInt64)]; /* path k's own options (its options_size bytes) */
} SpTrsvPathOptions;

/* an executor: how one backend runs the plans of one path (all arrays in the backend's memory) */
typedef struct {
  PetscErrorCode (*setup)(SpTrsvSolver);                                     /* once per pattern: plan, pattern, values */
  PetscErrorCode (*update_values)(SpTrsvSolver);                             /* new values, same pattern */
  PetscErrorCode (*solve)(SpTrsvSolver, const PetscScalar *, PetscScalar *); /* x = op(T)^{-1} b; b != x */
  /* a relaxed sweep (solvers with a rest, see SpTrsvSolverSweep): b, xold, x; b != x, xold == x allowed;
     NULL when the path has no sweeps */
  PetscErrorCode (*sweep)(SpTrsvSolver, const PetscScalar *, const PetscScalar *, PetscScalar *);
  PetscErrorCode (*destroy)(SpTrsvSolver);
  /* new values already on the device (a GPU numeric factorization, PC gs's device refresh): T's CSR value array
     (T->a's layout), T's inverted diagonal (T->idiag's layout; NULL for a unit triangle) and, for a sweep solver, the
     rest's CSR value array (R->a's layout; NULL otherwise), all device arrays; NULL for executors whose values live
     on the host */
  PetscErrorCode (*update_values_device)(SpTrsvSolver, const PetscScalar *, const PetscScalar *, const PetscScalar *);
} SpTrsvExecutor;

/* backend slots of a path's executor table */
typedef enum {
  SPTRSV_EXEC_HOST,
  SPTRSV_EXEC_CUDA,
  SPTRSV_EXEC_N
} SpTrsvExecSlot;

/*
   A backend is a small table of functions: where the solves run (its executor slot in every path's
   table, include/sptrsv/registry.h) and how vectors live there. All arrays handed to it live in its memory
   space (memtype). Adding a path needs nothing here.
*/
typedef enum {
  SPTRSV_VEC_READ,      /* the values are read */
  SPTRSV_VEC_WRITE,     /* the values are overwritten */
  SPTRSV_VEC_READ_WRITE /* read, then written */
} SpTrsvVecAccess;

typedef struct _n_SpTrsvBackendOps {
  const char    *name;
  PetscMemType   memtype;
  SpTrsvExecSlot slot; /* which executor of a path runs here */
  /* vectors in the backend's memory */
  PetscErrorCode (*vec_alloc)(PetscInt, PetscScalar **);
  PetscErrorCode (*vec_free)(PetscScalar **);
  PetscErrorCode (*perm_create)(PetscInt, const PetscInt *, void **); /* copy an index array */
  PetscErrorCode (*perm_destroy)(void **);
  PetscErrorCode (*gather)(PetscInt, const void *, const PetscScalar *, PetscScalar *);  /* y[k] = x[p[k]] */
  PetscErrorCode (*scatter)(PetscInt, const void *, const PetscScalar *, PetscScalar *); /* y[p[k]] = x[k] */
  PetscErrorCode (*copy)(PetscInt, const PetscScalar *, PetscScalar *);
  PetscErrorCode (*pointwise_mult)(PetscInt, const PetscScalar *, const PetscScalar *, PetscScalar *); /* y = d .* x (d, x, y) */
  PetscErrorCode (*set_values)(PetscInt, const PetscScalar *, PetscScalar *); /* backend array = host array */
  /* access a PETSc vector's values in the backend's memory: in place when the vector lives there
     (host arrays, or VECCUDA with a CUDA PETSc), else through the staging buffer (n entries) */
  PetscErrorCode (*vec_get)(Vec, SpTrsvVecAccess, PetscScalar *, PetscScalar **);     /* access, staging, array */
  PetscErrorCode (*vec_restore)(Vec, SpTrsvVecAccess, PetscScalar *, PetscScalar **); /* access, staging, array */
  PetscBool (*vec_in_place)(Vec); /* would vec_get use the vector's own storage? (for -ksp_view) */
  PetscErrorCode (*synchronize)(void); /* wait for everything enqueued (timings: the automatic choice's measured check) */
} SpTrsvBackendOps;

/*
   What an executor may do with solvers of other paths (a delegate, a fallback: see the registry fields), through the
   table every solver carries (s->ops, filled by the solver layer, src/mat/solvers/solver.c), so that a path never
   calls up into the solver layer: create one on the same triangle with a path and options, refresh its values,
   apply it, destroy it.
*/
typedef struct {
  PetscErrorCode (*create)(SpTrsvTri, PetscBool, SpTrsvFormat, SpTrsvPath, const SpTrsvBackendOps *, const SpTrsvPathOptions *, SpTrsvSolver *);
  PetscErrorCode (*update_values)(SpTrsvSolver);
  PetscErrorCode (*apply)(SpTrsvSolver, const PetscScalar *, PetscScalar *);
  PetscErrorCode (*destroy)(SpTrsvSolver *);
} SpTrsvSolverOps;

/*
   SpTrsvSolver: one oriented triangle op(T) bound to a format, a plan and a backend.

   A sweep solver (Gauss-Seidel/SOR, created by SpTrsvSolverCreateSweep) also holds the rest R of a
   matrix A = T + R (T with its diagonal, R the opposite strict triangle, same row indexing, never
   transposed) and keep = 1 - omega; the diagonal of T is stored as idiag_i = omega / a_ii. A sweep
   computes, row by row in the plan's order,
       x_i = keep * xold_i + idiag_i * (b_i - sum_j T_ij x_j - sum_j R_ij xold_j)
   which is one forward (T lower) or backward (T upper) SOR sweep of PETSc's MatSOR. A plain solve of
   a sweep solver is the sweep from xold = 0 (MatSOR's zero initial guess).
*/
struct _n_SpTrsvSolver {
  SpTrsvTri               tri;
  SpTrsvTri               rest;  /* sweep solvers: the rest R; NULL for a plain triangle */
  PetscScalar             keep;  /* sweep solvers: 1 - omega */
  PetscScalar            *cdiag; /* sweep solvers, CSC: keep / idiag_i (natural order), folded into the right-hand side */
  PetscInt                rest_state;
  PetscBool               transpose;
  SpTrsvFormat            format;
  SpTrsvOp                op;
  SpTrsvPlan              plan;
  const SpTrsvBackendOps *backend;
  const SpTrsvExecutor   *exec;  /* the plan's path's executor for this backend */
  void                   *bdata; /* the executor's data (device copy of plan and values) */
  SpTrsvSolver            nested; /* a solver of another path on the same op(T) to which the executor forwards values and
                                    solves (sptrsv_supernodal's sync-free delegate); made and destroyed by the executor,
                                    through ops */
  const SpTrsvSolverOps  *ops;   /* the solver layer's functions (src/mat/solvers/solver.c), for an executor's nested
                                    solvers */
  PetscInt                state; /* tri->state the backend copy was made from */
  SpTrsvPathOptions       opts;  /* the options it was made with (those of its path for its backend) */
  const void             *own;   /* its path's own options struct, inside opts */
  SpTrsvDevMem            mem;   /* the executor's device memory (include/sptrsv/devmem.h): counted around its calls */
};

/*
   A path: one entry of the registry, its whole interface. Each path defines its entry, SpTrsvPath_<name>, in its own
   folder (src/mat/paths/<name>/), beside its options struct (include/sptrsv/paths/<name>.h), analysis and host executor;
   its CUDA executor is in src/cuda/paths/<name>/. Other paths are named here only by name (delegate, fallback),
   resolved through the registry.
*/
struct _n_SpTrsvPath {
  const char *name;       /* short name: "level", "element", ... (PC gs's -pc_gs_scheduler value) */
  const char *solvertype; /* MatSolverType: "sptrsv_level", ... */
  const char *summary;    /* one line for -help and the docs */
  PetscBool   ilu, icc;   /* factor types it accepts */
  PetscBool   csc;        /* it can read columns (-mat_sptrsv_format csc) as well as rows */
  PetscBool   sweeps;     /* its executors can run Gauss-Seidel sweeps (PC gs) */
  /* analysis of the pattern of op(T) read in format, into plan (plan->type = this path), with the options of every path and
     this path's own (own: its options struct inside them) */
  PetscErrorCode (*analyze)(const SpTrsvOp *, SpTrsvFormat, const SpTrsvPathOptions *, const void *own, SpTrsvPlan *);
  /* the analyses of a factor's two triangles at once, op0's into the first plan and op1's into the second, the same plans as
     two analyze calls (NULL: two analyze calls; sptrsv_syncfree's runs dispatch: its two windows passes in two threads) */
  PetscErrorCode (*analyze_pair)(const SpTrsvOp *, const SpTrsvOp *, SpTrsvFormat, const SpTrsvPathOptions *, const void *own, SpTrsvPlan *, SpTrsvPlan *);
  const SpTrsvExecutor *exec[SPTRSV_EXEC_N]; /* NULL where the backend has none (CUDA without nvcc) */
  /* its options: the size of its struct (0: none of its own); its defaults (NULL: zeros); its parser, called inside the
     caller's PetscOptionsBegin/End (so with the caller's prefix: a factor's, PC gs's; none for the global options), which
     may read the common -mat_sptrsv_graph too and checks what it reads; NULL: no options */
  size_t         options_size;
  PetscErrorCode (*options_default)(void *own);
  PetscErrorCode (*options_set)(SpTrsvOptionItems, SpTrsvPathOptions *, void *own);
  /* its options' checks when they are read for another path that delegates to it (see delegate; NULL: none) */
  PetscErrorCode (*options_check)(const SpTrsvPathOptions *, const void *own);
  /* its solver on backend slot: turn off what only another backend's executor reads (NULL: nothing) */
  PetscErrorCode (*options_backend)(SpTrsvExecSlot, void *own);
  const char *citation; /* BibTeX of the paper it implements */
  PetscBool  *cited;
  /* other paths it runs: delegate, the path its executors hand some triangles to with the same options (a factor on
     this path reads the delegate's options too, and checks them); fallback, where its solves go when its numeric
     check fails (with the options it was given: the fallback's own are not read). NULL: none. Either may fall back
     further to fallback_last when it has no executor on the backend */
  const char *delegate;
  const char *fallback;
  const char *fallback_last;
  /* PC gs: its automatic scheduler on the host backend, on the GPU */
  PetscBool gs_host, gs_device;
  /* the automatic choice (MatSolverType sptrsv, src/mat/paths/auto.c): its rank in the rule order of each regime
     (small triangles, chains, wide levels: see SpTrsvAutoRulePlace; 0: not in the rule order); its model variants
     (auto_variant: whether variant, "" for the defaults, is one of its own that its options own allow, own NULL: any of
     its own; set given: its options for that variant written there; NULL: no variants but the defaults); how it adjusts
     its options as a candidate of the choice; and a second look of its own cost models at its candidate k of a choice made
     with a model, which may lower choice->solve_ms[k] (the choice is ranked again; NULL: none) */
  PetscInt rule_rank[3];
  /* the learning choice (the default of MatSolverType sptrsv on a GPU backend): its rank as the path a factor starts on,
     for incomplete factors (ILU, ICC) and for complete ones (LU, Cholesky); 1 first; 0: not a start path. A start path has
     a setup about PETSc's own (an analysis on the GPU, no host pass), so that a factor solved a few times never pays more */
  PetscInt auto_start[2];
  PetscBool (*auto_variant)(const char *variant, const void *own, void *set);
  PetscErrorCode (*auto_options)(void *own);
  PetscErrorCode (*auto_refine)(const SpTrsvOp *, const void *own, struct _n_SpTrsvAutoChoice *, PetscInt k);
  /* the learning choice's second question at a look (src/mat/paths/auto_learn.c, SpTrsvAutoLearnWeighVariant): a variant
     of its own for a triangle solved many times (one auto_variant knows), given its options in place own and the
     triangle's features: its name, its predicted time per solve as a fraction of the measured time of the options in
     place, and its predicted setup in ms. PETSC_FALSE (or NULL): none for these options */
  PetscBool (*auto_learn_variant)(const void *own, const SpTrsvStats *, const char **variant, PetscReal *ratio, PetscReal *setup_ms);
};

SPTRSV_INTERN PetscErrorCode SpTrsvPathGetCount(PetscInt *);
SPTRSV_INTERN PetscErrorCode SpTrsvPathGetByIndex(PetscInt, SpTrsvPath *);
SPTRSV_INTERN PetscErrorCode SpTrsvPathGetIndex(SpTrsvPath, PetscInt *); /* its registry index; error when not registered */
SPTRSV_INTERN PetscErrorCode SpTrsvPathFind(const char *, SpTrsvPath *); /* by name or MatSolverType; error when unknown */
SPTRSV_INTERN PetscErrorCode SpTrsvPathFindSolverType(const char *, SpTrsvPath *); /* NULL when unknown */
SPTRSV_INTERN PetscErrorCode SpTrsvPathGetNames(PetscBool, PetscInt *, const char *const **); /* sweeps only?: count, names */
SPTRSV_INTERN PetscErrorCode SpTrsvPathAppend(const struct _n_SpTrsvPath *, PetscInt *); /* append a path (the entry lives as long as the library): its index */
SPTRSV_INTERN PetscErrorCode SpTrsvPathGetExecutor(SpTrsvPath, SpTrsvExecSlot, const SpTrsvExecutor **); /* error naming both when missing */
/* path's delegate or fallback (the registry's name, then fallback_last where the first has no executor on slot); NULL: none */
SPTRSV_INTERN PetscErrorCode SpTrsvPathGetRelated(const char *, SpTrsvPath, SpTrsvExecSlot, SpTrsvPath *);
/* the options (src/mat/paths/options.c): every path's defaults; path's own struct inside them; read with the caller's
   prefix inside its PetscOptionsBegin/End (path NULL: every path's, as the automatic choice; else the path's own and its
   delegate's); the defaults then the global options without prefix (path NULL: every path's), for programs of the
   solver API */
SPTRSV_INTERN PetscErrorCode SpTrsvPathOptionsInitialize(SpTrsvPathOptions *);
SPTRSV_INTERN PetscErrorCode SpTrsvPathOptionsGet(const SpTrsvPathOptions *, SpTrsvPath, void *);
SPTRSV_INTERN void          *SpTrsvPathOptionsOwn(const SpTrsvPathOptions *, SpTrsvPath); /* the same as a value (NULL when path is not registered), for tests and benchmarks */
SPTRSV_INTERN PetscErrorCode SpTrsvPathOptionsSetFromOptions(SpTrsvOptionItems, SpTrsvPath, SpTrsvPathOptions *);
SPTRSV_INTERN PetscErrorCode SpTrsvPathOptionsDefault(SpTrsvPath, SpTrsvPathOptions *);
SPTRSV_INTERN PetscErrorCode SpTrsvPlanCreate(const SpTrsvOp *, SpTrsvPath, SpTrsvFormat, const SpTrsvPathOptions *, SpTrsvPlan *);
SPTRSV_INTERN PetscErrorCode SpTrsvPlanCreatePair(const SpTrsvOp *, const SpTrsvOp *, SpTrsvPath, SpTrsvFormat, const SpTrsvPathOptions *, SpTrsvPlan *, SpTrsvPlan *);

#if defined(PETSC_SPTRSV_HAVE_CUDA)
  #define SPTRSV_CUDA_EXEC(name) &SpTrsvExecCUDA_##name
#else
  #define SPTRSV_CUDA_EXEC(name) NULL
#endif

/* what a path defines: its registry entry SpTrsvPath_<name>, SpTrsvAnalyze_<name> and SpTrsvExecHost_<name> in
   src/mat/paths/<name>/, SpTrsvExecCUDA_<name> in src/cuda/paths/<name>/ */
#define SPTRSV_PATH_DECLARE(name) \
  SPTRSV_INTERN const struct _n_SpTrsvPath SpTrsvPath_##name; \
  SPTRSV_INTERN PetscErrorCode SpTrsvAnalyze_##name(const SpTrsvOp *, SpTrsvFormat, const SpTrsvPathOptions *, const void *, SpTrsvPlan *); \
  SPTRSV_INTERN const SpTrsvExecutor SpTrsvExecHost_##name; \
  SPTRSV_INTERN const SpTrsvExecutor SpTrsvExecCUDA_##name
