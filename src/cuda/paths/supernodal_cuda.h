/* The supernodal path's CUDA executor state, shared by src/cuda/paths/supernodal.cu (team blocks, cuBLAS, the executor)
   and src/cuda/paths/supernodal_split.cu (split supernodes: row tasks over many blocks, their inversion); private */
#pragma once
#include <sptrsv/paths/supernodal.h>
#include "../row_ops.cuh"

/* the device schedule as the kernels take it */
typedef struct {
  const int         *super, *sorder, *uptr, *uidx;
  const long long   *dptr, *optr;
  const PetscScalar *D, *X, *O;
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
} SpTrsvCUDASupernodal;

/* supernodal_split.cu: the setup of the split state (tasks, inversion columns, buffer), the inversion of the split
   supernodes at the numeric phase (X stored row-major for them), the two launches of level l's split supernodes */
PetscErrorCode SpTrsvCUDASupernodalSplitSetup(SpTrsvCUDASupernodal *, PetscInt, cudaStream_t);
PetscErrorCode SpTrsvCUDASupernodalSplitDestroy(SpTrsvCUDASupernodal *);
cudaError_t    SpTrsvCUDASupernodalSplitInvert(const SpTrsvCUDASupernodal &, cudaStream_t);
cudaError_t    SpTrsvCUDASupernodalSplitLevel(const SpTrsvCUDASupernodal &, PetscInt, SpTrsvCUDAVecPtrs, const SpTrsvCUDAVecPtrs *, cudaStream_t);
