/* PC isai's private data, shared by pcisai.c and pcisaidevice.c (private to the plugin) */
#pragma once
#include <sptrsv/isai.h>
#include <sptrsv/bilu.h>
#include <sptrsv/factor.h>
#include <sptrsv/isaimat.h>
#include <petsc/private/pcimpl.h>

typedef struct {
  /* options */
  PetscInt           power, levels, bsreq, relax;
  MatFactorType      ftype;
  MatFactorShiftType shifttype;
  PetscBool          shifttype_set;
  PetscReal          shiftamount, zeropivot;
  SpTrsvBackendType  backendreq;
  PetscBool          gpufactor_req; /* -pc_isai_gpu_factor */
  /* what the patterns were built with */
  Mat           pmat;
  PetscInt      bs, b_power, b_levels, b_relax;
  MatFactorType b_ftype;
  MatFactorInfo info;
  /* the factor: scalar (AIJ, bs = 1) or block */
  SpTrsvFactor   fac;
  SpTrsvBILU     bilu;
  SpTrsvBlockTri L, U; /* views of fac's triangles (owned), or bilu's triangles (not owned) */
  /* the approximate inverses and the matrices that apply them */
  SpTrsvISAI   NL, NU;
  Mat          ML, MU;                   /* N_L, N_U */
  Mat          TL, TU;                   /* L, U themselves, for the relaxation steps */
  PetscBool    gpu;                      /* apply on the GPU: AL.. are copies of ML.. in PETSc's cuSPARSE type */
  PetscBool    gpucols;                  /* column solves on the GPU (with the GPU apply, in a CUDA build) */
  void        *gNL, *gNU;                /* their device data (SpTrsvCUDAISAI) */
  Mat          AL, AU, ATL, ATU;         /* the matrices the apply multiplies by (ML.. themselves on the host) */
  PetscInt    *tli, *tlj, *tui, *tuj;    /* their patterns (diagonal included) */
  PetscScalar *tla, *tua;                /* and values */
  Vec          w, r;                     /* work vectors (same type as the vectors applied to) */
  Vec          xd, yd;                   /* device copies of host vectors for a GPU apply */
  /* the GPU factorization pipeline (pcisaidevice.c): factor, column solves and apply values on the device */
  PetscBool gpufactor;                 /* this setup's factorization runs on the GPU */
  void     *gF;                        /* SpTrsvCUDABILU */
  void     *gEL, *gEU, *gETL, *gETU;   /* SpTrsvCUDAExpand of N_L, N_U, L, U into AL, AU, ATL, ATU */
  PetscInt  nval;                      /* values of the matrix the GPU factor gathers */
  PetscBool host_stale;                /* ML, MU do not hold the current N_L, N_U (they live on the device) */
  PetscInt  nlevels;                   /* level sets of the GPU factorization */
  void        *gBL, *gBU;              /* SpTrsvCUDABSR: N_L, N_U for cuSPARSE's BSR SpMV (forward apply) */
  PetscBool    bsr;                    /* -pc_isai_gpu_bsr: use them */
  PetscInt    *xi[4], *xj[4];          /* CSR arrays under AL, AU, ATL, ATU (freed after them) */
  PetscScalar *xa[4];
  /* the outcome of the last numeric setup without pc->erroriffailure (with it these are errors): a zero
     pivot fails the PC (pc->failedreason, as PCSetUp_ILU does) and the apply returns Inf (as MatSolve() of a
     failed factor); a NaN/Inf in the matrix makes the apply return Inf too, without failing the PC (PETSc's
     ILU solves would return NaN/Inf: KSP stops with KSP_DIVERGED_NANORINF either way) */
  PCFailedReason failed;
  PetscInt       failrow; /* the (scalar) row of the zero pivot */
  PetscBool      nonfinite;
  /* statistics */
  PetscInt       nsetups;
  PetscLogDouble time_factor, time_pattern, time_symbolic;
} PC_ISAI;

/* pcisai.c: the host matrices of N_L, N_U (and L, U for relaxation steps) with their patterns */
SPTRSV_INTERN PetscErrorCode PCISAICreateApplyMatrices_Private(PC);
/* the GPU factorization pipeline (pcisaidevice.c) */
SPTRSV_INTERN PetscErrorCode PCISAIDeviceUsable_Private(PC, PetscBool, PetscBool, PetscInt, PetscBool *);
SPTRSV_INTERN PetscErrorCode PCISAIDeviceSetUp_Private(PC, PetscBool);
SPTRSV_INTERN PetscErrorCode PCISAIDeviceSyncHost_Private(PC);
SPTRSV_INTERN PetscErrorCode PCISAIDeviceFree_Private(PC_ISAI *);
SPTRSV_INTERN PetscErrorCode PCISAIDeviceApply_Private(PC, Vec, Vec, PetscBool *);
