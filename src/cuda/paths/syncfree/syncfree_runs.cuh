/*
   The runs dispatch's window solve (include/sptrsv/paths/syncfree.h, "Runs dispatch"): the device functions one warp
   runs for one window, its scan's multipliers and the window itself. Included by syncfree.cu after the sync-free path's
   device state (SpTrsvCUDASyncFree) and its solution-word helpers (SpTrsvSyncFreeLoad, SpTrsvSyncFreeWait,
   SpTrsvSyncFreePublish), which the level dispatch's warps share; the kernel that dispatches the windows is there.
*/
#pragma once

/* the runs dispatch's scan multipliers, before the waits are over: the M and K of every map (the lane's rows' composition,
   then each step of the scan along the lanes) depend on the factor alone, never on x, so only C is left for the critical
   path. ch[r] becomes row r's m, bit r of chained says whether it has its chain entry; coef[q] is the M that step q
   (distance 2^q) multiplies its neighbour's C by, bit q of steps says whether it does (its map does not start at a row
   without its chain entry, and lane >= 2^q). coef[0] is left unset with one row per lane: it is that row's m, ch[0],
   wherever the step composes on a lane with a row (a lane without rows composes with -0 instead of 1: such lanes are the
   warp's last, and the scan carries values only upward, so nothing published reads theirs): a register less across
   the waits (the 7-point kernel keeps 64). After the waits a step is one shuffle of C and one multiply-add, the same
   operations in the same order as SpTrsvSyncFreeRunAfter's. Called by the whole warp (shuffles) */
template <bool UNIT, int R>
__device__ __forceinline__ void SpTrsvSyncFreeRunMultipliers(int lane, int k0, int kb, int ke, const int *jq, const PetscScalar *aq, const PetscScalar *di, PetscScalar *ch, unsigned int *chained, PetscScalar *coef, unsigned int *steps)
{
  PetscScalar M = 1;
  int         K = 0;

  #pragma unroll
  for (int r = 0; r < R; r++) {
    const int c = jq[r] >= k0; /* the chain entry (at or after k0: position k - 1) */
    ch[r]       = -SpTrsvFinalize<UNIT, false>(c ? aq[r] : (PetscScalar)0, di[r], 0, 0); /* m */
    *chained |= c ? 1u << r : 0u;
    if (kb + r < ke) { /* SpTrsvSyncFreeRunAppend's M and K */
      M = SpTrsvSyncFreeRunAppendM(M, ch[r], c);
      K = SpTrsvSyncFreeRunAppendK(K, c);
    }
  }
  #pragma unroll
  for (int q = 0; q < 5; q++) { /* SpTrsvSyncFreeRunAfter's M and K */
    const int         d  = 1 << q;
    const PetscScalar Mp = __shfl_up_sync(SPTRSV_FULL_MASK, M, d);
    const int         Kp = __shfl_up_sync(SPTRSV_FULL_MASK, K, d);
    if (R > 1 || q > 0) coef[q] = M;
    if (lane >= d && !K) {
      *steps |= 1u << q;
      M = M * Mp;
      K = Kp;
    }
  }
}

