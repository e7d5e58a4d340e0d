/*
   petsc-sptrsv: GPU sparse triangular solves for PETSc.

   Public interface. Load the plugin with -dll_append <prefix>/lib/libpetscsptrsv.so, or link it and
   call SpTrsvInitializePackage() after PetscInitialize().
*/
#pragma once

#include <petscmat.h>
#include <petscpc.h>

/*
   The triangular-solve paths, one line each: SPTRSV_PATH(name, NAME) gives the MatSolverType MATSOLVERSPTRSV<NAME>, the
   string "sptrsv_<name>" (-pc_factor_mat_solver_type sptrsv_<name>), and the factor constructor
   MatGetFactor_SpTrsv_<name> a program passes to MatSolverTypeRegister() when it registers them itself (for MATSEQAIJ,
   MATSEQAIJCUSPARSE; MAT_FACTOR_ILU, MAT_FACTOR_ICC). Each path's entry lives in its folder, src/mat/paths/<name>/.
   sptrsv_cusparse is cuSPARSE's SpSV behind the plugin's factors (a candidate of the automatic choice).
*/
#define SPTRSV_PATHS(SPTRSV_PATH) \
  SPTRSV_PATH(level, LEVEL) \
  SPTRSV_PATH(element, ELEMENT) \
  SPTRSV_PATH(syncfree, SYNCFREE) \
  SPTRSV_PATH(locality, LOCALITY) \
  SPTRSV_PATH(supernodal, SUPERNODAL) \
  SPTRSV_PATH(pinv, PINV) \
  SPTRSV_PATH(cusparse, CUSPARSE)

#define SPTRSV_PATH_PUBLIC(name, NAME) \
  PETSC_EXTERN const char     MATSOLVERSPTRSV##NAME[]; \
  PETSC_EXTERN PetscErrorCode MatGetFactor_SpTrsv_##name(Mat, MatFactorType, Mat *);
SPTRSV_PATHS(SPTRSV_PATH_PUBLIC)
#define MATSOLVERSPTRSV "sptrsv" /* automatic: a path per triangle, chosen by a cost model (docs/USAGE.md) */
PETSC_EXTERN PetscErrorCode MatGetFactor_SpTrsv_auto(Mat, MatFactorType, Mat *);

/*E
   SpTrsvFormat - storage a triangular solve reads: rows (CSR, each row pulls its dependencies) or
   columns (CSC, each solved entry pushes its updates)

   Options Database Key:
.  -mat_sptrsv_format <csr,csc> - choose the format

   Level: intermediate
E*/
typedef enum {
  SPTRSV_FORMAT_CSR,
  SPTRSV_FORMAT_CSC
} SpTrsvFormat;
PETSC_EXTERN const char *const SpTrsvFormats[];

/*E
   SpTrsvBackendType - where a triangular solve runs

   Options Database Key:
.  -mat_sptrsv_backend <auto,host,cuda> - auto uses CUDA when the plugin was built with it and a GPU is present

   Level: intermediate
E*/
typedef enum {
  SPTRSV_BACKEND_AUTO,
  SPTRSV_BACKEND_HOST,
  SPTRSV_BACKEND_CUDA
} SpTrsvBackendType;
PETSC_EXTERN const char *const SpTrsvBackendTypes[];

PETSC_EXTERN PetscErrorCode SpTrsvInitializePackage(void);
PETSC_EXTERN PetscErrorCode SpTrsvFinalizePackage(void);

/* Log events, visible in -log_view beside PETSc's MatSolve. Inside SpTrsvSymbolic (symbolic factorization and
   analysis), SpTrsvAnalysis times each triangle's analysis (a path's plan) and SpTrsvUpload its executor's
   setup (for CUDA: the pattern and schedule put on the GPU, or built there) */
PETSC_EXTERN PetscLogEvent SPTRSV_Symbolic, SPTRSV_FactorSym, SPTRSV_NumericSetUp, SPTRSV_Analysis, SPTRSV_Upload, SPTRSV_Numeric, SPTRSV_Solve;

