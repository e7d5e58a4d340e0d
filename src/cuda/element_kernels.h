/* Element-scheduled (synchronization-free) triangular-solve kernels (paper 000: ELMR / ELMC) and their
   launcher (private to the CUDA backend; C++, included by .cu files only) */
#pragma once
#include "level_kernels.h"

/* warps per block of the element kernels: a block takes one ticket, i.e. this many consecutive rows */
#define SPTRSV_CUDA_ELEMENT_WARPS 8

/* per-solver device state of the element path; the flags and counters are never reset (epochs) */
typedef struct {
  const int          *aux;    /* n, schedule order. CSR: slot in idx[] of the row's critical dependency (the
                                 one dispatched last), -1 for an empty row. CSC: the row's number of dependencies */
  unsigned int       *flag;   /* n, natural row index. CSR: epoch of the solve that finished the row. CSC: count
                                 of dependencies applied, over all solves so far (mod 2^32) */
  PetscScalar        *acc;    /* CSC: n accumulators of the pushed updates, natural index, zero between solves */
  unsigned long long *ticket; /* dispatch counter: advances by nblocks per launch */
  int                 nblocks;
} SpTrsvCUDAElement;

/* enqueue a solve (or a sweep, as SpTrsvCUDALaunchSolve) with element scheduling; vp as there */
cudaError_t SpTrsvCUDALaunchElement(const SpTrsvCUDATri *t, const SpTrsvCUDAElement *e, PetscBool csc, PetscBool unit, PetscBool sweep, PetscInt n, SpTrsvCUDAVecPtrs v, PetscScalar *w, const SpTrsvCUDAVecPtrs *vp, cudaStream_t stream);
PetscInt    SpTrsvCUDAElementLaunches(PetscBool csc, PetscBool sweep);
