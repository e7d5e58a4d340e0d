/* The value gathers of PC gs on the GPU, shared by both orderings (private to the CUDA sources; defined in
   gs_values.cu): the multicolor storage (gs_multicolor.cu) and the exact ordering's L, U and inverse diagonal
   (gs_exact.cu) read a matrix's device value array through index maps made once per pattern.

   - SpTrsvCUDALaunchGSGather: val[q] = a[map[q]] for q < nnz; a NaN/Inf value sets *flag to 1.
   - SpTrsvCUDALaunchGSInvDiag: idiag[k] = 1 / a[dmap[k]] when plain (omega = 1 and shift <= 0, MatSOR's rule: the
     shift is not added), else omega / (a[dmap[k]] + shift); a NaN/Inf diagonal or inverse diagonal entry, or a zero
     diagonal entry when plain, sets *flag to 1 (the caller then redoes the refresh on the host, which names the row,
     see SpTrsvGSDiagonal() in src/mat/gs/gs.c).
   Both only enqueue on st; *flag is device memory the caller zeroes before and reads after.
*/
#pragma once
#include "cuda_check.h"

cudaError_t  SpTrsvCUDALaunchGSGather(int, const int *, const PetscScalar *, PetscScalar *, int *, cudaStream_t);
cudaError_t  SpTrsvCUDALaunchGSInvDiag(int, const int *, const PetscScalar *, PetscScalar *, PetscReal, PetscReal, int, int *, cudaStream_t);
