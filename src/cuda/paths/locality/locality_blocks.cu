/*
   The locality path's blocks kernel (sptrsv_locality with -mat_sptrsv_locality_kernel blocks or auto; the schedule and
   the host executor: src/mat/paths/locality/locality_blocks.c; include/sptrsv/paths/locality.h, "The blocks kernel").

   The chain order's groups are cut into blocks of B = G A positions (G lanes, A accumulators each; row r of a block
   belongs to lane r % G, accumulator r / G). Per block the numeric phase stores, packed column by column, X = D^{-1}
   (or D itself, its diagonal inverted, when the conditioning check failed: ok = 0) and M = X L (or L), B x R.
   A solve is
     1. SpTrsvBlocksFirst, every block at once (a group of G lanes per block): acc = X b_k (ok) or b_k; with R = 0 (no
        block reads another) a failed block is then solved by substitution and x written; else acc goes to c;
     2. SpTrsvBlocksChain (R > 0), a group of G lanes per chain group, one warp per CUDA block: its blocks one after the
        other, acc = c_k - M_k x_{k-1} (x_{k-1}: the previous step's accumulators, by shuffle; M_k staged into shared
        memory NS steps ahead with cp.async), then the substitution for a failed block, and x written.
   The numeric phase, SpTrsvBlocksNumeric, runs on the device after every refresh (host or device values): a CUDA block
   per block gathers D and L into shared memory, inverts D in place row by row, checks kappa with the supernodal path's
   arithmetic (SpTrsvSupernodeCondRow, SpTrsvSupernodeCondKappa) and writes X and M, or D and L.

   Why it is correct, and why it cannot deadlock.
   - Block k's rows depend only on rows of block k and on the last R positions of block k - 1 of the same group
     (SpTrsvLocalityBlocksCheck, at setup). Launch 1 reads only b and writes c (or x of independent blocks, R = 0);
     launch 2 starts after launch 1 on the same stream. In launch 2 a group's x_{k-1} is in its own registers (the
     previous step), so no lane reads x from memory: groups never wait for each other, no flag, no barrier but
     __syncwarp.
   - Shuffles: every loop bound that contains a shuffle is warp-uniform (G, A, B, R and the warp's longest group wnb);
     groups past their end, and lanes past the last group or block, run the same steps with zero data and write
     nothing. A warp whose groups all passed the check skips the substitution (__any_sync), one where any failed runs it
     for all, the others' arithmetic predicated off.
   - Staging: step k's coupling is copied (cp.async) into slot k % NS by the lanes of its own group; the wait for the
     step's copy group and a __syncwarp() come before any lane reads the slot, and a __syncwarp() after the step's
     reads comes before the slot is refilled (step k + NS, issued in iteration k + 1).
   - Every x is written once, by the lane that owns its row.
*/
#include <sptrsv/paths/locality.h>
#include <sptrsv/blockinv.h> /* SpTrsvSupernodeInvertColumn, SpTrsvSupernodeCondRow, SpTrsvSupernodeCondKappa, SpTrsvSupernodeCondMax */
#include "../../row_ops.cuh"
#include "locality_blocks.h"
#include "locality_chain.h" /* SpTrsvWithWindow */

#define SPTRSV_BLOCKS_FIRST_BLOCK  128         /* threads per block of the first launch */
#define SPTRSV_BLOCKS_STAGE_TARGET (96 * 1024) /* the chain launch's shared memory per warp, at most, unless 2 steps need more */

typedef struct {
  int         *d_gblk, *d_bptr, *d_ok;
  PetscScalar *d_xs, *d_ms, *d_c;
  PetscReal   *d_kappa;
  int          ngroups, nblocks, B, G, A, R, NS;
  size_t       chain_smem;
} SpTrsvCUDALocalityBlocks;

/* the bytes of one step's stage (a group): the coupling (B x R scalars), c (B scalars), the rows (B ints) and the
   check's flag, 16-byte aligned */
__host__ __device__ static inline size_t SpTrsvBlocksStageBytes(int B, int R)
{
  return ((size_t)B * R + B) * sizeof(PetscScalar) + ((size_t)B * sizeof(int) + 4 + 15) / 16 * 16;
}

/* the numeric kernel's static shared memory: two row-sum arrays of SPTRSV_CHAIN_MAX_WIDTH reals and a flag */
static inline size_t SpTrsvBlocksNumericStaticBytes(void)
{
  return 2 * SPTRSV_CHAIN_MAX_WIDTH * sizeof(PetscReal) + 16;
}

