/*
   The locality path's chain kernel (sptrsv_locality with -mat_sptrsv_locality_kernel chain or auto; the schedule:
   src/mat/paths/locality/chain.c, include/sptrsv/paths/locality.h "The chain kernel").

   Every weakly connected component of op(T) is one sub-graph, its rows in index order (the chain order), and every
   dependency lies at most reach < W places earlier in it. A group of G lanes (G = min(W, 32), several groups per warp
   when G < 32) solves its run of whole components one position p at a time. Slot s (0 .. W - 1; lane s % G holds it
   as accumulator s / G) holds the accumulator of the one position of [p, p + W) congruent to s modulo W:
     - the owner of p (slot p % W) finishes x_p = acc * wv[p W] (the inverted diagonal, 1 for a unit triangle), and one
       shuffle hands x_p to the group; the owner writes x at row order[p] and restarts its slot with b of position p + W;
     - every other slot, position q = p + d (d = 1 .. W - 1), subtracts wv[p W + d] x_p: the window of column p holds
       op(T)'s entry (q, p), zero when there is none.
   The window (n W scalars, column by column) is packed on the device from the triangle's values at every refresh.
   A step depends on the one before through one shuffle and two flops; loads do not depend on x, so each lane loads
   the window of the next D steps while it computes the current D, and prefetches to L2 SPTRSV_CHAIN_PREFETCH steps
   ahead. b is gathered into the chain order first (bp, a first launch over the whole device), so every load of the
   chain kernel (window, bp, order) is at an address known from the position alone: none waits for another load.

   Why it is correct, and why it cannot deadlock.
   - Position q's accumulator starts at b when q enters the window (at step q - W, or at the start for the first W
     positions) and then sees steps q - W + 1 .. q - 1, i.e. every column at distance 1 .. W - 1 before q: all of q's
     dependencies, since the analysis checks reach < W (SpTrsvLocalityChainCheck) and that they lie in the same group.
     So at step q the owner holds b_q minus every entry times its final x: the substitution, summed in column order.
   - No lane waits for another except through __shfl_sync, which every lane of the warp executes the same number of
     times: the loop runs to the longest group of the warp (wlen, a warp-wide maximum), groups past their end (and lanes
     past the last group) step with zero windows and write nothing. No barrier, no flag, no spinning: groups never
     wait for each other (no dependency crosses a group), so the launch finishes whatever the residency.
   - Every x is written once, by its owner, and read by no other lane of this launch (x_p travels by shuffle).
*/
#include <sptrsv/paths/locality.h>
#include "../../row_ops.cuh"
#include "locality_chain.h"

#define SPTRSV_CHAIN_BLOCK    128 /* threads per block (4 warps) */
#define SPTRSV_CHAIN_PREFETCH 64  /* steps ahead of the L2 prefetch */

typedef struct {
  int         *d_gptr;
  PetscScalar *d_wv; /* n W: the window of each column */
  PetscScalar *d_bp; /* n: b in the chain order (each solve's first launch) */
  int          ngroups, W, G, A;
  bool         longchains; /* the longest group has at least SPTRSV_CHAIN_LONG_ROWS rows: load further ahead */
} SpTrsvCUDALocalityChain;

#if defined(SPTRSV_CUDA_SCALAR_OK)

/* the window values of D steps (this lane's A slots), and the owner's row and the b of the position entering */
template <int G, int A, int D>
struct SpTrsvChainChunk {
  PetscScalar w[D][A];
  PetscScalar b[D];
  int         o[D];
};

template <int G, int A, int D>
__device__ __forceinline__ void SpTrsvChainLoad(SpTrsvChainChunk<G, A, D> &c, const PetscScalar *__restrict__ wv, const int *__restrict__ order, const PetscScalar *__restrict__ bp, int P1, int p0, int l)
{
  constexpr int W = G * A;
#pragma unroll
  for (int i = 0; i < D; i++) {
    const int  p  = p0 + i;
    const bool in = p < P1;
#pragma unroll
    for (int a = 0; a < A; a++) c.w[i][a] = in ? __ldg(wv + (size_t)p * W + ((a * G + l - p) & (W - 1))) : (PetscScalar)0;
    c.o[i] = in ? __ldg(order + p) : 0;
    c.b[i] = p + W < P1 ? bp[p + W] : (PetscScalar)0;
  }
}

