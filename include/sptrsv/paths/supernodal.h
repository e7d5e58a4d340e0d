/* The supernodal path's partition and schedule (plan->data of sptrsv_supernodal, paper 002, Yamazaki et al.): the
   supernodes found by src/mat/analysis/supernode.c (include/sptrsv/supernode.h), the dense-block storage and the level schedule built
   from it by src/mat/paths/supernodal/supernodal.c, read by its host executor and by its CUDA executor
   (src/cuda/paths/supernodal/supernodal.cu) (private to the plugin) */
#pragma once
#include <sptrsv/registry.h>
#include <sptrsv/supernode.h> /* the partition: lines, detection, merging, the supernodal DAG */
#include <sptrsv/paths/supernodal_invert.h> /* invert_diag auto: the conditioning check of the inverted diagonal blocks */

/*
   The schedule (plan->data). Supernodes are numbered by index (K covers lines super[K] .. super[K+1]-1); they run in the
   order sorder[0 .. ns-1]: by level of the supernodal DAG, inside a level the team supernodes (one CUDA block each, one
   launch per level) first, then the split ones (inverted diagonal only: each cut into row tasks over many blocks, two
   launches per level), then the cuBLAS ones (device-wide dtrsv/dgemv, one after the other). Level l holds positions
   slevptr[l] .. slevptr[l+1]-1, of which the first nteam[l] are team supernodes, the next nsplit[l] split ones.
   plan->order lists the rows of op(T) in that order (a supernode's rows ascending).
   Split tasks (SPTRSV_SUPERNODE_TASK ints each: supernode K, rows [r0, r1) of K, first outside column c0): level l's
   first launch runs tasks tlev[2l] .. tlev[2l+1]-1, its second tlev[2l+1] .. tlev[2l+2]-1. With r = a buffer indexed
   by line (n entries):
     pull: launch 1, rows [r0, r1): r_i = b_i - O_i x[U_K]; launch 2, the same rows: x_i = X_i r_K;
     push: launch 1, rows [r0, r1): r_i = X_i x_K; launch 2, rows [r0, r1) x outside columns [c0, c0 + 256):
           x[U_K[c]] -= sum_{t in [r0, r1)} O[t m + c] r_t (atomics), and where c0 = 0 also x_t = r_t.
   Every row of a split supernode is in exactly one task of each launch (push's second: every (row, column) pair).
   Fused runs: fuse[l] = f > 1 when levels l .. l + f - 1 hold team supernodes only (no split, no cuBLAS) that one block
   runs one after the other faster than their own launches would (SpTrsvSupernodeLevelFusable, the cost model): the
   CUDA executor runs positions slevptr[l] .. slevptr[l + f] with one block in one launch, in order, a barrier between
   two supernodes (block[l], wmax[l]: the run's largest); fuse = 0 inside a run, 1 for a level alone. A single block
   never waits for another block, so the fused launch cannot deadlock.
   Storage of supernode K (w wide, m = uptr[K+1] - uptr[K], U_K = uidx[uptr[K] ..]):
   - diagonal block D at dval + dptr[K], w x w column-major in op(T)'s coordinates (D[(i - s) + (j - s) w] = op(T)_ij),
     its diagonal holding the inverted diagonal idiag_i (1 for a unit triangle); with invert_diag the executors keep its
     inverse X (same layout) for a GEMV instead of a TRSV;
   - off-diagonal block O at oval + optr[K], line-major: O[(t - s) m + c] is the entry of line t at index U_K[c] (pull:
     op(T)_{t, U_K[c]}; push: op(T)_{U_K[c], t}).
   Value maps (numeric phase = gather): dmap[dptr[K] + q] and omap[optr[K] + q] give the index in op->ra of each stored
   value, SPTRSV_SUPERNODE_ZERO for an explicit zero and, in dmap, SPTRSV_SUPERNODE_DIAG for a diagonal entry.
*/
#define SPTRSV_SUPERNODE_ZERO (-1)
#define SPTRSV_SUPERNODE_DIAG (-2)

/* CUDA geometry: threads per team block at most / at least, the widest team supernode (wider ones always use cuBLAS;
   the block keeps 2 w values, each padded to 16 bytes, in shared memory), and at most how many cuBLAS
   supernodes one level may have before its wide supernodes go back to the team kernel (cuBLAS calls run one after
   the other) */
