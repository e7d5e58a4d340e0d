/*
   Split supernodes of sptrsv_supernodal on the GPU: a level whose inverted supernodes the analysis split
   (include/sptrsv/paths/supernodal.h, "Split tasks"; -mat_sptrsv_supernode_split) runs them as two launches of row
   tasks over many blocks, so that a level with few wide supernodes uses the whole GPU at the bandwidth of a GEMV.

   Numeric phase: SpTrsvSupernodeInvertSplit computes X = D^{-1} of every split supernode, one block per column j (a
   column sweep in shared memory: x = e_j, then for each k in dependency order x_k *= D_kk and x_i -= D_ik x_k for the
   rows after k, one barrier per k: the arithmetic of SpTrsvSupernodeInvertColumn, sums in the same order), and stores
   X row-major (X_ij at X[dptr[K] + i w + j]) so that the solve reads a row with a warp, coalesced. Team supernodes keep
   their column-major X (supernodal.cu).

   Solve, level l (r: a buffer of n scalars indexed by line, so the supernodes of a level never share an entry):
     pull  launch 1 (SpTrsvSupernodeSplitRows<0>): per task, a warp per row i: r_i = b_i - O_i x[U_K]
           launch 2 (SpTrsvSupernodeSplitRows<1>): per task, a warp per row i: x_i = X_i r_K
     push  launch 1 (SpTrsvSupernodeSplitRows<2>): per task, a warp per row i: r_i = X_i x_K
           launch 2 (SpTrsvSupernodeSplitPush):    per tile (rows [r0, r1), columns [c0, c0 + 256)), a thread per
           column c: x[U_K[c]] -= sum_{t in [r0, r1)} O[t m + c] r_t (atomicAdd); tiles with c0 = 0 also write x_t = r_t.
   With -mat_sptrsv_invert_diag auto a third launch sits between the two (SpTrsvSupernodeSplitSweep, a block per split
   supernode of the level): the supernodes whose inverse failed the numeric phase's conditioning check skip the tasks
   that read X (pull launch 2, push launch 1) and are solved there by the column sweep of D instead (pull: rbuf -> x_K;
   push: x_K -> rbuf, then launch 2 as usual). It reads what the skipped tasks would have read and writes what they
   would have written, so the argument below holds unchanged.

   Why it is correct and cannot deadlock: no thread waits for another except at __syncthreads() in the inversion (block-
   uniform bounds); blocks never wait for each other. Launch 1 reads x only of earlier levels (pull: x[U_K]; push: x_K,
   whose updates all come from earlier levels) and writes only r; launch 2 reads r (complete: the previous launch on the
   stream) and writes x_K (each row by one task: SpTrsvSupernodalSplitCheck) and, push, rows of later levels by atomics.
   No launch both reads and writes one x entry. The push atomics make the result depend on the order of additions, as
   the team kernel's do.
*/
#include "supernodal_cuda.h"
#include <climits>

#if defined(SPTRSV_CUDA_SCALAR_OK)

/* X of the split supernode cols[blockIdx.x].x, its column cols[blockIdx.x].y, row-major; shared memory: w scalars */
__global__ void __launch_bounds__(SPTRSV_SUPERNODE_SPLIT_BLOCK) SpTrsvSupernodeInvertSplit(const int2 *__restrict__ cols, const SpTrsvCUDASupernodalArrays a, PetscScalar *X, bool lower)
{
  extern __shared__ __align__(16) unsigned char sptrsv_split_smem[];
  PetscScalar       *xs = reinterpret_cast<PetscScalar *>(sptrsv_split_smem);
  const int2         c  = cols[blockIdx.x];
  const int          K = c.x, j = c.y, w = a.super[K + 1] - a.super[K], tid = (int)threadIdx.x, nt = (int)blockDim.x;
  const long long    d  = a.dptr[K];
  const PetscScalar *D  = a.D + d;
  PetscScalar       *Xt = X + d;

  for (int i = tid; i < w; i += nt) {
    xs[i] = i == j ? (PetscScalar)1 : (PetscScalar)0;
    if (lower ? i < j : i > j) Xt[(long long)i * w + j] = 0; /* the other triangle */
  }
  if (lower)
    for (int k = j; k < w; k++) {
      __syncthreads(); /* xs[k] final: every update from columns before k is in */
      const PetscScalar xk = xs[k] * D[k + (long long)k * w];
      for (int i = k + 1 + tid; i < w; i += nt) xs[i] -= D[i + (long long)k * w] * xk;
      if (tid == 0) Xt[(long long)k * w + j] = xk;
    }
  else
    for (int k = j; k >= 0; k--) {
      __syncthreads();
      const PetscScalar xk = xs[k] * D[k + (long long)k * w];
      for (int i = tid; i < k; i += nt) xs[i] -= D[i + (long long)k * w] * xk;
      if (tid == 0) Xt[(long long)k * w + j] = xk;
    }
}

