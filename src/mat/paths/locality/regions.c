/*
   The region partition of the locality path (sptrsv_locality, -mat_sptrsv_locality_partition regions), plain C.

   Why: the paper's greedy (partition.c) follows the DAG's waves. A triangle with one root, such as a grid Laplacian's
   factor, then fills its sub-graphs one after the other: the sub-graph DAG is a chain and one block runs at a time.
   Here the rows are first cut into compact regions of the undirected graph, so that a grid gets tile-like regions
   (not slabs of wavefronts), and the launches are the "coarse time" of the regions: tiles on one wavefront of tiles
   run in one launch, one block each.

   1. Regions of at most R rows, grown by breadth-first search in the symmetrized graph of op(T) (dependencies and
      dependants): the seed of a region is the first unassigned row in a topological order of the DAG (the lowest row
      for a lower op(T), the highest for an upper one); the search adds unassigned neighbours until the region holds R
      rows. When the search runs dry with room left, the next seed (the next unassigned row in that order) continues
      the same region, unless the seed's component, with at most R unassigned rows, no longer fits: the region is then
      closed, so that a small component (a diagonal block) is never cut.
   2. Coarse time, in the topological order: t(i) = max over the dependencies j of i of t(j) when region(j) =
      region(i), t(j) + 1 otherwise; t(i) = 0 for a row without dependencies.
   3. Sub-graphs are the non-empty pairs (t, region) ("pieces"), numbered by t, then region. With packing
      (-mat_sptrsv_locality_pack, the default) consecutive pieces of one t (in region order) share one sub-graph while
      it holds at most R rows: a wide DAG (bayer10, the upper triangle of nnc1374) cuts its regions into pieces of one
      or two rows, and a block per piece spends its time starting up, not solving.

   Claim: the partition is feasible and its sub-graph levels are exactly t.
   - Every edge j -> i has sub(j) <= sub(i): if region(j) = region(i) then t(j) <= t(i), and either t(j) = t(i) (the
     same pair: one sub-graph, an internal edge) or t(j) < t(i) (a lower number, since numbers go by t first); if the
     regions differ, t(i) >= t(j) + 1 > t(j) (a lower number again).
   - No edge joins two different sub-graphs of one t: such an edge would need t(j) < t(i), as just shown. So the
     sub-graphs of one t are mutually independent.
   - level(g) = t(g) (level: 1 + the highest level among the sub-graphs with an edge into g, 0 when none): by induction
     on t. An edge into g from another sub-graph comes from a lower t, so level(g) <= t(g). For t(g) >= 1 take a row i
     of g that comes first in the topological order among g's rows: t(i) = t(g) >= 1 must come from a dependency j,
     either of another region with t(j) = t(g) - 1, or of the same region with t(j) = t(g), i.e. a row of g before i,
     which cannot be. So g has an edge from a sub-graph of t(g) - 1, whose level is t(g) - 1: level(g) >= t(g).
   - Packing joins pieces of one t only: no edge joins them (second point), so the joined sub-graph is still feasible,
     its slots are those of its pieces (a slot counts dependencies inside the sub-graph only), and the argument for
     level(g) = t(g) holds as written (a row's dependency of the same t lies in the same piece).
   Hence launches = max t + 1 and the sub-graphs of a launch are the regions active at that t. Every sub-graph lies in
   one region, so it holds at most R <= nmax rows. SpTrsvRegionsPartition(final) recomputes the levels from their
   definition (SpTrsvPartitionLevelsAndSlots, which also rejects an infeasible edge) and checks that they equal t.
   For a 2-D grid with regions of about s x s rows this gives wavefronts of tiles: about 2 sqrt(n) / s launches.

   Cost: the search, the time pass and the numbering are O(n + nnz) per R; the DAG, the topological order and the
   components are shared by every R tried (SpTrsvRegionsCreate).
*/
#include <sptrsv/paths/partition.h>

/* the growth's key fields (SpTrsvRegionsKey): gain 17 bits, distance 15 bits, topological position 31 bits */
#define SPTRSV_REGIONS_GAIN_MAX ((PetscInt64)(1 << 17) - 1)
#define SPTRSV_REGIONS_DIST_MAX ((PetscInt64)(1 << 15) - 1)
#define SPTRSV_REGIONS_POS_MAX  ((PetscInt64)2147483647)

