/* SpTrsvPlan: a backend-neutral schedule of one oriented triangle (private to the plugin) */
#pragma once
#include <sptrsv/tri.h>

/* a registry entry (include/sptrsv/registry.h): the path whose analysis made a plan */
typedef const struct _n_SpTrsvPath *SpTrsvPath;

/*
   What to do, not how. Every plan carries the level structure (all paths use it: for ordering,
   statistics, or dispatch) and may carry path-specific data (plan->data, made by the path's analysis,
   freed by destroydata, printed by the path's view).
*/
typedef struct _n_SpTrsvPlan *SpTrsvPlan;
struct _n_SpTrsvPlan {
  SpTrsvPath  path;     /* set by SpTrsvPlanCreate() */
  const char *pathname; /* its name (path->name), set by SpTrsvPlanCreate(): the view's first line */
  char        prefix[64]; /* the options' prefix (SpTrsvPathOptions), set by SpTrsvPlanCreate(): views name options with it */
  PetscInt    n;
  PetscInt    nlevels;
  PetscInt   *levptr; /* nlevels+1: rows of level l are order[levptr[l] .. levptr[l+1]-1] */
  PetscInt   *order;  /* rows in schedule order (by level for level plans; the dispatch order of sync-free plans) */
  PetscInt   *level;  /* level of each row, 0-based */
  PetscBool   level_asap; /* level holds every row's ASAP level of the plan's op (SpTrsvLevelsCompute()'s): another setup of the
                             same triangle may take them (the GPU ILU's level order, SpTrsvFactorILUDeviceSetUp()) */
  SpTrsvStats stats;
  void       *data; /* path-specific part */
  PetscErrorCode (*destroydata)(SpTrsvPlan);
  PetscErrorCode (*view)(SpTrsvPlan, PetscViewer); /* path-specific lines (optional) */
};

SPTRSV_INTERN PetscErrorCode SpTrsvLevelsCompute(PetscInt, const PetscInt *, const PetscInt *, PetscBool, PetscInt *, PetscInt *);
SPTRSV_INTERN PetscErrorCode SpTrsvLevelsALAP(PetscInt, const PetscInt *, const PetscInt *, PetscBool, PetscInt, PetscInt *);
SPTRSV_INTERN PetscErrorCode SpTrsvLevelsSort(PetscInt, const PetscInt *, PetscInt, PetscInt **, PetscInt *);
SPTRSV_INTERN PetscErrorCode SpTrsvPlanCreateLevels(const SpTrsvOp *, PetscBool, SpTrsvPlan *);
SPTRSV_INTERN PetscErrorCode SpTrsvPlanCreateLevelSets(const SpTrsvOp *, SpTrsvPlan *);
SPTRSV_INTERN PetscErrorCode SpTrsvPlanComputeStats(const SpTrsvOp *, SpTrsvPlan);
SPTRSV_INTERN void           SpTrsvPlanCountStats(const SpTrsvOp *, SpTrsvPlan, PetscInt *, PetscInt *, PetscInt *); /* plain C: cnt (nlevels + 1), widest level (NULL: not counted), longest row */
SPTRSV_INTERN PetscErrorCode SpTrsvPlanSetStats(const SpTrsvOp *, SpTrsvPlan, PetscInt, PetscInt);
SPTRSV_INTERN PetscErrorCode SpTrsvPlanCheckDispatchOrder(const SpTrsvOp *, SpTrsvPlan);
SPTRSV_INTERN PetscErrorCode SpTrsvPlanCreateRows(PetscInt, SpTrsvPlan *); /* n rows, order and level allocated */
SPTRSV_INTERN PetscErrorCode SpTrsvPlanDestroy(SpTrsvPlan *);
SPTRSV_INTERN PetscErrorCode SpTrsvPlanView(SpTrsvPlan, PetscViewer);
