/*
   Distance-1 colouring of the symmetrized graph of a sparse matrix, for multicolor Gauss-Seidel sweeps
   (see include/sptrsv/coloring.h). Plain C on the host, once per nonzero pattern.
*/
#include <sptrsv/coloring.h>

/*
  SpTrsvColoringGreedy - colour the rows of the n x n pattern (ia, ja) so that rows coupled by an entry (r, c) or
  (c, r), r != c, differ; rows are taken in natural order and get the smallest colour not held by a coloured
  neighbour. The neighbours are those of A + A^T: each row's own entries plus the rows whose entries name it
  (the transposed pattern, counted once). color[] gets values 0 .. *ncolors - 1.
*/
PetscErrorCode SpTrsvColoringGreedy(PetscInt n, const PetscInt *ia, const PetscInt *ja, PetscInt *ncolors, PetscInt *color)
{
  PetscInt *ti, *tj, *fill, *mark, nc = 0, maxdeg = 0;

  PetscFunctionBegin;
  /* the transposed pattern (column lists), off-diagonal entries only */
  PetscCall(PetscCalloc2(n + 1, &ti, n + 1, &fill));
  for (PetscInt r = 0; r < n; r++)
    for (PetscInt p = ia[r]; p < ia[r + 1]; p++)
      if (ja[p] != r) ti[ja[p] + 1]++;
  for (PetscInt c = 0; c < n; c++) ti[c + 1] += ti[c];
  PetscCall(PetscMalloc1(ti[n] + 1, &tj));
  for (PetscInt r = 0; r < n; r++)
    for (PetscInt p = ia[r]; p < ia[r + 1]; p++)
      if (ja[p] != r) tj[ti[ja[p]] + fill[ja[p]]++] = r;
  for (PetscInt r = 0; r < n; r++) maxdeg = PetscMax(maxdeg, ia[r + 1] - ia[r] + ti[r + 1] - ti[r]);
  /* mark[c] == r: colour c is taken by a neighbour of row r (at most maxdeg colours are, so maxdeg + 1 suffice) */
  PetscCall(PetscMalloc1(maxdeg + 2, &mark));
  for (PetscInt c = 0; c < maxdeg + 2; c++) mark[c] = -1;
  for (PetscInt r = 0; r < n; r++) color[r] = -1;
  for (PetscInt r = 0; r < n; r++) {
    PetscInt c = 0;

    for (PetscInt p = ia[r]; p < ia[r + 1]; p++)
      if (ja[p] != r && color[ja[p]] >= 0) mark[color[ja[p]]] = r;
    for (PetscInt p = ti[r]; p < ti[r + 1]; p++)
      if (color[tj[p]] >= 0) mark[color[tj[p]]] = r;
    while (mark[c] == r) c++;
    color[r] = c;
    nc       = PetscMax(nc, c + 1);
  }
  PetscCall(PetscFree(mark));
  PetscCall(PetscFree(tj));
  PetscCall(PetscFree2(ti, fill));
  *ncolors = nc;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* SpTrsvColoringCheck - *badrow = the first row r with an entry (r, c), c != r, of its own colour, or -1 */
PetscErrorCode SpTrsvColoringCheck(PetscInt n, const PetscInt *ia, const PetscInt *ja, const PetscInt *color, PetscInt *badrow)
{
  PetscFunctionBegin;
  *badrow = -1;
  for (PetscInt r = 0; r < n && *badrow < 0; r++)
    for (PetscInt p = ia[r]; p < ia[r + 1]; p++)
      if (ja[p] != r && color[ja[p]] == color[r]) {
        *badrow = r;
        break;
      }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* SpTrsvColoringOrder - colptr (ncolors + 1) and perm (n): the rows of colour c, ascending, at perm[colptr[c] ..] */
PetscErrorCode SpTrsvColoringOrder(PetscInt n, PetscInt ncolors, const PetscInt *color, PetscInt *colptr, PetscInt *perm)
{
  PetscInt *next;

  PetscFunctionBegin;
  PetscCall(PetscArrayzero(colptr, ncolors + 1));
  for (PetscInt r = 0; r < n; r++) {
    PetscCheck(color[r] >= 0 && color[r] < ncolors, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Row %" PetscInt_FMT " has colour %" PetscInt_FMT ", outside [0, %" PetscInt_FMT ")", r, color[r], ncolors);
    colptr[color[r] + 1]++;
  }
  for (PetscInt c = 0; c < ncolors; c++) colptr[c + 1] += colptr[c];
  PetscCall(PetscMalloc1(ncolors + 1, &next));
  PetscCall(PetscArraycpy(next, colptr, ncolors));
  for (PetscInt r = 0; r < n; r++) perm[next[color[r]]++] = r;
  PetscCall(PetscFree(next));
  PetscFunctionReturn(PETSC_SUCCESS);
}