/*
   Runs dispatch (include/sptrsv/paths/syncfree.h): warp w solves the window of positions [k0, k1) (k0 = wstart[w],
   k1 - k0 = wlanes[w]: the windows go out in wavefront order), at most 32 R rows;
   lane l holds the per = ceil((k1 - k0) / 32) consecutive positions from k0 + l per.
   1. Waits. The lane's entries are one contiguous range of the CSR (its rows are consecutive positions). An entry whose
      column (a dispatch position: the indices are relabelled) is below k0 is a dependency on an earlier window: its
      word is loaded, B entries at a time (f.run_batch: the analysis's choice, by default all of the longest lane's,
      up to SPTRSV_SYNCFREE_RUN_BATCH) with every load of a batch in flight at once; while
      some are at the sentinel one lane of the warp spins on the latest of them, the others at the warp barrier, then
      each lane loads again, all at once, those still at it; again while any is (poll rounds: the warp never spins
      divergent). Every lane runs the warp's largest number of batches and poll rounds (past its own entries with
      none), so the warp-wide maximum and __syncwarp of a round are reached by all lanes. An entry with column >= k0
      is the row's chain entry (the analysis admits only position k - 1 inside the window, the row's last entry): it is
      not waited for, and is read with the row pointers, before the batches. Once a batch's words are in, its entries
      go into the rows' sums without a branch (predicated fused multiply-adds; the row of an entry from the rows'
      offsets, compile-time with one row per lane): this runs on the critical path after the last dependency arrives.
      The CUDA setup sorts each row's entries by position, so a lane loads its rows' latest dependencies last (with
      one row per lane, in its last batch), while the window waits for them.
   2. Maps. Row k gives c_k = (b_k - sum of its other entries times their x, in position order) d_k and m_k = -T(k, k-1) d_k
      (d_k the inverted diagonal, 1 for a unit triangle), so x_k = c_k + m_k x_{k-1}; a row without its chain entry (the window's first row among them) is the constant map x_k = c_k.
      The lane composes its rows' maps, the warp scans the 32 compositions (shuffles), and each lane applies its maps
      to the x its left neighbour ends on. The maps' multipliers (M, and K: whether a map ignores its argument) depend on
      the factor alone: they are composed and scanned while the first batch's words load (SpTrsvSyncFreeRunMultipliers),
      so after the last dependency arrives a scan step is one shuffle of C and one multiply-add.
   Deadlock freedom: windows go out by ticket in the analysis's order, by depth in the windows' DAG (a topological
   order: SpTrsvSyncFreeScheduleCheck checks that every window a row waits for is dispatched earlier); a lane waits only
   for positions below its window's k0, in earlier windows, whose warps were dispatched before and are running or
   done (the argument of the file header, with a window for a row); the shuffles involve the warp's own lanes only.
   With -mat_sptrsv_run_poll all the waits are the same, by every lane at once and without the barrier: a round ends
   for the whole warp (__any_sync) once no lane misses a word.
   The same solution to rounding as the substitution: the scan re-associates the chain's products to carry x to the
   lanes' ends, and each row's x is then computed from the x before it with the substitution's arithmetic, (s - a x) d
   (SpTrsvSyncFreeRunRow: c + m x would lose the digits where s and a x cancel). A row without its
   chain entry restarts the chain (a constant map, flagged through the scan), so NaN and Inf reach exactly the rows that
   depend on them. Limit: the scan multiplies up to 32 R of the chain's factors m_k = -T(k, k-1) / T(k, k) before it
   applies them, so a chain whose running product overflows (|m| of about 256 or more on every row of a 128-row stretch
   in double precision) can give NaN where the substitution stays finite; ILU and ICC factors of grid problems have
   |m| < 1. And where a chain's products are large and its sums cancel, the re-associated x a lane starts from carries
   the difference further than the substitution's rounding would: the ILU(0) L of zenios (unit, ill-conditioned: cuSPARSE
   is 4.5e-10 from the host substitution) solves to 1.5e-8 of it (docs/PERFORMANCE.md, runs dispatch run
   20); the automatic dispatch takes the level dispatch there (its windows' path is longer than the levels).
*/
template <bool UNIT, int R, int B, bool LEAN>
__device__ __forceinline__ void SpTrsvSyncFreeRun(const SpTrsvCUDATri &t, const SpTrsvCUDASyncFree &f, int n, const SpTrsvCUDAVecPtrs &v, int w, unsigned int epoch)
{
  static_assert(B >= (R >= 4 ? SPTRSV_SYNCFREE_RUN_BATCH : 4 * R) && B <= SPTRSV_SYNCFREE_RUN_BATCH, "a batch holds at least R 7-point rows' entries");
  const int           lane = threadIdx.x & 31, k0 = __ldg(f.wstart + w), k1 = k0 + __ldg(f.wlanes + w);
  const int           per = (k1 - k0 + 31) >> 5, kb = k0 + lane * per, ke = min(kb + per, k1);
  SpTrsvSyncFreeWord *cur = f.xs + (size_t)(epoch & 1u) * (size_t)n;
  const int           P0 = kb < ke ? __ldg(t.ptr + kb) : 0, P1 = kb < ke ? __ldg(t.ptr + ke) : 0, len = P1 - P0;
  PetscScalar         s[R], ch[R], di[R], aq[R];
  int                 rb[R + 1], row[R], jq[R]; /* rb: the lane's rows' first entries, as offsets from P0 (rb[R] = len); jq, aq: their last entries */
  unsigned int        chained = 0; /* bit r: row r of the lane has its chain entry (depends on the row before it) */

  #pragma unroll
  for (int r = 0; r < R; r++) { /* read-only for the launch: loaded before waiting */
    const int  k   = kb + r;
    const bool act = k < ke;
    rb[r]          = act ? __ldg(t.ptr + k) - P0 : len;
    row[r]         = act ? __ldg(t.order + k) : 0;
    s[r]           = act ? v.b[row[r]] : (PetscScalar)0;
    di[r]          = act ? SpTrsvLoadDiag<UNIT>(t, k) : (PetscScalar)0;
  }
  rb[R] = len;
  #pragma unroll
  for (int r = 0; r < R; r++) { /* row r's last entry, its chain entry when at or after k0 (each row's entries ascend by
                                   position, and the only one at or after k0 is position k - 1, SpTrsvSyncFreeScheduleCheck):
                                   loaded before the batches, none of whose loads waits for it (decided after them) */
    const int q = rb[r + 1] - 1;
    jq[r]       = q >= rb[r] ? __ldg(t.idx + P0 + q) : -1;
    aq[r]       = q >= rb[r] ? __ldg(t.val + P0 + q) : (PetscScalar)0;
  }
  PetscScalar  coef[5]; /* the scan's multipliers (SpTrsvSyncFreeRunMultipliers), computed while the first batch's words load */
  unsigned int steps = 0;
  /* the batches, as many for every lane of the warp (the largest count: the warp-wide steps below are uniform); entry
     offsets from P0 in 32 bits (a lane's entries are a range of the 32-bit CSR) */
  int nb = (len + B - 1) / B;
  for (int d = 16; d > 0; d >>= 1) nb = max(nb, __shfl_xor_sync(SPTRSV_FULL_MASK, nb, d));
  for (int b = 0; b < nb; b++) {
    int                j[B];
    PetscScalar        a[B];
    SpTrsvSyncFreeWord u[B];
  #pragma unroll
    for (int e = 0; e < B; e++) {
      const int  o  = b * B + e;
      const bool in = o < len;
      j[e]          = in ? __ldg(t.idx + P0 + o) : INT_MAX;
      a[e]          = in ? __ldg(t.val + P0 + o) : (PetscScalar)0;
    }
  #pragma unroll
    for (int e = 0; e < B; e++) u[e] = j[e] < k0 ? SpTrsvSyncFreeLoad(cur + j[e]) : 0; /* all in flight at once */
    if (b == 0) SpTrsvSyncFreeRunMultipliers<UNIT, R>(lane, k0, kb, ke, jq, aq, di, ch, &chained, coef, &steps); /* while they load (b uniform) */
    /* while the window waits, one lane polls, the word of the latest position the warp still waits for (in the
       wavefront order, mostly the last of them to be published), the other lanes at the warp barrier; then every lane
       loads again, all at once, its words still at the sentinel; again while any is. After the last dependency is
       published the batch costs about two memory round trips, a waiting window loads one word per round trip, not 32,
       and the warp never spins divergent: lanes spinning each on their own word while the rest of the warp waited at
       the scan's shuffles took 3.5 us to see a word published (H200, a 2-D grid's lines of 1000 rows: the last,
       8-row window of every line waited so on the line before's, 3.3 us per line against 0.4 us) */
    /* -mat_sptrsv_run_poll all (f.poll_all, the same for every warp of the launch): no lane spins alone; every round
       every lane loads again its words still at the sentinel (more loads in flight, one round trip less once the last
       word is published; examples/benchmarks/window_hop.cu, variant allpoll) */
    for (;;) {
      if (LEAN || f.poll_all) { /* LEAN: the default, every lane polling without pause, fixed at compile time */
        bool miss = false;
  #pragma unroll
        for (int e = 0; e < B; e++) miss |= (j[e] < k0) & (u[e] == SPTRSV_SYNCFREE_SENTINEL);
        if (!__any_sync(SPTRSV_FULL_MASK, miss)) break;
        if (!LEAN && f.spin_ns) __nanosleep(f.spin_ns);
      } else {
        int jmax = -1;
  #pragma unroll
        for (int e = 0; e < B; e++)
          if (j[e] < k0 && u[e] == SPTRSV_SYNCFREE_SENTINEL) jmax = max(jmax, j[e]);
        for (int d = 16; d > 0; d >>= 1) jmax = max(jmax, __shfl_xor_sync(SPTRSV_FULL_MASK, jmax, d));
        if (jmax < 0) break;
        if (lane == 0) (void)SpTrsvSyncFreeWait(cur + jmax, f.spin_ns);
        __syncwarp();
      }
  #pragma unroll
      for (int e = 0; e < B; e++)
        if (j[e] < k0 && u[e] == SPTRSV_SYNCFREE_SENTINEL) u[e] = SpTrsvSyncFreeLoad(cur + j[e]);
    }
    /* the batch into the rows' sums, without branches (on the critical path once the last word is in: a branch per
       entry and row cost more than the entries' arithmetic, and grew with B whether its slots held entries or not):
       an entry of row r (its offsets rb, compile-time for R = 1) before the window is fused into s[r] as the
       substitution's s - a x; the chain entries (at or after k0) were read above */
  #pragma unroll
    for (int e = 0; e < B; e++) {
      const int         o   = b * B + e;
      const bool        dep = j[e] < k0;
      const PetscScalar x   = SpTrsvSyncFreeValue(u[e]);
  #pragma unroll
      for (int r = 0; r < R; r++)
        if (dep && (R == 1 || (o >= rb[r] && o < rb[r + 1]))) s[r] = fma(-a[e], x, s[r]);
    }
  }
  if (nb == 0) SpTrsvSyncFreeRunMultipliers<UNIT, R>(lane, k0, kb, ke, jq, aq, di, ch, &chained, coef, &steps); /* no batch: a window of diagonal rows */
  /* the lane's maps and their composition C + M v (the identity for a lane without rows; the arithmetic is shared with
     the unit test's emulation: SpTrsvSyncFreeRunAppend, SpTrsvSyncFreeRunAfter, SpTrsvSyncFreeRunApply in syncfree.h):
     C alone, its multipliers computed before the waits (above) */
  PetscScalar C = 0;
  #pragma unroll
  for (int r = 0; r < R; r++)
    if (kb + r < ke) C = SpTrsvSyncFreeRunApply(C, SpTrsvFinalize<UNIT, false>(s[r], di[r], 0, 0) /* c */, ch[r], (int)(chained >> r & 1u));
  /* inclusive scan along the lanes: lane l gets F_l o ... o F_0; the window's first row has no chain entry, so this is
     a constant, the x of lane l's last row */
  #pragma unroll
  for (int q = 0; q < 5; q++) {
    const PetscScalar Cp = __shfl_up_sync(SPTRSV_FULL_MASK, C, 1 << q);
    C                    = SpTrsvSyncFreeRunApply(Cp, C, R == 1 && q == 0 ? ch[0] : coef[q], (int)(steps >> q & 1u)); /* C + M Cp where the step composes */
  }
  PetscScalar xp = __shfl_up_sync(SPTRSV_FULL_MASK, C, 1);
  if (lane == 0) xp = 0;
  #pragma unroll
  for (int r = 0; r < R; r++)
    if (kb + r < ke) {
      xp = SpTrsvSyncFreeRunRow(xp, s[r], aq[r], di[r], (int)(chained >> r & 1u), UNIT); /* the substitution's arithmetic */
      SpTrsvSyncFreePublish(f, n, v, cur, epoch, kb + r, row[r], xp);
    }
}
