/* The supernodal path's CUDA executor state, shared by src/cuda/paths/supernodal/supernodal.cu (team blocks, cuBLAS, the executor)
   and src/cuda/paths/supernodal/supernodal_split.cu (split supernodes: row tasks over many blocks, their inversion); private */
#pragma once
#include <sptrsv/paths/supernodal.h>
#include "../../row_ops.cuh"

/* the device schedule as the kernels take it */
typedef struct {
  const int         *super, *sorder, *uptr, *uidx;
  const long long   *dptr, *optr;
  const PetscScalar *D, *X, *O;
  const int         *ok; /* invert_diag auto: ok[K] != 0 where K's inverse is used (the numeric phase's check); else NULL */
} SpTrsvCUDASupernodalArrays;

typedef struct {
  const SpTrsvSupernodalSchedule *ss; /* the plan's (it outlives the executor) */
  SpTrsvCUDASupernodalArrays      a;
  int                            *d_super, *d_sorder, *d_uptr, *d_uidx, *d_dmap, *d_omap, *d_invlist, *d_cublist;
  long long                      *d_dptr, *d_optr;
  PetscScalar                    *d_D, *d_X, *d_O, *d_br, *d_bg; /* blocks, inverses, cuBLAS work (max widths) */
  PetscInt                        ninv, ncub;                     /* team supernodes inverted, cuBLAS supernodes */
  int4                           *d_task;                         /* split tasks (ss->task) */
  int2                           *d_wcol;                         /* columns (K, j) of the split supernodes to invert */
  PetscScalar                    *d_rbuf;                         /* split supernodes' intermediate vector, by line */
  PetscInt                        nwcol, wsplit;                  /* columns to invert, widest split supernode */
  int2                           *d_chk;                          /* invert_diag auto: (K, X row-major) of every inverted supernode */
  int                            *d_ok;                           /* ns: the check's decision (a.ok) */
  PetscReal                      *d_kappa, *h_kappa;              /* ns: kappa of the checked blocks, -1 elsewhere */
  PetscInt                        nchk;
} SpTrsvCUDASupernodal;

#if defined(SPTRSV_CUDA_SCALAR_OK)
/* the column sweep of a diagonal block D (w x w, column-major, its diagonal holding the inverted diagonal) on r (w
   scalars in shared memory), by every thread of the block: afterwards r_i D_ii is x_i. A barrier after each column
   (r[j + 1] final before the next column reads it); the bounds are block-uniform. */
template <bool LOWER>
__device__ __forceinline__ void SpTrsvSupernodeSweep(int w, const PetscScalar *__restrict__ D, PetscScalar *r, int tid, int nt)
{
  if (LOWER)
    for (int j = 0; j < w; j++) {
      const PetscScalar xj = r[j] * __ldg(D + j + (long long)j * w);
      for (int i = j + 1 + tid; i < w; i += nt) r[i] -= __ldg(D + i + (long long)j * w) * xj;
      __syncthreads();
    }
  else
    for (int j = w - 1; j >= 0; j--) {
      const PetscScalar xj = r[j] * __ldg(D + j + (long long)j * w);
      for (int i = tid; i < j; i += nt) r[i] -= __ldg(D + i + (long long)j * w) * xj;
      __syncthreads();
    }
}
#endif

/* supernodal_split.cu: the setup of the split state (tasks, inversion columns, buffer), the inversion of the split
   supernodes at the numeric phase (X stored row-major for them), the two launches of level l's split supernodes */
PetscErrorCode SpTrsvCUDASupernodalSplitSetup(SpTrsvCUDASupernodal *, PetscInt, cudaStream_t);
PetscErrorCode SpTrsvCUDASupernodalSplitDestroy(SpTrsvCUDASupernodal *);
cudaError_t    SpTrsvCUDASupernodalSplitInvert(const SpTrsvCUDASupernodal &, cudaStream_t);
cudaError_t    SpTrsvCUDASupernodalSplitLevel(const SpTrsvCUDASupernodal &, PetscInt, SpTrsvCUDAVecPtrs, const SpTrsvCUDAVecPtrs *, cudaStream_t);
