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

typedef struct _n_SpTrsvSolver *SpTrsvSolver;

#define SPTRSV_RELABEL_AUTO (-1)

/* how a path runs: options read by the factor (with its prefix) or by PC gs, handed to the analysis */
typedef struct {
  PetscBool use_graph;   /* CUDA: capture the launch sequence in a CUDA graph (-mat_sptrsv_graph) */
  PetscInt  fuse_passes; /* level: fuse a level into one block when it takes at most this many passes (-mat_sptrsv_fuse_passes) */
  PetscBool alap;        /* syncfree: as-late-as-possible levels (-mat_sptrsv_levels alap) */
  PetscBool warpell;     /* syncfree: warp-packed ELL storage (-mat_sptrsv_storage warpell) */
  PetscBool natural;     /* syncfree: rows dispatched in the triangle's own order, not by level (-mat_sptrsv_dispatch natural) */
  PetscInt  max_lanes;   /* syncfree: at most this many lanes per row (-mat_sptrsv_max_lanes; longer rows loop) */
  PetscInt  spin_ns;     /* syncfree, CUDA: nanoseconds a waiting lane sleeps between two polls (-mat_sptrsv_spin_ns; 0: spin) */
  PetscInt  blocks_per_sm; /* syncfree, CUDA: persistent blocks per SM (-mat_sptrsv_blocks_per_sm; 0: one block per 4 warps) */
  PetscInt  relabel;     /* syncfree, CUDA: the published solution indexed by dispatch position (1), by row (0), or chosen by the analysis (SPTRSV_RELABEL_AUTO) (-mat_sptrsv_relabel) */
  PetscBool analysis_device; /* syncfree, CUDA: build the schedule on the GPU (-mat_sptrsv_analysis device); ignored by other backends */
  PetscInt  subgraph_rows;   /* locality: rows per sub-graph at most (-mat_sptrsv_subgraph_rows; 0: what a block's shared memory holds) */
  PetscInt  locality_partition; /* locality: SpTrsvLocalityPartitioner, auto (0), paper (1) or regions (2) (-mat_sptrsv_locality_partition) */
  PetscInt  locality_sms;       /* locality: multiprocessors the cost model fills (-mat_sptrsv_locality_sms; 132, the H100's) */
  PetscInt  locality_stage;     /* locality, CUDA: what a block copies to shared memory before its slots, at most: 0 nothing, 1 the row and slot pointers, 2 also the entries (-mat_sptrsv_locality_stage; 2) */
  PetscBool locality_pack;      /* locality: pack the small independent sub-graphs of one level into one block (-mat_sptrsv_locality_pack; true) */
  PetscInt  locality_kernel;    /* locality: SpTrsvLocalityKernelType, auto (0), slots (1), chain (2) or blocks (3) (-mat_sptrsv_locality_kernel) */
  PetscReal locality_block_cond; /* locality, blocks kernel: largest condition number of an inverted diagonal block (-mat_sptrsv_locality_block_cond) */
  PetscInt  locality_block_rows; /* locality, blocks kernel: rows per block (-mat_sptrsv_locality_block_rows; 0: the cost model's choice) */
  PetscInt  supernode_mode;  /* supernodal: SpTrsvSupernodeMode, auto/push/pull (-mat_sptrsv_supernode_mode) */
  PetscInt  invert_diag;     /* supernodal: GEMV with the inverted diagonal blocks instead of a TRSV (-mat_sptrsv_invert_diag); 1 every block, 0 none, -1 (default, auto) each block whose condition number is at most invert_cond, checked at every numeric phase */
  PetscReal invert_cond;     /* supernodal, invert_diag auto: largest infinity-norm condition number of a diagonal block that is inverted (-mat_sptrsv_invert_diag_cond) */
  PetscBool supernode_merge; /* supernodal: merge neighbouring supernodes of the same block structure (-mat_sptrsv_merge) */
  PetscReal supernode_relax; /* supernodal: merge neighbours while explicit zeros stay within this fraction (-mat_sptrsv_supernode_relax); SPTRSV_SUPERNODE_RELAX_AUTO (-1, the default): SpTrsvSupernodeRelaxAuto */
  PetscInt  supernode_cublas_width; /* supernodal, CUDA: supernodes at least this wide run through cuBLAS (-mat_sptrsv_supernode_cublas_width) */
  PetscInt  supernode_split; /* supernodal: SpTrsvSupernodeSplit, auto/never/always: inverted supernodes of a level cut into row tasks over many blocks (-mat_sptrsv_supernode_split) */
  PetscInt  supernode_min_width; /* supernodal: a triangle whose widest supernode is narrower than this is solved by a nested sync-free solver (-mat_sptrsv_supernode_min_width; 0: never) */
  PetscInt  pinv_parts;      /* pinv: SpTrsvPinvParts, parts made of whole (group) levels or of rows (-mat_sptrsv_pinv_parts levels|greedy) */
  PetscReal pinv_fill;       /* pinv: a part's inverse-applied block holds at most this many times the substitution's entries (-mat_sptrsv_pinv_fill; 1: no fill) */
  PetscReal pinv_tol;        /* pinv: backward error above which the solves fall back (-mat_sptrsv_pinv_tol) */
  PetscInt  pinv_threads;    /* pinv: host threads of the numeric phase (-mat_sptrsv_pinv_threads; 0: the node's processors shared among the MPI processes) */
  PetscBool pinv_tol_set;    /* the user gave -mat_sptrsv_pinv_tol (the automatic choice otherwise holds pinv to SPTRSV_AUTO_PINV_TOL) */
  char      prefix[64];      /* the options prefix of the factor that read these options ("" for none): the analysis's messages and views name an option as the user types it, -<prefix>mat_sptrsv_... */
} SpTrsvSolverOptions;

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

