/* Host executors: the pieces every path's host executor runs (private to the plugin).

   A host executor runs the rows of op(T) one at a time in the plan's order, order[0..n-1]: for a level
   plan level after level, for a sync-free plan in its dispatch order (checked by the path's setup to put
   every dependency first), so the host runs the same schedule as the GPU, one row at a time. It is the
   reference every GPU kernel is checked against, and what runs when there is no GPU. */
#pragma once
#include <sptrsv/registry.h>

SPTRSV_INTERN PetscErrorCode SpTrsvHostOrderedSetup(SpTrsvSolver);
SPTRSV_INTERN PetscErrorCode SpTrsvHostOrderedUpdateValues(SpTrsvSolver);
SPTRSV_INTERN PetscErrorCode SpTrsvHostOrderedSolve(SpTrsvSolver, const PetscScalar *, PetscScalar *);
SPTRSV_INTERN PetscErrorCode SpTrsvHostOrderedSweep(SpTrsvSolver, const PetscScalar *, const PetscScalar *, PetscScalar *);
SPTRSV_INTERN PetscErrorCode SpTrsvHostOrderedDestroy(SpTrsvSolver);
