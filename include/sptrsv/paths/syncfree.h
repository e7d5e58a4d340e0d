/* The sync-free path's schedule (plan->data of sptrsv_syncfree): shared by its analysis
   (src/mat/paths/syncfree/syncfree.c) and its CUDA executor (src/cuda/paths/syncfree/syncfree.cu) (private to the plugin) */
#pragma once
#include <sptrsv/registry.h>

/* warps per block of the sync-free kernel: a block takes one ticket, i.e. this many consecutive warps */
#define SPTRSV_SYNCFREE_WARPS 4
/* bins of row lengths: K = 1, 2, 4, 8, 16, 32 lanes per row, and rows longer than 32 (a warp each) */
#define SPTRSV_SYNCFREE_NBINS 7
/* flag in wlanes[w]: some row of the warp has more entries than K (its lanes loop over the rest: the CSR tail) */
#define SPTRSV_SYNCFREE_TAIL 64

/*
   Warp packing (paper 001). The rows of each level are binned by their number of entries in op(T)
   (dependencies): a row of length len gets K lanes, the smallest power of two >= len (at least 1, at most
   -mat_sptrsv_max_lanes), and a warp solves 32 / K rows of the same level and bin at once, one lane per
   entry (rows longer than K loop). With 32 lanes at most, rows longer than 32 get a whole warp each. The dispatch order (plan->order) lists the rows level by level, inside
   a level bin by bin, inside a bin by row index; warp w solves positions wstart[w] .. wstart[w+1]-1 of
   it with wlanes[w] lanes per row. Rows of one warp are in one level, so none depends on another.

   Warp-packed ELL (-mat_sptrsv_storage warpell): warp w owns the 32 slots ell[32 w .. 32 w + 31]; lane
   g K + e holds entry e of the warp's row g (its first K entries for a row longer than K), -1 where there is
   none. ellmap[s] is the index of that entry in the rows of op(T) (op->rj / op->ra), so values are
   gathered from the triangle without another analysis; the entries of a row beyond its K-th are
   read from the CSR arrays (the tail).
*/
/*
   Natural dispatch (-mat_sptrsv_dispatch natural): the rows go out in the triangle's own order (increasing
   index for a lower op(T), decreasing for an upper one: a topological order), consecutive rows packed
   greedily into warps (as many as fit with K lanes each, K the smallest power of two >= the longest of them).
   No level sort: neighbouring rows stay neighbours (coalesced loads, stores and polls), and a row may wait for
   an earlier row of its own warp: each group of K lanes then synchronizes only with itself (shuffles with the
   group's mask), which independent thread scheduling allows. plan->level and the statistics still describe the
   levels; plan->levptr is not used (NULL).
*/
/*
   Analysis on the GPU (-mat_sptrsv_analysis device, CUDA backend only; src/cuda/paths/syncfree/syncfree_analysis.cu):
   the host analysis (SpTrsvAnalyze_syncfree) then only records the options (device = PETSC_TRUE, no order, no
   warps) and the CUDA executor's setup builds the same schedule on the device: ASAP levels, the (level, bin,
   row) order, the warps, the pattern in dispatch order with its value map and the ELL image. Only the figures
   below (nwarps, bin counts, ell_filled, the sector counts) and the plan's statistics come back to the host. ALAP
   levels and natural dispatch are sequential passes: with either, the analysis stays on the host (device_fallback).
   The runs dispatch's windows are a sequential greedy cut too: they are built on the host, and with the device analysis
   (pattern_device) the CUDA setup builds the rest on the GPU (src/cuda/paths/syncfree/syncfree_runs_setup.cu: the
   pattern in the triangle's order by position, each row sorted, and the schedule check), in place of host passes.
   It is the same analysis as the host's (SpTrsvSyncFreeBuild in syncfree.c): the rules are shared (the bin of a row,
   the rows per warp, the relabel decision), and SpTrsvSyncFreeAnalyzeHostOf builds on the host what it must build.
*/
/*
   Runs dispatch (-mat_sptrsv_dispatch runs; issue 33): the rows go out in the triangle's own order, cut into windows of
   consecutive positions, one warp per window. A window [k0, k1) may hold a row that depends on the row just before it
   (position k - 1: the previous point of a grid line in natural order), but on no other row of the window: every other
   dependency lies before k0. The analysis cuts greedily: a row joins the window while that holds, the window has fewer
   than 32 R rows (R = -mat_sptrsv_run_rows, 1, 2, 4 or 8, at most SPTRSV_SYNCFREE_RUN_MAX_R; default 1: a grid line
   longer than 32 points is cut into windows of 32, measured fastest on 3-D grids), and the row continues the chain, or
   the window continues none (neither holds a chained row nor starts with one) and has fewer than
   SPTRSV_RUNS_MIN rows (src/mat/paths/syncfree/runs.h, where the windows pass is); and a row that would make the window wait for a deeper window than its rows so far
   opens the next one (the depth cut: one window step per grid line where rows also depend on the next point of the
   line before, 9- and 27-point stencils, ILU(k > 0)). The kernel's rows per lane are the
   smallest power of two that fits the longest window (sf->run_rows). The kernel waits for the dependencies before k0 only (in memory, as the other dispatches) and
   resolves the chain x_k = c_k + m_k x_{k-1} inside the warp by a scan of affine maps: a grid line of a 3-D factor costs
   one trip through memory instead of one per row. The solution words are indexed by dispatch position (relabel), so
   a column index >= k0 in a window's row is its chain entry. The windows go out in wavefront order (by depth in the
   windows' DAG): wstart[w] is the first position of the w-th window dispatched and wlanes[w] its length. A lane loads its
   entries B at a time, all B in flight at once (B = -mat_sptrsv_run_batch, 4, 8 or 16; automatic: the smallest that
   holds the longest lane's entries, so a 27-point or ILU(k > 0) row's entries go out in one batch, not one memory round
   trip per 4 of them; at least min(16, 4 R)). When the longest lane holds more than SPTRSV_SYNCFREE_RUN_SLEEP_ENTRIES
   entries, every waiting lane pauses between poll rounds (below).
*/
#define SPTRSV_SYNCFREE_RUN_MAX_R 8  /* rows per lane at most: windows of up to 256 rows (-mat_sptrsv_run_rows 8) */
#define SPTRSV_SYNCFREE_RUN_BATCH 16 /* entries a lane loads at once at most (-mat_sptrsv_run_batch) */
/* a batch the runs kernel is instantiated for with R rows per lane: 4, 8 or SPTRSV_SYNCFREE_RUN_BATCH, at least
   min(SPTRSV_SYNCFREE_RUN_BATCH, 4 R) (the analysis's choice, SpTrsvSyncFreeRunBatch, and the CUDA launch's table) */
