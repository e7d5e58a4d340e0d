/* SpTrsvISAIPrec: PC isai's preconditioner apart from the PC (src/mat/isai/; private to the plugin)

   M = L U is an incomplete factorization of a sequential AIJ or BAIJ matrix (scalar ILU(k)/ICC(k), or block
   ILU(k)); N_L ~ L^{-1}, N_U ~ U^{-1} are its ISAIs (isai.h), and M^{-1} v ~ N_U (N_L v), optionally with
   Richardson steps per triangle. Where it runs is one ops table per backend, indexed by the slot
   SpTrsvBackendSelect() returns, as a path's executors are (registry.h):
     src/mat/isai/isaihost.c    host: factorization, column solves and SpMVs on the host
     src/mat/isai/isaicuda.c    cuda: the SpMVs with PETSc's cuSPARSE matrices, the column solves on the GPU
                                (src/cuda/isai_kernels.cu), and with isaidevice.c the whole numeric phase on
                                the device (GPU block ILU, src/cuda/bilu_kernels.cu)
   PC isai (src/pc/isai/pcisai.c) owns the options and calls setup (once per nonzero pattern), numeric (every
   setup) and apply.
*/
#pragma once
#include <sptrsv/isai.h>
#include <sptrsv/biluk.h>
#include <sptrsv/factor.h>
#include <sptrsv/isaimat.h>
#include <sptrsv/backend.h>

/* what the preconditioner is built with: PC isai's options, read at every use (the PC owns them) */
typedef struct {
  PetscInt      power;          /* pattern power k: N_L on S(|L|^k), N_U on S(|U|^k) */
  PetscInt      relax;          /* Richardson steps x <- x + N (b - T x) per triangle in the apply */
  MatFactorType ftype;          /* MAT_FACTOR_ILU or MAT_FACTOR_ICC (scalar only) */
  MatFactorInfo info;           /* levels of fill, shifts, zero pivot */
  PetscBool     erroriffailure; /* a zero pivot or a NaN/Inf is an error (pc->erroriffailure) */
  PetscBool     gpufactor;      /* cuda: factor on the GPU when it can (-pc_isai_gpu_factor) */
  PetscBool     bsr;            /* cuda: forward applies of the GPU factorization with the BSR SpMV (-pc_isai_gpu_bsr) */
} SpTrsvISAIOptions;

typedef struct _n_SpTrsvISAIPrec *SpTrsvISAIPrec;

/* a backend's implementation; setup and numeric read the matrix (pmat), apply works on PETSc vectors */
typedef struct {
  const char *name;
  PetscErrorCode (*setup)(SpTrsvISAIPrec, Mat);                  /* once per nonzero pattern: the symbolic phase */
  PetscErrorCode (*numeric)(SpTrsvISAIPrec, Mat);                /* factorization, column solves, apply values */
  PetscErrorCode (*apply)(SpTrsvISAIPrec, PetscBool, Vec, Vec);  /* transpose?, x, y */
  PetscErrorCode (*sync_host)(SpTrsvISAIPrec);                   /* the host copies ML, MU of N_L, N_U up to date; NULL: they are */
  PetscErrorCode (*destroy)(SpTrsvISAIPrec);                     /* frees data */
} SpTrsvISAIOps;

struct _n_SpTrsvISAIPrec {
  PetscObject              obj;  /* the PC: communicator and -info messages */
  const SpTrsvISAIOps     *ops;
  const SpTrsvISAIOptions *opts; /* the PC's */
  void                    *data; /* the backend's own */
  PetscInt                 bs;
  PetscBool                scalar; /* bs = 1 on an AIJ matrix: the scalar ILU(k)/ICC(k) of the plugin */
  /* the factor: scalar or block; L and U are views of fac's triangles (owned) or bilu's triangles */
  SpTrsvFactor   fac;
  SpTrsvBILU     bilu;
  SpTrsvBlockTri L, U;
  /* the approximate inverses and the matrices the apply multiplies by */
  SpTrsvISAI   NL, NU;
  Mat          ML, MU;                /* N_L, N_U on the host (MATSEQAIJ for bs = 1, MATSEQBAIJ otherwise) */
  Mat          TL, TU;                /* L, U themselves, for the relaxation steps */
  Mat          AL, AU, ATL, ATU;      /* what the apply multiplies by: ML.. on the host, device matrices on the GPU */
  PetscInt    *tli, *tlj, *tui, *tuj; /* the patterns of TL, TU (diagonal included) */
  PetscScalar *tla, *tua;             /* and their values */
  Vec          w, r;                  /* work vectors (of the type of the vectors applied to) */
  /* what the backend did, for -ksp_view and PCISAIGetInfo() */
  PetscBool gpu;       /* the apply runs on the GPU */
  PetscBool gpucols;   /* the column solves run on the GPU */
  PetscBool gpufactor; /* the factorization runs on the GPU */
  PetscBool bsrapply;  /* forward applies can use the BSR SpMV */
  PetscInt  nlevels;   /* level sets of the GPU factorization */
  /* the outcome of the last numeric phase without opts->erroriffailure (with it these are errors) */
  MatFactorError error;     /* MAT_FACTOR_NUMERIC_ZEROPIVOT: a zero pivot */
  PetscInt       failrow;   /* its (scalar) row */
  PetscBool      nonfinite; /* a NaN/Inf in the matrix or the factor */
  /* timings of the last setup */
  PetscLogDouble time_factor, time_pattern, time_symbolic;
  PetscLogDouble time_factor_symbolic; /* the host factor's symbolic phase, counted in the next time_factor */
  PetscBool      setup_done;           /* setup ran since the last numeric phase */
};

