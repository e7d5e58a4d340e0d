/*
   The partition of the partitioned-inverse path and the pattern of its inverse-applied blocks M_k (plain C, pattern
   only; include/sptrsv/paths/pinv.h states the formulation, the units and the fill test).

   Cost. Row i of M is the union of the patterns of its in-part dependencies plus its own entries. Building it merges
   only the patterns its longest in-part dependency k does not already hold (a dependency of k is inside M_k's
   pattern: PinvBuildRow), so a row of a dense block costs about one earlier row's pattern, and a row in general at
   most the sum of its dependencies' patterns, which the fill test bounds (a part's M holds at most fill times its base
   entries). A unit that fails the test is built a second time as the first unit of the next part, so every row is
   built at most twice (three times for a row of a supernode, whose base is measured once on its own).
*/
#include <sptrsv/paths/pinv.h>
#include <sptrsv/utils.h>

const char *const SpTrsvPinvPartsNames[] = {"levels", "greedy", "SpTrsvPinvParts", "SPTRSV_PINV_PARTS_", NULL};

/* the pattern builder: rows with inpart[] == stamp are the current part; start/split/end locate each built row's
   pattern in buf (x columns in [start, split), b columns in [split, end)) */
typedef struct {
  const SpTrsvOp *op;
  PetscInt       *inpart, stamp;
  PetscInt       *xmark, *bmark, tick; /* the tick of the last row that took a column */
  PetscInt       *dmark;               /* the tick of the last row whose dependency k had this row as a dependency */
  PetscInt       *xs, *bs;             /* one row's columns */
  PetscInt       *start, *split, *end; /* per row */
  SpTrsvIntBuf    buf;
} PinvBuilder;

/* pattern of row i of M given the current part; its length in *len.
   Covered dependencies: when in-part dependency j of i is itself an in-part dependency of another in-part dependency k
   of i, pattern(M_j) is inside pattern(M_k) (M_k's recursion took it), so only k's pattern is merged. The k taken is the
   in-part dependency with the longest pattern; its dependencies are marked (dmark). In a dense diagonal block (a
   supernode, a separator) row i's in-part dependencies are the earlier rows of the block, all dependencies of the row
   just before i: the union costs |M_{i-1}| instead of the sum over the block, and the pattern is the same set. */
