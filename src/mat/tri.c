/* SpTrsvTri: one sparse triangle, its CSC view and its oriented views */
#include <sptrsv/tri.h>
#include <sptrsv/utils.h> /* SpTrsvAllFinite */

/*
  SpTrsvTriCreate - a triangle of n rows with no pattern yet
*/
PetscErrorCode SpTrsvTriCreate(PetscInt n, SpTrsvUplo uplo, PetscBool unit, SpTrsvTri *tri)
{
  SpTrsvTri t;

  PetscFunctionBegin;
  PetscCheck(n >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Negative size %" PetscInt_FMT, n);
  PetscCall(PetscNew(&t));
  t->n    = n;
  t->bs   = 1;
  t->uplo = uplo;
  t->unit = unit;
  *tri    = t;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SpTrsvTriAdopt(SpTrsvTri t, PetscInt *i, PetscInt *j, PetscBool check, PetscBool zero)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(t->i));
  PetscCall(PetscFree(t->j));
  PetscCall(PetscFree(t->a));
  PetscCall(PetscFree(t->idiag));
  PetscCall(PetscFree3(t->ci, t->cj, t->cmap));
  PetscCall(PetscFree(t->ca));
  t->has_csc = PETSC_FALSE;
  t->i       = i;
  t->j       = j;
  if (zero) {
    PetscCall(PetscCalloc1(i[t->n] + 1, &t->a));
    if (!t->unit) PetscCall(PetscCalloc1(t->n + 1, &t->idiag));
  } else {
    PetscCall(PetscMalloc1(i[t->n] + 1, &t->a));
    if (!t->unit) PetscCall(PetscMalloc1(t->n + 1, &t->idiag));
  }
  t->values_unset = (PetscBool)!zero;
  if (check) PetscCall(SpTrsvTriCheckPattern(t));
  t->state++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvTriSetPattern - give the triangle its strict-part CSR pattern (ownership of i and j passes to
  the triangle, both PetscMalloc'ed), checked (SpTrsvTriCheckPattern()), and allocate the values (zeroed)
  and, if not unit, idiag
*/
PetscErrorCode SpTrsvTriSetPattern(SpTrsvTri t, PetscInt *i, PetscInt *j)
{
  PetscFunctionBegin;
  PetscCall(SpTrsvTriAdopt(t, i, j, PETSC_TRUE, PETSC_TRUE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvTriSetPatternTrusted - SpTrsvTriSetPattern() for a pattern that a symbolic factorization of the plugin
  built (row pointers ascending, columns sorted and strictly on the triangle's side by construction): the pass
  of SpTrsvTriCheckPattern() over every entry runs in debug builds only. zero: the values start at zero, else
  they are left unset (no pass over them, no page of them touched) for a numeric phase that writes every one
  of them before a solve reads any (ILU: the host rows or the download of the GPU factor; the executors copy
  the unset values at their setup, and the numeric phase refreshes them)
*/
PetscErrorCode SpTrsvTriSetPatternTrusted(SpTrsvTri t, PetscInt *i, PetscInt *j, PetscBool zero)
{
  PetscFunctionBegin;
  PetscCall(SpTrsvTriAdopt(t, i, j, PetscDefined(USE_DEBUG) ? PETSC_TRUE : PETSC_FALSE, zero));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvTriCheckPattern - rows ascending, columns in range, strictly on the triangle's side
*/
PetscErrorCode SpTrsvTriCheckPattern(SpTrsvTri t)
{
  PetscFunctionBegin;
  PetscCheck(t->i[0] == 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Row pointer must start at 0");
  for (PetscInt r = 0; r < t->n; r++) {
    PetscCheck(t->i[r + 1] >= t->i[r], PETSC_COMM_SELF, PETSC_ERR_ARG_CORRUPT, "Row pointer decreases at row %" PetscInt_FMT, r);
    for (PetscInt p = t->i[r]; p < t->i[r + 1]; p++) {
      PetscInt c = t->j[p];
      PetscCheck(c >= 0 && c < t->n, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Row %" PetscInt_FMT " has column %" PetscInt_FMT " outside [0, %" PetscInt_FMT ")", r, c, t->n);
      PetscCheck(t->uplo == SPTRSV_LOWER ? c < r : c > r, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Matrix is not %s triangular: entry (%" PetscInt_FMT ", %" PetscInt_FMT ") is %s the diagonal", t->uplo == SPTRSV_LOWER ? "lower" : "upper", r, c, c == r ? "on" : (c > r ? "above" : "below"));
      PetscCheck(p == t->i[r] || t->j[p - 1] < c, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Row %" PetscInt_FMT " has unsorted or repeated column %" PetscInt_FMT, r, c);
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvTriFindNonFinite - the first NaN/Inf of the triangle, row by row: *row = -1 when there is none;
  *col = -1 when it is the inverse diagonal entry of *row
*/
PetscErrorCode SpTrsvTriFindNonFinite(SpTrsvTri t, PetscInt *row, PetscInt *col)
{
  PetscFunctionBegin;
  *row = *col = -1;
  if (SpTrsvAllFinite(t->a, t->i[t->n]) && (!t->idiag || SpTrsvAllFinite(t->idiag, t->n))) PetscFunctionReturn(PETSC_SUCCESS); /* the usual case, in one cheap pass */
  for (PetscInt r = 0; r < t->n; r++) {
    if (t->idiag && PetscIsInfOrNanScalar(t->idiag[r])) {
      *row = r;
      PetscFunctionReturn(PETSC_SUCCESS);
    }
    for (PetscInt p = t->i[r]; p < t->i[r + 1]; p++)
      if (PetscIsInfOrNanScalar(t->a[p])) {
        *row = r;
        *col = t->j[p];
        PetscFunctionReturn(PETSC_SUCCESS);
      }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvTriCheckValues - no NaN/Inf in the values or the inverse diagonal (a factor that has them
  would make every solve return garbage)
*/
PetscErrorCode SpTrsvTriCheckValues(SpTrsvTri t)
{
  PetscInt r, c;

  PetscFunctionBegin;
  PetscCall(SpTrsvTriFindNonFinite(t, &r, &c));
  PetscCheck(r < 0 || c >= 0, PETSC_COMM_SELF, PETSC_ERR_FP, "Factor has an Inf/NaN pivot in row %" PetscInt_FMT, r);
  PetscCheck(r < 0, PETSC_COMM_SELF, PETSC_ERR_FP, "Factor has an Inf/NaN value at (%" PetscInt_FMT ", %" PetscInt_FMT ")", r, c);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SpTrsvTriFillCSCValues(SpTrsvTri t)
{
  PetscFunctionBegin;
  for (PetscInt p = 0; p < t->i[t->n]; p++) t->ca[p] = t->a[t->cmap[p]];
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvTriBuildCSC - build the column view once per pattern (row indices ascend in each column)
*/
PetscErrorCode SpTrsvTriBuildCSC(SpTrsvTri t)
{
  PetscInt  n = t->n, nnz = t->i[n];
  PetscInt *next;

  PetscFunctionBegin;
  if (t->has_csc) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscCalloc3(n + 1, &t->ci, nnz + 1, &t->cj, nnz + 1, &t->cmap));
  PetscCall(PetscMalloc1(nnz + 1, &t->ca));
  for (PetscInt p = 0; p < nnz; p++) t->ci[t->j[p] + 1]++;
  for (PetscInt c = 0; c < n; c++) t->ci[c + 1] += t->ci[c];
  PetscCall(PetscMalloc1(n + 1, &next));
  PetscCall(PetscArraycpy(next, t->ci, n));
  for (PetscInt r = 0; r < n; r++) {
    for (PetscInt p = t->i[r]; p < t->i[r + 1]; p++) {
      PetscInt q = next[t->j[p]]++;
      t->cj[q]   = r;
      t->cmap[q] = p;
    }
  }
  PetscCall(PetscFree(next));
  PetscCall(SpTrsvTriFillCSCValues(t));
  t->has_csc = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvTriValuesChanged - the values (a, idiag) were refreshed on the same pattern
*/
PetscErrorCode SpTrsvTriValuesChanged(SpTrsvTri t)
{
  PetscFunctionBegin;
  if (t->has_csc) PetscCall(SpTrsvTriFillCSCValues(t));
  t->values_unset = PETSC_FALSE;
  t->state++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvTriGetOp - the oriented view op(T) (transpose = PETSC_TRUE gives T^T). The rows of op(T) are always
  there; its columns only when the CSC view exists: a transpose builds it (its rows are the columns of T), the
  identity leaves op->ci, op->cj, op->ca NULL unless SpTrsvTriBuildCSC() ran before (a format or analysis that
  reads columns builds it first: SpTrsvSolverCreate does for -mat_sptrsv_format csc). Paths that read rows only
  thus never pay for the column view (an O(nnz) scatter and a copy of the values on every refactorization).
*/
PetscErrorCode SpTrsvTriGetOp(SpTrsvTri t, PetscBool transpose, SpTrsvOp *op)
{
  PetscFunctionBegin;
  if (transpose) PetscCall(SpTrsvTriBuildCSC(t));
  op->n     = t->n;
  op->unit  = t->unit;
  op->nnz   = t->i[t->n];
  op->idiag = t->idiag;
  op->lower = (PetscBool)((t->uplo == SPTRSV_LOWER) != transpose);
  op->nsuper = t->nsuper;
  op->super  = t->super;
  if (!transpose) {
    op->ri = t->i;  op->rj = t->j;  op->ra = t->a;
    op->ci = t->has_csc ? t->ci : NULL; op->cj = t->has_csc ? t->cj : NULL; op->ca = t->has_csc ? t->ca : NULL;
  } else {
    op->ri = t->ci; op->rj = t->cj; op->ra = t->ca;
    op->ci = t->i;  op->cj = t->j;  op->ca = t->a;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvTriSetSupernodes - records the supernode partition of T known from its factorization (copied): nsuper
  supernodes, supernode k = rows/columns [super[k], super[k+1]); nsuper = 0 clears it. Checked: it must start at 0,
  increase strictly and end at n.
*/
PetscErrorCode SpTrsvTriSetSupernodes(SpTrsvTri t, PetscInt nsuper, const PetscInt *super)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(t->super));
  t->nsuper    = 0;
  if (nsuper <= 0) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCheck(super[0] == 0 && super[nsuper] == t->n, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Supernode partition must cover [0, %" PetscInt_FMT "), got [%" PetscInt_FMT ", %" PetscInt_FMT ")", t->n, super[0], super[nsuper]);
  for (PetscInt k = 0; k < nsuper; k++) PetscCheck(super[k + 1] > super[k], PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Supernode %" PetscInt_FMT " is empty or reversed: [%" PetscInt_FMT ", %" PetscInt_FMT ")", k, super[k], super[k + 1]);
  PetscCall(PetscMalloc1(nsuper + 1, &t->super));
  PetscCall(PetscArraycpy(t->super, super, nsuper + 1));
  t->nsuper = nsuper;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SpTrsvTriDestroy(SpTrsvTri *tri)
{
  SpTrsvTri t = *tri;

  PetscFunctionBegin;
  if (!t) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscFree(t->i));
  PetscCall(PetscFree(t->j));
  PetscCall(PetscFree(t->a));
  PetscCall(PetscFree(t->idiag));
  PetscCall(PetscFree3(t->ci, t->cj, t->cmap));
  PetscCall(PetscFree(t->ca));
  PetscCall(PetscFree(t->super));
  PetscCall(PetscFree(t));
  *tri = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}
