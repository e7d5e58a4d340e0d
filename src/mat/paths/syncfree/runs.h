/* the runs dispatch's windows pass (runs.c), for the sync-free path's analysis (syncfree.c) */
#pragma once
#include <sptrsv/paths/syncfree.h>

SPTRSV_INTERN PetscErrorCode SpTrsvSyncFreePackRuns(const SpTrsvOp *, SpTrsvPlan, SpTrsvSyncFreeSchedule *); /* with the plan's statistics */
SPTRSV_INTERN PetscErrorCode SpTrsvSyncFreePackRunsPair(const SpTrsvOp *, SpTrsvPlan, SpTrsvSyncFreeSchedule *, const SpTrsvOp *, SpTrsvPlan, SpTrsvSyncFreeSchedule *);
