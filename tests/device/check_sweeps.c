/*
   Direct checks of sweep solvers for the device check (tests/device/check_kernels.c): SpTrsvSolverSweep
   (xold in its own vector, and xold == x where that is allowed), SpTrsvSolverApply (the sweep from a
   zero iterate), several sweeps in a row on one solver (the element kernels' epochs, the graphs' vector
   pointers), and a values refresh (T, R, idiag and the CSC cdiag re-uploaded), for both backends, both
   plan types, csr and csc, graphs off/on (CUDA), omega 1 and 1.3, forward (T = L, R = U) and backward
   (T = U, R = L) sweeps. Every result is compared with a natural-order SOR sweep computed here (MatSOR's
   definition), so the host backend is checked as well. Also pointwise_mult and set_values.
*/
#include "check_sweeps.h"
#include "../../examples/common/stencil.h"

static const char *const sweep_names[] = {"sweep_lap2d5_64x64", "sweep_nonsym_48x48", "pointwise"};

PetscErrorCode SweepCheckNames(PetscInt *n, const char *const **names)
{
  PetscFunctionBeginUser;
  *n     = (PetscInt)(sizeof(sweep_names) / sizeof(sweep_names[0]));
  *names = sweep_names;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A = L + D + U as two strict triangles (L, U) and the diagonal; idiag of both = omega / a_ii */
typedef struct {
  PetscInt     n;
  SpTrsvTri    L, U;
  PetscScalar *diag;
  PetscBool    structsym;
} Split;

/* a structurally nonsymmetric 5-point-like operator: east/west always, north only in two rows of three,
   and a long-range upper entry in every fifth row */
static PetscErrorCode BuildNonsym(PetscInt m, Mat *A)
{
  const PetscInt n = m * m;

  PetscFunctionBeginUser;
  PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, n, n, 7, NULL, A));
  for (PetscInt r = 0; r < n; r++) {
    const PetscInt i = r % m, j = r / m;
    if (i > 0) PetscCall(MatSetValue(*A, r, r - 1, -1.3, INSERT_VALUES));
    if (i < m - 1) PetscCall(MatSetValue(*A, r, r + 1, -0.7, INSERT_VALUES));
    if (j > 0) PetscCall(MatSetValue(*A, r, r - m, -1.0, INSERT_VALUES));
    if (j < m - 1 && r % 3) PetscCall(MatSetValue(*A, r, r + m, -1.0, INSERT_VALUES));
    if (r % 5 == 0 && r + 2 * m + 1 < n) PetscCall(MatSetValue(*A, r, r + 2 * m + 1, -0.3, INSERT_VALUES));
    PetscCall(MatSetValue(*A, r, r, 5.0, INSERT_VALUES));
  }
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SplitCreate(Mat A, Split *s)
{
  PetscInt n, nl = 0, nu = 0, *li, *lj, *ui, *uj;

  PetscFunctionBeginUser;
  PetscCall(MatGetSize(A, &n, NULL));
  s->n = n;
  for (PetscInt r = 0; r < n; r++) {
    PetscInt        nc;
    const PetscInt *c;
    PetscCall(MatGetRow(A, r, &nc, &c, NULL));
    for (PetscInt p = 0; p < nc; p++) {
      if (c[p] < r) nl++;
      else if (c[p] > r) nu++;
    }
    PetscCall(MatRestoreRow(A, r, &nc, &c, NULL));
  }
  /* separate allocations: SpTrsvTriSetPattern takes each one over */
  PetscCall(PetscMalloc1(n + 1, &li));
  PetscCall(PetscMalloc1(nl + 1, &lj));
  PetscCall(PetscMalloc1(n + 1, &ui));
  PetscCall(PetscMalloc1(nu + 1, &uj));
  PetscCall(PetscCalloc1(n + 1, &s->diag));
  li[0] = ui[0] = 0;
  nl = nu = 0;
  for (PetscInt r = 0; r < n; r++) {
    PetscInt        nc;
    const PetscInt *c;
    PetscCall(MatGetRow(A, r, &nc, &c, NULL));
    for (PetscInt p = 0; p < nc; p++) {
      if (c[p] < r) lj[nl++] = c[p];
      else if (c[p] > r) uj[nu++] = c[p];
    }
    PetscCall(MatRestoreRow(A, r, &nc, &c, NULL));
    li[r + 1] = nl;
    ui[r + 1] = nu;
  }
  PetscCall(SpTrsvTriCreate(n, SPTRSV_LOWER, PETSC_FALSE, &s->L));
  PetscCall(SpTrsvTriCreate(n, SPTRSV_UPPER, PETSC_FALSE, &s->U));
  PetscCall(SpTrsvTriSetPattern(s->L, li, lj));
  PetscCall(SpTrsvTriSetPattern(s->U, ui, uj));
  for (PetscInt r = 0, pl = 0, pu = 0; r < n; r++) {
    PetscInt           nc;
    const PetscInt    *c;
    const PetscScalar *v;
    PetscCall(MatGetRow(A, r, &nc, &c, &v));
    for (PetscInt p = 0; p < nc; p++) {
      if (c[p] < r) s->L->a[pl++] = v[p];
      else if (c[p] > r) s->U->a[pu++] = v[p];
      else s->diag[r] = v[p];
    }
    PetscCall(MatRestoreRow(A, r, &nc, &c, &v));
  }
  /* structurally symmetric iff every U_rc has an L_cr (columns ascend: binary search in row c of L) */
  s->structsym = (PetscBool)(s->L->i[n] == s->U->i[n]);
  for (PetscInt r = 0; r < n && s->structsym; r++)
    for (PetscInt p = s->U->i[r]; p < s->U->i[r + 1] && s->structsym; p++) {
      const PetscInt c = s->U->j[p];
      PetscInt       loc;
      PetscCall(PetscFindInt(r, s->L->i[c + 1] - s->L->i[c], s->L->j + s->L->i[c], &loc));
      if (loc < 0) s->structsym = PETSC_FALSE;
    }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* scale the off-diagonal values by off and the diagonal by dg (powers of two: exactly undone later),
   set idiag = omega / a_ii, and tell the triangles (the solvers refresh their copies on next use) */
static PetscErrorCode SplitSetValues(Split *s, PetscReal off, PetscReal dg, PetscReal omega)
{
  PetscFunctionBeginUser;
  for (PetscInt p = 0; p < s->L->i[s->n]; p++) s->L->a[p] *= off;
  for (PetscInt p = 0; p < s->U->i[s->n]; p++) s->U->a[p] *= off;
  for (PetscInt i = 0; i < s->n; i++) {
    s->diag[i] *= dg;
    s->L->idiag[i] = s->U->idiag[i] = omega / s->diag[i];
  }
  PetscCall(SpTrsvTriValuesChanged(s->L));
  PetscCall(SpTrsvTriValuesChanged(s->U));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SplitDestroy(Split *s)
{
  PetscFunctionBeginUser;
  PetscCall(SpTrsvTriDestroy(&s->L));
  PetscCall(SpTrsvTriDestroy(&s->U));
  PetscCall(PetscFree(s->diag));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* MatSOR's sweep in natural order, in place from x = xold (zero when xold is NULL):
   x_i = (1 - omega) x_i + idiag_i (b_i - sum_{j != i} a_ij x_j), rows ascending (forward) or descending */
static void RefSweep(const Split *s, PetscBool forward, PetscReal omega, const PetscScalar *b, const PetscScalar *xold, PetscScalar *x)
{
  const SpTrsvTri L = s->L, U = s->U;

  for (PetscInt i = 0; i < s->n; i++) x[i] = xold ? xold[i] : 0.0;
  for (PetscInt t = 0; t < s->n; t++) {
    const PetscInt i   = forward ? t : s->n - 1 - t;
    PetscScalar    sum = b[i];
    for (PetscInt p = L->i[i]; p < L->i[i + 1]; p++) sum -= L->a[p] * x[L->j[p]];
    for (PetscInt p = U->i[i]; p < U->i[i + 1]; p++) sum -= U->a[p] * x[U->j[p]];
    x[i] = (1.0 - omega) * x[i] + L->idiag[i] * sum;
  }
}

/* a backend array's values on the host (the CUDA backend: through vec_restore of a host vector, which
   copies the staging array, here the backend array itself, into the vector and waits) */
static PetscErrorCode Download(const SpTrsvBackendOps *be, PetscInt n, PetscScalar *dev, PetscScalar *host)
{
  Vec          v;
  PetscScalar *a;

  PetscFunctionBeginUser;
  if (be->memtype == PETSC_MEMTYPE_HOST) {
    PetscCall(PetscArraycpy(host, dev, n));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(VecCreateSeqWithArray(PETSC_COMM_SELF, 1, n, host, &v));
  PetscCall((*be->vec_get)(v, SPTRSV_VEC_WRITE, dev, &a));
  PetscCall((*be->vec_restore)(v, SPTRSV_VEC_WRITE, dev, &a));
  PetscCall(VecDestroy(&v));
  PetscFunctionReturn(PETSC_SUCCESS);
}

typedef struct {
  const SpTrsvBackendOps *be;
  SpTrsvPath              path;
  SpTrsvFormat            fmt;
  PetscBool               graph, forward;
  PetscReal               omega;
} SweepConfig;

/*
  One solver, in this order (e[] as printed): apply (from zero); sweep with xold in its own vector; a
  second sweep from that result into the other vector (pointers swapped); in place (xold == x: csc, or a
  structurally symmetric A); after a values refresh (off-diagonal halved, diagonal doubled): a sweep and
  an apply. The values are restored before returning.
*/
static PetscErrorCode RunSweepConfig(Split *sp, const char *name, const SweepConfig *c, const PetscScalar *b, const PetscScalar *x0, PetscReal tol, PetscInt *npass, PetscInt *nfail)
{
  const PetscInt      n      = sp->n;
  const PetscBool     inplace = (PetscBool)(c->fmt == SPTRSV_FORMAT_CSC || sp->structsym);
  const SpTrsvBackendOps *be = c->be;
  SpTrsvPathOptions opts;
  SpTrsvSolver        s;
  PetscScalar        *db, *dx, *dy, *ref, *ref2, *got;
  PetscReal           e[6] = {0, 0, 0, -1, 0, 0}, emax = 0;

  PetscFunctionBeginUser;
  PetscCall(SpTrsvPathOptionsDefault(NULL, &opts));
  opts.use_graph = c->graph;
  PetscCall(SplitSetValues(sp, 1.0, 1.0, c->omega));
  PetscCall(SpTrsvSolverCreateSweep(c->forward ? sp->L : sp->U, c->forward ? sp->U : sp->L, c->omega, c->fmt, c->path, be, &opts, &s));
  PetscCall((*be->vec_alloc)(n, &db));
  PetscCall((*be->vec_alloc)(n, &dx));
  PetscCall((*be->vec_alloc)(n, &dy));
  PetscCall(PetscMalloc3(n, &ref, n, &ref2, n, &got));
  PetscCall((*be->set_values)(n, b, db));

  /* apply: the sweep from zero */
  PetscCall(SpTrsvSolverApply(s, db, dx));
  PetscCall(Download(be, n, dx, got));
  RefSweep(sp, c->forward, c->omega, b, NULL, ref);
  e[0] = RelErrInf(n, got, ref);
  /* sweep from x0 (own vector), then a second sweep from that result with the pointers swapped */
  PetscCall((*be->set_values)(n, x0, dy));
  PetscCall(SpTrsvSolverSweep(s, db, dy, dx));
  PetscCall(Download(be, n, dx, got));
  RefSweep(sp, c->forward, c->omega, b, x0, ref);
  e[1] = RelErrInf(n, got, ref);
  PetscCall(SpTrsvSolverSweep(s, db, dx, dy));
  PetscCall(Download(be, n, dy, got));
  RefSweep(sp, c->forward, c->omega, b, ref, ref2);
  e[2] = RelErrInf(n, got, ref2);
  /* in place */
  if (inplace) {
    PetscCall((*be->set_values)(n, x0, dx));
    PetscCall(SpTrsvSolverSweep(s, db, dx, dx));
    PetscCall(Download(be, n, dx, got));
    e[3] = RelErrInf(n, got, ref);
  }
  /* new values on the same pattern: the next sweep and apply re-upload them */
  PetscCall(SplitSetValues(sp, 0.5, 2.0, c->omega));
  PetscCall((*be->set_values)(n, x0, dy));
  PetscCall(SpTrsvSolverSweep(s, db, dy, dx));
  PetscCall(Download(be, n, dx, got));
  RefSweep(sp, c->forward, c->omega, b, x0, ref);
  e[4] = RelErrInf(n, got, ref);
  PetscCall(SpTrsvSolverApply(s, db, dx));
  PetscCall(Download(be, n, dx, got));
  RefSweep(sp, c->forward, c->omega, b, NULL, ref);
  e[5] = RelErrInf(n, got, ref);
  PetscCall(SplitSetValues(sp, 2.0, 0.5, c->omega));

  for (PetscInt k = 0; k < 6; k++) emax = PetscMax(emax, e[k]);
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "%-19s %-4s %-7s %-3s %-5s %-3s %-8s %8.2e %8.2e %8.2e %8.2e %8.2e %8.2e %s\n", name, be->name, c->path->name, SpTrsvFormats[c->fmt], be->memtype == PETSC_MEMTYPE_HOST ? "-" : (c->graph ? "on" : "off"), c->omega == 1.0 ? "1" : "1.3", c->forward ? "forward" : "backward",
                        (double)e[0], (double)e[1], (double)e[2], (double)e[3], (double)e[4], (double)e[5], emax < tol ? "PASS" : "FAIL"));
  if (emax < tol) (*npass)++;
  else (*nfail)++;
  PetscCall(PetscFree3(ref, ref2, got));
  PetscCall((*be->vec_free)(&db));
  PetscCall((*be->vec_free)(&dx));
  PetscCall((*be->vec_free)(&dy));
  PetscCall(SpTrsvSolverDestroy(&s));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* y = d .* x on the CUDA backend, into another vector and in place, against the host product */
static PetscErrorCode CheckPointwise(const SpTrsvBackendOps *cuda, PetscRandom rnd, PetscReal tol, PetscInt *npass, PetscInt *nfail)
{
  const PetscInt n = 100003;
  PetscScalar   *d, *x, *ref, *got, *dd, *dx, *dy;
  PetscReal      e1, e2;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc4(n, &d, n, &x, n, &ref, n, &got));
  for (PetscInt i = 0; i < n; i++) {
    PetscCall(PetscRandomGetValue(rnd, &d[i]));
    PetscCall(PetscRandomGetValue(rnd, &x[i]));
    ref[i] = d[i] * x[i];
  }
  PetscCall((*cuda->vec_alloc)(n, &dd));
  PetscCall((*cuda->vec_alloc)(n, &dx));
  PetscCall((*cuda->vec_alloc)(n, &dy));
  PetscCall((*cuda->set_values)(n, d, dd));
  PetscCall((*cuda->set_values)(n, x, dx));
  PetscCall((*cuda->pointwise_mult)(n, dd, dx, dy));
  PetscCall(Download(cuda, n, dy, got));
  e1 = RelErrInf(n, got, ref);
  PetscCall((*cuda->pointwise_mult)(n, dd, dx, dx));
  PetscCall(Download(cuda, n, dx, got));
  e2 = RelErrInf(n, got, ref);
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "pointwise           cuda n %" PetscInt_FMT ": y = d.*x %8.2e, in place %8.2e %s\n", n, (double)e1, (double)e2, PetscMax(e1, e2) < tol ? "PASS" : "FAIL"));
  if (PetscMax(e1, e2) < tol) (*npass)++;
  else (*nfail)++;
  PetscCall((*cuda->vec_free)(&dd));
  PetscCall((*cuda->vec_free)(&dx));
  PetscCall((*cuda->vec_free)(&dy));
  PetscCall(PetscFree4(d, x, ref, got));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SweepCheckRun(PetscInt w, const SpTrsvBackendOps *cuda, PetscRandom rnd, PetscReal tol, PetscInt *npass, PetscInt *nfail)
{
  const SpTrsvBackendOps *bes[2] = {&SpTrsvBackendHost, cuda};
  const PetscReal         omegas[2] = {1.0, 1.3};
  Mat                     A;
  Split                   sp;
  PetscScalar            *b, *x0;

  PetscFunctionBeginUser;
  if (w == 2) {
    if (cuda) PetscCall(CheckPointwise(cuda, rnd, tol, npass, nfail));
    else PetscCall(PetscPrintf(PETSC_COMM_SELF, "pointwise: CUDA backend unavailable, skipped\n"));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (w == 0) PetscCall(SpTrsvBuildStencil(64, 64, 1, 5, &A));
  else PetscCall(BuildNonsym(48, &A));
  PetscCall(SplitCreate(A, &sp));
  PetscCall(MatDestroy(&A));
  PetscCall(PetscMalloc2(sp.n, &b, sp.n, &x0));
  for (PetscInt i = 0; i < sp.n; i++) {
    PetscCall(PetscRandomGetValue(rnd, &b[i]));
    PetscCall(PetscRandomGetValue(rnd, &x0[i]));
  }
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "%-19s %-4s %-7s %-3s %-5s %-3s %-8s %8s %8s %8s %8s %8s %8s (structurally %ssymmetric; inplace -1: not allowed)\n", "sweep case", "be", "plan", "fmt", "graph", "w", "dir", "apply", "sweep", "sweep2", "inplace", "refac_sw", "refac_ap",
                        sp.structsym ? "" : "non"));
  for (PetscInt ib = 0; ib < 2; ib++) {
    if (!bes[ib]) continue;
    for (PetscInt pt = 0; pt < 2; pt++)
      for (PetscInt f = 0; f < 2; f++)
        for (PetscInt g = 0; g < (ib ? 2 : 1); g++)
          for (PetscInt o = 0; o < 2; o++)
            for (PetscInt dir = 0; dir < 2; dir++) {
              SweepConfig c = {bes[ib], NULL, f ? SPTRSV_FORMAT_CSC : SPTRSV_FORMAT_CSR, (PetscBool)g, (PetscBool)!dir, omegas[o]};
              PetscCall(SpTrsvPathFind(pt ? "element" : "level", &c.path));
              PetscCall(RunSweepConfig(&sp, sweep_names[w], &c, b, x0, tol, npass, nfail));
            }
  }
  PetscCall(PetscFree2(b, x0));
  PetscCall(SplitDestroy(&sp));
  PetscFunctionReturn(PETSC_SUCCESS);
}
