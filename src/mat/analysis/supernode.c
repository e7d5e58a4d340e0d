/*
   Supernodes of a triangle (paper 002, Yamazaki et al.; plain C, backend-neutral, shared by the paths that group rows
   or columns into dense blocks). See include/sptrsv/supernode.h for lines and orientation (the supernodal
   path's header describes the storage a partition implies).

   - Detection: maximal runs of consecutive lines whose diagonal block is dense and whose entries outside the run are
     identical (exact supernodes: no explicit zero). With a partition known from the factorization (op->super, a
     supernodal LU/Cholesky) that partition is used instead, checked for this op(T): a supernode whose diagonal block
     is not dense is split at the first line that breaks it (into maximal dense runs); the entries outside may differ
     from line to line and are stored with explicit zeros (the union U_K).
   - Merging: -mat_sptrsv_merge merges neighbouring supernodes whose block structure (the set of other supernodes their
     off-diagonal blocks touch) is the same (paper 002, "Merge"); -mat_sptrsv_supernode_relax R merges neighbours while
     the merged supernode's explicit zeros stay within the fraction R of its stored entries. Merges never make a
     supernode wider than SPTRSV_SUPERNODE_MERGE_MAX_WIDTH.
   - The supernodal DAG: K depends on J when op(T) has an entry in row block K, column block J (J != K); its levels come
     from SpTrsvLevelsCompute (level.c).
*/
#include <sptrsv/supernode.h>

