/* The level path's schedule (plan->data of sptrsv_level): shared by its analysis (src/mat/paths/level.c)
   and its CUDA executor (src/cuda/paths/level.cu) (private to the plugin) */
#pragma once
#include <sptrsv/path.h>
#include <sptrsv/segments.h> /* its plan->data: SpTrsvLevelSchedule, the segments over its levels */

SPTRSV_INTERN PetscErrorCode SpTrsvLevelScheduleCheck(SpTrsvPlan, PetscInt);
SPTRSV_PATH_DECLARE(level);
