/* SpTrsvDeviceOps: everything the plugin runs on the GPU, behind one table (private to the plugin) */
#pragma once
#include <petscsptrsv.h>   /* SpTrsvDeviceInfo */
#include <sptrsv/compat.h> /* SPTRSV_INTERN, PETSc 3.18 spellings */

/*
   The objects the entries take or give, by name only: each is defined by the header named (the table needs no more
   than their names, so it sits below all of them: it includes only the public header, for SpTrsvDeviceInfo)
*/
typedef struct _n_SpTrsvTri            *SpTrsvTri;            /* tri.h */
typedef struct _n_SpTrsvBlockTri       *SpTrsvBlockTri;       /* blocktri.h */
typedef struct _n_SpTrsvCUDAExpand     *SpTrsvCUDAExpand;     /* blocktri.h (src/cuda/block_expand_kernels.cu) */
typedef struct _n_SpTrsvCUDABSR        *SpTrsvCUDABSR;        /* blocktri.h (src/cuda/bsr_spmv.cu) */
typedef struct _n_SpTrsvBackendOps      SpTrsvBackendOps;     /* registry.h: the solve backend */
typedef struct _n_SpTrsvSolver         *SpTrsvSolver;         /* registry.h */
typedef struct _n_SpTrsvMC             *SpTrsvMC;             /* multicolor.h */
typedef struct _n_SpTrsvCUDAMC         *SpTrsvCUDAMC;         /* multicolor.h (src/cuda/gs_multicolor.cu) */
typedef struct _n_SpTrsvColoringSpec    SpTrsvColoringSpec;   /* coloring.h */
typedef struct _n_SpTrsvGSExactDevice  *SpTrsvGSExactDevice;  /* gs.h (src/cuda/gs_exact.cu) */
typedef struct _n_SpTrsvBILU           *SpTrsvBILU;           /* biluk.h */
typedef struct _n_SpTrsvCUDABILU       *SpTrsvCUDABILU;       /* biluk.h (src/cuda/bilu_kernels.cu) */
typedef struct _n_SpTrsvCUDABILUArrays  SpTrsvCUDABILUArrays; /* biluk.h */
typedef struct _n_SpTrsvISAI           *SpTrsvISAI;           /* isai.h */
typedef struct _n_SpTrsvCUDAISAI       *SpTrsvCUDAISAI;       /* isai.h (src/cuda/isai_kernels.cu) */
typedef struct _n_SpTrsvILUDeviceOps    SpTrsvILUDeviceOps;   /* ilu_device.h */

/*
   Host .c files never call CUDA: every GPU operation goes through this table, grouped by concern. It is filled in
   one place per build: src/cuda/device_ops.cu (SpTrsvDeviceOpsCUDA, a CUDA build: WITH_CUDA=1), or the "not
   available" table of src/mat/deviceops.c (a build without CUDA), whose entries say why; src/mat/deviceops.c picks
   one (its #if is the only CUDA #if of src/mat and src/pc). What PETSc's own CUDA types offer (VECCUDA arrays,
   MATSEQAIJCUSPARSE device arrays) depends on PETSc, not on the plugin, and is the petsc part (also
   src/mat/deviceops.c). Every entry keeps the arguments, stream and order of the CUDA function it names.
*/

/* PETSc's CUDA vectors and matrices (a PETSc configured with CUDA; cuda false: the entries that return arrays fail,
   the queries say there is none) */
typedef struct {
  PetscBool cuda; /* PETSc has CUDA (VECCUDA, MATSEQAIJCUSPARSE) */
  /* a MATSEQAIJCUSPARSE's device values (MatSeqAIJCUSPARSEGetArrayRead); *got false (nothing taken) for another type, a
     PETSc without CUDA or, with valid, values not valid on the device (offloadmask neither GPU nor BOTH) */
  PetscErrorCode (*mat_read)(Mat, PetscBool valid, const PetscScalar **, PetscBool *got);
  PetscErrorCode (*mat_restore_read)(Mat, const PetscScalar **);
  PetscErrorCode (*mat_write)(Mat, PetscScalar **); /* MatSeqAIJCUSPARSEGetArrayWrite */
  PetscErrorCode (*mat_restore_write)(Mat, PetscScalar **);
  /* a MATSEQAIJCUSPARSE's device CSR pattern in place (MatSeqAIJCUSPARSEGetIJ) when PetscInt is int; NULL, NULL otherwise */
  PetscErrorCode (*mat_get_ij)(Mat, const int **, const int **);
  PetscErrorCode (*mat_restore_ij)(Mat, const int **, const int **); /* after a non-NULL mat_get_ij */
  PetscErrorCode (*vec_read)(Vec, const PetscScalar **); /* VecCUDAGetArrayRead */
  PetscErrorCode (*vec_restore_read)(Vec, const PetscScalar **);
  PetscErrorCode (*vec_write)(Vec, PetscScalar **); /* VecCUDAGetArrayWrite */
  PetscErrorCode (*vec_restore_write)(Vec, PetscScalar **);
} SpTrsvDevicePETScOps;

