/* The partitioned-inverse path's partition and schedule (plan->data of sptrsv_pinv): the partition and the pattern of
   the inverse-applied blocks (src/mat/paths/pinv/pinv_partition.c), the numeric phase, the stability check and the host
   executor (src/mat/paths/pinv/pinv.c), read by its CUDA executor (src/cuda/paths/pinv/pinv.cu) (private to the plugin) */
#pragma once
#include <sptrsv/registry.h>
#include <sptrsv/segments.h> /* the launches over the parts: SpTrsvLevelSchedule, SpTrsvLevelSegmentsBuild */

/*
   Partitioned inverse (Alvarado & Schreiber; paper 002's "invertOff"). The rows of op(T), in a topological order of its
   DAG, are cut into consecutive parts P_1 .. P_m. With T_kk = op(T)(P_k, P_k) and E_k = op(T)(P_k, rows of earlier
   parts), x_k = T_kk^{-1} (b_k - E_k x_<k) = M_k [x_<k; b_k] with M_k = T_kk^{-1} [-E_k | I], computed once per values,
   so a solve is one sparse matrix-vector product per part (all rows of a part at once).

   Row i of M, in a topological order of the part, is the recursion
       M_i = idiag_i ( e_i (b column) - sum_{j dep of i, j not in P_k} T_ij e_j (x column) - sum_{j dep of i, j in P_k} T_ij M_j ),
   so pattern(M_i) = {b_i} u {x_j : j outside P_k} u union over the in-part dependencies j of pattern(M_j); the symbolic
   phase unites these patterns, the numeric phase runs the same recursion with values. |M_i| >= len_i + 1 (row i's
   off-diagonal entries plus its diagonal), with equality for every row iff the part causes no fill: the no-fill
   partition of the literature, in this row formulation.

   Units. The order is that of the levels of the DAG in which every supernode of T (op->super, a hint from a supernodal
   factorization) is contracted to one node: a "group level" holds whole supernodes and single rows, rows of one group
   level from different groups are independent, and a supernode's rows come in their own dependency order. Without
   supernodes these are the ordinary levels. Parts are unions of consecutive group levels (parts = levels, the default:
   a part can always take a whole group level) or of consecutive rows of that order (parts = greedy, Alvarado &
   Schreiber's scalar greedy).

   Fill test. base(i) = |M_i| when i's part is i's own group (len_i + 1 for a row outside a supernode; the dense
   inverse of a supernode's diagonal block is always allowed). A unit joins the current part while
   sum_{i in part} |M_i| <= fill * sum_{i in part} base(i) (fill = -mat_sptrsv_pinv_fill, default 1: no fill beyond the
   supernodes' own); otherwise it starts the next part. A unit alone always passes.
*/
typedef enum {
  SPTRSV_PINV_PARTS_LEVELS, /* parts are unions of whole group levels */
  SPTRSV_PINV_PARTS_GREEDY  /* parts are runs of single rows (scalar greedy) */
} SpTrsvPinvParts;
SPTRSV_INTERN const char *const SpTrsvPinvPartsNames[];

/*
   The partition and the pattern of M (SpTrsvPinvPartition):
   - order (n): positions -> rows, the group-level order described above; level (n): each row's group level; levptr
     (nlevels + 1): the positions of each group level;
   - partptr (nparts + 1): part k holds positions partptr[k] .. partptr[k+1]-1;
   - ptr (n + 1), split (n), col (nnz): row order[k] of M is stored at ptr[k] .. ptr[k+1]-1, its x entries first
     (col = a row of an earlier part, q < split[k]), its b entries after (col = a row of the same part); columns
     ascending in each of the two runs.
*/
typedef struct {
  PetscInt  n, nlevels, nparts, nnz;
  PetscInt *order, *level, *levptr;
  PetscInt *partptr;
  PetscInt *ptr, *split, *col;
  PetscInt  base;   /* sum of base(i) over the rows */
  PetscInt  ngroups; /* supernodes of more than one row used as groups */
} SpTrsvPinvPartitionData;