static inline PetscBool SpTrsvSyncFreeRunBatchValid(PetscInt B, PetscInt R)
{
  return (PetscBool)((B == 4 || B == 8 || B == SPTRSV_SYNCFREE_RUN_BATCH) && B >= PetscMin((PetscInt)SPTRSV_SYNCFREE_RUN_BATCH, 4 * R));
}
/* runs dispatch, -mat_sptrsv_blocks_per_sm -1 (automatic; CUDA setup): persistent blocks, k per multiprocessor, with k the
   smallest power of two from SPTRSV_SYNCFREE_RUN_RESIDENT_MIN that holds SPTRSV_SYNCFREE_RUN_RESIDENT_DEPTHS depths of the
   windows' DAG (nwarps / run_depth windows each) on all multiprocessors, when at most half the blocks of its kernel that fit
   on one; else one block per ticket (docs/PERFORMANCE.md, runs dispatch run 15: blocks that poll windows many depths
   ahead of the wavefront slow the ones at its front) */
#define SPTRSV_SYNCFREE_RUN_RESIDENT_DEPTHS 6
#define SPTRSV_SYNCFREE_RUN_RESIDENT_MIN    8
/* runs dispatch, -mat_sptrsv_block_warps 0 (automatic; CUDA setup): a block of two warps takes two windows per ticket
   where a depth of the windows' DAG holds at least SPTRSV_SYNCFREE_RUN_PAIR_WIDTH windows per multiprocessor, else one
   window per block (docs/PERFORMANCE.md, runs dispatch run 21: on wide wavefronts a window per block and per ticket
   bounds the windows a second the GPU starts, about 0.57e9 at 192^3 and 256^3; two per ticket took 256^3 from 0.91 to 0.66 ms
   and 192^3 from 0.40 to 0.36, and cost 1-6% where a depth holds 1-2 windows per multiprocessor) */
#define SPTRSV_SYNCFREE_RUN_PAIR_WIDTH 3
/* the automatic warps per block of the runs dispatch (-mat_sptrsv_block_warps 0) for nwin windows whose DAG has depth
   depth on a GPU of nsm multiprocessors: 2 where a depth holds SPTRSV_SYNCFREE_RUN_PAIR_WIDTH windows per multiprocessor
   or more, else 1 */
