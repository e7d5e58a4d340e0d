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

/* both device setups (syncfree_analysis.cu, syncfree_runs_setup.cu) launch one thread per item, in blocks of this size */
#define SPTRSV_SYNCFREE_SETUP_BLOCK 256

static inline unsigned int SpTrsvSyncFreeSetupGrid(PetscInt n)
{
  return (unsigned int)((n + SPTRSV_SYNCFREE_SETUP_BLOCK - 1) / SPTRSV_SYNCFREE_SETUP_BLOCK);
}

/* a row's entries by ascending position, its value map along: a monotone row (the triangle's own order of a sorted CSR
   row: ascending in L, descending in U) in one pass, any other by insertion. The host setup of the runs dispatch
   (syncfree.cu, value map PetscInt) and the device's (syncfree_runs_setup.cu, int) sort with this one function, so that
   the device check (tests/device/check_analysis.c) finds their arrays bit for bit */
template <typename Map>
__host__ __device__ inline void SpTrsvSyncFreeSortRow(int *idx, Map *vmap, int len)
{
  bool up = true, down = true;

  for (int e = 1; e < len; e++) {
    up   = up && idx[e - 1] < idx[e];
    down = down && idx[e - 1] > idx[e];
  }
  if (up) return;
  if (down) {
    for (int a = 0, b = len - 1; a < b; a++, b--) {
      const int j = idx[a];
      const Map m = vmap[a];
      idx[a]      = idx[b];
      vmap[a]     = vmap[b];
      idx[b]      = j;
      vmap[b]     = m;
    }
    return;
  }
  for (int e = 1; e < len; e++) {
    const int j = idx[e];
    const Map m = vmap[e];
    int       a = e;
    for (; a > 0 && idx[a - 1] > j; a--) {
      idx[a]  = idx[a - 1];
      vmap[a] = vmap[a - 1];
    }
    idx[a]  = j;
    vmap[a] = m;
  }
}
