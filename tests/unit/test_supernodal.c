static char help[] = "Unit tests of the supernodal path (paper 002): supernode detection (every supernode exact: dense diagonal block,\n"
                     "identical outside structure; maximal), a factorization's partition (used as given, split where a diagonal block\n"
                     "is not dense), merging (-mat_sptrsv_merge, -mat_sptrsv_supernode_relax: explicit zeros within the fraction),\n"
                     "the schedule check (and corrupted schedules rejected), the host executor and an emulation of the CUDA\n"
                     "kernels' arithmetic (team blocks, row-scaled cuBLAS supernodes) against the level path, push and pull, the\n"
                     "inverted diagonal, on random, banded, grid, chain and dense-block triangles, both orientations; and MatSolve,\n"
                     "MatSolveTranspose, MatMatSolve(Transpose) of ILU(k)/ICC(k) factors (exact Cholesky of a 3-D Laplacian in\n"
                     "nested dissection too) against PETSc's own, before and after a refactorization; the delegation of triangles whose\n"
                     "supernodes are too narrow (-mat_sptrsv_supernode_min_width) to a nested sync-free solver, and none for wide ones.\n";

#include <sptrsv/paths/supernodal.h>
#include <petscksp.h>
#include "../../examples/common/stencil.h"
#include "unit_common.h"
#include "test_helpers.h"
#define OPTS_SUPERNODAL(o) ((SpTrsvSupernodalOptions *)SpTrsvPathOptionsOwn(o, &SpTrsvPath_supernodal)) /* its own options inside o */

typedef enum {
  SHAPE_RANDOM,
  SHAPE_BANDED,
  SHAPE_GRID,
  SHAPE_CHAIN,
  SHAPE_EMPTY,
  SHAPE_BLOCKS, /* planted dense supernodes: block rows with a dense lower diagonal block and one outside column set */
  SHAPE_N
} Shape;
static const char *ShapeNames[] = {"random", "banded", "grid", "chain", "empty", "blocks"};

/* a strict lower pattern (columns ascending); for SHAPE_BLOCKS also the planted partition (*nsuper, *super) */
static PetscErrorCode MakePattern(PetscRandom rnd, Shape shape, PetscInt n, PetscInt **ai, PetscInt **aj, PetscInt *nsuper, PetscInt **super)
{
  PetscInt nnz = 0, cap = 16 * n + 16, nx = 1, s = 0, e = 0, nc = 0, cols[16];

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc1(n + 1, ai));
  PetscCall(PetscMalloc1(cap, aj));
  PetscCall(PetscMalloc1(n + 2, super));
  *nsuper = 0;
  while (nx * nx < n) nx++;
  (*ai)[0] = 0;
  for (PetscInt i = 0; i < n; i++) {
    PetscInt row[64], len = 0;
    switch (shape) {
    case SHAPE_RANDOM:
      for (PetscInt t = 0; t < 4 && i; t++)
        if (Rand(rnd) < 0.6) row[len++] = (PetscInt)(Rand(rnd) * i);
      break;
    case SHAPE_BANDED:
      for (PetscInt j = PetscMax(0, i - 4); j < i; j++)
        if (Rand(rnd) < 0.8) row[len++] = j;
      break;
    case SHAPE_GRID:
      if (i >= nx) row[len++] = i - nx;
      if (i % nx) row[len++] = i - 1;
      break;
    case SHAPE_CHAIN:
      if (i) row[len++] = i - 1;
      break;
    case SHAPE_EMPTY:
      break;
    case SHAPE_BLOCKS:
      if (i == e) { /* a new block [s, e) and its outside columns, earlier than s */
        s = e;
        e = PetscMin(n, s + 1 + (PetscInt)(Rand(rnd) * 7));
        (*super)[(*nsuper)++] = s;
        nc = 0;
        for (PetscInt t = 0; t < 6 && s; t++)
          if (Rand(rnd) < 0.7) cols[nc++] = (PetscInt)(Rand(rnd) * s);
        PetscCall(PetscSortRemoveDupsInt(&nc, cols));
      }
      for (PetscInt t = 0; t < nc; t++) row[len++] = cols[t];
      for (PetscInt j = s; j < i && len < 64; j++) row[len++] = j;
      break;
    default:
      break;
    }
    PetscCall(PetscSortRemoveDupsInt(&len, row));
    for (PetscInt t = 0; t < len; t++) (*aj)[nnz++] = row[t];
    (*ai)[i + 1] = nnz;
  }
  (*super)[*nsuper] = n;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* dense blocks from the maps (the numeric phase), the inverses of the team supernodes (invert) and the row scaling of the
   cuBLAS ones, as the CUDA executor's numeric kernels make them */
