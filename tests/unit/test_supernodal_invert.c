static char help[] = "Unit tests of the supernodal path's defaults chosen from the triangle: a filled triangle (an exact supernode of\n"
                     "16 lines or more) is merged with relaxation 0.05 and its diagonal blocks inverted where their condition\n"
                     "number is at most -mat_sptrsv_invert_diag_cond (checked at every numeric phase); any other keeps exact\n"
                     "supernodes and the substitution. The kappa of every block is compared with one computed here independently\n"
                     "(the block's inverse by substitution), the counts of the check with that reference, the host solves of mixed\n"
                     "triangles (inverted and swept blocks) with the level path, both orientations, before and after new values.\n";

#include <sptrsv/paths/supernodal.h>
#include "unit_common.h"
#define OPTS_SUPERNODAL(o) ((SpTrsvSupernodalOptions *)SpTrsvPathOptionsOwn(o, &SpTrsvPath_supernodal)) /* its own options inside o */

#define NB 6  /* blocks */
#define W  20 /* lines per block: above SPTRSV_SUPERNODE_AUTO_WIDTH */

/* a lower triangle of NB dense W x W diagonal blocks, each row also reading the last 3 columns of the previous block
   (every block an exact supernode); w: the block width (narrow blocks: not filled) */
static PetscErrorCode MakeTri(PetscInt w, SpTrsvTri *t)
{
  const PetscInt n = NB * w;
  PetscInt      *ai, *aj, nz = 0;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc2(n + 1, &ai, n * (w + 3) + 1, &aj));
  ai[0] = 0;
  for (PetscInt i = 0; i < n; i++) {
    const PetscInt s = (i / w) * w;
    if (s > 0)
      for (PetscInt c = PetscMax(s - 3, 0); c < s; c++) aj[nz++] = c;
    for (PetscInt c = s; c < i; c++) aj[nz++] = c;
    ai[i + 1] = nz;
  }
  PetscCall(TriFromCSR(n, SPTRSV_LOWER, PETSC_FALSE, ai, aj, t));
  PetscCall(PetscFree2(ai, aj));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* values: block k's odd rows have diagonal 10^-k (kappa grows with k); entries off the diagonal in [-0.5, 0.5] / w;
   salt changes them (a refactorization) */
