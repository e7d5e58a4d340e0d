/*
   Device helpers shared by the kernels of the paths (src/cuda/paths/level/level.cu: LEVR, LEVC;
   src/cuda/paths/element/element.cu: ELMR, ELMC) and the sweep right-hand side (vec_kernels.cu): group sums, the dot product of a row with a
   vector, the finalization of x_i, the column push, the flag accesses, and the host-side dispatch on
   the number of lanes per row. Every row of every kernel is built from these pieces, so a change to
   how a row is computed is made once. C++ only; real scalars only (SPTRSV_CUDA_SCALAR_OK, compat.h).
*/
#pragma once
#include "device_tri.h"

#if defined(SPTRSV_CUDA_SCALAR_OK)
  #include <cuda/atomic>
  #include <type_traits>

  #define SPTRSV_FULL_MASK 0xffffffffu

/* sum over the K lanes of a group; lane 0 of the group gets the total. All 32 lanes of the warp call
   it (mask = full warp): the shuffle width K splits the warp into independent groups. */
template <int K>
__device__ __forceinline__ PetscScalar SpTrsvGroupSum(PetscScalar v)
{
  #pragma unroll
  for (int d = K / 2; d > 0; d >>= 1) v += __shfl_down_sync(SPTRSV_FULL_MASK, v, d, K);
  return v;
}

/* this lane's part of sum_p val[p] * y[idx[p]] over the entries [p, q) of one row, the K lanes of the
   group striding over them. L2 = true reads y through L2 (__ldcg): for memory the running kernel may
   write (x of another block, or x itself as the old iterate of an in-place sweep); L2 = false is a
   plain load, for memory that no thread of the running kernel writes or that a barrier already
   ordered (the level kernels' x). Pattern and values are read-only: non-coherent cache (__ldg). */
template <int K, bool L2>
__device__ __forceinline__ PetscScalar SpTrsvDot(int p, int q, int lane, const int *idx, const PetscScalar *val, const PetscScalar *y)
{
  PetscScalar sum = 0;

  for (p += lane; p < q; p += K) {
    const int j = __ldg(idx + p);
    sum += __ldg(val + p) * (L2 ? __ldcg(y + j) : y[j]);
  }
  return sum;
}

/* SpTrsvDot over a row staged in shared memory (the locality kernel's stage 2): idx and val are shared-memory arrays
   written before a barrier, so plain loads (the non-coherent path is for global memory only) */
template <int K>
__device__ __forceinline__ PetscScalar SpTrsvDotShared(int p, int q, int lane, const int *idx, const PetscScalar *val, const PetscScalar *y)
{
  PetscScalar sum = 0;

  for (p += lane; p < q; p += K) sum += val[p] * y[idx[p]];
  return sum;
}

/* this lane's part of sum_j R_ij xold_j for the rest row at schedule position k (sweeps); inactive
   groups contribute zero */
template <int K, bool L2 = true>
__device__ __forceinline__ PetscScalar SpTrsvRestDot(const SpTrsvCUDARest &r, int k, bool active, int lane, const PetscScalar *xold)
{
  int p = 0, q = 0;

  if (active) {
    p = __ldg(r.ptr + k);
    q = __ldg(r.ptr + k + 1);
  }
  return SpTrsvDot<K, L2>(p, q, lane, r.idx, r.val, xold);
}

/* the inverted diagonal of the row at schedule position k (not loaded for a unit diagonal) */
template <bool UNIT>
__device__ __forceinline__ PetscScalar SpTrsvLoadDiag(const SpTrsvCUDATri &t, int k)
{
  return UNIT ? (PetscScalar)1 : __ldg(t.idiag + k);
}

/* x_i from s = b_i - sum_j T_ij x_j [- sum_j R_ij xold_j]: s * idiag_i for a solve (s for a unit
   diagonal), keep * xold_i + idiag_i * s for a sweep row (REST) */
