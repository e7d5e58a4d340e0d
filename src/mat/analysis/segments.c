/*
   Launch segments over ranges of positions (paper 000, Naumov's fusion; include/sptrsv/segments.h): lanes per row of
   each range from its mean row length, runs of small ranges fused into one single-block launch. Plain C, shared by the
   paths whose schedule is a sequence of such ranges: the level path (its levels) and the partitioned inverse (its
   parts).
*/
#include <sptrsv/segments.h>

/* lanes per row of a level: the smallest power of two >= the mean row length, clamped to 2..32 (paper
   000 uses groups of 2..32 lanes). Rows at least as long as K keep every lane busy on the first pass
   of the row loop; longer rows loop. */
int SpTrsvLanesPerRow(PetscReal mean)
{
  int K = 2;
  while (K < 32 && (PetscReal)K < mean) K *= 2;
  return K;
}

static int SpTrsvRoundUpWarp(PetscInt64 t)
{
  return (int)(PetscMax(32, PetscMin((PetscInt64)SPTRSV_LEVEL_FUSED_MAX_THREADS, (t + 31) / 32 * 32)));
}

/*
  SpTrsvLevelSegmentsBuild - choose K per level (from its mean row length in ptr, i.e. the rows of op(T)
  for CSR and its columns for CSC) and group consecutive small levels into fused segments. The rows of level l
  are the positions levptr[l] .. levptr[l+1]-1; ptr is indexed by row (order[position]), or by position when
  order is NULL (a path that stores its own rows in plan order: the partitioned inverse). ls->seg and ls->levK
  hold nlevels + 1 entries.
*/
PetscErrorCode SpTrsvLevelSegmentsBuild(PetscInt nlevels, const PetscInt *levptr, const PetscInt *order, const PetscInt *ptr, PetscInt fuse_passes, SpTrsvLevelSchedule *ls)
{
  PetscBool          *small;
  PetscInt            ns = 0;
  SpTrsvLevelSegment *s;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(nlevels + 1, &small));
  for (PetscInt l = 0; l < nlevels; l++) {
    const PetscInt rows = levptr[l + 1] - levptr[l];
    PetscInt64     len  = 0;
    for (PetscInt k = levptr[l]; k < levptr[l + 1]; k++) {
      const PetscInt i = order ? order[k] : k;
      len += ptr[i + 1] - ptr[i];
    }
    ls->levK[l] = SpTrsvLanesPerRow(rows ? (PetscReal)len / rows : 0);
    /* the fused block loops over the rows of a level: a level is fused when it takes at most fuse_passes
       passes of the block (one barrier instead of one launch, at the price of a single SM's throughput) */
    small[l] = (PetscBool)((PetscInt64)rows * ls->levK[l] <= (PetscInt64)fuse_passes * SPTRSV_LEVEL_FUSED_MAX_THREADS);
  }
  /* count: a run of small levels is one segment, every large level is one */
  for (PetscInt l = 0; l < nlevels; l++)
    if (!small[l] || l == 0 || !small[l - 1]) ns++;
  s = ls->seg;
  ns = 0;
  for (PetscInt l = 0; l < nlevels;) {
    SpTrsvLevelSegment *g = &s[ns++];
    if (small[l]) {
      PetscInt64 need = 0;
      g->kind         = SPTRSV_LEVEL_SEG_FUSED;
      g->l0           = (int)l;
      for (; l < nlevels && small[l]; l++) need = PetscMax(need, (PetscInt64)(levptr[l + 1] - levptr[l]) * ls->levK[l]);
      g->l1    = (int)l;
      g->start = (int)levptr[g->l0];
      g->nrows = (int)(levptr[l] - levptr[g->l0]);
      g->K     = 0;
      g->block = SpTrsvRoundUpWarp(need); /* just enough warps for the widest level of the run */
      g->grid  = 1;
    } else {
      const PetscInt64 threads = (PetscInt64)(levptr[l + 1] - levptr[l]) * ls->levK[l];
      g->kind                  = SPTRSV_LEVEL_SEG_LEVEL;
      g->l0                    = (int)l;
      g->l1                    = (int)(l + 1);
      g->start                 = (int)levptr[l];
      g->nrows                 = (int)(levptr[l + 1] - levptr[l]);
      g->K                     = ls->levK[l];
      g->block                 = SPTRSV_LEVEL_BLOCK;
      g->grid                  = (unsigned int)((threads + SPTRSV_LEVEL_BLOCK - 1) / SPTRSV_LEVEL_BLOCK);
      l++;
    }
  }
  ls->nseg = ns;
  PetscCall(PetscFree(small));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* SpTrsvLevelSegmentsCheck - the same check on levels given as position ranges (SpTrsvLevelSegmentsBuild()) */
PetscErrorCode SpTrsvLevelSegmentsCheck(PetscInt nlevels, const PetscInt *levptr, const SpTrsvLevelSchedule *ls, PetscInt fuse_passes)
{
  PetscInt next = 0;

  PetscFunctionBegin;
  for (PetscInt l = 0; l < nlevels; l++) {
    const int K = ls->levK[l];
    PetscCheck(K >= 2 && K <= 32 && (K & (K - 1)) == 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Level %" PetscInt_FMT ": %d lanes per row", l, K);
  }
  for (PetscInt k = 0; k < ls->nseg; k++) {
    const SpTrsvLevelSegment *g = &ls->seg[k];
    PetscCheck(g->l0 == next && g->l1 > g->l0 && g->l1 <= nlevels, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Segment %" PetscInt_FMT " covers levels [%d, %d), expected to start at %" PetscInt_FMT, k, g->l0, g->l1, next);
    PetscCheck(g->start == levptr[g->l0] && g->start + g->nrows == levptr[g->l1], PETSC_COMM_SELF, PETSC_ERR_PLIB, "Segment %" PetscInt_FMT ": rows [%d, %d) do not match its levels", k, g->start, g->start + g->nrows);
    if (g->kind == SPTRSV_LEVEL_SEG_FUSED) {
      PetscCheck(g->grid == 1 && g->block % 32 == 0 && g->block >= 32 && g->block <= SPTRSV_LEVEL_FUSED_MAX_THREADS, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Fused segment %" PetscInt_FMT ": %u blocks of %d threads", k, g->grid, g->block);
      for (int l = g->l0; l < g->l1; l++) PetscCheck((PetscInt64)(levptr[l + 1] - levptr[l]) * ls->levK[l] <= (PetscInt64)fuse_passes * SPTRSV_LEVEL_FUSED_MAX_THREADS, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Fused segment %" PetscInt_FMT ": level %d takes more than %" PetscInt_FMT " passes", k, l, fuse_passes);
    } else {
      PetscCheck(g->l1 == g->l0 + 1 && g->K == ls->levK[g->l0] && g->block == SPTRSV_LEVEL_BLOCK, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Level segment %" PetscInt_FMT " is malformed", k);
      PetscCheck((PetscInt64)g->grid * (g->block / g->K) >= g->nrows, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Level segment %" PetscInt_FMT ": %u blocks cannot hold %d rows", k, g->grid, g->nrows);
    }
    next = g->l1;
  }
  PetscCheck(next == nlevels, PETSC_COMM_SELF, PETSC_ERR_PLIB, "The launch sequence covers %" PetscInt_FMT " of %" PetscInt_FMT " levels", next, nlevels);
  PetscFunctionReturn(PETSC_SUCCESS);
}
