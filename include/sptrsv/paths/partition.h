/* The locality path's shared pieces, named after its core, the sub-graph partition (paper 004), and shared by its files: the partitions
   (src/mat/paths/locality/partition.c, regions.c), their cost model and choice (partition_model.c), the chain schedule
   (chain.c) and the blocks kernel (locality_blocks.c), and by its CUDA executor (src/cuda/paths/locality/). The plan
   built from them and the path's entry points are in include/sptrsv/paths/locality.h (private to the plugin) */
#pragma once
#include <sptrsv/plan.h>
#include <sptrsv/hd.h>

/*
   Sub-graph partition of a DAG given by the rows of op(T): row i depends on the rows rj[ri[i] .. ri[i+1]-1].
   - sub[i]: the sub-graph of row i. Feasible: every dependency j of i has sub[j] <= sub[i] (edges go from a lower or
     equal sub-graph index to a higher one), and no sub-graph holds more than nmax rows.
   - sublevel[g]: sub-graph levels, sublevel[g] = 1 + max sublevel[g'] over the sub-graphs g' != g with an edge into
     g (0 when none). Sub-graphs are numbered by level, so the sub-graphs of level l are a contiguous range: no edge
     joins two sub-graphs of one level, and they run concurrently (one launch per level, one block per sub-graph).
   - slot[i]: the time slot of row i inside its sub-graph, slot[i] = 1 + max slot[j] over the dependencies j of i in
     the same sub-graph (0 when none): a row is computed strictly after every in-sub-graph dependency, and the rows of
     one slot write different entries and read only entries of earlier slots (no read-write conflict).
*/
typedef enum {
  SPTRSV_PARTITION_OUTDEG_DESC, /* waves sorted by descending out-degree, then index (the paper's first criterion) */
  SPTRSV_PARTITION_OUTDEG_ASC,  /* ascending out-degree, then index */
  SPTRSV_PARTITION_INDEX,       /* ascending index */
  SPTRSV_PARTITION_FALLBACK     /* index order, as many sub-graphs as needed (always succeeds) */
} SpTrsvPartitionCriterion;

/* the partitioners (-mat_sptrsv_locality_partition): the paper's greedy (partition.c), compact regions with a coarse
   time (regions.c), or the one the cost model predicts faster (partition_model.c) */
typedef enum {
  SPTRSV_LOCALITY_PARTITION_AUTO,
  SPTRSV_LOCALITY_PARTITION_PAPER,
  SPTRSV_LOCALITY_PARTITION_REGIONS
} SpTrsvLocalityPartitioner;
SPTRSV_INTERN const char *const SpTrsvLocalityPartitioners[]; /* "auto", "paper", "regions", then PetscOptionsEnum's tail */

typedef struct {
  PetscInt  n, nmax;
  PetscInt  nsub, nsublevels, nslots; /* sub-graphs, sub-graph levels, slots (summed over the sub-graphs) */
  PetscInt  kind;                     /* SPTRSV_LOCALITY_PARTITION_PAPER or _REGIONS: which partitioner made it */
  PetscInt  region_rows, nregions;    /* regions: rows per region at most (R) and regions made; 0 for the paper's */
  PetscInt *sub;                      /* n */
  PetscInt *slot;                     /* n */
  PetscInt *sublevel;                 /* nsub, non-decreasing */
  /* how the heuristic went (for -ksp_view and the tests) */
  PetscInt ncomp;      /* weakly connected components (an isolated row is one) */
  PetscInt nmerged;    /* sub-graphs made of whole components (small ones merged) */
  PetscInt nlarge;     /* components larger than nmax, split by the greedy assignment */
  PetscInt nattempts;  /* greedy attempts over all large components */
  PetscInt nfallback;  /* large components that needed the fallback (more than ceil(size / nmax) sub-graphs) */
  PetscInt worst_crit; /* the last criterion any large component needed (SpTrsvPartitionCriterion), -1 if none */
  PetscInt npacked;    /* regions: (coarse time, region) pieces packed into the sub-graph of another piece of the same
                          coarse time (-mat_sptrsv_locality_pack) */
} SpTrsvPartition;