/* one thread per lane, G lanes per group, group t / G solves positions gptr[g] .. gptr[g+1]-1 (see the top) */
template <int G, int A, int D>
__global__ void __launch_bounds__(SPTRSV_CHAIN_BLOCK) SpTrsvLocalityChainKernel(const int *__restrict__ gptr, int ngroups, const PetscScalar *__restrict__ wv, const int *__restrict__ order, const PetscScalar *__restrict__ bp, SpTrsvCUDAVecPtrs v, const SpTrsvCUDAVecPtrs *vp)
{
  constexpr int             W = G * A;
  const int                 t = (int)(blockIdx.x * blockDim.x + threadIdx.x), grp = t / G, l = t & (G - 1);
  int                       P0 = 0, P1 = 0, wlen;
  PetscScalar               acc[A];
  SpTrsvChainChunk<G, A, D> cur, nxt;

  if (vp) SpTrsvReadVecPtrs<false>(v, vp);
  if (grp < ngroups) {
    P0 = __ldg(gptr + grp);
    P1 = __ldg(gptr + grp + 1);
  }
  wlen = P1 - P0; /* the longest group of the warp: every lane runs as many steps (the shuffles are warp-wide) */
#pragma unroll
  for (int o = 16; o >= G; o >>= 1) wlen = max(wlen, __shfl_xor_sync(0xffffffffu, wlen, o));
#pragma unroll
  for (int a = 0; a < A; a++) {
    const int pos = P0 + ((a * G + l - P0) & (W - 1));
    acc[a]        = pos < P1 ? bp[pos] : (PetscScalar)0;
  }
  SpTrsvChainLoad<G, A, D>(cur, wv, order, bp, P1, P0, l);
  for (int t0 = 0; t0 < wlen; t0 += D) {
    if (t0 + D < wlen) SpTrsvChainLoad<G, A, D>(nxt, wv, order, bp, P1, P0 + t0 + D, l);
    { /* the window, bp and order of D steps SPTRSV_CHAIN_PREFETCH ahead to L2 (128-byte lines, 16 scalars each) */
      const int pf = P0 + t0 + SPTRSV_CHAIN_PREFETCH;
      for (int q = l; q * 16 < D * W; q += G)
        if (pf + (q * 16) / W < P1) asm volatile("prefetch.global.L2 [%0];" ::"l"(wv + (size_t)pf * W + (size_t)q * 16));
      if (l == 0 && pf + W + D <= P1) {
        asm volatile("prefetch.global.L2 [%0];" ::"l"(bp + pf + W));
        asm volatile("prefetch.global.L2 [%0];" ::"l"(bp + pf + W + D - 1));
      }
      if (l == G - 1 && pf + D <= P1) {
        asm volatile("prefetch.global.L2 [%0];" ::"l"(order + pf));
        asm volatile("prefetch.global.L2 [%0];" ::"l"(order + pf + D - 1));
      }
    }
#pragma unroll
    for (int i = 0; i < D; i++) {
      const int   p = P0 + t0 + i, so = p & (W - 1), owner = so & (G - 1), ao = so / G;
      PetscScalar ca = acc[0], cw = cur.w[i][0], xp;
#pragma unroll
      for (int a = 1; a < A; a++)
        if (a == ao) {
          ca = acc[a];
          cw = cur.w[i][a];
        }
      xp = __shfl_sync(0xffffffffu, ca * cw, owner, G);
#pragma unroll
      for (int a = 0; a < A; a++) {
        if (a * G + l == so) { /* the owner: x_p out, position p + W in */
          if (p < P1) v.x[cur.o[i]] = xp;
          acc[a] = cur.b[i];
        } else acc[a] -= cur.w[i][a] * xp;
      }
    }
    cur = nxt;
  }
}

/* bp[k] = b[order[k]]: b in the chain order, the chain kernel's first launch (vp: the vectors of a captured graph) */
__global__ void SpTrsvLocalityChainGatherKernel(int n, const int *__restrict__ order, SpTrsvCUDAVecPtrs v, const SpTrsvCUDAVecPtrs *vp, PetscScalar *__restrict__ bp)
{
  if (vp) SpTrsvReadVecPtrs<false>(v, vp);
  for (int k = (int)(blockIdx.x * blockDim.x + threadIdx.x); k < n; k += (int)(gridDim.x * blockDim.x)) bp[k] = v.b[order[k]];
}

