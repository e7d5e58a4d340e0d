/* the locality path's chain kernel (locality_chain.cu), called by its CUDA executor (locality.cu); private */
#pragma once
#include "../../device_tri.h"

PetscErrorCode SpTrsvCUDALocalityChainSetup(SpTrsvSolver); /* the whole setup of a triangle whose plan runs the chain kernel */
PetscErrorCode SpTrsvCUDALocalityChainPack(SpTrsvSolver);  /* the window from the values on the device (after a refresh) */

#include <type_traits>
/* host: f(G, A) (std::integral_constant) for a window (chain kernel) or a block (blocks kernel) of W rows, W a power of
   two from 2 to SPTRSV_CHAIN_MAX_WIDTH: G = min(W, 32) lanes per group, A = W / G accumulators per lane; the kernels'
   instances in one place */
template <class F>
static inline void SpTrsvWithWindow(int W, F f)
{
  using std::integral_constant;
  switch (W) {
  case 2:
    f(integral_constant<int, 2>(), integral_constant<int, 1>());
    break;
  case 4:
    f(integral_constant<int, 4>(), integral_constant<int, 1>());
    break;
  case 8:
    f(integral_constant<int, 8>(), integral_constant<int, 1>());
    break;
  case 16:
    f(integral_constant<int, 16>(), integral_constant<int, 1>());
    break;
  case 32:
    f(integral_constant<int, 32>(), integral_constant<int, 1>());
    break;
  case 64:
    f(integral_constant<int, 32>(), integral_constant<int, 2>());
    break;
  default:
    f(integral_constant<int, 32>(), integral_constant<int, 4>());
  }
}
