/*
   The device-ops table of this build (include/sptrsv/deviceops.h): the only place in src/mat and src/pc that asks
   whether CUDA is there. Two questions, two #ifs:
   - does PETSc have CUDA (PETSC_HAVE_CUDA)? The petsc part: PETSc's CUDA vectors and matrices, and the matrix types
     the MatSolverTypes are registered for;
   - was the plugin built with CUDA (PETSC_SPTRSV_HAVE_CUDA, WITH_CUDA=1)? The CUDA table (src/cuda/device_ops.cu), or
     the "not available" table below, whose entries say why.
   And one about PETSc's scalars (SPTRSV_CUDA_SCALAR_OK, compat.h): the CUDA kernels take real scalars only.
*/
#include <sptrsv/deviceops.h>
#include <petsc/private/matimpl.h> /* A->offloadmask */

#if defined(PETSC_HAVE_CUDA)
/* a MATSEQAIJCUSPARSE's device values (valid: only when the device holds them; never for a matrix bound to the CPU, which
   PETSc does not copy to the device) */
static PetscErrorCode SpTrsvPETScMatRead(Mat A, PetscBool valid, const PetscScalar **v, PetscBool *got)
{
  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)A, MATSEQAIJCUSPARSE, got));
  if (*got && A->boundtocpu) *got = PETSC_FALSE;
  if (*got && valid) *got = (PetscBool)(A->offloadmask == PETSC_OFFLOAD_GPU || A->offloadmask == PETSC_OFFLOAD_BOTH);
  if (*got) PetscCall(MatSeqAIJCUSPARSEGetArrayRead(A, v));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* a MATSEQAIJCUSPARSE's device CSR pattern, in place, when its 32-bit indices are PetscInt's */
