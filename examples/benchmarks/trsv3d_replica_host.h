/*
   trsv3d_replica_host.h: the host side of trsv3d_breakdown.cu's replicas of the production runs kernel (issue 33,
   twenty-first session; the kernels: trsv3d_windows.cuh), included after its CSR, HostSolve and CK: the windows in the
   production order and the triangle at their positions, built on the host and copied to the device (ToDevice, which Upload uses too).
*/
#pragma once

/* a device copy of v (one element at least, so that an empty vector still gets a pointer to free) */
template <class T>
static T *ToDevice(const std::vector<T> &v)
{
  T *d;
  CK(cudaMalloc(&d, sizeof(T) * std::max<size_t>(1, v.size())));
  if (!v.empty()) CK(cudaMemcpy(d, v.data(), sizeof(T) * v.size(), cudaMemcpyHostToDevice));
  return d;
}

/* the tiles (or 32-row windows, nc per line) by c + ty + tz, then tz, then c; POS: then tz, then ty (the production
   runs dispatch's order: by depth in the windows' DAG, then by position) */
static std::vector<int4> TileOrder(int ny, int nz, int nc, bool POS)
{
  std::vector<int4> tl;
  for (int s = 0; s < ny + nz + nc - 2; s++)
    for (int tz = 0; tz < nz; tz++)
      for (int q = 0; q < nc; q++) {
        const int c = POS ? nc - 1 - q : q;
        if (s - tz - c >= 0 && s - tz - c < ny) tl.push_back(make_int4(s - tz - c, tz, c, 0));
      }
  return tl;
}

/* the values of the ILU(0) factor of the 7-point Laplacian (diagonal 6, neighbours -1) on L's pattern: L(i, j) = -1 / d_j
   with d_i = 6 - sum over i's lower neighbours j of 1 / d_j; and b uniform in [0, 1) */
static void IluValues(const CSR &L, std::vector<double> &lv, std::vector<double> &b)
{
  std::vector<double> dd(L.n, 6.0);
  unsigned long long  r = 12345;
  lv.resize(L.rj.size());
  b.resize(L.n);
  for (int i = 0; i < L.n; i++) {
    for (int q = L.ri[i]; q < L.ri[i + 1]; q++) {
      lv[q] = -1.0 / dd[L.rj[q]];
      dd[i] -= 1.0 / dd[L.rj[q]];
    }
    r    = r * 6364136223846793005ull + 1442695040888963407ull;
    b[i] = (double)(r >> 11) * (1.0 / 9007199254740992.0);
  }
}

/* the runs dispatch's arrays on the device: the windows of 32 rows of a grid line in the production order (wstart,
   wlanes), the rows at their positions (order: position -> row) with the triangle's rows in position order and their
   columns as positions, sorted (ptr, idx, val with the values lv); RELABEL false: the positions are the rows */
struct RunDev {
  int    *ws, *wl, *ptr, *idx, *ord;
  double *val;
  int     nw;
};

static RunDev RunUpload(int N, const CSR &L, const std::vector<double> &lv, bool RELABEL)
{
  const int           n  = L.n, nc = (N + 31) / 32;
  std::vector<int4>   tl = TileOrder(N, N, nc, true);
  const int           nw = (int)tl.size();
  std::vector<int>    ws(nw), wl(nw), pos(n), order(n), ptr(n + 1), idx;
  std::vector<double> val;
  RunDev              g;
  int                 k = 0;
  for (int w = 0; w < nw; w++) {
    const int r0 = N * (tl[w].x + N * tl[w].y) + 32 * tl[w].z, len = std::min(32, N - 32 * tl[w].z);
    ws[w]        = RELABEL ? k : r0;
    wl[w]        = len;
    for (int q = 0; q < len; q++) pos[r0 + q] = RELABEL ? k++ : r0 + q;
  }
  for (int i = 0; i < n; i++) order[pos[i]] = i;
  ptr[0] = 0;
  for (int kk = 0; kk < n; kk++) {
    const int                           i = order[kk];
    std::vector<std::pair<int, double>> e;
    for (int q = L.ri[i]; q < L.ri[i + 1]; q++) e.push_back({pos[L.rj[q]], lv[q]});
    std::sort(e.begin(), e.end());
    for (auto &pe : e) {
      idx.push_back(pe.first);
      val.push_back(pe.second);
    }
    ptr[kk + 1] = (int)idx.size();
  }
  g.nw  = nw;
  g.ws  = ToDevice(ws);
  g.wl  = ToDevice(wl);
  g.ptr = ToDevice(ptr);
  g.idx = ToDevice(idx);
  g.ord = ToDevice(order);
  g.val = ToDevice(val);
  return g;
}

static void RunFree(RunDev &g)
{
  CK(cudaFree(g.ws));
  CK(cudaFree(g.wl));
  CK(cudaFree(g.ptr));
  CK(cudaFree(g.idx));
  CK(cudaFree(g.ord));
  CK(cudaFree(g.val));
}

/* the median interval of R solves launched back to back (a CUDA event before each, one after the last) after two
   warm-ups: launch(r) runs solve r (r = 0, 1 the warm-ups) */
template <class F>
static double BackToBack(int R, F launch)
{
  std::vector<cudaEvent_t> ev(R + 1);
  std::vector<float>       iv(R);
  for (auto &e : ev) CK(cudaEventCreate(&e));
  for (int r = 0; r < R + 2; r++) {
    if (r >= 2) CK(cudaEventRecord(ev[r - 2]));
    launch(r);
  }
  CK(cudaEventRecord(ev[R]));
  CK(cudaEventSynchronize(ev[R]));
  CK(cudaGetLastError());
  for (int r = 0; r < R; r++) CK(cudaEventElapsedTime(&iv[r], ev[r], ev[r + 1]));
  std::sort(iv.begin(), iv.end());
  for (auto &e : ev) CK(cudaEventDestroy(e));
  return iv[R / 2];
}

/* BackToBack of a KRunProd kernel (RunArgs f): the halves of the words swap each solve, and solve r counts its
   tickets from r f.nw (the counter is not reset between the solves) */
template <class K>
static double RunBackToBack(int R, K kernel, const RunArgs &f, unsigned int *ticket)
{
  return BackToBack(R, [&](int r) {
    RunArgs h = f;
    if (r & 1) std::swap(h.cur, h.other);
    kernel<<<(unsigned)f.nw, 32>>>(h, ticket, (unsigned)r * (unsigned)f.nw);
  });
}