struct _n_SpTrsvRegions {
  SpTrsvDAG G;
  PetscInt *torder;   /* n: a topological order (Kahn's, from the roots, ties by row) */
  PetscInt *compof;   /* n: component of each row */
  PetscInt *compsize; /* ncomp */
  PetscInt *compptr, *compord, *cursor; /* ncomp + 1, n, ncomp: each component's rows in the topological order, and
                                           the first of them not yet looked at by the growth */
  PetscInt  ncomp;
  /* work, n each */
  PetscInt *region, *t, *queue, *rem, *stamp, *subof;
  PetscInt *tpos, *pend, *dist;          /* position in torder; dependencies not placed yet; distance to the seed */
  PetscInt64 *heap;                      /* the growth's candidates (keys), a max-heap with stale entries */
  PetscInt    nheap, capheap;
};

PetscErrorCode SpTrsvRegionsCreate(PetscInt n, const PetscInt *ri, const PetscInt *rj, SpTrsvRegions *reg)
{
  SpTrsvRegions r;
  PetscInt     *compptr, *compmem, *pending, head = 0, tail = 0;

  PetscFunctionBegin;
  PetscCall(PetscNew(&r));
  PetscCall(SpTrsvDAGCreate(n, ri, rj, &r->G));
  PetscCall(SpTrsvComponents(&r->G, &r->ncomp, &compptr, &compmem));
  PetscCall(PetscMalloc3(n + 1, &r->torder, n + 1, &r->compof, r->ncomp + 1, &r->compsize));
  PetscCall(PetscMalloc6(n + 1, &r->region, n + 1, &r->t, n + 1, &r->queue, r->ncomp + 1, &r->rem, n + 1, &r->stamp, n + 1, &r->subof));
  for (PetscInt c = 0; c < r->ncomp; c++) {
    r->compsize[c] = compptr[c + 1] - compptr[c];
    for (PetscInt m = compptr[c]; m < compptr[c + 1]; m++) r->compof[compmem[m]] = c;
  }
  PetscCall(PetscFree(compptr));
  PetscCall(PetscFree(compmem));
  /* the topological order: the rows ascending when every dependency has a lower index (a lower op(T)), descending
     when every one has a higher index (an upper op(T)), otherwise Kahn's order (pending borrows the queue array) */
  {
    PetscBool lower = PETSC_TRUE, upper = PETSC_TRUE;
    for (PetscInt i = 0; i < n; i++)
      for (PetscInt q = ri[i]; q < ri[i + 1]; q++) {
        if (rj[q] >= i) lower = PETSC_FALSE;
        if (rj[q] <= i) upper = PETSC_FALSE;
      }
    if (lower || upper) {
      for (PetscInt a = 0; a < n; a++) r->torder[a] = lower ? a : n - 1 - a;
      tail = n;
    } else {
      pending = r->queue;
      for (PetscInt i = 0; i < n; i++) {
        pending[i] = ri[i + 1] - ri[i];
        if (!pending[i]) r->torder[tail++] = i;
      }
      while (head < tail) {
        const PetscInt i = r->torder[head++];
        for (PetscInt q = r->G.cptr[i]; q < r->G.cptr[i + 1]; q++)
          if (--pending[r->G.cidx[q]] == 0) r->torder[tail++] = r->G.cidx[q];
      }
    }
  }
  PetscCheck(tail == n, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Regions: %" PetscInt_FMT " of %" PetscInt_FMT " rows in a topological order (the pattern has a cycle)", tail, n);
#if defined(PETSC_USE_64BIT_INDICES)
  PetscCheck((PetscInt64)n <= SPTRSV_REGIONS_POS_MAX, PETSC_COMM_SELF, PETSC_ERR_SUP, "Regions: %" PetscInt_FMT " rows, at most %lld", n, (long long)SPTRSV_REGIONS_POS_MAX);
#endif
  PetscCall(PetscMalloc3(n + 1, &r->tpos, n + 1, &r->pend, n + 1, &r->dist));
  for (PetscInt a = 0; a < n; a++) r->tpos[r->torder[a]] = a;
  /* each component's rows in the topological order */
  PetscCall(PetscMalloc3(r->ncomp + 1, &r->compptr, n + 1, &r->compord, r->ncomp + 1, &r->cursor));
  r->compptr[0] = 0;
  for (PetscInt c = 0; c < r->ncomp; c++) r->compptr[c + 1] = r->compptr[c] + r->compsize[c];
  for (PetscInt c = 0; c < r->ncomp; c++) r->cursor[c] = r->compptr[c];
  for (PetscInt a = 0; a < n; a++) r->compord[r->cursor[r->compof[r->torder[a]]]++] = r->torder[a];
  *reg = r;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SpTrsvRegionsDestroy(SpTrsvRegions *reg)
{
  SpTrsvRegions r = *reg;

  PetscFunctionBegin;
  if (!r) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(SpTrsvDAGDestroy(&r->G));
  PetscCall(PetscFree3(r->torder, r->compof, r->compsize));
  PetscCall(PetscFree6(r->region, r->t, r->queue, r->rem, r->stamp, r->subof));
  PetscCall(PetscFree3(r->tpos, r->pend, r->dist));
  PetscCall(PetscFree3(r->compptr, r->compord, r->cursor));
  PetscCall(PetscFree(r->heap));
  PetscCall(PetscFree(*reg));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the growth's priority of a candidate row: most neighbours in the region first (gain), then nearest to the seed
   (dist), then first in the topological order (tpos); packed into one key, larger = first */
static inline PetscInt64 SpTrsvRegionsKey(PetscInt gain, PetscInt dist, PetscInt tpos)
{
  const PetscInt64 g = PetscMin((PetscInt64)gain, SPTRSV_REGIONS_GAIN_MAX), d = PetscMin((PetscInt64)dist, SPTRSV_REGIONS_DIST_MAX);
  return (g << 46) | ((SPTRSV_REGIONS_DIST_MAX - d) << 31) | (SPTRSV_REGIONS_POS_MAX - tpos);
}

static PetscErrorCode SpTrsvRegionsPush(SpTrsvRegions r, PetscInt64 key)
{
  PetscInt k;

  PetscFunctionBegin;
  if (r->nheap == r->capheap) {
    r->capheap = 2 * r->capheap + 64;
    PetscCall(PetscRealloc(sizeof(PetscInt64) * (size_t)r->capheap, &r->heap));
  }
  for (k = r->nheap++; k > 0 && r->heap[(k - 1) / 2] < key; k = (k - 1) / 2) r->heap[k] = r->heap[(k - 1) / 2];
  r->heap[k] = key;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscInt64 SpTrsvRegionsPop(SpTrsvRegions r)
{
  const PetscInt64 top = r->heap[0], last = r->heap[--r->nheap];
  PetscInt         k   = 0;

  while (2 * k + 1 < r->nheap) {
    PetscInt c = 2 * k + 1;
    if (c + 1 < r->nheap && r->heap[c + 1] > r->heap[c]) c++;
    if (r->heap[c] <= last) break;
    r->heap[k] = r->heap[c];
    k          = c;
  }
  if (r->nheap) r->heap[k] = last;
  return top;
}

/* add row v to region cur; a dependant whose dependencies are now all placed is ready: it joins the candidates, with
   its gain (dependencies in the region) and distance (1 + the nearest of them) */
static PetscErrorCode SpTrsvRegionsAdd(SpTrsvRegions r, PetscInt v, PetscInt cur)
{
  const SpTrsvDAG *G = &r->G;

  PetscFunctionBegin;
  r->region[v] = cur;
  r->rem[r->compof[v]]--;
  for (PetscInt q = G->cptr[v]; q < G->cptr[v + 1]; q++) {
    const PetscInt u = G->cidx[q];
    PetscInt       gain = 0, dist = PETSC_INT_MAX;
    if (--r->pend[u]) continue;
    for (PetscInt e = G->ri[u]; e < G->ri[u + 1]; e++)
      if (r->region[G->rj[e]] == cur) {
        gain++;
        dist = PetscMin(dist, r->dist[G->rj[e]] + 1);
      }
    r->dist[u] = dist; /* gain >= 1: v is a dependency */
    PetscCall(SpTrsvRegionsPush(r, SpTrsvRegionsKey(gain, dist, r->tpos[u])));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* step 1: region[] by greedy growth (see the top of this file); returns the number of regions and of components cut
   between regions */
static PetscErrorCode SpTrsvRegionsGrow(SpTrsvRegions r, PetscInt R, PetscInt *nreg, PetscInt *ncut)
{
  const SpTrsvDAG *G = &r->G;
  const PetscInt   n = G->n;
  PetscInt         cur = -1, fill = 0, cut = 0;
  PetscBool        closed_ok = PETSC_TRUE;

  PetscFunctionBegin;
  for (PetscInt i = 0; i < n; i++) {
    r->region[i] = -1;
    r->pend[i]   = G->ri[i + 1] - G->ri[i];
  }
  for (PetscInt c = 0; c < r->ncomp; c++) {
    r->rem[c]    = r->compsize[c];
    r->cursor[c] = r->compptr[c];
  }
  *nreg = 0;
  for (PetscInt a = 0; a < n; a++) {
    const PetscInt seed = r->torder[a], c = r->compof[seed];
    if (r->region[seed] >= 0) continue; /* the first unplaced row of the order: ready */
    if (cur < 0 || fill >= R || !closed_ok || (r->rem[c] <= R && r->rem[c] > R - fill)) { /* a new region */
      cur  = (*nreg)++;
      fill = 0;
    }
    r->nheap      = 0;
    r->dist[seed] = 0;
    PetscCall(SpTrsvRegionsAdd(r, seed, cur));
    fill++;
    for (;;) {
      while (r->nheap && fill < R) {
        const PetscInt64 key = SpTrsvRegionsPop(r);
        const PetscInt   u   = r->torder[(PetscInt)(SPTRSV_REGIONS_POS_MAX - (key & SPTRSV_REGIONS_POS_MAX))];
        if (r->region[u] >= 0) continue;
        PetscCall(SpTrsvRegionsAdd(r, u, cur));
        fill++;
      }
      /* the candidates ran dry: a component of at most R rows is kept whole (its first unplaced row in the order is
         ready: its dependencies come before it and are placed), a larger one closes the region */
      if (fill >= R || !r->rem[c] || r->compsize[c] > R) break;
      while (r->region[r->compord[r->cursor[c]]] >= 0) r->cursor[c]++;
      {
        const PetscInt s2 = r->compord[r->cursor[c]];
        r->nheap          = 0;
        r->dist[s2]       = 0;
        PetscCall(SpTrsvRegionsAdd(r, s2, cur));
        fill++;
      }
    }
    /* the next seed joins this region only if this component is done (small components packed together) */
    closed_ok = (PetscBool)(r->rem[c] == 0);
  }
  /* components cut between regions (rem reused: the first region of each, -2 once a second one is seen) */
  for (PetscInt c = 0; c < r->ncomp; c++) r->rem[c] = -1;
  for (PetscInt i = 0; i < n; i++) {
    const PetscInt c = r->compof[i];
    if (r->rem[c] == -1) r->rem[c] = r->region[i];
    else if (r->rem[c] >= 0 && r->rem[c] != r->region[i]) {
      r->rem[c] = -2;
      cut++;
    }
  }
  *ncut = cut;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvRegionsPartition - the region partition with regions of at most min(R, nmax) rows. Steps 2 and 3 of the top
  of this file give sub[], sublevel[] (= t) and slot[] (1 + the highest slot of a dependency in the same sub-graph) in
  one topological pass. final: recompute the levels and slots from the partition alone (SpTrsvPartitionLevelsAndSlots:
  feasibility checked edge by edge) and check that the levels are t; without it (the candidates the model compares)
  the proof above stands for the check.
*/
PetscErrorCode SpTrsvRegionsPartition(SpTrsvRegions r, PetscInt R, PetscInt nmax, PetscBool pack, PetscBool final, SpTrsvPartition *part)
{
  const SpTrsvDAG *G = &r->G;
  const PetscInt   n = G->n;
  PetscInt         nreg = 0, ncut = 0, nt = 0, ns = 0, *tptr, *byt, *cnt;

  PetscFunctionBegin;
  PetscCheck(nmax >= 1 && R >= 1, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Regions hold at least one row: got R = %" PetscInt_FMT " and a cap of %" PetscInt_FMT " rows", R, nmax);
  R = PetscMin(R, nmax);
  PetscCall(PetscMemzero(part, sizeof(*part)));
  part->n           = n;
  part->nmax        = nmax;
  part->kind        = SPTRSV_LOCALITY_PARTITION_REGIONS;
  part->region_rows = R;
  part->worst_crit  = -1;
  part->ncomp       = r->ncomp;
  PetscCall(SpTrsvRegionsGrow(r, R, &nreg, &ncut));
  part->nregions = nreg;
  part->nlarge   = ncut;
  /* 2. coarse time */
  for (PetscInt a = 0; a < n; a++) {
    const PetscInt i = r->torder[a], g = r->region[i];
    PetscInt       ti = 0;
    for (PetscInt q = G->ri[i]; q < G->ri[i + 1]; q++) {
      const PetscInt j = G->rj[q];
      ti               = PetscMax(ti, r->region[j] == g ? r->t[j] : r->t[j] + 1);
    }
    r->t[i] = ti;
    nt      = PetscMax(nt, ti + 1);
  }
  /* 3. sub-graphs = non-empty (t, region) pairs numbered by t then region: rows bucketed by t, a stamp per region */
  PetscCall(PetscMalloc3(nt + 2, &tptr, n + 1, &byt, nreg + 1, &cnt));
  PetscCall(PetscArrayzero(tptr, nt + 2));
  for (PetscInt i = 0; i < n; i++) tptr[r->t[i] + 1]++;
  for (PetscInt s = 0; s < nt; s++) tptr[s + 1] += tptr[s];
  for (PetscInt i = 0; i < n; i++) byt[tptr[r->t[i]]++] = i; /* ascending rows in each bucket */
  for (PetscInt s = nt; s > 0; s--) tptr[s] = tptr[s - 1];
  tptr[0] = 0;
  for (PetscInt g = 0; g < nreg; g++) r->stamp[g] = -1;
  PetscCall(PetscMalloc2(n + 1, &part->sub, n + 1, &part->slot));
  for (PetscInt s = 0; s < nt; s++) {
    PetscInt m = 0, *regs = r->queue; /* the regions active at t = s, sorted: their sub-graph numbers */
    for (PetscInt a = tptr[s]; a < tptr[s + 1]; a++) {
      const PetscInt g = r->region[byt[a]];
      if (r->stamp[g] != s) {
        r->stamp[g] = s;
        regs[m++]   = g;
      }
    }
    PetscCall(PetscSortInt(m, regs));
    if (pack) { /* consecutive pieces (region order) share a sub-graph while it holds at most R rows */
      PetscInt fill = R + 1;
      for (PetscInt k = 0; k < m; k++) cnt[regs[k]] = 0;
      for (PetscInt a = tptr[s]; a < tptr[s + 1]; a++) cnt[r->region[byt[a]]]++;
      for (PetscInt k = 0; k < m; k++) {
        const PetscInt g = regs[k];
        if (fill + cnt[g] > R) {
          ns++;
          fill = 0;
        } else part->npacked++;
        fill += cnt[g];
        r->subof[g] = ns - 1;
      }
    } else {
      for (PetscInt k = 0; k < m; k++) r->subof[regs[k]] = ns + k;
      ns += m;
    }
    for (PetscInt a = tptr[s]; a < tptr[s + 1]; a++) part->sub[byt[a]] = r->subof[r->region[byt[a]]];
  }
  part->nsub = ns;
  PetscCall(PetscFree3(tptr, byt, cnt));
  if (final) {
    PetscCall(SpTrsvPartitionLevelsAndSlots(G, part));
    PetscCheck(part->nsublevels == nt, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Regions: %" PetscInt_FMT " sub-graph levels, the coarse time has %" PetscInt_FMT, part->nsublevels, nt);
    for (PetscInt i = 0; i < n; i++) PetscCheck(part->sublevel[part->sub[i]] == r->t[i], PETSC_COMM_SELF, PETSC_ERR_PLIB, "Regions: row %" PetscInt_FMT " at coarse time %" PetscInt_FMT " in a sub-graph of level %" PetscInt_FMT, i, r->t[i], part->sublevel[part->sub[i]]);
  } else { /* the proof's levels, and the slots in the same topological order */
    PetscInt *maxslot;
    PetscCall(PetscMalloc1(ns + 1, &part->sublevel));
    PetscCall(PetscMalloc1(ns + 1, &maxslot));
    for (PetscInt g = 0; g < ns; g++) maxslot[g] = -1;
    for (PetscInt i = 0; i < n; i++) part->sublevel[part->sub[i]] = r->t[i];
    for (PetscInt a = 0; a < n; a++) {
      const PetscInt i = r->torder[a], g = part->sub[i];
      PetscInt       s = 0;
      for (PetscInt q = G->ri[i]; q < G->ri[i + 1]; q++)
        if (part->sub[G->rj[q]] == g) s = PetscMax(s, part->slot[G->rj[q]] + 1);
      part->slot[i] = s;
      maxslot[g]    = PetscMax(maxslot[g], s);
    }
    part->nslots = 0;
    for (PetscInt g = 0; g < ns; g++) part->nslots += maxslot[g] + 1;
    part->nsublevels = nt;
    PetscCall(PetscFree(maxslot));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvPartitionCreateRegions - the region partition of the DAG of n rows (dependencies rj[ri[i] .. ri[i+1]-1]) with
  regions of at most min(R, nmax) rows, levels and slots checked (see the top of this file)
*/
PetscErrorCode SpTrsvPartitionCreateRegions(PetscInt n, const PetscInt *ri, const PetscInt *rj, PetscInt R, PetscInt nmax, PetscBool pack, SpTrsvPartition *part)
{
  SpTrsvRegions r;

  PetscFunctionBegin;
  PetscCall(SpTrsvRegionsCreate(n, ri, rj, &r));
  PetscCall(SpTrsvRegionsPartition(r, R, nmax, pack, PETSC_TRUE, part));
  PetscCall(SpTrsvRegionsDestroy(&r));
  PetscFunctionReturn(PETSC_SUCCESS);
}
