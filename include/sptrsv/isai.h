/* SpTrsvISAI: incomplete sparse approximate inverse of a (block) triangle (private to the plugin) */
#pragma once
#include <sptrsv/blocktri.h>
#include <sptrsv/deviceops.h> /* the names SpTrsvISAI, SpTrsvCUDAISAI, SpTrsvCUDABILU */

/*
   N ~ T^{-1} for a block triangle T (papers 003 and Anzt et al.): the pattern of N is S(|T|^k), the
   pattern of the k-th power of T with its diagonal (k = 1: the pattern of T), and every block column j
   of N solves the small block triangular system
       T(J,J) N(J,j) = E_j(J),   J = the block rows of column j of N,
   where E_j(J) is the identity block at j and zero elsewhere. The small systems are never formed: each
   entry T(r_p, r_q) is looked up in block row r_p of T when it is needed.

   Two paths solve a column, with identical arithmetic (same operations in the same order):
   - short (at most short_max blocks, the GPU's one-warp-per-column case): the column's rows and values
     live in a local buffer and T(r_p, :) is merged with J;
   - long (more blocks): the values are written in place and a row-position map of size n finds T(r_p, r_q).
   No column is truncated: a long column is solved exactly.

   Storage: N in block CSR (columns ascending, diagonal included; bs*bs values per block, column-major),
   plus its column view (ci, cr) with cmap[column slot] = CSR slot.
*/
#define SPTRSV_ISAI_SHORT_MAX 32

struct _n_SpTrsvISAI {
  PetscInt       n, bs, power;
  SpTrsvUplo     uplo;
  PetscInt      *i, *j; /* pattern of N by rows */
  PetscScalar   *a;
  PetscInt      *ci, *cr, *cmap; /* pattern of N by columns: rows ascending; column slot -> CSR slot */
  PetscInt       short_max;      /* columns with more blocks take the long path */
  PetscInt       maxcol;         /* blocks in the longest column */
  PetscInt       nlong;          /* columns on the long path */
  PetscInt      *pos;            /* long path: position in the active column of each block row, -1 elsewhere */
  PetscLogDouble flops;          /* of the last numeric phase */
  PetscLogDouble time_pattern, time_solve;
};

SPTRSV_INTERN PetscErrorCode SpTrsvPatternPower(PetscInt, const PetscInt *, const PetscInt *, PetscInt, PetscInt **, PetscInt **);
SPTRSV_INTERN PetscErrorCode SpTrsvISAICreate(SpTrsvBlockTri, PetscInt, SpTrsvISAI *);
SPTRSV_INTERN PetscErrorCode SpTrsvISAISetShortMax(SpTrsvISAI, PetscInt);
SPTRSV_INTERN PetscErrorCode SpTrsvISAINumeric(SpTrsvISAI, SpTrsvBlockTri);
SPTRSV_INTERN PetscErrorCode SpTrsvISAIDestroy(SpTrsvISAI *);

/*
   SpTrsvCUDAISAI - device copies of the column view of N ~ T^{-1} (src/cuda/isai_kernels.cu; exists in CUDA
   builds, called from host code through the device-ops table, include/sptrsv/deviceops.h), made once per pattern;
   SpTrsvCUDAISAINumeric() solves every block column of N on the GPU (the arithmetic of SpTrsvISAINumeric(), in the
   same order). T is either a host triangle, uploaded at each numeric phase
   (SpTrsvCUDAISAICreate()), or the L or U of a GPU block ILU, read in place (SpTrsvCUDAISAICreateOnBILU()).
   Whether a usable GPU is there is the CUDA backend's question (SpTrsvDeviceOpsGet()).
*/
SPTRSV_INTERN PetscErrorCode SpTrsvCUDAISAICreate(SpTrsvISAI, SpTrsvBlockTri, SpTrsvCUDAISAI *);
SPTRSV_INTERN PetscErrorCode SpTrsvCUDAISAICreateOnBILU(SpTrsvISAI, SpTrsvCUDABILU, SpTrsvCUDAISAI *);
SPTRSV_INTERN PetscErrorCode SpTrsvCUDAISAINumeric(SpTrsvCUDAISAI, SpTrsvISAI, SpTrsvBlockTri, PetscBool);
SPTRSV_INTERN PetscErrorCode SpTrsvCUDAISAIDownload(SpTrsvCUDAISAI, SpTrsvISAI);
SPTRSV_INTERN PetscErrorCode SpTrsvCUDAISAIGetDeviceValues(SpTrsvCUDAISAI, const PetscScalar **);
SPTRSV_INTERN PetscErrorCode SpTrsvCUDAISAIDestroy(SpTrsvCUDAISAI *);