/* launch 1 (MODE 0: pull, r = b - O x[U]; MODE 2: push, r = X x_K) or launch 2 of pull (MODE 1: x = X r) of the tasks
   t0 + blockIdx.x, a warp per row */
template <int MODE>
__global__ void __launch_bounds__(SPTRSV_SUPERNODE_SPLIT_BLOCK) SpTrsvSupernodeSplitRows(const SpTrsvCUDASupernodalArrays a, const int4 *__restrict__ task, int t0, PetscScalar *rbuf, SpTrsvCUDAVecPtrs v, const SpTrsvCUDAVecPtrs *vp)
{
  const int4 t = task[t0 + (int)blockIdx.x];
  const int  K = t.x, s = __ldg(a.super + K), w = __ldg(a.super + K + 1) - s;
  const int  warp = (int)threadIdx.x >> 5, lane = (int)threadIdx.x & 31, nw = (int)blockDim.x >> 5;

  if (MODE != 0 && a.ok && !__ldg(a.ok + K)) return; /* an ill-conditioned block: SpTrsvSupernodeSplitSweep solves it */
  if (vp) SpTrsvReadVecPtrs<false>(v, vp);
  for (int i = t.y + warp; i < t.z; i += nw) { /* warp-uniform bounds: every lane reaches the shuffle */
    PetscScalar sum = 0;
    if (MODE == 0) {
      const int          u0 = __ldg(a.uptr + K), m = __ldg(a.uptr + K + 1) - u0;
      const int         *U  = a.uidx + u0;
      const PetscScalar *O  = a.O + __ldg(a.optr + K) + (long long)i * m;
      for (int c = lane; c < m; c += 32) sum += __ldg(O + c) * v.x[__ldg(U + c)];
    } else {
      const PetscScalar *Xr = a.X + __ldg(a.dptr + K) + (long long)i * w;
      const PetscScalar *in = MODE == 1 ? rbuf + s : v.x + s;
      for (int j = lane; j < w; j += 32) sum += __ldg(Xr + j) * in[j];
    }
    sum = SpTrsvGroupSum<32>(sum);
    if (lane == 0) {
      if (MODE == 0) rbuf[s + i] = v.b[s + i] - sum;
      else if (MODE == 1) v.x[s + i] = sum;
      else rbuf[s + i] = sum;
    }
  }
}

/* invert_diag auto, between the two launches of level l: the split supernode sorder[pos0 + blockIdx.x] when its check
   failed (ok[K] == 0; else the block returns at once), by the column sweep of D in shared memory (wsplit scalars).
   pull: r = rbuf_K (launch 1's b_K - O x[U_K]) -> x_K; push: r = x_K (every update from earlier levels is in) ->
   rbuf_K, which launch 2 pushes and copies to x_K as for an inverted block. */
template <bool PUSH, bool LOWER>
__global__ void __launch_bounds__(SPTRSV_SUPERNODE_SPLIT_BLOCK) SpTrsvSupernodeSplitSweep(const SpTrsvCUDASupernodalArrays a, int pos0, PetscScalar *rbuf, SpTrsvCUDAVecPtrs v, const SpTrsvCUDAVecPtrs *vp)
{
  extern __shared__ __align__(16) unsigned char sptrsv_split_smem[];
  PetscScalar       *r = reinterpret_cast<PetscScalar *>(sptrsv_split_smem);
  const int          K = __ldg(a.sorder + pos0 + (int)blockIdx.x), s = __ldg(a.super + K), w = __ldg(a.super + K + 1) - s;
  const int          tid = (int)threadIdx.x, nt = (int)blockDim.x;
  const PetscScalar *D   = a.D + __ldg(a.dptr + K);

  if (__ldg(a.ok + K)) return; /* block-uniform: before any barrier */
  if (vp) SpTrsvReadVecPtrs<false>(v, vp);
  for (int i = tid; i < w; i += nt) r[i] = PUSH ? __ldcg(v.x + s + i) : rbuf[s + i];
  __syncthreads();
  SpTrsvSupernodeSweep<LOWER>(w, D, r, tid, nt);
  for (int i = tid; i < w; i += nt) {
    const PetscScalar xi = r[i] * __ldg(D + i + (long long)i * w);
    if (PUSH) rbuf[s + i] = xi;
    else v.x[s + i] = xi;
  }
}

