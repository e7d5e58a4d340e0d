/* SpTrsvBackend: where plans run (private to the plugin) */
#pragma once
#include <sptrsv/registry.h>
#include <sptrsv/devmem.h>
#include <sptrsv/utils.h> /* SpTrsvOptionName() */


SPTRSV_INTERN const SpTrsvBackendOps SpTrsvBackendHost;
/* the CUDA backend and its device: entries of the device-ops table (include/sptrsv/deviceops.h) in every build,
   GetStream in CUDA builds only (src/cuda/backend_cuda.cu) */
SPTRSV_INTERN PetscErrorCode         SpTrsvBackendCUDAGet(const SpTrsvBackendOps **, PetscBool *, const char **);
SPTRSV_INTERN PetscErrorCode         SpTrsvBackendCUDAGetStream(void *); /* CUDA builds: *(cudaStream_t *) = the stream the solves use */
SPTRSV_INTERN PetscErrorCode         SpTrsvBackendCUDAGetDeviceName(char *, size_t); /* the current device's name ("" without one) */
/*
   One GPU per process: the CUDA backend runs on one device, the one PETSc chose for the process (a CUDA PETSc:
   its default device, -device_select_cuda, by default rank % devices; without: the same rule, applied by the
   plugin), set current before the backend allocates, creates a stream or launches anything. Objects record it
   (SpTrsvStaging.device) and check it is still current when they run.
*/
SPTRSV_INTERN PetscErrorCode SpTrsvBackendCUDAGetDevice(SpTrsvDeviceInfo *); /* the backend's device (id, PCI bus id, name, devices seen); buffers 0 */
SPTRSV_INTERN PetscErrorCode SpTrsvBackendCUDACheckCurrent(const SpTrsvDeviceInfo *); /* error unless the current device is that one */
/* count the device buffers (NULL entries skipped) that are not device memory of info->id: adds to info->nbuffers, nforeign */
SPTRSV_INTERN PetscErrorCode SpTrsvBackendCUDACheckBuffers(SpTrsvDeviceInfo *, PetscInt, const void *const *);
/* the device arrays of a solver's CUDA executor (at most max of them; NULL entries possible) */
SPTRSV_INTERN PetscErrorCode SpTrsvSolverGetDeviceBuffers(SpTrsvSolver, PetscInt, const void **, PetscInt *);
/* what decides the CUDA variant of a caller whose GPU code is not (only) the plugin's CUDA backend (PC isai's
   apply runs PETSc's cuSPARSE matrices): whether it can run, whether auto takes it, and why (for the messages) */
typedef struct {
  PetscBool   available;
  PetscBool   automatic;
  const char *why;
} SpTrsvBackendCUDAUse;

/* resolve a request to a backend slot; option is the option as the user can type it (with its prefix), used in
   the messages; use NULL: the plugin's CUDA backend decides; note (size notelen) says what was chosen and why */
SPTRSV_INTERN PetscErrorCode SpTrsvBackendSelect(SpTrsvBackendType, const char *, const SpTrsvBackendCUDAUse *, SpTrsvExecSlot *, char *, size_t);
SPTRSV_INTERN PetscErrorCode SpTrsvBackendGet(SpTrsvExecSlot, const SpTrsvBackendOps **); /* the backend of a slot */

/*
   Staging of PETSc vectors for an operation that runs on a backend: b read, x written (or read and
   written), in place where the vectors live in the backend's memory, else through staging buffers; GPU
   time and flops logged as PETSc logs its own MatSolve. Shared by the factor Mat and PC gs.
*/
typedef struct {
  const SpTrsvBackendOps *backend;
  PetscInt                n;
  PetscScalar            *stage_b, *stage_x; /* NULL on the host backend */
  PetscBool               copies;            /* some vector had to be copied (shown by -ksp_view) */
  SpTrsvDeviceInfo        device;            /* the GPU the object runs on (id -1 on the host), checked at every apply */
} SpTrsvStaging;

typedef PetscErrorCode (*SpTrsvStagedOp)(void *, const PetscScalar *, PetscScalar *, PetscLogDouble *); /* ctx, b, x, flops */
SPTRSV_INTERN PetscErrorCode SpTrsvStagingCreate(const SpTrsvBackendOps *, PetscInt, SpTrsvStaging *);
SPTRSV_INTERN PetscErrorCode SpTrsvStagingApply(SpTrsvStaging *, Vec, Vec, PetscBool, SpTrsvStagedOp, void *);
SPTRSV_INTERN PetscErrorCode SpTrsvStagingDestroy(SpTrsvStaging *);
SPTRSV_INTERN PetscErrorCode SpTrsvStagingView(const SpTrsvStaging *, PetscViewer); /* the device line of -ksp_view (none on the host) */
/* the object's device record, its staging buffers and n more device buffers (NULL entries skipped) checked */
SPTRSV_INTERN PetscErrorCode SpTrsvStagingGetDeviceInfo(const SpTrsvStaging *, PetscInt, const void *const *, SpTrsvDeviceInfo *);


SPTRSV_INTERN PetscErrorCode SpTrsvSolverCreate(SpTrsvTri, PetscBool, SpTrsvFormat, SpTrsvPath, const SpTrsvBackendOps *, SpTrsvSolver *);
SPTRSV_INTERN PetscErrorCode SpTrsvSolverCreateWithOptions(SpTrsvTri, PetscBool, SpTrsvFormat, SpTrsvPath, const SpTrsvBackendOps *, const SpTrsvPathOptions *, SpTrsvSolver *);
SPTRSV_INTERN PetscErrorCode SpTrsvSolverCreatePairWithOptions(SpTrsvTri, SpTrsvTri, SpTrsvFormat, SpTrsvPath, const SpTrsvBackendOps *, const SpTrsvPathOptions *, SpTrsvSolver *, SpTrsvSolver *); /* L and U, analysed at once where the path can */
SPTRSV_INTERN PetscErrorCode SpTrsvSolverCreateSweep(SpTrsvTri, SpTrsvTri, PetscReal, SpTrsvFormat, SpTrsvPath, const SpTrsvBackendOps *, const SpTrsvPathOptions *, SpTrsvSolver *);
SPTRSV_INTERN PetscErrorCode SpTrsvSolverSweep(SpTrsvSolver, const PetscScalar *, const PetscScalar *, PetscScalar *);
SPTRSV_INTERN PetscErrorCode SpTrsvSolverUpdateValues(SpTrsvSolver);
SPTRSV_INTERN PetscErrorCode SpTrsvSolverMarkCurrent(SpTrsvSolver);
SPTRSV_INTERN PetscErrorCode SpTrsvSolverUpdateValuesDevice(SpTrsvSolver, const PetscScalar *, const PetscScalar *, const PetscScalar *); /* T's CSR values, idiag, a sweep's rest values: device arrays */
SPTRSV_INTERN PetscErrorCode SpTrsvSolverApply(SpTrsvSolver, const PetscScalar *, PetscScalar *);
SPTRSV_INTERN PetscErrorCode SpTrsvSolverDestroy(SpTrsvSolver *);
SPTRSV_INTERN PetscLogDouble SpTrsvSolverFlops(SpTrsvSolver);
SPTRSV_INTERN PetscLogDouble SpTrsvSolverSweepFlops(SpTrsvSolver);
