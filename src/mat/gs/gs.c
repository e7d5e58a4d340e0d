/*
   Gauss-Seidel / SOR sweeps on a backend (paper 000, section 5.2), with the semantics of PETSc's
   MatSOR for a sequential AIJ matrix (point sweeps, no inodes): see include/sptrsv/gs.h.
*/
#include <sptrsv/gs.h>
#include <sptrsv/deviceops.h>

/* the split A = L + D + U: patterns of L and U and where their values come from in A */
static PetscErrorCode SpTrsvGSSplit(SpTrsvGS gs, Mat A)
{
  PetscInt        n, nr, nl = 0, nu = 0, *li, *lj, *ui, *uj;
  const PetscInt *ia, *ja;
  PetscBool       done;

  PetscFunctionBegin;
  PetscCall(MatGetRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &n, &ia, &ja, &done));
  PetscCheck(done, PETSC_COMM_SELF, PETSC_ERR_SUP, "Cannot get the rows of the matrix");
  for (PetscInt r = 0; r < n; r++) {
    PetscBool hasdiag = PETSC_FALSE;

    for (PetscInt p = ia[r]; p < ia[r + 1]; p++) {
      if (ja[p] < r) nl++;
      else if (ja[p] > r) nu++;
      else hasdiag = PETSC_TRUE;
    }
    if (!hasdiag) { /* before anything is allocated (nothing left behind by the error) */
      nr = n;
      PetscCall(MatRestoreRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &nr, &ia, &ja, &done));
      SETERRQ(PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "Gauss-Seidel: row %" PetscInt_FMT " has no diagonal entry", r);
    }
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
  values of L and U (or of the colour-ordered storage) and the relaxed inverse diagonal from A, with MatSOR's rules (MatInvertDiagonal_SeqAIJ in
  PETSc 3.18):
    omega = 1 and shift <= 0:  idiag = 1 / a_ii (the shift is not applied: a negative shift only says that a
                               zero diagonal entry is not an error); a zero a_ii is an error when shift = 0,
                               and with shift < 0 it is recorded in zerodiag_row (the last one, as PETSc);
    otherwise:                 idiag = omega / (a_ii + shift), Inf where that is zero (not an error in MatSOR).
  NaN/Inf values and inverse diagonal entries are recorded in nonfinite_row/col (MatSOR does not look):
  PC gs decides what they mean (a PC failure or an error, see PCSetUp_GS()).
