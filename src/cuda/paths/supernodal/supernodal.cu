/*
   Supernode-based level-set solves on the GPU (paper 002, sptrsv_supernodal).

   The analysis (src/mat/analysis/supernode.c, src/mat/paths/supernodal/supernodal.c; include/sptrsv/paths/supernodal.h) grouped the
   lines of op(T) (rows: pull; columns: push) into supernodes K = [s, s + w) with a dense w x w diagonal block D (column-
   major, its diagonal holding the inverted diagonal) and a dense w x m off-diagonal block O over the sorted outside
   indices U_K (line-major), and ordered the supernodes by levels of the supernodal DAG, each level's team supernodes
   first, then its split ones, then its cuBLAS ones.

   Numeric phase (on the GPU, also after a host refresh): the triangle's values arrive in plan order (d_val, d_idiag of
   SpTrsvCUDATriData, host or device refresh), SpTrsvSupernodeGather fills D and O through the value maps, then with
   -mat_sptrsv_invert_diag SpTrsvSupernodeInvert computes X = D^{-1} of every team supernode (one block per supernode, a
   thread per column: SpTrsvSupernodeInvertColumn, the host's arithmetic; split supernodes: supernodal_split.cu, a block
   per column), and SpTrsvSupernodeScaleRows turns the blocks
   of the cuBLAS supernodes into the row-scaled form a unit-diagonal dtrsv takes (D_ij *= D_ii for i != j; pull: O's rows
   too), since D's diagonal holds 1/d_i.

   Solve: (push: x = b first) per level one launch of SpTrsvSupernodeTeam, one block per team supernode:
     pull: r = b_K - O x[U_K] (a warp per row of O, lanes over its columns, shuffle sum) in shared memory;
     push: r = x_K (b minus the pushes of earlier levels);
     then x_K = X r (GEMV, a thread per row) or the column sweep of D (a barrier per column: x_j = r_j D_jj, every
     thread then updates its rows r_i -= D_ij x_j), x_K written to global x;
     push: then a thread per outside row c: atomicAdd(x[U_K[c]], -sum_t O[t m + c] x_t).
   Then the level's split supernodes, two launches of row tasks over many blocks (supernodal_split.cu, where the
   argument for them is), then its cuBLAS supernodes, one after the other on the stream: a small kernel stages r (scaled by the inverted
   diagonal) and, for pull, x[U_K] into private buffers, cublas<t>gemv for the off-diagonal block (pull: before; push:
   after), cublas<t>trsv (unit diagonal, row-scaled D), a small kernel writes x_K back (push: and subtracts the update
   from x[U_K]). cuBLAS only sees the private buffers, so the whole sequence is captured in the solve's CUDA graph like
   the kernels, which read b and x through the device struct of SpTrsvCUDATriData.

   Why it is correct, and why it cannot deadlock.
   - No thread waits for another except at __syncthreads(), which every thread of a block reaches: the loop bounds (w,
     m, the columns) are the same for every thread of the block, the warp loop over rows has warp-uniform bounds for the
     shuffles, nothing returns early. Blocks never wait for each other: a launch finishes however few blocks are resident.
   - Pull: x[U_K] belongs to supernodes of earlier levels (SpTrsvSupernodalScheduleCheck), written by earlier launches
     on the same stream; no block of this launch writes them. x_K is written once, by K's block.
   - Push: every supernode that pushes into K is in an earlier level, so x_K holds b_K minus all its updates when K's
     block reads it; the updates of this launch go to rows of supernodes of later levels only, by atomics (several
     blocks may update one row). The order of those atomic additions is not fixed, so push results may differ from run
     to run in the last bits: the device checks compare with a tolerance.
   - Split and cuBLAS supernodes run after the level's team launch and before the next level, in stream order; they
     touch x only as a team supernode of their level would (their own rows; push: rows of later levels by atomics).
   - Shared memory (r, and for push y = x_K): every r[j] is written before the barrier after the first phase and read
     after it (column sweep: r[i] is updated by one thread, and the next column reads r[j + 1] after the barrier); y is
     written in the solve phase and read after the barrier "y complete"; a fused run's next supernode starts after a
     barrier. y starts at w rounded up to 16 bytes (SpTrsvSupernodeYOffset), so the compiler's widened 16-byte read
     of the last r[j] in the inverted GEMV never touches a y[i] being written (racecheck saw that read as a hazard),
     and y is followed by the same gap, which the widened read of the last y[t] in the push GEMV may reach.

   Delegated plans (no supernode as wide as -mat_sptrsv_supernode_min_width: nothing built but the
   partition): no device arrays here; setup makes the nested sync-free solver (SpTrsvSupernodalDelegateSetup), and the
   host and device value refreshes and the solves are forwarded to it (it runs its own kernels and graph).
*/
#include "supernodal_cuda.h"
#include <cublas_v2.h>
#include <climits>
#include <petsctime.h>

/* one cuBLAS handle for the process, created at the first setup that needs it, destroyed at PetscFinalize */
static cublasHandle_t SpTrsvCublasHandle = NULL;

