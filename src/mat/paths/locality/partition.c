/*
   The sub-graph partition of paper 004 (sptrsv_locality), plain C: the DAG of op(T) (row i depends on the rows of
   its entries) is cut into sub-graphs of at most nmax rows such that every edge goes from a lower or equal sub-graph
   index to a higher one (a feasible partition). Then sub-graph levels (sub-graphs without edges between them run
   at once) and, inside every sub-graph, time slots (a row strictly after its dependencies in the same sub-graph).
   See include/sptrsv/paths/partition.h for the definitions.

   The heuristic, as the paper's:
   1. weakly connected components (union-find over the edges; a row without any edge is a component of one);
   2. components of at most nmax rows are merged, smallest first, into sub-graphs of at most nmax rows (no edge
      joins two components, so any grouping of them is feasible and every such sub-graph is on level 0);
   3. a larger component of nc rows is split into n_split = ceil(nc / nmax) sub-graphs by a greedy root-to-leaf
      assignment: its roots (rows without dependencies) are dealt round-robin to the first n_init sub-graphs, then
      wave after wave (a row joins the next wave once all its dependencies are assigned; each wave sorted by a
      criterion kappa) every row goes to the sub-graph of highest index among its dependencies', or the next one
      with room. Assigning a row only to an index >= every dependency's keeps the partition feasible.
      An attempt fails when a row finds no room below n_split. Fallbacks: the other criteria (descending out-degree,
      ascending out-degree, ascending index), then n_init halved, and so on. n_init = 1 cannot fail: all roots then
      start at sub-graph 0, so the sub-graphs fill in index order (every index below the first one with room is
      full, every index above it empty), a dependency's sub-graph is at most that first one with room, every row
      lands there, and exactly n_split sub-graphs are used. The loop therefore always ends with a feasible partition.
   Cost: each attempt is O(nc + edges + sorting the waves); at most 3 (log2 n_split + 1) attempts per component.
*/
#include <sptrsv/paths/partition.h>
#include <stdlib.h>

const char *SpTrsvPartitionCriterionName(PetscInt c)
{
  switch (c) {
  case SPTRSV_PARTITION_OUTDEG_DESC:
    return "descending out-degree";
  case SPTRSV_PARTITION_OUTDEG_ASC:
    return "ascending out-degree";
  case SPTRSV_PARTITION_INDEX:
    return "ascending index";
  default:
    return "none";
  }
}

/* work arrays of the greedy assignment, sized for the largest component */
typedef struct {
  PetscInt *pending;   /* n: dependencies not yet assigned */
  PetscInt *cnt;       /* limit: rows per sub-graph */
  PetscInt *cur, *nxt; /* waves */
  PetscInt *remap;     /* limit: compaction */
  PetscInt64 *keys;    /* sort keys of a wave */
} SpTrsvGreedyWork;

static PetscInt SpTrsvFind(PetscInt *parent, PetscInt x)
{
  while (parent[x] != x) {
    parent[x] = parent[parent[x]];
    x         = parent[x];
  }
  return x;
}

static int SpTrsvCmpInt64(const void *a, const void *b)
{
  const PetscInt64 x = *(const PetscInt64 *)a, y = *(const PetscInt64 *)b;
  return x < y ? -1 : (x > y ? 1 : 0);
}

