/*
   The time-stamp trace of trsv3d_breakdown.cu's tile and window kernels (TRSV3D_TRACE), read on the host: one solve
   stamps, per line ln (y + N z) and 32-row chunk c, four %globaltimer values (chunk start, its memory words in, its block
   words in, published). TraceReport prints two comment lines:

   "# trace": the critical path found by walking back from the last chunk published through the latest producer of each
   chunk (x: the line's own chain; y, z: the neighbour line, inside the block or through memory), its hops by kind with
   their mean cost and its parts (issue 33, run 2).

   "# steps": every chunk's step, its publication minus its latest producer's (a chunk with at least one producer), over
   all chunks: mean, quantiles; the same over the critical path's chunks; and a Monte Carlo of the longest path: each
   chunk's step drawn independently from all chunks' steps, the finish times propagated through the chunks' DAG (a
   chunk finishes its step after its latest producer) and the longest finish kept, the mean of TRSV3D_TRACE_MC draws
   (default 8). Against "hops x mean step" (the path's hop count times the mean step: what a bound of levels x one hop
   assumes) the Monte Carlo shows how much of the solve the longest path's selection of slow steps explains: with
   random step times, the latest of two or three producers is slower than a typical one, at every step of the path
   (issue 33, run 5).
*/
#pragma once
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

static inline void TraceReport(const char *name, int N, int nch, int WY, int WZ, bool SH, const std::vector<unsigned long long> &h)
{
  auto T = [&](int ln, int c, int k) { return h[4 * ((size_t)ln * nch + c) + k]; };
  /* the latest producer of chunk (ln, c): its publication, and its kind (0 x chain, 1 y in block, 2 y global, 3 z in
     block, 4 z global; 5 none) */
  auto latest = [&](int ln, int c, int *kind, int *pl, int *pc) {
    const int          yy = ln % N, zz = ln / N;
    unsigned long long best = 0;
    *kind = 5;
    *pl = *pc = -1;
    if (c > 0 && T(ln, c - 1, 3) >= best) best = T(ln, c - 1, 3), *kind = 0, *pl = ln, *pc = c - 1;
    if (yy > 0 && T(ln - 1, c, 3) >= best) best = T(ln - 1, c, 3), *kind = (WY > 1 && yy % WY && SH) ? 1 : 2, *pl = ln - 1, *pc = c;
    if (zz > 0 && T(ln - N, c, 3) >= best) best = T(ln - N, c, 3), *kind = (WZ > 1 && zz % WZ && SH) ? 3 : 4, *pl = ln - N, *pc = c;
    return best;
  };
  const char        *kn[6] = {"x", "y-blk", "y-glob", "z-blk", "z-glob", "start"};
  double             cnt[6] = {0}, sum[6] = {0}, wg[6] = {0}, wb[6] = {0}, cp[6] = {0};
  unsigned long long t0 = ~0ull, tend = 0;
  int                ln = 0, c = 0;
  std::vector<double> all, onpath;
  for (int l = 0; l < N * N; l++)
    for (int q = 0; q < nch; q++) {
      int                kind, pl, pc;
      const unsigned long long p = latest(l, q, &kind, &pl, &pc);
      t0 = std::min(t0, T(l, q, 0));
      if (T(l, q, 3) > tend) tend = T(l, q, 3), ln = l, c = q;
      if (kind != 5) all.push_back((double)T(l, q, 3) - (double)p);
    }
  for (;;) { /* back along the latest producer */
    int                      kind, pl, pc;
    const unsigned long long best = latest(ln, c, &kind, &pl, &pc);
    const double             hop  = kind == 5 ? (double)(T(ln, c, 3) - t0) : (double)T(ln, c, 3) - (double)best;
    cnt[kind] += 1;
    sum[kind] += hop;
    wg[kind] += kind == 5 ? 0 : (double)T(ln, c, 1) - (double)best;
    wb[kind] += (double)T(ln, c, 2) - (double)T(ln, c, 1);
    cp[kind] += (double)T(ln, c, 3) - (double)T(ln, c, 2);
    if (kind == 5) break;
    onpath.push_back(hop);
    ln = pl;
    c  = pc;
  }
  printf("# trace %s N=%d: solve %.1f us; critical path by the latest producer:", name, N, (double)(tend - t0) * 1e-3);
  for (int k = 0; k < 6; k++)
    if (cnt[k]) printf(" %s %d hops %.3f us (to global words in %.3f, block words %.3f, scan+publish %.3f)", kn[k], (int)cnt[k], sum[k] / cnt[k] * 1e-3, wg[k] / cnt[k] * 1e-3, wb[k] / cnt[k] * 1e-3, cp[k] / cnt[k] * 1e-3);
  printf("\n");
  if (all.empty()) return;
  auto mean = [](const std::vector<double> &v) {
    double s = 0;
    for (double x : v) s += x;
    return v.empty() ? 0.0 : s / (double)v.size();
  };
  std::vector<double> sorted = all;
  std::sort(sorted.begin(), sorted.end());
  auto q = [&](double f) { return sorted[std::min(sorted.size() - 1, (size_t)(f * (double)sorted.size()))]; };
  /* the longest path with independent steps drawn from all chunks' steps (the DAG: (l, c) after (l, c - 1), (l - 1, c),
     (l - N, c); l ascending, c ascending is a topological order) */
  const int           draws = getenv("TRSV3D_TRACE_MC") ? atoi(getenv("TRSV3D_TRACE_MC")) : 8;
  std::mt19937_64     rng(12345);
  std::vector<double> fin((size_t)N * N * nch);
  double              mc = 0;
  for (int d = 0; d < draws; d++) {
    double longest = 0;
    for (int l = 0; l < N * N; l++)
      for (int cc = 0; cc < nch; cc++) {
        const int yy = l % N, zz = l / N;
        double    p  = -1;
        if (cc > 0) p = std::max(p, fin[(size_t)l * nch + cc - 1]);
        if (yy > 0) p = std::max(p, fin[(size_t)(l - 1) * nch + cc]);
        if (zz > 0) p = std::max(p, fin[(size_t)(l - N) * nch + cc]);
        const double f = p < 0 ? 0.0 : p + all[rng() % all.size()];
        fin[(size_t)l * nch + cc] = f;
        longest                   = std::max(longest, f);
      }
    mc += longest / (double)draws;
  }
  const int hops = (int)onpath.size();
  printf("# steps %s N=%d: all %zu chunks' steps (publication after the latest producer's) mean %.3f us, p10 %.3f, median %.3f, p90 %.3f, p99 %.3f; the critical path's %d steps mean %.3f us; solve after the first chunk %.1f us; hops x mean step %.1f us; Monte Carlo longest path of independent steps drawn from all chunks' (%d draws) %.1f us\n",
         name, N, all.size(), mean(all) * 1e-3, q(0.10) * 1e-3, q(0.5) * 1e-3, q(0.9) * 1e-3, q(0.99) * 1e-3, hops, mean(onpath) * 1e-3, (double)(tend - t0) * 1e-3 - sum[5] * 1e-3, hops * mean(all) * 1e-3, draws, mc * 1e-3);
}