/* the window of every column from the triangle in plan order (idx: column positions): wv[k W] = idiag_k (1 for a unit
   triangle), wv[c W + (k - c)] = the entry (k, c); the rest is zero (set before) */
__global__ void SpTrsvLocalityChainPackKernel(int n, int W, const int *__restrict__ ptr, const int *__restrict__ idx, const PetscScalar *__restrict__ val, const PetscScalar *__restrict__ idiag, PetscScalar *__restrict__ wv)
{
  for (int k = (int)(blockIdx.x * blockDim.x + threadIdx.x); k < n; k += (int)(gridDim.x * blockDim.x)) {
    wv[(size_t)k * W] = idiag ? idiag[k] : (PetscScalar)1;
    for (int q = ptr[k]; q < ptr[k + 1]; q++) {
      const int c                  = idx[q];
      wv[(size_t)c * W + (k - c)] = val[q];
    }
  }
}

/* the kernel for (G, A) (SpTrsvWithWindow) with D steps loaded ahead: 16 / A on long chains (a few groups, each
   waiting on its loads), 8 / A otherwise (many short groups, block-diagonal matrices: throughput, fewer registers for
   more resident warps) */
template <class F>
static cudaError_t SpTrsvChainWithWidth(int W, bool longchains, F f)
{
  SpTrsvWithWindow(W, [&](auto G, auto A) {
    constexpr int a = decltype(A)::value;
    if (longchains) f(G, A, std::integral_constant<int, 16 / a>());
    else f(G, A, std::integral_constant<int, 8 / a>());
  });
  return cudaGetLastError();
}

static cudaError_t SpTrsvCUDALocalityChainLaunch(const SpTrsvCUDATriData *d, PetscBool sweep, SpTrsvCUDAVecPtrs v, const SpTrsvCUDAVecPtrs *vp, cudaStream_t st)
{
  const SpTrsvCUDALocalityChain *lc = (const SpTrsvCUDALocalityChain *)d->path;
  const unsigned int             grid = (unsigned int)(((size_t)lc->ngroups * lc->G + SPTRSV_CHAIN_BLOCK - 1) / SPTRSV_CHAIN_BLOCK);

  cudaError_t                    err;

  if (sweep) return cudaErrorNotSupported;
  if (!lc->ngroups) return cudaSuccess;
  SpTrsvLocalityChainGatherKernel<<<SpTrsvCUDAVecGrid(d->n), SPTRSV_CUDA_VEC_BLOCK, 0, st>>>((int)d->n, d->tri.order, v, vp, lc->d_bp);
  if ((err = cudaGetLastError()) != cudaSuccess) return err;
  return SpTrsvChainWithWidth(lc->W, lc->longchains, [&](auto G, auto A, auto D) { SpTrsvLocalityChainKernel<decltype(G)::value, decltype(A)::value, decltype(D)::value><<<grid, SPTRSV_CHAIN_BLOCK, 0, st>>>(lc->d_gptr, lc->ngroups, lc->d_wv, d->tri.order, lc->d_bp, v, vp); });
}

static cudaError_t SpTrsvLocalityChainPackLaunch(const SpTrsvCUDATriData *d, const SpTrsvCUDALocalityChain *lc, cudaStream_t st)
{
  cudaError_t err;

  if (!d->n) return cudaSuccess;
  err = cudaMemsetAsync(lc->d_wv, 0, (size_t)d->n * lc->W * sizeof(PetscScalar), st);
  if (err != cudaSuccess) return err;
  SpTrsvLocalityChainPackKernel<<<SpTrsvCUDAVecGrid(d->n), SPTRSV_CUDA_VEC_BLOCK, 0, st>>>((int)d->n, lc->W, d->tri.ptr, d->tri.idx, d->tri.val, d->unit ? NULL : d->tri.idiag, lc->d_wv);
  return cudaGetLastError();
}

#else /* complex or exotic scalars: the backend reports itself unavailable and never launches these */

static cudaError_t SpTrsvCUDALocalityChainLaunch(const SpTrsvCUDATriData *d, PetscBool sweep, SpTrsvCUDAVecPtrs v, const SpTrsvCUDAVecPtrs *vp, cudaStream_t st)
{
  return cudaErrorNotSupported;
}

static cudaError_t SpTrsvLocalityChainPackLaunch(const SpTrsvCUDATriData *d, const SpTrsvCUDALocalityChain *lc, cudaStream_t st)
{
  return cudaErrorNotSupported;
}
#endif