SPTRSV_INTERN PetscErrorCode SpTrsvPartitionCreate(PetscInt, const PetscInt *, const PetscInt *, PetscInt, SpTrsvPartition *);
/* compact regions of at most R rows (the 4th argument; the 5th: nmax), coarse time = sub-graph level, the pieces of one
   coarse time packed or not (the 6th) (src/mat/paths/locality/regions.c) */
SPTRSV_INTERN PetscErrorCode SpTrsvPartitionCreateRegions(PetscInt, const PetscInt *, const PetscInt *, PetscInt, PetscInt, PetscBool, SpTrsvPartition *);
SPTRSV_INTERN PetscErrorCode SpTrsvPartitionCheck(PetscInt, const PetscInt *, const PetscInt *, const SpTrsvPartition *);
SPTRSV_INTERN PetscErrorCode SpTrsvPartitionDestroy(SpTrsvPartition *);
SPTRSV_INTERN const char    *SpTrsvPartitionCriterionName(PetscInt);

/* shared by partition.c and regions.c: the DAG with its children (the transpose of the dependency lists), the
   sub-graph levels (sub-graphs renumbered by (level, index); an error names an edge that is not feasible) and the slots */
typedef struct {
  PetscInt        n;
  const PetscInt *ri, *rj; /* dependencies */
  PetscInt       *cptr, *cidx;
} SpTrsvDAG;
SPTRSV_INTERN PetscErrorCode SpTrsvDAGCreate(PetscInt, const PetscInt *, const PetscInt *, SpTrsvDAG *);
SPTRSV_INTERN PetscErrorCode SpTrsvDAGDestroy(SpTrsvDAG *);
SPTRSV_INTERN PetscErrorCode SpTrsvPartitionLevelsAndSlots(const SpTrsvDAG *, SpTrsvPartition *);
SPTRSV_INTERN PetscErrorCode SpTrsvComponents(const SpTrsvDAG *, PetscInt *, PetscInt **, PetscInt **);

/* the region partitioner's work shared by several R (the DAG, a topological order, the components): regions.c */
typedef struct _n_SpTrsvRegions *SpTrsvRegions;
SPTRSV_INTERN PetscErrorCode SpTrsvRegionsCreate(PetscInt, const PetscInt *, const PetscInt *, SpTrsvRegions *);
/* R, nmax, pack, final: pack the pieces of one coarse time into sub-graphs of at most R rows; final = PETSC_TRUE also
   recomputes levels and slots from their definitions (and checks the claim) */
SPTRSV_INTERN PetscErrorCode SpTrsvRegionsPartition(SpTrsvRegions, PetscInt, PetscInt, PetscBool, PetscBool, SpTrsvPartition *);
SPTRSV_INTERN PetscErrorCode SpTrsvRegionsDestroy(SpTrsvRegions *);

/*
   What a partition costs on the GPU, from host figures only (src/mat/paths/locality/partition_model.c): one launch per
   sub-graph level; in a launch, the sub-graphs run as blocks, each through its slots (a barrier per slot) and its rows
   and entries. The prediction, in microseconds, sums over the launches
       alpha + beta_s * (most slots of a sub-graph of the launch) * waves + gamma * max(largest sub-graph's work,
                                                                                   the launch's work / SMs)
   with work = rows + entries, waves = ceil(sub-graphs / (SMs * blocks resident per SM)), s the launch's stage (what
   its blocks stage in shared memory: a slot costs less the less it reads from global memory). The constants are fitted
   to the H100 runs in docs/perf-data/history/ (see partition_model.c).
*/
typedef struct {
  PetscInt  launches;          /* sub-graph levels */
  PetscInt  nsub;              /* sub-graphs */
  PetscInt  max_subs;          /* most sub-graphs in one launch */
  PetscReal mean_subs;         /* sub-graphs per launch, mean */
  PetscReal mean_slots;        /* slots per sub-graph, mean */
  PetscInt  crit_slots;        /* sum over the launches of the most slots of one of its sub-graphs: barrier steps on the critical path */
  PetscInt  max_rows;          /* largest sub-graph */
  PetscReal ext_frac;          /* external entries / entries */
  PetscReal predicted_us;      /* the model's solve time of this triangle */
  PetscReal slot_waves;        /* the model's terms summed over the launches: sum of S * waves (beta's factor; by the */
  PetscReal slot_waves_stage[3]; /* launch's stage in slot_waves_stage, each stage with its own beta) and of */
  PetscReal work;              /* max(Wmax, W / SMs) (gamma's factor); alpha's is the launches (a fit reads them) */
} SpTrsvLocalityEstimate;