typedef struct {
  const char *name;     /* "cuda", "none" */
  PetscBool   compiled; /* the plugin's CUDA code is in this build */
  /* the solve backend (vector staging, include/sptrsv/backend.h) and the process's device (src/cuda/backend_cuda.cu) */
  struct {
    PetscErrorCode (*get)(const SpTrsvBackendOps **, PetscBool *, const char **); /* the CUDA backend; whether it can run here and why (cached device check) */
    PetscErrorCode (*device_name)(char *, size_t);                               /* the current device's name ("" without one) */
    PetscErrorCode (*device_get)(SpTrsvDeviceInfo *);                            /* the backend's device record; an error when it cannot run */
    PetscErrorCode (*check_current)(const SpTrsvDeviceInfo *);                   /* error unless the current device is that one */
    PetscErrorCode (*check_buffers)(SpTrsvDeviceInfo *, PetscInt, const void *const *);
    PetscErrorCode (*solver_buffers)(SpTrsvSolver, PetscInt, const void **, PetscInt *); /* a solver's CUDA executor's arrays (src/cuda/device_tri.cu) */
  } backend;
  /* device memory: the GPU's free and total memory (cudaMemGetInfo; 0 without a GPU); what cuSPARSE's SpSV would hold
     for a triangle (src/cuda/cusparse_memory.cu) */
  struct {
    PetscErrorCode (*info)(PetscInt64 *, PetscInt64 *);
    PetscErrorCode (*spsv)(SpTrsvTri, PetscInt64 *, PetscInt64 *);
  } mem;
  /* index arrays kept on the device for one setup (src/cuda/cuda_upload.h): a factor's L and U patterns, uploaded once
     by the setup's side job (threads.h) for its analysis and its GPU ILU; the host arrays unchanged until release */
  struct {
    PetscErrorCode (*keep)(const PetscInt *, PetscInt);
    PetscErrorCode (*release)(void);
  } indices;
  /* Gauss-Seidel: multicolor storage and sweeps (src/cuda/gs_multicolor.cu, colouring gs_coloring.cu), the exact
     ordering's device values (src/cuda/gs_exact.cu); see include/sptrsv/multicolor.h and gs.h */
  struct {
    PetscErrorCode (*mc_create)(SpTrsvMC, SpTrsvCUDAMC *);
    PetscErrorCode (*mc_color_and_create)(SpTrsvMC, const int *, const int *, const PetscInt *, const PetscInt *, const SpTrsvColoringSpec *, const PetscInt *, PetscInt, SpTrsvCUDAMC *);
    PetscErrorCode (*mc_download_pattern)(SpTrsvCUDAMC, SpTrsvMC);
    PetscErrorCode (*mc_upload_values)(SpTrsvCUDAMC, const PetscScalar *, const PetscScalar *);
    PetscErrorCode (*mc_gather_values)(SpTrsvCUDAMC, const PetscScalar *, PetscBool *);
    PetscErrorCode (*mc_sweep)(SpTrsvCUDAMC, PetscBool, PetscBool, const PetscScalar *, PetscScalar *);
    PetscErrorCode (*mc_destroy)(SpTrsvCUDAMC *);
    PetscErrorCode (*exact_create)(PetscInt, PetscInt, PetscInt, const PetscInt *, const PetscInt *, const PetscInt *, PetscReal, PetscReal, SpTrsvGSExactDevice *);
    PetscErrorCode (*exact_gather)(SpTrsvGSExactDevice, const PetscScalar *, PetscBool *);
    PetscErrorCode (*exact_get_arrays)(SpTrsvGSExactDevice, const PetscScalar **, const PetscScalar **, const PetscScalar **);
    PetscErrorCode (*exact_download)(SpTrsvGSExactDevice, PetscScalar *, PetscScalar *, PetscScalar *);
    PetscErrorCode (*exact_destroy)(SpTrsvGSExactDevice *);
  } gs;
  /* PC isai: block ILU (include/sptrsv/biluk.h), column solves (isai.h), scalar expansion, BSR SpMV (blocktri.h) */
  struct {
    PetscErrorCode (*bilu_create)(SpTrsvBILU, PetscInt, const PetscInt *, SpTrsvCUDABILU *);
    PetscErrorCode (*bilu_numeric)(SpTrsvCUDABILU, const PetscScalar *, PetscMemType, PetscReal, PetscInt *, PetscInt *, PetscInt *);
    PetscErrorCode (*bilu_get_arrays)(SpTrsvCUDABILU, SpTrsvCUDABILUArrays *);
    PetscErrorCode (*bilu_get_levels)(SpTrsvCUDABILU, PetscInt *);
    PetscErrorCode (*bilu_destroy)(SpTrsvCUDABILU *);
    PetscErrorCode (*cols_create)(SpTrsvISAI, SpTrsvBlockTri, SpTrsvCUDAISAI *);
    PetscErrorCode (*cols_create_on_bilu)(SpTrsvISAI, SpTrsvCUDABILU, SpTrsvCUDAISAI *);
    PetscErrorCode (*cols_numeric)(SpTrsvCUDAISAI, SpTrsvISAI, SpTrsvBlockTri, PetscBool);
    PetscErrorCode (*cols_download)(SpTrsvCUDAISAI, SpTrsvISAI);
    PetscErrorCode (*cols_values)(SpTrsvCUDAISAI, const PetscScalar **);
    PetscErrorCode (*cols_destroy)(SpTrsvCUDAISAI *);
    PetscErrorCode (*expand_create)(PetscInt, PetscInt, const PetscInt *, const PetscInt *, SpTrsvCUDAExpand *);
    PetscErrorCode (*expand_apply)(SpTrsvCUDAExpand, const PetscScalar *, PetscScalar *);
    PetscErrorCode (*expand_destroy)(SpTrsvCUDAExpand *);
    PetscErrorCode (*bsr_create)(PetscInt, PetscInt, const PetscInt *, const PetscInt *, const PetscScalar *, SpTrsvCUDABSR *);
    PetscErrorCode (*bsr_mult)(SpTrsvCUDABSR, const PetscScalar *, PetscScalar *);
    PetscErrorCode (*bsr_destroy)(SpTrsvCUDABSR *);
  } isai;
  /* the numeric ILU(k) on the GPU (src/cuda/ilu_numeric.cu; include/sptrsv/ilu_device.h): ops NULL without a CUDA build;
     why: the reason it cannot run (NULL when it can) */
  struct {
    const SpTrsvILUDeviceOps *ops;
    const char               *why;
  } ilu;
  const SpTrsvDevicePETScOps *petsc;
} SpTrsvDeviceOps;

SPTRSV_INTERN const SpTrsvDeviceOps      SpTrsvDeviceOpsCUDA; /* src/cuda/device_ops.cu (CUDA builds) */
SPTRSV_INTERN const SpTrsvDevicePETScOps SpTrsvDevicePETSc;   /* src/mat/deviceops.c */

/* the table of this build; available, why (either may be NULL: not asked, no device check): whether the CUDA backend
   can run here (the device check, cached: SpTrsvBackendCUDAGet()) and why (not) */
SPTRSV_INTERN PetscErrorCode SpTrsvDeviceOpsGet(const SpTrsvDeviceOps **, PetscBool *, const char **);
/* the matrix types the MatSolverTypes are registered for: MATSEQAIJ, and MATSEQAIJCUSPARSE when PETSc has CUDA; NULL-ended */
SPTRSV_INTERN PetscErrorCode SpTrsvDeviceMatTypes(const MatType **);
/* NULL when the CUDA paths take this PETSc's scalars; else why not, and that the host backend runs */
SPTRSV_INTERN const char    *SpTrsvDeviceScalarNote(void);
SPTRSV_INTERN PetscErrorCode SpTrsvDeviceBackendHelp(const char *, char *, size_t); /* a backend option's -help text with that note */