#if defined(SPTRSV_CUDA_SCALAR_OK)

/* 16 bytes global -> shared, asynchronous where the architecture has it */
__device__ __forceinline__ void SpTrsvBlocksCopy16(void *smem, const void *gmem)
{
  #if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  const unsigned int s = (unsigned int)__cvta_generic_to_shared(smem);
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(s), "l"(gmem));
  #else
  *(double2 *)smem = *(const double2 *)gmem;
  #endif
}
/* N (4 or 8) bytes global -> shared, asynchronous where the architecture has it */
template <int N>
__device__ __forceinline__ void SpTrsvBlocksCopy(void *smem, const void *gmem)
{
  #if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  const unsigned int s = (unsigned int)__cvta_generic_to_shared(smem);
  asm volatile("cp.async.ca.shared.global [%0], [%1], %2;" ::"r"(s), "l"(gmem), "n"(N));
  #else
  if (N == 8) *(unsigned long long *)smem = *(const unsigned long long *)gmem;
  else *(unsigned int *)smem = *(const unsigned int *)gmem;
  #endif
}
__device__ __forceinline__ void SpTrsvBlocksCommit(void)
{
  #if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.commit_group;");
  #endif
}
template <int N>
__device__ __forceinline__ void SpTrsvBlocksWait(void)
{
  #if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_group %0;" ::"n"(N));
  #endif
}

/* the substitution of a block whose check failed (X holds D, its diagonal inverted), on the accumulators; every lane of
   the warp calls it (ok: this group's block passed, its accumulators stay) */
template <int G, int A>
__device__ __forceinline__ void SpTrsvBlocksSubstitute(PetscScalar (&acc)[A], const PetscScalar *__restrict__ X, bool ok, int w, int l)
{
  constexpr int B = G * A;
  #pragma unroll
  for (int as = 0; as < A; as++)
    for (int s = 0; s < G; s++) {
      const int         j  = as * G + s;
      const PetscInt64  cj = SpTrsvBlocksPacked(B, j);
      const PetscScalar dj = !ok && j < w ? __ldg(X + cj) : (PetscScalar)0;
      const PetscScalar xj = __shfl_sync(SPTRSV_FULL_MASK, acc[as] * dj, s, G);
      if (!ok) {
  #pragma unroll
        for (int a = as; a < A; a++) {
          const int r = a * G + l;
          if (r == j) acc[a] = xj;
          else if (r > j && r < w) acc[a] -= __ldg(X + cj + r - j) * xj;
        }
      }
    }
}

/* launch 1: a group of G lanes per block, acc = X b (ok) or b; COUPLED: acc to c; else the substitution of failed blocks
   and x */
template <int G, int A, bool COUPLED>
__global__ void __launch_bounds__(SPTRSV_BLOCKS_FIRST_BLOCK) SpTrsvBlocksFirst(int nblocks, const int *__restrict__ bptr, const int *__restrict__ okv, const PetscScalar *__restrict__ xs, const int *__restrict__ order, PetscScalar *__restrict__ c, SpTrsvCUDAVecPtrs v, const SpTrsvCUDAVecPtrs *vp)
{
  constexpr int      B  = G * A;
  constexpr int      PK = B * (B + 1) / 2;
  const int          t = (int)(blockIdx.x * blockDim.x + threadIdx.x), bk = t / G, l = t & (G - 1);
  const bool         in = bk < nblocks;
  const int          p0 = in ? __ldg(bptr + bk) : 0, w = in ? __ldg(bptr + bk + 1) - p0 : 0;
  const bool         ok = in ? __ldg(okv + bk) != 0 : true;
  const PetscScalar *X  = xs + (size_t)(in ? bk : 0) * PK;
  PetscScalar        bv[A], acc[A];

  if (vp) SpTrsvReadVecPtrs<false>(v, vp);
  #pragma unroll
  for (int a = 0; a < A; a++) {
    const int r = a * G + l;
    bv[a]       = r < w ? v.b[__ldg(order + p0 + r)] : (PetscScalar)0;
    acc[a]      = ok ? (PetscScalar)0 : bv[a];
  }
  #pragma unroll
  for (int as = 0; as < A; as++) {
  #pragma unroll 8
    for (int s = 0; s < G; s++) {
      const int         j  = as * G + s;
      const PetscScalar bj = __shfl_sync(SPTRSV_FULL_MASK, bv[as], s, G);
      if (ok) {
  #pragma unroll
        for (int a = as; a < A; a++) {
          const int r = a * G + l;
          if (r >= j && r < w) acc[a] += __ldg(X + SpTrsvBlocksPacked(B, j) + r - j) * bj;
        }
      }
    }
  }
  if (!COUPLED && __any_sync(SPTRSV_FULL_MASK, !ok)) SpTrsvBlocksSubstitute<G, A>(acc, X, ok, w, l);
  #pragma unroll
  for (int a = 0; a < A; a++) {
    const int r = a * G + l;
    if (r < w) {
      if (COUPLED) c[p0 + r] = acc[a];
      else v.x[__ldg(order + p0 + r)] = acc[a];
    }
  }
}