static PetscErrorCode SetValues(SpTrsvTri t, PetscInt w, PetscReal salt)
{
  PetscFunctionBeginUser;
  for (PetscInt i = 0; i < t->n; i++) {
    const PetscInt k = i / w;
    for (PetscInt p = t->i[i]; p < t->i[i + 1]; p++) t->a[p] = (PetscScalar)((PetscReal)(((i * 7 + p * 13) % 19) - 9) / 18.0 + salt) / (PetscReal)w;
    t->idiag[i] = (i % 2) ? PetscPowReal(10.0, (PetscReal)k) : 1.0 / (1.0 + 0.1 * (PetscReal)(i % 5));
  }
  PetscCall(SpTrsvTriValuesChanged(t));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* kappa of op(T)'s diagonal block [s, e), independently: the dense block, its inverse column by column by substitution */
static PetscReal RefKappa(const SpTrsvOp *op, PetscInt s, PetscInt e)
{
  const PetscInt w = e - s;
  PetscScalar    A[64 * 64], X[64 * 64];
  PetscReal      na = 0, nx = 0;

  if (w > 64) return PETSC_INFINITY; /* not expected here: the comparison with the check then fails */
  for (PetscInt q = 0; q < w * w; q++) A[q] = 0;
  for (PetscInt i = s; i < e; i++) {
    A[(i - s) * w + (i - s)] = op->unit ? 1.0 : 1.0 / op->idiag[i];
    for (PetscInt p = op->ri[i]; p < op->ri[i + 1]; p++)
      if (op->rj[p] >= s && op->rj[p] < e) A[(i - s) * w + (op->rj[p] - s)] = op->ra[p];
  }
  for (PetscInt j = 0; j < w; j++) /* column j of the inverse: A x = e_j */
    for (PetscInt a = 0; a < w; a++) {
      const PetscInt i   = op->lower ? a : w - 1 - a;
      PetscScalar    sum = i == j ? 1.0 : 0.0;
      for (PetscInt c = 0; c < w; c++)
        if (c != i && (op->lower ? c < i : c > i)) sum -= A[i * w + c] * X[c * w + j];
      X[i * w + j] = sum / A[i * w + i];
    }
  for (PetscInt i = 0; i < w; i++) {
    PetscReal ra = 0, rx = 0;
    for (PetscInt j = 0; j < w; j++) {
      ra += PetscAbsScalar(A[i * w + j]);
      rx += PetscAbsScalar(X[i * w + j]);
    }
    na = PetscMax(na, ra);
    nx = PetscMax(nx, rx);
  }
  return na * nx;
}

/* one orientation and one option set: the plan's choices, the check's figures against RefKappa, solves against the
   level path, then new values and the same again */
static PetscErrorCode Check(const char *what, SpTrsvTri t, PetscInt w, PetscBool tr, PetscInt invert, PetscReal cond, PetscBool *mixed)
{
  SpTrsvPathOptions o;
  SpTrsvPath          sn, level;
  SpTrsvSolver        s, ref;
  PetscScalar        *b, *x, *xr;
  const PetscBool     filled = (PetscBool)(w >= SPTRSV_SUPERNODE_AUTO_WIDTH);

  PetscFunctionBeginUser;
  PetscCall(SpTrsvPathOptionsInitialize(&o));
  OPTS_SUPERNODAL(&o)->invert_diag = invert;
  OPTS_SUPERNODAL(&o)->invert_cond = cond;
  PetscCall(SpTrsvPathFind("supernodal", &sn));
  PetscCall(SpTrsvPathFind("level", &level));
  PetscCall(PetscMalloc3(t->n, &b, t->n, &x, t->n, &xr));
  for (PetscInt i = 0; i < t->n; i++) b[i] = (PetscScalar)((i * 37) % 23) / 23.0 - 0.4;
  for (PetscInt round = 0; round < 2; round++) {
    if (round) PetscCall(SetValues(t, w, 0.25)); /* a refactorization: the solvers refresh below */
    PetscCall(SpTrsvSolverCreateWithOptions(t, tr, SPTRSV_FORMAT_CSR, sn, &SpTrsvBackendHost, &o, &s));
    PetscCall(SpTrsvSolverCreateWithOptions(t, tr, SPTRSV_FORMAT_CSR, level, &SpTrsvBackendHost, &o, &ref));
    {
      const SpTrsvSupernodalSchedule *ss = (const SpTrsvSupernodalSchedule *)s->plan->data;
      PetscInt                        nref = 0, ninv = 0;
      PetscReal                       kmax = 0, kinv = 0, err = 0, nrm = 0;

      /* the plan's choices */
      EXPECT(ss->invert == (invert > 0 || (invert < 0 && filled)) && ss->invert_auto == (invert < 0 && filled), "%s: invert %d, auto %d (filled %d, option %" PetscInt_FMT ")", what, (int)ss->invert, (int)ss->invert_auto, (int)filled, invert);
      EXPECT(ss->relax_auto && ss->relax == (filled ? SPTRSV_SUPERNODE_AUTO_RELAX : 0), "%s: relaxation %g (auto %d), filled %d", what, (double)ss->relax, (int)ss->relax_auto, (int)filled);
      EXPECT(ss->delegated == !filled, "%s: delegated %d, filled %d", what, (int)ss->delegated, (int)filled);
      /* the check against the reference kappa of every block (no cuBLAS supernode: these are narrow) */
      if (ss->invert_auto) {
        for (PetscInt K = 0; K < ss->ns; K++) {
          const PetscReal k = RefKappa(&s->op, ss->super[K], ss->super[K + 1]);
          nref++;
          kmax = PetscMax(kmax, k);
          if (k <= cond) {
            ninv++;
            kinv = PetscMax(kinv, k);
          }
        }
        EXPECT(ss->icheck.checked && ss->icheck.nblocks == nref && ss->icheck.ninverted == ninv, "%s: check counted %" PetscInt_FMT " of %" PetscInt_FMT " inverted, the reference %" PetscInt_FMT " of %" PetscInt_FMT, what, ss->icheck.ninverted, ss->icheck.nblocks, ninv, nref);
        EXPECT(PetscAbsReal(ss->icheck.kappa_max - kmax) <= 1e-8 * kmax && PetscAbsReal(ss->icheck.kappa_inv - kinv) <= 1e-8 * PetscMax(kinv, 1.0), "%s: largest kappa %g (inverted %g), the reference %g (%g)", what, (double)ss->icheck.kappa_max, (double)ss->icheck.kappa_inv, (double)kmax, (double)kinv);
        if (ninv > 0 && ninv < nref) *mixed = PETSC_TRUE;
      } else EXPECT(!ss->icheck.checked, "%s: a check without invert_diag auto", what);
      /* the solve */
      PetscCall(SpTrsvSolverApply(ref, b, xr));
      PetscCall(SpTrsvSolverApply(s, b, x));
      for (PetscInt i = 0; i < t->n; i++) {
        err = PetscMax(err, PetscAbsScalar(x[i] - xr[i]));
        nrm = PetscMax(nrm, PetscAbsScalar(xr[i]));
      }
      EXPECT(err <= 1e-10 * nrm, "%s (values %" PetscInt_FMT "): the solve differs from the level path by %g (|x| %g)", what, round, (double)err, (double)nrm);
    }
    PetscCall(SpTrsvSolverDestroy(&s));
    PetscCall(SpTrsvSolverDestroy(&ref));
  }
  PetscCall(SetValues(t, w, 0.0));
  PetscCall(PetscFree3(b, x, xr));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the refresh of one solver: new values change which blocks pass */
static PetscErrorCode CheckRefresh(SpTrsvTri t)
{
  SpTrsvPathOptions             o;
  SpTrsvPath                      sn;
  SpTrsvSolver                    s;
  const SpTrsvSupernodalSchedule *ss;
  PetscInt                        before;

  PetscFunctionBeginUser;
  PetscCall(SpTrsvPathOptionsInitialize(&o));
  OPTS_SUPERNODAL(&o)->invert_cond = 1e3;
  PetscCall(SpTrsvPathFind("supernodal", &sn));
  PetscCall(SpTrsvSolverCreateWithOptions(t, PETSC_FALSE, SPTRSV_FORMAT_CSR, sn, &SpTrsvBackendHost, &o, &s));
  ss     = (const SpTrsvSupernodalSchedule *)s->plan->data;
  before = ss->icheck.ninverted;
  for (PetscInt i = 0; i < t->n; i++) t->idiag[i] = 1.0; /* every block well conditioned now */
  PetscCall(SpTrsvTriValuesChanged(t));
  PetscCall(SpTrsvSolverUpdateValues(s));
  EXPECT(before < ss->icheck.nblocks && ss->icheck.ninverted == ss->icheck.nblocks, "refresh: %" PetscInt_FMT " then %" PetscInt_FMT " of %" PetscInt_FMT " blocks inverted (all expected after the refresh)", before, ss->icheck.ninverted, ss->icheck.nblocks);
  PetscCall(SpTrsvSolverDestroy(&s));
  PetscCall(SetValues(t, W, 0.0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* SpTrsvSupernodeBlockCond on small blocks: 1 x 1, a known 2 x 2, non-finite entries */
static PetscErrorCode CheckBlockCond(void)
{
  /* D (column-major, inverted diagonal on the diagonal) of the lower [[2, 0], [1, 4]]: X = [[1/2, 0], [-1/8, 1/4]] */
  const PetscScalar D[4] = {0.5, 1.0, 0.0, 0.25}, X[4] = {0.5, -0.125, 0.0, 0.25}, Xr[4] = {0.5, 0.0, -0.125, 0.25};
  PetscScalar       Dn[4] = {0.5, 1.0, 0.0, 0.25}, one = 4.0, inv = 4.0;
  PetscReal         k;

  PetscFunctionBeginUser;
  k = SpTrsvSupernodeBlockCond(1, &one, &inv, PETSC_FALSE);
  EXPECT(PetscAbsReal(k - 1.0) < 1e-15, "block cond: 1 x 1 gives %g, not 1", (double)k);
  k = SpTrsvSupernodeBlockCond(2, D, X, PETSC_FALSE); /* ||A|| = 5, ||X|| = 0.5 */
  EXPECT(PetscAbsReal(k - 2.5) < 1e-14, "block cond: 2 x 2 gives %g, not 2.5", (double)k);
  k = SpTrsvSupernodeBlockCond(2, D, Xr, PETSC_TRUE);
  EXPECT(PetscAbsReal(k - 2.5) < 1e-14, "block cond: 2 x 2, X row-major, gives %g, not 2.5", (double)k);
  Dn[1] = (PetscReal)INFINITY;
  k     = SpTrsvSupernodeBlockCond(2, Dn, X, PETSC_FALSE);
  EXPECT(PetscIsInfReal(k), "block cond: an Inf entry gives %g, not Inf", (double)k);
  Dn[1] = PetscSqrtReal(-1.0); /* NaN */
  k     = SpTrsvSupernodeBlockCond(2, Dn, X, PETSC_FALSE);
  EXPECT(PetscIsInfReal(k), "block cond: a NaN entry gives %g, not Inf", (double)k);
  Dn[1] = 1.0;
  Dn[3] = 0.0; /* a zero inverted diagonal: the true diagonal is Inf */
  k     = SpTrsvSupernodeBlockCond(2, Dn, X, PETSC_FALSE);
  EXPECT(PetscIsInfReal(k), "block cond: a zero inverted diagonal gives %g, not Inf", (double)k);
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  SpTrsvTri t, tn;
  PetscBool mixed = PETSC_FALSE;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SpTrsvInitializePackage());
  PetscCall(CheckBlockCond());
  PetscCall(MakeTri(W, &t));
  PetscCall(SetValues(t, W, 0.0));
  PetscCall(MakeTri(4, &tn)); /* narrow: not filled */
  PetscCall(SetValues(tn, 4, 0.0));
  for (PetscInt tr = 0; tr < 2; tr++) {
    const PetscReal conds[] = {SPTRSV_SUPERNODE_INVERT_COND, 1e3, 1.0};
    char            what[128];
    for (PetscInt c = 0; c < 3; c++) {
      PetscCall(PetscSNPrintf(what, sizeof(what), "filled%s, auto, cond %g", tr ? " (transpose)" : "", (double)conds[c]));
      PetscCall(Check(what, t, W, (PetscBool)tr, -1, conds[c], &mixed));
    }
    PetscCall(PetscSNPrintf(what, sizeof(what), "filled%s, forced on", tr ? " (transpose)" : ""));
    PetscCall(Check(what, t, W, (PetscBool)tr, 1, 1.0, &mixed));
    PetscCall(PetscSNPrintf(what, sizeof(what), "filled%s, forced off", tr ? " (transpose)" : ""));
    PetscCall(Check(what, t, W, (PetscBool)tr, 0, 1.0, &mixed));
    PetscCall(PetscSNPrintf(what, sizeof(what), "narrow%s, auto", tr ? " (transpose)" : ""));
    PetscCall(Check(what, tn, 4, (PetscBool)tr, -1, SPTRSV_SUPERNODE_INVERT_COND, &mixed));
  }
  EXPECT(mixed, "no configuration had both inverted and swept blocks (the mixed solve is untested)");
  PetscCall(CheckRefresh(t));
  PetscCall(SpTrsvTriDestroy(&t));
  PetscCall(SpTrsvTriDestroy(&tn));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "test_supernodal_invert: %" PetscInt_FMT " passed, %" PetscInt_FMT " failed\n", npass, nfail));
  PetscCall(PetscFinalize());
  return nfail ? 1 : 0;
}
