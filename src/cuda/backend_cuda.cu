/*
   The CUDA backend: its stream, device work vectors and permutations, access to PETSc vectors, and the
   check that a device can run the kernels. The paths' CUDA executors (src/cuda/paths/, on the shared
   device triangle of device_tri.cu) run the plans.

   - Setup (once per pattern) uploads 32-bit copies of the plan (order, level pointers, lanes per
     level) and of the pattern in the orientation the format reads (CSR: rows of op(T); CSC: columns),
     and the values; update_values (numeric refactorization) re-uploads the values only, into the same
     buffers. All device memory is allocated at setup or by vec_alloc/perm_create, never in a solve.
   - Stream: with a PETSc built with CUDA, the stream of PETSc's current device context (the one its
     CUDA vectors use), looked up per call; otherwise one non-blocking stream of our own, created once.
     A solve only enqueues work: no synchronisation, no allocation. The one synchronisation is in the
     copy-in/out path of host vectors (vec_restore), where the host must see the result.
   - CUDA graphs (-mat_sptrsv_graph <bool>, default true; read from the global options database, with no
     prefix, when a triangle is set up: the factorization for L and U, the first transpose solve for
     L^T and U^T): the launch sequence of a triangle is captured once at setup on a private capture
     stream and replayed with one cudaGraphLaunch per solve. b and x change between solves (user
     vectors, work vectors), so the captured kernels read them from a small device struct that a
     one-thread kernel updates, in stream order, before the graph launch; it is skipped when b, x and
     the stream are those of the previous solve. No re-instantiation, no cache, values refresh in
     place. Caveat: solving with one factor on two streams at once is not supported (nor is it by the
     shared work vectors of the factor).
*/
#include <sptrsv/backend.h>
#include "cuda_check.h"
#include "device_tri.h"
#include "cuda_upload.h"
#if defined(PETSC_HAVE_CUDA)
  #include <petscdevice.h>
#endif
#include <climits>
#include <cstdio>

/* ---- device presence, streams -------------------------------------------------------------------- */

static PetscBool    sptrsv_cuda_checked = PETSC_FALSE, sptrsv_cuda_avail = PETSC_FALSE;
static char         sptrsv_cuda_why[256];
static cudaStream_t sptrsv_own_stream = NULL, sptrsv_capture_stream = NULL;
static PetscBool    sptrsv_finalize_registered = PETSC_FALSE;