/*
  SpTrsvSupernodeLinesCreate - the lines of op(T): its rows (pull) or its columns (push, made here from the rows, so the
  value map points into op->ra and no CSC view is needed)
*/
PetscErrorCode SpTrsvSupernodeLinesCreate(const SpTrsvOp *op, PetscBool push, SpTrsvSupernodeLines *l)
{
  const PetscInt n = op->n, nnz = op->nnz;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(l, sizeof(*l)));
  l->n      = n;
  l->before = push ? (PetscBool)!op->lower : op->lower;
  if (!push) {
    l->ptr = op->ri;
    l->idx = op->rj;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscCalloc1(n + 1, &l->own_ptr));
  PetscCall(PetscMalloc2(nnz + 1, &l->own_idx, nnz + 1, &l->own_map));
  for (PetscInt p = 0; p < nnz; p++) l->own_ptr[op->rj[p] + 1]++;
  for (PetscInt j = 0; j < n; j++) l->own_ptr[j + 1] += l->own_ptr[j];
  {
    PetscInt *next;
    PetscCall(PetscMalloc1(n + 1, &next));
    PetscCall(PetscArraycpy(next, l->own_ptr, n + 1));
    for (PetscInt i = 0; i < n; i++) /* rows ascending: each column's rows come out ascending */
      for (PetscInt p = op->ri[i]; p < op->ri[i + 1]; p++) {
        const PetscInt q = next[op->rj[p]]++;
        l->own_idx[q]    = i;
        l->own_map[q]    = p;
      }
    PetscCall(PetscFree(next));
  }
  l->ptr = l->own_ptr;
  l->idx = l->own_idx;
  l->map = l->own_map;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SpTrsvSupernodeLinesDestroy(SpTrsvSupernodeLines *l)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(l->own_ptr));
  PetscCall(PetscFree2(l->own_idx, l->own_map));
  PetscCall(PetscMemzero(l, sizeof(*l)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  LineFits - does line t belong to the block [s, e) (s <= t < e) with a dense diagonal block, i.e. hold every index of
  the block before it (before) / after it (after)? With need_off, its entries outside the block must also be those of
  the anchor line (same block).
*/
static PetscBool LineFits(const SpTrsvSupernodeLines *l, PetscInt t, PetscInt s, PetscInt e, PetscInt anchor, PetscBool need_off)
{
  const PetscInt want = l->before ? t - s : e - 1 - t;
  PetscInt       nin = 0, pa = l->ptr[anchor], pa1 = l->ptr[anchor + 1];

  for (PetscInt p = l->ptr[t]; p < l->ptr[t + 1]; p++) {
    const PetscInt j = l->idx[p];
    if (j >= s && j < e) {
      nin++;
      continue;
    }
    if (need_off) {
      while (pa < pa1 && l->idx[pa] >= s && l->idx[pa] < e) pa++;
      if (pa == pa1 || l->idx[pa] != j) return PETSC_FALSE;
      pa++;
    }
  }
  if (need_off) {
    while (pa < pa1 && l->idx[pa] >= s && l->idx[pa] < e) pa++;
    if (pa != pa1) return PETSC_FALSE;
  }
  return (PetscBool)(nin == want); /* strict triangle, unique indices: that many entries fill the block's side */
}

/*
  SpTrsvSupernodeIsExact - is [s, e) a supernode with a dense diagonal block (and, with same_off, the same entries
  outside it on every line)? For the tests and the schedule's figures.
*/
PetscErrorCode SpTrsvSupernodeIsExact(const SpTrsvSupernodeLines *l, PetscInt s, PetscInt e, PetscBool same_off, PetscBool *exact)
{
  PetscFunctionBegin;
  *exact = PETSC_TRUE;
  for (PetscInt t = s; t < e && *exact; t++) *exact = LineFits(l, t, s, e, s, same_off);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the runs of lines [a, b) with dense diagonal blocks (and, need_off, identical outside entries), greedy from the end the
   orientation grows from; boundaries appended to bnd (ascending for before, descending for after) */
static void SpTrsvSupernodeRuns(const SpTrsvSupernodeLines *l, PetscInt a, PetscInt b, PetscBool need_off, PetscInt *bnd, PetscInt *nb)
{
  if (l->before) {
    PetscInt s = a;
    for (PetscInt t = a + 1; t < b; t++)
      if (!LineFits(l, t, s, t + 1, s, need_off)) {
        bnd[(*nb)++] = t;
        s            = t;
      }
  } else {
    PetscInt e = b;
    for (PetscInt t = b - 2; t >= a; t--)
      if (!LineFits(l, t, t, e, e - 1, need_off)) {
        bnd[(*nb)++] = t + 1;
        e            = t + 1;
      }
  }
}

/*
  SpTrsvSupernodeDetect - the supernode partition of the lines: exact detection, or (nhint > 0) the factorization's
  partition hint[0 .. nhint] with each supernode split where its diagonal block is not dense. *super (ns + 1 entries) is
  PetscMalloc'ed.
*/
PetscErrorCode SpTrsvSupernodeDetect(const SpTrsvSupernodeLines *l, PetscInt nhint, const PetscInt *hint, PetscInt *ns, PetscInt **super, SpTrsvSupernodeFigures *fig)
{
  const PetscInt n  = l->n;
  PetscInt      *bnd, nb = 0;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(fig, sizeof(*fig)));
  PetscCall(PetscMalloc1(n + 2, &bnd));
  if (nhint > 0) {
    PetscCheck(hint[0] == 0 && hint[nhint] == n, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "The factorization's supernode partition covers [%" PetscInt_FMT ", %" PetscInt_FMT "), the triangle has %" PetscInt_FMT " rows", hint[0], hint[nhint], n);
    fig->ns_hint = nhint;
    for (PetscInt k = 0; k < nhint; k++) {
      const PetscInt nb0 = nb;
      PetscCheck(hint[k + 1] > hint[k], PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Supernode %" PetscInt_FMT " of the factorization's partition is empty: [%" PetscInt_FMT ", %" PetscInt_FMT ")", k, hint[k], hint[k + 1]);
      if (k) bnd[nb++] = hint[k];
      SpTrsvSupernodeRuns(l, hint[k], hint[k + 1], PETSC_FALSE, bnd, &nb);
      if (nb - nb0 > (k ? 1 : 0)) fig->hint_split++;
    }
  } else if (n) SpTrsvSupernodeRuns(l, 0, n, PETSC_TRUE, bnd, &nb);
  bnd[nb++] = 0;
  bnd[nb++] = n;
  PetscCall(PetscSortRemoveDupsInt(&nb, bnd));
  if (!n) nb = 1; /* [0] */
  *ns = nb - 1;
  PetscCall(PetscMalloc1(nb, super));
  PetscCall(PetscArraycpy(*super, bnd, nb));
  fig->ns_exact = *ns;
  PetscCall(PetscFree(bnd));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvSupernodeUnion - U_K for every supernode: the indices outside K that some line of K holds, ascending; *uptr (ns + 1)
  and *uidx are PetscMalloc'ed
*/
PetscErrorCode SpTrsvSupernodeUnion(const SpTrsvSupernodeLines *l, PetscInt ns, const PetscInt *super, PetscInt **uptr, PetscInt **uidx)
{
  PetscInt *mark, *ptr, *idx, cap, len = 0;

  PetscFunctionBegin;
  cap = l->ptr[l->n] + 1;
  PetscCall(PetscMalloc1(ns + 1, &ptr));
  PetscCall(PetscMalloc1(cap, &idx));
  PetscCall(PetscMalloc1(l->n + 1, &mark));
  for (PetscInt i = 0; i < l->n; i++) mark[i] = -1;
  ptr[0] = 0;
  for (PetscInt K = 0; K < ns; K++) {
    const PetscInt s = super[K], e = super[K + 1];
    for (PetscInt t = s; t < e; t++)
      for (PetscInt p = l->ptr[t]; p < l->ptr[t + 1]; p++) {
        const PetscInt j = l->idx[p];
        if ((j >= s && j < e) || mark[j] == K) continue;
        mark[j] = K;
        if (len == cap) { /* cannot happen: U_K has at most the lines' entries */
          cap *= 2;
          PetscCall(PetscRealloc(sizeof(PetscInt) * (size_t)cap, &idx));
        }
        idx[len++] = j;
      }
    PetscCall(PetscSortInt(len - ptr[K], idx + ptr[K]));
    ptr[K + 1] = len;
  }
  PetscCall(PetscFree(mark));
  *uptr = ptr;
  *uidx = idx;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* c = (a ∪ b) without the indices in [lo, hi) (a, b ascending, unique); c may not alias a or b */
static PetscInt SpTrsvSupernodeMergeLists(PetscInt na, const PetscInt *a, PetscInt nb, const PetscInt *b, PetscInt lo, PetscInt hi, PetscInt *c)
{
  PetscInt ia = 0, ib = 0, nc = 0;

  while (ia < na || ib < nb) {
    PetscInt v;
    if (ib == nb || (ia < na && a[ia] < b[ib])) v = a[ia++];
    else if (ia == na || b[ib] < a[ia]) v = b[ib++];
    else {
      v = a[ia++];
      ib++;
    }
    if (v < lo || v >= hi) c[nc++] = v;
  }
  return nc;
}

/* are a without [alo, ahi) and b without [blo, bhi) the same list? */
static PetscBool SpTrsvSupernodeSameLists(PetscInt na, const PetscInt *a, PetscInt alo, PetscInt ahi, PetscInt nb, const PetscInt *b, PetscInt blo, PetscInt bhi)
{
  PetscInt ia = 0, ib = 0;

  for (;;) {
    while (ia < na && a[ia] >= alo && a[ia] < ahi) ia++;
    while (ib < nb && b[ib] >= blo && b[ib] < bhi) ib++;
    if (ia == na || ib == nb) return (PetscBool)(ia == na && ib == nb);
    if (a[ia++] != b[ib++]) return PETSC_FALSE;
  }
}

/* one greedy pass of merges of neighbours; block: compare block structures (-mat_sptrsv_merge), else explicit zeros
   within the fraction relax of the stored entries. The partition is rewritten in place. */
static PetscErrorCode SpTrsvSupernodeMergePass(const SpTrsvSupernodeLines *l, PetscBool block, PetscReal relax, PetscInt *ns, PetscInt *super, PetscInt *nmerges)
{
  PetscInt *uptr, *uidx, *lptr, *lidx, *sn = NULL, *cur, *tmp, ncur, nnew = 0, cap;

  PetscFunctionBegin;
  *nmerges = 0;
  if (*ns < 2) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(SpTrsvSupernodeUnion(l, *ns, super, &uptr, &uidx));
  if (block) { /* the lists compared are the supernodes U_K touches (unique, ascending since super is) */
    PetscCall(PetscMalloc1(l->n + 1, &sn));
    for (PetscInt K = 0; K < *ns; K++)
      for (PetscInt t = super[K]; t < super[K + 1]; t++) sn[t] = K;
    PetscCall(PetscMalloc2(*ns + 1, &lptr, uptr[*ns] + 1, &lidx));
    lptr[0] = 0;
    for (PetscInt K = 0, q = 0; K < *ns; K++) {
      for (PetscInt c = uptr[K]; c < uptr[K + 1]; c++)
        if (q == lptr[K] || lidx[q - 1] != sn[uidx[c]]) lidx[q++] = sn[uidx[c]];
      lptr[K + 1] = q;
    }
  } else {
    lptr = uptr;
    lidx = uidx;
  }
  cap = l->n + *ns + 1;
  PetscCall(PetscMalloc2(cap, &cur, cap, &tmp));
  {
    PetscInt g0 = 0, nnzg; /* the group: supernodes g0 .. K-1, lines super[g0] .. super[K]-1, its list cur */

    ncur = lptr[1] - lptr[0];
    PetscCall(PetscArraycpy(cur, lidx, ncur));
    nnzg = l->ptr[super[1]] - l->ptr[super[0]];
    for (PetscInt K = 1; K <= *ns; K++) {
      PetscBool take = PETSC_FALSE;
      if (K < *ns && super[K + 1] - super[g0] <= SPTRSV_SUPERNODE_MERGE_MAX_WIDTH) {
        const PetscInt nK = lptr[K + 1] - lptr[K], *LK = lidx + lptr[K];
        if (block) {
          take = SpTrsvSupernodeSameLists(ncur, cur, K, K + 1, nK, LK, g0, K);
          if (take) {
            const PetscInt nt = SpTrsvSupernodeMergeLists(ncur, cur, nK, LK, g0, K + 1, tmp);
            PetscCall(PetscArraycpy(cur, tmp, nt));
            ncur = nt;
          }
        } else {
          const PetscInt   s = super[g0], e = super[K + 1], w = e - s;
          const PetscInt   nt     = SpTrsvSupernodeMergeLists(ncur, cur, nK, LK, s, e, tmp);
          const PetscInt   nnzK   = l->ptr[super[K + 1]] - l->ptr[super[K]];
          const PetscReal  stored = 0.5 * (PetscReal)w * (PetscReal)(w - 1) + (PetscReal)w * (PetscReal)nt;
          const PetscReal  zeros  = stored - (PetscReal)(nnzg + nnzK);
          take                    = (PetscBool)(zeros <= relax * stored);
          if (take) {
            PetscCall(PetscArraycpy(cur, tmp, nt));
            ncur = nt;
            nnzg += nnzK;
          }
        }
      }
      if (take) {
        (*nmerges)++;
        continue;
      }
      super[nnew++] = super[g0]; /* close the group */
      if (K < *ns) {
        g0   = K;
        ncur = lptr[K + 1] - lptr[K];
        PetscCall(PetscArraycpy(cur, lidx + lptr[K], ncur));
        nnzg = l->ptr[super[K + 1]] - l->ptr[super[K]];
      }
    }
  }
  super[nnew] = l->n;
  *ns         = nnew;
  PetscCall(PetscFree2(cur, tmp));
  if (block) {
    PetscCall(PetscFree(sn));
    PetscCall(PetscFree2(lptr, lidx));
  }
  PetscCall(PetscFree(uptr));
  PetscCall(PetscFree(uidx));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvSupernodeMerge - merge neighbouring supernodes (in place): first those with the same block structure (merge),
  then, with relax > 0, while the explicit zeros stay within the fraction relax of the stored entries
*/
PetscErrorCode SpTrsvSupernodeMerge(const SpTrsvSupernodeLines *l, PetscBool merge, PetscReal relax, PetscInt *ns, PetscInt *super, SpTrsvSupernodeFigures *fig)
{
  PetscFunctionBegin;
  if (merge) PetscCall(SpTrsvSupernodeMergePass(l, PETSC_TRUE, 0, ns, super, &fig->nmerged));
  if (relax > 0) PetscCall(SpTrsvSupernodeMergePass(l, PETSC_FALSE, relax, ns, super, &fig->nrelaxed));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvSupernodeDAG - the dependencies of every supernode (unique, any order): pull, K reads the supernodes of U_K; push,
  the supernodes of U_K read K. *dptr (ns + 1) and *didx PetscMalloc'ed; a supernode of a lower op(T) depends on lower
  indices only, as SpTrsvLevelsCompute expects
*/
PetscErrorCode SpTrsvSupernodeDAG(const SpTrsvSupernodeLines *l, PetscBool push, PetscInt ns, const PetscInt *super, const PetscInt *uptr, const PetscInt *uidx, PetscInt **dptr, PetscInt **didx)
{
  PetscInt *sn, *ptr, *idx, *mark, *next;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(l->n + 1, &sn));
  PetscCall(PetscMalloc2(ns + 1, &mark, ns + 1, &next));
  PetscCall(PetscCalloc1(ns + 1, &ptr));
  PetscCall(PetscMalloc1(uptr[ns] + 1, &idx));
  for (PetscInt K = 0; K < ns; K++)
    for (PetscInt t = super[K]; t < super[K + 1]; t++) sn[t] = K;
  for (PetscInt K = 0; K < ns; K++) mark[K] = -1;
  /* edges J -> K (K depends on J), each counted once: pull (J, K) = (sn[U_K], K), push (K, sn[U_K]) */
  for (PetscInt K = 0; K < ns; K++)
    for (PetscInt c = uptr[K]; c < uptr[K + 1]; c++) {
      const PetscInt J = sn[uidx[c]];
      if (mark[J] == K) continue;
      mark[J] = K;
      ptr[(push ? J : K) + 1]++;
    }
  for (PetscInt K = 0; K < ns; K++) ptr[K + 1] += ptr[K];
  for (PetscInt K = 0; K < ns; K++) {
    mark[K] = -1;
    next[K] = ptr[K];
  }
  for (PetscInt K = 0; K < ns; K++)
    for (PetscInt c = uptr[K]; c < uptr[K + 1]; c++) {
      const PetscInt J = sn[uidx[c]];
      if (mark[J] == K) continue;
      mark[J] = K;
      if (push) idx[next[J]++] = K;
      else idx[next[K]++] = J;
    }
  PetscCall(PetscFree(sn));
  PetscCall(PetscFree2(mark, next));
  *dptr = ptr;
  *didx = idx;
  PetscFunctionReturn(PETSC_SUCCESS);
}
