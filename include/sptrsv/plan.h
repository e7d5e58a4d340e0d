/* SpTrsvPlan: a backend-neutral schedule of one oriented triangle (private to the plugin) */
#pragma once
#include <sptrsv/tri.h>

typedef enum {
  SPTRSV_PLAN_LEVEL,   /* rows ordered by level set, one barrier per level */
  SPTRSV_PLAN_ELEMENT, /* rows dispatched one by one in level order, each waits only for its own dependencies */
  SPTRSV_PLAN_NTYPES
} SpTrsvPlanType;
SPTRSV_INTERN const char *const SpTrsvPlanTypes[];

/*
   What to do, not how. Every plan carries the level structure (all paths use it: for ordering,
   statistics, or dispatch) and may carry path-specific data.
*/
typedef struct _n_SpTrsvPlan *SpTrsvPlan;
struct _n_SpTrsvPlan {
  SpTrsvPlanType type;
  PetscInt       n;
  PetscInt       nlevels;
  PetscInt      *levptr; /* nlevels+1: rows of level l are order[levptr[l] .. levptr[l+1]-1] */
  PetscInt      *order;  /* rows sorted by level, ascending row index inside a level */
  PetscInt      *level;  /* level of each row, 0-based */
  SpTrsvStats    stats;
  void          *data; /* path-specific part */
  PetscErrorCode (*destroydata)(SpTrsvPlan);
};

SPTRSV_INTERN PetscErrorCode SpTrsvLevelsCompute(PetscInt, const PetscInt *, const PetscInt *, PetscBool, PetscInt *, PetscInt *);
SPTRSV_INTERN PetscErrorCode SpTrsvLevelsSort(PetscInt, const PetscInt *, PetscInt, PetscInt **, PetscInt *);
SPTRSV_INTERN PetscErrorCode SpTrsvPlanCreate(const SpTrsvOp *, SpTrsvPlanType, SpTrsvPlan *);
SPTRSV_INTERN PetscErrorCode SpTrsvPlanCreateLevel(const SpTrsvOp *, SpTrsvPlan *);
SPTRSV_INTERN PetscErrorCode SpTrsvPlanCreateElement(const SpTrsvOp *, SpTrsvPlan *);
SPTRSV_INTERN PetscErrorCode SpTrsvPlanCheckDispatchOrder(const SpTrsvOp *, SpTrsvPlan);
SPTRSV_INTERN PetscErrorCode SpTrsvPlanDestroy(SpTrsvPlan *);
SPTRSV_INTERN PetscErrorCode SpTrsvPlanView(SpTrsvPlan, PetscViewer);
