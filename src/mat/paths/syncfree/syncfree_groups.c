/*
   Groups of windows of the sync-free runs dispatch (-mat_sptrsv_run_group B; include/sptrsv/paths/syncfree.h, "Groups
   of windows"): the windows cut by SpTrsvSyncFreePackRuns (syncfree.c), in position order, are grouped into boxes of
   up to B x B windows of the windows' DAG, one CUDA block per group, and listed group by group in the groups' wavefront
   order. Plain C, backend-neutral: the host executor checks the same schedule (SpTrsvSyncFreeScheduleCheck), the CUDA
   executor reads a dependency on an earlier window of the same group from the block's shared memory.
*/
#include <sptrsv/paths/syncfree.h>

/* the windows' DAG: for window v (position order), its distinct predecessor windows pidx[pptr[v] .. pptr[v+1]) and how
   many of v's entries read each (pcnt); heavy successors (a predecessor read by two entries or more) of u in
   sidx[sptr[u] .. sptr[u+1]), ascending */
typedef struct {
  PetscInt *pptr, *pidx, *pcnt, *sptr, *sidx;
} SpTrsvWindowDAG;

static PetscErrorCode SpTrsvWindowDAGCreate(const SpTrsvOp *op, SpTrsvPlan p, PetscInt nw, const PetscInt *k0s, SpTrsvWindowDAG *g)
{
  const PetscInt n = op->n;
  PetscInt      *winof, *stamp, *slot, np = 0;

  PetscFunctionBegin;
  PetscCall(PetscMalloc3(n + 1, &winof, nw + 1, &stamp, nw + 1, &slot));
  PetscCall(PetscMalloc5(nw + 1, &g->pptr, op->nnz + 1, &g->pidx, op->nnz + 1, &g->pcnt, nw + 2, &g->sptr, op->nnz + 1, &g->sidx));
  for (PetscInt v = 0; v < nw; v++) {
    stamp[v] = -1;
    for (PetscInt k = k0s[v]; k < k0s[v + 1]; k++) winof[k] = v;
  }
  g->pptr[0] = 0;
  for (PetscInt v = 0; v < nw; v++) {
    for (PetscInt k = k0s[v]; k < k0s[v + 1]; k++) {
      const PetscInt i = p->order[k];
      for (PetscInt e = op->ri[i]; e < op->ri[i + 1]; e++) {
        const PetscInt q = SpTrsvSyncFreeNaturalPos(op, op->rj[e]), u = q < k0s[v] ? winof[q] : -1;
        if (u < 0) continue; /* inside the window: the chain */
        if (stamp[u] != v) {
          stamp[u]     = v;
          slot[u]      = np;
          g->pidx[np]  = u;
          g->pcnt[np++] = 1;
        } else g->pcnt[slot[u]]++;
      }
    }
    g->pptr[v + 1] = np;
  }
  /* the heavy successors: the transpose of the heavy predecessors, each list ascending (v visited in order) */
  PetscCall(PetscArrayzero(g->sptr, nw + 2));
  for (PetscInt q = 0; q < np; q++)
    if (g->pcnt[q] >= 2) g->sptr[g->pidx[q] + 2]++;
  for (PetscInt u = 0; u < nw; u++) g->sptr[u + 2] += g->sptr[u + 1];
  for (PetscInt v = 0; v < nw; v++)
    for (PetscInt q = g->pptr[v]; q < g->pptr[v + 1]; q++)
      if (g->pcnt[q] >= 2) g->sidx[g->sptr[g->pidx[q] + 1]++] = v;
  PetscCall(PetscFree3(winof, stamp, slot));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SpTrsvWindowDAGDestroy(SpTrsvWindowDAG *g)
{
  PetscFunctionBegin;
  PetscCall(PetscFree5(g->pptr, g->pidx, g->pcnt, g->sptr, g->sidx));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* is u a heavy predecessor of v */
static PetscBool SpTrsvWindowHeavyPred(const SpTrsvWindowDAG *g, PetscInt u, PetscInt v)
{
  for (PetscInt q = g->pptr[v]; q < g->pptr[v + 1]; q++)
    if (g->pidx[q] == u) return (PetscBool)(g->pcnt[q] >= 2);
  return PETSC_FALSE;
}

/* the window at box place (a, b) from its neighbours in the box (the header of include/sptrsv/paths/syncfree.h), -1: none */
static PetscInt SpTrsvWindowBoxNext(const SpTrsvWindowDAG *g, PetscInt left, PetscInt below, int a, int b)
{
  if (b == 0) return left >= 0 && g->sptr[left + 1] > g->sptr[left] ? g->sidx[g->sptr[left]] : -1; /* smallest position */
  if (a == 0) return below >= 0 && g->sptr[below + 1] - g->sptr[below] > 1 ? g->sidx[g->sptr[below + 1] - 1] : -1; /* largest, not the smallest */
  if (left < 0 || below < 0) return -1;
  for (PetscInt q = g->sptr[left]; q < g->sptr[left + 1]; q++)
    if (SpTrsvWindowHeavyPred(g, below, g->sidx[q])) return g->sidx[q];
  return -1;
}

/* may window v join group gi now: in no group yet, and every window it depends on in one (gi itself included) */
static PetscBool SpTrsvWindowJoins(const SpTrsvWindowDAG *g, const PetscInt *gid, PetscInt v)
{
  if (v < 0 || gid[v] >= 0) return PETSC_FALSE;
  for (PetscInt q = g->pptr[v]; q < g->pptr[v + 1]; q++)
    if (gid[g->pidx[q]] < 0) return PETSC_FALSE;
  return PETSC_TRUE;
}

/*
  SpTrsvSyncFreeGroup - the groups of the nw windows [k0s[v], k0s[v+1]) (position order): seeds in position order, each
  the box of its heavy successors that may join (SpTrsvWindowJoins: every group then depends on earlier groups and on
  earlier members of its own only, the deadlock-freedom condition of the CUDA kernel), the groups' depths in their DAG,
  and the dispatch order: groups by depth (by creation inside a depth), a group's windows together in member order.
  Sets sf->wstart, sf->wlanes (allocated by the caller, nw + 1), sf->gstart, sf->ngroups, sf->group_depth, sf->grouped.
*/
PetscErrorCode SpTrsvSyncFreeGroup(const SpTrsvOp *op, SpTrsvPlan p, SpTrsvSyncFreeSchedule *sf, PetscInt nw, const PetscInt *k0s)
{
  const int       B = (int)sf->run_group;
  SpTrsvWindowDAG g;
  PetscInt       *gid, *memb, *mptr, *gdep, *cnt, *order, ng = 0, nm = 0;

  PetscFunctionBegin;
  PetscCheck(B >= 2 && B <= SPTRSV_SYNCFREE_RUN_GROUP_MAX, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Sync-free groups of %d x %d windows", B, B);
  PetscCall(SpTrsvWindowDAGCreate(op, p, nw, k0s, &g));
  PetscCall(PetscMalloc6(nw + 1, &gid, nw + 1, &memb, nw + 2, &mptr, nw + 1, &gdep, nw + 2, &cnt, nw + 1, &order));
  for (PetscInt v = 0; v < nw; v++) gid[v] = -1;
  mptr[0] = 0;
  for (PetscInt s = 0; s < nw; s++) {
    PetscInt box[SPTRSV_SYNCFREE_RUN_GROUP_MAX][SPTRSV_SYNCFREE_RUN_GROUP_MAX], d = 0;
    if (gid[s] >= 0) continue;
    PetscCheck(SpTrsvWindowJoins(&g, gid, s), PETSC_COMM_SELF, PETSC_ERR_PLIB, "Sync-free groups: window %" PetscInt_FMT " depends on a window after it", s);
    for (int b = 0; b < B; b++)
      for (int a = 0; a < B; a++) {
        const PetscInt v = a == 0 && b == 0 ? s : SpTrsvWindowBoxNext(&g, a ? box[a - 1][b] : -1, b ? box[a][b - 1] : -1, a, b);
        box[a][b]        = -1;
        if (!SpTrsvWindowJoins(&g, gid, v)) continue;
        box[a][b]  = v;
        gid[v]     = ng;
        memb[nm++] = v;
      }
    for (PetscInt m = mptr[ng]; m < nm; m++) /* one more than the deepest group a member waits for */
      for (PetscInt q = g.pptr[memb[m]]; q < g.pptr[memb[m] + 1]; q++)
        if (gid[g.pidx[q]] != ng) d = PetscMax(d, gdep[gid[g.pidx[q]]]);
    gdep[ng]     = d + 1;
    mptr[++ng]   = nm;
  }
  /* dispatch: by depth, by creation inside a depth (a stable counting sort) */
  sf->group_depth = 0;
  for (PetscInt gi = 0; gi < ng; gi++) sf->group_depth = PetscMax(sf->group_depth, gdep[gi]);
  PetscCall(PetscArrayzero(cnt, sf->group_depth + 2));
  for (PetscInt gi = 0; gi < ng; gi++) cnt[gdep[gi]]++;
  for (PetscInt dd = 1; dd <= sf->group_depth + 1; dd++) cnt[dd] += cnt[dd - 1];
  for (PetscInt gi = 0; gi < ng; gi++) order[cnt[gdep[gi] - 1]++] = gi;
  PetscCall(PetscMalloc1(ng + 1, &sf->gstart));
  sf->grouped = 0;
  for (PetscInt t = 0, w = 0; t < ng; t++) {
    const PetscInt gi = order[t];
    sf->gstart[t]     = w;
    if (mptr[gi + 1] - mptr[gi] > 1) sf->grouped += mptr[gi + 1] - mptr[gi];
    for (PetscInt m = mptr[gi]; m < mptr[gi + 1]; m++, w++) {
      sf->wstart[w] = k0s[memb[m]];
      sf->wlanes[w] = (int)(k0s[memb[m] + 1] - k0s[memb[m]]);
    }
  }
  sf->gstart[ng] = nw;
  sf->wstart[nw] = op->n;
  sf->ngroups    = ng;
  PetscCall(PetscFree6(gid, memb, mptr, gdep, cnt, order));
  PetscCall(SpTrsvWindowDAGDestroy(&g));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvSyncFreeGroupsCheck - the groups' part of the schedule check (SpTrsvSyncFreeScheduleCheck, whose runs branch
  checks that every window a row waits for is dispatched before it): the groups are consecutive runs of the windows'
  list, each of 1 to run_group^2 windows of at most 32 rows. With that, a window waits only for windows of earlier
  groups (taken by earlier tickets) or for earlier warps of its own block: what the CUDA kernel's deadlock freedom
  rests on. disp[k]: the window holding position k (unused here; the runs branch's).
*/
PetscErrorCode SpTrsvSyncFreeGroupsCheck(const SpTrsvSyncFreeSchedule *sf, const PetscInt *disp)
{
  const PetscInt B = sf->run_group;

  PetscFunctionBegin;
  (void)disp;
  PetscCheck(B >= 2 && B <= SPTRSV_SYNCFREE_RUN_GROUP_MAX && sf->run_rows == 1, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Sync-free groups of %" PetscInt_FMT " x %" PetscInt_FMT " windows of %" PetscInt_FMT " rows per lane", B, B, sf->run_rows);
  PetscCheck(sf->ngroups >= 0 && sf->gstart && sf->gstart[0] == 0 && sf->gstart[sf->ngroups] == sf->nwarps, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Sync-free groups: %" PetscInt_FMT " groups do not cover %" PetscInt_FMT " windows", sf->ngroups, sf->nwarps);
  for (PetscInt gi = 0; gi < sf->ngroups; gi++) {
    const PetscInt m = sf->gstart[gi + 1] - sf->gstart[gi];
    PetscCheck(m >= 1 && m <= B * B, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Sync-free groups: group %" PetscInt_FMT " holds %" PetscInt_FMT " windows, at most %" PetscInt_FMT, gi, m, B * B);
    for (PetscInt w = sf->gstart[gi]; w < sf->gstart[gi + 1]; w++) PetscCheck(sf->wlanes[w] >= 1 && sf->wlanes[w] <= 32, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Sync-free groups: window %" PetscInt_FMT " holds %d rows, at most 32", w, sf->wlanes[w]);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
