/*
   Distance-1 colouring of the symmetrized graph of a sparse matrix, for multicolor Gauss-Seidel sweeps
   (see include/sptrsv/coloring.h). Plain C on the host, once per nonzero pattern; the GPU versions of jp and dmda
   (src/cuda/gs_coloring.cu) give the same colours.
*/
#include <sptrsv/coloring.h>
#include <petscdmda.h>

const char *const SpTrsvColoringTypes[] = {"auto", "natural", "jp", "dmda", "SpTrsvColoringType", "SPTRSV_COLORING_", NULL};

/*
  SpTrsvColoringGreedy - colour the rows of the n x n pattern (ia, ja) so that rows coupled by an entry (r, c) or
  (c, r), r != c, differ; rows are taken in the given order (order[t] is the t-th row; NULL: natural order) and get
  the smallest colour not held by a coloured neighbour. The neighbours are those of A + A^T: each row's own entries
  plus the rows whose entries name it (the transposed pattern, counted once). color[] gets values 0 .. *ncolors - 1.
*/
PetscErrorCode SpTrsvColoringGreedy(PetscInt n, const PetscInt *ia, const PetscInt *ja, const PetscInt *order, PetscInt *ncolors, PetscInt *color)
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
  for (PetscInt t = 0; t < n; t++) {
    const PetscInt r = order ? order[t] : t;
    PetscInt       c = 0;

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

/* jp order: rows by decreasing priority, the lower row first on a tie */
static int SpTrsvColoringCompare(const void *a, const void *b)
{
  const unsigned int ra = (unsigned int)*(const PetscInt *)a, rb = (unsigned int)*(const PetscInt *)b;

  return ra == rb ? 0 : (SpTrsvColoringBefore(ra, rb) ? -1 : 1);
}

/* SpTrsvColoringJP - greedy in jp order (include/sptrsv/coloring.h): what the GPU rounds give */
PetscErrorCode SpTrsvColoringJP(PetscInt n, const PetscInt *ia, const PetscInt *ja, PetscInt *ncolors, PetscInt *color)
{
  PetscInt *order;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(n + 1, &order));
  for (PetscInt r = 0; r < n; r++) order[r] = r;
  qsort(order, (size_t)n, sizeof(PetscInt), SpTrsvColoringCompare);
  PetscCall(SpTrsvColoringGreedy(n, ia, ja, order, ncolors, color));
  PetscCall(PetscFree(order));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* SpTrsvColoringGridRule - the dmda colours of the n local rows of grid; *ncolors = the rule's count (some may be empty) */
PetscErrorCode SpTrsvColoringGridRule(const SpTrsvGrid *grid, PetscInt n, PetscInt *ncolors, PetscInt *color)
{
  PetscFunctionBegin;
  PetscCheck(grid->dim > 0 && (PetscInt64)grid->xm * grid->ym * grid->zm * grid->dof == (PetscInt64)n, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "The DMDA has %" PetscInt_FMT " x %" PetscInt_FMT " x %" PetscInt_FMT " local nodes with %" PetscInt_FMT " components, the matrix %" PetscInt_FMT " local rows", grid->xm, grid->ym, grid->zm, grid->dof, n);
  for (PetscInt r = 0; r < n; r++) color[r] = SpTrsvGridColor(grid, r);
  *ncolors = SpTrsvGridColors(grid);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* SpTrsvGridFromDM - the local box of dm when it is a DMDA whose local rows number nrows; grid->dim = 0 otherwise */
PetscErrorCode SpTrsvGridFromDM(DM dm, PetscInt nrows, SpTrsvGrid *grid)
{
  PetscBool       isda = PETSC_FALSE;
  PetscInt        dim, dof, s, xs, ys, zs, xm, ym, zm;
  DMDAStencilType st;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(grid, sizeof(*grid)));
  if (dm) PetscCall(PetscObjectTypeCompare((PetscObject)dm, DMDA, &isda));
  if (!isda) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(DMDAGetInfo(dm, &dim, NULL, NULL, NULL, NULL, NULL, NULL, &dof, &s, NULL, NULL, NULL, &st));
  PetscCall(DMDAGetCorners(dm, &xs, &ys, &zs, &xm, &ym, &zm));
  if ((PetscInt64)xm * ym * zm * dof != (PetscInt64)nrows || dim < 1) PetscFunctionReturn(PETSC_SUCCESS); /* not the DM's rows */
  grid->dim = dim;
  grid->dof = dof;
  grid->s   = s;
  grid->box = (PetscBool)(st == DMDA_STENCIL_BOX);
  grid->xs  = xs;
  grid->ys  = ys;
  grid->zs  = zs;
  grid->xm  = xm;
  grid->ym  = ym;
  grid->zm  = zm;
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

/*
  SpTrsvColoringOrder - colptr (*ncolors + 1) and perm (n): the rows of colour c, ascending, at perm[colptr[c] ..];
  empty colours are dropped (*ncolors becomes the count of the others, colptr has that many + 1 entries)
*/
PetscErrorCode SpTrsvColoringOrder(PetscInt n, PetscInt *ncolors, const PetscInt *color, PetscInt *colptr, PetscInt *perm)
{
  const PetscInt nc = *ncolors;
  PetscInt      *next, m = 0;

  PetscFunctionBegin;
  PetscCall(PetscArrayzero(colptr, nc + 1));
  for (PetscInt r = 0; r < n; r++) {
    PetscCheck(color[r] >= 0 && color[r] < nc, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Row %" PetscInt_FMT " has colour %" PetscInt_FMT ", outside [0, %" PetscInt_FMT ")", r, color[r], nc);
    colptr[color[r] + 1]++;
  }
  for (PetscInt c = 0; c < nc; c++) colptr[c + 1] += colptr[c];
  PetscCall(PetscMalloc1(nc + 1, &next));
  PetscCall(PetscArraycpy(next, colptr, nc));
  for (PetscInt r = 0; r < n; r++) perm[next[color[r]]++] = r;
  PetscCall(PetscFree(next));
  for (PetscInt c = 0; c < nc; c++)
    if (colptr[c + 1] > colptr[c]) colptr[++m] = colptr[c + 1];
  *ncolors = m;
  PetscFunctionReturn(PETSC_SUCCESS);
}