SPTRSV_INTERN PetscErrorCode SpTrsvPinvPartition(const SpTrsvOp *, SpTrsvPinvParts, PetscReal, SpTrsvPinvPartitionData *);
SPTRSV_INTERN PetscErrorCode SpTrsvPinvPartitionCheck(const SpTrsvOp *, PetscReal, const SpTrsvPinvPartitionData *);
SPTRSV_INTERN PetscErrorCode SpTrsvPinvPartitionFree(SpTrsvPinvPartitionData *);

/* the outcome of the last numeric phase (written by either executor, shown by -ksp_view) */
typedef struct {
  PetscBool   checked;    /* a numeric phase ran the check */
  PetscReal   berr;       /* backward error of the partitioned inverse on the check's right-hand side */
  PetscReal   berr_subst; /* that of a plain substitution on the same right-hand side */
  PetscBool   fallback;   /* berr > tol: the solves run on the fallback path */
  const char *fallback_path;
  PetscInt    nchecks, nfallbacks; /* numeric phases, and those that fell back */
  PetscInt    nthreads;            /* threads of the last numeric phase (src/mat/paths/pinv/pinv_numeric.c) */
  PetscReal   numeric_time;        /* seconds of its recursion (M's values, without the check) */
  PetscInt    nseg, nparallel, nheavy; /* its schedule: segments, of which parallel, rows cut among the threads */
} SpTrsvPinvStatus;

/*
   The plan (plan->data): the partition's arrays are taken over (plan->order, plan->level and plan->levptr are the group
   levels), the launch geometry of the parts (segments of the level path's kind, built by SpTrsvLevelSegmentsBuild() on
   the parts: runs of small parts fused into one block, a grid per large part, K lanes per row of M from the part's
   mean M row length), and the numeric outcome.
*/
typedef struct {
  SpTrsvPinvParts     parts;
  PetscReal           fill, tol;
  PetscInt            nparts, nnz, base, ngroups;
  PetscInt           *partptr, *ptr, *split, *col;
  PetscInt           *pos;          /* n: row -> position */
  PetscInt            max_part_rows, max_row;
  SpTrsvLevelSchedule seg;          /* the launches over the parts */
  SpTrsvPinvStatus    status;
} SpTrsvPinvSchedule;

/* the threads' schedule of the numeric phase (src/mat/paths/pinv/pinv_numeric.c), once per pattern */
typedef struct _n_SpTrsvPinvNumericSchedule *SpTrsvPinvNumericSchedule;

/* the values of M and what the numeric phase and the check need; the fallback solver once the check failed */
typedef struct {
  PetscScalar              *val;          /* nnz, in plan order (ptr) */
  PetscScalar              *wx, *wb;      /* n each: the dense accumulators of one row of M (one thread) */
  PetscScalar              *xr, *br, *xc; /* n each: the check's solution, right-hand side, computed solution */
  SpTrsvSolver              fallback;     /* NULL while the partitioned inverse is in use */
  SpTrsvPinvNumericSchedule sched;        /* NULL: one thread */
  PetscInt                  nthreads_used;
  PetscLogDouble            numeric_time;
} SpTrsvPinvValues;