static PetscErrorCode SpTrsvCUDAFinalize(void)
{
  PetscFunctionBegin;
  if (sptrsv_own_stream) SpTrsvCUDACall(cudaStreamDestroy(sptrsv_own_stream));
  if (sptrsv_capture_stream) SpTrsvCUDACall(cudaStreamDestroy(sptrsv_capture_stream));
  sptrsv_own_stream          = NULL;
  sptrsv_capture_stream      = NULL;
  sptrsv_finalize_registered = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SpTrsvCUDACreateStream(cudaStream_t *s)
{
  PetscFunctionBegin;
  if (!*s) {
    SpTrsvCUDACall(cudaStreamCreateWithFlags(s, cudaStreamNonBlocking));
    if (!sptrsv_finalize_registered) {
      PetscCall(PetscRegisterFinalize(SpTrsvCUDAFinalize));
      sptrsv_finalize_registered = PETSC_TRUE;
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the stream every operation of this backend is enqueued on */
PetscErrorCode SpTrsvCUDAGetStream(cudaStream_t *stream)
{
  PetscFunctionBegin;
#if defined(PETSC_HAVE_CUDA) && PETSC_VERSION_GE(3, 19, 0)
  {
    PetscDeviceContext dctx;
    PetscDeviceType    dtype;
    void              *handle = NULL;

    PetscCall(PetscDeviceContextGetCurrentContext(&dctx));
    PetscCall(PetscDeviceContextGetDeviceType(dctx, &dtype));
    if (dtype == PETSC_DEVICE_CUDA) PetscCall(PetscDeviceContextGetStreamHandle(dctx, &handle));
    /* a non-CUDA current context: the legacy default stream, which orders with PETSc's blocking streams */
    *stream = handle ? *(cudaStream_t *)handle : (cudaStream_t)0;
  }
#elif defined(PETSC_HAVE_CUDA)
  *stream = (cudaStream_t)0; /* PETSc < 3.19 with CUDA runs its vector kernels on the default stream */
#else
  PetscCall(SpTrsvCUDACreateStream(&sptrsv_own_stream));
  *stream = sptrsv_own_stream;
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* a private stream for graph captures */
PetscErrorCode SpTrsvCUDAGetCaptureStream(cudaStream_t *stream)
{
  PetscFunctionBegin;
  PetscCall(SpTrsvCUDACreateStream(&sptrsv_capture_stream));
  *stream = sptrsv_capture_stream;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* for programs that time or order work against our solves (the benchmark) */
PetscErrorCode SpTrsvBackendCUDAGetStream(void *stream)
{
  PetscFunctionBegin;
  PetscCall(SpTrsvCUDAGetStream((cudaStream_t *)stream));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- device allocations (cuda_check.h) ------------------------------------------------------------ */

PetscErrorCode SpTrsvCUDAMalloc(void **p, size_t bytes, const char *what)
{
  cudaError_t err;

  PetscFunctionBegin;
  *p  = NULL;
  err = SpTrsvDevMemShouldFail() ? cudaErrorMemoryAllocation : cudaMalloc(p, bytes);
  if (PetscUnlikely(err != cudaSuccess)) {
    size_t freeb = 0, total = 0;

    *p = NULL;
    (void)cudaGetLastError(); /* out of memory is not sticky: clear it */
    if (cudaMemGetInfo(&freeb, &total) != cudaSuccess) {
      (void)cudaGetLastError();
      freeb = total = 0;
    }
    PetscCall(SpTrsvDevMemAllocFailed(bytes, what, freeb, total, cudaGetErrorName(err)));
  }
  {
    const PetscErrorCode ierr = SpTrsvDevMemAdd(*p, bytes);
    if (ierr) {
      (void)cudaFree(*p);
      *p = NULL;
      PetscCall(ierr);
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

cudaError_t SpTrsvCUDAFree(const void *p)
{
  if (!p) return cudaSuccess;
  SpTrsvDevMemRemove(p);
  return cudaFree((void *)p);
}

/* the GPU's free and total memory (cudaMemGetInfo) */
PetscErrorCode SpTrsvDeviceMemoryGetInfo(PetscInt64 *freeb, PetscInt64 *total)
{
  size_t f = 0, t = 0;
  int    ndev = 0;

  PetscFunctionBegin;
  if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev < 1) {
    (void)cudaGetLastError();
  } else SpTrsvCUDACall(cudaMemGetInfo(&f, &t));
  if (freeb) *freeb = (PetscInt64)f;
  if (total) *total = (PetscInt64)t;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- index uploads (cuda_upload.h) --------------------------------------------------------------- */

PetscErrorCode SpTrsvCUDAMallocInt(int **d, PetscInt n, const int *h, cudaStream_t st)
{
  PetscFunctionBegin;
  PetscCall(SpTrsvCUDAMalloc((void **)d, ((size_t)n + 1) * sizeof(int), "an index array"));
  if (n) SpTrsvCUDACall(cudaMemcpyAsync(*d, h, (size_t)n * sizeof(int), cudaMemcpyHostToDevice, st));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SpTrsvCUDAUploadIndices(const PetscInt *h, PetscInt len, int **d, cudaStream_t st)
{
  int *tmp;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(len + 1, &tmp));
  for (PetscInt k = 0; k < len; k++) tmp[k] = (int)h[k];
  PetscCall(SpTrsvCUDAMallocInt(d, len, tmp, st));
  SpTrsvCUDACall(cudaStreamSynchronize(st));
  PetscCall(PetscFree(tmp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- device vectors and permutations ------------------------------------------------------------- */

static PetscErrorCode SpTrsvCUDAVecAlloc(PetscInt n, PetscScalar **v)
{
  PetscFunctionBegin;
  PetscCall(SpTrsvCUDAMalloc((void **)v, ((size_t)n + 1) * sizeof(PetscScalar), "a work vector"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SpTrsvCUDAVecFree(PetscScalar **v)
{
  PetscFunctionBegin;
  SpTrsvCUDACall(SpTrsvCUDAFree(*v));
  *v = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SpTrsvCUDAPermCreate(PetscInt n, const PetscInt *idx, void **perm)
{
  int         *d = NULL;
  cudaStream_t st = NULL;

  PetscFunctionBegin;
  PetscCheck(n < INT_MAX, PETSC_COMM_SELF, PETSC_ERR_INT_OVERFLOW, "The CUDA kernels use 32-bit indices: n = %" PetscInt_FMT " must be below %d", n, INT_MAX);
  PetscCall(SpTrsvCUDAGetStream(&st));
  PetscCall(SpTrsvCUDAUploadIndices(idx, n, &d, st)); /* synchronous: setup time */
  *perm = d;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SpTrsvCUDAPermDestroy(void **perm)
{
  PetscFunctionBegin;
  SpTrsvCUDACall(SpTrsvCUDAFree(*perm));
  *perm = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SpTrsvCUDAGather(PetscInt n, const void *perm, const PetscScalar *x, PetscScalar *y)
{
  cudaStream_t st = NULL;

  PetscFunctionBegin;
  if (!n) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(SpTrsvCUDAGetStream(&st));
  SpTrsvCUDACall(SpTrsvCUDALaunchGather(n, (const int *)perm, x, y, st));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SpTrsvCUDAScatter(PetscInt n, const void *perm, const PetscScalar *x, PetscScalar *y)
{
  cudaStream_t st = NULL;

  PetscFunctionBegin;
  if (!n) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(SpTrsvCUDAGetStream(&st));
  SpTrsvCUDACall(SpTrsvCUDALaunchScatter(n, (const int *)perm, x, y, st));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SpTrsvCUDAPointwiseMult(PetscInt n, const PetscScalar *dv, const PetscScalar *x, PetscScalar *y)
{
  cudaStream_t st = NULL;

  PetscFunctionBegin;
  if (!n) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(SpTrsvCUDAGetStream(&st));
  SpTrsvCUDACall(SpTrsvCUDALaunchPointwiseMult(n, dv, x, y, st));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* host values into a backend array (setup time: waits, so the host array may change afterwards) */
static PetscErrorCode SpTrsvCUDASetValues(PetscInt n, const PetscScalar *h, PetscScalar *y)
{
  cudaStream_t st = NULL;

  PetscFunctionBegin;
  if (!n) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(SpTrsvCUDAGetStream(&st));
  SpTrsvCUDACall(cudaMemcpyAsync(y, h, (size_t)n * sizeof(PetscScalar), cudaMemcpyHostToDevice, st));
  SpTrsvCUDACall(cudaStreamSynchronize(st));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SpTrsvCUDACopy(PetscInt n, const PetscScalar *x, PetscScalar *y)
{
  cudaStream_t st = NULL;

  PetscFunctionBegin;
  if (!n) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(SpTrsvCUDAGetStream(&st));
  SpTrsvCUDACall(cudaMemcpyAsync(y, x, (size_t)n * sizeof(PetscScalar), cudaMemcpyDeviceToDevice, st));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- PETSc vectors ------------------------------------------------------------------------------- */

/* a vector whose values live on the device (a CUDA PETSc's VECCUDA): used in place */
static PetscBool SpTrsvCUDAVecInPlace(Vec v)
{
#if defined(PETSC_HAVE_CUDA)
  PetscBool flg = PETSC_FALSE;

  if (PetscObjectTypeCompareAny((PetscObject)v, &flg, VECSEQCUDA, VECMPICUDA, VECCUDA, "") != PETSC_SUCCESS) return PETSC_FALSE;
  return flg;
#else
  return PETSC_FALSE;
#endif
}

/* read: b's values on the device (in place, or copied into staging); write: where x's values go (in
   place, or staging, copied back by restore) */
static PetscErrorCode SpTrsvCUDAVecGet(Vec v, SpTrsvVecAccess access, PetscScalar *staging, PetscScalar **a)
{
  PetscFunctionBegin;
#if defined(PETSC_HAVE_CUDA)
  if (SpTrsvCUDAVecInPlace(v)) {
    if (access == SPTRSV_VEC_READ) PetscCall(VecCUDAGetArrayRead(v, (const PetscScalar **)a));
    else if (access == SPTRSV_VEC_WRITE) PetscCall(VecCUDAGetArrayWrite(v, a));
    else PetscCall(VecCUDAGetArray(v, a));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
#endif
  if (access != SPTRSV_VEC_WRITE) {
    const PetscScalar *h;
    PetscInt           n;
    cudaStream_t       st = NULL;

    PetscCall(VecGetLocalSize(v, &n));
    PetscCall(SpTrsvCUDAGetStream(&st));
    PetscCall(VecGetArrayRead(v, &h));
    if (n) SpTrsvCUDACall(cudaMemcpyAsync(staging, h, (size_t)n * sizeof(PetscScalar), cudaMemcpyHostToDevice, st));
    PetscCall(VecRestoreArrayRead(v, &h));
  }
  *a = staging;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SpTrsvCUDAVecRestore(Vec v, SpTrsvVecAccess access, PetscScalar *staging, PetscScalar **a)
{
  cudaStream_t st = NULL;

  PetscFunctionBegin;
#if defined(PETSC_HAVE_CUDA)
  if (SpTrsvCUDAVecInPlace(v)) {
    if (access == SPTRSV_VEC_READ) PetscCall(VecCUDARestoreArrayRead(v, (const PetscScalar **)a));
    else if (access == SPTRSV_VEC_WRITE) PetscCall(VecCUDARestoreArrayWrite(v, a));
    else PetscCall(VecCUDARestoreArray(v, a));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
#endif
  PetscCall(SpTrsvCUDAGetStream(&st));
  if (access == SPTRSV_VEC_READ) {
    /* the copy of b may still be in flight if its host array is pinned: wait before the caller may
       change b (copy-in/out path only) */
    SpTrsvCUDACall(cudaStreamSynchronize(st));
  } else {
    PetscScalar *h;
    PetscInt     n;

    PetscCall(VecGetLocalSize(v, &n));
    PetscCall(VecGetArrayWrite(v, &h));
    if (n) SpTrsvCUDACall(cudaMemcpyAsync(h, staging, (size_t)n * sizeof(PetscScalar), cudaMemcpyDeviceToHost, st));
    SpTrsvCUDACall(cudaStreamSynchronize(st)); /* the host reads x next */
    PetscCall(VecRestoreArrayWrite(v, &h));
  }
  *a = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static const SpTrsvBackendOps SpTrsvBackendCUDA = {
  "cuda", PETSC_MEMTYPE_CUDA, SPTRSV_EXEC_CUDA, SpTrsvCUDAVecAlloc, SpTrsvCUDAVecFree, SpTrsvCUDAPermCreate, SpTrsvCUDAPermDestroy, SpTrsvCUDAGather, SpTrsvCUDAScatter, SpTrsvCUDACopy, SpTrsvCUDAPointwiseMult, SpTrsvCUDASetValues, SpTrsvCUDAVecGet, SpTrsvCUDAVecRestore, SpTrsvCUDAVecInPlace,
};

/* is there a device this build can run on? Asked once; never an error (no driver = not available) */
static PetscErrorCode SpTrsvCUDACheckDevice(void)
{
  int         ndev = 0;
  cudaError_t err;

  PetscFunctionBegin;
  sptrsv_cuda_checked = PETSC_TRUE;
  sptrsv_cuda_avail   = PETSC_FALSE;
#if !defined(SPTRSV_CUDA_SCALAR_OK)
  PetscCall(PetscSNPrintf(sptrsv_cuda_why, sizeof(sptrsv_cuda_why), "the CUDA kernels support real scalars only (this PETSc has complex or non-double/float scalars)"));
  PetscFunctionReturn(PETSC_SUCCESS);
#endif
  err = cudaGetDeviceCount(&ndev);
  if (err == cudaErrorNoDevice || err == cudaErrorInsufficientDriver || (err == cudaSuccess && ndev <= 0)) {
    /* no driver (a machine without a GPU) or no device: say it plainly */
    (void)cudaGetLastError();
    PetscCall(PetscSNPrintf(sptrsv_cuda_why, sizeof(sptrsv_cuda_why), "no GPU found%s", err == cudaErrorInsufficientDriver ? " (no CUDA driver is loaded)" : ""));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (err != cudaSuccess) {
    (void)cudaGetLastError();
    PetscCall(PetscSNPrintf(sptrsv_cuda_why, sizeof(sptrsv_cuda_why), "no usable CUDA device (cudaGetDeviceCount: %s)", cudaGetErrorString(err)));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
#if defined(PETSC_HAVE_CUDA)
  {
    /* let PETSc pick and set this rank's device first, so our buffers live where its vectors do */
    PetscErrorCode ierr;

    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    ierr = PetscDeviceInitialize(PETSC_DEVICE_CUDA);
    PetscCall(PetscPopErrorHandler());
    if (ierr) {
      PetscCall(PetscSNPrintf(sptrsv_cuda_why, sizeof(sptrsv_cuda_why), "PETSc could not initialize its CUDA device (error %d)", (int)ierr));
      PetscFunctionReturn(PETSC_SUCCESS);
    }
  }
#endif
  err = SpTrsvCUDAKernelsProbe();
  if (err != cudaSuccess) {
    int dev = -1, major = 0, minor = 0;
    (void)cudaGetLastError();
    (void)cudaGetDevice(&dev);
    (void)cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev);
    (void)cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev);
    (void)cudaGetLastError();
    PetscCall(PetscSNPrintf(sptrsv_cuda_why, sizeof(sptrsv_cuda_why), "the CUDA kernels cannot run on device %d (compute capability %d.%d): %s; rebuild with CUDA_ARCH=%d%d", dev, major, minor, cudaGetErrorString(err), major, minor));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  sptrsv_cuda_avail = PETSC_TRUE;
  PetscCall(PetscSNPrintf(sptrsv_cuda_why, sizeof(sptrsv_cuda_why), "a CUDA device is present"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvBackendCUDAGet - the CUDA backend's table, and whether a device is there to run it (cached)
*/
PetscErrorCode SpTrsvBackendCUDAGet(const SpTrsvBackendOps **ops, PetscBool *available, const char **why)
{
  PetscFunctionBegin;
  if (!sptrsv_cuda_checked) PetscCall(SpTrsvCUDACheckDevice());
  *ops       = sptrsv_cuda_avail ? &SpTrsvBackendCUDA : NULL;
  *available = sptrsv_cuda_avail;
  *why       = sptrsv_cuda_why;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvBackendCUDAGetDeviceName - the name of the current CUDA device (cudaGetDeviceProperties), for the automatic path
  choice's cost model; "" when there is none
*/
PetscErrorCode SpTrsvBackendCUDAGetDeviceName(char *name, size_t len)
{
  int                   dev = 0;
  struct cudaDeviceProp prop;

  PetscFunctionBegin;
  if (len) name[0] = 0;
  if (cudaGetDevice(&dev) != cudaSuccess || cudaGetDeviceProperties(&prop, dev) != cudaSuccess) {
    (void)cudaGetLastError();
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscStrncpy(name, prop.name, len));
  PetscFunctionReturn(PETSC_SUCCESS);
}