SPTRSV_INTERN PetscErrorCode SpTrsvISAIPrecCreate(PetscObject, SpTrsvExecSlot, const SpTrsvISAIOptions *, PetscInt, PetscBool, SpTrsvISAIPrec *);
SPTRSV_INTERN PetscErrorCode SpTrsvISAIPrecSetUp(SpTrsvISAIPrec, Mat);
SPTRSV_INTERN PetscErrorCode SpTrsvISAIPrecNumeric(SpTrsvISAIPrec, Mat);
SPTRSV_INTERN PetscErrorCode SpTrsvISAIPrecApply(SpTrsvISAIPrec, PetscBool, Vec, Vec);
SPTRSV_INTERN PetscErrorCode SpTrsvISAIPrecGetHostMatrices(SpTrsvISAIPrec, Mat *, Mat *);
SPTRSV_INTERN PetscErrorCode SpTrsvISAIPrecDestroy(SpTrsvISAIPrec *);

/* the backends (isaihost.c, isaicuda.c); the CUDA table is empty (NULL entries) without a CUDA PETSc */
SPTRSV_INTERN const SpTrsvISAIOps SpTrsvISAIOpsHost, SpTrsvISAIOpsCUDA;
/* what the cuda backend needs (a PETSc configured with CUDA) and when auto takes it (a matrix of PETSc's CUDA
   types), for SpTrsvBackendSelect() */
SPTRSV_INTERN PetscErrorCode SpTrsvISAICUDAUse(Mat, SpTrsvBackendCUDAUse *);

/* ---- pieces the backends share (isaiprec.c) ----------------------------------------------------- */
/* the numeric phase on a host factorization: factor, then (unless it failed) columns by `columns` and the
   apply matrices by `applymat` (a copy of a host matrix, or the matrix itself) */
typedef PetscErrorCode (*SpTrsvISAIColumnsFn)(SpTrsvISAIPrec, PetscBool); /* prec, patterns just made */
typedef PetscErrorCode (*SpTrsvISAIApplyMatFn)(Mat, Mat *);               /* host matrix, apply matrix (made anew) */
SPTRSV_INTERN PetscErrorCode SpTrsvISAIPrecFactorSymbolic(SpTrsvISAIPrec, Mat);
SPTRSV_INTERN PetscErrorCode SpTrsvISAIPrecNumericHostFactor(SpTrsvISAIPrec, Mat, SpTrsvISAIColumnsFn, SpTrsvISAIApplyMatFn);
SPTRSV_INTERN PetscErrorCode SpTrsvISAIPrecCreatePatterns(SpTrsvISAIPrec);
SPTRSV_INTERN PetscErrorCode SpTrsvISAIPrecColumnsHost(SpTrsvISAIPrec, PetscBool); /* the column solves on the host */
SPTRSV_INTERN PetscErrorCode SpTrsvISAIPrecApplyMatHost(Mat, Mat *);               /* the host matrix itself */
/* y = N_U (N_L x) (transpose: N_L^T (N_U^T x)) with AL, AU (and ATL, ATU for the relaxation steps) */
SPTRSV_INTERN PetscErrorCode SpTrsvISAIPrecApplyMatrices(SpTrsvISAIPrec, PetscBool, Vec, Vec);

/* ---- the GPU factorization (isaidevice.c; with a CUDA PETSc and a CUDA build, else it is never usable) ---- */
SPTRSV_INTERN PetscErrorCode SpTrsvISAIDeviceUsable(SpTrsvISAIPrec, PetscBool *);
SPTRSV_INTERN PetscErrorCode SpTrsvISAIDeviceSetUp(SpTrsvISAIPrec, Mat);
SPTRSV_INTERN PetscErrorCode SpTrsvISAIDeviceNumeric(SpTrsvISAIPrec, Mat);
SPTRSV_INTERN PetscErrorCode SpTrsvISAIDeviceApplyBSR(SpTrsvISAIPrec, Vec, Vec, PetscBool *);
SPTRSV_INTERN PetscErrorCode SpTrsvISAIDeviceSyncHost(SpTrsvISAIPrec);
SPTRSV_INTERN PetscErrorCode SpTrsvISAIDeviceDestroy(SpTrsvISAIPrec);