/* the cost model's inputs besides the partition */
typedef struct {
  PetscInt  sms;     /* multiprocessors of the GPU (-mat_sptrsv_locality_sms; 132 on the H100) */
  PetscInt  lanes;   /* K, lanes per row (the kernel's groups) */
  PetscBool pack;    /* regions: pack the pieces of one coarse time (-mat_sptrsv_locality_pack) */
  PetscInt  max_stage; /* the highest stage a launch may take (-mat_sptrsv_locality_stage): the model prices each
                          launch at the stage the analysis will give it */
} SpTrsvLocalityDevice;

#define SPTRSV_LOCALITY_DEFAULT_SMS 132

SPTRSV_INTERN PetscErrorCode SpTrsvLocalityEstimateCreate(PetscInt, const PetscInt *, const PetscInt *, const SpTrsvPartition *, const SpTrsvLocalityDevice *, SpTrsvLocalityEstimate *);

/* the choice: which partitioner, and the R of the regions (auto: the lowest predicted time over the candidates) */
typedef struct {
  PetscInt               requested;  /* SpTrsvLocalityPartitioner asked for */
  PetscInt               ncand;      /* region sizes tried */
  PetscInt               cand_rows[16];
  PetscReal              cand_us[16];
  SpTrsvLocalityEstimate paper, regions; /* the estimates of the two (paper: launches < 0 when not built) */
  PetscBool              have_paper, have_regions;
} SpTrsvLocalityChoice;

SPTRSV_INTERN PetscErrorCode SpTrsvPartitionChoose(PetscInt, const PetscInt *, const PetscInt *, PetscInt, SpTrsvLocalityPartitioner, const SpTrsvLocalityDevice *, SpTrsvPartition *, SpTrsvLocalityChoice *);

/*
   Shared memory: the default n_max is the largest x a block can hold in shared memory on sm_90 (227 KB of opt-in
   dynamic shared memory per block), one PetscScalar per row; -mat_sptrsv_subgraph_rows caps it. The CUDA executor
   checks the device's own limit at setup and names the option when a sub-graph does not fit.
*/
#define SPTRSV_LOCALITY_SMEM_BYTES (227 * 1024)
#define SPTRSV_LOCALITY_MAX_BLOCK  1024

/*
   Long rows: with K lanes per row a row of m entries takes m / K steps, so one long row (a circuit matrix's dense row)
   holds up its whole slot. A row of at least long_len entries (SpTrsvLocalityLongLen(K): max(64, 8 K), none when
   K = 32) is "long": a whole warp (32 lanes) computes it, in the external pass and in its slot.

   Staging (CUDA, per launch): before its slots a block copies to shared memory, behind x,
     stage 1: every row's internal range (2 ints per row) and inverse diagonal (1 scalar per row) and the
              sub-graph's slot pointers and long-row counts (2 ints per slot + 1), so a slot's rows find their entries
              and diagonals without a dependent global load;
     stage 2: also the sub-graph's entries (column index and value, 12 bytes each, external and internal: one
              contiguous range), so a slot reads only shared memory;
   the analysis picks, per launch, the highest stage up to -mat_sptrsv_locality_stage whose bytes for the launch's
   largest sub-graph fit SPTRSV_LOCALITY_SMEM_BYTES (SpTrsvLocalityStageBytes).
*/
#define SPTRSV_LOCALITY_MAX_STAGE 2
static inline PetscInt SpTrsvLocalityLongLen(int K)
{
  return K >= 32 ? 0 : PetscMax(64, 8 * (PetscInt)K);
}
/* dynamic shared memory of a block at stage 0, 1, 2 for a sub-graph of rows, entries, slots (the kernel's layout:
   x, [inverse diagonals, [values], row starts, row ends, [column indices], slot pointers, long counts]) */