static inline PetscInt SpTrsvSyncFreeRunBlockWarps(PetscInt nwin, PetscInt depth, PetscInt nsm)
{
  return depth > 0 && nsm > 0 && (double)nwin >= SPTRSV_SYNCFREE_RUN_PAIR_WIDTH * (double)nsm * (double)depth ? 2 : 1;
}
/* runs dispatch, -mat_sptrsv_spin_ns -1 (automatic, the default): with every lane polling (-mat_sptrsv_run_poll all), the
   lanes of a waiting window sleep SPTRSV_SYNCFREE_RUN_SLEEP_NS between two poll rounds when the schedule's longest lane
   holds more than SPTRSV_SYNCFREE_RUN_SLEEP_ENTRIES entries, else poll without pause (with one lane polling, a pause
   was slower everywhere: -pl-s100 against -pl in run 17c) (docs/PERFORMANCE.md, runs dispatch run 17: every
   waiting lane polling 12 words of a 27-point row, or ILU(2)'s, fills the L2 with polls that delay the windows at the
   front of the wavefront: 50 ns between rounds took them from 1.98x to 3.35x and from 2.63x to 4.38x cuSPARSE SpSV;
   7-point rows, 3 entries, lose 5% with it). The level dispatch polls without pause. */
#define SPTRSV_SYNCFREE_RUN_SLEEP_NS      50
#define SPTRSV_SYNCFREE_RUN_SLEEP_ENTRIES 4
/* -mat_sptrsv_dispatch auto on the CUDA backend (SpTrsvSyncFreeAutoCheck in syncfree.c): the runs dispatch's windows are
   kept when its estimated time max(path x hop, windows x window) is below the level dispatch's max(levels x hop, entries x
   entry); the path counts the windows of the windows' critical path plus the longest lane's extra batches of loads (a
   lane loads its entries SPTRSV_SYNCFREE_RUN_BATCH at a time, one round trip each). The H200's figures (docs/PERFORMANCE.md,
   runs dispatch run 20): a window or level step on the critical path 0.5-1.3 us; 500000 windows of 2 rows in 0.57 ms
   (block-diagonal triangles of 8 rows), the level dispatch's 3.5e6 entries of the same in 0.063 ms */
#define SPTRSV_SYNCFREE_AUTO_HOP_NS    800.0
#define SPTRSV_SYNCFREE_AUTO_WINDOW_NS 1.1
#define SPTRSV_SYNCFREE_AUTO_ENTRY_NS  0.017

