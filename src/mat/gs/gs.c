/*
   Gauss-Seidel / SOR sweeps on a backend (paper 000, section 5.2), with the semantics of PETSc's
   MatSOR for a sequential AIJ matrix (point sweeps, no inodes): see include/sptrsv/gs.h.
*/
#include <sptrsv/gs.h>

/* the split A = L + D + U: patterns of L and U and where their values come from in A */
static PetscErrorCode SpTrsvGSSplit(SpTrsvGS gs, Mat A)
{
  PetscInt        n, nr, nl = 0, nu = 0, *li, *lj, *ui, *uj;
  const PetscInt *ia, *ja;
  PetscBool       done;

  PetscFunctionBegin;
  PetscCall(MatGetRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &n, &ia, &ja, &done));
  PetscCheck(done, PETSC_COMM_SELF, PETSC_ERR_SUP, "Cannot get the rows of the matrix");
  for (PetscInt r = 0; r < n; r++)
    for (PetscInt p = ia[r]; p < ia[r + 1]; p++) {
      if (ja[p] < r) nl++;
      else if (ja[p] > r) nu++;
    }
  /* separate allocations: SpTrsvTriSetPattern takes ownership and frees each one */
  PetscCall(PetscMalloc1(n + 1, &li));
  PetscCall(PetscMalloc1(nl + 1, &lj));
  PetscCall(PetscMalloc1(n + 1, &ui));
  PetscCall(PetscMalloc1(nu + 1, &uj));
  PetscCall(PetscMalloc3(nl + 1, &gs->lmap, nu + 1, &gs->umap, n + 1, &gs->dmap));
  li[0] = ui[0] = 0;
  nl = nu = 0;
  for (PetscInt r = 0; r < n; r++) {
    gs->dmap[r] = -1;
    for (PetscInt p = ia[r]; p < ia[r + 1]; p++) {
      const PetscInt c = ja[p];
      PetscCheck(p == ia[r] || ja[p - 1] < c, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Row %" PetscInt_FMT " has unsorted or repeated column %" PetscInt_FMT, r, c);
      if (c < r) {
        gs->lmap[nl] = p;
        lj[nl++]     = c;
      } else if (c > r) {
        gs->umap[nu] = p;
        uj[nu++]     = c;
      } else gs->dmap[r] = p;
    }
    PetscCheck(gs->dmap[r] >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "Gauss-Seidel: row %" PetscInt_FMT " has no diagonal entry", r);
    li[r + 1] = nl;
    ui[r + 1] = nu;
  }
  nr = n; /* MatRestoreRowIJ() may reset its size argument */
  PetscCall(MatRestoreRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &nr, &ia, &ja, &done));
  PetscCall(SpTrsvTriCreate(n, SPTRSV_LOWER, PETSC_FALSE, &gs->L));
  PetscCall(SpTrsvTriCreate(n, SPTRSV_UPPER, PETSC_FALSE, &gs->U));
  PetscCall(SpTrsvTriSetPattern(gs->L, li, lj));
  PetscCall(SpTrsvTriSetPattern(gs->U, ui, uj));
  gs->n = n;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* structurally symmetric iff row i of L is column i of U (both ascending) for every i */