static inline PetscInt64 SpTrsvLocalityStageBytes(PetscInt stage, PetscInt64 rows, PetscInt64 ents, PetscInt64 slots)
{
  PetscInt64 b = rows * (PetscInt64)sizeof(PetscScalar);
  if (stage >= 1) b += rows * (PetscInt64)sizeof(PetscScalar) + 4 * (2 * rows + 2 * slots + 1);
  if (stage >= 2) b += ents * ((PetscInt64)sizeof(PetscScalar) + 4);
  return b;
}

/*
   The chain kernel (-mat_sptrsv_locality_kernel chain): the degenerate partition where every weakly connected component
   is its own sub-graph, all of them in one sub-graph level (one launch, after one that gathers b), for triangles whose components are chains of
   short reach (banded and block-diagonal matrices). The rows of a component are ordered by index (ascending for a
   lower op(T), descending for an upper one: a topological order); the reach is the largest distance in that order
   between a row and one of its dependencies. A group of G lanes solves a run of whole components one row per step:
   the accumulators of the next W = G * A rows (A per lane, W a power of two above the reach) stay in registers, the
   row of the step is finished by its owner lane and its x broadcast with one shuffle, and every other accumulator
   subtracts its entry of that column (the window: W scalars per row, column-major, the inverted diagonal first). No
   barrier, no shared memory: the only dependency of a step on the one before is one shuffle.
*/
#define SPTRSV_CHAIN_MAX_WIDTH 128
typedef enum {
  SPTRSV_LOCALITY_KERNEL_AUTO,   /* the chain or blocks kernel where the analysis accepts it and the cost models predict it faster */
  SPTRSV_LOCALITY_KERNEL_SLOTS,  /* sub-graphs in shared memory, time slots between barriers (the paper's) */
  SPTRSV_LOCALITY_KERNEL_CHAIN,  /* components as register-window chains (an error when the reach is too long) */
  SPTRSV_LOCALITY_KERNEL_BLOCKS  /* components as chains of inverted diagonal blocks (see "The blocks kernel") */
} SpTrsvLocalityKernelType;
SPTRSV_INTERN const char *const SpTrsvLocalityKernels[]; /* "auto", "slots", "chain", "blocks", then PetscOptionsEnum's tail */

typedef struct {
  PetscInt  reach;          /* the largest distance between a row and a dependency in the chain order (0: none) */
  PetscInt  W, G, A;        /* window rows (a power of two, 2 .. SPTRSV_CHAIN_MAX_WIDTH; reach < W), lanes per group
                               min(W, 32), accumulators per lane W / G; W = 0 when no window fits */
  PetscInt  ncomp;          /* weakly connected components */
  PetscInt  ngroups;        /* lane groups: group c solves positions gptr[c] .. gptr[c+1]-1 (whole components) */
  PetscInt *gptr;           /* ngroups + 1 */
  PetscInt  max_group_rows; /* the longest group: steps on the critical path */
  PetscReal predicted_us;   /* the cost model's solve time (SpTrsvLocalityChainEstimate) */
  PetscBool accepted;       /* the reach fits a window and the window's storage (n W scalars) is at most
                               SPTRSV_CHAIN_MAX_STORAGE times the triangle's entries and diagonal */
} SpTrsvLocalityChain;
#define SPTRSV_CHAIN_MAX_STORAGE 4
#define SPTRSV_CHAIN_LONG_ROWS   4096 /* a longest group of at least this many rows: the kernel loads further ahead */