/* launch 2 (R > 0): a group of G lanes per chain group, one warp per CUDA block. Everything a step reads from memory
   (its coupling, c, the rows it writes, the check's flag) is copied to shared memory NS steps ahead (cp.async), so a
   step waits only for its shuffles and multiply-adds. A group's blocks are B positions each from the group's start
   (the last one shorter), so a step's addresses are known without loads. */
template <int G, int A, int NS>
__global__ void __launch_bounds__(32) SpTrsvBlocksChain(int ngroups, int R, const int *__restrict__ gblk, const int *__restrict__ bptr, const int *__restrict__ okv, const PetscScalar *__restrict__ xs, const PetscScalar *__restrict__ ms, const PetscScalar *__restrict__ c, const int *__restrict__ order, SpTrsvCUDAVecPtrs v, const SpTrsvCUDAVecPtrs *vp)
{
  constexpr int B  = G * A;
  constexpr int PK = B * (B + 1) / 2;
  extern __shared__ __align__(16) unsigned char smraw[];
  const int     t = (int)(blockIdx.x * blockDim.x + threadIdx.x), grp = t / G, l = t & (G - 1);
  const int     BR = B * R, chunks = BR / 2; /* 16-byte copies of one step's coupling */
  const size_t  SB = SpTrsvBlocksStageBytes(B, R);
  const int     b0 = grp < ngroups ? __ldg(gblk + grp) : 0, nb = grp < ngroups ? __ldg(gblk + grp + 1) - b0 : 0;
  const int     g0 = nb ? __ldg(bptr + b0) : 0, g1 = nb ? __ldg(bptr + b0 + nb) : 0; /* the group's positions */
  unsigned char *stage = smraw + (size_t)(threadIdx.x / G) * NS * SB;
  PetscScalar   acc[A], xprev[A];
  int           wnb = nb;

  if (vp) SpTrsvReadVecPtrs<false>(v, vp);
  #pragma unroll
  for (int o = 16; o >= G; o >>= 1) wnb = max(wnb, __shfl_xor_sync(SPTRSV_FULL_MASK, wnb, o));
  auto issue = [&](int k) { /* step k's data into slot k % NS: coupling (none at step 0), c, rows, flag */
    if (k < nb) {
      unsigned char *dst = stage + (size_t)(k % NS) * SB;
      PetscScalar   *dS = (PetscScalar *)dst, *dc = dS + BR;
      int           *dr = (int *)(dc + B);
      const int      p0 = g0 + k * B, w = min(B, g1 - p0);
      if (k >= 1) {
        const PetscScalar *src = ms + (size_t)(b0 + k) * BR;
        for (int q = l; q < chunks; q += G) SpTrsvBlocksCopy16(dS + 2 * q, src + 2 * q);
      }
  #pragma unroll
      for (int a = 0; a < A; a++) {
        const int r = a * G + l;
        if (r < w) {
          SpTrsvBlocksCopy<8>(dc + r, c + p0 + r);
          SpTrsvBlocksCopy<4>(dr + r, order + p0 + r);
        }
      }
      if (l == 0) SpTrsvBlocksCopy<4>(dr + B, okv + b0 + k);
    }
    SpTrsvBlocksCommit();
  };
  #pragma unroll
  for (int k = 0; k < NS - 1; k++) issue(k);
  #pragma unroll
  for (int a = 0; a < A; a++) xprev[a] = 0;
  for (int k = 0; k < wnb; k++) {
    const bool         in = k < nb;
    const int          p0 = g0 + k * B, w = in ? min(B, g1 - p0) : 0;
    const PetscScalar *S = (const PetscScalar *)(stage + (size_t)(k % NS) * SB), *sc = S + BR;
    const int         *sr = (const int *)(sc + B);
    bool               ok;

    issue(k + NS - 1);
    SpTrsvBlocksWait<NS - 1>();
    __syncwarp();
    ok = in ? sr[B] != 0 : true;
  #pragma unroll
    for (int a = 0; a < A; a++) acc[a] = a * G + l < w ? sc[a * G + l] : (PetscScalar)0;
    if (k > 0) { /* acc -= M x_{k-1} over the coupling columns: rows B - R .. B - 1 of the previous block */
  #pragma unroll
      for (int as = 0; as < A; as++) {
        if (as * G + G <= B - R) continue; /* no coupling column among this accumulator's rows (warp-uniform) */
        for (int s = max(0, B - R - as * G); s < G; s++) {
          const int         jj = as * G + s - (B - R);
          const PetscScalar xj = __shfl_sync(SPTRSV_FULL_MASK, xprev[as], s, G);
          if (in) {
  #pragma unroll
            for (int a = 0; a < A; a++) acc[a] -= S[(size_t)jj * B + a * G + l] * xj;
          }
        }
      }
    }
    if (__any_sync(SPTRSV_FULL_MASK, !ok)) SpTrsvBlocksSubstitute<G, A>(acc, xs + (size_t)(in ? b0 + k : 0) * PK, ok, w, l);
  #pragma unroll
    for (int a = 0; a < A; a++) {
      const int r = a * G + l;
      if (r < w) v.x[sr[r]] = acc[a];
      xprev[a] = acc[a];
    }
    __syncwarp(); /* every lane's reads of slot k % NS are done before iteration k + 1 refills it */
  }
  SpTrsvBlocksWait<0>();
}