SPTRSV_INTERN PetscErrorCode SpTrsvPinvScheduleCheck(const SpTrsvOp *, SpTrsvPlan, PetscInt); /* fuse_passes of the options */
SPTRSV_INTERN PetscErrorCode SpTrsvPinvValuesCreate(SpTrsvSolver, SpTrsvPinvValues **);
SPTRSV_INTERN PetscErrorCode SpTrsvPinvValuesCompute(SpTrsvSolver, SpTrsvPinvValues *);
SPTRSV_INTERN PetscErrorCode SpTrsvPinvValuesDestroy(SpTrsvPinvValues **);
SPTRSV_INTERN PetscErrorCode SpTrsvPinvNumeric(const SpTrsvOp *, SpTrsvPlan, PetscInt, SpTrsvPinvValues *); /* M's values on PetscInt threads */
SPTRSV_INTERN PetscErrorCode SpTrsvPinvNumericScheduleCreate(const SpTrsvOp *, const SpTrsvPlan, PetscInt, SpTrsvPinvNumericSchedule *);
SPTRSV_INTERN PetscErrorCode SpTrsvPinvNumericScheduleDestroy(SpTrsvPinvNumericSchedule *);
SPTRSV_INTERN PetscErrorCode SpTrsvPinvThreadsDefault(PetscInt *); /* -mat_sptrsv_pinv_threads 0 */
/* the numeric schedule's thresholds: below SPTRSV_PINV_MIN_WORK entries read and written one thread; an M-level of less
   than SPTRSV_PINV_LIGHT_LEVEL joins a serial segment; a heavy row is cut when each thread gets SPTRSV_PINV_MIN_SLICE
   entries (SpTrsvPinvNumericSetThresholds: the unit test lowers them) */
#define SPTRSV_PINV_MIN_WORK    200000
#define SPTRSV_PINV_LIGHT_LEVEL 20000
#define SPTRSV_PINV_MIN_SLICE   64
SPTRSV_INTERN void SpTrsvPinvNumericSetThresholds(PetscReal, PetscReal, PetscInt);
SPTRSV_INTERN void           SpTrsvPinvNumericScheduleGetInfo(SpTrsvPinvNumericSchedule, PetscInt *, PetscInt *, PetscInt *);
SPTRSV_INTERN PetscErrorCode SpTrsvPinvApplyHost(const SpTrsvPlan, const PetscScalar *, const PetscScalar *, PetscScalar *);
/* the partitioned inverse's own options (SpTrsvPathOptions; read by its parser, SpTrsvOptionsSet_pinv) */
typedef struct {
  PetscInt  fuse_passes;  /* CUDA: run a part in one block (fused with its small neighbours) when it takes at most this many passes (-mat_sptrsv_fuse_passes; 1) */
  PetscInt  pinv_parts;   /* SpTrsvPinvParts, parts made of whole (group) levels or of rows (-mat_sptrsv_pinv_parts levels|greedy) */
  PetscReal pinv_fill;    /* a part's inverse-applied block holds at most this many times the substitution's entries (-mat_sptrsv_pinv_fill; 1: no fill) */
  PetscReal pinv_tol;     /* backward error above which the solves fall back (-mat_sptrsv_pinv_tol) */
  PetscInt  pinv_threads; /* host threads of the numeric phase (-mat_sptrsv_pinv_threads; 0: the node's processors shared among the MPI processes) */
  PetscBool pinv_tol_set; /* the user gave -mat_sptrsv_pinv_tol (the automatic choice otherwise holds pinv to SPTRSV_AUTO_PINV_TOL) */
  PetscReal launch_us;    /* the least time of one launch of a solve, microseconds (-mat_sptrsv_pinv_launch_us; < 0: the backend's, SPTRSV_PINV_LAUNCH_US_CUDA on the GPU, 0 on the host): with a ceiling (SpTrsvPathOptions), launches x launch_us above it refuse the triangle at the analysis */
} SpTrsvPinvOptions;
/* the floor of each launch of a partitioned-inverse solve on the GPU (one segment of parts per launch): a CUDA-graph kernel
   node whose threads follow a chain of dependent loads (row pointer, column, x), as one level of the level path, measured
   at 2.3 to 2.8 us per level (H100, docs/perf-data/history/level-run2-2026-11-22.md); a bare graph node is 0.77 us on the
   H200 (issue 33's microbenchmarks). The lower figure counts */
#define SPTRSV_PINV_LAUNCH_US_CUDA 2.3
#define SPTRSV_AUTO_PINV_TOL (100 * PETSC_MACHINE_EPSILON) /* the partitioned inverse's stability bound under the automatic choice (its auto_options) */
SPTRSV_PATH_DECLARE(pinv);
