/* The element path's schedule (plan->data of sptrsv_element): shared by its analysis
   (src/mat/paths/element.c) and its CUDA executor (src/cuda/paths/element.cu) (private to the plugin) */
#pragma once
#include <sptrsv/path.h>

/* warps per block of the element kernels: a block takes one ticket, i.e. this many consecutive warps */
#define SPTRSV_ELEMENT_WARPS 8

/*
   Lanes per row (issue 12): the rows of each level, in the dispatch order (level by level, by index inside a
   level), are packed into warps (SpTrsvWarpPack, include/sptrsv/warps.h): warp w solves the consecutive positions
   wstart[w] .. wstart[w+1]-1, all of one level, with K = wlanes[w] lanes per row (a power of two >= the longest
   row of the warp, at least 32 / rows_per_warp, at most max_lanes; longer rows loop over their entries). With
   rows_per_warp = 1 every row has a warp of 32 lanes: the one-row-per-warp kernel of paper 000.
*/
typedef struct {
  /* per dispatch position k (row order[k]) of op(T) read in the plan's format:
     CSR: offset, inside row order[k] of op(T), of its critical dependency (the one dispatched last;
          -1 for a row without dependencies); the group's first lane spins on it;
     CSC: the number of dependencies of row order[k] (entries of its row of op(T)) */
  PetscInt *aux;
  PetscBool csc;
  PetscInt  max_lanes, rows_per_warp; /* -mat_sptrsv_element_lanes, -mat_sptrsv_element_rows_per_warp */
  PetscInt  nwarps;
  PetscInt *wstart; /* nwarps + 1 */
  int      *wlanes; /* nwarps: lanes per row K (1..32, a power of two) */
} SpTrsvElementSchedule;

SPTRSV_INTERN PetscErrorCode SpTrsvElementScheduleCheck(const SpTrsvOp *, SpTrsvPlan);
SPTRSV_PATH_DECLARE(element);
