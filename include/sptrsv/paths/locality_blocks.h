/* The locality path's blocks kernel on the host (src/mat/paths/locality/locality_blocks.c; private to the plugin) */
#pragma once
#include <sptrsv/registry.h>
#include <sptrsv/paths/partition.h>

/* the host executor of the blocks kernel (locality_blocks.c), for the solver's plan, its chain and its blocks (the
   numeric phase writes the check's figures into the blocks) */
SPTRSV_INTERN PetscErrorCode SpTrsvHostLocalityBlocksSetup(SpTrsvSolver, const SpTrsvLocalityChain *, SpTrsvLocalityBlocks *);
SPTRSV_INTERN PetscErrorCode SpTrsvHostLocalityBlocksUpdate(SpTrsvSolver, SpTrsvLocalityBlocks *);
SPTRSV_INTERN PetscErrorCode SpTrsvHostLocalityBlocksSolve(SpTrsvSolver, const SpTrsvLocalityChain *, const SpTrsvLocalityBlocks *, const PetscScalar *, PetscScalar *);
SPTRSV_INTERN PetscErrorCode SpTrsvHostLocalityBlocksDestroy(SpTrsvSolver);
