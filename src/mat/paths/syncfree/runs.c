/*
   The runs dispatch's windows (the sync-free path, include/sptrsv/paths/syncfree.h "Runs dispatch"): the host's pass that
   cuts a triangle into windows and orders them by depth, for one triangle (SpTrsvRunsPack()) or for a factor's L and U at
   once (SpTrsvRunsPackPair(), the two passes in two of the setup's threads, threads.h). The geometry only: the sync-free
   path's analysis (syncfree.c) takes the windows into its schedule and decides the kernel's batch and pause from them.
*/
#include <sptrsv/plan.h>
#include <sptrsv/threads.h>
#include "runs.h"

/*
  SpTrsvRunsPack - runs dispatch (include/sptrsv/paths/syncfree.h): the rows in the triangle's own order, cut
  greedily into windows: row k joins the window [k0, k) when each of its dependencies lies before k0 or is row k - 1,
  the window has fewer than 32 w->rows_max rows (-mat_sptrsv_run_rows), and row k depends on row k - 1 or the window
  holds no such row, does not continue a chain (its first row depends on the row before it: a line's last window of
  one row) and has fewer than SPTRSV_RUNS_MIN rows: a chain keeps windows of its own (packing the next
  one in would make the window wait for both chains' dependencies, and would shift the windows of the next grid lines
  against this line's: a 2-D grid's windows would then wait on two windows of the line before); rows that continue no
  chain share a warp; and row k waits for no window deeper than those the window's rows wait for so far (the depth
  cut: where rows also depend on the next point of the line before, as in 9- and 27-point stencils and ILU(k > 0)
  fill, a window cut at a multiple of 32 points would wait for the line before's next window, two window steps per line;
  cut before the row that would, the windows of each line shift one point left of the line before's, one step per
  line). The depth of a window (one more than the deepest window it waits for) is fixed when it opens: a row
  that would raise it opens the next window. The windows go
  out by their depth in the windows' DAG, by position inside a depth: a wavefront order, so the
  warps resident at once hold the windows that can progress (in position order a 3-D grid's resident windows would be
  a few planes of lines, of which only one line per plane is ready at a time). Then the rows per lane R (the smallest
  power of two with 32 R >= the longest window), the entries of the lane with the most, the chained rows and the depth
  of the DAG (its critical path). w->wstart[k] is the first position of the k-th window dispatched, w->wlanes[k] its
  length. The same pass gives
  every row its level (p->level, p->nlevels: the plan's statistics and -ksp_view; ASAP levels, p->level_asap, which the
  GPU ILU's level order takes) and checks that op is triangular.
  The plan's statistics (SpTrsvPlanComputeStats()'s) come with it.
  In three parts: SpTrsvRunsBegin() (the arrays), SpTrsvRunsWork() (the order, the pass over the rows,
  the dispatch order and the figures: plain C, no PETSc call, so that SpTrsvRunsPackPair() runs L's and U's at
  once in two threads), SpTrsvRunsEnd() (the statistics, the scratch), then the error of a triangle that is not one.
*/
typedef struct _n_SpTrsvRunsScan *SpTrsvRunsScan;

/* the work's state: its input, its scratch (depth and k0s: per window; wd: the depth of each position's window; cnt: the
   counting sorts') and its results */
struct _n_SpTrsvRunsScan {
  const SpTrsvOp         *op;
  SpTrsvPlan              p;
  SpTrsvRunsWindows      *w;
  PetscInt               *depth, *wd, *k0s, *cnt;        /* scratch (one allocation) */
  PetscInt                bad, badj;                     /* a dependency that is not triangular (-1: none) */
  PetscInt                max_level_rows, max_row_nnz;   /* the plan's statistics */
};

