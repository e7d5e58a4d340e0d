static char help[] = "Unit tests of the partitioned-inverse path (sptrsv_pinv): the partition is in topological order and has no fill\n"
                     "beyond the limit (checked against an independent transitive closure of every part), the inverse-applied\n"
                     "blocks M_k solve random triangles, banded and block-diagonal triangles with supernodes, and the ILU/ICC factors\n"
                     "of shipped matrices like a substitution; the schedule check rejects corruptions; the stability check falls\n"
                     "back on an unstable triangle (-ksp_view text checked) and returns after a stable refactorization.\n"
                     "Options: -matdir DIR (default tests/data/matrices).\n";

#include <sptrsv/paths/pinv.h>
#include <sptrsv/paths/supernodal.h> /* SpTrsvSupernodalOptions: its fallback's */
#include <sptrsv/factormat.h>
#include <petscksp.h>
#include "../../examples/common/mmload.h"
#include "unit_common.h"
#define OPTS_SUPERNODAL(o) ((SpTrsvSupernodalOptions *)SpTrsvPathOptionsOwn(o, &SpTrsvPath_supernodal)) /* its own options inside o */
#define OPTS_PINV(o) ((SpTrsvPinvOptions *)SpTrsvPathOptionsOwn(o, &SpTrsvPath_pinv)) /* its own options inside o */

/* reference: a plain substitution in the triangle's own dependency order */
static void Substitute(const SpTrsvOp *op, const PetscScalar *b, PetscScalar *x)
{
  for (PetscInt k = 0; k < op->n; k++) {
    const PetscInt i = op->lower ? k : op->n - 1 - k;
    PetscScalar    s = b[i];
    for (PetscInt p = op->ri[i]; p < op->ri[i + 1]; p++) s -= op->ra[p] * x[op->rj[p]];
    x[i] = op->unit ? s : s * op->idiag[i];
  }
}

