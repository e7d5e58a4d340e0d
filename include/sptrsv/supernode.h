/* Supernodes of a triangle (paper 002, Yamazaki et al.): detection, merging, the union of a supernode's outside
   entries and the supernodal DAG, on the rows (or columns) of op(T); plain C, no path's schedule
   (src/mat/analysis/supernode.c; private to the plugin). The supernodal path (include/sptrsv/paths/supernodal.h)
   stores and schedules the partition found here. */
#pragma once
#include <sptrsv/plan.h>

/*
   Lines. A supernodal solve reads op(T) by lines: its rows (pull: x_K = D_K^{-1} (b_K - O_K x[U_K]), O_K the rows of
   supernode K left of (lower) / right of (upper) its diagonal block) or its columns (push: x_K = D_K^{-1} w_K, then
   w[U_K] -= O_K x_K, O_K the columns of K below / above the diagonal block). A line's entries are given by a CSR-like
   pair (ptr, idx), indices ascending; map[p] is the entry's index in the rows of op(T) (op->ra), so values always come
   from the rows of op(T), whatever the mode (no CSC view needed). In "before" orientation the entries of a line that
   share its supernode lie before it (pull on a lower op(T), push on an upper one); in "after" orientation after it.

   Supernode K = lines [super[K], super[K+1]), w = super[K+1] - super[K] wide. It is "exact" when its diagonal block is
   dense (every line holds every earlier (before) / later (after) index of K) and every line has the same entries outside
   K. A partition of lines into contiguous supernodes is stored with explicit zeros wherever the pattern is not dense:
   the diagonal block is dense w x w, the off-diagonal block w x m over the union U_K of the lines' entries outside K
   (m = |U_K|, sorted).
*/
typedef struct {
  PetscInt        n;
  const PetscInt *ptr, *idx, *map; /* n + 1, nnz, nnz (map NULL: the identity) */
  PetscBool       before;
  PetscInt       *own_ptr, *own_idx, *own_map; /* the columns made by SpTrsvSupernodeLinesCreate (push), else NULL */
} SpTrsvSupernodeLines;

/* how the partition was found (for -ksp_view and the tests) */
typedef struct {
  PetscInt  ns_exact;  /* supernodes after detection (or after splitting the factorization's partition) */
  PetscInt  ns_hint;   /* supernodes of the factorization's partition (0: none given) */
  PetscInt  hint_split; /* hint supernodes split because their diagonal block was not dense */
  PetscInt  nmerged;   /* merges by -mat_sptrsv_merge (same block structure) */
  PetscInt  nrelaxed;  /* merges by -mat_sptrsv_supernode_relax */
} SpTrsvSupernodeFigures;

/* widest supernode a merge may make (exact and given supernodes are never capped) */
#define SPTRSV_SUPERNODE_MERGE_MAX_WIDTH 256

SPTRSV_INTERN PetscErrorCode SpTrsvSupernodeLinesCreate(const SpTrsvOp *, PetscBool, SpTrsvSupernodeLines *);
SPTRSV_INTERN PetscErrorCode SpTrsvSupernodeLinesDestroy(SpTrsvSupernodeLines *);
SPTRSV_INTERN PetscErrorCode SpTrsvSupernodeDetect(const SpTrsvSupernodeLines *, PetscInt, const PetscInt *, PetscInt *, PetscInt **, SpTrsvSupernodeFigures *);
SPTRSV_INTERN PetscErrorCode SpTrsvSupernodeUnion(const SpTrsvSupernodeLines *, PetscInt, const PetscInt *, PetscInt **, PetscInt **);
SPTRSV_INTERN PetscErrorCode SpTrsvSupernodeMerge(const SpTrsvSupernodeLines *, PetscBool, PetscReal, PetscInt *, PetscInt *, SpTrsvSupernodeFigures *);
SPTRSV_INTERN PetscErrorCode SpTrsvSupernodeDAG(const SpTrsvSupernodeLines *, PetscBool, PetscInt, const PetscInt *, const PetscInt *, const PetscInt *, PetscInt **, PetscInt **);
SPTRSV_INTERN PetscErrorCode SpTrsvSupernodeIsExact(const SpTrsvSupernodeLines *, PetscInt, PetscInt, PetscBool, PetscBool *);
