/* Warp packing of a dispatch order (src/mat/analysis/warps.c), shared by the paths that solve several rows per
   warp: sptrsv_syncfree (paper 001) and sptrsv_element with lanes per row (paper 000's ELMR/ELMC) (private to
   the plugin) */
#pragma once
#include <sptrsv/plan.h>

/*
   A warp of 32 lanes solves r consecutive rows of the dispatch order with K lanes each (K a power of two,
   r K <= 32): lane g K + e works on entry e of row g (and every K-th one after it for a row longer than K).
   K is the smallest power of two >= the longest row of the warp, at least minK and at most maxK (rows longer
   than maxK loop over their entries). SpTrsvWarpPack cuts a run of positions greedily: consecutive rows join
   the current warp while they fit.
*/
SPTRSV_INTERN int            SpTrsvWarpRowLanes(PetscInt, PetscInt, PetscInt); /* len, minK, maxK: lanes of one row */
SPTRSV_INTERN PetscBool      SpTrsvWarpLanesValid(PetscInt);                    /* 1, 2, 4, 8, 16 or 32 */
SPTRSV_INTERN PetscErrorCode SpTrsvWarpPack(const SpTrsvOp *, const PetscInt *, PetscInt, PetscInt, PetscInt, PetscInt, PetscInt *, PetscInt *, int *);