/* sort a wave by the criterion: (key, row) packed into one 64-bit integer, key = out-degree or its negative */
static PetscErrorCode SpTrsvSortWave(const SpTrsvDAG *G, PetscInt crit, PetscInt m, PetscInt *w, PetscInt64 *keys)
{
  const PetscInt64 N = (PetscInt64)G->n + 1;

  PetscFunctionBegin;
  if (crit == SPTRSV_PARTITION_INDEX) {
    PetscCall(PetscSortInt(m, w));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  for (PetscInt a = 0; a < m; a++) {
    const PetscInt64 deg = G->cptr[w[a] + 1] - G->cptr[w[a]];
    keys[a]              = (crit == SPTRSV_PARTITION_OUTDEG_DESC ? N - 1 - deg : deg) * N + w[a];
  }
  qsort(keys, (size_t)m, sizeof(PetscInt64), SpTrsvCmpInt64);
  for (PetscInt a = 0; a < m; a++) w[a] = (PetscInt)(keys[a] % N);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* put row v in the first sub-graph of index >= p with room (the paper's associate_subg); PETSC_FALSE when none
   below limit. Its children whose dependencies are now all assigned join the next wave. */
static PetscBool SpTrsvAssociate(const SpTrsvDAG *G, PetscInt v, PetscInt p, PetscInt nmax, PetscInt limit, PetscInt *sub, SpTrsvGreedyWork *w, PetscInt *nnext)
{
  PetscInt k = p;

  while (k < limit && w->cnt[k] >= nmax) k++;
  if (k >= limit) return PETSC_FALSE;
  sub[v] = k;
  w->cnt[k]++;
  for (PetscInt q = G->cptr[v]; q < G->cptr[v + 1]; q++)
    if (--w->pending[G->cidx[q]] == 0) w->nxt[(*nnext)++] = G->cidx[q];
  return PETSC_TRUE;
}

/*
  SpTrsvGreedyAttempt - one run of the greedy assignment on the component mem[0 .. nc-1] with n_init, kappa and at
  most limit sub-graphs; on success sub[] holds local indices 0 .. *nused-1 (empty ones compacted away)
*/
static PetscErrorCode SpTrsvGreedyAttempt(const SpTrsvDAG *G, const PetscInt *mem, PetscInt nc, PetscInt nmax, PetscInt limit, PetscInt ninit, PetscInt crit, PetscInt *sub, SpTrsvGreedyWork *w, PetscBool *ok, PetscInt *nused)
{
  PetscInt ncur = 0, nnext = 0, nassigned = 0, used = 0;

  PetscFunctionBegin;
  *ok = PETSC_FALSE;
  for (PetscInt k = 0; k < limit; k++) w->cnt[k] = 0;
  for (PetscInt a = 0; a < nc; a++) {
    const PetscInt v = mem[a];
    w->pending[v]    = G->ri[v + 1] - G->ri[v];
    sub[v]           = -1;
    if (!w->pending[v]) w->cur[ncur++] = v;
  }
  PetscCall(SpTrsvSortWave(G, crit, ncur, w->cur, w->keys));
  for (PetscInt a = 0; a < ncur; a++, nassigned++)
    if (!SpTrsvAssociate(G, w->cur[a], a % ninit, nmax, limit, sub, w, &nnext)) PetscFunctionReturn(PETSC_SUCCESS);
  while (nnext) {
    PetscInt *t = w->cur;
    w->cur      = w->nxt;
    w->nxt      = t;
    ncur        = nnext;
    nnext       = 0;
    PetscCall(SpTrsvSortWave(G, crit, ncur, w->cur, w->keys));
    for (PetscInt a = 0; a < ncur; a++, nassigned++) {
      const PetscInt v = w->cur[a];
      PetscInt       p = 0;
      for (PetscInt q = G->ri[v]; q < G->ri[v + 1]; q++) p = PetscMax(p, sub[G->rj[q]]);
      if (!SpTrsvAssociate(G, v, p, nmax, limit, sub, w, &nnext)) PetscFunctionReturn(PETSC_SUCCESS);
    }
  }
  PetscCheck(nassigned == nc, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Partition: %" PetscInt_FMT " of %" PetscInt_FMT " rows of a component reached (the pattern has a cycle)", nassigned, nc);
  for (PetscInt k = 0; k < limit; k++) w->remap[k] = w->cnt[k] ? used++ : -1;
  for (PetscInt a = 0; a < nc; a++) sub[mem[a]] = w->remap[sub[mem[a]]];
  *nused = used;
  *ok    = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* split one large component (the paper's fallbacks: every criterion, then n_init halved); local sub-graph indices */
static PetscErrorCode SpTrsvSplitComponent(const SpTrsvDAG *G, const PetscInt *mem, PetscInt nc, PetscInt nmax, PetscInt *sub, SpTrsvGreedyWork *w, SpTrsvPartition *part, PetscInt *nused)
{
  const PetscInt nsplit = (nc + nmax - 1) / nmax;
  PetscInt       nroots = 0, ninit;
  PetscBool      ok     = PETSC_FALSE;

  PetscFunctionBegin;
  for (PetscInt a = 0; a < nc; a++)
    if (G->ri[mem[a] + 1] == G->ri[mem[a]]) nroots++;
  PetscCheck(nroots > 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Partition: a component of %" PetscInt_FMT " rows has no root (the pattern has a cycle)", nc);
  for (ninit = PetscMin(nsplit, nroots); ninit >= 1 && !ok; ninit /= 2)
    for (PetscInt crit = SPTRSV_PARTITION_OUTDEG_DESC; crit <= SPTRSV_PARTITION_INDEX && !ok; crit++) {
      part->nattempts++;
      PetscCall(SpTrsvGreedyAttempt(G, mem, nc, nmax, nsplit, ninit, crit, sub, w, &ok, nused));
      if (ok) part->worst_crit = PetscMax(part->worst_crit, crit);
    }
  PetscCheck(ok, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Partition: no feasible split of a component of %" PetscInt_FMT " rows into %" PetscInt_FMT " sub-graphs (n_init = 1 cannot fail)", nc, nsplit);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* components: comp[i] in 0 .. *ncomp-1 numbered by their first row; members grouped by component (compptr, compmem) */
PetscErrorCode SpTrsvComponents(const SpTrsvDAG *G, PetscInt *ncomp, PetscInt **compptr, PetscInt **compmem)
{
  const PetscInt n = G->n;
  PetscInt      *parent, *id, *ptr, *mem, nc = 0;

  PetscFunctionBegin;
  PetscCall(PetscMalloc2(n + 1, &parent, n + 1, &id));
  for (PetscInt i = 0; i < n; i++) parent[i] = i;
  for (PetscInt i = 0; i < n; i++)
    for (PetscInt q = G->ri[i]; q < G->ri[i + 1]; q++) {
      const PetscInt a = SpTrsvFind(parent, i), b = SpTrsvFind(parent, G->rj[q]);
      if (a != b) parent[PetscMax(a, b)] = PetscMin(a, b);
    }
  for (PetscInt i = 0; i < n; i++) {
    const PetscInt r = SpTrsvFind(parent, i);
    id[i]            = r == i ? nc++ : id[r]; /* a root is its component's smallest row: numbered before its members */
  }
  PetscCall(PetscCalloc1(nc + 1, &ptr));
  PetscCall(PetscMalloc1(n + 1, &mem));
  for (PetscInt i = 0; i < n; i++) ptr[id[i] + 1]++;
  for (PetscInt c = 0; c < nc; c++) ptr[c + 1] += ptr[c];
  for (PetscInt i = 0; i < n; i++) mem[ptr[id[i]]++] = i; /* ascending inside a component */
  for (PetscInt c = nc; c > 0; c--) ptr[c] = ptr[c - 1];
  ptr[0] = 0;
  PetscCall(PetscFree2(parent, id));
  *ncomp   = nc;
  *compptr = ptr;
  *compmem = mem;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* sub-graph levels in index order (feasible: a cross edge comes from a lower index, whose level is final), then the
   sub-graphs renumbered by (level, index), which keeps the partition feasible */
static PetscErrorCode SpTrsvSubLevels(const SpTrsvDAG *G, SpTrsvPartition *part)
{
  const PetscInt n = G->n, ns = part->nsub;
  PetscInt      *gptr, *rows, *lev, *cnt, *newid, nl = 0;

  PetscFunctionBegin;
  PetscCall(PetscCalloc1(ns + 1, &gptr));
  PetscCall(PetscMalloc4(n + 1, &rows, ns + 1, &lev, ns + 2, &cnt, ns + 1, &newid));
  for (PetscInt i = 0; i < n; i++) gptr[part->sub[i] + 1]++;
  for (PetscInt g = 0; g < ns; g++) gptr[g + 1] += gptr[g];
  for (PetscInt i = 0; i < n; i++) rows[gptr[part->sub[i]]++] = i;
  for (PetscInt g = ns; g > 0; g--) gptr[g] = gptr[g - 1];
  gptr[0] = 0;
  for (PetscInt g = 0; g < ns; g++) {
    lev[g] = 0;
    for (PetscInt a = gptr[g]; a < gptr[g + 1]; a++) {
      const PetscInt i = rows[a];
      for (PetscInt q = G->ri[i]; q < G->ri[i + 1]; q++) {
        const PetscInt h = part->sub[G->rj[q]];
        PetscCheck(h <= g, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Partition: row %" PetscInt_FMT " of sub-graph %" PetscInt_FMT " depends on row %" PetscInt_FMT " of sub-graph %" PetscInt_FMT, i, g, G->rj[q], h);
        if (h < g) lev[g] = PetscMax(lev[g], lev[h] + 1);
      }
    }
    nl = PetscMax(nl, lev[g] + 1);
  }
  for (PetscInt l = 0; l <= nl; l++) cnt[l] = 0;
  for (PetscInt g = 0; g < ns; g++) cnt[lev[g] + 1]++;
  for (PetscInt l = 0; l < nl; l++) cnt[l + 1] += cnt[l];
  for (PetscInt g = 0; g < ns; g++) {
    newid[g]                   = cnt[lev[g]]++;
    part->sublevel[newid[g]]   = lev[g];
  }
  for (PetscInt i = 0; i < n; i++) part->sub[i] = newid[part->sub[i]];
  part->nsublevels = nl;
  PetscCall(PetscFree(gptr));
  PetscCall(PetscFree4(rows, lev, cnt, newid));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* slots in a topological order (Kahn's, from the roots): slot[i] = 1 + max slot of its dependencies in its sub-graph */
static PetscErrorCode SpTrsvSlots(const SpTrsvDAG *G, SpTrsvPartition *part)
{
  const PetscInt n = G->n;
  PetscInt      *pending, *queue, *maxslot, head = 0, tail = 0;

  PetscFunctionBegin;
  PetscCall(PetscMalloc3(n + 1, &pending, n + 1, &queue, part->nsub + 1, &maxslot));
  for (PetscInt i = 0; i < n; i++) {
    pending[i] = G->ri[i + 1] - G->ri[i];
    if (!pending[i]) queue[tail++] = i;
  }
  for (PetscInt g = 0; g < part->nsub; g++) maxslot[g] = -1;
  while (head < tail) {
    const PetscInt i = queue[head++], g = part->sub[i];
    PetscInt       s = 0;
    for (PetscInt q = G->ri[i]; q < G->ri[i + 1]; q++)
      if (part->sub[G->rj[q]] == g) s = PetscMax(s, part->slot[G->rj[q]] + 1);
    part->slot[i] = s;
    maxslot[g]    = PetscMax(maxslot[g], s);
    for (PetscInt q = G->cptr[i]; q < G->cptr[i + 1]; q++)
      if (--pending[G->cidx[q]] == 0) queue[tail++] = G->cidx[q];
  }
  PetscCheck(tail == n, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Partition: %" PetscInt_FMT " of %" PetscInt_FMT " rows in a topological order (the pattern has a cycle)", tail, n);
  part->nslots = 0;
  for (PetscInt g = 0; g < part->nsub; g++) part->nslots += maxslot[g] + 1;
  PetscCall(PetscFree3(pending, queue, maxslot));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the sub-graph levels, then the slots, of a partition whose sub[] is set (shared with regions.c) */
PetscErrorCode SpTrsvPartitionLevelsAndSlots(const SpTrsvDAG *G, SpTrsvPartition *part)
{
  PetscFunctionBegin;
  PetscCall(PetscMalloc1(part->nsub + 1, &part->sublevel));
  PetscCall(SpTrsvSubLevels(G, part));
  PetscCall(SpTrsvSlots(G, part));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the DAG of n rows with dependencies rj[ri[i] .. ri[i+1]-1] and its children (columns range-checked) */
PetscErrorCode SpTrsvDAGCreate(PetscInt n, const PetscInt *ri, const PetscInt *rj, SpTrsvDAG *G)
{
  PetscFunctionBegin;
  G->n  = n;
  G->ri = ri;
  G->rj = rj;
  PetscCall(PetscCalloc1(n + 1, &G->cptr));
  PetscCall(PetscMalloc1(ri[n] + 1, &G->cidx));
  for (PetscInt q = 0; q < ri[n]; q++) {
    PetscCheck(rj[q] >= 0 && rj[q] < n, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Partition: column %" PetscInt_FMT " out of range", rj[q]);
    G->cptr[rj[q] + 1]++;
  }
  for (PetscInt i = 0; i < n; i++) G->cptr[i + 1] += G->cptr[i];
  for (PetscInt i = 0; i < n; i++)
    for (PetscInt q = ri[i]; q < ri[i + 1]; q++) G->cidx[G->cptr[rj[q]]++] = i;
  for (PetscInt i = n; i > 0; i--) G->cptr[i] = G->cptr[i - 1];
  G->cptr[0] = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SpTrsvDAGDestroy(SpTrsvDAG *G)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(G->cptr));
  PetscCall(PetscFree(G->cidx));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvPartitionCreate - the partition of the DAG of n rows whose dependencies are rj[ri[i] .. ri[i+1]-1] into
  sub-graphs of at most nmax rows, with sub-graph levels and slots (see the top of this file)
*/
PetscErrorCode SpTrsvPartitionCreate(PetscInt n, const PetscInt *ri, const PetscInt *rj, PetscInt nmax, SpTrsvPartition *part)
{
  SpTrsvDAG        G;
  SpTrsvGreedyWork w;
  PetscInt        *compptr = NULL, *compmem = NULL, *bysize, *sizeptr, nlargest = 0, ns = 0, fill = 0;

  PetscFunctionBegin;
  PetscCheck(nmax >= 1, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Sub-graphs hold at least one row: got a cap of %" PetscInt_FMT " rows", nmax);
  PetscCall(PetscMemzero(part, sizeof(*part)));
  part->n          = n;
  part->nmax       = nmax;
  part->worst_crit = -1;
  part->kind       = SPTRSV_LOCALITY_PARTITION_PAPER;
  PetscCall(PetscMalloc2(n + 1, &part->sub, n + 1, &part->slot));
  PetscCall(SpTrsvDAGCreate(n, ri, rj, &G));

  PetscCall(SpTrsvComponents(&G, &part->ncomp, &compptr, &compmem));
  /* small components by size (counting sort, stable in the component number), merged smallest first */
  PetscCall(PetscCalloc1(nmax + 2, &sizeptr));
  PetscCall(PetscMalloc1(part->ncomp + 1, &bysize));
  for (PetscInt c = 0; c < part->ncomp; c++) {
    const PetscInt sz = compptr[c + 1] - compptr[c];
    if (sz <= nmax) sizeptr[sz + 1]++;
    else {
      part->nlarge++;
      nlargest = PetscMax(nlargest, sz);
    }
  }
  for (PetscInt s = 0; s <= nmax; s++) sizeptr[s + 1] += sizeptr[s];
  for (PetscInt c = 0; c < part->ncomp; c++) {
    const PetscInt sz = compptr[c + 1] - compptr[c];
    if (sz <= nmax) bysize[sizeptr[sz]++] = c;
  }
  for (PetscInt a = 0; a < part->ncomp - part->nlarge; a++) {
    const PetscInt c = bysize[a], sz = compptr[c + 1] - compptr[c];
    if (!ns || fill + sz > nmax) {
      ns++; /* a new merged sub-graph */
      fill = 0;
    }
    fill += sz;
    for (PetscInt m = compptr[c]; m < compptr[c + 1]; m++) part->sub[compmem[m]] = ns - 1;
  }
  part->nmerged = ns;
  /* large components: the greedy split, local indices shifted past the sub-graphs made so far */
  if (part->nlarge) {
    const PetscInt limit = (nlargest + nmax - 1) / nmax;
    PetscCall(PetscMalloc6(n + 1, &w.pending, limit + 1, &w.cnt, nlargest + 1, &w.cur, nlargest + 1, &w.nxt, limit + 1, &w.remap, nlargest + 1, &w.keys));
    for (PetscInt c = 0; c < part->ncomp; c++) {
      const PetscInt nc = compptr[c + 1] - compptr[c];
      PetscInt       used = 0;
      if (nc <= nmax) continue;
      PetscCall(SpTrsvSplitComponent(&G, compmem + compptr[c], nc, nmax, part->sub, &w, part, &used));
      for (PetscInt m = compptr[c]; m < compptr[c + 1]; m++) part->sub[compmem[m]] += ns;
      ns += used;
    }
    PetscCall(PetscFree6(w.pending, w.cnt, w.cur, w.nxt, w.remap, w.keys));
  }
  part->nsub = ns;
  PetscCall(SpTrsvPartitionLevelsAndSlots(&G, part));
  PetscCall(PetscFree(sizeptr));
  PetscCall(PetscFree(bysize));
  PetscCall(PetscFree(compptr));
  PetscCall(PetscFree(compmem));
  PetscCall(SpTrsvDAGDestroy(&G));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvPartitionCheck - what the kernel relies on: every row in a sub-graph, no sub-graph empty or over nmax, the
  sub-graph levels non-decreasing in the index; every edge j -> i either inside one sub-graph with slot[j] <
  slot[i], or from a sub-graph of a lower level (so a lower index: feasible); an error names the first violation
*/
PetscErrorCode SpTrsvPartitionCheck(PetscInt n, const PetscInt *ri, const PetscInt *rj, const SpTrsvPartition *part)
{
  PetscInt *size;

  PetscFunctionBegin;
  PetscCheck(part->n == n, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Partition of %" PetscInt_FMT " rows for a triangle of %" PetscInt_FMT, part->n, n);
  PetscCall(PetscCalloc1(part->nsub + 1, &size));
  for (PetscInt i = 0; i < n; i++) {
    PetscCheck(part->sub[i] >= 0 && part->sub[i] < part->nsub, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Partition: row %" PetscInt_FMT " in sub-graph %" PetscInt_FMT " of %" PetscInt_FMT, i, part->sub[i], part->nsub);
    PetscCheck(part->slot[i] >= 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Partition: row %" PetscInt_FMT " in slot %" PetscInt_FMT, i, part->slot[i]);
    size[part->sub[i]]++;
  }
  for (PetscInt g = 0; g < part->nsub; g++) {
    PetscCheck(size[g] >= 1 && size[g] <= part->nmax, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Partition: sub-graph %" PetscInt_FMT " holds %" PetscInt_FMT " rows, at most %" PetscInt_FMT " allowed", g, size[g], part->nmax);
    PetscCheck(part->sublevel[g] >= 0 && part->sublevel[g] < part->nsublevels && (!g || part->sublevel[g] >= part->sublevel[g - 1]), PETSC_COMM_SELF, PETSC_ERR_PLIB, "Partition: sub-graph %" PetscInt_FMT " on level %" PetscInt_FMT " (levels must not decrease with the index)", g, part->sublevel[g]);
  }
  PetscCheck(!part->nsub || part->sublevel[part->nsub - 1] == part->nsublevels - 1, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Partition: %" PetscInt_FMT " sub-graph levels, the last sub-graph on level %" PetscInt_FMT, part->nsublevels, part->sublevel[part->nsub - 1]);
  for (PetscInt i = 0; i < n; i++)
    for (PetscInt q = ri[i]; q < ri[i + 1]; q++) {
      const PetscInt j = rj[q], gi = part->sub[i], gj = part->sub[j];
      if (gi == gj) PetscCheck(part->slot[j] < part->slot[i], PETSC_COMM_SELF, PETSC_ERR_PLIB, "Partition: row %" PetscInt_FMT " (slot %" PetscInt_FMT ") depends on row %" PetscInt_FMT " (slot %" PetscInt_FMT ") of its sub-graph %" PetscInt_FMT ": not a later slot", i, part->slot[i], j, part->slot[j], gi);
      else PetscCheck(gj < gi && part->sublevel[gj] < part->sublevel[gi], PETSC_COMM_SELF, PETSC_ERR_PLIB, "Partition: row %" PetscInt_FMT " (sub-graph %" PetscInt_FMT ", level %" PetscInt_FMT ") depends on row %" PetscInt_FMT " (sub-graph %" PetscInt_FMT ", level %" PetscInt_FMT "): not feasible", i, gi, part->sublevel[gi], j, gj, part->sublevel[gj]);
    }
  PetscCall(PetscFree(size));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SpTrsvPartitionDestroy(SpTrsvPartition *part)
{
  PetscFunctionBegin;
  PetscCall(PetscFree2(part->sub, part->slot));
  PetscCall(PetscFree(part->sublevel));
  PetscFunctionReturn(PETSC_SUCCESS);
}