template <bool UNIT, bool REST>
__device__ __forceinline__ PetscScalar SpTrsvFinalize(PetscScalar s, PetscScalar di, PetscScalar keep, PetscScalar xoldi)
{
  if (REST) return keep * xoldi + di * s;
  return UNIT ? s : s * di;
}

/* push: y[idx[p]] -= val[p] * xi over the entries [p, q) of one column, K lanes striding. Atomic, since
   several columns update the same y concurrently (double atomicAdd is native on sm_60 and later). The
   atomics are relaxed: ordering them before anything else is the caller's business. */
template <int K>
__device__ __forceinline__ void SpTrsvPush(int p, int q, int lane, const int *idx, const PetscScalar *val, PetscScalar xi, PetscScalar *y)
{
  for (p += lane; p < q; p += K) atomicAdd(y + __ldg(idx + p), -__ldg(val + p) * xi);
}

/*
   Flags and counters of the element kernels. Device scope: writer and reader run on any SMs of one device.
   - SpTrsvLoadAcquire: ld.acquire.gpu. Reading a value written by a release pattern makes every memory
     operation ordered before that release (in the writer's thread, or before it in causality order,
     e.g. through a __syncwarp()) visible to this thread's later loads.
   - SpTrsvStoreRelease: st.release.gpu, a release pattern on its own (ELMR's ready flags).
   - ELMC's counters are incremented with atomicAdd (a relaxed RMW at device scope) after a
     __threadfence(): fence + strong write is the other form of the release pattern, and an acquire that
     reads the final count synchronizes with every increment (later increments continue the release
     sequence of earlier ones).
*/
__device__ __forceinline__ unsigned int SpTrsvLoadAcquire(const unsigned int *f)
{
  return cuda::atomic_ref<unsigned int, cuda::thread_scope_device>(*const_cast<unsigned int *>(f)).load(cuda::memory_order_acquire);
}

__device__ __forceinline__ void SpTrsvStoreRelease(unsigned int *f, unsigned int v)
{
  cuda::atomic_ref<unsigned int, cuda::thread_scope_device>(*f).store(v, cuda::memory_order_release);
}

/* the block's ticket of a sync-free launch (element and syncfree paths): thread 0 takes t = atomicAdd(ticket,
   1) once the block runs; the block's slot among the launch's nblocks blocks is t mod nblocks and the
   solve's epoch t / nblocks + 1 (the counter advances by exactly nblocks per launch and is never reset).
   Blocks take their slots in the order they start running, not by blockIdx: the deadlock-freedom
   argument of src/mat/analysis/dispatch.c. */
__device__ __forceinline__ void SpTrsvTakeTicket(unsigned long long *ticket, int nblocks, int *slot, unsigned int *epoch)
{
  __shared__ unsigned long long t;

  if (threadIdx.x == 0) t = atomicAdd(ticket, 1ULL);
  __syncthreads();
  *slot  = (int)(t % (unsigned long long)nblocks);
  *epoch = (unsigned int)(t / (unsigned long long)nblocks) + 1u;
}

/* read the vectors of a captured graph's solve from device memory (XOLD: sweeps also read xold) */
template <bool XOLD>
__device__ __forceinline__ void SpTrsvReadVecPtrs(SpTrsvCUDAVecPtrs &v, const SpTrsvCUDAVecPtrs *vp)
{
  v.b = vp->b;
  v.x = vp->x;
  if (XOLD) v.xold = vp->xold;
}

/* host: call f(std::integral_constant<int, K>()) for the lanes per row K (2, 4, 8, 16, 32) so that a
   launcher instantiates its kernel for each K in one place; returns the launch error */
template <class F>
static inline cudaError_t SpTrsvWithLanes(int K, F f)
{
  switch (K) {
  case 2:
    f(std::integral_constant<int, 2>());
    break;
  case 4:
    f(std::integral_constant<int, 4>());
    break;
  case 8:
    f(std::integral_constant<int, 8>());
    break;
  case 16:
    f(std::integral_constant<int, 16>());
    break;
  default:
    f(std::integral_constant<int, 32>());
    break;
  }
  return cudaGetLastError();
}

#endif
