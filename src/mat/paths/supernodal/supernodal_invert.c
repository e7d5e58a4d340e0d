/*
   sptrsv_supernodal, -mat_sptrsv_invert_diag auto: the conditioning check of the inverted diagonal blocks (see
   include/sptrsv/paths/supernodal.h, "Defaults chosen from the triangle"). The host executor (supernodal.c) computes
   kappa with SpTrsvSupernodeBlockCond, the CUDA executor (src/cuda/paths/supernodal/supernodal.cu) with a kernel of the same
   arithmetic; both record the figures here for -ksp_view.
*/
#include <sptrsv/paths/supernodal_invert.h>

/*
  SpTrsvSupernodeBlockCond - kappa = ||D||_inf ||X||_inf of a w x w diagonal block D (column-major, its diagonal holding
  the inverted diagonal, so D's true diagonal entry is 1 / D_ii) and its computed inverse X (column-major, or row-major
  with xrow); Inf when either norm is not finite (SpTrsvSupernodeCondRow, the GPU's arithmetic too)
*/
PetscReal SpTrsvSupernodeBlockCond(PetscInt w, const PetscScalar *D, const PetscScalar *X, PetscBool xrow)
{
  PetscReal nd = 0, nx = 0;

  for (PetscInt i = 0; i < w; i++) SpTrsvSupernodeCondRow(w, D, X, xrow, i, &nd, &nx);
  return SpTrsvSupernodeCondKappa(nd, nx);
}

/*
  SpTrsvSupernodeInvertCheckRecord - the figures of one check into c: kappa[K] for each of the ns supernodes, negative
  for those not checked (cuBLAS supernodes); a block is inverted when kappa[K] <= cond (the plan's invert_cond)
*/
void SpTrsvSupernodeInvertCheckRecord(SpTrsvSupernodeInvertCheck *c, PetscReal cond, PetscInt ns, const PetscReal *kappa)
{
  c->checked   = PETSC_TRUE;
  c->nblocks   = 0;
  c->ninverted = 0;
  c->kappa_inv = 0;
  c->kappa_max = 0;
  for (PetscInt K = 0; K < ns; K++) {
    const PetscReal k = kappa[K];
    if (!(k >= 0)) continue; /* not checked (a NaN never comes: the kernels write Inf for it) */
    c->nblocks++;
    c->kappa_max = PetscMax(c->kappa_max, k);
    if (k <= cond) {
      c->ninverted++;
      c->kappa_inv = PetscMax(c->kappa_inv, k);
    }
  }
}

/* SpTrsvSupernodeInvertCheckView - the -ksp_view line of the last check c (nothing unless invert_auto: the plan inverts
   its blocks with invert_diag auto) */
PetscErrorCode SpTrsvSupernodeInvertCheckView(const SpTrsvSupernodeInvertCheck *c, PetscBool invert_auto, PetscReal cond, const char *prefix, PetscViewer viewer)
{
  PetscFunctionBegin;
  if (!invert_auto) PetscFunctionReturn(PETSC_SUCCESS);
  if (!c->checked) {
    PetscCall(PetscViewerASCIIPrintf(viewer, "inverted diagonal blocks: condition number at most %g (-%smat_sptrsv_invert_diag_cond), checked at the numeric phase (none yet)\n", (double)cond, prefix));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscViewerASCIIPrintf(viewer, "inverted diagonal blocks: %" PetscInt_FMT " of %" PetscInt_FMT " (condition number at most %g, -%smat_sptrsv_invert_diag_cond; largest inverted %.3g, largest %.3g); %" PetscInt_FMT " solved by TRSV\n", c->ninverted, c->nblocks, (double)cond, prefix, (double)c->kappa_inv, (double)c->kappa_max, c->nblocks - c->ninverted));
  PetscFunctionReturn(PETSC_SUCCESS);
}
