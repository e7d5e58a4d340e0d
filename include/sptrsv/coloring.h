/* SpTrsvColoring: distance-1 colouring of a sparse matrix graph (private to the plugin; host code in plain C,
   src/mat/gs/coloring.c, and its GPU twin in src/cuda/gs_coloring.cu) */
#pragma once
#include <sptrsv/deviceops.h> /* the name SpTrsvColoringSpec */
#include <petscdm.h>

/*
   The graph of a square CSR pattern (ia, ja) is symmetrized: rows r and c are adjacent when (r, c) or (c, r)
   is stored, r != c. A colouring gives adjacent rows different colours, so all rows of one colour can be
   updated at once in a Gauss-Seidel sweep (they never read each other). Three methods:

     natural - greedy in natural row order: each row takes the smallest colour none of its coloured
               neighbours has (red-black on 5- and 7-point grids, 8 colours on 27-point). Sequential: host only.
     jp      - greedy in the order of a hash of the row index (Jones-Plassmann): the same rule, rows taken by
               decreasing priority (SpTrsvColoringPriority(), ties by row). In parallel: a row whose priority
               beats that of every uncoloured neighbour takes the smallest colour its coloured neighbours lack.
               Its coloured neighbours are then exactly those of higher priority (a lower-priority neighbour
               waits for it), so the result is that of the sequential greedy in priority order, whatever the
               order in which threads run: the GPU and the host give the same colours. Every round colours the
               uncoloured row of highest priority at least, so it ends.
     dmda    - a fixed rule for the rows of a DMDA (SpTrsvGrid): node (i, j, k) with dof components; a star
               stencil of width s couples nodes that differ in one index by at most s, so colour (i + j + k)
               mod (s + 1) separates them (red-black for s = 1); a box stencil gets (s + 1)^dim colours from
               the residues of i, j, k; component c of a node has colour base * dof + c. The rule is checked
               against the matrix (a Galerkin coarse operator or a periodic grid of odd size may break it).
     auto    - dmda when the PC has a DMDA whose rule colours the matrix, jp otherwise (both backends).

     SpTrsvColoringGreedy  - greedy in a given order (NULL: natural)
     SpTrsvColoringJP      - greedy in priority order (the reference of the GPU rounds)
     SpTrsvColoringGridRule - the dmda rule
     SpTrsvColoringCheck   - the first row that shares its colour with a neighbour, -1 for a valid colouring;
     SpTrsvColoringOrder   - rows sorted by colour (natural order within a colour), empty colours dropped: colour c
                             holds positions colptr[c] .. colptr[c+1]-1 of perm (perm[k] = the row at position k).
*/
typedef enum {
  SPTRSV_COLORING_AUTO,
  SPTRSV_COLORING_NATURAL,
  SPTRSV_COLORING_JP,
  SPTRSV_COLORING_DMDA
} SpTrsvColoringType;
SPTRSV_INTERN const char *const SpTrsvColoringTypes[];

/* the local rows of a DMDA: nodes xs .. xs+xm-1 (and y, z) in natural order, dof components each; dim = 0: none */
typedef struct {
  PetscInt  dim, dof, s;
  PetscBool box;
  PetscInt  xs, ys, zs, xm, ym, zm;
} SpTrsvGrid;

struct _n_SpTrsvColoringSpec {
  SpTrsvColoringType type;
  SpTrsvGrid         grid;
};

#if defined(__CUDACC__)
  #define SPTRSV_HOST_DEVICE __host__ __device__
#else
  #define SPTRSV_HOST_DEVICE
#endif

/* the jp priority of a row: a 32-bit integer hash (the finalizer of a well-known avalanche mix) */
static inline SPTRSV_HOST_DEVICE unsigned int SpTrsvColoringPriority(unsigned int r)
{
  r ^= r >> 16;
  r *= 0x7feb352dU;
  r ^= r >> 15;
  r *= 0x846ca68bU;
  r ^= r >> 16;
  return r;
}

/* does row a come before row b in the jp order (higher priority first, the lower row on a tie)? */
static inline SPTRSV_HOST_DEVICE int SpTrsvColoringBefore(unsigned int a, unsigned int b)
{
  const unsigned int pa = SpTrsvColoringPriority(a), pb = SpTrsvColoringPriority(b);
  return pa > pb || (pa == pb && a < b);
}

/* the number of colours of the dmda rule (some may be empty on a small local box) */
static inline SPTRSV_HOST_DEVICE PetscInt SpTrsvGridColors(const SpTrsvGrid *g)
{
  const PetscInt w = g->s + 1;
  PetscInt       base = w;

  if (g->box) {
    base = 1;
    for (PetscInt d = 0; d < g->dim; d++) base *= w;
  }
  return base * g->dof;
}

/* the dmda colour of local row r */
static inline SPTRSV_HOST_DEVICE PetscInt SpTrsvGridColor(const SpTrsvGrid *g, PetscInt r)
{
  const PetscInt w = g->s + 1, node = r / g->dof, comp = r % g->dof;
  const PetscInt i = g->xs + node % g->xm, j = g->ys + (node / g->xm) % g->ym, k = g->zs + node / (g->xm * g->ym);
  PetscInt       base;

  if (g->box) base = (i % w) + w * ((j % w) + w * (k % w));
  else base = (i + j + k) % w;
  return base * g->dof + comp;
}

SPTRSV_INTERN PetscErrorCode SpTrsvColoringGreedy(PetscInt, const PetscInt *, const PetscInt *, const PetscInt *, PetscInt *, PetscInt *);
SPTRSV_INTERN PetscErrorCode SpTrsvColoringJP(PetscInt, const PetscInt *, const PetscInt *, PetscInt *, PetscInt *);
SPTRSV_INTERN PetscErrorCode SpTrsvColoringGridRule(const SpTrsvGrid *, PetscInt, PetscInt *, PetscInt *);
SPTRSV_INTERN PetscErrorCode SpTrsvGridFromDM(DM, PetscInt, SpTrsvGrid *);
SPTRSV_INTERN PetscErrorCode SpTrsvColoringCheck(PetscInt, const PetscInt *, const PetscInt *, const PetscInt *, PetscInt *);
SPTRSV_INTERN PetscErrorCode SpTrsvColoringOrder(PetscInt, PetscInt *, const PetscInt *, PetscInt *, PetscInt *);

/*
  SpTrsvCUDAColoring - the jp or dmda colouring of the n x n device CSR pattern (d_ia, d_ja; 32-bit) into the device
  array d_color (n), on the GPU (src/cuda/gs_coloring.cu). type is SPTRSV_COLORING_JP or SPTRSV_COLORING_DMDA; for
  dmda *badrow is the first row the rule gives the colour of a neighbour (-1: valid; then d_color is not a colouring).
  *ncolors: the largest colour + 1. *rounds: the jp rounds. CUDA builds only.
*/
SPTRSV_INTERN PetscErrorCode SpTrsvCUDAColoring(PetscInt, const int *, const int *, SpTrsvColoringType, const SpTrsvGrid *, int *, PetscInt *, PetscInt *, PetscInt *);
