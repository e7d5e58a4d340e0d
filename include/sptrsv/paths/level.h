/* The level path's schedule (plan->data of sptrsv_level): shared by its analysis (src/mat/paths/level/level.c)
   and its CUDA executor (src/cuda/paths/level/level.cu) (private to the plugin) */
#pragma once
#include <sptrsv/registry.h>
#include <sptrsv/segments.h> /* its plan->data: SpTrsvLevelSchedule, the segments over its levels */

SPTRSV_INTERN PetscErrorCode SpTrsvLevelScheduleCheck(SpTrsvPlan, PetscInt);
/* the level path's own options (SpTrsvPathOptions; read by its parser, SpTrsvOptionsSet_level) */
typedef struct {
  PetscInt fuse_passes; /* CUDA: fuse a level into one block when it takes at most this many passes (-mat_sptrsv_fuse_passes; 1) */
} SpTrsvLevelOptions;

/* paper 000 (level and element scheduling), cited by both paths */
SPTRSV_INTERN const char SpTrsvCitationLi2020[];
SPTRSV_INTERN PetscBool  SpTrsvCitedLi2020;
SPTRSV_PATH_DECLARE(level);