static PetscErrorCode DeviceBlocks(const SpTrsvOp *op, const SpTrsvSupernodalSchedule *ss, PetscScalar **D, PetscScalar **X, PetscScalar **O, PetscBool **cub)
{
  PetscFunctionBeginUser;
  PetscCall(PetscMalloc4(ss->dptr[ss->ns] + 1, D, ss->dptr[ss->ns] + 1, X, ss->optr[ss->ns] + 1, O, ss->ns + 1, cub));
  for (PetscInt l = 0; l < ss->nlevels; l++)
    for (PetscInt k = ss->slevptr[l]; k < ss->slevptr[l + 1]; k++) (*cub)[ss->sorder[k]] = (PetscBool)(k >= ss->slevptr[l] + ss->nteam[l] + ss->nsplit[l]);
  for (PetscInt K = 0; K < ss->ns; K++) {
    const PetscInt s = ss->super[K], w = ss->super[K + 1] - s, m = ss->uptr[K + 1] - ss->uptr[K];
    PetscScalar   *Dk = *D + ss->dptr[K], *Ok = *O + ss->optr[K];
    for (PetscInt q = 0; q < w * w; q++) {
      const PetscInt v = ss->dmap[ss->dptr[K] + q];
      Dk[q]            = v >= 0 ? op->ra[v] : (v == SPTRSV_SUPERNODE_DIAG ? (op->unit ? 1.0 : op->idiag[s + q % w]) : 0.0);
    }
    for (PetscInt q = 0; q < w * m; q++) Ok[q] = ss->omap[ss->optr[K] + q] >= 0 ? op->ra[ss->omap[ss->optr[K] + q]] : 0.0;
    if ((*cub)[K]) {
      for (PetscInt q = 0; q < w * w; q++)
        if (q % w != q / w) Dk[q] *= Dk[(q % w) * (w + 1)];
      if (!ss->push)
        for (PetscInt q = 0; q < w * m; q++) Ok[q] *= Dk[(q / m) * (w + 1)];
    } else if (ss->invert)
      for (PetscInt j = 0; j < w; j++) SpTrsvSupernodeInvertColumn(w, Dk, *X + ss->dptr[K], j, ss->lower);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the split supernodes of level l by their tasks, as supernodal_split.cu runs them: launch 1 into rb (by line), then
   launch 2 (pull: x_K = X r; push: per tile x[U_K] -= its rows' partial sums, x_K = r where c0 = 0) */
static void EmulateSplitLevel(const SpTrsvSupernodalSchedule *ss, const PetscScalar *X, const PetscScalar *O, PetscInt l, const PetscScalar *b, PetscScalar *x, PetscScalar *rb)
{
  for (PetscInt phase = 0; phase < 2; phase++)
    for (PetscInt q = ss->tlev[2 * l + phase]; q < ss->tlev[2 * l + phase + 1]; q++) {
      const PetscInt    *t = ss->task + SPTRSV_SUPERNODE_TASK * q, K = t[0], s = ss->super[K], w = ss->super[K + 1] - s, m = ss->uptr[K + 1] - ss->uptr[K];
      const PetscInt    *U  = ss->uidx + ss->uptr[K];
      const PetscScalar *Xk = X + ss->dptr[K], *Ok = O + ss->optr[K];
      if (phase == 1 && ss->push) {
        for (PetscInt c = t[3]; c < PetscMin(m, t[3] + SPTRSV_SUPERNODE_SPLIT_COLS); c++) {
          PetscScalar acc = 0;
          for (PetscInt r = t[1]; r < t[2]; r++) acc += Ok[r * m + c] * rb[s + r];
          x[U[c]] -= acc;
        }
        if (t[3] == 0)
          for (PetscInt r = t[1]; r < t[2]; r++) x[s + r] = rb[s + r];
        continue;
      }
      for (PetscInt i = t[1]; i < t[2]; i++) {
        PetscScalar sum = 0;
        if (phase == 0 && !ss->push)
          for (PetscInt c = 0; c < m; c++) sum += Ok[i * m + c] * x[U[c]];
        else
          for (PetscInt j = 0; j < w; j++) sum += Xk[i + j * w] * (phase == 1 ? rb[s + j] : x[s + j]);
        if (phase == 0) rb[s + i] = ss->push ? sum : b[s + i] - sum;
        else x[s + i] = sum;
      }
    }
}

/*
  KernelEmulation - the CUDA executor's arithmetic in its order, from the schedule's arrays: push x = b; per level the
  team supernodes (pull: r = b_K - O x[U_K]; push: r = x_K; then x_K = X r or the column sweep of D; push: x[U_K] -= O^T x_K),
  the split ones by their tasks (EmulateSplitLevel) and the cuBLAS ones (r scaled by the inverted diagonal, the
  off-diagonal GEMV, a unit-diagonal solve with the row-scaled D, the push update)
*/
static PetscErrorCode KernelEmulation(const SpTrsvOp *op, const SpTrsvSupernodalSchedule *ss, const PetscScalar *b, PetscScalar *x)
{
  PetscScalar *D, *X, *O, *r, *rb;
  PetscBool   *cub;

  PetscFunctionBeginUser;
  PetscCall(DeviceBlocks(op, ss, &D, &X, &O, &cub));
  PetscCall(PetscMalloc2(ss->max_w + 1, &r, op->n + 1, &rb));
  if (ss->push)
    for (PetscInt i = 0; i < op->n; i++) x[i] = b[i];
  for (PetscInt l = 0, k = 0; l < ss->nlevels; l++)
    for (k = ss->slevptr[l]; k < ss->slevptr[l + 1]; k++) {
    if (k == ss->slevptr[l] + ss->nteam[l]) EmulateSplitLevel(ss, X, O, l, b, x, rb);
    if (k >= ss->slevptr[l] + ss->nteam[l] && k < ss->slevptr[l] + ss->nteam[l] + ss->nsplit[l]) continue;
    const PetscInt     K = ss->sorder[k], s = ss->super[K], w = ss->super[K + 1] - s, m = ss->uptr[K + 1] - ss->uptr[K];
    const PetscInt    *U  = ss->uidx + ss->uptr[K];
    const PetscScalar *Dk = D + ss->dptr[K], *Xk = X + ss->dptr[K], *Ok = O + ss->optr[K];
    for (PetscInt i = 0; i < w; i++) {
      r[i] = ss->push ? x[s + i] : b[s + i];
      if (cub[K]) r[i] *= Dk[i * (w + 1)];
    }
    if (!ss->push)
      for (PetscInt i = 0; i < w; i++) {
        PetscScalar sum = 0;
        for (PetscInt c = 0; c < m; c++) sum += Ok[i * m + c] * x[U[c]];
        r[i] -= sum;
      }
    if (ss->invert && !cub[K])
      for (PetscInt i = 0; i < w; i++) {
        PetscScalar acc = 0;
        for (PetscInt j = 0; j < w; j++) acc += Xk[i + j * w] * r[j];
        x[s + i] = acc;
      }
    else {
      for (PetscInt jj = 0; jj < w; jj++) { /* column sweep */
        const PetscInt    j  = ss->lower ? jj : w - 1 - jj;
        const PetscScalar xj = cub[K] ? r[j] : r[j] * Dk[j * (w + 1)];
        for (PetscInt i = ss->lower ? j + 1 : 0; i < (ss->lower ? w : j); i++) r[i] -= Dk[i + j * w] * xj;
      }
      for (PetscInt i = 0; i < w; i++) x[s + i] = cub[K] ? r[i] : r[i] * Dk[i * (w + 1)];
    }
    if (ss->push)
      for (PetscInt c = 0; c < m; c++) {
        PetscScalar acc = 0;
        for (PetscInt t = 0; t < w; t++) acc += Ok[t * m + c] * x[s + t];
        x[U[c]] -= acc;
      }
  }
  PetscCall(PetscFree2(r, rb));
  PetscCall(PetscFree4(D, X, O, cub));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* partition invariants: exact and maximal supernodes without merging (and no given partition); the explicit zeros of
   every supernode within the fraction with relax only; the figure of explicit zeros right */
static PetscErrorCode CheckPartition(const char *what, const SpTrsvOp *op, const SpTrsvSupernodalSchedule *ss, const SpTrsvPathOptions *o)
{
  SpTrsvSupernodeLines l;
  PetscBool            exact = PETSC_TRUE, maximal = PETSC_TRUE, relaxed = PETSC_TRUE;
  PetscInt64           zeros = 0;

  PetscFunctionBeginUser;
  PetscCall(SpTrsvSupernodeLinesCreate(op, ss->push, &l));
  for (PetscInt K = 0; K < ss->ns; K++) {
    const PetscInt64 w = ss->super[K + 1] - ss->super[K], m = ss->uptr[K + 1] - ss->uptr[K], nnz = l.ptr[ss->super[K + 1]] - l.ptr[ss->super[K]];
    const PetscInt64 zk = w * (w - 1) / 2 + w * m - nnz;
    PetscBool        ex;
    zeros += zk;
    if (!ss->from_hint && !OPTS_SUPERNODAL(o)->supernode_merge && OPTS_SUPERNODAL(o)->supernode_relax == 0) {
      PetscCall(SpTrsvSupernodeIsExact(&l, ss->super[K], ss->super[K + 1], PETSC_TRUE, &ex));
      if (!ex || zk) exact = PETSC_FALSE;
      if (K + 1 < ss->ns) {
        PetscCall(SpTrsvSupernodeIsExact(&l, ss->super[K], ss->super[K + 2], PETSC_TRUE, &ex));
        if (ex) maximal = PETSC_FALSE;
      }
    }
    if (!ss->from_hint && !OPTS_SUPERNODAL(o)->supernode_merge && OPTS_SUPERNODAL(o)->supernode_relax > 0 && (PetscReal)zk > OPTS_SUPERNODAL(o)->supernode_relax * (PetscReal)(w * (w - 1) / 2 + w * m) + 1e-9) relaxed = PETSC_FALSE;
  }
  EXPECT(exact, "%s: a detected supernode is not exact", what);
  EXPECT(maximal, "%s: two neighbouring detected supernodes would make one exact supernode", what);
  EXPECT(relaxed, "%s: a relaxed supernode holds more explicit zeros than -mat_sptrsv_supernode_relax %g allows", what, (double)OPTS_SUPERNODAL(o)->supernode_relax);
  EXPECT(zeros == ss->nzeros && zeros >= 0, "%s: %" PetscInt64_FMT " explicit zeros counted, the schedule says %" PetscInt64_FMT, what, zeros, ss->nzeros);
  PetscCall(SpTrsvSupernodeLinesDestroy(&l));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the schedule check must reject a value map entry moved and two levels run as one */
static PetscErrorCode Corrupt(const char *what, SpTrsvSolver s)
{
  SpTrsvSupernodalSchedule *ss = (SpTrsvSupernodalSchedule *)s->plan->data;
  PetscErrorCode            ierr;

  PetscFunctionBeginUser;
  for (PetscInt64 q = 0; q < ss->optr[ss->ns]; q++)
    if (ss->omap[q] >= 0) {
      const PetscInt save = ss->omap[q];
      ss->omap[q]         = SPTRSV_SUPERNODE_ZERO;
      PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
      ierr = SpTrsvSupernodalScheduleCheck(&s->op, s->plan);
      PetscCall(PetscPopErrorHandler());
      ss->omap[q] = save;
      EXPECT(ierr == PETSC_ERR_PLIB, "%s: an entry dropped from the value map passed the check (error %d)", what, (int)ierr);
      break;
    }
  { /* the same count of mapped values, at the wrong places: two entries swapped, then one past the last entry */
    PetscInt64 q0 = -1, q1 = -1;

    for (PetscInt64 q = 0; q < ss->optr[ss->ns] && q1 < 0; q++)
      if (ss->omap[q] >= 0) {
        if (q0 < 0) q0 = q;
        else q1 = q;
      }
    if (q1 >= 0) {
      const PetscInt e0 = ss->omap[q0], e1 = ss->omap[q1];

      ss->omap[q0] = e1;
      ss->omap[q1] = e0;
      PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
      ierr = SpTrsvSupernodalScheduleCheck(&s->op, s->plan);
      PetscCall(PetscPopErrorHandler());
      ss->omap[q0] = e0;
      ss->omap[q1] = e1;
      EXPECT(ierr == PETSC_ERR_PLIB, "%s: two entries of the value map swapped passed the check (error %d)", what, (int)ierr);
      ss->omap[q0] = (PetscInt)s->op.nnz;
      PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
      ierr = SpTrsvSupernodalScheduleCheck(&s->op, s->plan);
      PetscCall(PetscPopErrorHandler());
      ss->omap[q0] = e0;
      EXPECT(ierr == PETSC_ERR_PLIB, "%s: a value map entry past the last entry passed the check (error %d)", what, (int)ierr);
      PetscCall(SpTrsvSupernodalScheduleCheck(&s->op, s->plan)); /* restored */
    }
  }
  if (ss->tlev[2 * ss->nlevels] > 0) { /* a split task losing its last row, then one task named twice */
    const PetscInt save = ss->task[2], save4 = ss->nlevels ? ss->task[SPTRSV_SUPERNODE_TASK] : 0;
    ss->task[2]         = save - 1;
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    ierr = SpTrsvSupernodalScheduleCheck(&s->op, s->plan);
    PetscCall(PetscPopErrorHandler());
    ss->task[2] = save;
    EXPECT(ierr == PETSC_ERR_PLIB, "%s: a split task that drops a row passed the check (error %d)", what, (int)ierr);
    if (ss->tlev[2 * ss->nlevels] > 1) {
      ss->task[SPTRSV_SUPERNODE_TASK] = ss->task[0];
      PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
      ierr = SpTrsvSupernodalScheduleCheck(&s->op, s->plan);
      PetscCall(PetscPopErrorHandler());
      ss->task[SPTRSV_SUPERNODE_TASK] = save4;
      EXPECT(ierr == PETSC_ERR_PLIB || ss->task[0] == save4, "%s: a split task's supernode changed passed the check (error %d)", what, (int)ierr);
    }
  }
  for (PetscInt l = 0; l < ss->nlevels; l++) /* a fused run made one level longer than its levels allow */
    if (ss->fuse[l] > 1 && l + ss->fuse[l] < ss->nlevels) {
      ss->fuse[l]++;
      PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
      ierr = SpTrsvSupernodalScheduleCheck(&s->op, s->plan);
      PetscCall(PetscPopErrorHandler());
      ss->fuse[l]--;
      EXPECT(ierr == PETSC_ERR_PLIB, "%s: a fused run reaching into the next level passed the check (error %d)", what, (int)ierr);
      break;
    }
  if (ss->nlevels > 2) {
    const PetscInt save = ss->slevptr[1], nt = ss->nteam[0];
    ss->slevptr[1]      = ss->slevptr[2];
    ss->nteam[0]        = 0;
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    ierr = SpTrsvSupernodalScheduleCheck(&s->op, s->plan);
    PetscCall(PetscPopErrorHandler());
    ss->slevptr[1] = save;
    ss->nteam[0]   = nt;
    EXPECT(ierr == PETSC_ERR_PLIB, "%s: two dependent levels run as one passed the check (error %d)", what, (int)ierr);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscInt ncublas_seen = 0, nzeros_seen = 0, nsplit_seen = 0, nsplit_push_seen = 0, nfused_seen = 0;

/* one triangle, one orientation, one configuration: host executor and kernel emulation vs the level path */
static PetscErrorCode Solves(const char *what, SpTrsvTri t, PetscBool tr, const SpTrsvPathOptions *o, const PetscScalar *b, PetscScalar *x, PetscScalar *xref, PetscBool corrupt)
{
  SpTrsvPath   sn, level;
  SpTrsvSolver s, ref;
  PetscReal    err = 0, nrm = 0;

  PetscFunctionBeginUser;
  PetscCall(SpTrsvPathFind("supernodal", &sn));
  PetscCall(SpTrsvPathFind("level", &level));
  PetscCall(SpTrsvSolverCreateWithOptions(t, tr, SPTRSV_FORMAT_CSR, level, &SpTrsvBackendHost, o, &ref));
  PetscCall(SpTrsvSolverCreateWithOptions(t, tr, SPTRSV_FORMAT_CSR, sn, &SpTrsvBackendHost, o, &s)); /* its setup runs the schedule check */
  PetscCall(SpTrsvSolverApply(ref, b, xref));
  for (PetscInt i = 0; i < t->n; i++) {
    x[i] = -12345.0;
    nrm  = PetscMax(nrm, PetscAbsScalar(xref[i]));
  }
  PetscCall(SpTrsvSolverApply(s, b, x));
  for (PetscInt i = 0; i < t->n; i++) err = PetscMax(err, PetscAbsScalar(x[i] - xref[i]));
  EXPECT(err <= 1e-12 * PetscMax(nrm, 1.0), "%s: host solve differs from the level path by %g", what, (double)err);
  {
    const SpTrsvSupernodalSchedule *ss = (const SpTrsvSupernodalSchedule *)s->plan->data;
    for (PetscInt i = 0; i < t->n; i++) x[i] = -12345.0;
    PetscCall(KernelEmulation(&s->op, ss, b, x));
    err = 0;
    for (PetscInt i = 0; i < t->n; i++) err = PetscMax(err, PetscAbsScalar(x[i] - xref[i]));
    EXPECT(err <= 1e-11 * PetscMax(nrm, 1.0), "%s: the kernels' arithmetic, emulated, differs from the level path by %g", what, (double)err);
    PetscCall(CheckPartition(what, &s->op, ss, o));
    ncublas_seen += ss->ncublas;
    nsplit_seen += ss->nsplit_sn;
    nfused_seen += ss->nfused_runs;
    if (ss->push) nsplit_push_seen += ss->nsplit_sn;
    EXPECT(OPTS_SUPERNODAL(o)->supernode_split != SPTRSV_SUPERNODE_SPLIT_ALWAYS || !ss->invert || ss->ncublas + ss->nsplit_sn == ss->ns, "%s: split always left %" PetscInt_FMT " of %" PetscInt_FMT " supernodes as team blocks", what, ss->ns - ss->ncublas - ss->nsplit_sn, ss->ns);
    EXPECT(ss->invert || ss->nsplit_sn == 0, "%s: split supernodes without the inverted diagonal", what);
    nzeros_seen += ss->nzeros > 0;
    EXPECT(ss->push == (OPTS_SUPERNODAL(o)->supernode_mode == SPTRSV_SUPERNODE_MODE_PUSH || (OPTS_SUPERNODAL(o)->supernode_mode == SPTRSV_SUPERNODE_MODE_AUTO && s->op.lower)), "%s: push/pull not as asked", what);
  }
  if (corrupt) PetscCall(Corrupt(what, s));
  PetscCall(SpTrsvSolverDestroy(&s));
  PetscCall(SpTrsvSolverDestroy(&ref));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* one pattern, both orientations, the configurations: mode x invert x (merge, relax) x cuBLAS width */
static PetscErrorCode TestPattern(const char *name, PetscInt n, const PetscInt *ai, const PetscInt *aj, PetscInt nsuper, const PetscInt *super)
{
  SpTrsvTri    t;
  PetscScalar *b, *x, *xref;
  PetscBool    unit = (PetscBool)(n % 2);

  PetscFunctionBeginUser;
  PetscCall(TriFromCSR(n, SPTRSV_LOWER, unit, ai, aj, &t));
  for (PetscInt i = 0; i < n; i++) {
    for (PetscInt p = t->i[i]; p < t->i[i + 1]; p++) t->a[p] = (PetscScalar)(((i * 7 + p * 13) % 19) - 9) / (10.0 * (t->i[i + 1] - t->i[i]));
    if (!unit) t->idiag[i] = 1.0 / (1.0 + (PetscReal)((i * 5) % 11) / 11.0);
  }
  PetscCall(SpTrsvTriValuesChanged(t));
  if (nsuper) PetscCall(SpTrsvTriSetSupernodes(t, nsuper, super));
  PetscCall(PetscMalloc3(n + 1, &b, n + 1, &x, n + 1, &xref));
  for (PetscInt i = 0; i < n; i++) b[i] = (PetscScalar)((i * 3) % 17) / 17.0 - 0.5;
  for (PetscInt tr = 0; tr < 2; tr++)
    for (PetscInt mode = 0; mode < 3; mode++)
      for (PetscInt inv = 0; inv < 2; inv++)
        for (PetscInt mg = 0; mg < 3; mg++)
          for (PetscInt cw = 0; cw < 2; cw++)
            for (PetscInt sp = 0; sp < (inv ? (cw ? 2 : 3) : 1); sp++) { /* inverted: split never, always (and auto) */
            SpTrsvPathOptions o;
            char                what[256];
            PetscCall(SpTrsvPathOptionsInitialize(&o));
            OPTS_SUPERNODAL(&o)->supernode_min_width    = 0; /* the dense blocks even for narrow supernodes (no delegation) */
            OPTS_SUPERNODAL(&o)->supernode_mode         = mode;
            OPTS_SUPERNODAL(&o)->invert_diag            = inv;
            OPTS_SUPERNODAL(&o)->supernode_split        = sp == 0 ? SPTRSV_SUPERNODE_SPLIT_NEVER : (sp == 1 ? SPTRSV_SUPERNODE_SPLIT_ALWAYS : SPTRSV_SUPERNODE_SPLIT_AUTO);
            OPTS_SUPERNODAL(&o)->supernode_merge        = (PetscBool)(mg == 1);
            OPTS_SUPERNODAL(&o)->supernode_relax        = mg == 2 ? 0.3 : 0.0;
            OPTS_SUPERNODAL(&o)->supernode_cublas_width = cw ? 3 : SPTRSV_SUPERNODE_CUBLAS_WIDTH;
            PetscCall(PetscSNPrintf(what, sizeof(what), "%s n=%" PetscInt_FMT "%s%s mode %" PetscInt_FMT " invert %" PetscInt_FMT " split %" PetscInt_FMT " merge %" PetscInt_FMT " cublas width %" PetscInt_FMT, name, n, unit ? " unit" : "", tr ? " (transpose)" : "", mode, inv, OPTS_SUPERNODAL(&o)->supernode_split, mg, OPTS_SUPERNODAL(&o)->supernode_cublas_width));
            PetscCall(Solves(what, t, (PetscBool)tr, &o, b, x, xref, (PetscBool)(mg == 0 && cw == 0 && (inv == 0 || sp == 1))));
          }
  PetscCall(PetscFree3(b, x, xref));
  PetscCall(SpTrsvTriDestroy(&t));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* planted dense supernodes: detection (pull on the lower triangle) finds exact ones, no more than planted; given as the
   factorization's partition it is used as is (no split, no explicit zero); a partition joining two planted blocks whose
   joint diagonal block is not dense is split */
static PetscErrorCode TestPlanted(PetscRandom rnd)
{
  PetscInt *ai, *aj, ns, *super, n = 300;

  PetscFunctionBeginUser;
  PetscCall(MakePattern(rnd, SHAPE_BLOCKS, n, &ai, &aj, &ns, &super));
  {
    SpTrsvTri                 t;
    SpTrsvOp                  op;
    SpTrsvPlan                p;
    SpTrsvPathOptions       o;
    SpTrsvPath                sn;
    SpTrsvSupernodalSchedule *ss;
    PetscBool                 same;
    PetscInt                  joined[400], nj = 0, njoin = 0;

    PetscCall(SpTrsvPathFind("supernodal", &sn));
    PetscCall(TriFromCSR(n, SPTRSV_LOWER, PETSC_FALSE, ai, aj, &t));
    PetscCall(SpTrsvPathOptionsInitialize(&o));
    OPTS_SUPERNODAL(&o)->supernode_mode      = SPTRSV_SUPERNODE_MODE_PULL;
    OPTS_SUPERNODAL(&o)->supernode_min_width = 0;
    PetscCall(SpTrsvTriGetOp(t, PETSC_FALSE, &op));
    PetscCall(SpTrsvPlanCreate(&op, sn, SPTRSV_FORMAT_CSR, &o, &p));
    ss = (SpTrsvSupernodalSchedule *)p->data;
    EXPECT(ss->ns <= ns && ss->nzeros == 0 && !ss->from_hint, "planted: detection found %" PetscInt_FMT " supernodes (planted %" PetscInt_FMT "), %" PetscInt64_FMT " explicit zeros", ss->ns, ns, ss->nzeros);
    PetscCall(SpTrsvPlanDestroy(&p));
    PetscCall(SpTrsvTriSetSupernodes(t, ns, super));
    PetscCall(SpTrsvTriGetOp(t, PETSC_FALSE, &op));
    PetscCall(SpTrsvPlanCreate(&op, sn, SPTRSV_FORMAT_CSR, &o, &p));
    ss = (SpTrsvSupernodalSchedule *)p->data;
    PetscCall(PetscArraycmp(ss->super, super, ns + 1, &same));
    EXPECT(ss->from_hint && ss->ns == ns && same && ss->fig.hint_split == 0 && ss->nzeros == 0, "planted given: %" PetscInt_FMT " supernodes of %" PetscInt_FMT " (%s), %" PetscInt_FMT " split, %" PetscInt64_FMT " zeros", ss->ns, ns, same ? "same" : "different", ss->fig.hint_split, ss->nzeros);
    PetscCall(SpTrsvPlanDestroy(&p));
    /* join every other pair of planted blocks: the joint diagonal block has holes where the second block's rows lack
       the first's columns (most of the time): those are split again */
    for (PetscInt k = 0; k <= ns; k++)
      if (k == 0 || k == ns || k % 4 != 1) joined[nj++] = super[k];
      else njoin++;
    PetscCall(SpTrsvTriSetSupernodes(t, nj - 1, joined));
    PetscCall(SpTrsvTriGetOp(t, PETSC_FALSE, &op));
    PetscCall(SpTrsvPlanCreate(&op, sn, SPTRSV_FORMAT_CSR, &o, &p));
    ss = (SpTrsvSupernodalSchedule *)p->data;
    EXPECT(njoin > 0 && ss->fig.hint_split > 0 && ss->fig.ns_hint == nj - 1 && ss->ns > nj - 1, "joined hint: %" PetscInt_FMT " joins, %" PetscInt_FMT " split, %" PetscInt_FMT " supernodes from %" PetscInt_FMT, njoin, ss->fig.hint_split, ss->ns, nj - 1);
    for (PetscInt K = 0; K < ss->ns; K++) { /* every supernode kept has a dense diagonal block */
      SpTrsvSupernodeLines l;
      PetscBool            ex;
      PetscCall(SpTrsvSupernodeLinesCreate(&op, PETSC_FALSE, &l));
      PetscCall(SpTrsvSupernodeIsExact(&l, ss->super[K], ss->super[K + 1], PETSC_FALSE, &ex));
      PetscCall(SpTrsvSupernodeLinesDestroy(&l));
      EXPECT(ex, "joined hint: supernode %" PetscInt_FMT " [%" PetscInt_FMT ", %" PetscInt_FMT ") kept a diagonal block that is not dense", K, ss->super[K], ss->super[K + 1]);
    }
    PetscCall(SpTrsvPlanDestroy(&p));
    PetscCall(SpTrsvTriDestroy(&t));
  }
  PetscCall(TestPattern("planted-hint", n, ai, aj, ns, super));
  PetscCall(PetscFree(ai));
  PetscCall(PetscFree(aj));
  PetscCall(PetscFree(super));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  TestDelegation - -mat_sptrsv_supernode_min_width: a grid triangle (ILU(0)'s pattern, supernodes of width about 1) at the
  default is delegated (no dense blocks built, a nested sptrsv_syncfree solver, its view under the supernodal lines) and
  solves, both orientations, before and after new values, to the level path's x; with 0 it is not; planted dense blocks
  (given as the factorization's partition) are delegated at the default exactly when their widest is below it, and with
  the threshold one above their widest (delegated) and at it (not)
*/
static PetscErrorCode TestDelegation(PetscRandom rnd)
{
  PetscInt *ai, *aj, ns, *super;
  char      text[8192];

  PetscFunctionBeginUser;
  for (PetscInt shape = 0; shape < 2; shape++) {
    const PetscInt n = shape ? 300 : 400;
    SpTrsvTri      t;
    SpTrsvPath     sn, level;
    PetscScalar   *b, *x, *xref;

    PetscCall(MakePattern(rnd, shape ? SHAPE_BLOCKS : SHAPE_GRID, n, &ai, &aj, &ns, &super));
    PetscCall(TriFromCSR(n, SPTRSV_LOWER, PETSC_FALSE, ai, aj, &t));
    for (PetscInt i = 0; i < n; i++) {
      for (PetscInt p = t->i[i]; p < t->i[i + 1]; p++) t->a[p] = -0.3 / (1.0 + (PetscReal)(p % 5));
      t->idiag[i] = 1.0 / (2.0 + (PetscReal)(i % 3));
    }
    PetscCall(SpTrsvTriValuesChanged(t));
    if (shape) PetscCall(SpTrsvTriSetSupernodes(t, ns, super)); /* the planted partition, as a factorization gives it */
    PetscCall(SpTrsvPathFind("supernodal", &sn));
    PetscCall(SpTrsvPathFind("level", &level));
    PetscCall(PetscMalloc3(n, &b, n, &x, n, &xref));
    for (PetscInt i = 0; i < n; i++) b[i] = (PetscScalar)((i * 7) % 13) / 13.0 - 0.4;
    for (PetscInt tr = 0; tr < 2; tr++)
      for (PetscInt c = 0; c < 4; c++) { /* min width: the default, 0, and (planted) just above / below the mean width */
        SpTrsvPathOptions             o;
        SpTrsvSolver                    s, ref;
        const SpTrsvSupernodalSchedule *ss;
        PetscReal                       err = 0, nrm = 0;
        PetscInt                        widest;
        PetscBool                       want;
        char                            what[128];

        if (!shape && c > 1) continue;
        PetscCall(SpTrsvPathOptionsInitialize(&o));
        PetscCall(SpTrsvSolverCreateWithOptions(t, (PetscBool)tr, SPTRSV_FORMAT_CSR, sn, &SpTrsvBackendHost, &o, &s));
        widest = ((const SpTrsvSupernodalSchedule *)s->plan->data)->max_w;
        if (c) { /* the same triangle again with another threshold */
          PetscCall(SpTrsvSolverDestroy(&s));
          OPTS_SUPERNODAL(&o)->supernode_min_width = c == 1 ? 0 : (c == 2 ? widest + 1 : widest);
          PetscCall(SpTrsvSolverCreateWithOptions(t, (PetscBool)tr, SPTRSV_FORMAT_CSR, sn, &SpTrsvBackendHost, &o, &s));
        }
        ss   = (const SpTrsvSupernodalSchedule *)s->plan->data;
        want = (PetscBool)(c == 2 || (c == 0 && widest < OPTS_SUPERNODAL(&o)->supernode_min_width));
        PetscCall(PetscSNPrintf(what, sizeof(what), "%s n=%" PetscInt_FMT "%s, min width %" PetscInt_FMT " (widest %" PetscInt_FMT ")", shape ? "planted blocks" : "grid", n, tr ? " (transpose)" : "", OPTS_SUPERNODAL(&o)->supernode_min_width, widest));
        EXPECT(ss->delegated == want && !s->nested == !want && ss->delegate == s->nested, "%s: %s", what, ss->delegated ? "delegated" : "not delegated");
        EXPECT(shape ? widest > 2 : (c != 0 || widest < OPTS_SUPERNODAL(&o)->supernode_min_width), "%s: %s", what, shape ? "the planted blocks are not wide" : "the grid's ILU(0) pattern is not delegated at the default");
        if (want) {
          EXPECT(!ss->sorder && !ss->dmap && !ss->omap && !ss->task && ss->nlevels == 0 && !s->bdata, "%s: delegated, but dense-block arrays were built", what);
          EXPECT(s->nested && !strcmp(s->nested->plan->path->name, "syncfree") && OPTS_SUPERNODAL(&s->nested->opts)->supernode_min_width == OPTS_SUPERNODAL(&o)->supernode_min_width, "%s: the nested solver is not a sync-free one with the same options", what);
          PetscCall(PlanViewText(s->plan, "test_supernodal_view.txt", text, sizeof(text)));
          EXPECT(strstr(text, "supernodes too narrow (widest") && strstr(text, "): solved by the sync-free schedule (sptrsv_syncfree)") && strstr(text, "  schedule syncfree:") && !strstr(text, "model (H100"), "%s: the view lacks the delegation:\n%s", what, text);
        } else if (!shape) {
          PetscCall(PlanViewText(s->plan, "test_supernodal_view.txt", text, sizeof(text)));
          EXPECT(!strstr(text, "too narrow") && strstr(text, "levels of the supernodal DAG"), "%s: the view shows a delegation:\n%s", what, text);
        }
        for (PetscInt phase = 0; phase < 2; phase++) { /* then new values: the nested solver refreshes through the executor */
          if (phase) {
            for (PetscInt p = 0; p < t->i[n]; p++) t->a[p] *= -1.5;
            PetscCall(SpTrsvTriValuesChanged(t));
          }
          PetscCall(SpTrsvSolverCreateWithOptions(t, (PetscBool)tr, SPTRSV_FORMAT_CSR, level, &SpTrsvBackendHost, &o, &ref));
          PetscCall(SpTrsvSolverApply(ref, b, xref));
          PetscCall(SpTrsvSolverDestroy(&ref));
          for (PetscInt i = 0; i < n; i++) x[i] = -12345.0;
          PetscCall(SpTrsvSolverApply(s, b, x));
          err = nrm = 0;
          for (PetscInt i = 0; i < n; i++) {
            err = PetscMax(err, PetscAbsScalar(x[i] - xref[i]));
            nrm = PetscMax(nrm, PetscAbsScalar(xref[i]));
          }
          EXPECT(err <= 1e-13 * PetscMax(nrm, 1.0), "%s%s: x differs from the level path's by %g", what, phase ? " (new values)" : "", (double)err);
        }
        for (PetscInt p = 0; p < t->i[n]; p++) t->a[p] /= -1.5;
        PetscCall(SpTrsvTriValuesChanged(t));
        PetscCall(SpTrsvSolverDestroy(&s));
      }
    PetscCall(PetscFree3(b, x, xref));
    PetscCall(SpTrsvTriDestroy(&t));
    PetscCall(PetscFree(ai));
    PetscCall(PetscFree(aj));
    PetscCall(PetscFree(super));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ILU(levels)/ICC(levels) factors; the path's options are read at the symbolic phase */
static PetscErrorCode Factor(Mat A, MatSolverType type, MatFactorType ft, PetscInt levels, MatOrderingType ord, Mat *F)
{
  MatFactorInfo info;
  IS            row, col;

  PetscFunctionBeginUser;
  PetscCall(MatFactorInfoInitialize(&info));
  info.levels      = levels;
  info.fill        = 1.0;
  info.shifttype   = (PetscReal)(ft == MAT_FACTOR_ICC ? MAT_SHIFT_POSITIVE_DEFINITE : MAT_SHIFT_NONE);
  info.shiftamount = 100.0 * PETSC_MACHINE_EPSILON;
  info.zeropivot   = 100.0 * PETSC_MACHINE_EPSILON;
  PetscCall(MatGetOrdering(A, ord, &row, &col));
  if (!*F) {
    PetscCall(MatGetFactor(A, type, ft, F));
    if (ft == MAT_FACTOR_ICC) PetscCall(MatICCFactorSymbolic(*F, A, row, &info));
    else PetscCall(MatILUFactorSymbolic(*F, A, row, col, &info));
  }
  if (ft == MAT_FACTOR_ICC) PetscCall(MatCholeskyFactorNumeric(*F, A, &info));
  else PetscCall(MatLUFactorNumeric(*F, A, &info));
  PetscCall(ISDestroy(&row));
  PetscCall(ISDestroy(&col));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  TestFactorSolves - the path behind PETSc's factor interface against PETSc's native factor: MatSolve,
  MatSolveTranspose, MatMatSolve and MatMatSolveTranspose with 3 right-hand sides, before and after a refactorization;
  A is a 2-D convection-diffusion matrix (m > 0) or a 3-D 7-point Laplacian of -m^3 points; opts: the path's options
*/
static PetscErrorCode TestFactorSolves(PetscRandom rnd, PetscInt m, MatFactorType ft, PetscInt levels, MatOrderingType ord, const char *opts)
{
  Mat       A, Fn = NULL, Fs = NULL, B, X, Xn;
  PetscInt  n;
  PetscReal d;

  PetscFunctionBeginUser;
  if (m > 0) PetscCall(SpTrsvBuildConvDiff2D(m, ft == MAT_FACTOR_ICC ? 0.0 : 0.3, &A));
  else PetscCall(SpTrsvBuildStencil(-m, -m, -m, 7, &A));
  PetscCall(MatGetSize(A, &n, NULL));
  PetscCall(PetscOptionsInsertString(NULL, opts));
  PetscCall(Factor(A, MATSOLVERPETSC, ft, levels, ord, &Fn));
  PetscCall(Factor(A, MATSOLVERSPTRSVSUPERNODAL, ft, levels, ord, &Fs));
  PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, n, 3, NULL, &B));
  PetscCall(MatDuplicate(B, MAT_DO_NOT_COPY_VALUES, &X));
  PetscCall(MatDuplicate(B, MAT_DO_NOT_COPY_VALUES, &Xn));
  for (PetscInt phase = 0; phase < 2; phase++) {
    if (phase) {
      PetscCall(MatScale(A, 2.0));
      PetscCall(MatShift(A, 1.0));
      PetscCall(Factor(A, MATSOLVERPETSC, ft, levels, ord, &Fn));
      PetscCall(Factor(A, MATSOLVERSPTRSVSUPERNODAL, ft, levels, ord, &Fs));
    }
    PetscCall(MatSetRandom(B, rnd));
    for (PetscInt tr = 0; tr < 2; tr++) {
      Vec b, x, xn;
      PetscCall(MatDenseGetColumnVecRead(B, 0, &b));
      PetscCall(MatDenseGetColumnVecWrite(X, 0, &x));
      PetscCall(MatDenseGetColumnVecWrite(Xn, 0, &xn));
      if (tr) {
        PetscCall(MatSolveTranspose(Fs, b, x));
        PetscCall(MatSolveTranspose(Fn, b, xn));
      } else {
        PetscCall(MatSolve(Fs, b, x));
        PetscCall(MatSolve(Fn, b, xn));
      }
      PetscCall(MatDenseRestoreColumnVecWrite(Xn, 0, &xn));
      PetscCall(MatDenseRestoreColumnVecWrite(X, 0, &x));
      PetscCall(MatDenseRestoreColumnVecRead(B, 0, &b));
      if (tr) {
        PetscCall(MatMatSolveTranspose(Fs, B, X));
        PetscCall(MatMatSolveTranspose(Fn, B, Xn));
      } else {
        PetscCall(MatMatSolve(Fs, B, X));
        PetscCall(MatMatSolve(Fn, B, Xn));
      }
      PetscCall(MatRelDiff(X, Xn, &d));
      EXPECT(d < 1e-11, "%s(%" PetscInt_FMT ") %s m=%" PetscInt_FMT " [%s]%s: MatMatSolve%s differs from PETSc's by %g", ft == MAT_FACTOR_ICC ? "ICC" : "ILU", levels, ord, m, opts, phase ? " (refactored)" : "", tr ? "Transpose" : "", (double)d);
    }
  }
  {
    const char *keys[] = {"-mat_sptrsv_supernode_mode", "-mat_sptrsv_invert_diag", "-mat_sptrsv_merge", "-mat_sptrsv_supernode_relax", "-mat_sptrsv_supernode_cublas_width", "-mat_sptrsv_supernode_split", "-mat_sptrsv_supernode_min_width"};
    for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) PetscCall(PetscOptionsClearValue(NULL, keys[k]));
  }
  PetscCall(MatDestroy(&B));
  PetscCall(MatDestroy(&X));
  PetscCall(MatDestroy(&Xn));
  PetscCall(MatDestroy(&Fn));
  PetscCall(MatDestroy(&Fs));
  PetscCall(MatDestroy(&A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  PetscRandom    rnd;
  const PetscInt sizes[] = {1, 2, 17, 150};

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SpTrsvInitializePackage());
  PetscCall(PetscRandomCreate(PETSC_COMM_SELF, &rnd));
  PetscCall(PetscRandomSetSeed(rnd, 20260213));
  PetscCall(PetscRandomSeed(rnd));
  for (PetscInt s = 0; s < SHAPE_N; s++)
    for (PetscInt z = 0; z < (PetscInt)(sizeof(sizes) / sizeof(sizes[0])); z++) {
      PetscInt *ai, *aj, ns, *super;
      PetscCall(MakePattern(rnd, (Shape)s, sizes[z], &ai, &aj, &ns, &super));
      PetscCall(TestPattern(ShapeNames[s], sizes[z], ai, aj, 0, NULL));
      PetscCall(PetscFree(ai));
      PetscCall(PetscFree(aj));
      PetscCall(PetscFree(super));
    }
  PetscCall(TestPlanted(rnd));
  EXPECT(ncublas_seen > 0, "no configuration put a supernode through cuBLAS (that arithmetic is untested)");
  EXPECT(nzeros_seen > 0, "no configuration stored an explicit zero (merging is untested)");
  EXPECT(nfused_seen > 0, "no configuration fused a run of single-supernode levels");
  EXPECT(nsplit_seen > 0 && nsplit_push_seen > 0, "no configuration split a supernode (push: %" PetscInt_FMT ", all: %" PetscInt_FMT ")", nsplit_push_seen, nsplit_seen);
  PetscCall(TestDelegation(rnd));
  /* the dense blocks with -mat_sptrsv_supernode_min_width 0: the ILU(k) factors of a 2-D problem have supernodes of width
     about 1, and the exact ND factors of these small grids no supernode 16 wide; and ILU(0) delegated */
  PetscCall(TestFactorSolves(rnd, 20, MAT_FACTOR_ILU, 0, MATORDERINGNATURAL, "-mat_sptrsv_supernode_min_width 0"));
  PetscCall(TestFactorSolves(rnd, 20, MAT_FACTOR_ILU, 0, MATORDERINGNATURAL, ""));
  PetscCall(TestFactorSolves(rnd, 20, MAT_FACTOR_ILU, 2, MATORDERINGRCM, "-mat_sptrsv_supernode_mode pull -mat_sptrsv_invert_diag -mat_sptrsv_supernode_min_width 0"));
  PetscCall(TestFactorSolves(rnd, 20, MAT_FACTOR_ILU, 3, MATORDERINGND, "-mat_sptrsv_merge -mat_sptrsv_supernode_relax 0.2 -mat_sptrsv_supernode_min_width 0"));
  PetscCall(TestFactorSolves(rnd, 20, MAT_FACTOR_ICC, 0, MATORDERINGNATURAL, "-mat_sptrsv_supernode_mode push -mat_sptrsv_supernode_min_width 0"));
  PetscCall(TestFactorSolves(rnd, -7, MAT_FACTOR_ICC, 400, MATORDERINGND, "-mat_sptrsv_invert_diag -mat_sptrsv_supernode_cublas_width 8 -mat_sptrsv_supernode_min_width 0"));
  PetscCall(TestFactorSolves(rnd, -7, MAT_FACTOR_ILU, 400, MATORDERINGND, "-mat_sptrsv_merge -mat_sptrsv_supernode_min_width 0"));
  PetscCall(TestFactorSolves(rnd, -8, MAT_FACTOR_ILU, 400, MATORDERINGND, "-mat_sptrsv_invert_diag -mat_sptrsv_supernode_split always -mat_sptrsv_supernode_min_width 0"));
  PetscCall(TestFactorSolves(rnd, -8, MAT_FACTOR_ICC, 400, MATORDERINGND, "-mat_sptrsv_invert_diag -mat_sptrsv_supernode_split auto -mat_sptrsv_supernode_min_width 0"));
  /* 16^3 in nested dissection: outside lists longer than one push tile's 256 columns */
  PetscCall(TestFactorSolves(rnd, -16, MAT_FACTOR_ICC, 400, MATORDERINGND, "-mat_sptrsv_invert_diag -mat_sptrsv_supernode_split always -mat_sptrsv_supernode_min_width 0"));
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "test_supernodal: %" PetscInt_FMT " passed, %" PetscInt_FMT " failed\n", npass, nfail));
  PetscCall(PetscFinalize());
  return nfail ? 1 : 0;
}