#define SPTRSV_SUPERNODE_BLOCK_MAX      256
#define SPTRSV_SUPERNODE_TEAM_MAX_WIDTH 2048
#define SPTRSV_SUPERNODE_CUBLAS_PER_LEVEL 8
#define SPTRSV_SUPERNODE_CUBLAS_WIDTH   256 /* default -mat_sptrsv_supernode_cublas_width */
/* split supernodes: threads per block (a warp per row), outside columns per push-update task (a thread each), rows per
   push-update task, the widest supernode inverted (the inversion keeps one column, w scalars, in shared memory; wider
   ones run through cuBLAS even with -mat_sptrsv_invert_diag), ints per task */
#define SPTRSV_SUPERNODE_SPLIT_BLOCK      256
#define SPTRSV_SUPERNODE_SPLIT_COLS       256
#define SPTRSV_SUPERNODE_SPLIT_PUSH_ROWS  64
#define SPTRSV_SUPERNODE_INVERT_MAX_WIDTH 4096
#define SPTRSV_SUPERNODE_TASK             4

/*
   Defaults chosen from the triangle (docs/PERFORMANCE.md, "Supernodal defaults"; the run before them:
   docs/perf-data/history/supernodal-run4.md). A triangle whose widest exact supernode has at least
   SPTRSV_SUPERNODE_AUTO_WIDTH lines is "filled" (an LU or Cholesky factor, an
   ILU of high level): its dense blocks carry the solve. Any other (an ILU(0)/ICC(0) factor) keeps exact supernodes and
   the substitution's arithmetic (PETSc's residual histories to rounding; it is delegated to sync-free anyway unless
   -mat_sptrsv_supernode_min_width is lowered).
   - Relaxed merging, -mat_sptrsv_supernode_relax auto (SPTRSV_SUPERNODE_RELAX_AUTO): a filled triangle is merged with
     -mat_sptrsv_merge and relaxation SPTRSV_SUPERNODE_AUTO_RELAX (the chains of small separator supernodes of a
     nested-dissection factor merge); any other is not (merged narrow supernodes would escape the delegation, and
     are slower as dense blocks).
   - Inverted diagonal blocks, -mat_sptrsv_invert_diag not given (auto): a filled triangle's schedule is built as for
     inverted blocks, and every numeric phase computes X = D^{-1} of each team and split supernode and its
     infinity-norm condition number kappa = ||D||_inf ||X||_inf (D with its true diagonal, X as computed: both at hand,
     O(w^2)). A block with kappa above -mat_sptrsv_invert_diag_cond (SPTRSV_SUPERNODE_INVERT_COND), or not finite, is
     solved by the column sweep (TRSV) instead: the GEMV with X has a forward error of about w eps kappa, the sweep one
     bounded by the block's componentwise conditioning, often far smaller (an LU without pivoting of an
     ill-conditioned matrix has blocks of kappa 1e10 and more). The status of the last check is ss->icheck (-ksp_view).
*/
#define SPTRSV_SUPERNODE_RELAX_AUTO  (-1.0)
#define SPTRSV_SUPERNODE_AUTO_RELAX  0.05
#define SPTRSV_SUPERNODE_AUTO_WIDTH  16
#define SPTRSV_SUPERNODE_INVERT_COND 1e6

typedef enum {
  SPTRSV_SUPERNODE_SPLIT_AUTO,  /* split a level's inverted supernodes where the cost model predicts it faster */
  SPTRSV_SUPERNODE_SPLIT_NEVER, /* team blocks and cuBLAS only (the schedule before splitting existed) */
  SPTRSV_SUPERNODE_SPLIT_ALWAYS /* every level of inverted supernodes split (tests) */
} SpTrsvSupernodeSplit;

/*
   The cost model of a supernodal solve (src/mat/paths/supernodal/supernodal_model.c; constants of an H100, fp64): a launch in a
   CUDA graph costs LAUNCH_US, a block a fixed BLOCK_US of dependent memory round trips, one block streams SM_GBS, the
   whole GPU GPU_GBS, a column step of a diagonal block solved in place (not inverted) COLUMN_US (a barrier and a load
   that depends on it). A cuBLAS supernode: 4 launches (staging, gemv, trsv, write-back) plus its bytes at a quarter of
   the GPU's bandwidth plus CUBLAS_COLUMN_US per column of its trsv.
*/
#define SPTRSV_SUPERNODE_MODEL_LAUNCH_US        4.0
#define SPTRSV_SUPERNODE_MODEL_BLOCK_US         2.0
#define SPTRSV_SUPERNODE_MODEL_SM_GBS           15.0
#define SPTRSV_SUPERNODE_MODEL_GPU_GBS          3000.0
#define SPTRSV_SUPERNODE_MODEL_COLUMN_US        0.5
#define SPTRSV_SUPERNODE_MODEL_CUBLAS_COLUMN_US 0.05
#define SPTRSV_SUPERNODE_MODEL_SMS              132