typedef struct {
  PetscBool device;          /* the schedule is built on the GPU by the CUDA executor's setup */
  PetscBool device_fallback; /* the device analysis was asked for but this variant runs on the host */
  PetscBool pattern_device;  /* runs with the device analysis: the windows from the host, the CUDA executor's pattern and schedule check on the GPU */
  PetscBool natural; /* rows in the triangle's own order (-mat_sptrsv_dispatch natural or runs) */
  PetscBool runs;    /* -mat_sptrsv_dispatch runs: warps are windows with their chain solved by a scan (natural is set too) */
  PetscBool dispatch_auto; /* the dispatch was the automatic one (-mat_sptrsv_dispatch auto): -ksp_view says so */
  PetscInt  auto_windows;  /* the automatic dispatch chose the level dispatch after the windows pass: the windows' critical path it found,
                              else 0 */
  PetscInt  auto_batches;  /* and the longest lane's extra batches of loads it added to that path */
  PetscInt  auto_nwin;     /* and, where the windows' number decided (their path shorter than the levels), the windows */
  double    auto_us[2];    /* and the estimated solve times, runs then level, in microseconds */
  PetscInt  run_rows;    /* runs: rows per lane R (the kernel's template), 32 R >= the longest window */
  PetscInt  run_rows_max; /* runs: windows of at most 32 run_rows_max rows (-mat_sptrsv_run_rows) */
  PetscInt  run_chained; /* runs: rows that take their chain entry from the row before them inside the window */
  PetscInt  run_depth;   /* runs: the longest path of the windows' DAG, in windows (the kernel's critical path) */
  PetscInt  run_lane_max; /* runs: strict entries of the lane with the most (a lane holds ceil(len / 32) consecutive rows of its window) */
  PetscInt  run_batch_req; /* runs, CUDA: -mat_sptrsv_run_batch (0: automatic) */
  PetscInt  run_batch;   /* runs, CUDA: entries a lane loads at once, 4, 8 or 16 (the kernel's template): the request, else the
                            smallest that holds run_lane_max entries, at least min(16, 4 run_rows) (SpTrsvSyncFreeRunBatch) */
  PetscBool alap;    /* levels as late as possible (-mat_sptrsv_levels alap) */
  PetscBool warpell; /* warp-packed ELL image (-mat_sptrsv_storage warpell) */
  PetscInt  nwarps;
  PetscInt *wstart;                            /* nwarps + 1 */
  int      *wlanes;                            /* nwarps: lanes per row K (1..32, a power of two), | SPTRSV_SYNCFREE_TAIL */
  PetscInt  max_lanes;                         /* lanes per row at most (-mat_sptrsv_max_lanes): K = min(pow2 >= len, max_lanes) */
  PetscInt  binrows[SPTRSV_SYNCFREE_NBINS];    /* rows in each bin */
  PetscInt  binwarps[SPTRSV_SYNCFREE_NBINS];   /* warps of each bin */
  PetscInt *ellmap;                            /* warpell: 32 nwarps, entry of op(T) in each slot or -1 */
  PetscInt  ell_filled;                        /* warpell: slots holding an entry */
  /* launch (CUDA): a waiting lane sleeps spin_ns nanoseconds between two polls (0: polls without pause), resolved from
     spin_ns_req (-mat_sptrsv_spin_ns; PETSC_DECIDE: automatic, SPTRSV_SYNCFREE_RUN_SLEEP_NS for the runs dispatch);
     blocks_per_sm > 0: that many blocks per multiprocessor take the warps in turn (persistent blocks, which
     bounds how many warps wait at once); 0: one block per ticket; PETSC_DECIDE: automatic (the runs dispatch by its
     wavefront, SPTRSV_SYNCFREE_RUN_RESIDENT_DEPTHS; the level dispatch one block per ticket); block_warps: the warps of a block (a ticket's
     windows or warps of rows, 1 to SPTRSV_SYNCFREE_WARPS), resolved from block_warps_req (-mat_sptrsv_block_warps; 0:
     automatic, 1 for the runs dispatch until its CUDA setup makes it 2 on a wide wavefront, SPTRSV_SYNCFREE_RUN_PAIR_WIDTH;
     SPTRSV_SYNCFREE_WARPS otherwise) */
  PetscInt  spin_ns, spin_ns_req, blocks_per_sm, block_warps, block_warps_req;
  PetscInt  blocks_per_sm_launch; /* CUDA: the blocks per multiprocessor its setup resolved (-1: automatic, not set up on
                                     the GPU yet; 0: one block per ticket): -ksp_view */
  /* runs dispatch (CUDA): how a waiting window polls (-mat_sptrsv_run_poll): every lane loads its missing words again
     each round (true, all: the default), or one lane spins on the latest word the warp waits for while the others wait
     at the warp barrier (false, lane) */
  PetscBool run_poll_all;
  /* relabel (CUDA, -mat_sptrsv_relabel true; auto: when it touches fewer sectors, see SpTrsvSyncFreeSectors()): the kernel publishes x_i in the word of row i's dispatch position k, and
     the column indices it reads are translated to positions at setup; the rows of one level then wait on adjacent
     words of the previous levels (coalesced polls) instead of words scattered over the row numbering */
  PetscBool  relabel;
  PetscBool  relabel_auto;             /* chosen by the analysis: relabel when sectors_pos < sectors_row */
  PetscInt64 sectors_row, sectors_pos; /* 32-byte sectors of every warp's first poll round, words by row / by position */
} SpTrsvSyncFreeSchedule;

#if defined(__CUDACC__)
  #define SPTRSV_SYNCFREE_HD __host__ __device__
#else
  #define SPTRSV_SYNCFREE_HD
#endif
/* bin of a row of len entries with at most maxK lanes per row: log2 of its lanes K = min(pow2 >= len, maxK),
   or SPTRSV_SYNCFREE_NBINS - 1 for a long row (more than 32 entries, maxK = 32): the one rule of the host and
   the device analyses */
