/*
   The CUDA backend: its stream, device work vectors and permutations, access to PETSc vectors, and the
   check that a device can run the kernels. The paths' CUDA executors (src/cuda/paths/, on the shared
   device triangle of device_tri.cu) run the plans.

   - Setup (once per pattern) uploads 32-bit copies of the plan (order, level pointers, lanes per
     level) and of the pattern in the orientation the format reads (CSR: rows of op(T); CSC: columns),
     and the values; update_values (numeric refactorization) re-uploads the values only, into the same
     buffers. All device memory is allocated at setup or by vec_alloc/perm_create, never in a solve.
   - Device: one per process (one GPU per MPI rank), chosen once before anything touches a GPU: a CUDA PETSc's device
     of the rank (-device_select_cuda, by default rank % devices), else the same rule applied here; made current,
     recorded (SpTrsvDeviceInfo, copied into every object's staging) and checked to be current when an object runs
     and when the plugin's own streams are used (SpTrsvCUDACheckCurrent).
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
/* the process's device (one GPU per MPI rank): chosen by SpTrsvCUDACheckDevice() before anything touches a device */
static SpTrsvDeviceInfo sptrsv_cuda_device = {-1, "", "", 0, 0, 0};

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

/*
  SpTrsvCUDACheckCurrent - the current device must be the one an object was set up on (info->id): a CUDA
  stream, a buffer or a captured graph belongs to one device, and a process that changed its device (cudaSetDevice
  between the setup and a solve) would run this rank's work on another rank's GPU, or fail there
*/
PetscErrorCode SpTrsvCUDACheckCurrent(const SpTrsvDeviceInfo *info)
{
  int cur = -1;

  PetscFunctionBegin;
  SpTrsvCUDACall(cudaGetDevice(&cur));
  PetscCheck(cur == info->id, PETSC_COMM_SELF, PETSC_ERR_GPU, "petsc-sptrsv: this object was set up on CUDA device %" PetscInt_FMT " (PCI %s), but the current device is %d: one GPU per process, chosen by PETSc (-device_select_cuda); do not change the device after the setup", info->id, info->pci, cur);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SpTrsvCUDACreateStream(cudaStream_t *s)
{
  PetscFunctionBegin;
  /* the plugin's own streams are made on (and belong to) the process's device */
  if (sptrsv_cuda_device.id >= 0) PetscCall(SpTrsvCUDACheckCurrent(&sptrsv_cuda_device));
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
PetscErrorCode SpTrsvCUDAMemoryGetInfo(PetscInt64 *freeb, PetscInt64 *total)
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
  PetscFunctionBegin;
#if !defined(PETSC_USE_64BIT_INDICES)
  PetscCall(SpTrsvCUDAMallocInt(d, len, (const int *)h, st)); /* as it is: a pageable copy is staged before cudaMemcpyAsync returns */
#else
  int *tmp;

  PetscCall(PetscMalloc1(len + 1, &tmp));
  for (PetscInt k = 0; k < len; k++) tmp[k] = (int)h[k];
  PetscCall(SpTrsvCUDAMallocInt(d, len, tmp, st));
  SpTrsvCUDACall(cudaStreamSynchronize(st));
  PetscCall(PetscFree(tmp));
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- index arrays kept on the device for a setup (cuda_upload.h) ----------------------------------- */

/* the kept copies: host array and length (the key), device copy; a handful per setup (a factor's L and U patterns) */
#define SPTRSV_CUDA_KEPT_MAX 8
static struct {
  const PetscInt *h;
  PetscInt        len;
  int            *d;
} SpTrsvCUDAKept[SPTRSV_CUDA_KEPT_MAX];

PetscErrorCode SpTrsvCUDAIndicesKept(const PetscInt *h, PetscInt len, const int **d)
{
  PetscFunctionBegin;
  *d = NULL;
  for (int k = 0; k < SPTRSV_CUDA_KEPT_MAX && h; k++)
    if (SpTrsvCUDAKept[k].h == h && SpTrsvCUDAKept[k].len == len) *d = SpTrsvCUDAKept[k].d;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SpTrsvCUDAIndicesKeep(const PetscInt *h, PetscInt len)
{
  const int   *d;
  cudaStream_t st = NULL;
  int          k;

  PetscFunctionBegin;
  PetscCall(SpTrsvCUDAIndicesKept(h, len, &d));
  if (d || !h || len < 0) PetscFunctionReturn(PETSC_SUCCESS);
  for (k = 0; k < SPTRSV_CUDA_KEPT_MAX && SpTrsvCUDAKept[k].h; k++) { }
  if (k == SPTRSV_CUDA_KEPT_MAX) PetscFunctionReturn(PETSC_SUCCESS); /* full: the consumers upload it themselves */
  if (len >= INT_MAX) PetscFunctionReturn(PETSC_SUCCESS); /* beyond 32-bit indices: not kept, the readers say so */
  PetscCall(SpTrsvCUDAGetStream(&st));
  PetscCall(SpTrsvCUDAUploadIndices(h, len, &SpTrsvCUDAKept[k].d, st));
  SpTrsvCUDACall(cudaStreamSynchronize(st)); /* whoever reads it, on whatever stream */
  SpTrsvCUDAKept[k].h   = h;
  SpTrsvCUDAKept[k].len = len;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SpTrsvCUDAIndicesRelease(void)
{
  int         *d[SPTRSV_CUDA_KEPT_MAX];
  PetscBool    any = PETSC_FALSE;
  cudaStream_t st  = NULL;
  cudaError_t  err = cudaSuccess;

  PetscFunctionBegin;
  for (int k = 0; k < SPTRSV_CUDA_KEPT_MAX; k++) { /* the table emptied first: nothing stale stays in it, whatever fails below */
    d[k]                  = SpTrsvCUDAKept[k].d;
    any                   = (PetscBool)(any || d[k]);
    SpTrsvCUDAKept[k].h   = NULL;
    SpTrsvCUDAKept[k].len = 0;
    SpTrsvCUDAKept[k].d   = NULL;
  }
  if (!any) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(SpTrsvCUDAGetStream(&st));
  err = cudaStreamSynchronize(st); /* every reader is on the plugin's stream or done with it (Keep synchronized before any read) */
  for (int k = 0; k < SPTRSV_CUDA_KEPT_MAX; k++) {
    const cudaError_t e = SpTrsvCUDAFree(d[k]);
    if (err == cudaSuccess) err = e;
  }
  SpTrsvCUDACall(err);
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

/* the backend's stream has run everything enqueued on it */
static PetscErrorCode SpTrsvCUDASynchronize(void)
{
  cudaStream_t st = NULL;

  PetscFunctionBegin;
  PetscCall(SpTrsvCUDAGetStream(&st));
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
  "cuda", PETSC_MEMTYPE_CUDA, SPTRSV_EXEC_CUDA, SpTrsvCUDAVecAlloc, SpTrsvCUDAVecFree, SpTrsvCUDAPermCreate, SpTrsvCUDAPermDestroy, SpTrsvCUDAGather, SpTrsvCUDAScatter, SpTrsvCUDACopy, SpTrsvCUDAPointwiseMult, SpTrsvCUDASetValues, SpTrsvCUDAVecGet, SpTrsvCUDAVecRestore, SpTrsvCUDAVecInPlace, SpTrsvCUDASynchronize,
};

/*
  SpTrsvCUDASelectDevice - the device of this process, made current: a CUDA PETSc's (PetscDeviceInitialize() picks and
  sets it: -device_select_cuda, by default rank % ndev on PETSC_COMM_WORLD; the device of the current PetscDeviceContext
  when that is a CUDA one); without a CUDA PETSc the same rule applied here (-device_select_cuda or -device_select, else
  rank % ndev), since nothing else would choose and every rank would run on device 0
*/
static PetscErrorCode SpTrsvCUDASelectDevice(int ndev, int *dev)
{
  int cur = -1;

  PetscFunctionBegin;
#if defined(PETSC_HAVE_CUDA)
  PetscCall(PetscDeviceInitialize(PETSC_DEVICE_CUDA));
  #if PETSC_VERSION_GE(3, 19, 0)
  {
    PetscDeviceContext dctx;
    PetscDeviceType    dtype;
    PetscDevice        pdev;
    PetscInt           id;

    PetscCall(PetscDeviceContextGetCurrentContext(&dctx));
    PetscCall(PetscDeviceContextGetDeviceType(dctx, &dtype));
    if (dtype == PETSC_DEVICE_CUDA) {
      PetscCall(PetscDeviceContextGetDevice(dctx, &pdev));
      PetscCall(PetscDeviceGetDeviceId(pdev, &id));
    } else {
      PetscCall(PetscDeviceCreate(PETSC_DEVICE_CUDA, PETSC_DECIDE, &pdev)); /* the default CUDA device */
      PetscCall(PetscDeviceGetDeviceId(pdev, &id));
      PetscCall(PetscDeviceDestroy(&pdev));
    }
    *dev = (int)id;
  }
  #else
  SpTrsvCUDACall(cudaGetDevice(dev)); /* set by PetscDeviceInitialize() */
  #endif
#else
  {
    PetscInt    sel = -1;
    PetscBool   flg = PETSC_FALSE;
    PetscMPIInt rank;

    PetscCall(PetscOptionsGetInt(NULL, NULL, "-device_select_cuda", &sel, &flg));
    if (!flg) PetscCall(PetscOptionsGetInt(NULL, NULL, "-device_select", &sel, &flg));
    if (flg && sel >= 0) {
      PetscCheck(sel < ndev, PETSC_COMM_SELF, PETSC_ERR_USER_INPUT, "-device_select_cuda %" PetscInt_FMT ": this process sees %d CUDA devices", sel, ndev);
      *dev = (int)sel;
    } else {
      PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
      *dev = (int)(rank % ndev);
    }
  }
#endif
  PetscCheck(*dev >= 0 && *dev < ndev, PETSC_COMM_SELF, PETSC_ERR_GPU, "CUDA device %d chosen, but this process sees %d devices", *dev, ndev);
  SpTrsvCUDACall(cudaGetDevice(&cur));
  if (cur != *dev) SpTrsvCUDACall(cudaSetDevice(*dev));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the record every object of the backend copies: device number, PCI bus id, name, devices seen */
static PetscErrorCode SpTrsvCUDARecordDevice(int dev, int ndev)
{
  struct cudaDeviceProp prop;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(&sptrsv_cuda_device, sizeof(sptrsv_cuda_device)));
  sptrsv_cuda_device.id       = dev;
  sptrsv_cuda_device.ndevices = ndev;
  SpTrsvCUDACall(cudaDeviceGetPCIBusId(sptrsv_cuda_device.pci, (int)sizeof(sptrsv_cuda_device.pci), dev));
  SpTrsvCUDACall(cudaGetDeviceProperties(&prop, dev));
  PetscCall(PetscStrncpy(sptrsv_cuda_device.name, prop.name, sizeof(sptrsv_cuda_device.name)));
  PetscCall(PetscInfo(NULL, "petsc-sptrsv: CUDA device %d of %d (PCI %s, %s)\n", dev, ndev, sptrsv_cuda_device.pci, sptrsv_cuda_device.name));
  PetscFunctionReturn(PETSC_SUCCESS);
}

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
  {
    /* this rank's device first (PETSc's choice), made current before anything (the probe below included) creates a
       context: no rank touches another rank's GPU, and our buffers live where PETSc's vectors do */
    PetscErrorCode ierr;
    int            dev = -1;

    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    ierr = SpTrsvCUDASelectDevice(ndev, &dev);
    PetscCall(PetscPopErrorHandler());
    if (ierr) {
      PetscCall(PetscSNPrintf(sptrsv_cuda_why, sizeof(sptrsv_cuda_why), "the process's CUDA device could not be selected (error %d; -info says more)", (int)ierr));
      PetscFunctionReturn(PETSC_SUCCESS);
    }
    PetscCall(SpTrsvCUDARecordDevice(dev, ndev));
  }
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
  SpTrsvCUDABackendGet - the CUDA backend's table, and whether a device is there to run it (cached)
*/
PetscErrorCode SpTrsvCUDABackendGet(const SpTrsvBackendOps **ops, PetscBool *available, const char **why)
{
  PetscFunctionBegin;
  if (!sptrsv_cuda_checked) PetscCall(SpTrsvCUDACheckDevice());
  *ops       = sptrsv_cuda_avail ? &SpTrsvBackendCUDA : NULL;
  *available = sptrsv_cuda_avail;
  *why       = sptrsv_cuda_why;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvCUDAGetDeviceName - the name of the current CUDA device (cudaGetDeviceProperties), for the automatic path
  choice's cost model; "" when there is none
*/
PetscErrorCode SpTrsvCUDAGetDeviceName(char *name, size_t len)
{
  int                   dev = 0;
  struct cudaDeviceProp prop;

  PetscFunctionBegin;
  if (len) name[0] = 0;
  if (!sptrsv_cuda_checked) PetscCall(SpTrsvCUDACheckDevice()); /* the process's device first */
  if (sptrsv_cuda_device.id >= 0) {
    PetscCall(PetscStrncpy(name, sptrsv_cuda_device.name, len));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (cudaGetDevice(&dev) != cudaSuccess || cudaGetDeviceProperties(&prop, dev) != cudaSuccess) {
    (void)cudaGetLastError();
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscStrncpy(name, prop.name, len));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvCUDAGetDevice - the backend's device record (SpTrsvCUDASelectDevice()), checked to be current; an error
  when the backend cannot run
*/
PetscErrorCode SpTrsvCUDAGetDevice(SpTrsvDeviceInfo *info)
{
  PetscFunctionBegin;
  if (!sptrsv_cuda_checked) PetscCall(SpTrsvCUDACheckDevice());
  PetscCheck(sptrsv_cuda_avail && sptrsv_cuda_device.id >= 0, PETSC_COMM_SELF, PETSC_ERR_SUP, "The CUDA backend cannot run: %s", sptrsv_cuda_why);
  PetscCall(SpTrsvCUDACheckCurrent(&sptrsv_cuda_device));
  *info = sptrsv_cuda_device;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvCUDACheckBuffers - where the n buffers (NULL entries skipped) live, by cudaPointerGetAttributes: each is
  counted in info->nbuffers, and in info->nforeign unless it is device memory of device info->id (memory of another
  GPU, host memory, or a pointer CUDA does not know)
*/
PetscErrorCode SpTrsvCUDACheckBuffers(SpTrsvDeviceInfo *info, PetscInt n, const void *const *ptrs)
{
  PetscFunctionBegin;
  for (PetscInt k = 0; k < n; k++) {
    struct cudaPointerAttributes attr;
    cudaError_t                  err;

    if (!ptrs[k]) continue;
    info->nbuffers++;
    err = cudaPointerGetAttributes(&attr, ptrs[k]);
    if (err != cudaSuccess) {
      (void)cudaGetLastError();
      info->nforeign++;
      continue;
    }
    if (attr.type != cudaMemoryTypeDevice || attr.device != (int)info->id) info->nforeign++;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