static PetscErrorCode SpTrsvPETScMatGetIJ(Mat A, const int **ia, const int **ja)
{
  PetscBool cusp = PETSC_FALSE;

  PetscFunctionBegin;
  *ia = NULL;
  *ja = NULL;
  PetscCall(PetscObjectTypeCompare((PetscObject)A, MATSEQAIJCUSPARSE, &cusp));
  if (cusp && sizeof(PetscInt) == sizeof(int)) PetscCall(MatSeqAIJCUSPARSEGetIJ(A, PETSC_FALSE, ia, ja));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SpTrsvPETScMatRestoreIJ(Mat A, const int **ia, const int **ja)
{
  PetscFunctionBegin;
  PetscCall(MatSeqAIJCUSPARSERestoreIJ(A, PETSC_FALSE, ia, ja));
  PetscFunctionReturn(PETSC_SUCCESS);
}

const SpTrsvDevicePETScOps SpTrsvDevicePETSc = {PETSC_TRUE, SpTrsvPETScMatRead, MatSeqAIJCUSPARSERestoreArrayRead, MatSeqAIJCUSPARSEGetArrayWrite, MatSeqAIJCUSPARSERestoreArrayWrite, SpTrsvPETScMatGetIJ, SpTrsvPETScMatRestoreIJ, VecCUDAGetArrayRead, VecCUDARestoreArrayRead, VecCUDAGetArrayWrite, VecCUDARestoreArrayWrite};

static const MatType SpTrsvMatTypes[] = {MATSEQAIJ, MATSEQAIJCUSPARSE, NULL};
#else
static const char SpTrsvNoPETScCUDA[] = "this PETSc was configured without CUDA";

static PetscErrorCode SpTrsvPETScNoMatRead(Mat A, PetscBool valid, const PetscScalar **v, PetscBool *got)
{
  PetscFunctionBegin;
  *got = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SpTrsvPETScNoMatGetIJ(Mat A, const int **ia, const int **ja)
{
  PetscFunctionBegin;
  *ia = NULL;
  *ja = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

  #define SPTRSV_NO_PETSC_CUDA(fn, O, T) \
    static PetscErrorCode fn(O o, T a) \
    { \
      PetscFunctionBegin; \
      SETERRQ(PETSC_COMM_SELF, PETSC_ERR_SUP, "%s", SpTrsvNoPETScCUDA); \
    }
SPTRSV_NO_PETSC_CUDA(SpTrsvPETScNoMatArray, Mat, PetscScalar **)
SPTRSV_NO_PETSC_CUDA(SpTrsvPETScNoMatArrayRead, Mat, const PetscScalar **)
SPTRSV_NO_PETSC_CUDA(SpTrsvPETScNoVecArray, Vec, PetscScalar **)
SPTRSV_NO_PETSC_CUDA(SpTrsvPETScNoVecArrayRead, Vec, const PetscScalar **)

static PetscErrorCode SpTrsvPETScNoMatRestoreIJ(Mat A, const int **ia, const int **ja)
{
  PetscFunctionBegin;
  SETERRQ(PETSC_COMM_SELF, PETSC_ERR_SUP, "%s", SpTrsvNoPETScCUDA);
}

const SpTrsvDevicePETScOps SpTrsvDevicePETSc = {PETSC_FALSE, SpTrsvPETScNoMatRead, SpTrsvPETScNoMatArrayRead, SpTrsvPETScNoMatArray, SpTrsvPETScNoMatArray, SpTrsvPETScNoMatGetIJ, SpTrsvPETScNoMatRestoreIJ, SpTrsvPETScNoVecArrayRead, SpTrsvPETScNoVecArrayRead, SpTrsvPETScNoVecArray, SpTrsvPETScNoVecArray};

static const MatType SpTrsvMatTypes[] = {MATSEQAIJ, NULL};
#endif

#if defined(PETSC_SPTRSV_HAVE_CUDA)
  #define SPTRSV_DEVICE_OPS SpTrsvDeviceOpsCUDA /* src/cuda/device_ops.cu */
#else
/* ---- a build without CUDA: what is asked of the device gets the reason ---------------------------------------- */
static const char SpTrsvNoCUDA[] = "the plugin was built without CUDA (WITH_CUDA=0)";

static PetscErrorCode SpTrsvNoCUDABackendGet(const SpTrsvBackendOps **ops, PetscBool *available, const char **why)
{
  PetscFunctionBegin;
  *ops       = NULL;
  *available = PETSC_FALSE;
  *why       = SpTrsvNoCUDA;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SpTrsvNoCUDADeviceName(char *name, size_t len)
{
  PetscFunctionBegin;
  if (len) name[0] = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SpTrsvNoCUDASolverBuffers(SpTrsvSolver s, PetscInt max, const void **ptrs, PetscInt *n)
{
  PetscFunctionBegin;
  *n = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* nothing kept without CUDA */
static PetscErrorCode SpTrsvNoCUDAIndicesRelease(void)
{
  PetscFunctionBegin;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SpTrsvNoCUDAMemInfo(PetscInt64 *freeb, PetscInt64 *total)
{
  PetscFunctionBegin;
  if (freeb) *freeb = 0;
  if (total) *total = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

  /* an entry that cannot run without CUDA (its arguments named a .. h, unused) */
  #define SPTRSV_NO_CUDA(fn, ...) \
    static PetscErrorCode fn(__VA_ARGS__) \
    { \
      PetscFunctionBegin; \
      SETERRQ(PETSC_COMM_SELF, PETSC_ERR_SUP, "%s", SpTrsvNoCUDA); \
    }
  /* a destroy: nothing to do for a NULL object (the only kind a build without CUDA makes) */
  #define SPTRSV_NO_CUDA_DESTROY(fn, T) \
    static PetscErrorCode fn(T *p) \
    { \
      PetscFunctionBegin; \
      PetscCheck(!*p, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s", SpTrsvNoCUDA); \
      PetscFunctionReturn(PETSC_SUCCESS); \
    }
SPTRSV_NO_CUDA(SpTrsvNoCUDADeviceGet, SpTrsvDeviceInfo *a)
SPTRSV_NO_CUDA(SpTrsvNoCUDACheckCurrent, const SpTrsvDeviceInfo *a)
SPTRSV_NO_CUDA(SpTrsvNoCUDACheckBuffers, SpTrsvDeviceInfo *a, PetscInt b, const void *const *c)
SPTRSV_NO_CUDA(SpTrsvNoCUDASpSV, SpTrsvTri a, PetscInt64 *b, PetscInt64 *c)
SPTRSV_NO_CUDA(SpTrsvNoCUDAIndicesKeep, const PetscInt *a, PetscInt b)
SPTRSV_NO_CUDA(SpTrsvNoCUDAMCCreate, SpTrsvMC a, SpTrsvCUDAMC *b)
SPTRSV_NO_CUDA(SpTrsvNoCUDAMCColorAndCreate, SpTrsvMC a, const int *b, const int *c, const PetscInt *d, const PetscInt *e, const SpTrsvColoringSpec *f, const PetscInt *g, PetscInt h, SpTrsvCUDAMC *i)
SPTRSV_NO_CUDA(SpTrsvNoCUDAMCDownloadPattern, SpTrsvCUDAMC a, SpTrsvMC b)
SPTRSV_NO_CUDA(SpTrsvNoCUDAMCUploadValues, SpTrsvCUDAMC a, const PetscScalar *b, const PetscScalar *c)
SPTRSV_NO_CUDA(SpTrsvNoCUDAMCGatherValues, SpTrsvCUDAMC a, const PetscScalar *b, PetscBool *c)
SPTRSV_NO_CUDA(SpTrsvNoCUDAMCSweep, SpTrsvCUDAMC a, PetscBool b, PetscBool c, const PetscScalar *d, PetscScalar *e)
SPTRSV_NO_CUDA_DESTROY(SpTrsvNoCUDAMCDestroy, SpTrsvCUDAMC)
SPTRSV_NO_CUDA(SpTrsvNoCUDAExactCreate, PetscInt a, PetscInt b, PetscInt c, const PetscInt *d, const PetscInt *e, const PetscInt *f, PetscReal g, PetscReal h, SpTrsvGSExactDevice *i)
SPTRSV_NO_CUDA(SpTrsvNoCUDAExactGather, SpTrsvGSExactDevice a, const PetscScalar *b, PetscBool *c)
SPTRSV_NO_CUDA(SpTrsvNoCUDAExactGetArrays, SpTrsvGSExactDevice a, const PetscScalar **b, const PetscScalar **c, const PetscScalar **d)
SPTRSV_NO_CUDA(SpTrsvNoCUDAExactDownload, SpTrsvGSExactDevice a, PetscScalar *b, PetscScalar *c, PetscScalar *d)
SPTRSV_NO_CUDA_DESTROY(SpTrsvNoCUDAExactDestroy, SpTrsvGSExactDevice)
SPTRSV_NO_CUDA(SpTrsvNoCUDABILUCreate, SpTrsvBILU a, PetscInt b, const PetscInt *c, SpTrsvCUDABILU *d)
SPTRSV_NO_CUDA(SpTrsvNoCUDABILUNumeric, SpTrsvCUDABILU a, const PetscScalar *b, PetscMemType c, PetscReal d, PetscInt *e, PetscInt *f, PetscInt *g)
SPTRSV_NO_CUDA(SpTrsvNoCUDABILUGetArrays, SpTrsvCUDABILU a, SpTrsvCUDABILUArrays *b)
SPTRSV_NO_CUDA(SpTrsvNoCUDABILUGetLevels, SpTrsvCUDABILU a, PetscInt *b)
SPTRSV_NO_CUDA_DESTROY(SpTrsvNoCUDABILUDestroy, SpTrsvCUDABILU)
SPTRSV_NO_CUDA(SpTrsvNoCUDAColsCreate, SpTrsvISAI a, SpTrsvBlockTri b, SpTrsvCUDAISAI *c)
SPTRSV_NO_CUDA(SpTrsvNoCUDAColsCreateOnBILU, SpTrsvISAI a, SpTrsvCUDABILU b, SpTrsvCUDAISAI *c)
SPTRSV_NO_CUDA(SpTrsvNoCUDAColsNumeric, SpTrsvCUDAISAI a, SpTrsvISAI b, SpTrsvBlockTri c, PetscBool d)
SPTRSV_NO_CUDA(SpTrsvNoCUDAColsDownload, SpTrsvCUDAISAI a, SpTrsvISAI b)
SPTRSV_NO_CUDA(SpTrsvNoCUDAColsValues, SpTrsvCUDAISAI a, const PetscScalar **b)
SPTRSV_NO_CUDA_DESTROY(SpTrsvNoCUDAColsDestroy, SpTrsvCUDAISAI)
SPTRSV_NO_CUDA(SpTrsvNoCUDAExpandCreate, PetscInt a, PetscInt b, const PetscInt *c, const PetscInt *d, SpTrsvCUDAExpand *e)
SPTRSV_NO_CUDA(SpTrsvNoCUDAExpandApply, SpTrsvCUDAExpand a, const PetscScalar *b, PetscScalar *c)
SPTRSV_NO_CUDA_DESTROY(SpTrsvNoCUDAExpandDestroy, SpTrsvCUDAExpand)
SPTRSV_NO_CUDA(SpTrsvNoCUDABSRCreate, PetscInt a, PetscInt b, const PetscInt *c, const PetscInt *d, const PetscScalar *e, SpTrsvCUDABSR *f)
SPTRSV_NO_CUDA(SpTrsvNoCUDABSRMult, SpTrsvCUDABSR a, const PetscScalar *b, PetscScalar *c)
SPTRSV_NO_CUDA_DESTROY(SpTrsvNoCUDABSRDestroy, SpTrsvCUDABSR)

static const SpTrsvDeviceOps SpTrsvDeviceOpsNone = {
  .name     = "none",
  .compiled = PETSC_FALSE,
  .backend  = {SpTrsvNoCUDABackendGet, SpTrsvNoCUDADeviceName, SpTrsvNoCUDADeviceGet, SpTrsvNoCUDACheckCurrent, SpTrsvNoCUDACheckBuffers, SpTrsvNoCUDASolverBuffers},
  .mem      = {SpTrsvNoCUDAMemInfo, SpTrsvNoCUDASpSV},
  .indices  = {SpTrsvNoCUDAIndicesKeep, SpTrsvNoCUDAIndicesRelease},
  .gs       = {SpTrsvNoCUDAMCCreate, SpTrsvNoCUDAMCColorAndCreate, SpTrsvNoCUDAMCDownloadPattern, SpTrsvNoCUDAMCUploadValues, SpTrsvNoCUDAMCGatherValues, SpTrsvNoCUDAMCSweep, SpTrsvNoCUDAMCDestroy, SpTrsvNoCUDAExactCreate, SpTrsvNoCUDAExactGather, SpTrsvNoCUDAExactGetArrays, SpTrsvNoCUDAExactDownload, SpTrsvNoCUDAExactDestroy},
  .isai     = {SpTrsvNoCUDABILUCreate, SpTrsvNoCUDABILUNumeric, SpTrsvNoCUDABILUGetArrays, SpTrsvNoCUDABILUGetLevels, SpTrsvNoCUDABILUDestroy, SpTrsvNoCUDAColsCreate, SpTrsvNoCUDAColsCreateOnBILU, SpTrsvNoCUDAColsNumeric, SpTrsvNoCUDAColsDownload, SpTrsvNoCUDAColsValues, SpTrsvNoCUDAColsDestroy, SpTrsvNoCUDAExpandCreate, SpTrsvNoCUDAExpandApply, SpTrsvNoCUDAExpandDestroy, SpTrsvNoCUDABSRCreate, SpTrsvNoCUDABSRMult, SpTrsvNoCUDABSRDestroy},
  .ilu      = {NULL, "the plugin was built without CUDA"},
  .petsc    = &SpTrsvDevicePETSc,
};
  #define SPTRSV_DEVICE_OPS SpTrsvDeviceOpsNone
#endif

/*
  SpTrsvDeviceOpsGet - the device-ops table of this build; with available or why, whether the CUDA backend can run
  here and why (not): the device check, made once
*/
PetscErrorCode SpTrsvDeviceOpsGet(const SpTrsvDeviceOps **ops, PetscBool *available, const char **why)
{
  PetscFunctionBegin;
  *ops = &SPTRSV_DEVICE_OPS;
  if (available || why) {
    const SpTrsvBackendOps *backend;
    PetscBool               avail;
    const char             *reason;

    PetscCall((*(*ops)->backend.get)(&backend, &avail, &reason));
    if (available) *available = avail;
    if (why) *why = reason;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* SpTrsvDeviceMatTypes - the matrix types the MatSolverTypes are registered for (NULL-ended) */
PetscErrorCode SpTrsvDeviceMatTypes(const MatType **types)
{
  PetscFunctionBegin;
  *types = SpTrsvMatTypes;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvDeviceScalarNote - NULL when the CUDA paths can take this PETSc's scalars (real, double or float), else the sentence
  that says they cannot and what runs instead: shown at registration (-info), in the backend options' -help and in the
  CUDA backend's refusal
*/
const char *SpTrsvDeviceScalarNote(void)
{
#if defined(SPTRSV_CUDA_SCALAR_OK)
  return NULL;
#else
  return "the CUDA paths need real scalars (double or float) and this PETSc has complex or other scalars: the solves run on the host backend";
#endif
}

/* SpTrsvDeviceBackendHelp - the -help text of a backend option: base, then the scalar note where there is one */
PetscErrorCode SpTrsvDeviceBackendHelp(const char *base, char *text, size_t len)
{
  const char *note = SpTrsvDeviceScalarNote();

  PetscFunctionBegin;
  if (note) PetscCall(PetscSNPrintf(text, len, "%s; %s", base, note));
  else PetscCall(PetscStrncpy(text, base, len));
  PetscFunctionReturn(PETSC_SUCCESS);
}
