/* Level-set analysis (paper 000): lev(i) = 1 + max lev(j) over the dependencies j of row i */
#include <sptrsv/plan.h>
#include <sptrsv/threads.h>
#include <petsctime.h>

/*
  SpTrsvLevelsCompute - level of every row of a triangular dependency graph given by its rows

  Input: n, row pointers ri and columns rj of the strictly triangular part of op(T), lower
  Output: level[n] (0-based) and, if levcount is not NULL, the number of levels in levcount[0]

  Rows of a lower triangle depend on smaller rows, so one forward sweep sets every level; an upper
  triangle is swept backwards. Entries on the wrong side of the diagonal are an error.
*/
PetscErrorCode SpTrsvLevelsCompute(PetscInt n, const PetscInt *ri, const PetscInt *rj, PetscBool lower, PetscInt *level, PetscInt *nlevels)
{
  PetscInt maxlev = -1;

  PetscFunctionBegin;
  for (PetscInt k = 0; k < n; k++) {
    PetscInt i = lower ? k : n - 1 - k, lev = 0;
    for (PetscInt p = ri[i]; p < ri[i + 1]; p++) {
      PetscInt j = rj[p];
      PetscCheck(lower ? (j >= 0 && j < i) : (j > i && j < n), PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Not a %s triangle: row %" PetscInt_FMT " depends on column %" PetscInt_FMT, lower ? "lower" : "upper", i, j);
      lev = PetscMax(lev, level[j] + 1);
    }
    level[i] = lev;
    maxlev   = PetscMax(maxlev, lev);
  }
  if (nlevels) *nlevels = maxlev + 1;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvPlanComputeStats - fill the statistics every plan carries (the widest level from plan->levptr, or counted from
  plan->level when the rows are not sorted by level); bytes count 32-bit device indices and one read of b and one
  write of x, the least a solve can move
*/
PetscErrorCode SpTrsvPlanComputeStats(const SpTrsvOp *op, SpTrsvPlan plan)
{
  PetscInt max_level_rows = 0, max_row_nnz = 0, *cnt = NULL;

  PetscFunctionBegin;
  if (plan->levptr)
    for (PetscInt l = 0; l < plan->nlevels; l++) max_level_rows = PetscMax(max_level_rows, plan->levptr[l + 1] - plan->levptr[l]);
  else PetscCall(PetscMalloc1(plan->nlevels + 1, &cnt));
  SpTrsvPlanCountStats(op, plan, cnt, cnt ? &max_level_rows : NULL, &max_row_nnz);
  PetscCall(PetscFree(cnt));
  PetscCall(SpTrsvPlanSetStats(op, plan, max_level_rows, max_row_nnz));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvPlanCountStats - the longest row of op and, with max_level_rows, the widest level counted from plan->level in cnt
  (plan->nlevels + 1 entries, zeroed here); plain C, no PETSc call (the runs dispatch's work calls it in a setup thread)
*/
void SpTrsvPlanCountStats(const SpTrsvOp *op, SpTrsvPlan plan, PetscInt *cnt, PetscInt *max_level_rows, PetscInt *max_row_nnz)
{
  if (max_level_rows) {
    *max_level_rows = 0;
    for (PetscInt l = 0; l <= plan->nlevels; l++) cnt[l] = 0;
    for (PetscInt i = 0; i < op->n; i++) *max_level_rows = PetscMax(*max_level_rows, ++cnt[plan->level[i]]);
  }
  *max_row_nnz = 0;
  for (PetscInt i = 0; i < op->n; i++) *max_row_nnz = PetscMax(*max_row_nnz, op->ri[i + 1] - op->ri[i]);
}

/*
  SpTrsvPlanSetStats - the statistics from plan->nlevels and the two maxima (the widest level, the longest row),
  however they were found (SpTrsvPlanComputeStats on the host, the device analysis on the GPU)
*/
PetscErrorCode SpTrsvPlanSetStats(const SpTrsvOp *op, SpTrsvPlan plan, PetscInt max_level_rows, PetscInt max_row_nnz)
{
  SpTrsvStats *s = &plan->stats;

  PetscFunctionBegin;
  s->n               = op->n;
  s->nnz             = op->nnz;
  s->nlevels         = plan->nlevels;
  s->max_level_rows  = max_level_rows;
  s->max_row_nnz     = max_row_nnz;
  s->mean_level_rows = plan->nlevels ? (PetscReal)op->n / plan->nlevels : 0;
  s->mean_row_nnz    = op->n ? (PetscReal)op->nnz / op->n : 0;
  s->bytes_per_solve = (PetscLogDouble)op->nnz * (sizeof(PetscScalar) + sizeof(int)) + (PetscLogDouble)op->n * (2 * sizeof(int) + 2 * sizeof(PetscScalar) + (op->unit ? 0 : sizeof(PetscScalar)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the parts of a threaded counting sort by level: part t holds rows [n t / P, n (t + 1) / P); cnt[t] its count per level,
   then the first slot of each level for its rows (the parts of a level in part order: the sort stays stable) */
typedef struct {
  PetscInt        n, nparts, nlevels;
  const PetscInt *level;
  PetscInt       *cnt; /* nparts x (nlevels + 1) */
  PetscInt       *order;
} SpTrsvLevelsSortCtx;

static void SpTrsvLevelsSortCount(void *ctx, PetscInt lo, PetscInt hi)
{
  const SpTrsvLevelsSortCtx *c = (const SpTrsvLevelsSortCtx *)ctx;

  for (PetscInt t = lo; t < hi; t++) {
    PetscInt *cnt = c->cnt + t * (c->nlevels + 1);

    for (PetscInt l = 0; l <= c->nlevels; l++) cnt[l] = 0;
    for (PetscInt i = SpTrsvThreadsPartStart(c->n, t, c->nparts); i < SpTrsvThreadsPartStart(c->n, t + 1, c->nparts); i++) cnt[c->level[i]]++;
  }
}

static void SpTrsvLevelsSortPlace(void *ctx, PetscInt lo, PetscInt hi)
{
  const SpTrsvLevelsSortCtx *c = (const SpTrsvLevelsSortCtx *)ctx;

  for (PetscInt t = lo; t < hi; t++) {
    PetscInt *next = c->cnt + t * (c->nlevels + 1);

    for (PetscInt i = SpTrsvThreadsPartStart(c->n, t, c->nparts); i < SpTrsvThreadsPartStart(c->n, t + 1, c->nparts); i++) c->order[next[c->level[i]]++] = i;
  }
}

/*
  SpTrsvLevelsSort - rows grouped by level (counting sort): *levptr (nlevels + 1, PetscMalloc'ed) and order (n,
  given), rows of level l being order[levptr[l] .. levptr[l+1]-1], ascending inside a level. In the setup's threads
  (threads.h) when the loop is long enough and the levels few against the rows (each part keeps a count per level):
  each counts and places its own part of the rows
*/
PetscErrorCode SpTrsvLevelsSort(PetscInt n, const PetscInt *level, PetscInt nlevels, PetscInt **levptr, PetscInt *order)
{
  SpTrsvLevelsSortCtx c;
  PetscInt           *ptr;

  PetscFunctionBegin;
  c.n       = n;
  c.nparts  = SpTrsvThreadsParts(n);
  if ((PetscInt64)c.nparts * (nlevels + 1) > (PetscInt64)n) c.nparts = 1; /* many levels (a chain): the counts would outgrow the rows; one part */
  c.nlevels = nlevels;
  c.level   = level;
  c.order   = order;
  PetscCall(PetscCalloc1(nlevels + 1, &ptr));
  PetscCall(PetscMalloc1((size_t)c.nparts * (size_t)(nlevels + 1), &c.cnt));
  PetscCall(SpTrsvThreadsEach(c.nparts, SpTrsvLevelsSortCount, &c));
  for (PetscInt l = 0; l < nlevels; l++) { /* ptr: the level pointers; each part's counts become its first slots */
    PetscInt at = ptr[l];

    for (PetscInt t = 0; t < c.nparts; t++) {
      PetscInt *cnt = c.cnt + t * (nlevels + 1) + l;
      const PetscInt k = *cnt;

      *cnt = at;
      at += k;
    }
    ptr[l + 1] = at;
  }
  PetscCall(SpTrsvThreadsEach(c.nparts, SpTrsvLevelsSortPlace, &c));
  PetscCall(PetscFree(c.cnt));
  *levptr = ptr;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvPlanCreateLevels - a plan with the level of every row and the statistics, no path data; with sort the rows
  sorted by level (stable: ascending row index inside a level) with level pointers (SpTrsvPlanCreateLevelSets), without
  it plan->order left to the caller and no level pointers (a path that dispatches in another order)
*/
PetscErrorCode SpTrsvPlanCreateLevels(const SpTrsvOp *op, PetscBool sort, SpTrsvPlan *plan)
{
  SpTrsvPlan     p;
  PetscInt       n = op->n;
  PetscLogDouble t0, t1;

  PetscFunctionBegin;
  PetscCall(PetscTime(&t0));
  PetscCall(SpTrsvPlanCreateRows(n, &p));
  PetscCall(SpTrsvLevelsCompute(n, op->ri, op->rj, op->lower, p->level, &p->nlevels));
  p->level_asap = PETSC_TRUE;
  if (sort) PetscCall(SpTrsvLevelsSort(n, p->level, p->nlevels, &p->levptr, p->order));
  PetscCall(SpTrsvPlanComputeStats(op, p));
  PetscCall(PetscTime(&t1));
  p->stats.analysis_time = t1 - t0;
  *plan                  = p;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvPlanCreateLevelSets - a plan of rows sorted by level with level pointers and statistics, no path data: what
  the level and element paths start from
*/
PetscErrorCode SpTrsvPlanCreateLevelSets(const SpTrsvOp *op, SpTrsvPlan *plan)
{
  PetscFunctionBegin;
  PetscCall(SpTrsvPlanCreateLevels(op, PETSC_TRUE, plan));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvLevelsALAP - levels "as late as possible" (paper 001): nlevels is the number of levels that
  SpTrsvLevelsCompute() found (the critical path); on output level[] puts every row at the latest level that does
  not delay any row depending on it: alap(i) = min over the rows r that depend on i of alap(r) - 1, and
  nlevels - 1 for a row nothing depends on. The critical path (nlevels) is unchanged; rows off it move
  towards the levels where they are needed, so they stop competing with critical rows for warps.
  Rows are visited in reverse dependency order (downwards for a lower triangle), so alap(r) is final
  before r lowers the levels of its dependencies.
*/
PetscErrorCode SpTrsvLevelsALAP(PetscInt n, const PetscInt *ri, const PetscInt *rj, PetscBool lower, PetscInt nlevels, PetscInt *level)
{
  PetscFunctionBegin;
  for (PetscInt i = 0; i < n; i++) level[i] = nlevels - 1;
  for (PetscInt k = 0; k < n; k++) {
    const PetscInt i = lower ? n - 1 - k : k;
    for (PetscInt p = ri[i]; p < ri[i + 1]; p++) level[rj[p]] = PetscMin(level[rj[p]], level[i] - 1);
  }
  for (PetscInt i = 0; i < n; i++) PetscCheck(level[i] >= 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "ALAP level of row %" PetscInt_FMT " is negative", i);
  PetscFunctionReturn(PETSC_SUCCESS);
}