static inline SPTRSV_SYNCFREE_HD int SpTrsvSyncFreeRowBin(PetscInt len, PetscInt maxK)
{
  int b = 0;
  if (len > 32 && maxK == 32) return SPTRSV_SYNCFREE_NBINS - 1;
  while (b < 5 && (1 << b) < len && (1 << b) < maxK) b++;
  return b;
}
/* lanes per row of bin b */
static inline SPTRSV_SYNCFREE_HD int SpTrsvSyncFreeBinLanes(int b)
{
  return b == SPTRSV_SYNCFREE_NBINS - 1 ? 32 : 1 << b;
}
/* rows per warp of bin b: 32 / K, one for a long row (both analyses cut each (level, bin) run into warps of these) */
static inline SPTRSV_SYNCFREE_HD int SpTrsvSyncFreeBinRowsPerWarp(int b)
{
  return b == SPTRSV_SYNCFREE_NBINS - 1 ? 1 : 32 / SpTrsvSyncFreeBinLanes(b);
}

/* runs dispatch, the arithmetic of its warp scan (the CUDA kernel SpTrsvSyncFreeRun and tests/unit/test_syncfree.c's
   emulation of it): a lane, or a scan step, holds the affine map x -> C + M x of the rows it has composed, K set when
   the map ignores its argument (it starts at a row without its chain entry). Row k's map is x -> c + m x when the row
   depends on the row before it (chained), else the constant c: never multiplied by the x before it, so a NaN or Inf
   there reaches no row that does not depend on it (as in the substitution; m = -0 times a NaN would be a NaN) */
static inline SPTRSV_SYNCFREE_HD PetscScalar SpTrsvSyncFreeRunApply(PetscScalar x, PetscScalar c, PetscScalar m, int chained)
{
  return chained ? c + m * x : c;
}
/* the row's x from the x before it, the substitution's arithmetic: (s - a x) d for a row with its chain entry a (s: b
   minus the products of its other entries, d: its inverted diagonal, 1 for a unit triangle), s d for one without. The
   scan carries the maps' values only to the lanes' ends; each row's own x is computed so, where c + m x would round
   s d and a d x apart in a triangle with a diagonal and lose the digits they cancel (the same in a unit triangle, d = 1).
   What stays re-associated is the scan's: the x a lane starts from, composed from the chain's maps (the limit in the
   kernel's comment, src/cuda/paths/syncfree/syncfree_runs.cuh) */
static inline SPTRSV_SYNCFREE_HD PetscScalar SpTrsvSyncFreeRunRow(PetscScalar x, PetscScalar s, PetscScalar a, PetscScalar d, int chained, int unit)
{
  const PetscScalar r = chained ? s - a * x : s;
  return unit ? r : r * d;
}
/* the M and the K of the row's map after (C, M, K): the factor's alone, never x's (the CUDA kernel composes them before
   its waits end, SpTrsvSyncFreeRunMultipliers); a row without its chain entry gives M = 0, not m M (m times an Inf) */
static inline SPTRSV_SYNCFREE_HD PetscScalar SpTrsvSyncFreeRunAppendM(PetscScalar M, PetscScalar m, int chained)
{
  return chained ? m * M : (PetscScalar)0;
}
static inline SPTRSV_SYNCFREE_HD int SpTrsvSyncFreeRunAppendK(int K, int chained)
{
  return K || !chained;
}
/* (C, M, K) := the row's map after (C, M, K) */
static inline SPTRSV_SYNCFREE_HD void SpTrsvSyncFreeRunAppend(PetscScalar *C, PetscScalar *M, int *K, PetscScalar c, PetscScalar m, int chained)
{
  *C = SpTrsvSyncFreeRunApply(*C, c, m, chained);
  *M = SpTrsvSyncFreeRunAppendM(*M, m, chained);
  *K = SpTrsvSyncFreeRunAppendK(*K, chained);
}
/* (C, M, K) := (C, M, K) after (Cp, Mp, Kp), the map of the rows before it */
static inline SPTRSV_SYNCFREE_HD void SpTrsvSyncFreeRunAfter(PetscScalar *C, PetscScalar *M, int *K, PetscScalar Cp, PetscScalar Mp, int Kp)
{
  if (!*K) {
    *C = *C + *M * Cp;
    *M = *M * Mp;
    *K = Kp;
  }
}

/* position of row j in the triangle's own order (natural and runs dispatch; the map is its own inverse) */
static inline PetscInt SpTrsvSyncFreeNaturalPos(const SpTrsvOp *op, PetscInt j)
{
  return op->lower ? j : op->n - 1 - j;
}
SPTRSV_INTERN int            SpTrsvSyncFreeLanes(PetscInt);
SPTRSV_INTERN int            SpTrsvSyncFreeRowLanes(PetscInt, PetscInt);
SPTRSV_INTERN PetscErrorCode SpTrsvSyncFreeScheduleCheck(const SpTrsvOp *, SpTrsvPlan);
/* the warp-packed ELL image of nwarps warps (32 slots each) fits the kernels' 32-bit slot indices, else an error
   naming -mat_sptrsv_storage csr; both analyses (host and device) call it before allocating the image */
