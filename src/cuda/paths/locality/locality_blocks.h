/* the locality path's blocks kernel (locality_blocks.cu), called by its CUDA executor (locality.cu); private */
#pragma once
#include "../../device_tri.h"

PetscErrorCode SpTrsvCUDALocalityBlocksSetup(SpTrsvSolver);   /* the whole setup of a triangle whose plan runs the blocks kernel */
PetscErrorCode SpTrsvCUDALocalityBlocksNumeric(SpTrsvSolver); /* the inverted blocks from the values on the device (after a refresh) */
