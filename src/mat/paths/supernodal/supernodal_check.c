/* The supernodal schedule's checks: what both executors and the unit test rely on (SpTrsvSupernodalScheduleCheck), and
   the split tasks of the CUDA launches (SpTrsvSupernodalSplitCheck, called from it). */
#include <sptrsv/paths/supernodal.h>
#include <petscbt.h>

/*
  SpTrsvSupernodalScheduleCheck - what the executors rely on: the partition tiles the lines; the run order is a
  permutation, levels non-empty, team supernodes first and no wider than a team block may be; every entry of op(T)
  outside its row's supernode comes from a supernode of an earlier level; U_K ascending and outside K; every entry of
  op(T) stored exactly once, at its place, every other stored value an explicit zero (diagonal: the diagonal code);
  plan->order lists the rows in run order; the launch geometry fits. A delegated plan has the partition only.
*/
PetscErrorCode SpTrsvSupernodalScheduleCheck(const SpTrsvOp *op, SpTrsvPlan plan)
{
  SpTrsvSupernodalSchedule *ss = (SpTrsvSupernodalSchedule *)plan->data;
  const PetscInt            n = op->n, ns = ss->ns;
  PetscInt                 *sn, *lev, *seen, q = 0;
  PetscInt64                nmapped = 0;
  PetscBT                   taken;

  PetscFunctionBegin;
  PetscCheck(ss->super[0] == 0 && ss->super[ns] == n, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Supernodal schedule: the partition covers [%" PetscInt_FMT ", %" PetscInt_FMT "), not [0, %" PetscInt_FMT ")", ss->super[0], ss->super[ns], n);
  if (ss->delegated) { /* no schedule: the partition, and the decision */
    for (PetscInt K = 0; K < ns; K++) PetscCheck(ss->super[K + 1] > ss->super[K], PETSC_COMM_SELF, PETSC_ERR_PLIB, "Supernodal schedule: supernode %" PetscInt_FMT " is empty", K);
    PetscInt w = 0;
    for (PetscInt K = 0; K < ns; K++) w = PetscMax(w, ss->super[K + 1] - ss->super[K]);
    PetscCheck(ns > 0 && w == ss->max_w && w < ss->min_width, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Supernodal schedule: delegated with a supernode of width %" PetscInt_FMT " (recorded %" PetscInt_FMT "), not below %" PetscInt_FMT, w, ss->max_w, ss->min_width);
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscMalloc3(n + 1, &sn, ns + 1, &lev, ns + 1, &seen));
  for (PetscInt K = 0; K < ns; K++) {
    PetscCheck(ss->super[K + 1] > ss->super[K], PETSC_COMM_SELF, PETSC_ERR_PLIB, "Supernodal schedule: supernode %" PetscInt_FMT " is empty", K);
    for (PetscInt t = ss->super[K]; t < ss->super[K + 1]; t++) sn[t] = K;
    seen[K] = 0;
    lev[K]  = -1;
  }
  PetscCheck(ss->slevptr[0] == 0 && ss->slevptr[ss->nlevels] == ns, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Supernodal schedule: the levels hold %" PetscInt_FMT " of %" PetscInt_FMT " supernodes", ss->slevptr[ss->nlevels] - ss->slevptr[0], ns);
  for (PetscInt l = 0; l < ss->nlevels; l++) {
    PetscCheck(ss->slevptr[l + 1] > ss->slevptr[l] && ss->nteam[l] >= 0 && ss->nteam[l] <= ss->slevptr[l + 1] - ss->slevptr[l], PETSC_COMM_SELF, PETSC_ERR_PLIB, "Supernodal schedule: level %" PetscInt_FMT " is empty or its team part malformed", l);
    PetscCheck(ss->block[l] >= 32 && ss->block[l] <= SPTRSV_SUPERNODE_BLOCK_MAX && ss->block[l] % 32 == 0 && ss->wmax[l] <= SPTRSV_SUPERNODE_TEAM_MAX_WIDTH, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Supernodal schedule: level %" PetscInt_FMT ": blocks of %d threads, widest team supernode %" PetscInt_FMT, l, ss->block[l], ss->wmax[l]);
    for (PetscInt k = ss->slevptr[l]; k < ss->slevptr[l + 1]; k++) {
      const PetscInt K = ss->sorder[k];
      PetscCheck(K >= 0 && K < ns && !seen[K], PETSC_COMM_SELF, PETSC_ERR_PLIB, "Supernodal schedule: position %" PetscInt_FMT " holds supernode %" PetscInt_FMT " (out of range or twice)", k, K);
      seen[K] = 1;
      lev[K]  = l;
      if (k < ss->slevptr[l] + ss->nteam[l]) PetscCheck(ss->super[K + 1] - ss->super[K] <= ss->wmax[l], PETSC_COMM_SELF, PETSC_ERR_PLIB, "Supernodal schedule: team supernode %" PetscInt_FMT " is wider than its level's %" PetscInt_FMT, K, ss->wmax[l]);
      for (PetscInt t = ss->super[K]; t < ss->super[K + 1]; t++, q++) PetscCheck(plan->order[q] == t, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Supernodal schedule: order[%" PetscInt_FMT "] is %" PetscInt_FMT ", expected row %" PetscInt_FMT, q, plan->order[q], t);
    }
  }
  for (PetscInt K = 0; K < ns; K++) {
    for (PetscInt c = ss->uptr[K]; c < ss->uptr[K + 1]; c++) {
      const PetscInt j = ss->uidx[c];
      PetscCheck(j >= 0 && j < n && (j < ss->super[K] || j >= ss->super[K + 1]) && (c == ss->uptr[K] || j > ss->uidx[c - 1]), PETSC_COMM_SELF, PETSC_ERR_PLIB, "Supernodal schedule: supernode %" PetscInt_FMT ": outside index %" PetscInt_FMT " not ascending or inside", K, j);
    }
    for (PetscInt64 d = ss->dptr[K]; d < ss->dptr[K + 1]; d++) nmapped += ss->dmap[d] >= 0;
    for (PetscInt64 o = ss->optr[K]; o < ss->optr[K + 1]; o++) nmapped += ss->omap[o] >= 0;
  }
  PetscCheck(nmapped == op->nnz, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Supernodal schedule: %" PetscInt64_FMT " stored values map to entries of op(T), it has %" PetscInt_FMT, nmapped, op->nnz);
  /* every stored value maps a distinct entry whose (row, column) is the slot's (the entry lies in row i's range of
     op(T) and has column j): with as many mapped slots as entries, every entry is stored exactly once, at its place (a
     slot's coordinates name one slot: U_S ascending); and an entry outside its row's supernode reads a supernode of an
     earlier level. One pass over the slots (a search per entry made this check a tenth of a large factor's setup) */
  PetscCall(PetscBTCreate(op->nnz, &taken));
  for (PetscInt K = 0; K < ns; K++) {
    const PetscInt s = ss->super[K], w = ss->super[K + 1] - s, m = ss->uptr[K + 1] - ss->uptr[K];
    const PetscInt *U = ss->uidx + ss->uptr[K];

    PetscCheck(ss->dptr[K + 1] - ss->dptr[K] == (PetscInt64)w * w && ss->optr[K + 1] - ss->optr[K] == (PetscInt64)w * m, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Supernodal schedule: supernode %" PetscInt_FMT " (width %" PetscInt_FMT ", %" PetscInt_FMT " outside) stores %" PetscInt64_FMT " diagonal-block and %" PetscInt64_FMT " off-diagonal slots", K, w, m, ss->dptr[K + 1] - ss->dptr[K], ss->optr[K + 1] - ss->optr[K]);
    /* slot q of the diagonal block is (s + q % w, s + q / w); of the off-diagonal block, line s + q / m and U[q % m]:
       walked as two loops (no division per slot) */
    for (PetscInt jj = 0; jj < w; jj++) {
      const PetscInt *dm = ss->dmap + ss->dptr[K] + (PetscInt64)jj * w;

      for (PetscInt ii = 0; ii < w; ii++) {
        const PetscInt e = dm[ii], i = s + ii, j = s + jj;

        if (e < 0) continue;
        PetscCheck(e < op->nnz && !PetscBTLookupSet(taken, e) && e >= op->ri[i] && e < op->ri[i + 1] && op->rj[e] == j, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Supernodal schedule: the diagonal block of supernode %" PetscInt_FMT " stores entry %" PetscInt_FMT " at (%" PetscInt_FMT ", %" PetscInt_FMT "): not that entry's place, or stored twice", K, e, i, j);
      }
    }
    for (PetscInt ll = 0; ll < w; ll++) {
      const PetscInt *om = ss->omap + ss->optr[K] + (PetscInt64)ll * m, line = s + ll;

      for (PetscInt c = 0; c < m; c++) {
        const PetscInt e = om[c], other = U[c], i = ss->push ? other : line, j = ss->push ? line : other;

        if (e < 0) continue;
        PetscCheck(e < op->nnz && !PetscBTLookupSet(taken, e) && e >= op->ri[i] && e < op->ri[i + 1] && op->rj[e] == j, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Supernodal schedule: an off-diagonal block of supernode %" PetscInt_FMT " stores entry %" PetscInt_FMT " at (%" PetscInt_FMT ", %" PetscInt_FMT "): not that entry's place, or stored twice", K, e, i, j);
        PetscCheck(lev[sn[j]] < lev[sn[i]], PETSC_COMM_SELF, PETSC_ERR_PLIB, "Supernodal schedule: row %" PetscInt_FMT " (supernode %" PetscInt_FMT ", level %" PetscInt_FMT ") reads column %" PetscInt_FMT " of supernode %" PetscInt_FMT " at level %" PetscInt_FMT, i, sn[i], lev[sn[i]], j, sn[j], lev[sn[j]]);
      }
    }
  }
  PetscCall(PetscBTDestroy(&taken));
  for (PetscInt K = 0; K < ns; K++) {
    const PetscInt w = ss->super[K + 1] - ss->super[K];
    for (PetscInt i = 0; i < w; i++) PetscCheck(ss->dmap[ss->dptr[K] + i + (PetscInt64)i * w] == SPTRSV_SUPERNODE_DIAG, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Supernodal schedule: supernode %" PetscInt_FMT ": diagonal entry %" PetscInt_FMT " not marked", K, i);
  }
  PetscCall(PetscFree3(sn, lev, seen));
  PetscCall(SpTrsvSupernodalSplitCheck(ss));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvSupernodalSplitCheck - the split tasks: every task of level l's launches names a split supernode of level l and
  a row range inside it (push's second launch: a column chunk inside U_K too); every row (push's second launch: every
  row and column chunk) of every split supernode is in exactly one task of each launch
*/
PetscErrorCode SpTrsvSupernodalSplitCheck(const SpTrsvSupernodalSchedule *ss)
{
  const PetscInt ns = ss->ns, C = SPTRSV_SUPERNODE_SPLIT_COLS;
  PetscInt      *lvs;
  PetscInt64    *boff, nb = 0;
  char          *mark;

  PetscFunctionBegin;
  PetscCall(PetscMalloc2(ns + 1, &lvs, ns + 1, &boff));
  for (PetscInt K = 0; K < ns; K++) lvs[K] = -1;
  PetscCheck(ss->tlev[0] == 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Supernodal schedule: split tasks start at %" PetscInt_FMT, ss->tlev[0]);
  for (PetscInt l = 0; l < ss->nlevels; l++) {
    PetscCheck(ss->nsplit[l] >= 0 && ss->nteam[l] + ss->nsplit[l] <= ss->slevptr[l + 1] - ss->slevptr[l], PETSC_COMM_SELF, PETSC_ERR_PLIB, "Supernodal schedule: level %" PetscInt_FMT ": %" PetscInt_FMT " team and %" PetscInt_FMT " split supernodes of %" PetscInt_FMT, l, ss->nteam[l], ss->nsplit[l], ss->slevptr[l + 1] - ss->slevptr[l]);
    PetscCheck(ss->tlev[2 * l + 1] >= ss->tlev[2 * l] && ss->tlev[2 * l + 2] >= ss->tlev[2 * l + 1] && (ss->nsplit[l] > 0) == (ss->tlev[2 * l + 2] > ss->tlev[2 * l]), PETSC_COMM_SELF, PETSC_ERR_PLIB, "Supernodal schedule: level %" PetscInt_FMT ": split task ranges malformed", l);
    for (PetscInt k = ss->slevptr[l] + ss->nteam[l]; k < ss->slevptr[l] + ss->nteam[l] + ss->nsplit[l]; k++) {
      const PetscInt K = ss->sorder[k], w = ss->super[K + 1] - ss->super[K], m = ss->uptr[K + 1] - ss->uptr[K];
      PetscCheck(ss->invert && w <= SPTRSV_SUPERNODE_INVERT_MAX_WIDTH, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Supernodal schedule: split supernode %" PetscInt_FMT " (width %" PetscInt_FMT ") is not inverted", K, w);
      lvs[K]  = l;
      boff[K] = nb;
      nb += (PetscInt64)w * (ss->push ? PetscMax(1, (m + C - 1) / C) : 1);
    }
  }
  for (PetscInt l = 0, run = 0, rem = 0; l < ss->nlevels; l++) { /* fused runs: team supernodes only, the run's geometry */
    PetscCheck(rem > 0 ? ss->fuse[l] == 0 : (ss->fuse[l] >= 1 && l + ss->fuse[l] <= ss->nlevels), PETSC_COMM_SELF, PETSC_ERR_PLIB, "Supernodal schedule: level %" PetscInt_FMT ": fused run of %" PetscInt_FMT " levels where %" PetscInt_FMT " more of a run were due", l, ss->fuse[l], rem);
    if (ss->fuse[l] > 1) {
      run = l;
      rem = ss->fuse[l];
    }
    if (rem > 0) {
      PetscCheck(ss->slevptr[l + 1] - ss->slevptr[l] == ss->nteam[l] && ss->wmax[l] <= ss->wmax[run] && ss->block[l] <= ss->block[run], PETSC_COMM_SELF, PETSC_ERR_PLIB, "Supernodal schedule: level %" PetscInt_FMT " in a fused run is not all team supernodes within the run's geometry", l);
      rem--;
    }
  }
  PetscCall(PetscMalloc1(nb + 1, &mark));
  for (PetscInt phase = 0; phase < 2; phase++) {
    const PetscBool tiles = (PetscBool)(phase == 1 && ss->push);
    PetscCall(PetscArrayzero(mark, nb + 1));
    for (PetscInt l = 0; l < ss->nlevels; l++)
      for (PetscInt q = ss->tlev[2 * l + phase]; q < ss->tlev[2 * l + phase + 1]; q++) {
        const PetscInt *t = ss->task + SPTRSV_SUPERNODE_TASK * q, K = t[0];
        PetscInt        w, m, nc;
        PetscCheck(K >= 0 && K < ns && lvs[K] == l, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Supernodal schedule: split task %" PetscInt_FMT " of level %" PetscInt_FMT " names supernode %" PetscInt_FMT ", not a split supernode of that level", q, l, K);
        w  = ss->super[K + 1] - ss->super[K];
        m  = ss->uptr[K + 1] - ss->uptr[K];
        nc = ss->push ? PetscMax(1, (m + C - 1) / C) : 1; /* the stride of K's marks */
        PetscCheck(t[1] >= 0 && t[1] < t[2] && t[2] <= w && t[3] >= 0 && t[3] % C == 0 && t[3] / C < (tiles ? nc : 1), PETSC_COMM_SELF, PETSC_ERR_PLIB, "Supernodal schedule: split task %" PetscInt_FMT ": rows [%" PetscInt_FMT ", %" PetscInt_FMT "), column %" PetscInt_FMT " outside supernode %" PetscInt_FMT, q, t[1], t[2], t[3], K);
        for (PetscInt i = t[1]; i < t[2]; i++) {
          char *mk = mark + boff[K] + (PetscInt64)i * nc + t[3] / C;
          PetscCheck(!*mk, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Supernodal schedule: row %" PetscInt_FMT " of split supernode %" PetscInt_FMT " is in two tasks of one launch", i, K);
          *mk = 1;
        }
      }
    for (PetscInt K = 0; K < ns; K++) {
      const PetscInt w = ss->super[K + 1] - ss->super[K], m = ss->uptr[K + 1] - ss->uptr[K], nc = ss->push ? PetscMax(1, (m + C - 1) / C) : 1;
      if (lvs[K] < 0) continue;
      for (PetscInt i = 0; i < w; i++)
        for (PetscInt c = 0; c < (tiles ? nc : 1); c++) PetscCheck(mark[boff[K] + (PetscInt64)i * nc + c], PETSC_COMM_SELF, PETSC_ERR_PLIB, "Supernodal schedule: row %" PetscInt_FMT " (column chunk %" PetscInt_FMT ") of split supernode %" PetscInt_FMT " is in no task of launch %" PetscInt_FMT, i, c, K, phase);
    }
  }
  PetscCall(PetscFree(mark));
  PetscCall(PetscFree2(lvs, boff));
  PetscFunctionReturn(PETSC_SUCCESS);
}
