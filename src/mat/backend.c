/* Choosing the backend solves run on, and staging PETSc vectors for it */
#include <sptrsv/backend.h>
#include <sptrsv/deviceops.h>

const char *const SpTrsvFormats[]      = {"csr", "csc", "SpTrsvFormat", "SPTRSV_FORMAT_", NULL};
const char *const SpTrsvBackendTypes[] = {"auto", "host", "cuda", "SpTrsvBackendType", "SPTRSV_BACKEND_", NULL};

/* ---- the CUDA backend and its device, through the device-ops table (include/sptrsv/deviceops.h) ---------------- */

/* SpTrsvBackendCUDAGet - the CUDA backend's table, and whether a device is there to run it (cached) */
PetscErrorCode SpTrsvBackendCUDAGet(const SpTrsvBackendOps **ops, PetscBool *available, const char **why)
{
  const SpTrsvDeviceOps *dev;

  PetscFunctionBegin;
  PetscCall(SpTrsvDeviceOpsGet(&dev, NULL, NULL));
  PetscCall((*dev->backend.get)(ops, available, why));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SpTrsvBackendCUDAGetDeviceName(char *name, size_t len)
{
  const SpTrsvDeviceOps *dev;

  PetscFunctionBegin;
  PetscCall(SpTrsvDeviceOpsGet(&dev, NULL, NULL));
  PetscCall((*dev->backend.device_name)(name, len));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SpTrsvBackendCUDAGetDevice(SpTrsvDeviceInfo *info)
{
  const SpTrsvDeviceOps *dev;

  PetscFunctionBegin;
  PetscCall(SpTrsvDeviceOpsGet(&dev, NULL, NULL));
  PetscCall((*dev->backend.device_get)(info));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SpTrsvBackendCUDACheckCurrent(const SpTrsvDeviceInfo *info)
{
  const SpTrsvDeviceOps *dev;

  PetscFunctionBegin;
  PetscCall(SpTrsvDeviceOpsGet(&dev, NULL, NULL));
  PetscCall((*dev->backend.check_current)(info));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SpTrsvBackendCUDACheckBuffers(SpTrsvDeviceInfo *info, PetscInt n, const void *const *ptrs)
{
  const SpTrsvDeviceOps *dev;

  PetscFunctionBegin;
  PetscCall(SpTrsvDeviceOpsGet(&dev, NULL, NULL));
  PetscCall((*dev->backend.check_buffers)(info, n, ptrs));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SpTrsvSolverGetDeviceBuffers(SpTrsvSolver s, PetscInt max, const void **ptrs, PetscInt *n)
{
  const SpTrsvDeviceOps *dev;

  PetscFunctionBegin;
  PetscCall(SpTrsvDeviceOpsGet(&dev, NULL, NULL));
  PetscCall((*dev->backend.solver_buffers)(s, max, ptrs, n));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SpTrsvDeviceMemoryGetInfo(PetscInt64 *freeb, PetscInt64 *total)
{
  const SpTrsvDeviceOps *dev;

  PetscFunctionBegin;
  PetscCall(SpTrsvDeviceOpsGet(&dev, NULL, NULL));
  PetscCall((*dev->mem.info)(freeb, total));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvBackendSelect - resolve a request (auto, host, cuda) to a backend slot; option is the option that made
  the request, as the user typed it (e.g. -sub_mat_sptrsv_backend, -pc_gs_backend, -sub_pc_isai_backend); note
  says why. use says what the caller's CUDA variant needs: NULL for the plugin's CUDA backend (the factor, PC
  gs: available when a usable GPU is there, auto takes it then); PC isai passes its own (SpTrsvISAICUDAUse()).
*/
PetscErrorCode SpTrsvBackendSelect(SpTrsvBackendType req, const char *option, const SpTrsvBackendCUDAUse *use, SpTrsvExecSlot *slot, char *note, size_t notelen)
{
  SpTrsvBackendCUDAUse    own;
  const SpTrsvBackendOps *cuda;

  PetscFunctionBegin;
  if (req == SPTRSV_BACKEND_HOST) {
    *slot = SPTRSV_EXEC_HOST;
    PetscCall(PetscSNPrintf(note, notelen, "requested with %s host", option));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (!use) {
    PetscCall(SpTrsvBackendCUDAGet(&cuda, &own.available, &own.why));
    own.automatic = own.available;
    use           = &own;
  }
  if (req == SPTRSV_BACKEND_CUDA) {
    PetscCheck(use->available, PETSC_COMM_SELF, PETSC_ERR_SUP, "%s cuda requested, but %s", option, use->why);
    *slot = SPTRSV_EXEC_CUDA;
    PetscCall(PetscSNPrintf(note, notelen, "requested with %s cuda", option));
  } else if (use->available && use->automatic) {
    *slot = SPTRSV_EXEC_CUDA;
    PetscCall(PetscSNPrintf(note, notelen, "chosen automatically: %s", use->why));
  } else {
    *slot = SPTRSV_EXEC_HOST;
    PetscCall(PetscSNPrintf(note, notelen, "%s", use->why));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvBackendGet - the backend of a slot chosen by SpTrsvBackendSelect() (for the CUDA slot, the plugin's
  CUDA backend: an error when it cannot run here)
*/
PetscErrorCode SpTrsvBackendGet(SpTrsvExecSlot slot, const SpTrsvBackendOps **ops)
{
  PetscBool   avail;
  const char *why;

  PetscFunctionBegin;
  if (slot == SPTRSV_EXEC_HOST) {
    *ops = &SpTrsvBackendHost;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(SpTrsvBackendCUDAGet(ops, &avail, &why));
  PetscCheck(avail && *ops, PETSC_COMM_SELF, PETSC_ERR_SUP, "The CUDA backend cannot run: %s", why);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvStagingCreate - staging buffers (when the backend's memory is not the host's) for vectors of n entries
*/
PetscErrorCode SpTrsvStagingCreate(const SpTrsvBackendOps *be, PetscInt n, SpTrsvStaging *st)
{
  PetscFunctionBegin;
  PetscCall(PetscMemzero(st, sizeof(*st)));
  st->backend   = be;
  st->n         = n;
  st->device.id = -1;
  if (be->memtype != PETSC_MEMTYPE_HOST) {
    /* the device the object runs on: its buffers are allocated there, and every apply checks it is still current */
    PetscCall(SpTrsvBackendCUDAGetDevice(&st->device));
    PetscCall((*be->vec_alloc)(n, &st->stage_b));
    PetscCall((*be->vec_alloc)(n, &st->stage_x));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SpTrsvStagingDestroy(SpTrsvStaging *st)
{
  PetscFunctionBegin;
  if (st->backend) {
    if (st->stage_b) PetscCall((*st->backend->vec_free)(&st->stage_b));
    if (st->stage_x) PetscCall((*st->backend->vec_free)(&st->stage_x));
  }
  st->backend = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvStagingApply - run op(ctx, b, x, &flops) on the backend's arrays of b (read) and x (written; read
  first when read_x), in place where the vectors live in the backend's memory, else through the staging
  buffers; the GPU time and the flops op reports are logged as PETSc logs MatSolve
*/
PetscErrorCode SpTrsvStagingApply(SpTrsvStaging *st, Vec b, Vec x, PetscBool read_x, SpTrsvStagedOp op, void *ctx)
{
  const SpTrsvBackendOps *be     = st->backend;
  const SpTrsvVecAccess   xmode  = read_x ? SPTRSV_VEC_READ_WRITE : SPTRSV_VEC_WRITE;
  const PetscBool         device = (PetscBool)(be->memtype != PETSC_MEMTYPE_HOST);
  PetscScalar            *ba, *xa;
  PetscLogDouble          flops = 0;

  PetscFunctionBegin;
  if (device) PetscCall(SpTrsvBackendCUDACheckCurrent(&st->device)); /* one cudaGetDevice: no rank runs on another's GPU */
  if (!(*be->vec_in_place)(b) || !(*be->vec_in_place)(x)) st->copies = PETSC_TRUE;
  PetscCall((*be->vec_get)(b, SPTRSV_VEC_READ, st->stage_b, &ba));
  PetscCall((*be->vec_get)(x, xmode, st->stage_x, &xa));
  if (device) PetscCall(PetscLogGpuTimeBegin());
  PetscCall((*op)(ctx, ba, xa, &flops));
  if (device) PetscCall(PetscLogGpuTimeEnd());
  PetscCall((*be->vec_restore)(b, SPTRSV_VEC_READ, st->stage_b, &ba));
  PetscCall((*be->vec_restore)(x, xmode, st->stage_x, &xa));
  if (device) PetscCall(PetscLogGpuFlops(flops));
  else PetscCall(PetscLogFlops(flops));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvStagingView - the device an object runs on, for its -ksp_view: "CUDA device 1 of 2 (PCI 0000:1b:00.0, NVIDIA H200)";
  nothing on the host backend. On a parallel viewer (PC gs on a parallel matrix: each rank sweeps its own block) every
  rank prints its own line, "[rank] CUDA device ...", collectively.
*/
PetscErrorCode SpTrsvStagingView(const SpTrsvStaging *st, PetscViewer viewer)
{
  MPI_Comm    comm;
  PetscMPIInt size, rank;

  PetscFunctionBegin;
  PetscCall(PetscObjectGetComm((PetscObject)viewer, &comm));
  PetscCallMPI(MPI_Comm_size(comm, &size));
  if (size == 1) {
    if (st->device.id >= 0) PetscCall(PetscViewerASCIIPrintf(viewer, "CUDA device %" PetscInt_FMT " of %" PetscInt_FMT " (PCI %s, %s)\n", st->device.id, st->device.ndevices, st->device.pci, st->device.name));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCall(PetscViewerASCIIPushSynchronized(viewer));
  if (st->device.id >= 0) PetscCall(PetscViewerASCIISynchronizedPrintf(viewer, "[%d] CUDA device %" PetscInt_FMT " of %" PetscInt_FMT " (PCI %s, %s)\n", rank, st->device.id, st->device.ndevices, st->device.pci, st->device.name));
  PetscCall(PetscViewerFlush(viewer));
  PetscCall(PetscViewerASCIIPopSynchronized(viewer));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvStagingGetDeviceInfo - an object's device record (made by SpTrsvStagingCreate) with a check of its device
  buffers: the staging buffers and the n given (NULL entries skipped) must be device memory of that device. On the
  host backend: id -1, nothing checked.
*/
PetscErrorCode SpTrsvStagingGetDeviceInfo(const SpTrsvStaging *st, PetscInt n, const void *const *ptrs, SpTrsvDeviceInfo *info)
{
  const void *own[2];

  PetscFunctionBegin;
  PetscCall(PetscMemzero(info, sizeof(*info)));
  info->id = -1;
  if (!st->backend || st->device.id < 0) PetscFunctionReturn(PETSC_SUCCESS);
  *info          = st->device;
  info->nbuffers = 0;
  info->nforeign = 0;
  own[0]         = st->stage_b;
  own[1]         = st->stage_x;
  PetscCall(SpTrsvBackendCUDACheckBuffers(info, 2, own));
  if (n) PetscCall(SpTrsvBackendCUDACheckBuffers(info, n, ptrs));
  PetscFunctionReturn(PETSC_SUCCESS);
}