/*S
   SpTrsvStats - analysis figures of one triangular-solve plan, shown by -ksp_view

   Level: intermediate
S*/
typedef struct {
  PetscInt       n;               /* rows */
  PetscInt       nnz;             /* off-diagonal nonzeros read by the solve */
  PetscInt       nlevels;         /* level sets = rows on the critical path */
  PetscInt       max_level_rows;  /* widest level */
  PetscReal      mean_level_rows; /* n / nlevels: the mean parallelism */
  PetscInt       max_row_nnz;     /* longest row (off-diagonal entries) */
  PetscReal      mean_row_nnz;    /* nnz / n */
  PetscLogDouble bytes_per_solve; /* bytes a solve must move at least: factor + vectors */
  PetscLogDouble analysis_time;   /* seconds spent in the analysis */
} SpTrsvStats;

PETSC_EXTERN PetscErrorCode MatSpTrsvGetStats(Mat, SpTrsvStats *, SpTrsvStats *);
PETSC_EXTERN PetscErrorCode MatSpTrsvGetBackend(Mat, const char **);

/*S
   SpTrsvDeviceInfo - the GPU an object of the plugin (a factor Mat, a PC gs) runs on: the object's own record, made
   when it was set up on the CUDA backend (the device PETSc chose for the process: -device_select_cuda, by default
   rank % number of devices), and a check of its device buffers (cudaPointerGetAttributes)

   Level: intermediate
S*/
typedef struct {
  PetscInt id;        /* CUDA device number in this process (as CUDA_VISIBLE_DEVICES numbers them); -1: host backend */
  char     pci[32];   /* PCI bus id of that device (domain:bus:device.function), one name for one GPU in every process of a node */
  char     name[256]; /* its name ("" on the host) */
  PetscInt ndevices;  /* CUDA devices this process sees (0 on the host backend) */
  PetscInt nbuffers;  /* device buffers of the object checked with cudaPointerGetAttributes */
  PetscInt nforeign;  /* of them, how many are not device memory of device id (0 unless something is wrong) */
} SpTrsvDeviceInfo;
PETSC_EXTERN PetscErrorCode MatSpTrsvGetDeviceInfo(Mat, SpTrsvDeviceInfo *);
/* Device memory (docs/USAGE.md, "Device memory"): what a factor holds on the GPU (L's and U's solvers with their
   transposes, and the rest: GPU numeric factor, permutations, work vectors; bytes, 0 on the host backend); what the
   plugin holds in all (live bytes, their peak, allocations made, allocations live); the GPU's free and total memory
   (cudaMemGetInfo; 0 without a CUDA build or a GPU) */
PETSC_EXTERN PetscErrorCode MatSpTrsvGetDeviceMemory(Mat, PetscInt64 *, PetscInt64 *, PetscInt64 *);
PETSC_EXTERN PetscErrorCode SpTrsvDeviceMemoryGetUsage(PetscInt64 *, PetscInt64 *, PetscInt64 *, PetscInt64 *);
PETSC_EXTERN PetscErrorCode SpTrsvDeviceMemoryGetInfo(PetscInt64 *, PetscInt64 *);

/* ---- PC gs: Gauss-Seidel / SOR sweeps on the GPU ------------------------------------------------ */
#define PCGS "gs"

/*E
   PCGSType - the sweeps of one Gauss-Seidel iteration (PETSc's MatSORType without the local variants)

   Options Database Key:
.  -pc_gs_type <forward,backward,symmetric> - forward (L + D/omega), backward (U + D/omega), or both

   Level: beginner
E*/
typedef enum {
  PC_GS_FORWARD   = 1,
  PC_GS_BACKWARD  = 2,
  PC_GS_SYMMETRIC = 3
} PCGSType;
PETSC_EXTERN const char *const PCGSTypes[];

