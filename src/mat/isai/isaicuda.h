/* PC isai's cuda backend: its data, shared by isaicuda.c and isaidevice.c (private to them) */
#pragma once
#include <sptrsv/isaiprec.h>
#include <sptrsv/deviceops.h> /* the GPU functions (src/cuda/) and PETSc's CUDA arrays, through one table */

typedef struct {
  SpTrsvCUDAISAI   gNL, gNU;             /* the column solves on the GPU */
  SpTrsvCUDABILU   gF;                   /* the GPU block ILU */
  SpTrsvCUDAExpand gEL, gEU, gETL, gETU; /* write N_L, N_U, L, U into the device values of AL, AU, ATL, ATU */
  SpTrsvCUDABSR    gBL, gBU;             /* N_L, N_U for cuSPARSE's BSR SpMV (forward applies) */
  PetscBool        host_stale;           /* ML, MU do not hold the current N_L, N_U (they live on the device) */
  PetscInt        *xi[4], *xj[4];        /* the CSR arrays under AL, AU, ATL, ATU (freed after them) */
  PetscScalar     *xa[4];
  Vec              xd, yd;               /* device copies of host vectors for the GPU apply */
} SpTrsvISAICUDA;