/* one level as the model sees it */
typedef struct {
  PetscInt       nsn, nteam, nsplit, ncublas; /* supernodes: all, team, split, cuBLAS */
  PetscInt       wmax, wsum, ntasks;          /* widest, total width (rows), split tasks of its larger launch */
  PetscLogDouble bytes;                       /* read and written by one solve */
  PetscLogDouble us, us_team, us_split;       /* predicted time as scheduled; all as team blocks; all split */
} SpTrsvSupernodeLevelModel;

typedef enum {
  SPTRSV_SUPERNODE_MODE_AUTO, /* push for a lower op(T), pull for an upper one */
  SPTRSV_SUPERNODE_MODE_PUSH,
  SPTRSV_SUPERNODE_MODE_PULL
} SpTrsvSupernodeMode;

typedef struct {
  PetscBool  push, lower, invert;
  PetscBool  invert_auto;     /* invert: only the blocks whose kappa is at most invert_cond (checked at each numeric phase) */
  PetscReal  invert_cond;
  SpTrsvSupernodeInvertCheck icheck; /* the last check (invert_auto) */
  PetscReal  relax;           /* the relaxation the partition was merged with (auto resolved) */
  PetscBool  relax_auto;      /* it was chosen by SPTRSV_SUPERNODE_RELAX_AUTO */
  PetscInt   ns, nlevels;
  PetscInt  *super;           /* ns + 1 */
  PetscInt  *sorder;          /* ns: supernodes in run order */
  PetscInt  *slevptr, *nteam; /* nlevels + 1, nlevels */
  PetscInt  *nsplit;          /* nlevels: split supernodes after the team ones */
  PetscInt  *tlev, *task;     /* 2 nlevels + 1; SPTRSV_SUPERNODE_TASK tlev[2 nlevels] (split tasks) */
  PetscInt   split_mode;      /* SpTrsvSupernodeSplit the schedule was built with */
  PetscInt   nsplit_sn, nsplit_levels; /* split supernodes, levels with split supernodes */
  PetscLogDouble model_us;    /* the cost model's prediction of one solve (us) */
  PetscInt  *fuse;            /* nlevels: a fused run of fuse[l] levels starts at l (1: level alone; 0: inside a run) */
  PetscInt   nfused_runs, nfused_levels; /* fused runs (of at least 2 levels) and the levels in them */
  PetscInt  *uptr, *uidx;     /* ns + 1, uptr[ns] */
  PetscInt64 *dptr, *optr;    /* ns + 1 each */
  PetscInt  *dmap, *omap;     /* dptr[ns], optr[ns] */
  int       *block;           /* nlevels: CUDA threads per team block */
  PetscInt  *wmax;            /* nlevels: widest team supernode of the level (shared memory: 2 wmax scalars, each padded to 16 bytes) */
  PetscInt   cublas_width;    /* the option the cuBLAS choice used */
  PetscInt   ncublas;         /* cuBLAS supernodes */
  PetscInt   max_w, max_m, max_cublas_w, max_cublas_m; /* widest supernode, longest U_K; the same over cuBLAS ones */
  PetscInt64 nzeros;          /* explicit zeros stored (off the diagonal) */
  PetscInt   max_level_sn;    /* most supernodes in one level */
  SpTrsvSupernodeFigures fig;
  PetscBool  from_hint;       /* the partition started from the factorization's (op->super) */
  /* delegation: when the partition's widest supernode is narrower than min_width (-mat_sptrsv_supernode_min_width) the
     dense blocks cannot help (a supernode of width 1 is a scalar row, and one block and one launch per level of them is
     slower than the sync-free schedule; the widest, not the mean, decides: the exact LU of a sparse matrix has many
     one-row leaf supernodes, width mean 1.2-1.7, and a few wide ones near the root that carry the solve, see
     docs/perf-data/history/supernodal-run4.md); the analysis stops after the partition (super, ns, max_w, fig and the row levels of
     plan->order are set; the levels, run order, blocks, maps and tasks are not built, their arrays NULL and counts 0) and
     the executors forward everything to a nested solver of sptrsv_syncfree (sptrsv_level where sync-free has no
     executor on the backend): SpTrsvSupernodalDelegateSetup */
  PetscBool    delegated;
  PetscInt     min_width;     /* the option the decision used */
  SpTrsvSolver delegate;      /* that nested solver while an executor holds one (the executor's s->nested; not owned here) */
} SpTrsvSupernodalSchedule;