/*
   The blocks kernel (-mat_sptrsv_locality_kernel blocks): the chain order and groups above, each group cut into blocks of
   B consecutive positions (B a power of two, W <= B <= SPTRSV_CHAIN_MAX_WIDTH, the first block at the group's start).
   Since every dependency lies fewer than W <= B places back in its own group, block k depends only on itself and on the
   last R positions of block k - 1 (R <= reach: the coupling). With D_k the block's lower triangle (in chain positions)
   and L_k its coupling (B x R), the solve is
       x_k = D_k^{-1} (b_k - L_k x_{k-1}) = c_k - M_k x_{k-1},   c_k = X_k b_k,  X_k = D_k^{-1},  M_k = X_k L_k,
   so the numeric phase inverts every diagonal block and applies it to the coupling (as the partitioned inverse does,
   per block), a first launch computes every c_k at once, and a chain launch runs the blocks of each group one after
   the other, one B x R GEMV a step (no launch, no barrier between steps; R shuffles on the critical path instead of one
   per row). A triangle with R = 0 (every block independent: block-diagonal with blocks aligned) needs the first launch
   only. Each block's inverse is checked at every numeric phase: kappa = ||D_k||_inf ||X_k||_inf above
   -mat_sptrsv_locality_block_cond (or not finite) keeps D_k and L_k instead, and that block is solved by substitution
   (b_k - L_k x_{k-1}, then one row per step). Storage per block: the packed lower triangle of X_k (or D_k with its
   inverted diagonal), column by column, B (B + 1) / 2 scalars, and M_k (or L_k), B x R, column by column.
*/
#define SPTRSV_BLOCKS_COND        1e6 /* -mat_sptrsv_locality_block_cond's default */
#define SPTRSV_BLOCKS_SMEM_BYTES  (223 * 1024) /* the device numeric phase holds a block's D (B x B) and L (B x R) in shared
                                                   memory: 227 KB on sm_90, less room for the kernel's static part */
#define SPTRSV_BLOCKS_ROW_SCALARS 48 /* storage a row may take whatever the triangle's entries (blocks of 32 rows, any coupling) */
#define SPTRSV_BLOCKS_STORAGE_MARGIN 1.5 /* a kernel choice takes blocks whose storage is above SPTRSV_CHAIN_MAX_STORAGE times
                                           the triangle's only when predicted this many times faster than the alternative */
typedef struct {
  PetscInt  B, G, A;          /* rows per block, lanes per group min(B, 32), accumulators per lane B / G; B = 0: none */
  PetscInt  R;                /* the coupling: block k reads the last R positions of block k - 1 (0: blocks independent) */
  PetscInt  nblocks;          /* blocks over all groups */
  PetscInt *gblk;             /* chain groups + 1: group g holds blocks gblk[g] .. gblk[g+1]-1 */
  PetscInt *bptr;             /* nblocks + 1: block b holds positions bptr[b] .. bptr[b+1]-1 (at most B) */
  PetscInt  max_group_blocks; /* the longest group in blocks: steps of the chain launch */
  PetscInt64 xsize, msize;    /* scalars of the X and M storage: nblocks B (B + 1) / 2 and nblocks B R */
  PetscReal storage;          /* (xsize + msize) / (the triangle's entries + rows) */
  PetscReal predicted_us;     /* the cost model's solve time (SpTrsvLocalityBlocksEstimate) */
  PetscBool accepted;         /* a window fits, the storage is at most SPTRSV_CHAIN_MAX_STORAGE times the triangle's
                                 entries and diagonal or at most SPTRSV_BLOCKS_ROW_SCALARS scalars a row, and the device
                                 numeric phase fits SPTRSV_BLOCKS_SMEM_BYTES */
  PetscReal cond;             /* -mat_sptrsv_locality_block_cond */
  /* the last numeric phase (host executor; the CUDA executor copies its figures back) */
  PetscInt  ninv;             /* blocks inverted (the check passed) */
  PetscReal kappa_inv, kappa_max; /* largest kappa of an inverted block, of any block */
  PetscBool have_numeric;
} SpTrsvLocalityBlocks;