/* launch 2 of push: the tile t0 + blockIdx.x (see the top of this file), a thread per outside column */
__global__ void __launch_bounds__(SPTRSV_SUPERNODE_SPLIT_COLS) SpTrsvSupernodeSplitPush(const SpTrsvCUDASupernodalArrays a, const int4 *__restrict__ task, int t0, const PetscScalar *__restrict__ rbuf, SpTrsvCUDAVecPtrs v, const SpTrsvCUDAVecPtrs *vp)
{
  const int4 t = task[t0 + (int)blockIdx.x];
  const int  K = t.x, s = __ldg(a.super + K), u0 = __ldg(a.uptr + K), m = __ldg(a.uptr + K + 1) - u0;
  const int  c = t.w + (int)threadIdx.x;

  if (vp) SpTrsvReadVecPtrs<false>(v, vp);
  if (c < m) {
    const PetscScalar *O   = a.O + __ldg(a.optr + K);
    PetscScalar        acc = 0;
    for (int r = t.y; r < t.z; r++) acc += __ldg(O + (long long)r * m + c) * rbuf[s + r];
    atomicAdd(v.x + __ldg(a.uidx + u0 + c), -acc);
  }
  if (t.w == 0)
    for (int r = t.y + (int)threadIdx.x; r < t.z; r += (int)blockDim.x) v.x[s + r] = rbuf[s + r];
}

cudaError_t SpTrsvCUDASupernodalSplitInvert(const SpTrsvCUDASupernodal &sc, cudaStream_t st)
{
  if (!sc.nwcol) return cudaSuccess;
  SpTrsvSupernodeInvertSplit<<<(unsigned int)sc.nwcol, SPTRSV_SUPERNODE_SPLIT_BLOCK, (size_t)sc.wsplit * sizeof(PetscScalar), st>>>(sc.d_wcol, sc.a, sc.d_X, sc.ss->lower ? true : false);
  return cudaGetLastError();
}

cudaError_t SpTrsvCUDASupernodalSplitLevel(const SpTrsvCUDASupernodal &sc, PetscInt l, SpTrsvCUDAVecPtrs v, const SpTrsvCUDAVecPtrs *vp, cudaStream_t st)
{
  const SpTrsvSupernodalSchedule *ss = sc.ss;
  const int                       q0 = (int)ss->tlev[2 * l], q1 = (int)ss->tlev[2 * l + 1], q2 = (int)ss->tlev[2 * l + 2];
  cudaError_t                     err;

  if (q1 == q0) return cudaSuccess;
  if (ss->push) SpTrsvSupernodeSplitRows<2><<<(unsigned int)(q1 - q0), SPTRSV_SUPERNODE_SPLIT_BLOCK, 0, st>>>(sc.a, sc.d_task, q0, sc.d_rbuf, v, vp);
  else SpTrsvSupernodeSplitRows<0><<<(unsigned int)(q1 - q0), SPTRSV_SUPERNODE_SPLIT_BLOCK, 0, st>>>(sc.a, sc.d_task, q0, sc.d_rbuf, v, vp);
  if ((err = cudaGetLastError()) != cudaSuccess) return err;
  if (ss->invert_auto) { /* the blocks whose check failed, by the column sweep (the others' blocks return at once) */
    const int    p0 = (int)(ss->slevptr[l] + ss->nteam[l]);
    const size_t sm = (size_t)sc.wsplit * sizeof(PetscScalar);
    if (ss->push && ss->lower) SpTrsvSupernodeSplitSweep<true, true><<<(unsigned int)ss->nsplit[l], SPTRSV_SUPERNODE_SPLIT_BLOCK, sm, st>>>(sc.a, p0, sc.d_rbuf, v, vp);
    else if (ss->push) SpTrsvSupernodeSplitSweep<true, false><<<(unsigned int)ss->nsplit[l], SPTRSV_SUPERNODE_SPLIT_BLOCK, sm, st>>>(sc.a, p0, sc.d_rbuf, v, vp);
    else if (ss->lower) SpTrsvSupernodeSplitSweep<false, true><<<(unsigned int)ss->nsplit[l], SPTRSV_SUPERNODE_SPLIT_BLOCK, sm, st>>>(sc.a, p0, sc.d_rbuf, v, vp);
    else SpTrsvSupernodeSplitSweep<false, false><<<(unsigned int)ss->nsplit[l], SPTRSV_SUPERNODE_SPLIT_BLOCK, sm, st>>>(sc.a, p0, sc.d_rbuf, v, vp);
    if ((err = cudaGetLastError()) != cudaSuccess) return err;
  }
  if (ss->push) SpTrsvSupernodeSplitPush<<<(unsigned int)(q2 - q1), SPTRSV_SUPERNODE_SPLIT_COLS, 0, st>>>(sc.a, sc.d_task, q1, sc.d_rbuf, v, vp);
  else SpTrsvSupernodeSplitRows<1><<<(unsigned int)(q2 - q1), SPTRSV_SUPERNODE_SPLIT_BLOCK, 0, st>>>(sc.a, sc.d_task, q1, sc.d_rbuf, v, vp);
  return cudaGetLastError();
}