static PetscErrorCode PinvBuildRow(PinvBuilder *B, PetscInt i, PetscInt *len)
{
  const SpTrsvOp *op = B->op;
  PetscInt        nx = 0, nb = 0, k = -1;

  PetscFunctionBegin;
  B->tick++;
  for (PetscInt p = op->ri[i]; p < op->ri[i + 1]; p++) { /* k: the in-part dependency of the longest pattern */
    const PetscInt j = op->rj[p];
    if (B->inpart[j] == B->stamp && (k < 0 || B->end[j] - B->start[j] > B->end[k] - B->start[k])) k = j;
  }
  if (k >= 0)
    for (PetscInt p = op->ri[k]; p < op->ri[k + 1]; p++)
      if (B->inpart[op->rj[p]] == B->stamp) B->dmark[op->rj[p]] = B->tick;
  B->bs[nb++]  = i;
  B->bmark[i] = B->tick;
  for (PetscInt p = op->ri[i]; p < op->ri[i + 1]; p++) {
    const PetscInt j = op->rj[p];
    if (B->inpart[j] == B->stamp && B->dmark[j] == B->tick) continue; /* covered by k */
    if (B->inpart[j] == B->stamp) {
      const PetscInt *col = B->buf.a;
      for (PetscInt q = B->start[j]; q < B->split[j]; q++)
        if (B->xmark[col[q]] != B->tick) {
          B->xmark[col[q]] = B->tick;
          B->xs[nx++]      = col[q];
        }
      for (PetscInt q = B->split[j]; q < B->end[j]; q++)
        if (B->bmark[col[q]] != B->tick) {
          B->bmark[col[q]] = B->tick;
          B->bs[nb++]      = col[q];
        }
    } else if (B->xmark[j] != B->tick) {
      B->xmark[j]  = B->tick;
      B->xs[nx++] = j;
    }
  }
  PetscCall(PetscSortInt(nx, B->xs));
  PetscCall(PetscSortInt(nb, B->bs));
  PetscCall(SpTrsvIntBufReserve(&B->buf, B->buf.n + nx + nb + 1));
  B->start[i] = (PetscInt)B->buf.n;
  for (PetscInt q = 0; q < nx; q++) B->buf.a[B->buf.n++] = B->xs[q];
  B->split[i] = (PetscInt)B->buf.n;
  for (PetscInt q = 0; q < nb; q++) B->buf.a[B->buf.n++] = B->bs[q];
  B->end[i] = (PetscInt)B->buf.n;
  *len      = nx + nb;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* rows of positions [k0, k1) join the part with this stamp and are built; the sums of their lengths and bases */
static PetscErrorCode PinvBuildUnit(PinvBuilder *B, const PetscInt *order, const PetscInt *base, PetscInt k0, PetscInt k1, PetscInt64 *cost, PetscInt64 *ubase)
{
  PetscFunctionBegin;
  *cost = *ubase = 0;
  for (PetscInt k = k0; k < k1; k++) B->inpart[order[k]] = B->stamp;
  for (PetscInt k = k0; k < k1; k++) {
    PetscInt len = 0;
    PetscCall(PinvBuildRow(B, order[k], &len));
    *cost += len;
    *ubase += base[order[k]];
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvPinvPartition - group levels (supernodes of op->super contracted), the parts, and the pattern of M (see pinv.h)
*/
PetscErrorCode SpTrsvPinvPartition(const SpTrsvOp *op, SpTrsvPinvParts mode, PetscReal fill, SpTrsvPinvPartitionData *d)
{
  const PetscInt n = op->n;
  PetscInt       ngroups, *gptr, *base, *cnt, *sweep, nunits;
  PinvBuilder    B;
  SpTrsvIntBuf   parts = {NULL, 0, 0};
  PetscInt64     pcost = 0, pbase = 0;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(d, sizeof(*d)));
  PetscCall(PetscMemzero(&B, sizeof(B)));
  d->n = n;
  /* groups: the supernodes (ranges of rows), or single rows */
  ngroups = op->super && op->nsuper > 0 ? op->nsuper : n;
  PetscCall(PetscMalloc1(ngroups + 1, &gptr));
  for (PetscInt g = 0; g <= ngroups; g++) gptr[g] = op->super && op->nsuper > 0 ? op->super[g] : g;
  PetscCheck(gptr[ngroups] == n, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Supernode partition ends at %" PetscInt_FMT ", the triangle has %" PetscInt_FMT " rows", gptr[ngroups], n);
  /* group levels, groups visited in dependency order (upwards for a lower op(T)): a dependency outside the group
     lies in a group already final */
  PetscCall(PetscMalloc2(n + 1, &d->order, n + 1, &d->level));
  PetscCall(PetscMalloc1(n + 1, &sweep));
  d->nlevels = 0;
  for (PetscInt gg = 0, m = 0; gg < ngroups; gg++) {
    const PetscInt g = op->lower ? gg : ngroups - 1 - gg, s = gptr[g], e = gptr[g + 1];
    PetscInt       L = 0;
    for (PetscInt r = 0; r < e - s; r++) {
      const PetscInt i = op->lower ? s + r : e - 1 - r;
      sweep[m++]       = i;
      for (PetscInt p = op->ri[i]; p < op->ri[i + 1]; p++) {
        const PetscInt j = op->rj[p];
        PetscCheck(op->lower ? j < i : j > i, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Row %" PetscInt_FMT " of op(T) has column %" PetscInt_FMT " on the wrong side of the diagonal", i, j);
        if (j < s || j >= e) L = PetscMax(L, d->level[j] + 1);
      }
    }
    for (PetscInt i = s; i < e; i++) d->level[i] = L;
    d->nlevels = PetscMax(d->nlevels, L + 1);
    if (e - s > 1) d->ngroups++;
  }
  if (!n) d->nlevels = 0;
  /* counting sort by group level, stable in the sweep order (so a supernode's rows keep their dependency order) */
  PetscCall(PetscCalloc1(d->nlevels + 2, &cnt));
  for (PetscInt i = 0; i < n; i++) cnt[d->level[i] + 1]++;
  for (PetscInt l = 0; l < d->nlevels; l++) cnt[l + 1] += cnt[l];
  PetscCall(PetscMalloc1(d->nlevels + 1, &d->levptr));
  for (PetscInt l = 0; l <= d->nlevels; l++) d->levptr[l] = cnt[l];
  for (PetscInt m = 0; m < n; m++) d->order[cnt[d->level[sweep[m]]]++] = sweep[m];
  PetscCall(PetscFree(cnt));

  /* the builder */
  B.op = op;
  PetscCall(PetscMalloc5(n + 1, &B.inpart, n + 1, &B.xmark, n + 1, &B.bmark, n + 1, &B.xs, n + 1, &B.bs));
  PetscCall(PetscMalloc4(n + 1, &B.start, n + 1, &B.split, n + 1, &B.end, n + 1, &B.dmark));
  for (PetscInt i = 0; i < n; i++) B.inpart[i] = B.xmark[i] = B.bmark[i] = B.dmark[i] = -1;
  PetscCall(SpTrsvIntBufReserve(&B.buf, op->nnz + n + 1));

  /* base(i): the length of row i of M when its part is its own group (len_i + 1 outside a supernode) */
  PetscCall(PetscMalloc1(n + 1, &base));
  for (PetscInt i = 0; i < n; i++) base[i] = op->ri[i + 1] - op->ri[i] + 1;
  for (PetscInt gg = 0, m = 0; gg < ngroups; gg++) { /* the groups in sweep order, as sweep[] lists their rows */
    const PetscInt g = op->lower ? gg : ngroups - 1 - gg, sz = gptr[g + 1] - gptr[g];
    PetscInt64     c, bsum;
    if (sz > 1) {
      B.stamp++;
      PetscCall(PinvBuildUnit(&B, sweep, base, m, m + sz, &c, &bsum)); /* sweep[m .. m+sz) is this group, in order */
      for (PetscInt k = m; k < m + sz; k++) base[sweep[k]] = B.end[sweep[k]] - B.start[sweep[k]];
      B.buf.n = 0;
    }
    m += sz;
  }
  for (PetscInt i = 0; i < n; i++) d->base += base[i];
  PetscCall(PetscFree(sweep));

  /* the parts: units (group levels, or rows) in order; a unit that breaks the fill test starts the next part */
  PetscCall(SpTrsvIntBufPush(&parts, 0));
  nunits = mode == SPTRSV_PINV_PARTS_LEVELS ? d->nlevels : n;
  B.stamp++;
  for (PetscInt u = 0; u < nunits; u++) {
    const PetscInt   k0 = mode == SPTRSV_PINV_PARTS_LEVELS ? d->levptr[u] : u, k1 = mode == SPTRSV_PINV_PARTS_LEVELS ? d->levptr[u + 1] : u + 1;
    const PetscInt64 top = B.buf.n;
    PetscInt64       c, bsum;

    PetscCall(PinvBuildUnit(&B, d->order, base, k0, k1, &c, &bsum));
    if (u > 0 && (PetscReal)(pcost + c) > fill * (PetscReal)(pbase + bsum)) {
      B.buf.n = top; /* start the next part with this unit */
      B.stamp++;
      PetscCall(PinvBuildUnit(&B, d->order, base, k0, k1, &c, &bsum));
      PetscCall(SpTrsvIntBufPush(&parts, k0));
      pcost = pbase = 0;
    }
    pcost += c;
    pbase += bsum;
  }
  if (n) PetscCall(SpTrsvIntBufPush(&parts, n));
  d->nparts = (PetscInt)parts.n - 1;
  PetscCall(SpTrsvIntBufFinish(&parts, &d->partptr));

  /* M in position order: the rows were built in that order, so their patterns are already contiguous */
  PetscCall(SpTrsvCheckCount(B.buf.n, "entries of the partitioned inverse"));
  d->nnz = (PetscInt)B.buf.n;
  PetscCall(PetscMalloc2(n + 1, &d->ptr, n + 1, &d->split));
  for (PetscInt k = 0; k < n; k++) {
    d->ptr[k]   = B.start[d->order[k]];
    d->split[k] = B.split[d->order[k]];
    PetscCheck(k == 0 || d->ptr[k] == B.end[d->order[k - 1]], PETSC_COMM_SELF, PETSC_ERR_PLIB, "Partitioned inverse: row %" PetscInt_FMT " was not built in position order", d->order[k]);
  }
  d->ptr[n] = d->nnz;
  PetscCall(SpTrsvIntBufFinish(&B.buf, &d->col));
  PetscCall(PetscFree(base));
  PetscCall(PetscFree(gptr));
  PetscCall(PetscFree5(B.inpart, B.xmark, B.bmark, B.xs, B.bs));
  PetscCall(PetscFree4(B.start, B.split, B.end, B.dmark));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvPinvPartitionCheck - what the executors rely on: order is a permutation and a topological order; group levels
  do not decrease; parts are non-empty consecutive ranges covering every position; the x columns of a row of M lie in
  earlier parts, its b columns in its own part at positions up to its own, its own b column is there, both runs
  ascending; every dependency of the row appears (as x outside the part, as b inside); fill (> 0): M's entries within
  fill times the substitution's (rows + off-diagonal entries) when no supernode is used as a group
*/
PetscErrorCode SpTrsvPinvPartitionCheck(const SpTrsvOp *op, PetscReal fill, const SpTrsvPinvPartitionData *d)
{
  const PetscInt n = op->n;
  PetscInt      *pos, *part;

  PetscFunctionBegin;
  PetscCheck(d->n == n && d->ptr[0] == 0 && d->ptr[n] == d->nnz, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Partitioned inverse: %" PetscInt_FMT " rows, %" PetscInt_FMT " entries, inconsistent pointers", d->n, d->nnz);
  PetscCall(PetscMalloc2(n + 1, &pos, n + 1, &part));
  for (PetscInt i = 0; i < n; i++) pos[i] = -1;
  for (PetscInt k = 0; k < n; k++) {
    PetscCheck(d->order[k] >= 0 && d->order[k] < n && pos[d->order[k]] < 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Partitioned inverse: order is not a permutation at position %" PetscInt_FMT, k);
    pos[d->order[k]] = k;
    PetscCheck(k == 0 || d->level[d->order[k]] >= d->level[d->order[k - 1]], PETSC_COMM_SELF, PETSC_ERR_PLIB, "Partitioned inverse: group levels decrease at position %" PetscInt_FMT, k);
  }
  PetscCheck(d->partptr[0] == 0 && d->partptr[d->nparts] == n, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Partitioned inverse: the parts cover [%" PetscInt_FMT ", %" PetscInt_FMT "), not [0, %" PetscInt_FMT ")", d->partptr[0], d->partptr[d->nparts], n);
  for (PetscInt p = 0; p < d->nparts; p++) {
    PetscCheck(d->partptr[p + 1] > d->partptr[p], PETSC_COMM_SELF, PETSC_ERR_PLIB, "Partitioned inverse: part %" PetscInt_FMT " is empty", p);
    for (PetscInt k = d->partptr[p]; k < d->partptr[p + 1]; k++) part[k] = p;
  }
  for (PetscInt k = 0; k < n; k++) {
    const PetscInt i = d->order[k], p0 = d->partptr[part[k]];
    PetscBool      self = PETSC_FALSE;
    PetscCheck(d->ptr[k] <= d->split[k] && d->split[k] < d->ptr[k + 1], PETSC_COMM_SELF, PETSC_ERR_PLIB, "Partitioned inverse: row %" PetscInt_FMT " has no b entry", i);
    for (PetscInt q = d->ptr[k]; q < d->ptr[k + 1]; q++) {
      const PetscInt c = d->col[q];
      PetscCheck(c >= 0 && c < n, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Partitioned inverse: row %" PetscInt_FMT " has column %" PetscInt_FMT, i, c);
      PetscCheck(q == d->ptr[k] || q == d->split[k] || d->col[q - 1] < c, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Partitioned inverse: row %" PetscInt_FMT ": columns not ascending", i);
      if (q < d->split[k]) PetscCheck(pos[c] < p0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Partitioned inverse: row %" PetscInt_FMT " (part %" PetscInt_FMT ") reads x of row %" PetscInt_FMT ", not in an earlier part", i, part[k], c);
      else {
        PetscCheck(pos[c] >= p0 && pos[c] <= k, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Partitioned inverse: row %" PetscInt_FMT " (part %" PetscInt_FMT ") reads b of row %" PetscInt_FMT ", not an earlier row of its part", i, part[k], c);
        if (c == i) self = PETSC_TRUE;
      }
    }
    PetscCheck(self, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Partitioned inverse: row %" PetscInt_FMT " lacks its own b entry", i);
    for (PetscInt e = op->ri[i]; e < op->ri[i + 1]; e++) {
      const PetscInt j = op->rj[e];
      PetscInt       loc;
      PetscCheck(pos[j] < k, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Partitioned inverse: row %" PetscInt_FMT " comes before its dependency %" PetscInt_FMT, i, j);
      if (pos[j] < p0) PetscCall(PetscFindInt(j, d->split[k] - d->ptr[k], d->col + d->ptr[k], &loc));
      else PetscCall(PetscFindInt(j, d->ptr[k + 1] - d->split[k], d->col + d->split[k], &loc));
      PetscCheck(loc >= 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Partitioned inverse: row %" PetscInt_FMT " of M lacks its dependency %" PetscInt_FMT, i, j);
    }
  }
  if (fill > 0 && !d->ngroups)
    for (PetscInt p = 0; p < d->nparts; p++) {
      const PetscInt k0 = d->partptr[p], k1 = d->partptr[p + 1];
      PetscInt64     m = d->ptr[k1] - d->ptr[k0], b = 0;
      for (PetscInt k = k0; k < k1; k++) b += op->ri[d->order[k] + 1] - op->ri[d->order[k]] + 1;
      PetscCheck((PetscReal)m <= fill * (PetscReal)b, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Partitioned inverse: part %" PetscInt_FMT " holds %" PetscInt64_FMT " entries, more than %g x %" PetscInt64_FMT, p, m, (double)fill, b);
    }
  PetscCall(PetscFree2(pos, part));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SpTrsvPinvPartitionFree(SpTrsvPinvPartitionData *d)
{
  PetscFunctionBegin;
  PetscCall(PetscFree2(d->order, d->level));
  PetscCall(PetscFree(d->levptr));
  PetscCall(PetscFree(d->partptr));
  PetscCall(PetscFree2(d->ptr, d->split));
  PetscCall(PetscFree(d->col));
  PetscFunctionReturn(PETSC_SUCCESS);
}
