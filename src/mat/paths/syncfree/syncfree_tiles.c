/*
   The sync-free path's tiles (-mat_sptrsv_dispatch tiles; the design and the deadlock-freedom argument:
   include/sptrsv/paths/syncfree.h, "Tiles"): the runs dispatch's windows grouped into tiles of consecutive windows, one
   block per tile, and the check of the tiles' structure. Plain C: the host analysis builds them, both executors' setups
   check them (the host executor runs the rows in the triangle's own order, which every schedule that passes the check
   agrees with).
*/
#include <sptrsv/paths/syncfree.h>

/*
  SpTrsvSyncFreeTiles - sf holds the runs dispatch's windows (wstart, wlanes: in the windows' dispatch order); they are
  taken in position order and cut greedily into tiles: a window joins the open tile while the tile's rows stay at most
  sf->tile_rows. The depth of a tile is one more than that of the deepest tile any of its rows waits for through global
  memory (a dependency before the tile's first position); the tiles go out by depth, by position inside a depth, each
  with its windows in position order (sf->wstart, sf->wlanes rewritten in that order, sf->tstart). Also counted: the
  dependencies the tiles resolve in shared memory (on an earlier window of the same tile) and the tiles' critical path.
*/
PetscErrorCode SpTrsvSyncFreeTiles(const SpTrsvOp *op, SpTrsvSyncFreeSchedule *sf)
{
  const PetscInt n = op->n, nw = sf->nwarps, cap = sf->tile_rows;
  PetscInt      *at, *pw, *tileof, *tfirst, *depth, *cnt, *ws, nt = 0, nr = 0, bad = -1;
  int           *wl;

  PetscFunctionBegin;
  PetscCheck(cap >= 1 && cap <= SPTRSV_SYNCFREE_TILE_MAX, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Sync-free tiles: %" PetscInt_FMT " rows per tile", cap);
  PetscCall(PetscMalloc4(n + 1, &at, nw + 1, &pw, n + 1, &tileof, nw + 2, &tfirst));
  PetscCall(PetscMalloc4(nw + 1, &depth, nw + 2, &cnt, nw + 1, &ws, nw + 1, &wl));
  /* the windows in position order: pw[r] is the dispatch index of the r-th window by position */
  for (PetscInt k = 0; k <= n; k++) at[k] = -1;
  for (PetscInt w = 0; w < nw; w++) at[sf->wstart[w]] = w;
  for (PetscInt k = 0; k < n; nr++) {
    if (nr >= nw || at[k] < 0 || sf->wlanes[at[k]] <= 0 || sf->wlanes[at[k]] > cap) { /* reported once the scratch is freed */
      bad = k;
      break;
    }
    pw[nr] = at[k];
    k += sf->wlanes[at[k]];
  }
  if (bad >= 0 || nr != nw) {
    PetscCall(PetscFree4(at, pw, tileof, tfirst));
    PetscCall(PetscFree4(depth, cnt, ws, wl));
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_PLIB, "Sync-free tiles: the %" PetscInt_FMT " windows do not cut the %" PetscInt_FMT " positions into windows of at most %" PetscInt_FMT " rows (position %" PetscInt_FMT ")", nw, n, cap, bad);
  }
  /* the tiles in position order (tfirst[t]: index in pw of the tile's first window), each position's tile */
  for (PetscInt r = 0, rows = 0; r < nw; r++) {
    const PetscInt len = sf->wlanes[pw[r]];
    if (!r || rows + len > cap) {
      tfirst[nt++] = r;
      rows         = 0;
    }
    rows += len;
    for (PetscInt k = sf->wstart[pw[r]]; k < sf->wstart[pw[r]] + len; k++) tileof[k] = nt - 1;
  }
  tfirst[nt]      = nw;
  sf->tile_depth  = 0;
  sf->tile_shared = 0;
  for (PetscInt t = 0; t < nt; t++) {
    const PetscInt ts = sf->wstart[pw[tfirst[t]]];
    PetscInt       d  = 0;
    for (PetscInt r = tfirst[t]; r < tfirst[t + 1]; r++) {
      const PetscInt k0 = sf->wstart[pw[r]], k1 = k0 + sf->wlanes[pw[r]];
      for (PetscInt k = k0; k < k1; k++) {
        const PetscInt i = SpTrsvSyncFreeNaturalPos(op, k); /* the map is its own inverse */
        for (PetscInt e = op->ri[i]; e < op->ri[i + 1]; e++) {
          const PetscInt q = SpTrsvSyncFreeNaturalPos(op, op->rj[e]);
          if (q < ts) d = PetscMax(d, depth[tileof[q]]);
          else if (q < k0) sf->tile_shared++;
        }
      }
    }
    depth[t]       = d + 1;
    sf->tile_depth = PetscMax(sf->tile_depth, depth[t]);
  }
  /* dispatch: by depth, by position inside a depth (a stable counting sort of the tiles) */
  PetscCall(PetscArrayzero(cnt, sf->tile_depth + 2));
  for (PetscInt t = 0; t < nt; t++) cnt[depth[t]]++;
  for (PetscInt d = 1; d <= sf->tile_depth + 1; d++) cnt[d] += cnt[d - 1];
  PetscCall(PetscFree(sf->tstart));
  PetscCall(PetscMalloc1(nt + 1, &sf->tstart));
  {
    PetscInt *slot, u = 0;
    PetscCall(PetscMalloc1(nt + 1, &slot));
    for (PetscInt t = 0; t < nt; t++) slot[cnt[depth[t] - 1]++] = t; /* cnt[d - 1]: the next slot of depth d */
    for (PetscInt s = 0; s < nt; s++) {
      const PetscInt t = slot[s];
      sf->tstart[s]    = u;
      for (PetscInt r = tfirst[t]; r < tfirst[t + 1]; r++, u++) {
        ws[u] = sf->wstart[pw[r]];
        wl[u] = sf->wlanes[pw[r]];
      }
    }
    sf->tstart[nt] = u;
    PetscCall(PetscFree(slot));
  }
  PetscCall(PetscArraycpy(sf->wstart, ws, nw));
  PetscCall(PetscArraycpy(sf->wlanes, wl, nw));
  sf->wstart[nw] = n;
  sf->ntiles     = nt;
  PetscCall(PetscFree4(at, pw, tileof, tfirst));
  PetscCall(PetscFree4(depth, cnt, ws, wl));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvSyncFreeTilesCheck - what the tiles add to the runs dispatch's deadlock-freedom argument, checked on the
  schedule the kernel reads (the windows themselves: the runs check): tstart runs from 0 to nwarps, every tile holds at
  least one window, the windows of a tile are consecutive in position order, and a tile holds at most its rows per
  tile and SPTRSV_SYNCFREE_TILE_MAX (the block's shared words). With them, a dependency of a window that the runs check
  finds dispatched earlier and before the window's first position is either before its tile's first position (an
  earlier tile) or in an earlier window of its own tile
*/
PetscErrorCode SpTrsvSyncFreeTilesCheck(PetscInt n, const SpTrsvSyncFreeSchedule *sf)
{
  const PetscInt cap = PetscMin(sf->tile_rows, (PetscInt)SPTRSV_SYNCFREE_TILE_MAX);

  PetscFunctionBegin;
  PetscCheck(sf->runs && sf->tstart && sf->ntiles >= 0 && sf->tstart[0] == 0 && sf->tstart[sf->ntiles] == sf->nwarps, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Sync-free tiles: %" PetscInt_FMT " tiles do not cover %" PetscInt_FMT " windows", sf->ntiles, sf->nwarps);
  for (PetscInt t = 0; t < sf->ntiles; t++) {
    const PetscInt u0 = sf->tstart[t], u1 = sf->tstart[t + 1];
    PetscCheck(u1 > u0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Sync-free tiles: tile %" PetscInt_FMT " holds no window", t);
    for (PetscInt u = u0 + 1; u < u1; u++) PetscCheck(sf->wstart[u] == sf->wstart[u - 1] + sf->wlanes[u - 1], PETSC_COMM_SELF, PETSC_ERR_PLIB, "Sync-free tiles: window %" PetscInt_FMT " of tile %" PetscInt_FMT " does not follow the one before it", u, t);
    PetscCheck(sf->wstart[u0] >= 0 && sf->wstart[u1 - 1] + sf->wlanes[u1 - 1] <= n && sf->wstart[u1 - 1] + sf->wlanes[u1 - 1] - sf->wstart[u0] <= cap, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Sync-free tiles: tile %" PetscInt_FMT " holds positions %" PetscInt_FMT " to %" PetscInt_FMT ", at most %" PetscInt_FMT " rows", t, sf->wstart[u0], sf->wstart[u1 - 1] + sf->wlanes[u1 - 1] - 1, cap);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