/* the numeric phase: a CUDA block of max(B, 32) threads per block, thread r its row r */
template <bool UNIT>
__global__ void SpTrsvBlocksNumeric(int B, int R, const int *__restrict__ bptr, const int *__restrict__ ptr, const int *__restrict__ idx, const PetscScalar *__restrict__ val, const PetscScalar *__restrict__ idiag, PetscReal cond, PetscScalar *__restrict__ xs, PetscScalar *__restrict__ ms, int *__restrict__ okv, PetscReal *__restrict__ kappa)
{
  extern __shared__ PetscScalar sm[];
  __shared__ PetscReal nds[SPTRSV_CHAIN_MAX_WIDTH], nxs[SPTRSV_CHAIN_MAX_WIDTH];
  __shared__ int       okb;
  const int            bk = blockIdx.x, r = threadIdx.x, p0 = bptr[bk], w = bptr[bk + 1] - p0;
  const size_t         PK = (size_t)B * (B + 1) / 2;
  PetscScalar         *D = sm, *L = sm + (size_t)w * w;
  PetscReal            nd = 0, nx = 0, dummy = 0;
  auto                 gather = [&]() { /* D (w x w, inverted diagonal) and L (w x R), column-major, from the rows */
    for (int q = r; q < w * w + w * R; q += blockDim.x) sm[q] = 0;
    __syncthreads();
    if (r < w) {
      for (int q = ptr[p0 + r]; q < ptr[p0 + r + 1]; q++) {
        const int cpos = idx[q] - p0;
        if (cpos >= 0) D[r + cpos * w] = val[q];
        else L[r + (cpos + R) * w] = val[q];
      }
      D[r + r * w] = UNIT ? (PetscScalar)1 : idiag[p0 + r];
    }
    __syncthreads();
  };

  gather();
  if (r < w) SpTrsvSupernodeCondRow(w, D, D, PETSC_FALSE, r, &nd, &dummy);
  __syncthreads();
  for (int i = 1; i < w; i++) { /* row i of X = D^{-1} in place: X_ir = -D_ii sum_{m=r}^{i-1} D_im X_mr, as SpTrsvSupernodeInvertColumn */
    PetscScalar s = 0;
    if (r < i) {
      for (int m = r; m < i; m++) s += D[i + m * w] * D[m + r * w];
      s = -s * D[i + i * w];
    }
    __syncthreads();
    if (r < i) D[i + r * w] = s;
    __syncthreads();
  }
  if (r < w) SpTrsvSupernodeCondRow(w, D, D, PETSC_FALSE, r, &dummy, &nx);
  if (r < SPTRSV_CHAIN_MAX_WIDTH) {
    nds[r] = nd;
    nxs[r] = nx;
  }
  __syncthreads();
  if (r == 0) {
    PetscReal a = 0, b = 0, k;
    for (int q = 0; q < w; q++) {
      a = SpTrsvSupernodeCondMax(a, nds[q]);
      b = SpTrsvSupernodeCondMax(b, nxs[q]);
    }
    k         = SpTrsvSupernodeCondKappa(a, b);
    okb       = k <= cond;
    kappa[bk] = k;
    okv[bk]   = okb;
  }
  __syncthreads();
  if (okb) {
    if (r < w) {
      for (int j = 0; j <= r; j++) xs[bk * PK + SpTrsvBlocksPacked(B, j) + r - j] = D[r + j * w];
      for (int jj = 0; jj < R; jj++) {
        PetscScalar s = 0;
        for (int m = 0; m <= r; m++) s += D[r + m * w] * L[m + jj * w];
        ms[(size_t)bk * B * R + (size_t)jj * B + r] = s;
      }
    }
  } else {
    __syncthreads();
    gather();
    if (r < w) {
      for (int j = 0; j <= r; j++) xs[bk * PK + SpTrsvBlocksPacked(B, j) + r - j] = D[r + j * w];
      for (int jj = 0; jj < R; jj++) ms[(size_t)bk * B * R + (size_t)jj * B + r] = L[r + jj * w];
    }
  }
}

