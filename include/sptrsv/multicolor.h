/* SpTrsvMC: a matrix stored in colour order for multicolor Gauss-Seidel sweeps (private to the plugin) */
#pragma once
#include <sptrsv/backend.h>
#include <sptrsv/deviceops.h> /* the names SpTrsvMC, SpTrsvCUDAMC */
#include <sptrsv/coloring.h>

/*
   A multicolor sweep is Gauss-Seidel in the colour-permuted order: colour by colour (forward: 0 .. ncolors-1,
   backward: the reverse), every row i of the colour is updated with the newest values of all other rows,
       x_i = keep * x_i + idiag_i * (b_i - sum_{j != i} a_ij x_j),    keep = 1 - omega,
   idiag_i = omega / (a_ii + shift) (MatSOR's diagonal rules, see SpTrsvGSFillValues()). The rows of one colour
   are not adjacent (include/sptrsv/coloring.h), so they are updated at once and in place: one launch per
   colour on the GPU. One forward sweep equals MatSOR's forward sweep of P A P^T on P b, P x (P the colour
   order), not that of A itself.

   Storage: the positions k = 0 .. n-1 list the rows in colour order (perm[k]); the off-diagonal entries of
   row perm[k] are ptr[k] .. ptr[k+1]-1, with natural column indices (vectors stay in natural order) and
   vmap giving the index of each value in the matrix's value array; dmap[k] is the index of its diagonal.
   With transpose the rows are the matrix's columns (the storage of A^T on the same colouring, for the
   transposed application). Values live on the host (val, idiag: the host executor, and the source of an
   upload) and, on the CUDA backend, on the device (dev), which can also be refreshed from a device value
   array in place (SpTrsvMCSetValuesDevice()).

   On the CUDA backend the colouring (jp, dmda) and the storage are built on the GPU from the matrix's device pattern
   (a MATSEQAIJCUSPARSE's, in place; a host pattern is uploaded once): the host arrays perm .. idiag are then NULL
   until SpTrsvMCGetHostPattern() downloads them, which only a host refresh (a NaN/Inf or zero diagonal to name) and
   the transposed storage need.
*/
/* SpTrsvMC and SpTrsvCUDAMC (the device copy, below) are named in include/sptrsv/deviceops.h */
struct _n_SpTrsvMC {
  PetscInt                n, nnz, ncolors;
  PetscBool               transpose;
  PetscInt               *colptr;     /* ncolors + 1: colour c holds positions colptr[c] .. colptr[c+1]-1 */
  PetscInt               *perm;       /* n: the row at each position */
  PetscInt               *ipos;       /* n: the position of each row (inverse of perm) */
  PetscInt               *ptr, *idx;  /* off-diagonal entries by position; natural column indices */
  PetscInt               *vmap, *dmap; /* value index in the matrix of each entry, of each position's diagonal */
  PetscScalar            *val, *idiag; /* host values: entries by position, relaxed inverse diagonal by position */
  PetscReal               omega, shift;
  const SpTrsvBackendOps *backend;
  SpTrsvCUDAMC            dev; /* the device copy on the CUDA backend */
  PetscBool               use_graph;
  /* how it was coloured, for -ksp_view */
  SpTrsvColoringType      coloring;    /* natural, jp or dmda (auto resolved) */
  PetscBool               on_device;   /* coloured and stored on the GPU */
  PetscInt                rounds;      /* jp rounds on the GPU */
  PetscInt                grid_badrow; /* auto: a row the dmda rule gave a neighbour's colour (jp was used), or -1 */
};

SPTRSV_INTERN PetscErrorCode SpTrsvMCCreate(Mat, PetscReal, PetscReal, const SpTrsvBackendOps *, PetscBool, const SpTrsvColoringSpec *, const char[], SpTrsvMC *);
SPTRSV_INTERN PetscErrorCode SpTrsvMCGetHostPattern(SpTrsvMC);
SPTRSV_INTERN PetscErrorCode SpTrsvMCCreateTranspose(SpTrsvMC, Mat, SpTrsvMC *);
SPTRSV_INTERN PetscErrorCode SpTrsvMCSetValues(SpTrsvMC, const PetscScalar *, const PetscScalar *);
SPTRSV_INTERN PetscErrorCode SpTrsvMCSetValuesDevice(SpTrsvMC, const PetscScalar *, PetscBool *);
SPTRSV_INTERN PetscErrorCode SpTrsvMCSweep(SpTrsvMC, PetscBool, PetscBool, const PetscScalar *, PetscScalar *);
SPTRSV_INTERN PetscErrorCode SpTrsvMCSweepHost(SpTrsvMC, PetscBool, PetscBool, const PetscScalar *, PetscScalar *);
SPTRSV_INTERN PetscErrorCode SpTrsvMCView(SpTrsvMC, PetscViewer);
SPTRSV_INTERN PetscLogDouble SpTrsvMCSweepFlops(SpTrsvMC);
SPTRSV_INTERN PetscErrorCode SpTrsvMCDestroy(SpTrsvMC *);

/*
   SpTrsvCUDAMC - the device copy of an SpTrsvMC (src/cuda/gs_multicolor.cu; exists in CUDA builds, called from host
   code through the device-ops table, include/sptrsv/deviceops.h): the pattern by position, 32-bit; values and idiag uploaded from the host arrays or
   gathered from a device value array of the matrix (idiag computed there with MatSOR's rules; *clean is false
   when a value or an inverse diagonal entry is not finite or a diagonal entry is zero under omega = 1 and
   shift <= 0: the caller then redoes the refresh on the host, which names the row). A sweep is one launch per
   colour (replayed as a CUDA graph with use_graph), on the backend's stream, no synchronisation.
*/
SPTRSV_INTERN PetscErrorCode SpTrsvCUDAMCCreate(SpTrsvMC, SpTrsvCUDAMC *);
SPTRSV_INTERN PetscErrorCode SpTrsvCUDAMCCreateFromColors(SpTrsvMC, const int *, const int *, const int *, PetscInt, SpTrsvCUDAMC *);
SPTRSV_INTERN PetscErrorCode SpTrsvCUDAMCDownloadPattern(SpTrsvCUDAMC, SpTrsvMC);
SPTRSV_INTERN PetscErrorCode SpTrsvCUDAMCColorAndCreate(SpTrsvMC, const int *, const int *, const PetscInt *, const PetscInt *, const SpTrsvColoringSpec *, const PetscInt *, PetscInt, SpTrsvCUDAMC *);
SPTRSV_INTERN PetscErrorCode SpTrsvCUDAMCUploadValues(SpTrsvCUDAMC, const PetscScalar *, const PetscScalar *);
SPTRSV_INTERN PetscErrorCode SpTrsvCUDAMCGatherValues(SpTrsvCUDAMC, const PetscScalar *, PetscBool *);
SPTRSV_INTERN PetscErrorCode SpTrsvCUDAMCSweep(SpTrsvCUDAMC, PetscBool, PetscBool, const PetscScalar *, PetscScalar *);
SPTRSV_INTERN PetscErrorCode SpTrsvCUDAMCDestroy(SpTrsvCUDAMC *);