static PetscErrorCode SpTrsvCublasFinalize(void)
{
  PetscFunctionBegin;
  if (SpTrsvCublasHandle) (void)cublasDestroy(SpTrsvCublasHandle);
  SpTrsvCublasHandle = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SpTrsvCublasGet(void)
{
  PetscFunctionBegin;
  if (!SpTrsvCublasHandle) {
    const cublasStatus_t st = cublasCreate(&SpTrsvCublasHandle);
    PetscCheck(st == CUBLAS_STATUS_SUCCESS, PETSC_COMM_SELF, PETSC_ERR_GPU, "sptrsv_supernodal: cublasCreate failed (status %d)", (int)st);
    PetscCall(PetscRegisterFinalize(SpTrsvCublasFinalize));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

#if defined(SPTRSV_CUDA_SCALAR_OK)

/* D and O from the values in plan order: map >= 0 a slot of val, -1 an explicit zero, -(2 + k) the inverted diagonal of
   plan position k (1 for a unit diagonal) */
__global__ void SpTrsvSupernodeGather(long long nD, long long nO, const int *__restrict__ dmap, const int *__restrict__ omap, const PetscScalar *__restrict__ val, const PetscScalar *__restrict__ idiag, PetscScalar *__restrict__ D, PetscScalar *__restrict__ O)
{
  for (long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x; t < nD + nO; t += (long long)gridDim.x * blockDim.x) {
    if (t < nD) {
      const int mp = dmap[t];
      D[t]         = mp >= 0 ? val[mp] : (mp == -1 ? (PetscScalar)0 : (idiag ? idiag[-mp - 2] : (PetscScalar)1));
    } else {
      const int mp = omap[t - nD];
      O[t - nD]    = mp >= 0 ? val[mp] : (PetscScalar)0;
    }
  }
}

/* X = D^{-1} of the supernodes list[blockIdx.x], a thread per column */
__global__ void SpTrsvSupernodeInvert(const int *__restrict__ list, const SpTrsvCUDASupernodalArrays a, PetscScalar *X, bool lower)
{
  const int       K = list[blockIdx.x];
  const int       w = a.super[K + 1] - a.super[K];
  const long long d = a.dptr[K];

  for (int j = (int)threadIdx.x; j < w; j += (int)blockDim.x) SpTrsvSupernodeInvertColumn(w, a.D + d, X + d, j, lower ? PETSC_TRUE : PETSC_FALSE);
}

/* invert_diag auto: kappa = ||D||_inf ||X||_inf of the supernode chk[blockIdx.x].x (X row-major where .y), by the
   host's arithmetic (SpTrsvSupernodeCondRow, SpTrsvSupernodeCondKappa); ok[K] = kappa <= cond.
   SPTRSV_SUPERNODE_COND_BLOCK threads, a thread per row, a tree reduction of the maxima. */
#define SPTRSV_SUPERNODE_COND_BLOCK 128
__global__ void __launch_bounds__(SPTRSV_SUPERNODE_COND_BLOCK) SpTrsvSupernodeCond(const int2 *__restrict__ chk, const SpTrsvCUDASupernodalArrays a, const PetscScalar *X, PetscReal cond, PetscReal *kappa, int *ok)
{
  __shared__ PetscReal red[2][SPTRSV_SUPERNODE_COND_BLOCK];
  const int            K = chk[blockIdx.x].x, w = a.super[K + 1] - a.super[K], tid = (int)threadIdx.x;
  const bool           xrow = chk[blockIdx.x].y != 0;
  const long long      d = a.dptr[K];
  PetscReal            nd = 0, nx = 0;

  for (int i = tid; i < w; i += SPTRSV_SUPERNODE_COND_BLOCK) SpTrsvSupernodeCondRow(w, a.D + d, X + d, xrow ? PETSC_TRUE : PETSC_FALSE, i, &nd, &nx);
  red[0][tid] = nd;
  red[1][tid] = nx;
  for (int h = SPTRSV_SUPERNODE_COND_BLOCK / 2; h > 0; h >>= 1) {
    __syncthreads();
    if (tid < h) {
      red[0][tid] = red[0][tid] > red[0][tid + h] ? red[0][tid] : red[0][tid + h];
      red[1][tid] = red[1][tid] > red[1][tid + h] ? red[1][tid] : red[1][tid + h];
    }
  }
  if (tid == 0) {
    kappa[K] = SpTrsvSupernodeCondKappa(red[0][0], red[1][0]);
    ok[K]    = kappa[K] <= cond ? 1 : 0;
  }
}

/* the cuBLAS supernodes list[blockIdx.x]: rows of D (off its diagonal) and, pull, of O scaled by D's diagonal */
__global__ void SpTrsvSupernodeScaleRows(const int *__restrict__ list, const SpTrsvCUDASupernodalArrays a, PetscScalar *D, PetscScalar *O, bool pull)
{
  const int       K = list[blockIdx.x];
  const int       w = a.super[K + 1] - a.super[K], m = a.uptr[K + 1] - a.uptr[K];
  PetscScalar    *Dk = D + a.dptr[K], *Ok = O + a.optr[K];
  const long long ww = (long long)w * w, wm = (long long)w * m;

  for (long long t = threadIdx.x; t < ww; t += blockDim.x) {
    const long long i = t % w;
    if (i != t / w) Dk[t] *= Dk[i + i * w]; /* the diagonal is never written */
  }
  if (pull)
    for (long long t = threadIdx.x; t < wm; t += blockDim.x) Ok[t] *= Dk[(t / m) * (w + 1)];
}

/* where y starts in a team block's shared memory: w rounded up to 16 bytes. The GEMV of the inverted path reads r
   with 16-byte shared loads, and nvcc widens the last one to the 16 bytes around r[w - 1] when w is odd (double:
   w % 4 == 1, LDS.128 at r[w - 1] reads r[w] too, unused). With y = r + w that discarded read touched y[0] while
   thread 0 wrote it, with no barrier between: racecheck reported it (a warning when both were in one warp), though no
   value read ever came from it. y past the rounded end keeps those bytes apart from anything written before the next
   barrier. */
#define SPTRSV_SUPERNODE_VEC ((int)(sizeof(PetscScalar) >= 16 ? 1 : 16 / sizeof(PetscScalar)))
__host__ __device__ __forceinline__ int SpTrsvSupernodeYOffset(int w)
{
  return (w + SPTRSV_SUPERNODE_VEC - 1) / SPTRSV_SUPERNODE_VEC * SPTRSV_SUPERNODE_VEC;
}

/* the dynamic shared memory of a team launch whose widest supernode is wmax: r (w scalars), the gap, y (w scalars), and
   y's own gap: the push GEMV's reads of y are widened the same way, and the 16 bytes around y[w - 1] reach one scalar
   past y when w = wmax is odd (memcheck: an out-of-bounds shared read with y ending at the allocation) */
static inline size_t SpTrsvSupernodeTeamSmem(PetscInt wmax)
{
  return (size_t)(2 * SpTrsvSupernodeYOffset((int)wmax)) * sizeof(PetscScalar);
}

/* team supernode K by the whole block (see the top of this file); r: SpTrsvSupernodeTeamSmem(w) bytes of shared
   memory, y = r + SpTrsvSupernodeYOffset(w) */
template <bool PUSH, bool INV, bool LOWER>
__device__ __forceinline__ void SpTrsvSupernodeTeamOne(const SpTrsvCUDASupernodalArrays &a, const int K, SpTrsvCUDAVecPtrs &v, PetscScalar *r)
{
  const int          s  = __ldg(a.super + K), w = __ldg(a.super + K + 1) - s;
  const int          u0 = __ldg(a.uptr + K), m = __ldg(a.uptr + K + 1) - u0;
  const int         *U  = a.uidx + u0;
  const PetscScalar *O  = a.O + __ldg(a.optr + K);
  const long long    d0 = __ldg(a.dptr + K);
  PetscScalar       *y  = r + SpTrsvSupernodeYOffset(w); /* not r + w: see SpTrsvSupernodeYOffset */
  const int          tid = (int)threadIdx.x, nt = (int)blockDim.x;

  if (PUSH) {
    for (int i = tid; i < w; i += nt) r[i] = __ldcg(v.x + s + i); /* from L2: a fused run's earlier pushes are atomics */
  } else {
    const int warp = tid >> 5, lane = tid & 31, nw = nt >> 5;
    for (int i = warp; i < w; i += nw) { /* warp-uniform bounds: every lane reaches the shuffles */
      PetscScalar sum = 0;
      for (int c = lane; c < m; c += 32) sum += __ldg(O + (long long)i * m + c) * v.x[__ldg(U + c)];
      sum = SpTrsvGroupSum<32>(sum);
      if (lane == 0) r[i] = v.b[s + i] - sum;
    }
  }
  __syncthreads();
  if (INV && (!a.ok || __ldg(a.ok + K))) {
    const PetscScalar *X = a.X + d0;
    for (int i = tid; i < w; i += nt) {
      PetscScalar acc = 0;
      for (int j = 0; j < w; j++) acc += __ldg(X + i + (long long)j * w) * r[j];
      v.x[s + i] = acc;
      if (PUSH) y[i] = acc;
    }
  } else { /* not inverted, or (invert_diag auto) an ill-conditioned block: block-uniform, ok[K] is one value */
    const PetscScalar *D = a.D + d0;
    SpTrsvSupernodeSweep<LOWER>(w, D, r, tid, nt);
    for (int i = tid; i < w; i += nt) {
      const PetscScalar xi = r[i] * __ldg(D + i + (long long)i * w);
      v.x[s + i]           = xi;
      if (PUSH) y[i] = xi;
    }
  }
  if (PUSH) {
    __syncthreads(); /* y complete */
    for (int c = tid; c < m; c += nt) {
      PetscScalar acc = 0;
      for (int t = 0; t < w; t++) acc += __ldg(O + (long long)t * m + c) * y[t];
      atomicAdd(v.x + __ldg(U + c), -acc);
    }
  }
}

/* one block per team supernode sorder[pos0 + blockIdx.x] (nseq = 1), or one block running the supernodes sorder[pos0 ..
   pos0 + nseq) one after the other (a fused run of small levels, launched with one block): a barrier between two
   supernodes makes the first's x_K (pull) or its pushed updates (push atomics) visible to the next */
template <bool PUSH, bool INV, bool LOWER>
__global__ void __launch_bounds__(SPTRSV_SUPERNODE_BLOCK_MAX) SpTrsvSupernodeTeam(const SpTrsvCUDASupernodalArrays a, int pos0, int nseq, SpTrsvCUDAVecPtrs v, const SpTrsvCUDAVecPtrs *vp)
{
  extern __shared__ __align__(16) unsigned char sptrsv_supernode_smem[];
  PetscScalar *r = reinterpret_cast<PetscScalar *>(sptrsv_supernode_smem);

  if (vp) SpTrsvReadVecPtrs<false>(v, vp);
  for (int q = 0; q < nseq; q++) {
    if (q) __syncthreads(); /* the previous supernode done: its x (and pushes) visible, r free */
    SpTrsvSupernodeTeamOne<PUSH, INV, LOWER>(a, __ldg(a.sorder + pos0 + (int)blockIdx.x + q), v, r);
  }
}

/* cuBLAS supernode, before the BLAS calls: br = (push ? x_K : b_K) .* diag(D), pull: bg = x[U_K] */
template <bool PUSH>
__global__ void SpTrsvSupernodeCublasIn(int s, int w, const int *__restrict__ U, int m, const PetscScalar *__restrict__ D, PetscScalar *br, PetscScalar *bg, SpTrsvCUDAVecPtrs v, const SpTrsvCUDAVecPtrs *vp)
{
  if (vp) SpTrsvReadVecPtrs<false>(v, vp);
  for (int t = blockIdx.x * blockDim.x + threadIdx.x; t < w || (!PUSH && t < m); t += gridDim.x * blockDim.x) {
    if (t < w) br[t] = (PUSH ? v.x[s + t] : v.b[s + t]) * D[t + (long long)t * w];
    if (!PUSH && t < m) bg[t] = v.x[U[t]];
  }
}

/* after: x_K = br, push: x[U_K] -= bg */
template <bool PUSH>
__global__ void SpTrsvSupernodeCublasOut(int s, int w, const int *__restrict__ U, int m, const PetscScalar *br, const PetscScalar *bg, SpTrsvCUDAVecPtrs v, const SpTrsvCUDAVecPtrs *vp)
{
  if (vp) SpTrsvReadVecPtrs<false>(v, vp);
  for (int t = blockIdx.x * blockDim.x + threadIdx.x; t < w || (PUSH && t < m); t += gridDim.x * blockDim.x) {
    if (t < w) v.x[s + t] = br[t];
    if (PUSH && t < m) v.x[U[t]] -= bg[t];
  }
}

  #if defined(PETSC_USE_REAL_SINGLE)
    #define SpTrsvCublasGemv cublasSgemv
    #define SpTrsvCublasTrsv cublasStrsv
  #else
    #define SpTrsvCublasGemv cublasDgemv
    #define SpTrsvCublasTrsv cublasDtrsv
  #endif

static cudaError_t SpTrsvCublasError(cublasStatus_t st)
{
  return st == CUBLAS_STATUS_SUCCESS ? cudaSuccess : cudaErrorUnknown; /* a launch hook reports CUDA errors only */
}

/* one cuBLAS supernode K (see the top of this file) */
static cudaError_t SpTrsvSupernodeCublas(const SpTrsvCUDASupernodal &sc, PetscInt K, SpTrsvCUDAVecPtrs v, const SpTrsvCUDAVecPtrs *vp, cudaStream_t st)
{
  const SpTrsvSupernodalSchedule *ss = sc.ss;
  const int                       s = (int)ss->super[K], w = (int)(ss->super[K + 1] - ss->super[K]), m = (int)(ss->uptr[K + 1] - ss->uptr[K]);
  const int                      *U = sc.d_uidx + ss->uptr[K];
  const PetscScalar              *D = sc.d_D + ss->dptr[K], *O = sc.d_O + ss->optr[K];
  const PetscScalar               one = 1, mone = -1, zero = 0;
  const unsigned int              grid = SpTrsvCUDAVecGrid(PetscMax(w, m));
  const cublasFillMode_t          fill = ss->lower ? CUBLAS_FILL_MODE_LOWER : CUBLAS_FILL_MODE_UPPER;
  cudaError_t                     err;

  if (ss->push) SpTrsvSupernodeCublasIn<true><<<grid, SPTRSV_CUDA_VEC_BLOCK, 0, st>>>(s, w, U, m, D, sc.d_br, sc.d_bg, v, vp);
  else SpTrsvSupernodeCublasIn<false><<<grid, SPTRSV_CUDA_VEC_BLOCK, 0, st>>>(s, w, U, m, D, sc.d_br, sc.d_bg, v, vp);
  if ((err = cudaGetLastError()) != cudaSuccess) return err;
  if (!ss->push && m && (err = SpTrsvCublasError(SpTrsvCublasGemv(SpTrsvCublasHandle, CUBLAS_OP_T, m, w, &mone, O, m, sc.d_bg, 1, &one, sc.d_br, 1))) != cudaSuccess) return err;
  if ((err = SpTrsvCublasError(SpTrsvCublasTrsv(SpTrsvCublasHandle, fill, CUBLAS_OP_N, CUBLAS_DIAG_UNIT, w, D, w, sc.d_br, 1))) != cudaSuccess) return err;
  if (ss->push && m && (err = SpTrsvCublasError(SpTrsvCublasGemv(SpTrsvCublasHandle, CUBLAS_OP_N, m, w, &one, O, m, sc.d_br, 1, &zero, sc.d_bg, 1))) != cudaSuccess) return err;
  if (ss->push) SpTrsvSupernodeCublasOut<true><<<grid, SPTRSV_CUDA_VEC_BLOCK, 0, st>>>(s, w, U, m, sc.d_br, sc.d_bg, v, vp);
  else SpTrsvSupernodeCublasOut<false><<<grid, SPTRSV_CUDA_VEC_BLOCK, 0, st>>>(s, w, U, m, sc.d_br, sc.d_bg, v, vp);
  return cudaGetLastError();
}

typedef void (*SpTrsvSupernodeTeamFn)(const SpTrsvCUDASupernodalArrays, int, int, SpTrsvCUDAVecPtrs, const SpTrsvCUDAVecPtrs *);
/* the team kernel instance for (push, invert, lower): index 4 push + 2 invert + lower */
static const SpTrsvSupernodeTeamFn SpTrsvSupernodeTeamKernels[8] = {SpTrsvSupernodeTeam<false, false, false>, SpTrsvSupernodeTeam<false, false, true>, SpTrsvSupernodeTeam<false, true, false>, SpTrsvSupernodeTeam<false, true, true>,
                                                                    SpTrsvSupernodeTeam<true, false, false>,  SpTrsvSupernodeTeam<true, false, true>,  SpTrsvSupernodeTeam<true, true, false>,  SpTrsvSupernodeTeam<true, true, true>};

/* the whole launch sequence of a solve (SpTrsvCUDALaunchFn); no sweeps */
static cudaError_t SpTrsvCUDASupernodalLaunch(const SpTrsvCUDATriData *d, PetscBool sweep, SpTrsvCUDAVecPtrs v, const SpTrsvCUDAVecPtrs *vp, cudaStream_t st)
{
  const SpTrsvCUDASupernodal     &sc = *(const SpTrsvCUDASupernodal *)d->path;
  const SpTrsvSupernodalSchedule *ss = sc.ss;
  const SpTrsvSupernodeTeamFn     team = SpTrsvSupernodeTeamKernels[4 * (ss->push ? 1 : 0) + 2 * (ss->invert ? 1 : 0) + (ss->lower ? 1 : 0)];
  cudaError_t                     err;

  if (sweep) return cudaErrorNotSupported;
  if (ss->push && (err = SpTrsvCUDALaunchCopyRHS(d->n, NULL, v, vp, st)) != cudaSuccess) return err; /* x = b */
  if (sc.ncub && (err = SpTrsvCublasError(cublasSetStream(SpTrsvCublasHandle, st))) != cudaSuccess) return err;
  for (PetscInt l = 0; l < ss->nlevels; l++) {
    const PetscInt p0 = ss->slevptr[l], nteam = ss->nteam[l];
    if (ss->fuse[l] > 1) { /* levels l .. l + fuse - 1, team supernodes only: one block runs them in order */
      team<<<1, ss->block[l], SpTrsvSupernodeTeamSmem(ss->wmax[l]), st>>>(sc.a, (int)p0, (int)(ss->slevptr[l + ss->fuse[l]] - p0), v, vp);
      if ((err = cudaGetLastError()) != cudaSuccess) return err;
      l += ss->fuse[l] - 1;
      continue;
    }
    if (nteam) {
      team<<<(unsigned int)nteam, ss->block[l], SpTrsvSupernodeTeamSmem(ss->wmax[l]), st>>>(sc.a, (int)p0, 1, v, vp);
      if ((err = cudaGetLastError()) != cudaSuccess) return err;
    }
    if ((err = SpTrsvCUDASupernodalSplitLevel(sc, l, v, vp, st)) != cudaSuccess) return err;
    for (PetscInt k = p0 + nteam + ss->nsplit[l]; k < ss->slevptr[l + 1]; k++)
      if ((err = SpTrsvSupernodeCublas(sc, ss->sorder[k], v, vp, st)) != cudaSuccess) return err;
  }
  return cudaSuccess;
}

/* the numeric phase on the device: D, O from the values in plan order, X, the row scaling of the cuBLAS supernodes */
static PetscErrorCode SpTrsvCUDASupernodalNumeric(SpTrsvSolver s)
{
  SpTrsvCUDATriData              *d  = (SpTrsvCUDATriData *)s->bdata;
  SpTrsvCUDASupernodal           *sc = (SpTrsvCUDASupernodal *)d->path;
  const SpTrsvSupernodalSchedule *ss = sc->ss;
  const long long                 nD = (long long)ss->dptr[ss->ns], nO = (long long)ss->optr[ss->ns];
  cudaStream_t                    st = NULL;

  PetscFunctionBegin;
  PetscCall(SpTrsvCUDAGetStream(&st));
  if (nD + nO) {
    SpTrsvSupernodeGather<<<SpTrsvCUDAVecGrid((PetscInt)PetscMin(nD + nO, (long long)PETSC_INT_MAX)), SPTRSV_CUDA_VEC_BLOCK, 0, st>>>(nD, nO, sc->d_dmap, sc->d_omap, d->d_val, d->unit ? NULL : d->d_idiag, sc->d_D, sc->d_O);
    SpTrsvCUDACheckLaunch();
  }
  if (sc->ninv) {
    SpTrsvSupernodeInvert<<<(unsigned int)sc->ninv, 128, 0, st>>>(sc->d_invlist, sc->a, sc->d_X, ss->lower ? true : false);
    SpTrsvCUDACheckLaunch();
  }
  SpTrsvCUDACall(SpTrsvCUDASupernodalSplitInvert(*sc, st));
  if (sc->nchk) { /* invert_diag auto: which inverses are used (before the row scaling, which only cuBLAS supernodes get) */
    SpTrsvSupernodeCond<<<(unsigned int)sc->nchk, SPTRSV_SUPERNODE_COND_BLOCK, 0, st>>>(sc->d_chk, sc->a, sc->d_X, ss->invert_cond, sc->d_kappa, sc->d_ok);
    SpTrsvCUDACheckLaunch();
    SpTrsvCUDACall(cudaMemcpyAsync(sc->h_kappa, sc->d_kappa, (size_t)ss->ns * sizeof(PetscReal), cudaMemcpyDeviceToHost, st));
  }
  if (sc->ncub) {
    SpTrsvSupernodeScaleRows<<<(unsigned int)sc->ncub, SPTRSV_CUDA_VEC_BLOCK, 0, st>>>(sc->d_cublist, sc->a, sc->d_D, sc->d_O, ss->push ? false : true);
    SpTrsvCUDACheckLaunch();
  }
  SpTrsvCUDACall(cudaStreamSynchronize(st));
  if (sc->nchk) SpTrsvSupernodeInvertCheckRecord(&((SpTrsvSupernodalSchedule *)ss)->icheck, ss->invert_cond, ss->ns, sc->h_kappa);
  PetscFunctionReturn(PETSC_SUCCESS);
}

#else /* complex or exotic scalars: the backend reports itself unavailable and never launches these */

static cudaError_t SpTrsvCUDASupernodalLaunch(const SpTrsvCUDATriData *d, PetscBool sweep, SpTrsvCUDAVecPtrs v, const SpTrsvCUDAVecPtrs *vp, cudaStream_t st)
{
  return cudaErrorNotSupported;
}

static PetscErrorCode SpTrsvCUDASupernodalNumeric(SpTrsvSolver s)
{
  PetscFunctionBegin;
  SETERRQ(PETSC_COMM_SELF, PETSC_ERR_SUP, "sptrsv_supernodal: the CUDA kernels take real scalars only");
}
#endif

/* launches of a solve (SpTrsvCUDALaunchesFn): the push copy, a team launch per level that has team supernodes, two per
   level that has split supernodes, the kernels and cuBLAS calls of the cuBLAS supernodes */
static PetscInt SpTrsvCUDASupernodalLaunches(const SpTrsvCUDATriData *d, PetscBool sweep)
{
  const SpTrsvSupernodalSchedule *ss = ((const SpTrsvCUDASupernodal *)d->path)->ss;
  PetscInt                        n  = ss->push ? 1 : 0;

  for (PetscInt l = 0; l < ss->nlevels; l++) n += ss->fuse[l] > 1 ? 1 : (ss->fuse[l] ? (ss->nteam[l] ? 1 : 0) + (ss->nsplit[l] ? (ss->invert_auto ? 3 : 2) : 0) : 0);
  return n + 4 * ss->ncublas;
}

static PetscErrorCode SpTrsvCUDASupernodalDestroy(SpTrsvCUDATriData *d)
{
  SpTrsvCUDASupernodal *sc = (SpTrsvCUDASupernodal *)d->path;

  PetscFunctionBegin;
  if (!sc) PetscFunctionReturn(PETSC_SUCCESS);
  SpTrsvCUDACall(SpTrsvCUDAFree(sc->d_super));
  SpTrsvCUDACall(SpTrsvCUDAFree(sc->d_sorder));
  SpTrsvCUDACall(SpTrsvCUDAFree(sc->d_uptr));
  SpTrsvCUDACall(SpTrsvCUDAFree(sc->d_uidx));
  SpTrsvCUDACall(SpTrsvCUDAFree(sc->d_dmap));
  SpTrsvCUDACall(SpTrsvCUDAFree(sc->d_omap));
  SpTrsvCUDACall(SpTrsvCUDAFree(sc->d_invlist));
  SpTrsvCUDACall(SpTrsvCUDAFree(sc->d_cublist));
  SpTrsvCUDACall(SpTrsvCUDAFree(sc->d_dptr));
  SpTrsvCUDACall(SpTrsvCUDAFree(sc->d_optr));
  SpTrsvCUDACall(SpTrsvCUDAFree(sc->d_D));
  SpTrsvCUDACall(SpTrsvCUDAFree(sc->d_X));
  SpTrsvCUDACall(SpTrsvCUDAFree(sc->d_O));
  SpTrsvCUDACall(SpTrsvCUDAFree(sc->d_br));
  SpTrsvCUDACall(SpTrsvCUDAFree(sc->d_bg));
  SpTrsvCUDACall(SpTrsvCUDAFree(sc->d_chk));
  SpTrsvCUDACall(SpTrsvCUDAFree(sc->d_ok));
  SpTrsvCUDACall(SpTrsvCUDAFree(sc->d_kappa));
  PetscCall(PetscFree(sc->h_kappa));
  PetscCall(SpTrsvCUDASupernodalSplitDestroy(sc));
  PetscCall(PetscFree(d->path));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* n PetscInt64 offsets as a new device array of long long (synchronous) */
static PetscErrorCode SpTrsvCUDAUploadOffsets(const PetscInt64 *h, PetscInt n, long long **dd, cudaStream_t st)
{
  long long  *t;
  cudaError_t cerr;

  PetscFunctionBegin;
  PetscCall(SpTrsvCUDAMalloc((void **)dd, (size_t)(n + 1) * sizeof(long long), "sptrsv_supernodal"));
  PetscCall(PetscMalloc1(n + 1, &t));
  for (PetscInt k = 0; k < n; k++) t[k] = (long long)h[k];
  cerr = cudaMemcpyAsync(*dd, t, (size_t)n * sizeof(long long), cudaMemcpyHostToDevice, st);
  if (cerr == cudaSuccess) cerr = cudaStreamSynchronize(st);
  PetscCall(PetscFree(t)); /* before a failed copy is reported */
  SpTrsvCUDACall(cerr);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SpTrsvCUDAMallocScalars(PetscScalar **p, long long n)
{
  PetscFunctionBegin;
  PetscCall(SpTrsvCUDAMalloc((void **)p, (size_t)(n + 1) * sizeof(PetscScalar), "sptrsv_supernodal"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* invert_diag auto: the list of blocks to check (team supernodes' X column-major, split ones' row-major), the decisions
   (every block's inverse used until a check says otherwise) and kappa (-1: not checked) */
static PetscErrorCode SpTrsvCUDASupernodalCheckSetup(SpTrsvCUDASupernodal *sc, cudaStream_t st)
{
  const SpTrsvSupernodalSchedule *ss = sc->ss;
  int                            *h, *one;
  cudaError_t                     cerr;

  PetscFunctionBegin;
  PetscCall(SpTrsvCUDAMalloc((void **)&sc->d_chk, (size_t)(ss->ns + 1) * sizeof(int2), "sptrsv_supernodal"));
  PetscCall(SpTrsvCUDAMalloc((void **)&sc->d_ok, (size_t)(ss->ns + 1) * sizeof(int), "sptrsv_supernodal"));
  PetscCall(SpTrsvCUDAMalloc((void **)&sc->d_kappa, (size_t)(ss->ns + 1) * sizeof(PetscReal), "sptrsv_supernodal"));
  PetscCall(PetscMalloc1(ss->ns + 1, &sc->h_kappa));
  PetscCall(PetscMalloc2(2 * ss->ns + 2, &h, ss->ns + 1, &one));
  for (PetscInt l = 0; l < ss->nlevels; l++)
    for (PetscInt k = ss->slevptr[l]; k < ss->slevptr[l] + ss->nteam[l] + ss->nsplit[l]; k++) {
      h[2 * sc->nchk]     = (int)ss->sorder[k];
      h[2 * sc->nchk + 1] = k >= ss->slevptr[l] + ss->nteam[l] ? 1 : 0; /* split: X row-major */
      sc->nchk++;
    }
  for (PetscInt K = 0; K < ss->ns; K++) {
    one[K]         = 1;
    sc->h_kappa[K] = -1;
  }
  cerr = cudaMemcpyAsync(sc->d_chk, h, (size_t)sc->nchk * sizeof(int2), cudaMemcpyHostToDevice, st);
  if (cerr == cudaSuccess) cerr = cudaMemcpyAsync(sc->d_ok, one, (size_t)ss->ns * sizeof(int), cudaMemcpyHostToDevice, st);
  if (cerr == cudaSuccess) cerr = cudaMemcpyAsync(sc->d_kappa, sc->h_kappa, (size_t)ss->ns * sizeof(PetscReal), cudaMemcpyHostToDevice, st);
  if (cerr == cudaSuccess) cerr = cudaStreamSynchronize(st);
  PetscCall(PetscFree2(h, one)); /* before a failed copy is reported */
  SpTrsvCUDACall(cerr);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvCUDASupernodalSetup - the triangle in plan order (SpTrsvCUDATriSetupBegin: the values' route from the host or the
  device factorization), the schedule, the value maps translated to plan-order slots, the blocks and cuBLAS buffers; then
  SpTrsvCUDATriSetupEnd (values, graph capture) and the numeric phase when the values exist
*/
static PetscErrorCode SpTrsvCUDASupernodalSetup(SpTrsvSolver s)
{
  const SpTrsvSupernodalSchedule *ss = (const SpTrsvSupernodalSchedule *)s->plan->data;
  const long long                 nD = ss->delegated ? 0 : (long long)ss->dptr[ss->ns], nO = ss->delegated ? 0 : (long long)ss->optr[ss->ns];
  SpTrsvCUDATriData              *d;
  SpTrsvCUDASupernodal           *sc;
  cudaStream_t                    st = NULL;
  PetscInt                       *vinv, *pos, *inv, *cub;
  int                            *hm;
  PetscLogDouble                  t[7]; /* -info: where the setup's time goes (check, triangle, maps, schedule, cuBLAS, the rest) */

  PetscFunctionBegin;
  PetscCall(PetscTime(&t[0]));
  PetscCheck(!s->rest, PETSC_COMM_SELF, PETSC_ERR_SUP, "sptrsv_supernodal has no Gauss-Seidel sweeps");
  if (ss->delegated) {
    PetscCall(SpTrsvSupernodalScheduleCheck(&s->op, s->plan));
    PetscCall(SpTrsvSupernodalDelegateSetup(s));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCheck(ss->ns < INT_MAX && ss->uptr[ss->ns] < INT_MAX, PETSC_COMM_SELF, PETSC_ERR_INT_OVERFLOW, "sptrsv_supernodal: the CUDA kernels use 32-bit indices");
  PetscCall(SpTrsvSupernodalScheduleCheck(&s->op, s->plan));
  PetscCall(PetscTime(&t[1]));
  PetscCall(SpTrsvCUDATriSetupBegin(s, SpTrsvCUDASupernodalLaunch, SpTrsvCUDASupernodalLaunches, &d));
  PetscCall(PetscTime(&t[2]));
  PetscCall(SpTrsvCUDAGetStream(&st));
  PetscCall(PetscNew(&sc));
  d->path         = sc;
  d->path_destroy = SpTrsvCUDASupernodalDestroy;
  sc->ss          = ss;
  /* value maps: entries of op(T) -> slots of d_val (plan order), diagonal -> plan position */
  PetscCall(PetscMalloc4(d->nnz + 1, &vinv, d->n + 1, &pos, ss->ns + 1, &inv, ss->ns + 1, &cub));
  for (PetscInt q = 0; q < d->nnz; q++) vinv[d->vmap[q]] = q;
  for (PetscInt k = 0; k < d->n; k++) pos[s->plan->order[k]] = k;
  PetscCall(PetscMalloc1(PetscMax(nD, nO) + 1, &hm));
  for (PetscInt K = 0; K < ss->ns; K++) {
    const PetscInt s0 = ss->super[K], w = ss->super[K + 1] - s0;
    for (PetscInt64 t = ss->dptr[K]; t < ss->dptr[K + 1]; t++) {
      const PetscInt mp = ss->dmap[t];
      hm[t]             = mp >= 0 ? (int)vinv[mp] : (mp == SPTRSV_SUPERNODE_ZERO ? -1 : (int)(-2 - pos[s0 + (t - ss->dptr[K]) % w]));
    }
  }
  PetscCall(SpTrsvCUDAMalloc((void **)&sc->d_dmap, (size_t)(nD + 1) * sizeof(int), "sptrsv_supernodal"));
  SpTrsvCUDACall(cudaMemcpy(sc->d_dmap, hm, (size_t)nD * sizeof(int), cudaMemcpyHostToDevice));
  for (long long t = 0; t < nO; t++) hm[t] = ss->omap[t] >= 0 ? (int)vinv[ss->omap[t]] : -1;
  PetscCall(SpTrsvCUDAMalloc((void **)&sc->d_omap, (size_t)(nO + 1) * sizeof(int), "sptrsv_supernodal"));
  SpTrsvCUDACall(cudaMemcpy(sc->d_omap, hm, (size_t)nO * sizeof(int), cudaMemcpyHostToDevice));
  PetscCall(PetscFree(hm));
  PetscCall(PetscTime(&t[3]));
  /* the schedule */
  PetscCall(SpTrsvCUDAUploadIndices(ss->super, ss->ns + 1, &sc->d_super, st));
  PetscCall(SpTrsvCUDAUploadIndices(ss->sorder, ss->ns, &sc->d_sorder, st));
  PetscCall(SpTrsvCUDAUploadIndices(ss->uptr, ss->ns + 1, &sc->d_uptr, st));
  PetscCall(SpTrsvCUDAUploadIndices(ss->uidx, ss->uptr[ss->ns], &sc->d_uidx, st));
  PetscCall(SpTrsvCUDAUploadOffsets(ss->dptr, ss->ns + 1, &sc->d_dptr, st));
  PetscCall(SpTrsvCUDAUploadOffsets(ss->optr, ss->ns + 1, &sc->d_optr, st));
  PetscCall(SpTrsvCUDAMallocScalars(&sc->d_D, nD));
  PetscCall(SpTrsvCUDAMallocScalars(&sc->d_O, nO));
  if (ss->invert) PetscCall(SpTrsvCUDAMallocScalars(&sc->d_X, nD));
  /* which supernodes are inverted (team ones, with the option) and which run through cuBLAS */
  for (PetscInt l = 0; l < ss->nlevels; l++)
    for (PetscInt k = ss->slevptr[l]; k < ss->slevptr[l + 1]; k++) {
      if (k < ss->slevptr[l] + ss->nteam[l]) {
        if (ss->invert) inv[sc->ninv++] = ss->sorder[k];
      } else if (k >= ss->slevptr[l] + ss->nteam[l] + ss->nsplit[l]) cub[sc->ncub++] = ss->sorder[k];
    }
  if (sc->ninv) PetscCall(SpTrsvCUDAUploadIndices(inv, sc->ninv, &sc->d_invlist, st));
  PetscCall(PetscTime(&t[4]));
  if (sc->ncub) {
    PetscCall(SpTrsvCUDAUploadIndices(cub, sc->ncub, &sc->d_cublist, st));
    PetscCall(SpTrsvCUDAMallocScalars(&sc->d_br, ss->max_cublas_w));
    PetscCall(SpTrsvCUDAMallocScalars(&sc->d_bg, ss->max_cublas_m));
    PetscCall(SpTrsvCublasGet());
  }
  PetscCall(PetscTime(&t[5]));
  PetscCall(PetscFree4(vinv, pos, inv, cub));
  if (ss->invert_auto) PetscCall(SpTrsvCUDASupernodalCheckSetup(sc, st));
  sc->a.super  = sc->d_super;
  sc->a.sorder = sc->d_sorder;
  sc->a.uptr   = sc->d_uptr;
  sc->a.uidx   = sc->d_uidx;
  sc->a.dptr   = sc->d_dptr;
  sc->a.optr   = sc->d_optr;
  sc->a.D      = sc->d_D;
  sc->a.X      = sc->d_X;
  sc->a.O      = sc->d_O;
  sc->a.ok     = sc->d_ok;
  PetscCall(SpTrsvCUDASupernodalSplitSetup(sc, d->n, st));
  PetscCall(SpTrsvCUDATriSetupEnd(s));
  if (!s->tri->values_unset) PetscCall(SpTrsvCUDASupernodalNumeric(s));
  PetscCall(PetscTime(&t[6]));
  PetscCall(PetscInfo(NULL, "sptrsv_supernodal CUDA setup %.4f s: schedule check %.4f, triangle %.4f, value maps %.4f, schedule %.4f, cuBLAS (%" PetscInt_FMT " supernodes) %.4f, split, graph%s %.4f\n", t[6] - t[0], t[1] - t[0], t[2] - t[1], t[3] - t[2], t[4] - t[3], (PetscInt)sc->ncub, t[5] - t[4], s->tri->values_unset ? "" : " and numeric", t[6] - t[5]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* new values from the host: the plan-order copy, then the blocks (delegated: the nested solver's refresh) */
static PetscErrorCode SpTrsvCUDASupernodalUpdateValues(SpTrsvSolver s)
{
  PetscFunctionBegin;
  if (s->nested) {
    PetscCall(SpTrsvSolverUpdateValues(s->nested));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(SpTrsvCUDATriUpdateValues(s));
  PetscCall(SpTrsvCUDASupernodalNumeric(s));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* new values on the device (the GPU numeric factorization): the plan-order gather, then the blocks, all on the GPU
   (delegated: handed to the nested solver, device to device, which is then current) */
static PetscErrorCode SpTrsvCUDASupernodalUpdateValuesDevice(SpTrsvSolver s, const PetscScalar *a, const PetscScalar *dg, const PetscScalar *r)
{
  PetscFunctionBegin;
  if (s->nested) {
    PetscCall(SpTrsvSolverUpdateValuesDevice(s->nested, a, dg, r));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(SpTrsvCUDATriUpdateValuesDevice(s, a, dg, r));
  PetscCall(SpTrsvCUDASupernodalNumeric(s));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SpTrsvCUDASupernodalSolve(SpTrsvSolver s, const PetscScalar *b, PetscScalar *x)
{
  PetscFunctionBegin;
  if (s->nested) PetscCall(SpTrsvSolverApply(s->nested, b, x));
  else PetscCall(SpTrsvCUDATriSolve(s, b, x));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SpTrsvCUDASupernodalDestroyAll(SpTrsvSolver s)
{
  PetscFunctionBegin;
  PetscCall(SpTrsvSupernodalDelegateDestroy(s));
  PetscCall(SpTrsvCUDATriDestroy(s));
  PetscFunctionReturn(PETSC_SUCCESS);
}

const SpTrsvExecutor SpTrsvExecCUDA_supernodal = {SpTrsvCUDASupernodalSetup, SpTrsvCUDASupernodalUpdateValues, SpTrsvCUDASupernodalSolve, NULL, SpTrsvCUDASupernodalDestroyAll, SpTrsvCUDASupernodalUpdateValuesDevice};
