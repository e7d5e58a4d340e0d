/* Choosing the backend solves run on, and staging PETSc vectors for it */
#include <sptrsv/backend.h>

const char *const SpTrsvFormats[]      = {"csr", "csc", "SpTrsvFormat", "SPTRSV_FORMAT_", NULL};
const char *const SpTrsvBackendTypes[] = {"auto", "host", "cuda", "SpTrsvBackendType", "SPTRSV_BACKEND_", NULL};

#if !defined(PETSC_SPTRSV_HAVE_CUDA)
/* host-only build */
PetscErrorCode SpTrsvBackendCUDAGet(const SpTrsvBackendOps **ops, PetscBool *available, const char **why)
{
  PetscFunctionBegin;
  *ops       = NULL;
  *available = PETSC_FALSE;
  *why       = "the plugin was built without CUDA (WITH_CUDA=0)";
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SpTrsvBackendCUDAGetDeviceName(char *name, size_t len)
{
  PetscFunctionBegin;
  if (len) name[0] = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SpTrsvDeviceMemoryGetInfo(PetscInt64 *freeb, PetscInt64 *total)
{
  PetscFunctionBegin;
  if (freeb) *freeb = 0;
  if (total) *total = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}
#endif

/*
  SpTrsvOptionName - "-<prefix of obj><name>", the option as the user types it for this object (name
  without its leading dash, e.g. "mat_sptrsv_backend")
*/
PetscErrorCode SpTrsvOptionName(PetscObject obj, const char *name, char *buf, size_t len)
{
  const char *prefix = NULL;

  PetscFunctionBegin;
  if (obj) PetscCall(PetscObjectGetOptionsPrefix(obj, &prefix));
  PetscCall(PetscSNPrintf(buf, len, "-%s%s", prefix ? prefix : "", name));
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
  st->backend = be;
  st->n       = n;
  if (be->memtype != PETSC_MEMTYPE_HOST) {
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