struct _n_SpTrsvPath {
  const char *name;       /* short name: "level", "element", ... (PC gs's -pc_gs_scheduler value) */
  const char *solvertype; /* MatSolverType: "sptrsv_level", ... */
  const char *summary;    /* one line for -help and the docs */
  PetscBool   ilu, icc;   /* factor types it accepts */
  PetscBool   csc;        /* it can read columns (-mat_sptrsv_format csc) as well as rows */
  PetscBool   sweeps;     /* its executors can run Gauss-Seidel sweeps (PC gs) */
  /* analysis of the pattern of op(T) read in format, into plan (plan->type = this path) */
  PetscErrorCode (*analyze)(const SpTrsvOp *, SpTrsvFormat, const SpTrsvSolverOptions *, SpTrsvPlan *);
  const SpTrsvExecutor *exec[SPTRSV_EXEC_N]; /* NULL where the backend has none (CUDA without nvcc) */
  /* its own options, read inside the factor's PetscOptionsBegin/End (so with its prefix); NULL: none */
  PetscErrorCode (*options)(SpTrsvOptionItems, SpTrsvSolverOptions *);
  const char           *citation;            /* BibTeX of the paper it implements */
  PetscBool            *cited;
};

SPTRSV_INTERN PetscErrorCode SpTrsvPathGetCount(PetscInt *);
SPTRSV_INTERN PetscErrorCode SpTrsvPathGetByIndex(PetscInt, SpTrsvPath *);
SPTRSV_INTERN PetscErrorCode SpTrsvPathFind(const char *, SpTrsvPath *); /* by name or MatSolverType; error when unknown */
SPTRSV_INTERN PetscErrorCode SpTrsvPathFindSolverType(const char *, SpTrsvPath *); /* NULL when unknown */
SPTRSV_INTERN PetscErrorCode SpTrsvPathGetNames(PetscBool, PetscInt *, const char *const **); /* sweeps only?: count, names */
SPTRSV_INTERN PetscErrorCode SpTrsvPathRegisterAll(void);                /* the MatSolverTypes */
SPTRSV_INTERN PetscErrorCode SpTrsvPathGetExecutor(SpTrsvPath, SpTrsvExecSlot, const SpTrsvExecutor **); /* error naming both when missing */
SPTRSV_INTERN PetscErrorCode SpTrsvSolverOptionsInitialize(SpTrsvSolverOptions *); /* the defaults only */
SPTRSV_INTERN PetscErrorCode SpTrsvSolverOptionsDefault(SpTrsvSolverOptions *);    /* the defaults, then the global options */
SPTRSV_INTERN PetscErrorCode SpTrsvPlanCreate(const SpTrsvOp *, SpTrsvPath, SpTrsvFormat, const SpTrsvSolverOptions *, SpTrsvPlan *);

/* what a path defines: SpTrsvAnalyze_<name>, SpTrsvExecHost_<name> and SpTrsvOptions_<name> in
   src/mat/paths/<name>.c, SpTrsvExecCUDA_<name> in src/cuda/paths/<name>.cu */
#define SPTRSV_PATH_DECLARE(name) \
  SPTRSV_INTERN PetscErrorCode SpTrsvAnalyze_##name(const SpTrsvOp *, SpTrsvFormat, const SpTrsvSolverOptions *, SpTrsvPlan *); \
  SPTRSV_INTERN PetscErrorCode SpTrsvOptions_##name(SpTrsvOptionItems, SpTrsvSolverOptions *); \
  SPTRSV_INTERN const SpTrsvExecutor SpTrsvExecHost_##name; \
  SPTRSV_INTERN const SpTrsvExecutor SpTrsvExecCUDA_##name