/* f(G, A) for the blocks of B rows (the chain kernel's dispatch), then the launch error */
template <class F>
static cudaError_t SpTrsvBlocksWithWidth(int B, F f)
{
  SpTrsvWithWindow(B, f);
  return cudaGetLastError();
}

static cudaError_t SpTrsvCUDALocalityBlocksLaunch(const SpTrsvCUDATriData *d, PetscBool sweep, SpTrsvCUDAVecPtrs v, const SpTrsvCUDAVecPtrs *vp, cudaStream_t st)
{
  const SpTrsvCUDALocalityBlocks *lb    = (const SpTrsvCUDALocalityBlocks *)d->path;
  const unsigned int              grid1 = (unsigned int)(((size_t)lb->nblocks * lb->G + SPTRSV_BLOCKS_FIRST_BLOCK - 1) / SPTRSV_BLOCKS_FIRST_BLOCK);
  const unsigned int              grid2 = (unsigned int)(((size_t)lb->ngroups * lb->G + 31) / 32);
  cudaError_t                     err;

  if (sweep) return cudaErrorNotSupported;
  if (!lb->nblocks) return cudaSuccess;
  err = SpTrsvBlocksWithWidth(lb->B, [&](auto G, auto A) {
    if (lb->R) SpTrsvBlocksFirst<decltype(G)::value, decltype(A)::value, true><<<grid1, SPTRSV_BLOCKS_FIRST_BLOCK, 0, st>>>(lb->nblocks, lb->d_bptr, lb->d_ok, lb->d_xs, d->tri.order, lb->d_c, v, vp);
    else SpTrsvBlocksFirst<decltype(G)::value, decltype(A)::value, false><<<grid1, SPTRSV_BLOCKS_FIRST_BLOCK, 0, st>>>(lb->nblocks, lb->d_bptr, lb->d_ok, lb->d_xs, d->tri.order, lb->d_c, v, vp);
  });
  if (err != cudaSuccess || !lb->R) return err;
  return SpTrsvBlocksWithWidth(lb->B, [&](auto G, auto A) {
    if (lb->NS == 8) SpTrsvBlocksChain<decltype(G)::value, decltype(A)::value, 8><<<grid2, 32, lb->chain_smem, st>>>(lb->ngroups, lb->R, lb->d_gblk, lb->d_bptr, lb->d_ok, lb->d_xs, lb->d_ms, lb->d_c, d->tri.order, v, vp);
    else if (lb->NS == 4) SpTrsvBlocksChain<decltype(G)::value, decltype(A)::value, 4><<<grid2, 32, lb->chain_smem, st>>>(lb->ngroups, lb->R, lb->d_gblk, lb->d_bptr, lb->d_ok, lb->d_xs, lb->d_ms, lb->d_c, d->tri.order, v, vp);
    else SpTrsvBlocksChain<decltype(G)::value, decltype(A)::value, 2><<<grid2, 32, lb->chain_smem, st>>>(lb->ngroups, lb->R, lb->d_gblk, lb->d_bptr, lb->d_ok, lb->d_xs, lb->d_ms, lb->d_c, d->tri.order, v, vp);
  });
}