static PetscErrorCode SpTrsvGSCheckStructSym(SpTrsvGS gs)
{
  SpTrsvTri L = gs->L, U = gs->U;

  PetscFunctionBegin;
  PetscCall(SpTrsvTriBuildCSC(U));
  gs->structsym = PETSC_TRUE;
  for (PetscInt r = 0; r < gs->n && gs->structsym; r++) {
    if (L->i[r + 1] - L->i[r] != U->ci[r + 1] - U->ci[r]) gs->structsym = PETSC_FALSE;
    else
      for (PetscInt p = L->i[r], q = U->ci[r]; p < L->i[r + 1]; p++, q++)
        if (L->j[p] != U->cj[q]) {
          gs->structsym = PETSC_FALSE;
          break;
        }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  values of L and U and the relaxed inverse diagonal from A, with MatSOR's rules (MatInvertDiagonal_SeqAIJ in
  PETSc 3.18):
    omega = 1 and shift <= 0:  idiag = 1 / a_ii (the shift is not applied: a negative shift only says that a
                               zero diagonal entry is not an error); a zero a_ii is an error when shift = 0,
                               and with shift < 0 it is recorded in zerodiag_row (the last one, as PETSc);
    otherwise:                 idiag = omega / (a_ii + shift), Inf where that is zero (not an error in MatSOR).
  NaN/Inf values and inverse diagonal entries are recorded in nonfinite_row/col (MatSOR does not look):
  PC gs decides what they mean (a PC failure or an error, see PCSetUp_GS()).
*/
static PetscErrorCode SpTrsvGSFillValues(SpTrsvGS gs, Mat A)
{
  const PetscScalar *aa;
  SpTrsvTri          L = gs->L, U = gs->U;
  const PetscBool    plain = (PetscBool)(gs->omega == 1.0 && gs->shift <= 0.0);

  PetscFunctionBegin;
  gs->zerodiag_row    = -1;
  gs->nonfinite_row   = -1;
  gs->nonfinite_col   = -1;
  gs->nonfinite_idiag = PETSC_FALSE;
  PetscCall(MatSeqAIJGetArrayRead(A, &aa));
  for (PetscInt r = 0; r < gs->n; r++) {
    const PetscScalar a = aa[gs->dmap[r]];

    if (plain) {
      if (a == 0.0) {
        PetscCheck(gs->shift != 0.0, PETSC_COMM_SELF, PETSC_ERR_ARG_INCOMP, "Gauss-Seidel: zero diagonal on row %" PetscInt_FMT " (an error with omega = 1 and no diagonal shift, as PCSOR; a shift > 0 is added to the diagonal, a shift < 0 makes this a PC failure instead)", r);
        gs->zerodiag_row = r;
      }
      L->idiag[r] = U->idiag[r] = 1.0 / a;
    } else L->idiag[r] = U->idiag[r] = gs->omega / (a + gs->shift);
    if (gs->nonfinite_row < 0 && (PetscIsInfOrNanScalar(a) || (PetscIsInfOrNanScalar(L->idiag[r]) && !(plain && a == 0.0)))) {
      gs->nonfinite_row   = r;
      gs->nonfinite_col   = r;
      gs->nonfinite_idiag = (PetscBool)!PetscIsInfOrNanScalar(a);
    }
    for (PetscInt p = L->i[r]; p < L->i[r + 1]; p++) {
      L->a[p] = aa[gs->lmap[p]];
      if (gs->nonfinite_row < 0 && PetscIsInfOrNanScalar(L->a[p])) {
        gs->nonfinite_row = r;
        gs->nonfinite_col = L->j[p];
      }
    }
    for (PetscInt p = U->i[r]; p < U->i[r + 1]; p++) {
      U->a[p] = aa[gs->umap[p]];
      if (gs->nonfinite_row < 0 && PetscIsInfOrNanScalar(U->a[p])) {
        gs->nonfinite_row = r;
        gs->nonfinite_col = U->j[p];
      }
    }
  }
  PetscCall(MatSeqAIJRestoreArrayRead(A, &aa));
  PetscCall(SpTrsvTriValuesChanged(L));
  PetscCall(SpTrsvTriValuesChanged(U));
  gs->dscale_valid = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvGSCreate - split a sequential AIJ matrix, analyse both sweeps with the plan type and hand them
  to the backend (one symbolic phase per pattern)
*/
PetscErrorCode SpTrsvGSCreate(Mat A, PetscReal omega, PetscReal shift, SpTrsvFormat format, SpTrsvPath path, const SpTrsvBackendOps *backend, const SpTrsvSolverOptions *opts, SpTrsvGS *gsout)
{
  SpTrsvGS gs;
  PetscInt m, n;

  PetscFunctionBegin;
  PetscCall(MatGetSize(A, &m, &n));
  PetscCheck(m == n, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "Gauss-Seidel needs a square matrix, got %" PetscInt_FMT " x %" PetscInt_FMT, m, n);
  PetscCheck(omega > 0.0 && omega < 2.0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Relaxation factor omega = %g is outside (0, 2)", (double)omega);
  PetscCall(PetscNew(&gs));
  gs->omega   = omega;
  gs->shift   = shift;
  gs->format  = format;
  gs->path    = path;
  gs->backend = backend;
  gs->opts    = *opts;
  PetscCall(SpTrsvGSSplit(gs, A));
  PetscCall(SpTrsvGSCheckStructSym(gs));
  PetscCall(SpTrsvGSFillValues(gs, A));
  PetscCall(SpTrsvSolverCreateSweep(gs->L, gs->U, omega, format, path, backend, opts, &gs->fwd));
  PetscCall(SpTrsvSolverCreateSweep(gs->U, gs->L, omega, format, path, backend, opts, &gs->bwd));
  PetscCall((*backend->vec_alloc)(gs->n, &gs->xold));
  PetscCall((*backend->vec_alloc)(gs->n, &gs->dscale));
  *gsout = gs;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvGSUpdateValues - new values of A on the same pattern (the solvers refresh their copies on the
  next sweep)
*/
PetscErrorCode SpTrsvGSUpdateValues(SpTrsvGS gs, Mat A)
{
  PetscFunctionBegin;
  PetscCall(SpTrsvGSFillValues(gs, A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* one sweep from the current x (in place when that is safe, else from a copy) */
static PetscErrorCode SpTrsvGSSweepFrom(SpTrsvGS gs, SpTrsvSolver s, const PetscScalar *b, PetscScalar *x)
{
  const PetscScalar *xold = x;

  PetscFunctionBegin;
  if (!gs->structsym && gs->format == SPTRSV_FORMAT_CSR) {
    PetscCall((*gs->backend->copy)(gs->n, x, gs->xold));
    xold = gs->xold;
  }
  PetscCall(SpTrsvSolverSweep(s, b, xold, x));
  gs->flops += SpTrsvSolverSweepFlops(s);
  gs->nsweeps++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvGSApply - its iterations of the sweep type on x (backend arrays, b != x), as MatSOR does them:
  with zero_guess the first forward (or backward) sweep starts from x = 0 and ignores x's content;
  a symmetric iteration is a forward sweep followed by a backward sweep
*/
PetscErrorCode SpTrsvGSApply(SpTrsvGS gs, SpTrsvGSSweep type, PetscInt its, PetscBool zero_guess, const PetscScalar *b, PetscScalar *x)
{
  PetscFunctionBegin;
  PetscCheck(its > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Number of Gauss-Seidel iterations must be positive, got %" PetscInt_FMT, its);
  if (!gs->n) PetscFunctionReturn(PETSC_SUCCESS);
  for (PetscInt it = 0; it < its; it++) {
    PetscBool zero = (PetscBool)(zero_guess && it == 0);
    if (type & SPTRSV_GS_FORWARD) {
      if (zero) {
        PetscCall(SpTrsvSolverApply(gs->fwd, b, x));
        gs->flops += SpTrsvSolverFlops(gs->fwd);
        gs->nsweeps++;
      } else PetscCall(SpTrsvGSSweepFrom(gs, gs->fwd, b, x));
      zero = PETSC_FALSE;
    }
    if (type & SPTRSV_GS_BACKWARD) {
      if (zero) {
        PetscCall(SpTrsvSolverApply(gs->bwd, b, x));
        gs->flops += SpTrsvSolverFlops(gs->bwd);
        gs->nsweeps++;
      } else PetscCall(SpTrsvGSSweepFrom(gs, gs->bwd, b, x));
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvGSApplyTranspose - the transpose of one iteration from a zero guess (work: a backend vector):
    forward   M = D/omega + L:  x = M^{-T} b, a solve with L^T;
    backward  M = D/omega + U:  x = M^{-T} b, a solve with U^T;
    symmetric M^{-1} = (D/omega + U)^{-1} ((2 - omega)/omega) D (D/omega + L)^{-1}, so
              x = (D/omega + L)^{-T} ((2 - omega)/omega) D (D/omega + U)^{-T} b.
*/
PetscErrorCode SpTrsvGSApplyTranspose(SpTrsvGS gs, SpTrsvGSSweep type, const PetscScalar *b, PetscScalar *x, PetscScalar *work)
{
  PetscFunctionBegin;
  if (!gs->n) PetscFunctionReturn(PETSC_SUCCESS);
  if (!gs->fwdT) PetscCall(SpTrsvSolverCreateWithOptions(gs->L, PETSC_TRUE, gs->format, gs->path, gs->backend, &gs->opts, &gs->fwdT));
  if (!gs->bwdT) PetscCall(SpTrsvSolverCreateWithOptions(gs->U, PETSC_TRUE, gs->format, gs->path, gs->backend, &gs->opts, &gs->bwdT));
  switch (type) {
  case SPTRSV_GS_FORWARD:
    PetscCall(SpTrsvSolverApply(gs->fwdT, b, x));
    gs->flops += SpTrsvSolverFlops(gs->fwdT);
    break;
  case SPTRSV_GS_BACKWARD:
    PetscCall(SpTrsvSolverApply(gs->bwdT, b, x));
    gs->flops += SpTrsvSolverFlops(gs->bwdT);
    break;
  case SPTRSV_GS_SYMMETRIC:
    if (!gs->dscale_valid) {
      PetscScalar *h;
      PetscCall(PetscMalloc1(gs->n, &h));
      for (PetscInt i = 0; i < gs->n; i++) h[i] = (2.0 - gs->omega) / gs->L->idiag[i];
      PetscCall((*gs->backend->set_values)(gs->n, h, gs->dscale));
      PetscCall(PetscFree(h));
      gs->dscale_valid = PETSC_TRUE;
    }
    PetscCall(SpTrsvSolverApply(gs->bwdT, b, work));
    PetscCall((*gs->backend->pointwise_mult)(gs->n, gs->dscale, work, work));
    PetscCall(SpTrsvSolverApply(gs->fwdT, work, x));
    gs->flops += SpTrsvSolverFlops(gs->fwdT) + SpTrsvSolverFlops(gs->bwdT) + gs->n;
    break;
  }
  gs->nsweeps++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SpTrsvGSDestroy(SpTrsvGS *gsp)
{
  SpTrsvGS gs = *gsp;

  PetscFunctionBegin;
  if (!gs) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(SpTrsvSolverDestroy(&gs->fwd));
  PetscCall(SpTrsvSolverDestroy(&gs->bwd));
  PetscCall(SpTrsvSolverDestroy(&gs->fwdT));
  PetscCall(SpTrsvSolverDestroy(&gs->bwdT));
  if (gs->xold) PetscCall((*gs->backend->vec_free)(&gs->xold));
  if (gs->dscale) PetscCall((*gs->backend->vec_free)(&gs->dscale));
  PetscCall(SpTrsvTriDestroy(&gs->L));
  PetscCall(SpTrsvTriDestroy(&gs->U));
  PetscCall(PetscFree3(gs->lmap, gs->umap, gs->dmap));
  PetscCall(PetscFree(gs));
  *gsp = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}