*/
/* the relaxed inverse diagonal entry of row r by the rules above, the failures recorded in gs */
static PetscErrorCode SpTrsvGSDiagonal(SpTrsvGS gs, PetscInt r, PetscScalar a, PetscScalar *idiag)
{
  const PetscBool plain = (PetscBool)(gs->omega == 1.0 && gs->shift <= 0.0);

  PetscFunctionBegin;
  if (plain) {
    if (a == 0.0) {
      PetscCheck(gs->shift != 0.0, PETSC_COMM_SELF, PETSC_ERR_ARG_INCOMP, "Gauss-Seidel: zero diagonal on row %" PetscInt_FMT " (an error with omega = 1 and no diagonal shift, as PCSOR; a shift > 0 is added to the diagonal, a shift < 0 makes this a PC failure instead)", r);
      gs->zerodiag_row = r;
    }
    *idiag = 1.0 / a;
  } else *idiag = gs->omega / (a + gs->shift);
  if (gs->nonfinite_row < 0 && (PetscIsInfOrNanScalar(a) || (PetscIsInfOrNanScalar(*idiag) && !(plain && a == 0.0)))) {
    gs->nonfinite_row   = r;
    gs->nonfinite_col   = r;
    gs->nonfinite_idiag = (PetscBool)!PetscIsInfOrNanScalar(a);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* record the first NaN/Inf off-diagonal entry (rows ascending, columns ascending in a row) */
static inline void SpTrsvGSCheckEntry(SpTrsvGS gs, PetscInt r, PetscInt c, PetscScalar v)
{
  if (gs->nonfinite_row < 0 && PetscIsInfOrNanScalar(v)) {
    gs->nonfinite_row = r;
    gs->nonfinite_col = c;
  }
}

static PetscErrorCode SpTrsvGSFillValues(SpTrsvGS gs, Mat A)
{
  const PetscScalar *aa;
  SpTrsvTri          L = gs->L, U = gs->U;
  SpTrsvMC           mc = gs->mc;

  PetscFunctionBegin;
  gs->zerodiag_row    = -1;
  gs->nonfinite_row   = -1;
  gs->nonfinite_col   = -1;
  gs->nonfinite_idiag = PETSC_FALSE;
  gs->devvalues       = PETSC_FALSE;
  gs->host_stale      = PETSC_FALSE; /* the host copies are the newest values again */
  if (mc) PetscCall(SpTrsvMCGetHostPattern(mc)); /* built on the GPU: the host copy is fetched for this host refresh only */
  PetscCall(MatSeqAIJGetArrayRead(A, &aa));
  for (PetscInt r = 0; r < gs->n; r++) {
    if (gs->ordering == SPTRSV_GS_ORDERING_MULTICOLOR) {
      const PetscInt k = mc->ipos[r];

      PetscCall(SpTrsvGSDiagonal(gs, r, aa[mc->dmap[k]], &gs->didiag[r]));
      for (PetscInt p = mc->ptr[k]; p < mc->ptr[k + 1]; p++) SpTrsvGSCheckEntry(gs, r, mc->idx[p], aa[mc->vmap[p]]);
      continue;
    }
    PetscCall(SpTrsvGSDiagonal(gs, r, aa[gs->dmap[r]], &L->idiag[r]));
    U->idiag[r] = L->idiag[r];
    for (PetscInt p = L->i[r]; p < L->i[r + 1]; p++) {
      L->a[p] = aa[gs->lmap[p]];
      SpTrsvGSCheckEntry(gs, r, L->j[p], L->a[p]);
    }
    for (PetscInt p = U->i[r]; p < U->i[r + 1]; p++) {
      U->a[p] = aa[gs->umap[p]];
      SpTrsvGSCheckEntry(gs, r, U->j[p], U->a[p]);
    }
  }
  if (gs->ordering == SPTRSV_GS_ORDERING_MULTICOLOR) {
    PetscCall(SpTrsvMCSetValues(mc, aa, gs->didiag));
    if (gs->mcT) PetscCall(SpTrsvMCSetValues(gs->mcT, aa, gs->didiag));
  }
  PetscCall(MatSeqAIJRestoreArrayRead(A, &aa));
  if (gs->ordering == SPTRSV_GS_ORDERING_EXACT) {
    PetscCall(SpTrsvTriValuesChanged(L));
    PetscCall(SpTrsvTriValuesChanged(U));
  }
  gs->dscale_valid = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* exact ordering, after a device refresh (host_stale): solver s takes the values of the last device gather, device to
   device (sweep solvers: T's values, idiag and the rest's values; transposed solvers: T's values and idiag); s NULL
   (not made yet) or host copies current: nothing to do */
static PetscErrorCode SpTrsvGSSolverFromDevice(SpTrsvGS gs, SpTrsvSolver s)
{
  const SpTrsvDeviceOps *dev;
  const PetscScalar     *la, *ua, *idiag;

  PetscFunctionBegin;
  if (!s || !gs->host_stale) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCheck(gs->exdev, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Host copies marked stale without a device refresh");
  PetscCall(SpTrsvDeviceOpsGet(&dev, NULL, NULL));
  PetscCall((*dev->gs.exact_get_arrays)(gs->exdev, &la, &ua, &idiag));
  PetscCall(SpTrsvSolverUpdateValuesDevice(s, s->tri == gs->L ? la : ua, idiag, s->rest ? (s->rest == gs->L ? la : ua) : NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}


/*
  exact ordering: L's and U's values and idiag gathered from the device array of A (T->a's, T->idiag's layouts,
  SpTrsvGSExactDevice) on the CUDA backend when the path's CUDA executor takes device values, handed to the sweep
  solvers (and the transposed ones when made) device to device. L and U get a new state; their host copies are stale
  (host_stale) until SpTrsvGSSyncHost() downloads them. On the first fill the solvers do not exist yet: they take the
  values once made (SpTrsvGSCreate()).
*/
static PetscErrorCode SpTrsvGSFillValuesDeviceExact(const SpTrsvDeviceOps *dev, SpTrsvGS gs, const PetscScalar *dv, PetscBool *clean)
{
  const SpTrsvExecutor *exec;

  PetscFunctionBegin;
  *clean = PETSC_FALSE;
  if (gs->backend->slot != SPTRSV_EXEC_CUDA) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(SpTrsvPathGetExecutor(gs->path, SPTRSV_EXEC_CUDA, &exec));
  if (!exec->update_values_device) PetscFunctionReturn(PETSC_SUCCESS);
  if (!gs->exdev) PetscCall((*dev->gs.exact_create)(gs->n, gs->L->i[gs->n], gs->U->i[gs->n], gs->lmap, gs->umap, gs->dmap, gs->omega, gs->shift, &gs->exdev));
  PetscCall((*dev->gs.exact_gather)(gs->exdev, dv, clean));
  if (!*clean) PetscFunctionReturn(PETSC_SUCCESS);
  gs->L->state++; /* new values, on the device only */
  gs->U->state++;
  gs->host_stale = PETSC_TRUE;
  PetscCall(SpTrsvGSSolverFromDevice(gs, gs->fwd));
  PetscCall(SpTrsvGSSolverFromDevice(gs, gs->bwd));
  PetscCall(SpTrsvGSSolverFromDevice(gs, gs->fwdT));
  PetscCall(SpTrsvGSSolverFromDevice(gs, gs->bwdT));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* multicolor: into the colour-ordered storage on the GPU (and that of A^T when made) */
static PetscErrorCode SpTrsvGSFillValuesDeviceMC(SpTrsvGS gs, const PetscScalar *dv, PetscBool *clean)
{
  PetscFunctionBegin;
  *clean = PETSC_FALSE;
  if (!gs->mc->dev) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(SpTrsvMCSetValuesDevice(gs->mc, dv, clean));
  if (*clean && gs->mcT) PetscCall(SpTrsvMCSetValuesDevice(gs->mcT, dv, clean));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  on the GPU: gather the values of a MATSEQAIJCUSPARSE matrix from its device array in place (no host copy of the
  values is read or made), for either ordering; *done is false when that is not possible (another matrix type, a
  PETSc without CUDA, the host backend) or when the values need the host's diagnostics (a NaN/Inf or a zero diagonal
  entry under the rules above), and the caller reads the host values instead
*/
static PetscErrorCode SpTrsvGSFillValuesDevice(SpTrsvGS gs, Mat A, PetscBool *done)
{
  const SpTrsvDeviceOps *dev;
  const PetscScalar     *dv;
  PetscBool              got;

  PetscFunctionBegin;
  *done = PETSC_FALSE;
  if (gs->backend->slot != SPTRSV_EXEC_CUDA) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(SpTrsvDeviceOpsGet(&dev, NULL, NULL));
  PetscCall((*dev->petsc->mat_read)(A, PETSC_FALSE, &dv, &got)); /* a MATSEQAIJCUSPARSE's device values */
  if (!got) PetscFunctionReturn(PETSC_SUCCESS);
  if (gs->ordering == SPTRSV_GS_ORDERING_EXACT) PetscCall(SpTrsvGSFillValuesDeviceExact(dev, gs, dv, done));
  else PetscCall(SpTrsvGSFillValuesDeviceMC(gs, dv, done));
  PetscCall((*dev->petsc->mat_restore_read)(A, &dv));
  if (*done) {
    gs->zerodiag_row    = -1;
    gs->nonfinite_row   = -1;
    gs->nonfinite_col   = -1;
    gs->nonfinite_idiag = PETSC_FALSE;
    gs->devvalues       = PETSC_TRUE;
    gs->dscale_valid    = PETSC_FALSE;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  exact ordering: make the host copies L->a, U->a and idiag current after a device refresh (one download of the values
  the solvers hold; the CSC views refreshed, L and U get a new state, and the solvers that held the device values stay
  current: nothing is uploaded again); for what only the host has (the transposed symmetric sweep's scaling)
*/
static PetscErrorCode SpTrsvGSSyncHost(SpTrsvGS gs)
{
  const SpTrsvDeviceOps *dev;
  SpTrsvSolver           s[4] = {gs->fwd, gs->bwd, gs->fwdT, gs->bwdT};
  PetscBool              current[4];

  PetscFunctionBegin;
  if (!gs->host_stale) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCheck(gs->exdev, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Host copies marked stale without a device refresh");
  PetscCall(SpTrsvDeviceOpsGet(&dev, NULL, NULL));
  for (PetscInt k = 0; k < 4; k++) current[k] = (PetscBool)(s[k] && s[k]->state == s[k]->tri->state && (!s[k]->rest || s[k]->rest_state == s[k]->rest->state));
  PetscCall((*dev->gs.exact_download)(gs->exdev, gs->L->a, gs->U->a, gs->L->idiag));
  PetscCall(PetscArraycpy(gs->U->idiag, gs->L->idiag, gs->n));
  gs->host_stale = PETSC_FALSE;
  PetscCall(SpTrsvTriValuesChanged(gs->L));
  PetscCall(SpTrsvTriValuesChanged(gs->U));
  for (PetscInt k = 0; k < 4; k++)
    if (current[k]) {
      s[k]->state = s[k]->tri->state;
      if (s[k]->rest) s[k]->rest_state = s[k]->rest->state;
    }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the values of A: on the device in place where possible, else from the host array */
static PetscErrorCode SpTrsvGSRefresh(SpTrsvGS gs, Mat A)
{
  PetscBool done;

  PetscFunctionBegin;
  PetscCall(SpTrsvGSFillValuesDevice(gs, A, &done));
  if (!done) PetscCall(SpTrsvGSFillValues(gs, A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvGSCreate - split a sequential AIJ matrix, analyse both sweeps with the plan type and hand them
  to the backend (one symbolic phase per pattern); the first values are read as every later set (SpTrsvGSRefresh():
  on the GPU from a MATSEQAIJCUSPARSE's device array where possible)
*/
/* the checks and the fields both orderings share: a square matrix, omega in (0, 2) */
static PetscErrorCode SpTrsvGSNew(Mat A, PetscReal omega, PetscReal shift, SpTrsvFormat format, const SpTrsvBackendOps *backend, const SpTrsvPathOptions *opts, SpTrsvGS *gsout)
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
  gs->backend = backend;
  gs->opts    = *opts;
  *gsout      = gs;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SpTrsvGSCreate(Mat A, PetscReal omega, PetscReal shift, SpTrsvFormat format, SpTrsvPath path, const SpTrsvBackendOps *backend, const SpTrsvPathOptions *opts, SpTrsvGS *gsout)
{
  SpTrsvGS       gs;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  PetscCall(SpTrsvGSNew(A, omega, shift, format, backend, opts, &gs));
  gs->path = path;
  ierr     = SpTrsvGSSplit(gs, A);
  if (!ierr) ierr = SpTrsvGSCheckStructSym(gs);
  if (!ierr) ierr = SpTrsvGSRefresh(gs, A);
  if (!ierr && gs->host_stale) /* gathered on the GPU: the solvers' setup uploads placeholders (finite; the values follow) */
    for (PetscInt i = 0; i < gs->n; i++) gs->L->idiag[i] = gs->U->idiag[i] = 1.0;
  if (!ierr) ierr = SpTrsvSolverCreateSweep(gs->L, gs->U, omega, format, path, backend, opts, &gs->fwd);
  if (!ierr) ierr = SpTrsvSolverCreateSweep(gs->U, gs->L, omega, format, path, backend, opts, &gs->bwd);
  if (!ierr) ierr = SpTrsvGSSolverFromDevice(gs, gs->fwd);
  if (!ierr) ierr = SpTrsvGSSolverFromDevice(gs, gs->bwd);
  if (!ierr) ierr = (*backend->vec_alloc)(gs->n, &gs->xold);
  if (!ierr) ierr = (*backend->vec_alloc)(gs->n, &gs->dscale);
  if (ierr) { /* a missing or zero diagonal entry: nothing is kept */
    PetscCall(SpTrsvGSDestroy(&gs));
    PetscCall(ierr);
  }
  *gsout = gs;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvGSCreateMulticolor - colour the symmetrized graph of a sequential AIJ matrix (spec: the method, option: its
  option's name for messages) and store it in colour order for the backend (once per pattern, on the GPU for the CUDA
  backend); sweeps are Gauss-Seidel in the colour order (include/sptrsv/multicolor.h)
*/
PetscErrorCode SpTrsvGSCreateMulticolor(Mat A, PetscReal omega, PetscReal shift, const SpTrsvBackendOps *backend, const SpTrsvPathOptions *opts, const SpTrsvColoringSpec *spec, const char option[], SpTrsvGS *gsout)
{
  SpTrsvGS       gs;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  PetscCall(SpTrsvGSNew(A, omega, shift, SPTRSV_FORMAT_CSR, backend, opts, &gs));
  PetscCall(MatGetSize(A, &gs->n, NULL));
  gs->ordering  = SPTRSV_GS_ORDERING_MULTICOLOR;
  gs->structsym = PETSC_TRUE; /* sweeps are in place whatever the pattern: a colour's rows do not read each other */
  ierr = SpTrsvMCCreate(A, omega, shift, backend, opts->use_graph, spec, option, &gs->mc);
  if (!ierr) ierr = PetscMalloc1(gs->n + 1, &gs->didiag);
  if (!ierr) ierr = PetscObjectReference((PetscObject)A);
  if (!ierr) gs->A = A;
  if (!ierr) ierr = SpTrsvGSRefresh(gs, A);
  if (!ierr) ierr = (*backend->vec_alloc)(gs->n, &gs->dscale);
  if (ierr) { /* a missing or zero diagonal entry, a bad colouring: nothing is kept */
    PetscCall(SpTrsvGSDestroy(&gs));
    PetscCall(ierr);
  }
  *gsout = gs;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvGSUpdateValues - new values of A on the same pattern. For a MATSEQAIJCUSPARSE matrix on the CUDA backend,
  one gather on the device in place: multicolor into its storage; exact into L's, U's values and idiag, handed to the
  solvers device to device (SpTrsvGSFillValuesDevice()). Otherwise (or when a value needs the host to name it) from
  the host array; the exact ordering's solvers then refresh their copies on the next sweep.
*/
PetscErrorCode SpTrsvGSUpdateValues(SpTrsvGS gs, Mat A)
{
  PetscFunctionBegin;
  PetscCall(SpTrsvGSRefresh(gs, A));
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
    if (gs->ordering == SPTRSV_GS_ORDERING_MULTICOLOR) {
      for (PetscInt d = 0; d < 2; d++) {
        if (!(type & (d ? SPTRSV_GS_BACKWARD : SPTRSV_GS_FORWARD))) continue;
        PetscCall(SpTrsvMCSweep(gs->mc, (PetscBool)d, zero, b, x));
        gs->flops += SpTrsvMCSweepFlops(gs->mc);
        gs->nsweeps++;
        zero = PETSC_FALSE;
      }
      continue;
    }
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

/* (2 - omega) / idiag on the backend, for the transposed symmetric sweep, from the host inverse diagonal */
static PetscErrorCode SpTrsvGSSetDScale(SpTrsvGS gs, const PetscScalar *idiag)
{
  PetscScalar *h;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(gs->n, &h));
  for (PetscInt i = 0; i < gs->n; i++) h[i] = (2.0 - gs->omega) / idiag[i];
  PetscCall((*gs->backend->set_values)(gs->n, h, gs->dscale));
  PetscCall(PetscFree(h));
  gs->dscale_valid = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  multicolor: the same operators in the colour order, M = D/omega + L_c (L_c: the entries of A that a row reads
  from earlier colours). M^T = D/omega + L_c^T, whose strict part is that of A^T read from later colours: a
  backward sweep of A^T from zero. So forward: x = backward sweep of A^T; backward: x = forward sweep of A^T;
  symmetric: x = backward sweep of A^T on ((2 - omega)/omega) D (forward sweep of A^T on b). A^T is stored on
  the same colouring (made on first use, from the matrix's current values).
*/
static PetscErrorCode SpTrsvGSApplyTransposeMC(SpTrsvGS gs, SpTrsvGSSweep type, const PetscScalar *b, PetscScalar *x, PetscScalar *work)
{
  PetscFunctionBegin;
  if (!gs->mcT) {
    PetscCall(SpTrsvMCCreateTranspose(gs->mc, gs->A, &gs->mcT));
    PetscCall(SpTrsvGSRefresh(gs, gs->A));
  }
  switch (type) {
  case SPTRSV_GS_FORWARD:
  case SPTRSV_GS_BACKWARD:
    PetscCall(SpTrsvMCSweep(gs->mcT, (PetscBool)(type == SPTRSV_GS_FORWARD), PETSC_TRUE, b, x));
    gs->flops += SpTrsvMCSweepFlops(gs->mcT);
    break;
  case SPTRSV_GS_SYMMETRIC:
    if (!gs->dscale_valid) {
      if (gs->devvalues) PetscCall(SpTrsvGSFillValues(gs, gs->A)); /* the inverse diagonal on the host (this once) */
      PetscCall(SpTrsvGSSetDScale(gs, gs->didiag));
    }
    PetscCall(SpTrsvMCSweep(gs->mcT, PETSC_FALSE, PETSC_TRUE, b, work));
    PetscCall((*gs->backend->pointwise_mult)(gs->n, gs->dscale, work, work));
    PetscCall(SpTrsvMCSweep(gs->mcT, PETSC_TRUE, PETSC_TRUE, work, x));
    gs->flops += 2 * SpTrsvMCSweepFlops(gs->mcT) + gs->n;
    break;
  }
  gs->nsweeps++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SpTrsvGSApplyTranspose(SpTrsvGS gs, SpTrsvGSSweep type, const PetscScalar *b, PetscScalar *x, PetscScalar *work)
{
  PetscFunctionBegin;
  if (!gs->n) PetscFunctionReturn(PETSC_SUCCESS);
  if (gs->ordering == SPTRSV_GS_ORDERING_MULTICOLOR) {
    PetscCall(SpTrsvGSApplyTransposeMC(gs, type, b, x, work));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  /* after a device refresh the setup uploads stale host copies; the device values follow, device to device */
  if (!gs->fwdT) {
    PetscCall(SpTrsvSolverCreateWithOptions(gs->L, PETSC_TRUE, gs->format, gs->path, gs->backend, &gs->opts, &gs->fwdT));
    PetscCall(SpTrsvGSSolverFromDevice(gs, gs->fwdT));
  }
  if (!gs->bwdT) {
    PetscCall(SpTrsvSolverCreateWithOptions(gs->U, PETSC_TRUE, gs->format, gs->path, gs->backend, &gs->opts, &gs->bwdT));
    PetscCall(SpTrsvGSSolverFromDevice(gs, gs->bwdT));
  }
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
      PetscCall(SpTrsvGSSyncHost(gs)); /* the inverse diagonal on the host (once per device refresh) */
      PetscCall(SpTrsvGSSetDScale(gs, gs->L->idiag));
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
  if (gs->exdev) {
    const SpTrsvDeviceOps *dev;

    PetscCall(SpTrsvDeviceOpsGet(&dev, NULL, NULL));
    PetscCall((*dev->gs.exact_destroy)(&gs->exdev));
  }
  PetscCall(SpTrsvMCDestroy(&gs->mc));
  PetscCall(SpTrsvMCDestroy(&gs->mcT));
  PetscCall(PetscFree(gs->didiag));
  PetscCall(MatDestroy(&gs->A));
  PetscCall(PetscFree(gs));
  *gsp = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}