/* the chain kernel's shared-memory limit, per instance: the device's opt-in maximum (bytes), never a triangle's own
   need, since a smaller limit set for one triangle would make the launches of another with a larger stage fail */
static cudaError_t SpTrsvBlocksSetSmem(int B, int NS, size_t bytes)
{
  cudaError_t err = cudaSuccess, lerr;

  lerr = SpTrsvBlocksWithWidth(B, [&](auto G, auto A) {
    auto set = [&](auto kernel) {
      cudaFuncAttributes attr;
      if ((err = cudaFuncGetAttributes(&attr, kernel)) == cudaSuccess) err = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)(bytes - attr.sharedSizeBytes));
    };
    if (NS == 8) set(SpTrsvBlocksChain<decltype(G)::value, decltype(A)::value, 8>);
    else if (NS == 4) set(SpTrsvBlocksChain<decltype(G)::value, decltype(A)::value, 4>);
    else set(SpTrsvBlocksChain<decltype(G)::value, decltype(A)::value, 2>);
  });
  return err != cudaSuccess ? err : lerr;
}

static cudaError_t SpTrsvBlocksNumericLaunch(const SpTrsvCUDATriData *d, const SpTrsvCUDALocalityBlocks *lb, PetscReal cond, cudaStream_t st)
{
  const size_t smem = (size_t)lb->B * (lb->B + lb->R) * sizeof(PetscScalar);
  const int    nt   = lb->B < 32 ? 32 : lb->B;
  cudaError_t  err;

  /* the limit is set to this launch's need right before it (the numeric phase is never captured in a graph, and the
     launch reads the limit when it is enqueued) */
  if (!lb->nblocks) return cudaSuccess;
  if (d->unit) {
    if ((err = cudaFuncSetAttribute(SpTrsvBlocksNumeric<true>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem)) != cudaSuccess) return err;
    SpTrsvBlocksNumeric<true><<<lb->nblocks, nt, smem, st>>>(lb->B, lb->R, lb->d_bptr, d->tri.ptr, d->tri.idx, d->tri.val, NULL, cond, lb->d_xs, lb->d_ms, lb->d_ok, lb->d_kappa);
  } else {
    if ((err = cudaFuncSetAttribute(SpTrsvBlocksNumeric<false>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem)) != cudaSuccess) return err;
    SpTrsvBlocksNumeric<false><<<lb->nblocks, nt, smem, st>>>(lb->B, lb->R, lb->d_bptr, d->tri.ptr, d->tri.idx, d->tri.val, d->tri.idiag, cond, lb->d_xs, lb->d_ms, lb->d_ok, lb->d_kappa);
  }
  return cudaGetLastError();
}

#else /* complex or exotic scalars: the backend reports itself unavailable and never launches these */

static cudaError_t SpTrsvCUDALocalityBlocksLaunch(const SpTrsvCUDATriData *d, PetscBool sweep, SpTrsvCUDAVecPtrs v, const SpTrsvCUDAVecPtrs *vp, cudaStream_t st)
{
  return cudaErrorNotSupported;
}
static cudaError_t SpTrsvBlocksSetSmem(int B, int NS, size_t bytes)
{
  return cudaErrorNotSupported;
}
static cudaError_t SpTrsvBlocksNumericLaunch(const SpTrsvCUDATriData *d, const SpTrsvCUDALocalityBlocks *lb, PetscReal cond, cudaStream_t st)
{
  return cudaErrorNotSupported;
}
#endif

static PetscInt SpTrsvCUDALocalityBlocksLaunches(const SpTrsvCUDATriData *d, PetscBool sweep)
{
  return ((const SpTrsvCUDALocalityBlocks *)d->path)->R ? 2 : 1;
}