SPTRSV_INTERN PetscErrorCode SpTrsvSupernodalScheduleCheck(const SpTrsvOp *, SpTrsvPlan);
/* a delegated plan (ss->delegated): the executors' nested solver (s->nested), its values and teardown (supernodal.c) */
SPTRSV_INTERN PetscErrorCode SpTrsvSupernodalDelegateSetup(SpTrsvSolver);
SPTRSV_INTERN PetscErrorCode SpTrsvSupernodalDelegateDestroy(SpTrsvSolver);
SPTRSV_INTERN PetscErrorCode SpTrsvSupernodalSplitCheck(const SpTrsvSupernodalSchedule *);
/* the cost model (supernodal_model.c): per-level bytes and time of supernodes sorder[k0 .. k1), a level's split tasks,
   the figures of a built schedule and their view */
SPTRSV_INTERN PetscLogDouble SpTrsvSupernodeBytes(const SpTrsvSupernodalSchedule *, PetscInt, PetscBool);
SPTRSV_INTERN void           SpTrsvSupernodeLevelEstimate(const SpTrsvSupernodalSchedule *, const PetscInt *, PetscInt, PetscInt, PetscBool, SpTrsvSupernodeLevelModel *);
SPTRSV_INTERN PetscInt       SpTrsvSupernodeSplitRows(const SpTrsvSupernodalSchedule *, const PetscInt *, PetscInt, PetscInt);
SPTRSV_INTERN PetscBool      SpTrsvSupernodeLevelFusable(const SpTrsvSupernodalSchedule *, PetscInt);
SPTRSV_INTERN PetscErrorCode SpTrsvSupernodalModel(const SpTrsvSupernodalSchedule *, SpTrsvSupernodeLevelModel **, PetscLogDouble *);
SPTRSV_INTERN PetscErrorCode SpTrsvSupernodalModelView(const SpTrsvSupernodalSchedule *, const char *, PetscBool, PetscViewer); /* the options' prefix */

/* the supernodal path's own options (SpTrsvPathOptions; read by its parser, SpTrsvOptionsSet_supernodal) */
typedef struct {
  PetscInt  supernode_mode;         /* SpTrsvSupernodeMode, auto/push/pull (-mat_sptrsv_supernode_mode) */
  PetscInt  invert_diag;            /* GEMV with the inverted diagonal blocks instead of a TRSV (-mat_sptrsv_invert_diag); 1 every block, 0 none, -1 (default, auto) each block whose condition number is at most invert_cond, checked at every numeric phase */
  PetscReal invert_cond;            /* invert_diag auto: largest infinity-norm condition number of a diagonal block that is inverted (-mat_sptrsv_invert_diag_cond) */
  PetscBool supernode_merge;        /* merge neighbouring supernodes of the same block structure (-mat_sptrsv_merge) */
  PetscReal supernode_relax;        /* merge neighbours while explicit zeros stay within this fraction (-mat_sptrsv_supernode_relax); SPTRSV_SUPERNODE_RELAX_AUTO (the default): SpTrsvSupernodeRelaxAuto */
  PetscInt  supernode_cublas_width; /* CUDA: supernodes at least this wide run through cuBLAS (-mat_sptrsv_supernode_cublas_width) */
  PetscInt  supernode_split;        /* SpTrsvSupernodeSplit, auto/never/always: inverted supernodes of a level cut into row tasks over many blocks (-mat_sptrsv_supernode_split) */
  PetscInt  supernode_min_width;    /* a triangle whose widest supernode is narrower than this is solved by the path's delegate, a nested sync-free solver (-mat_sptrsv_supernode_min_width; 0: never) */
} SpTrsvSupernodalOptions;
SPTRSV_PATH_DECLARE(supernodal);