/*E
   PCGSOrdering - the order of the rows in a sweep

   Options Database Key:
.  -pc_gs_ordering <exact,multicolor> - exact: the natural order (PCSOR's iterates, a GPU launch per level set
   or a sync-free launch); multicolor: Gauss-Seidel in the order of a greedy colouring of the matrix graph (one
   launch per colour; a different, usually weaker, smoother than PCSOR's)

   Level: intermediate
E*/
typedef enum {
  PC_GS_ORDERING_EXACT      = 0,
  PC_GS_ORDERING_MULTICOLOR = 1
} PCGSOrdering;
PETSC_EXTERN const char *const PCGSOrderings[];

PETSC_EXTERN PetscLogEvent  SPTRSV_GSSetup, SPTRSV_GSApply;
PETSC_EXTERN PetscErrorCode PCGSSetType(PC, PCGSType);
PETSC_EXTERN PetscErrorCode PCGSSetOmega(PC, PetscReal);
PETSC_EXTERN PetscErrorCode PCGSSetIterations(PC, PetscInt);
PETSC_EXTERN PetscErrorCode PCGSSetOrdering(PC, PCGSOrdering);
PETSC_EXTERN PetscErrorCode PCGSSetScheduler(PC, const char[]); /* a path that runs sweeps ("level", "element") or "auto" */
PETSC_EXTERN PetscErrorCode PCGSGetDeviceInfo(PC, SpTrsvDeviceInfo *); /* after PCSetUp() */
PETSC_EXTERN PetscErrorCode PCCreate_GS(PC);

/* ---- PC isai: incomplete sparse approximate inverse preconditioning ----------------------------- */
#define PCISAI "isai"

/*S
   PCISAIInfo - what PC isai built at its last setup (blocks count bs x bs entries; diagonal blocks included)

   Level: intermediate
S*/
typedef struct {
  PetscInt       bs, power, levels, relaxation_steps;
  PetscInt       nnzL, nnzU;        /* blocks of the factors L and U */
  PetscInt       nnzNL, nnzNU;      /* blocks of N_L ~ L^-1 and N_U ~ U^-1 */
  PetscInt       maxcolL, maxcolU;  /* blocks in the longest column of N_L, N_U */
  PetscInt       longL, longU;      /* columns that took the long path */
  PetscInt       short_max;         /* columns of more blocks take the long path */
  PetscInt       nsetups;           /* numeric setups so far */
  PetscLogDouble time_factor;       /* seconds of the last setup: factorization, */
  PetscLogDouble time_pattern;      /* patterns S(|L|^k), S(|U|^k) (when they were built), */
  PetscLogDouble time_solve;        /* column solves */
  PetscLogDouble time_symbolic;     /* GPU factorization: the host's symbolic phase (when it ran) */
  PetscBool      gpu_apply;         /* the apply runs on the GPU (cuSPARSE SpMV) */
  PetscBool      gpu_columns;       /* the column solves ran on the GPU */
  PetscBool      gpu_factor;        /* the block ILU ran on the GPU (the numeric setup stayed on the device) */
  PetscInt       nlevels;           /* level sets of the GPU block ILU */
} PCISAIInfo;

PETSC_EXTERN PetscLogEvent  SPTRSV_ISAISetup, SPTRSV_ISAIApply;
PETSC_EXTERN PetscErrorCode PCISAISetPower(PC, PetscInt);
PETSC_EXTERN PetscErrorCode PCISAISetLevels(PC, PetscInt);
PETSC_EXTERN PetscErrorCode PCISAISetBlockSize(PC, PetscInt);
PETSC_EXTERN PetscErrorCode PCISAISetRelaxationSteps(PC, PetscInt);
PETSC_EXTERN PetscErrorCode PCISAISetFactorType(PC, MatFactorType);
PETSC_EXTERN PetscErrorCode PCISAIGetInfo(PC, PCISAIInfo *);
PETSC_EXTERN PetscErrorCode PCISAIGetApplyMatrices(PC, Mat *, Mat *);
PETSC_EXTERN PetscErrorCode PCCreate_ISAI(PC);