SPTRSV_INTERN PetscErrorCode SpTrsvSyncFreeCheckELL(PetscInt64);
SPTRSV_INTERN PetscErrorCode SpTrsvSyncFreeScheduleView(SpTrsvPlan, PetscViewer); /* syncfree_view.c: the plan's -ksp_view */
/* the relabel decision of both analyses from sf's sector counts (auto; else the recorded choice stands), and the host
   analysis of what a plan left to the device analysis asks for: the reference of the device check */
SPTRSV_INTERN void           SpTrsvSyncFreeRelabelDecide(SpTrsvSyncFreeSchedule *);
SPTRSV_INTERN PetscErrorCode SpTrsvSyncFreeAnalyzeHostOf(const SpTrsvOp *, SpTrsvPlan, SpTrsvPlan *);
/* the sync-free path's own options (SpTrsvPathOptions; read by its parser, SpTrsvOptionsSet_syncfree) */
#define SPTRSV_RELABEL_AUTO (-1)
typedef struct {
  PetscBool alap;            /* as-late-as-possible levels (-mat_sptrsv_levels alap) */
  PetscBool warpell;         /* warp-packed ELL storage (-mat_sptrsv_storage warpell) */
  PetscBool natural;         /* rows dispatched in the triangle's own order, not by level (-mat_sptrsv_dispatch natural) */
  PetscBool runs;            /* natural order in windows, the chain inside a window solved by a warp scan (-mat_sptrsv_dispatch runs) */
  PetscBool dispatch_auto;   /* -mat_sptrsv_dispatch auto (the default): the runs dispatch on the CUDA backend, the level dispatch on the
                                host and with ALAP levels or the warp-packed ELL; resolved for a solver's backend (SpTrsvOptionsBackend_syncfree) */
  PetscInt  run_rows;        /* runs: rows per lane at most, 1, 2, 4 or 8 (-mat_sptrsv_run_rows): windows of up to 32 times as many rows */
  PetscBool run_poll_all;    /* runs, CUDA: every waiting lane polls its own words (-mat_sptrsv_run_poll all), else one lane the latest (lane) */
  PetscInt  run_batch;       /* runs, CUDA: entries a lane loads at once, 4, 8 or 16 (-mat_sptrsv_run_batch; 0: automatic, the smallest that holds the longest lane's entries) */
  PetscInt  max_lanes;       /* at most this many lanes per row (-mat_sptrsv_max_lanes; longer rows loop) */
  PetscInt  spin_ns;         /* CUDA: nanoseconds a waiting lane sleeps between two polls (-mat_sptrsv_spin_ns; 0: spin; PETSC_DECIDE: automatic, by the runs dispatch's lanes) */
  PetscInt  blocks_per_sm;   /* CUDA: persistent blocks per SM (-mat_sptrsv_blocks_per_sm; 0: one block per ticket; PETSC_DECIDE: automatic, by the runs dispatch's wavefront, else 0) */
  PetscInt  block_warps;     /* CUDA: warps per block, 1, 2 or 4 (-mat_sptrsv_block_warps; 0: 1 for the runs dispatch, 4 otherwise) */
  PetscInt  relabel;         /* CUDA: the published solution indexed by dispatch position (1), by row (0), or chosen by the analysis (SPTRSV_RELABEL_AUTO) (-mat_sptrsv_relabel) */
  PetscBool analysis_device; /* CUDA: build the schedule on the GPU (-mat_sptrsv_analysis device); off on other backends */
} SpTrsvSyncFreeOptions;
SPTRSV_PATH_DECLARE(syncfree);

#if defined(PETSC_SPTRSV_HAVE_CUDA)
/* the schedule a CUDA sync-free solver runs, downloaded for the device check (check_analysis.c): nwarps, order, ptr,
   idx (pattern in dispatch order), wstart, wlanes, with warpell the ELL column of each slot (-1: empty) and the slot
   of the pattern its value comes from (-1: empty), and the value map of the pattern (the index in the rows of op(T)
   of each slot's value; NULL when the values were uploaded in dispatch order: a host-built schedule); PetscMalloc'ed,
   freed by the caller with PetscFree */
SPTRSV_INTERN PetscErrorCode SpTrsvCUDASyncFreeGetSchedule(SpTrsvSolver, PetscInt *, int **, int **, int **, int **, int **, int **, int **, int **);
#endif