static PetscInt SpTrsvCUDALocalityChainLaunches(const SpTrsvCUDATriData *d, PetscBool sweep)
{
  return 2; /* the gather of b, the chains */
}

static PetscErrorCode SpTrsvCUDALocalityChainDestroy(SpTrsvCUDATriData *d)
{
  SpTrsvCUDALocalityChain *lc = (SpTrsvCUDALocalityChain *)d->path;

  PetscFunctionBegin;
  if (!lc) PetscFunctionReturn(PETSC_SUCCESS);
  SpTrsvCUDACall(SpTrsvCUDAFree(lc->d_gptr));
  SpTrsvCUDACall(SpTrsvCUDAFree(lc->d_wv));
  SpTrsvCUDACall(SpTrsvCUDAFree(lc->d_bp));
  PetscCall(PetscFree(d->path));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the window from the values now on the device (after every refresh, host or device) */
PetscErrorCode SpTrsvCUDALocalityChainPack(SpTrsvSolver s)
{
  const SpTrsvCUDATriData *d  = (const SpTrsvCUDATriData *)s->bdata;
  cudaStream_t             st = NULL;

  PetscFunctionBegin;
  PetscCall(SpTrsvCUDAGetStream(&st));
  SpTrsvCUDACall(SpTrsvLocalityChainPackLaunch(d, (const SpTrsvCUDALocalityChain *)d->path, st));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvCUDALocalityChainSetup - the triangle in the chain order (SpTrsvCUDATriSetupBegin) with its column indices
  replaced by the columns' positions (what the pack kernel reads), the groups, the window, and the window packed
*/
PetscErrorCode SpTrsvCUDALocalityChainSetup(SpTrsvSolver s)
{
  const SpTrsvLocalitySchedule *ls = (const SpTrsvLocalitySchedule *)s->plan->data;
  const SpTrsvLocalityChain    *ch = &ls->chain;
  SpTrsvCUDATriData            *d;
  SpTrsvCUDALocalityChain      *lc;
  cudaStream_t                  st = NULL;
  PetscInt                     *pos;

  PetscFunctionBegin;
  PetscCall(SpTrsvLocalityChainCheck(&s->op, s->plan->order, ch));
  PetscCall(SpTrsvCUDATriSetupBegin(s, SpTrsvCUDALocalityChainLaunch, SpTrsvCUDALocalityChainLaunches, &d));
  PetscCall(SpTrsvCUDAGetStream(&st));
  PetscCall(PetscNew(&lc));
  d->path         = lc;
  d->path_destroy = SpTrsvCUDALocalityChainDestroy;
  lc->ngroups     = (int)ch->ngroups;
  lc->W           = (int)ch->W;
  lc->G           = (int)ch->G;
  lc->A           = (int)ch->A;
  lc->longchains  = ch->max_group_rows >= SPTRSV_CHAIN_LONG_ROWS;
  PetscCall(PetscMalloc1(d->n + 1, &pos));
  for (PetscInt k = 0; k < d->n; k++) pos[s->plan->order[k]] = k;
  for (PetscInt q = 0; q < d->nnz; q++) d->h_idx[q] = (int)pos[d->h_idx[q]];
  PetscCall(PetscFree(pos));
  if (d->nnz) SpTrsvCUDACall(cudaMemcpyAsync(d->d_idx, d->h_idx, (size_t)d->nnz * sizeof(int), cudaMemcpyHostToDevice, st)); /* h_idx lives until SetupEnd, which waits */
  PetscCall(SpTrsvCUDAUploadIndices(ch->gptr, ch->ngroups + 1, &lc->d_gptr, st));
  PetscCall(SpTrsvCUDAMalloc((void **)&lc->d_wv, ((size_t)d->n * ch->W + 1) * sizeof(PetscScalar), "the chain window"));
  PetscCall(SpTrsvCUDAMalloc((void **)&lc->d_bp, ((size_t)d->n + 1) * sizeof(PetscScalar), "the chain order's b"));
  PetscCall(SpTrsvCUDATriSetupEnd(s));
  if (!s->tri->values_unset) PetscCall(SpTrsvCUDALocalityChainPack(s)); /* else the numeric phase refreshes, and packs */
  SpTrsvCUDACall(cudaStreamSynchronize(st));
  PetscFunctionReturn(PETSC_SUCCESS);
}
