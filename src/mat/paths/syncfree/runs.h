/* the runs dispatch's windows pass (runs.c): a triangle cut into windows, for the sync-free path's analysis (syncfree.c) */
#pragma once
#include <sptrsv/tri.h>
#include <sptrsv/plan.h>

/* a row not chained to the one before it opens a window when the window continues a chain or holds this many rows */
#define SPTRSV_RUNS_MIN 16

/* the windows of a triangle (SpTrsvRunsPack()): rows_max given, the rest its result */
typedef struct {
  PetscInt  rows_max;                          /* windows of at most 32 rows_max rows (-mat_sptrsv_run_rows) */
  PetscInt *wstart;                            /* nw + 1 (n + 1 allocated, PetscMalloc2 with wlanes, the caller's): the first position of each window in dispatch order, n last */
  int      *wlanes;                            /* nw: each window's rows */
  PetscInt  nw, depth, chained, rows, lane_max; /* the windows, the depth of their DAG, the rows chained to the row before them, the rows per lane R (a power of two, 32 R >= the longest window), the entries of the longest lane */
} SpTrsvRunsWindows;

SPTRSV_INTERN PetscErrorCode SpTrsvRunsPack(const SpTrsvOp *, SpTrsvPlan, SpTrsvRunsWindows *); /* with the plan's order, levels and statistics */
SPTRSV_INTERN PetscErrorCode SpTrsvRunsPackPair(const SpTrsvOp *, SpTrsvPlan, SpTrsvRunsWindows *, const SpTrsvOp *, SpTrsvPlan, SpTrsvRunsWindows *);
