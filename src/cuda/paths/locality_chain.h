/* the locality path's chain kernel (locality_chain.cu), called by its CUDA executor (locality.cu); private */
#pragma once
#include "../device_tri.h"

PetscErrorCode SpTrsvCUDALocalityChainSetup(SpTrsvSolver); /* the whole setup of a triangle whose plan runs the chain kernel */
PetscErrorCode SpTrsvCUDALocalityChainPack(SpTrsvSolver);  /* the window from the values on the device (after a refresh) */