/*
  Independent check of the pattern of M: for row i of part P, the b columns must be exactly reach(i) (i and every row of
  P it reaches through dependencies inside P: a depth-first search, not the recursion the library uses) and the x columns
  exactly the dependencies outside P of the rows of reach(i); every dependency at an earlier position (topological
  order); without supernodes, each part's entries within fill times its rows + off-diagonal entries
*/
static PetscErrorCode CheckPattern(const char *what, const SpTrsvOp *op, SpTrsvPlan plan)
{
  const SpTrsvPinvSchedule *ps = (const SpTrsvPinvSchedule *)plan->data;
  const PetscInt            n  = op->n;
  PetscInt                 *part, *stack, *mark, *xm, nbad = 0, nfillbad = 0;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc4(n + 1, &part, n + 1, &stack, n + 1, &mark, n + 1, &xm));
  for (PetscInt p = 0; p < ps->nparts; p++)
    for (PetscInt k = ps->partptr[p]; k < ps->partptr[p + 1]; k++) part[plan->order[k]] = p;
  for (PetscInt i = 0; i < n; i++) mark[i] = xm[i] = -1;
  for (PetscInt k = 0; k < n; k++) {
    const PetscInt i = plan->order[k];
    PetscInt       top = 0, nb = 0, nx = 0;
    stack[top++] = i;
    mark[i]      = k;
    while (top) {
      const PetscInt r = stack[--top];
      nb++;
      for (PetscInt e = op->ri[r]; e < op->ri[r + 1]; e++) {
        const PetscInt j = op->rj[e];
        if (ps->pos[j] >= ps->pos[r]) nbad++; /* a dependency not before its row */
        if (part[j] == part[i]) {
          if (mark[j] != k) mark[j] = k, stack[top++] = j;
        } else if (xm[j] != k) xm[j] = k, nx++;
      }
    }
    if (ps->split[k] - ps->ptr[k] != nx || ps->ptr[k + 1] - ps->split[k] != nb) nbad++;
    for (PetscInt q = ps->ptr[k]; q < ps->split[k]; q++)
      if (xm[ps->col[q]] != k) nbad++;
    for (PetscInt q = ps->split[k]; q < ps->ptr[k + 1]; q++)
      if (mark[ps->col[q]] != k) nbad++;
  }
  if (!ps->ngroups)
    for (PetscInt p = 0; p < ps->nparts; p++) {
      PetscInt64 b = 0;
      for (PetscInt k = ps->partptr[p]; k < ps->partptr[p + 1]; k++) b += op->ri[plan->order[k] + 1] - op->ri[plan->order[k]] + 1;
      if ((PetscReal)(ps->ptr[ps->partptr[p + 1]] - ps->ptr[ps->partptr[p]]) > ps->fill * (PetscReal)b) nfillbad++;
    }
  EXPECT(!nbad, "%s: %" PetscInt_FMT " rows of M differ from the transitive closure of their part, or come before a dependency", what, nbad);
  EXPECT(!nfillbad, "%s: %" PetscInt_FMT " parts exceed the fill limit %g", what, nfillbad, (double)ps->fill);
  PetscCall(PetscFree4(part, stack, mark, xm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* a pinv solver of op(T) on the host with these options */
static PetscErrorCode PinvSolver(SpTrsvTri t, PetscBool tr, PetscReal fill, PetscInt parts, PetscReal tol, SpTrsvSolver *s)
{
  SpTrsvPathOptions     opts;
  SpTrsvPath              path;
  const SpTrsvBackendOps *host;

  PetscFunctionBeginUser;
  PetscCall(SpTrsvPathOptionsInitialize(&opts));
  OPTS_PINV(&opts)->pinv_fill           = fill;
  OPTS_PINV(&opts)->pinv_parts          = parts;
  OPTS_SUPERNODAL(&opts)->supernode_min_width = 0; /* a fallback to sptrsv_supernodal runs its own kernels (no sync-free delegate) */
  if (tol > 0) OPTS_PINV(&opts)->pinv_tol = tol;
  PetscCall(SpTrsvPathFind("pinv", &path));
  PetscCall(SpTrsvBackendGet(SPTRSV_EXEC_HOST, &host));
  PetscCall(SpTrsvSolverCreateWithOptions(t, tr, SPTRSV_FORMAT_CSR, path, host, &opts, s));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscInt nheavy_seen = 0; /* rows cut among threads over the whole test */

/*
  The numeric phase on 2, 3 and 8 threads gives M's values bitwise equal to one thread's (pinv_numeric.c: each entry is
  computed by the same operations in the same order), with thresholds low enough that small triangles have parallel
  levels and rows cut among the threads; *nheavy counts the cut rows seen
*/
static PetscErrorCode CheckThreads(const char *what, SpTrsvSolver s, PetscInt *nheavy)
{
  const SpTrsvPinvSchedule *ps = (const SpTrsvPinvSchedule *)s->plan->data;
  SpTrsvPinvValues         *v1, *vt;
  const PetscInt            threads[] = {2, 3, 8};

  PetscFunctionBeginUser;
  PetscCall(SpTrsvPinvValuesCreate(s, &v1));
  PetscCall(SpTrsvPinvNumeric(&s->op, s->plan, 1, v1));
  EXPECT(v1->nthreads_used == 1, "%s: one thread asked, %" PetscInt_FMT " ran", what, v1->nthreads_used);
  SpTrsvPinvNumericSetThresholds(0, 8, 2);
  for (PetscInt k = 0; k < 3; k++) {
    PetscInt nseg, npar, nh;
    PetscCall(SpTrsvPinvValuesCreate(s, &vt));
    for (PetscInt q = 0; q < ps->nnz; q++) vt->val[q] = -777.0; /* every entry must be written */
    PetscCall(SpTrsvPinvNumeric(&s->op, s->plan, threads[k], vt));
    SpTrsvPinvNumericScheduleGetInfo(vt->sched, &nseg, &npar, &nh);
    EXPECT(s->op.n < 2 || (vt->nthreads_used == threads[k] && nseg > 0), "%s: %" PetscInt_FMT " threads asked, %" PetscInt_FMT " ran (%" PetscInt_FMT " segments)", what, threads[k], vt->nthreads_used, nseg);
    EXPECT(!ps->nnz || !memcmp(v1->val, vt->val, (size_t)ps->nnz * sizeof(PetscScalar)), "%s: M on %" PetscInt_FMT " threads differs from one thread's", what, threads[k]);
    *nheavy += nh;
    PetscCall(SpTrsvPinvValuesDestroy(&vt));
  }
  SpTrsvPinvNumericSetThresholds(SPTRSV_PINV_MIN_WORK, SPTRSV_PINV_LIGHT_LEVEL, SPTRSV_PINV_MIN_SLICE);
  PetscCall(SpTrsvPinvValuesDestroy(&v1));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* every fill limit and part kind, both orientations: pattern, no fallback, x against the substitution, M the same on
   several threads */
static PetscErrorCode TestTriangle(const char *name, SpTrsvTri t, PetscRandom rnd, PetscReal rtol)
{
  const PetscReal fills[] = {1, 1.5, 4, 1e6};
  const PetscInt  n       = t->n;
  PetscScalar    *b, *x, *xref;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc3(n + 1, &b, n + 1, &x, n + 1, &xref));
  for (PetscInt i = 0; i < n; i++) b[i] = Rand(rnd) - 0.5;
  for (PetscInt tr = 0; tr < 2; tr++)
    for (PetscInt f = 0; f < 4; f++)
      for (PetscInt parts = 0; parts < 2; parts++) {
        SpTrsvSolver        s;
        SpTrsvPinvSchedule *ps;
        char                what[256];
        PetscReal           err = 0, nrm = 0;
        PetscCall(PinvSolver(t, (PetscBool)tr, fills[f], parts, 0, &s));
        ps = (SpTrsvPinvSchedule *)s->plan->data;
        PetscCall(PetscSNPrintf(what, sizeof(what), "%s n=%" PetscInt_FMT "%s fill %g %s (%" PetscInt_FMT " parts, %" PetscInt_FMT " levels)", name, n, tr ? " transposed" : "", (double)fills[f], SpTrsvPinvPartsNames[parts], ps->nparts, s->plan->nlevels));
        PetscCall(CheckPattern(what, &s->op, s->plan));
        PetscCall(CheckThreads(what, s, &nheavy_seen));
        EXPECT(ps->nparts <= PetscMax(s->plan->nlevels, 0) || parts == 1, "%s: more parts than group levels", what);
        if (f == 0 && !t->nsuper) EXPECT(ps->nnz == s->op.nnz + n, "%s: no-fill partition holds %" PetscInt_FMT " entries, not %" PetscInt_FMT, what, ps->nnz, s->op.nnz + n);
        if (f == 3 && n && parts == 0) EXPECT(ps->nparts == 1, "%s: an unlimited fill leaves %" PetscInt_FMT " parts", what, ps->nparts);
        EXPECT(n == 0 || (ps->status.checked && !ps->status.fallback), "%s: %s", what, ps->status.checked ? "fell back" : "no stability check");
        PetscCall(SpTrsvSolverApply(s, b, x));
        Substitute(&s->op, b, xref);
        for (PetscInt i = 0; i < n; i++) {
          err = PetscMax(err, PetscAbsScalar(x[i] - xref[i]));
          nrm = PetscMax(nrm, PetscAbsScalar(xref[i]));
        }
        EXPECT(err <= rtol * PetscMax(nrm, 1.0), "%s: x differs from the substitution by %g (|x| %g)", what, (double)err, (double)nrm);
        if (f == 1 && n > 2 && ps->partptr[ps->nparts - 1] < n - 1) { /* a corruption the schedule check must catch */
          PetscErrorCode ierr;
          const PetscInt k = ps->partptr[ps->nparts - 1], save = ps->col[ps->ptr[k]];
          ps->col[ps->ptr[k]] = s->plan->order[n - 1]; /* the first row of the last part reads the last row: x of its own part, or b of a later row */
          PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
          ierr = SpTrsvPinvScheduleCheck(&s->op, s->plan, 1);
          PetscCall(PetscPopErrorHandler());
          ps->col[ps->ptr[k]] = save;
          EXPECT(ierr == PETSC_ERR_PLIB, "%s: a column of a later row passed the check (error %d)", what, (int)ierr);
        }
        PetscCall(SpTrsvSolverDestroy(&s));
      }
  PetscCall(PetscFree3(b, x, xref));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* a lower triangle of n rows: kind 0 random (density d), 1 banded (bandwidth d, dense band), 2 block-diagonal dense
   blocks of size d, 3 block lower bidiagonal with dense blocks of size d (supernodes given for 2 and 3 when super);
   values: off-diagonals scaled so each row sums below 1 in magnitude, diagonal in [1, 2) (unit when n is odd) */
static PetscErrorCode MakeTriangle(PetscRandom rnd, PetscInt kind, PetscInt n, PetscReal d, PetscBool super, SpTrsvTri *t)
{
  PetscInt *ai, *aj, nnz = 0, cap = 16, bs = PetscMax(1, (PetscInt)d);
  PetscBool unit = (PetscBool)(n % 2);

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc1(n + 1, &ai));
  PetscCall(PetscMalloc1(cap, &aj));
  ai[0] = 0;
  for (PetscInt i = 0; i < n; i++) {
    PetscInt lo = i, blk = i / bs * bs;
    if (kind == 1) lo = PetscMax(0, i - bs);
    if (kind == 2) lo = blk;
    if (kind == 3) lo = PetscMax(0, blk - bs);
    for (PetscInt j = (kind == 0 ? 0 : lo); j < i; j++) {
      if (kind == 0 && Rand(rnd) >= d) continue;
      if (nnz == cap) PetscCall(PetscRealloc((size_t)(cap *= 2) * sizeof(PetscInt), &aj));
      aj[nnz++] = j;
    }
    ai[i + 1] = nnz;
  }
  PetscCall(TriFromCSR(n, SPTRSV_LOWER, unit, ai, aj, t));
  for (PetscInt i = 0; i < n; i++) {
    const PetscInt len = ai[i + 1] - ai[i];
    for (PetscInt p = ai[i]; p < ai[i + 1]; p++) (*t)->a[p] = (Rand(rnd) - 0.5) * 1.8 / len;
    if (!unit) (*t)->idiag[i] = 1.0 / (1.0 + Rand(rnd));
  }
  PetscCall(SpTrsvTriValuesChanged(*t));
  if (super && (kind == 2 || kind == 3) && n) {
    PetscInt *sp, ns = (n + bs - 1) / bs;
    PetscCall(PetscMalloc1(ns + 1, &sp));
    for (PetscInt k = 0; k <= ns; k++) sp[k] = PetscMin(n, k * bs);
    PetscCall(SpTrsvTriSetSupernodes(*t, ns, sp));
    PetscCall(PetscFree(sp));
  }
  PetscCall(PetscFree(ai));
  PetscCall(PetscFree(aj));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* supernodes as groups: a block-diagonal triangle of dense blocks is one part (one group level), its M holds exactly the
   dense triangles (no fill: a dense triangle's inverse is dense); the block bidiagonal one keeps whole supernodes in
   parts */
static PetscErrorCode TestSupernodes(PetscRandom rnd)
{
  SpTrsvTri    t;
  SpTrsvSolver s;

  PetscFunctionBeginUser;
  PetscCall(MakeTriangle(rnd, 2, 60, 6, PETSC_TRUE, &t));
  for (PetscInt tr = 0; tr < 2; tr++) {
    SpTrsvPinvSchedule *ps;
    PetscCall(PinvSolver(t, (PetscBool)tr, 1, 0, 0, &s));
    ps = (SpTrsvPinvSchedule *)s->plan->data;
    EXPECT(ps->ngroups == 10 && s->plan->nlevels == 1 && ps->nparts == 1 && ps->nnz == 10 * 21, "block-diagonal supernodes%s: %" PetscInt_FMT " groups, %" PetscInt_FMT " group levels, %" PetscInt_FMT " parts, %" PetscInt_FMT " entries (expected 10, 1, 1, 210)", tr ? " (transposed)" : "", ps->ngroups, s->plan->nlevels, ps->nparts, ps->nnz);
    PetscCall(SpTrsvSolverDestroy(&s));
  }
  PetscCall(SpTrsvTriDestroy(&t));
  PetscCall(MakeTriangle(rnd, 3, 57, 5, PETSC_TRUE, &t));
  for (PetscInt tr = 0; tr < 2; tr++) {
    SpTrsvPinvSchedule *ps;
    PetscBool           whole = PETSC_TRUE;
    PetscCall(PinvSolver(t, (PetscBool)tr, 1, 0, 0, &s));
    ps = (SpTrsvPinvSchedule *)s->plan->data;
    for (PetscInt p = 1; p < ps->nparts; p++) { /* a part boundary never cuts a supernode */
      const PetscInt a = s->plan->order[ps->partptr[p] - 1], b = s->plan->order[ps->partptr[p]];
      if (a / 5 == b / 5) whole = PETSC_FALSE;
    }
    EXPECT(ps->ngroups == 12 && s->plan->nlevels == 12 && whole, "block bidiagonal supernodes%s: %" PetscInt_FMT " groups, %" PetscInt_FMT " group levels (expected 12, 12), %s", tr ? " (transposed)" : "", ps->ngroups, s->plan->nlevels, whole ? "parts hold whole supernodes" : "a part cuts a supernode");
    PetscCall(SpTrsvSolverDestroy(&s));
  }
  PetscCall(SpTrsvTriDestroy(&t));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* -ksp_view's lines of a plan, through a file */
/* the classic unstable case: a unit lower bidiagonal with -3 below the diagonal, n = 200; its inverse holds 3^(i-j). (With
   -2 the products 2^(i-j) b_j are exact and row i's sum is exactly twice row i-1's in every rounding, so the computed x,
   however wrong, has a tiny residual: the instability hides.) With
   the whole inverse as one part the check falls back (to sptrsv_level, or supernodal when registered) and the solves
   stay right; without fill M is the triangle itself and stays in use; a refactorization to -0.5 passes again */
#define SUBDIAG (-3.0)
static PetscErrorCode TestFallback(void)
{
  const PetscInt n = 200;
  PetscInt      *ai, *aj;
  SpTrsvTri      t;
  SpTrsvSolver   s;
  PetscScalar   *b, *x, *xref;
  char           text[4096];

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc2(n + 1, &ai, n, &aj));
  ai[0] = 0;
  for (PetscInt i = 0; i < n; i++) {
    if (i) aj[i - 1] = i - 1;
    ai[i + 1] = PetscMax(0, i);
  }
  PetscCall(TriFromCSR(n, SPTRSV_LOWER, PETSC_TRUE, ai, aj, &t));
  for (PetscInt p = 0; p < n - 1; p++) t->a[p] = SUBDIAG;
  PetscCall(SpTrsvTriValuesChanged(t));
  PetscCall(PetscMalloc3(n, &b, n, &x, n, &xref));
  for (PetscInt i = 0; i < n; i++) b[i] = (i % 3) - 1.0;
  { /* no fill: M is the triangle, stable */
    SpTrsvPinvSchedule *ps;
    PetscCall(PinvSolver(t, PETSC_FALSE, 1, 0, 0, &s));
    ps = (SpTrsvPinvSchedule *)s->plan->data;
    EXPECT(ps->nparts == n - 1 && !ps->status.fallback && ps->status.berr <= 1e-15, "bidiagonal, no fill: %" PetscInt_FMT " parts, backward error %g, %s", ps->nparts, (double)ps->status.berr, ps->status.fallback ? "fell back" : "in use");
    PetscCall(SpTrsvSolverDestroy(&s));
  }
  for (PetscInt parts = 0; parts < 2; parts++) {
    SpTrsvPinvSchedule *ps;
    PetscReal           err = 0, nrm = 0;
    PetscCall(PinvSolver(t, PETSC_FALSE, 1e6, parts, 0, &s));
    ps = (SpTrsvPinvSchedule *)s->plan->data;
    EXPECT(ps->nparts == 1 && ps->status.fallback && ps->status.berr > ps->tol && ps->status.berr_subst <= 1e-15 && ps->status.nfallbacks == 1, "bidiagonal, whole inverse (%s): %" PetscInt_FMT " parts, backward error %g (substitution %g), %s", SpTrsvPinvPartsNames[parts], ps->nparts, (double)ps->status.berr, (double)ps->status.berr_subst, ps->status.fallback ? "fell back" : "no fallback");
    PetscCall(PlanViewText(s->plan, "test_pinv_view.txt", text, sizeof(text)));
    EXPECT(strstr(text, "exceeds the tolerance, solves fall back to sptrsv_") && strstr(text, "fell back in 1 of 1 numeric phases"), "bidiagonal: -ksp_view lacks the fallback lines:\n%s", text);
    PetscCall(SpTrsvSolverApply(s, b, x));
    Substitute(&s->op, b, xref);
    for (PetscInt i = 0; i < n; i++) {
      err = PetscMax(err, PetscAbsScalar(x[i] - xref[i]));
      nrm = PetscMax(nrm, PetscAbsScalar(xref[i]));
    }
    EXPECT(err <= 1e-15 * nrm, "bidiagonal after the fallback: x differs from the substitution by %g relative", (double)(err / nrm));
    if (parts == 0) { /* refactorization with -0.5: the inverse's entries shrink, the check passes, the fallback goes */
      for (PetscInt p = 0; p < n - 1; p++) t->a[p] = -0.5;
      PetscCall(SpTrsvTriValuesChanged(t));
      PetscCall(SpTrsvSolverApply(s, b, x));
      Substitute(&s->op, b, xref);
      err = nrm = 0;
      for (PetscInt i = 0; i < n; i++) {
        err = PetscMax(err, PetscAbsScalar(x[i] - xref[i]));
        nrm = PetscMax(nrm, PetscAbsScalar(xref[i]));
      }
      EXPECT(!ps->status.fallback && ps->status.nchecks == 2 && ps->status.nfallbacks == 1 && !((SpTrsvPinvValues *)s->bdata)->fallback && err <= 1e-13 * nrm, "bidiagonal -0.5: %s after a stable refactorization, error %g", ps->status.fallback ? "still falls back" : "in use", (double)(err / nrm));
      PetscCall(PlanViewText(s->plan, "test_pinv_view.txt", text, sizeof(text)));
      EXPECT(strstr(text, "partitioned inverse in use") != NULL, "bidiagonal -0.5: -ksp_view lacks 'partitioned inverse in use':\n%s", text);
      for (PetscInt p = 0; p < n - 1; p++) t->a[p] = SUBDIAG;
      PetscCall(SpTrsvTriValuesChanged(t));
    }
    PetscCall(SpTrsvSolverDestroy(&s));
  }
  PetscCall(PetscFree3(b, x, xref));
  PetscCall(PetscFree2(ai, aj));
  PetscCall(SpTrsvTriDestroy(&t));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the ILU/ICC factors of shipped matrices (sptrsv_level's factor, its L and U): pinv solvers at several fills */
static PetscErrorCode TestMatrix(PetscRandom rnd, const char *dir, const char *name, MatFactorType ft, PetscInt levels)
{
  char          file[PETSC_MAX_PATH_LEN], what[128];
  Mat           A, F;
  MatFactorInfo info;
  IS            row, col;
  SpTrsvFactor  fac;
  PetscBool     exists;

  PetscFunctionBeginUser;
  PetscCall(PetscSNPrintf(file, sizeof(file), "%s/%s.mtx.gz", dir, name));
  PetscCall(PetscTestFile(file, 'r', &exists));
  EXPECT(exists, "matrix %s not found (-matdir)", file);
  if (!exists) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(SpTrsvLoadMatrixMarket(file, &A));
  PetscCall(MatFactorInfoInitialize(&info));
  info.levels      = levels;
  info.fill        = 1.0;
  info.shifttype   = (PetscReal)(ft == MAT_FACTOR_ICC ? MAT_SHIFT_POSITIVE_DEFINITE : MAT_SHIFT_NONE);
  info.shiftamount = 100.0 * PETSC_MACHINE_EPSILON;
  info.zeropivot   = 100.0 * PETSC_MACHINE_EPSILON;
  PetscCall(MatGetOrdering(A, MATORDERINGNATURAL, &row, &col));
  PetscCall(MatGetFactor(A, MATSOLVERSPTRSVLEVEL, ft, &F));
  if (ft == MAT_FACTOR_ICC) {
    PetscCall(MatICCFactorSymbolic(F, A, row, &info));
    PetscCall(MatCholeskyFactorNumeric(F, A, &info));
  } else {
    PetscCall(MatILUFactorSymbolic(F, A, row, col, &info));
    PetscCall(MatLUFactorNumeric(F, A, &info));
  }
  PetscCall(MatSpTrsvGetFactorHost(F, &fac));
  PetscCall(PetscSNPrintf(what, sizeof(what), "%s %s(%" PetscInt_FMT ") L", name, ft == MAT_FACTOR_ICC ? "ICC" : "ILU", levels));
  PetscCall(TestTriangle(what, fac->L, rnd, 1e-8));
  PetscCall(PetscSNPrintf(what, sizeof(what), "%s %s(%" PetscInt_FMT ") U", name, ft == MAT_FACTOR_ICC ? "ICC" : "ILU", levels));
  PetscCall(TestTriangle(what, fac->U, rnd, 1e-8));
  PetscCall(ISDestroy(&row));
  PetscCall(ISDestroy(&col));
  PetscCall(MatDestroy(&F));
  PetscCall(MatDestroy(&A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  PetscRandom    rnd;
  char           dir[PETSC_MAX_PATH_LEN] = "tests/data/matrices";
  const PetscInt sizes[]                 = {0, 1, 2, 17, 150, 600};

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SpTrsvInitializePackage());
  PetscCall(PetscOptionsGetString(NULL, NULL, "-matdir", dir, sizeof(dir), NULL));
  PetscCall(PetscRandomCreate(PETSC_COMM_SELF, &rnd));
  PetscCall(PetscRandomSetSeed(rnd, 20261124));
  PetscCall(PetscRandomSeed(rnd));
  for (PetscInt kind = 0; kind < 4; kind++)
    for (PetscInt z = 0; z < (PetscInt)(sizeof(sizes) / sizeof(sizes[0])); z++)
      for (PetscInt rep = 0; rep < 2; rep++) {
        const PetscReal param[] = {rep ? 0.3 : 0.03, rep ? 6 : 2, rep ? 8 : 3, rep ? 5 : 2};
        SpTrsvTri       t;
        char            name[64];
        PetscCall(MakeTriangle(rnd, kind, sizes[z], param[kind], (PetscBool)(rep == 1), &t));
        PetscCall(PetscSNPrintf(name, sizeof(name), "%s(%g)%s", (const char *[]){"random", "banded", "block-diagonal", "block-bidiagonal"}[kind], (double)param[kind], t->nsuper ? " supernodes" : ""));
        PetscCall(TestTriangle(name, t, rnd, 1e-11));
        PetscCall(SpTrsvTriDestroy(&t));
      }
  PetscCall(TestSupernodes(rnd));
  PetscCall(TestFallback());
  PetscCall(TestMatrix(rnd, dir, "bcsstk13", MAT_FACTOR_ICC, 0));
  PetscCall(TestMatrix(rnd, dir, "cryg2500", MAT_FACTOR_ILU, 1));
  PetscCall(TestMatrix(rnd, dir, "olm1000", MAT_FACTOR_ILU, 0));
  PetscCall(TestMatrix(rnd, dir, "494_bus", MAT_FACTOR_ICC, 1));
  EXPECT(nheavy_seen > 0, "no row of M was ever cut among threads: the threaded numeric phase's slices went untested");
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "test_pinv: %" PetscInt_FMT " passed, %" PetscInt_FMT " failed\n", npass, nfail));
  PetscCall(PetscFinalize());
  return nfail ? 1 : 0;
}