#else /* complex or exotic scalars: never launched (the executor reports itself unavailable) */

cudaError_t SpTrsvCUDASupernodalSplitInvert(const SpTrsvCUDASupernodal &sc, cudaStream_t st)
{
  return sc.nwcol ? cudaErrorNotSupported : cudaSuccess;
}

cudaError_t SpTrsvCUDASupernodalSplitLevel(const SpTrsvCUDASupernodal &sc, PetscInt l, SpTrsvCUDAVecPtrs v, const SpTrsvCUDAVecPtrs *vp, cudaStream_t st)
{
  return sc.ss->tlev[2 * l + 2] > sc.ss->tlev[2 * l] ? cudaErrorNotSupported : cudaSuccess;
}
#endif

/*
  SpTrsvCUDASupernodalSplitSetup - the split tasks (as int4), the columns (K, j) of every split supernode for the
  inversion and the buffer r of n scalars; nothing when the schedule has no split supernode
*/
PetscErrorCode SpTrsvCUDASupernodalSplitSetup(SpTrsvCUDASupernodal *sc, PetscInt n, cudaStream_t st)
{
  const SpTrsvSupernodalSchedule *ss = sc->ss;
  const PetscInt                  nt = ss->tlev[2 * ss->nlevels];
  int                            *h;
  PetscInt                        q = 0;
  cudaError_t                     cerr;

  PetscFunctionBegin;
  if (!ss->nsplit_sn) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCheck(nt < INT_MAX / SPTRSV_SUPERNODE_TASK, PETSC_COMM_SELF, PETSC_ERR_INT_OVERFLOW, "sptrsv_supernodal: %" PetscInt_FMT " split tasks: the CUDA kernels use 32-bit indices", nt);
  for (PetscInt l = 0; l < ss->nlevels; l++)
    for (PetscInt k = ss->slevptr[l] + ss->nteam[l]; k < ss->slevptr[l] + ss->nteam[l] + ss->nsplit[l]; k++) {
      const PetscInt K = ss->sorder[k], w = ss->super[K + 1] - ss->super[K];
      sc->nwcol += w;
      sc->wsplit = PetscMax(sc->wsplit, w);
    }
  /* the device buffers first (sc owns them: SpTrsvCUDASupernodalDestroy frees them on any later error), then the host
     staging array, freed before a failed copy is reported */
  PetscCall(SpTrsvCUDAMalloc((void **)&sc->d_task, (size_t)(nt + 1) * sizeof(int4), "sptrsv_supernodal"));
  PetscCall(SpTrsvCUDAMalloc((void **)&sc->d_wcol, (size_t)(sc->nwcol + 1) * sizeof(int2), "sptrsv_supernodal"));
  PetscCall(SpTrsvCUDAMalloc((void **)&sc->d_rbuf, (size_t)(n + 1) * sizeof(PetscScalar), "sptrsv_supernodal"));
  PetscCall(PetscMalloc1(PetscMax(SPTRSV_SUPERNODE_TASK * nt, 2 * sc->nwcol) + 1, &h));
  for (PetscInt t = 0; t < SPTRSV_SUPERNODE_TASK * nt; t++) h[t] = (int)ss->task[t];
  cerr = cudaMemcpyAsync(sc->d_task, h, (size_t)nt * sizeof(int4), cudaMemcpyHostToDevice, st);
  if (cerr == cudaSuccess) cerr = cudaStreamSynchronize(st); /* h is refilled below */
  if (cerr == cudaSuccess) {
    for (PetscInt l = 0; l < ss->nlevels; l++)
      for (PetscInt k = ss->slevptr[l] + ss->nteam[l]; k < ss->slevptr[l] + ss->nteam[l] + ss->nsplit[l]; k++) {
        const PetscInt K = ss->sorder[k], w = ss->super[K + 1] - ss->super[K];
        for (PetscInt j = 0; j < w; j++, q++) {
          h[2 * q]     = (int)K;
          h[2 * q + 1] = (int)j;
        }
      }
    cerr = cudaMemcpyAsync(sc->d_wcol, h, (size_t)sc->nwcol * sizeof(int2), cudaMemcpyHostToDevice, st);
    if (cerr == cudaSuccess) cerr = cudaStreamSynchronize(st);
  }
  PetscCall(PetscFree(h));
  SpTrsvCUDACall(cerr);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SpTrsvCUDASupernodalSplitDestroy(SpTrsvCUDASupernodal *sc)
{
  PetscFunctionBegin;
  SpTrsvCUDACall(SpTrsvCUDAFree(sc->d_task));
  SpTrsvCUDACall(SpTrsvCUDAFree(sc->d_wcol));
  SpTrsvCUDACall(SpTrsvCUDAFree(sc->d_rbuf));
  PetscFunctionReturn(PETSC_SUCCESS);
}
