/* The sync-free path's analysis on the GPU (syncfree_analysis.cu), for its CUDA executor (syncfree.cu); C++ only */
#pragma once
#include <sptrsv/paths/syncfree.h>
#include "../../device_tri.h"

/* the schedule of op(T) built on the device: order, ptr, idx, vmap (the pattern in dispatch order and its value
   map), wstart, wlanes and, with warpell, ellidx and ellpos; device arrays the caller owns. plan->nlevels,
   plan->stats and the figures of plan->data (nwarps, bins, ell_filled) are set on the host. */
PETSC_INTERN PetscErrorCode SpTrsvSyncFreeAnalyzeDevice(const SpTrsvOp *, SpTrsvPlan, cudaStream_t, int **, int **, int **, int **, int **, int **, int **, int **);

/* the runs dispatch (syncfree_runs_setup.cu): for the host's windows (device copies of sf->wstart, sf->wlanes), the
   pattern in the triangle's own order with positions for columns, each row sorted by position (order, ptr, idx, vmap:
   device arrays the caller owns), after the schedule check on the device */
PETSC_INTERN PetscErrorCode SpTrsvSyncFreeRunsPatternDevice(const SpTrsvOp *, const SpTrsvSyncFreeSchedule *, const int *, const int *, cudaStream_t, int **, int **, int **, int **);
