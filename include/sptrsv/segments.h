/* Launch segments over ranges of positions: the launch geometry of a schedule that solves ranges of rows one after the
   other (the level path's levels, the partitioned inverse's parts), built and checked by src/mat/analysis/segments.c
   (private to the plugin) */
#pragma once
#include <sptrsv/plan.h>

/*
   Launch geometry, decided by the analysis (paper 000, Naumov's fusion).
   - A level whose rows x lanes take at most fuse_passes passes of one block of SPTRSV_LEVEL_FUSED_MAX_THREADS
     threads is "small": latency-bound, one block on one SM finishes it in about the time of a launch.
     Runs of consecutive small levels are fused into one single-block segment, a barrier between levels.
   - Larger levels get a segment of their own: SPTRSV_LEVEL_BLOCK-thread blocks, one group of K lanes per row.
   - K (lanes per row, 2..32, a power of two) is chosen per level from its mean row length (rows of op(T)
     for CSR, its columns for CSC).
*/
#define SPTRSV_LEVEL_FUSED_MAX_THREADS 1024
#define SPTRSV_LEVEL_BLOCK             256

typedef enum {
  SPTRSV_LEVEL_SEG_FUSED, /* levels [l0, l1) in one block, a barrier between them */
  SPTRSV_LEVEL_SEG_LEVEL  /* one level, a grid of blocks */
} SpTrsvLevelSegKind;

/* one kernel launch of the solve */
typedef struct {
  SpTrsvLevelSegKind kind;
  int                l0, l1;       /* levels [l0, l1) */
  int                start, nrows; /* rows order[start .. start+nrows-1] */
  int                K;            /* SEG_LEVEL: lanes per row */
  int                block;        /* threads per block */
  unsigned int       grid;         /* blocks (1 for SEG_FUSED) */
} SpTrsvLevelSegment;

typedef struct {
  PetscInt            nseg;
  SpTrsvLevelSegment *seg;  /* the launch sequence */
  int                *levK; /* nlevels: lanes per row of each level */
} SpTrsvLevelSchedule;

/* lanes per row for a mean row length: the smallest power of two >= mean, clamped to 2..32 */
SPTRSV_INTERN int            SpTrsvLanesPerRow(PetscReal);
/* the segments over ranges of positions (nlevels, levptr, order or NULL, ptr, fuse_passes) and their check (nlevels,
   levptr, segments, fuse_passes): the ranges are the level path's levels or the partitioned inverse's parts */
SPTRSV_INTERN PetscErrorCode SpTrsvLevelSegmentsBuild(PetscInt, const PetscInt *, const PetscInt *, const PetscInt *, PetscInt, SpTrsvLevelSchedule *);
SPTRSV_INTERN PetscErrorCode SpTrsvLevelSegmentsCheck(PetscInt, const PetscInt *, const SpTrsvLevelSchedule *, PetscInt);
