/* Choosing the backend a factor's solves run on */
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
#endif

/*
  SpTrsvBackendSelect - resolve a request (auto, host, cuda) to a backend; note says why
*/
PetscErrorCode SpTrsvBackendSelect(SpTrsvBackendType req, const SpTrsvBackendOps **ops, const char **note)
{
  const SpTrsvBackendOps *cuda;
  PetscBool               avail;
  const char             *why;

  PetscFunctionBegin;
  if (req == SPTRSV_BACKEND_HOST) {
    *ops  = &SpTrsvBackendHost;
    *note = "requested with -mat_sptrsv_backend host";
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(SpTrsvBackendCUDAGet(&cuda, &avail, &why));
  if (req == SPTRSV_BACKEND_CUDA) {
    PetscCheck(avail, PETSC_COMM_SELF, PETSC_ERR_SUP, "-mat_sptrsv_backend cuda requested, but %s", why);
    *ops  = cuda;
    *note = "requested with -mat_sptrsv_backend cuda";
  } else if (avail) {
    *ops  = cuda;
    *note = "chosen automatically: a CUDA device is present";
  } else {
    *ops  = &SpTrsvBackendHost;
    *note = why;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
