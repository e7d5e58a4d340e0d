/* The level path's schedule (plan->data of sptrsv_level): shared by its analysis (src/mat/paths/level.c)
   and its CUDA executor (src/cuda/paths/level.cu) (private to the plugin) */
#pragma once
#include <sptrsv/path.h>

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

SPTRSV_INTERN int            SpTrsvLanesPerRow(PetscReal);
SPTRSV_INTERN PetscErrorCode SpTrsvLevelScheduleCheck(SpTrsvPlan, PetscInt);
/* the same segments over any ranges of positions (nlevels, levptr, order or NULL, ptr, fuse_passes): shared with the
   partitioned-inverse path, whose "levels" are its parts */
SPTRSV_INTERN PetscErrorCode SpTrsvLevelSegmentsBuild(PetscInt, const PetscInt *, const PetscInt *, const PetscInt *, PetscInt, SpTrsvLevelSchedule *);
SPTRSV_INTERN PetscErrorCode SpTrsvLevelSegmentsCheck(PetscInt, const PetscInt *, const SpTrsvLevelSchedule *, PetscInt);
/* the level path's own options (SpTrsvPathOptions; read by its parser, SpTrsvOptionsSet_level) */
typedef struct {
  PetscInt fuse_passes; /* CUDA: fuse a level into one block when it takes at most this many passes (-mat_sptrsv_fuse_passes; 1) */
} SpTrsvLevelOptions;

/* paper 000 (level and element scheduling), cited by both paths */
SPTRSV_INTERN const char SpTrsvCitationLi2020[];
SPTRSV_INTERN PetscBool  SpTrsvCitedLi2020;
SPTRSV_PATH_DECLARE(level);
