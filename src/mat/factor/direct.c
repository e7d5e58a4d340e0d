/* The pieces both direct factors share (SuperLU LU, CHOLMOD Cholesky): options, -ksp_view, counts, zero pivots,
   and the symbolic phases of a build without the library (a clear PETSC_ERR_SUP) */
#include <sptrsv/direct.h>
#include <sptrsv/utils.h> /* SpTrsvOptionName() */
#include <petsc/private/matimpl.h>

const char *const SpTrsvLUOrderings[]   = {"petsc", "colamd", "SpTrsvLUOrdering", "SPTRSV_LU_ORDERING_", NULL};
const char *const SpTrsvCholOrderings[] = {"petsc", "amd", "metis", "nesdis", "auto", "SpTrsvCholOrdering", "SPTRSV_CHOL_ORDERING_", NULL};

PetscErrorCode SpTrsvDirectOptionsInitialize(SpTrsvDirectOptions *o)
{
  PetscFunctionBegin;
  PetscCall(PetscMemzero(o, sizeof(*o)));
  o->lu_ordering     = SPTRSV_LU_ORDERING_PETSC;
  o->pivot_threshold = 1.0; /* classical partial pivoting, as SuperLU's default */
  o->chol_ordering   = SPTRSV_CHOL_ORDERING_PETSC;
  o->chol_overlap    = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvDirectOptionsRead - -mat_sptrsv_lu_ordering, -mat_sptrsv_lu_pivot_threshold (LU) or -mat_sptrsv_cholesky_ordering
  (Cholesky), inside the factor's PetscOptionsBegin/End; also notes the name of PETSc's ordering for the view
*/
PetscErrorCode SpTrsvDirectOptionsRead(SpTrsvOptionItems PetscOptionsObject, PetscObject obj, MatFactorType ftype, SpTrsvDirectOptions *o)
{
  char        option[256];
  const char *prefix = NULL;
  PetscBool   flg;

  PetscFunctionBegin;
  if (ftype == MAT_FACTOR_LU) {
    PetscCall(PetscOptionsEnum("-mat_sptrsv_lu_ordering", "LU: column ordering from PETSc (-pc_factor_mat_ordering_type) or SuperLU's COLAMD", "MatSolverType sptrsv", SpTrsvLUOrderings, (PetscEnum)o->lu_ordering, (PetscEnum *)&o->lu_ordering, NULL));
    PetscCall(PetscOptionsReal("-mat_sptrsv_lu_pivot_threshold", "LU: SuperLU's partial pivoting threshold in [0, 1] (1: largest entry of the column; 0: the diagonal when nonzero)", "MatSolverType sptrsv", o->pivot_threshold, &o->pivot_threshold, &flg));
    if (flg && !(o->pivot_threshold >= 0.0 && o->pivot_threshold <= 1.0)) {
      PetscCall(SpTrsvOptionName(obj, "mat_sptrsv_lu_pivot_threshold", option, sizeof(option)));
      SETERRQ(PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "%s %g: must be in [0, 1]", option, (double)o->pivot_threshold);
    }
  } else if (ftype == MAT_FACTOR_CHOLESKY) {
    PetscCall(PetscOptionsEnum("-mat_sptrsv_cholesky_ordering", "Cholesky: ordering from PETSc (-pc_factor_mat_ordering_type) or CHOLMOD's (amd, metis, nesdis, auto)", "MatSolverType sptrsv", SpTrsvCholOrderings, (PetscEnum)o->chol_ordering, (PetscEnum *)&o->chol_ordering, NULL));
    PetscCall(PetscOptionsBool("-mat_sptrsv_cholesky_overlap", "Cholesky: CHOLMOD factors the symbolic phase's values in a host thread while the triangles are analysed and set up; the numeric phase takes that factor when the matrix has not changed", "MatSolverType sptrsv", o->chol_overlap, &o->chol_overlap, NULL));
  }
  /* the name PETSc's PC gave its ordering, for -ksp_view only (PCFactorSetMatOrderingType() in code is not seen) */
  PetscCall(PetscObjectGetOptionsPrefix(obj, &prefix));
  PetscCall(PetscOptionsGetString(obj->options, prefix, "-pc_factor_mat_ordering_type", o->petsc_ordering, sizeof(o->petsc_ordering), &flg));
  if (!flg) PetscCall(PetscStrncpy(o->petsc_ordering, MATORDERINGND, sizeof(o->petsc_ordering)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* counts as PETSc's MatGetInfo() reports them, and the partition's statistics, from the triangles */
PetscErrorCode SpTrsvDirectHeadSetCounts(SpTrsvFactor fac, SpTrsvDirectHead *h)
{
  const PetscInt n = fac->n;

  PetscFunctionBegin;
  h->nnzL     = fac->L->i[n] + n;
  h->nnzU     = fac->U->i[n] + n;
  h->nsuper   = fac->L->nsuper;
  h->maxsuper = 0;
  for (PetscInt k = 0; k < fac->L->nsuper; k++) h->maxsuper = PetscMax(h->maxsuper, fac->L->super[k + 1] - fac->L->super[k]);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SpTrsvFactorDirectView(SpTrsvFactor fac, PetscViewer viewer)
{
  SpTrsvDirectHead *h = SpTrsvFactorDirectHead(fac);

  PetscFunctionBegin;
  if (!h) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscViewerASCIIPrintf(viewer, "factor %s (%s, ordering %s, nnz(L)=%" PetscInt_FMT ", nnz(U)=%" PetscInt_FMT ", supernodes=%" PetscInt_FMT ", mean supernode width %.2f, widest %" PetscInt_FMT ")\n", fac->ftype == MAT_FACTOR_LU ? "LU" : "Cholesky", h->library, h->ordering, h->nnzL, h->nnzU, h->nsuper,
                                   h->nsuper ? (double)fac->n / (double)h->nsuper : 0.0, h->maxsuper));
  if (fac->ftype == MAT_FACTOR_LU) PetscCall(PetscViewerASCIIPrintf(viewer, "numeric factorizations %" PetscInt_FMT "; a new pivot order or pattern rebuilt the triangles and redid the analysis %" PetscInt_FMT " times\n", h->nnumeric, h->nrebuild));
  else PetscCall(PetscViewerASCIIPrintf(viewer, "numeric factorizations %" PetscInt_FMT " (the pattern of a Cholesky factor does not change), %" PetscInt_FMT " of them in a host thread beside the analysis\n", h->nnumeric, h->noverlap));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvDirectZeroPivot - the library met a zero pivot (LU) or a non-positive one (Cholesky) in factored row `row`:
  with errorif an error (code, msg), otherwise recorded in the factor as PETSc's own factorizations do
*/
PetscErrorCode SpTrsvDirectZeroPivot(SpTrsvFactor fac, PetscBool errorif, PetscErrorCode code, PetscInt row, PetscReal value, const char *msg)
{
  PetscFunctionBegin;
  PetscCheck(!errorif, PETSC_COMM_SELF, code, "%s", msg);
  PetscCall(PetscInfo(NULL, "%s: factor error MAT_FACTOR_NUMERIC_ZEROPIVOT\n", msg));
  fac->error           = MAT_FACTOR_NUMERIC_ZEROPIVOT;
  fac->zeropivot_row   = row;
  fac->zeropivot_value = value;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SpTrsvDirectNumericValues(Mat A, SpTrsvFactor fac, PetscInt nnzA, const PetscInt *sai, const PetscInt *saj, const char *kind, PetscErrorCode (*take)(void *, const PetscScalar *), void *ctx)
{
  const PetscInt     n = fac->n;
  const PetscInt    *ai, *aj;
  const PetscScalar *aa;
  PetscBool          same;
  PetscErrorCode     ierr;

  PetscFunctionBegin;
  fac->error           = MAT_FACTOR_NOERROR;
  fac->zeropivot_value = 0.0;
  fac->zeropivot_row   = 0;
  fac->nonfinite       = PETSC_FALSE;
  PetscCall(SpTrsvMatGetCSR(A, &ai, &aj, &aa));
  same = (PetscBool)(ai[n] == nnzA);
  if (same) PetscCall(PetscArraycmp(ai, sai, n + 1, &same));
  if (same) PetscCall(PetscArraycmp(aj, saj, nnzA, &same));
  ierr = same ? PETSC_SUCCESS : PETSC_ERR_ARG_WRONGSTATE;
  if (!ierr) ierr = SpTrsvFactorCheckFinite(n, ai, aj, aa, A->erroriffailure, &fac->nonfinite);
  if (!ierr) ierr = (*take)(ctx, aa);
  PetscCall(SpTrsvMatRestoreCSR(A, &ai, &aj, &aa));
  PetscCheck(same, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "The nonzero pattern of the matrix changed since the symbolic %s factorization: redo the symbolic factorization", kind);
  PetscCall(ierr);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SpTrsvDirectNumericFinish(SpTrsvFactor fac, PetscBool errorif, PetscBool refactored)
{
  PetscFunctionBegin;
  if (fac->nonfinite) {
    /* factored with zeros in place of the NaN/Inf entries: the factor is not A's, its solves give NaN */
    for (PetscInt k = 0; k < fac->n; k++) fac->U->idiag[k] = (PetscScalar)NAN;
  } else if (!fac->error) PetscCall(SpTrsvFactorCheckNonFiniteFactor(errorif, fac));
  if (!refactored && !fac->nonfinite) PetscFunctionReturn(PETSC_SUCCESS); /* the values the solvers took at setup */
  PetscCall(SpTrsvTriValuesChanged(fac->L));
  PetscCall(SpTrsvTriValuesChanged(fac->U));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SpTrsvDirectMarkFresh(Mat A, SpTrsvDirectHead *h)
{
  PetscFunctionBegin;
  PetscCall(PetscObjectGetId((PetscObject)A, &h->Aid));
  PetscCall(PetscObjectStateGet((PetscObject)A, &h->Astate));
  h->fresh = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SpTrsvDirectTakeFresh(Mat A, SpTrsvDirectHead *h, PetscBool *fresh)
{
  PetscObjectId    id;
  PetscObjectState state;

  PetscFunctionBegin;
  PetscCall(PetscObjectGetId((PetscObject)A, &id));
  PetscCall(PetscObjectStateGet((PetscObject)A, &state));
  *fresh   = (PetscBool)(h->fresh && id == h->Aid && state == h->Astate);
  h->fresh = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

#if !defined(PETSC_SPTRSV_HAVE_SUPERLU)
PetscErrorCode SpTrsvFactorLUSymbolic(Mat A, IS col, const MatFactorInfo *info, const SpTrsvDirectOptions *o, SpTrsvFactor fac)
{
  PetscFunctionBegin;
  SETERRQ(PETSC_COMM_SELF, PETSC_ERR_SUP, "LU factors of the sptrsv_* solver types need SuperLU: this build of petsc-sptrsv has none (install libsuperlu-dev, or carry .carry/directlibs, and rebuild: the makefile defines PETSC_SPTRSV_HAVE_SUPERLU when it finds slu_ddefs.h)");
}
PetscErrorCode SpTrsvFactorLUNumeric(Mat A, const MatFactorInfo *info, SpTrsvFactor fac)
{
  PetscFunctionBegin;
  SETERRQ(PETSC_COMM_SELF, PETSC_ERR_SUP, "LU factors of the sptrsv_* solver types need SuperLU: this build has none");
}
#endif

#if !defined(PETSC_SPTRSV_HAVE_CHOLMOD)
PetscErrorCode SpTrsvFactorCholeskySymbolic(Mat A, IS perm, const MatFactorInfo *info, const SpTrsvDirectOptions *o, SpTrsvFactor fac)
{
  PetscFunctionBegin;
  SETERRQ(PETSC_COMM_SELF, PETSC_ERR_SUP, "Cholesky factors of the sptrsv_* solver types need CHOLMOD (SuiteSparse): this build of petsc-sptrsv has none (install libsuitesparse-dev, or carry .carry/directlibs, and rebuild: the makefile defines PETSC_SPTRSV_HAVE_CHOLMOD when it finds cholmod.h)");
}
PetscErrorCode SpTrsvFactorCholeskyNumeric(Mat A, const MatFactorInfo *info, SpTrsvFactor fac)
{
  PetscFunctionBegin;
  SETERRQ(PETSC_COMM_SELF, PETSC_ERR_SUP, "Cholesky factors of the sptrsv_* solver types need CHOLMOD (SuiteSparse): this build has none");
}
#endif