/* the scratch of the work (*scan, PetscNew'ed; SpTrsvRunsEnd() frees it) */
static PetscErrorCode SpTrsvRunsBegin(const SpTrsvOp *op, SpTrsvPlan p, SpTrsvRunsWindows *w, SpTrsvRunsScan *scan)
{
  const PetscInt n = op->n;
  SpTrsvRunsScan c;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  *scan = NULL;
  PetscCall(PetscFree(p->levptr)); /* the order is the triangle's own, not by level */
  PetscCall(PetscMalloc2(n + 1, &w->wstart, n + 1, &w->wlanes)); /* the caller's from now on, whatever happens */
  PetscCall(PetscNew(&c));
  c->op = op;
  c->p  = p;
  c->w  = w;
  ierr  = PetscMalloc4(n + 1, &c->depth, n + 1, &c->wd, n + 1, &c->k0s, n + 2, &c->cnt);
  if (ierr) PetscCall(PetscFree(c));
  PetscCall(ierr);
  PetscCall(SpTrsvThreadsFault(c->wd, (size_t)(n + 1) * sizeof(PetscInt))); /* every position's: faulted by the setup's threads (the others: a window's) */
  PetscCall(SpTrsvThreadsFault(c->cnt, (size_t)(n + 2) * sizeof(PetscInt)));
  *scan = c;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the pass over the rows (see SpTrsvRunsPack()): windows, their depths, every row's level; *nw: the windows,
   *maxlev: the deepest level; lower a constant where it is inlined, so that each triangle's position map
   compiles to its own arithmetic */
static SPTRSV_FORCE_INLINE void SpTrsvRunsPass(SpTrsvRunsScan c, const PetscBool lower, PetscInt *nwp, PetscInt *maxlevp)
{
  const SpTrsvOp         *op = c->op;
  SpTrsvRunsWindows      *w  = c->w;
  const PetscInt          n = op->n, cap = 32 * w->rows_max, *ri = op->ri, *rj = op->rj;
  PetscInt                nw = 0, dcur = 0, maxlev = -1, chained_rows = 0, *depth = c->depth, *wd = c->wd, *k0s = c->k0s; /* dcur: the depth of the open window, wd[k]: of position k's */
  PetscInt               *level = c->p->level;

  for (PetscInt k = 0, k0 = 0, wch = 0; k < n; k++) {
    const PetscInt i = lower ? k : n - 1 - k; /* the plan's order[k] */
    PetscBool      fits = (PetscBool)(k > k0 && k - k0 < cap), chained = PETSC_FALSE, inwin = PETSC_FALSE;
    PetscInt       dk = 0, lev = 0; /* dk: the deepest window before k0 that row k waits for */
    for (PetscInt e = ri[i]; e < ri[i + 1]; e++) {
      const PetscInt j = rj[e], q = lower ? j : n - 1 - j;
      if (j < 0 || j >= n || q >= k) { /* not triangular: reported by SpTrsvRunsEnd() */
        c->bad  = i;
        c->badj = j;
        break;
      }
      lev = PetscMax(lev, level[j] + 1);
      if (q >= k0) inwin = PETSC_TRUE;
      else dk = PetscMax(dk, wd[q]);
      if (q == k - 1) chained = PETSC_TRUE;
      else if (q >= k0) fits = PETSC_FALSE;
    }
    if (c->bad >= 0) break;
    if (fits && !chained && (wch || k - k0 >= SPTRSV_RUNS_MIN)) fits = PETSC_FALSE; /* a chain ends: a window of its own */
    if (fits && dk + 1 > dcur) fits = PETSC_FALSE; /* row k would make the window wait longer: it opens the next one */
    if (!fits) { /* row k opens a window; it continues a chain when it depends on the row before (the window before's last) */
      if (nw) depth[nw - 1] = dcur;
      dcur      = 1 + PetscMax(dk, inwin ? dcur : 0); /* the window closed now holds the rows of [k0, k) row k waits for */
      k0s[nw++] = k;
      k0        = k;
      wch       = chained;
      chained   = PETSC_FALSE;
    }
    if (chained) {
      chained_rows++;
      wch = 1;
    }
    wd[k]    = dcur;
    level[i] = lev;
    maxlev   = PetscMax(maxlev, lev);
  }
  if (nw) depth[nw - 1] = dcur;
  w->chained = chained_rows;
  *nwp       = nw;
  *maxlevp   = maxlev;
}

/*
  SpTrsvRunsWork - the order, the pass, then the windows in dispatch order, R, the longest lane and the plan's statistics
  (a thread's body, SpTrsvRangeFn's signature: the range is not used); plain C: a triangle that is not one is left in
  c->bad for SpTrsvRunsEnd()
*/
static void SpTrsvRunsWork(void *ctx, PetscInt lo_unused, PetscInt hi_unused)
{
  SpTrsvRunsScan     c  = (SpTrsvRunsScan)ctx;
  const SpTrsvOp    *op = c->op;
  SpTrsvPlan         p  = c->p;
  SpTrsvRunsWindows *w  = c->w;
  const PetscInt     n = op->n;
  PetscInt           nw, maxlev, longest = 0, *depth = c->depth, *k0s = c->k0s, *cnt = c->cnt;

  (void)lo_unused;
  (void)hi_unused;
  c->bad = c->badj = -1;
  for (PetscInt k = 0; k < n; k++) p->order[k] = op->lower ? k : n - 1 - k; /* the triangle's own order (its own inverse) */
  if (op->lower) SpTrsvRunsPass(c, PETSC_TRUE, &nw, &maxlev);
  else SpTrsvRunsPass(c, PETSC_FALSE, &nw, &maxlev);
  if (c->bad >= 0) return;
  p->nlevels    = maxlev + 1;
  p->level_asap = PETSC_TRUE; /* a row's level: 1 + its deepest dependency's, 0 without one */
  w->depth      = 0;
  k0s[nw]       = n;
  for (PetscInt v = 0; v < nw; v++) {
    longest  = PetscMax(longest, k0s[v + 1] - k0s[v]);
    w->depth = PetscMax(w->depth, depth[v]);
  }
  /* dispatch order: by depth, by position inside a depth (a stable counting sort) */
  for (PetscInt d = 0; d <= w->depth + 1; d++) cnt[d] = 0;
  for (PetscInt v = 0; v < nw; v++) cnt[depth[v] + 1]++;
  for (PetscInt d = 1; d <= w->depth + 1; d++) cnt[d] += cnt[d - 1];
  for (PetscInt v = 0; v < nw; v++) {
    const PetscInt slot = cnt[depth[v]]++;
    w->wstart[slot]     = k0s[v];
    w->wlanes[slot]     = (int)(k0s[v + 1] - k0s[v]);
  }
  w->wstart[nw] = n;
  w->nw         = nw;
  for (w->rows = 1; 32 * w->rows < longest; w->rows *= 2) { }
  w->lane_max = 0;
  for (PetscInt v = 0; v < nw; v++) { /* lane l of a window holds its ceil(len / 32) consecutive positions from k0 + l per */
    const PetscInt per = (k0s[v + 1] - k0s[v] + 31) / 32;
    for (PetscInt kb = k0s[v]; kb < k0s[v + 1]; kb += per) {
      PetscInt m = 0;
      for (PetscInt k = kb; k < PetscMin(kb + per, k0s[v + 1]); k++) m += op->ri[p->order[k] + 1] - op->ri[p->order[k]];
      w->lane_max = PetscMax(w->lane_max, m);
    }
  }
  SpTrsvPlanCountStats(op, p, cnt, &c->max_level_rows, &c->max_row_nnz); /* the widest level, the longest row */
}

/* after the work: the plan's statistics when the triangle is one, the scratch freed either way; *bad, *badj: the row
   and column of a dependency that is not triangular (-1: none), the caller's error (one for a pair) */
static PetscErrorCode SpTrsvRunsEnd(SpTrsvRunsScan *scan, PetscInt *bad, PetscInt *badj)
{
  SpTrsvRunsScan c = *scan;

  PetscFunctionBegin;
  *scan = NULL;
  *bad  = c->bad;
  *badj = c->badj;
  if (c->bad < 0) PetscCall(SpTrsvPlanSetStats(c->op, c->p, c->max_level_rows, c->max_row_nnz));
  PetscCall(PetscFree4(c->depth, c->wd, c->k0s, c->cnt));
  PetscCall(PetscFree(c));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the error of a triangle that is not one: the row and column SpTrsvRunsEnd() gave */
static PetscErrorCode SpTrsvRunsCheckTriangular(const SpTrsvOp *op, PetscInt bad, PetscInt badj)
{
  PetscFunctionBegin;
  PetscCheck(bad < 0, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Not a %s triangle: row %" PetscInt_FMT " depends on column %" PetscInt_FMT, op->lower ? "lower" : "upper", bad, badj);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* SpTrsvRunsPack - the runs dispatch's windows of one triangle and its plan's statistics (see above) */
PetscErrorCode SpTrsvRunsPack(const SpTrsvOp *op, SpTrsvPlan p, SpTrsvRunsWindows *w)
{
  SpTrsvRunsScan c;
  PetscInt       bad, badj;

  PetscFunctionBegin;
  PetscCall(SpTrsvRunsBegin(op, p, w, &c));
  SpTrsvRunsWork(c, 0, 0);
  PetscCall(SpTrsvRunsEnd(&c, &bad, &badj));
  PetscCall(SpTrsvRunsCheckTriangular(op, bad, badj));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvRunsPackPair - SpTrsvRunsPack() of two triangles (a factor's L and U), their work at once, one in a thread of its
  own when the setup has two threads or more (SpTrsvThreadsPair()); the same windows and plans as two calls, and one
  error, the first triangle's, when neither is triangular
*/
PetscErrorCode SpTrsvRunsPackPair(const SpTrsvOp *op0, SpTrsvPlan p0, SpTrsvRunsWindows *w0, const SpTrsvOp *op1, SpTrsvPlan p1, SpTrsvRunsWindows *w1)
{
  SpTrsvRunsScan c0 = NULL, c1 = NULL;
  PetscInt       bad[2], badj[2];
  PetscErrorCode ierr;

  PetscFunctionBegin;
  ierr = SpTrsvRunsBegin(op0, p0, w0, &c0);
  if (!ierr) ierr = SpTrsvRunsBegin(op1, p1, w1, &c1);
  if (ierr) { /* the scratch made: freed (the windows' arrays are the caller's) */
    if (c0) PetscCall(SpTrsvRunsEnd(&c0, &bad[0], &badj[0]));
    PetscCall(ierr);
  }
  ierr = SpTrsvThreadsPair(SpTrsvRunsWork, c0, SpTrsvRunsWork, c1); /* both ran; an error is the setup's side job's */
  {
    const PetscErrorCode ierr0 = SpTrsvRunsEnd(&c0, &bad[0], &badj[0]);
    const PetscErrorCode ierr1 = SpTrsvRunsEnd(&c1, &bad[1], &badj[1]); /* the second's scratch, whatever the first's outcome */
    if (!ierr) ierr = ierr0 ? ierr0 : ierr1;
  }
  PetscCall(ierr);
  PetscCall(SpTrsvRunsCheckTriangular(op0, bad[0], badj[0]));
  PetscCall(SpTrsvRunsCheckTriangular(op1, bad[1], badj[1]));
  PetscFunctionReturn(PETSC_SUCCESS);
}