static PetscErrorCode SpTrsvCUDALocalityBlocksDestroy(SpTrsvCUDATriData *d)
{
  SpTrsvCUDALocalityBlocks *lb = (SpTrsvCUDALocalityBlocks *)d->path;

  PetscFunctionBegin;
  if (!lb) PetscFunctionReturn(PETSC_SUCCESS);
  SpTrsvCUDACall(SpTrsvCUDAFree(lb->d_gblk));
  SpTrsvCUDACall(SpTrsvCUDAFree(lb->d_bptr));
  SpTrsvCUDACall(SpTrsvCUDAFree(lb->d_ok));
  SpTrsvCUDACall(SpTrsvCUDAFree(lb->d_xs));
  SpTrsvCUDACall(SpTrsvCUDAFree(lb->d_ms));
  SpTrsvCUDACall(SpTrsvCUDAFree(lb->d_c));
  SpTrsvCUDACall(SpTrsvCUDAFree(lb->d_kappa));
  PetscCall(PetscFree(d->path));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvCUDALocalityBlocksNumeric - the numeric phase on the device from the values now there (after every refresh,
  host or device), and the check's figures copied back to the plan for -ksp_view
*/
PetscErrorCode SpTrsvCUDALocalityBlocksNumeric(SpTrsvSolver s)
{
  const SpTrsvCUDATriData        *d   = (const SpTrsvCUDATriData *)s->bdata;
  const SpTrsvCUDALocalityBlocks *lb  = (const SpTrsvCUDALocalityBlocks *)d->path;
  SpTrsvLocalityBlocks           *blk = &((SpTrsvLocalitySchedule *)s->plan->data)->blocks;
  cudaStream_t                    st  = NULL;
  int                            *ok;
  PetscReal                      *kappa;

  PetscFunctionBegin;
  if (!lb->nblocks) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(SpTrsvCUDAGetStream(&st));
  SpTrsvCUDACall(SpTrsvBlocksNumericLaunch(d, lb, blk->cond, st));
  PetscCall(PetscMalloc2(lb->nblocks, &ok, lb->nblocks, &kappa));
  SpTrsvCUDACall(cudaMemcpyAsync(ok, lb->d_ok, (size_t)lb->nblocks * sizeof(int), cudaMemcpyDeviceToHost, st));
  SpTrsvCUDACall(cudaMemcpyAsync(kappa, lb->d_kappa, (size_t)lb->nblocks * sizeof(PetscReal), cudaMemcpyDeviceToHost, st));
  SpTrsvCUDACall(cudaStreamSynchronize(st));
  blk->ninv      = 0;
  blk->kappa_inv = blk->kappa_max = 0;
  for (PetscInt b = 0; b < lb->nblocks; b++) {
    blk->kappa_max = SpTrsvSupernodeCondMax(blk->kappa_max, kappa[b]);
    if (ok[b]) {
      blk->ninv++;
      blk->kappa_inv = PetscMax(blk->kappa_inv, kappa[b]);
    }
  }
  blk->have_numeric = PETSC_TRUE;
  PetscCall(PetscFree2(ok, kappa));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvCUDALocalityBlocksSetup - the triangle in the chain order with its column indices replaced by the columns'
  positions (what the numeric kernel reads), the blocks, the storage (zeroed: a block's padding stays zero), and the
  numeric phase
*/
PetscErrorCode SpTrsvCUDALocalityBlocksSetup(SpTrsvSolver s)
{
  const SpTrsvLocalitySchedule *ls  = (const SpTrsvLocalitySchedule *)s->plan->data;
  const SpTrsvLocalityBlocks   *blk = &ls->blocks;
  SpTrsvCUDATriData            *d;
  SpTrsvCUDALocalityBlocks     *lb;
  cudaStream_t                  st = NULL;
  PetscInt                     *pos;
  int                           dev = 0, optin = 0;

  PetscFunctionBegin;
  PetscCall(SpTrsvLocalityBlocksCheck(&s->op, s->plan->order, &ls->chain, blk));
  SpTrsvCUDACall(cudaGetDevice(&dev));
  SpTrsvCUDACall(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
  { /* the numeric kernel's dynamic shared memory (D and L) beside its static part must fit a block */
    const size_t need = (size_t)blk->B * (blk->B + blk->R) * sizeof(PetscScalar) + SpTrsvBlocksNumericStaticBytes();
    PetscCheck(need <= (size_t)optin, PETSC_COMM_SELF, PETSC_ERR_SUP, "sptrsv_locality: the blocks kernel's numeric phase needs %zu bytes of shared memory (blocks of %" PetscInt_FMT " rows, coupling %" PetscInt_FMT "), the device offers %d per block: use -%smat_sptrsv_locality_block_rows with smaller blocks, or -%smat_sptrsv_locality_kernel chain or slots", need, blk->B, blk->R, optin, s->opts.prefix, s->opts.prefix);
  }
  PetscCall(SpTrsvCUDATriSetupBegin(s, SpTrsvCUDALocalityBlocksLaunch, SpTrsvCUDALocalityBlocksLaunches, &d));
  PetscCall(SpTrsvCUDAGetStream(&st));
  PetscCall(PetscNew(&lb));
  d->path         = lb;
  d->path_destroy = SpTrsvCUDALocalityBlocksDestroy;
  lb->ngroups     = (int)ls->chain.ngroups;
  lb->nblocks     = (int)blk->nblocks;
  lb->B           = (int)blk->B;
  lb->G           = (int)blk->G;
  lb->A           = (int)blk->A;
  lb->R           = (int)blk->R;
  PetscCall(PetscMalloc1(d->n + 1, &pos));
  for (PetscInt k = 0; k < d->n; k++) pos[s->plan->order[k]] = k;
  for (PetscInt q = 0; q < d->nnz; q++) d->h_idx[q] = (int)pos[d->h_idx[q]];
  PetscCall(PetscFree(pos));
  if (d->nnz) SpTrsvCUDACall(cudaMemcpyAsync(d->d_idx, d->h_idx, (size_t)d->nnz * sizeof(int), cudaMemcpyHostToDevice, st)); /* h_idx lives until SetupEnd, which waits */
  PetscCall(SpTrsvCUDAUploadIndices(blk->gblk, ls->chain.ngroups + 1, &lb->d_gblk, st));
  PetscCall(SpTrsvCUDAUploadIndices(blk->bptr, blk->nblocks + 1, &lb->d_bptr, st));
  PetscCall(SpTrsvCUDAMalloc((void **)&lb->d_ok, ((size_t)blk->nblocks + 1) * sizeof(int), "the blocks' checks"));
  PetscCall(SpTrsvCUDAMalloc((void **)&lb->d_kappa, ((size_t)blk->nblocks + 1) * sizeof(PetscReal), "the blocks' condition numbers"));
  PetscCall(SpTrsvCUDAMalloc((void **)&lb->d_xs, ((size_t)blk->xsize + 1) * sizeof(PetscScalar), "the inverted diagonal blocks"));
  PetscCall(SpTrsvCUDAMalloc((void **)&lb->d_ms, ((size_t)blk->msize + 1) * sizeof(PetscScalar), "the inverse-applied couplings"));
  SpTrsvCUDACall(cudaMemsetAsync(lb->d_xs, 0, ((size_t)blk->xsize + 1) * sizeof(PetscScalar), st));
  SpTrsvCUDACall(cudaMemsetAsync(lb->d_ms, 0, ((size_t)blk->msize + 1) * sizeof(PetscScalar), st));
  if (lb->R) {
    const size_t stage = (size_t)(32 / lb->G) * SpTrsvBlocksStageBytes(lb->B, lb->R); /* a warp's groups, one step */
    PetscCall(SpTrsvCUDAMalloc((void **)&lb->d_c, ((size_t)d->n + 1) * sizeof(PetscScalar), "the blocks' c"));
    lb->NS         = 8 * stage <= SPTRSV_BLOCKS_STAGE_TARGET ? 8 : (4 * stage <= SPTRSV_BLOCKS_STAGE_TARGET ? 4 : 2);
    lb->chain_smem = lb->NS * stage;
    PetscCheck(lb->chain_smem <= (size_t)optin, PETSC_COMM_SELF, PETSC_ERR_SUP, "sptrsv_locality: the blocks kernel stages %zu bytes of coupling in shared memory, the device offers %d per block: use -%smat_sptrsv_locality_kernel chain or slots", lb->chain_smem, optin, s->opts.prefix);
    SpTrsvCUDACall(SpTrsvBlocksSetSmem(lb->B, lb->NS, (size_t)optin));
  }
  PetscCall(SpTrsvCUDATriSetupEnd(s));
  if (!s->tri->values_unset) PetscCall(SpTrsvCUDALocalityBlocksNumeric(s)); /* else the numeric phase refreshes, and runs it */
  SpTrsvCUDACall(cudaStreamSynchronize(st));
  PetscFunctionReturn(PETSC_SUCCESS);
}