/* a block size the blocks kernel can run for a window of W rows: a power of two from W up to SPTRSV_CHAIN_MAX_WIDTH */
static inline PetscBool SpTrsvLocalityBlockRowsValid(PetscInt B, PetscInt W)
{
  return (PetscBool)(B >= W && B <= SPTRSV_CHAIN_MAX_WIDTH && (B & (B - 1)) == 0);
}

/* the blocks of the chain groups ch for op(T) in the chain order, the B the model predicts fastest (B_req > 0: that B),
   src/mat/paths/locality/locality_blocks.c; blk->B = 0 when the chain has no window */
SPTRSV_INTERN PetscErrorCode SpTrsvLocalityBlocksCreate(const SpTrsvOp *, const PetscInt *, const SpTrsvLocalityChain *, PetscInt, PetscReal, SpTrsvLocalityBlocks *);
SPTRSV_INTERN PetscErrorCode SpTrsvLocalityBlocksCheck(const SpTrsvOp *, const PetscInt *, const SpTrsvLocalityChain *, const SpTrsvLocalityBlocks *);
SPTRSV_INTERN PetscErrorCode SpTrsvLocalityBlocksDestroy(SpTrsvLocalityBlocks *);
SPTRSV_INTERN PetscErrorCode SpTrsvLocalityBlocksView(const SpTrsvLocalityBlocks *, PetscBool, const char *, PetscViewer);
/* the time a kernel choice compares (auto in locality.c and auto.c): the prediction, times SPTRSV_BLOCKS_STORAGE_MARGIN
   when the storage is above SPTRSV_CHAIN_MAX_STORAGE times the triangle's (a large memory for a small predicted gain is
   not taken); PETSC_MAX_REAL when not accepted */
static inline PetscReal SpTrsvLocalityBlocksRankUs(const SpTrsvLocalityBlocks *blk)
{
  if (!blk->B || !blk->accepted) return PETSC_MAX_REAL;
  return blk->predicted_us * (blk->storage > SPTRSV_CHAIN_MAX_STORAGE ? SPTRSV_BLOCKS_STORAGE_MARGIN : 1.0);
}
/* block b's numeric phase on the host, from the triangle's rows in chain positions (pos: row -> position): X or D
   (packed, xs), M or L (ms), and whether the check passed; work: B (B + R) scalars */
SPTRSV_INTERN PetscErrorCode SpTrsvLocalityBlockNumeric(const SpTrsvOp *, const PetscInt *, const PetscInt *, const SpTrsvLocalityBlocks *, PetscInt, PetscScalar *, PetscScalar *, PetscScalar *, PetscBool *, PetscReal *);
/* packed lower triangle of a block of B rows, column by column: entry (r, j), r >= j, at SpTrsvBlocksPacked(B, j) + r - j */
static inline SPTRSV_HD PetscInt64 SpTrsvBlocksPacked(PetscInt64 B, PetscInt64 j)
{
  return j * B - j * (j - 1) / 2;
}

/* the chain order of op(T) into order (n), the reach, the window and the groups for a device of sms multiprocessors
   (src/mat/paths/locality/chain.c); a triangle with no window (reach >= SPTRSV_CHAIN_MAX_WIDTH) gets W = 0, accepted false */
SPTRSV_INTERN PetscErrorCode SpTrsvLocalityChainCreate(const SpTrsvOp *, PetscInt, PetscInt *, SpTrsvLocalityChain *);
SPTRSV_INTERN PetscErrorCode SpTrsvLocalityChainCheck(const SpTrsvOp *, const PetscInt *, const SpTrsvLocalityChain *);
SPTRSV_INTERN PetscErrorCode SpTrsvLocalityChainDestroy(SpTrsvLocalityChain *);
