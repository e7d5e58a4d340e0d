/* The supernodal path's conditioning check of its inverted diagonal blocks (-mat_sptrsv_invert_diag auto, see
   include/sptrsv/paths/supernodal.h, "Defaults chosen from the triangle"): the figures of the last check and the
   functions of src/mat/paths/supernodal/supernodal_invert.c, called by the host and CUDA executors (private to the
   plugin) */
#pragma once
#include <sptrsv/compat.h> /* SPTRSV_INTERN */
#include <petscviewer.h>
#include <sptrsv/blockinv.h> /* the inverse of a diagonal block and its condition number */

/* the conditioning check of the last numeric phase (invert_diag auto; written by the executor that ran it) */
typedef struct {
  PetscBool checked;              /* a numeric phase ran the check */
  PetscInt  nblocks, ninverted;   /* team and split supernodes checked, of which inverted (kappa within the bound) */
  PetscReal kappa_inv, kappa_max; /* the largest kappa among the inverted blocks, among all (Inf: not finite) */
} SpTrsvSupernodeInvertCheck;

/* kappa of one block on the host (SpTrsvSupernodeCondRow's arithmetic); record a check's figures from the kappa of
   each of ns supernodes (negative: not checked; a block is inverted when its kappa is at most cond); their -ksp_view
   line (nothing unless invert_diag auto is on: the 2nd argument; the options' prefix) */
SPTRSV_INTERN PetscReal      SpTrsvSupernodeBlockCond(PetscInt, const PetscScalar *, const PetscScalar *, PetscBool);
SPTRSV_INTERN void           SpTrsvSupernodeInvertCheckRecord(SpTrsvSupernodeInvertCheck *, PetscReal, PetscInt, const PetscReal *);
SPTRSV_INTERN PetscErrorCode SpTrsvSupernodeInvertCheckView(const SpTrsvSupernodeInvertCheck *, PetscBool, PetscReal, const char *, PetscViewer);
