/* SpTrsvColoring: distance-1 colouring of a sparse matrix graph (plain C, private to the plugin) */
#pragma once
#include <sptrsv/compat.h>

/*
   The graph of a square CSR pattern (ia, ja) is symmetrized: rows r and c are adjacent when (r, c) or (c, r)
   is stored, r != c. A colouring gives adjacent rows different colours, so all rows of one colour can be
   updated at once in a Gauss-Seidel sweep (they never read each other).
     SpTrsvColoringGreedy  - greedy colouring in natural row order: each row takes the smallest colour none of
                             its coloured neighbours has (red-black on 5- and 7-point grids, 8 colours on 27-point);
     SpTrsvColoringCheck   - the first row that shares its colour with a neighbour, -1 for a valid colouring;
     SpTrsvColoringOrder   - rows sorted by colour (natural order within a colour): colour c holds positions
                             colptr[c] .. colptr[c+1]-1 of perm (perm[k] = the row at position k).
*/
SPTRSV_INTERN PetscErrorCode SpTrsvColoringGreedy(PetscInt, const PetscInt *, const PetscInt *, PetscInt *, PetscInt *);
SPTRSV_INTERN PetscErrorCode SpTrsvColoringCheck(PetscInt, const PetscInt *, const PetscInt *, const PetscInt *, PetscInt *);
SPTRSV_INTERN PetscErrorCode SpTrsvColoringOrder(PetscInt, PetscInt, const PetscInt *, PetscInt *, PetscInt *);
