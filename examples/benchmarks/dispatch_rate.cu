/*
   dispatch_rate.cu: how fast the H200 hands out work to one-warp blocks, without any solve (issue 33, runs dispatch
   run 21). Standalone CUDA, no PETSc. For N = 65536, 221184 and 524288 (the windows of a 128^3, 192^3 and 256^3 7-point
   lower triangle) it times, with CUDA events, the third of three repetitions of:
   - empty: N blocks of 32 threads that do nothing (the block launch alone);
   - ticket: N blocks whose thread 0 takes a ticket from one counter (atomicInc) and shares it through shared memory,
     as SpTrsvSyncFreeKernel does;
   - persist16/32: 16 or 32 blocks per multiprocessor that take tickets (atomicAdd) until N are gone, two barriers
     per ticket (the persistent blocks' loop);
   - warp16/32: the same with the ticket shared by a shuffle instead of shared memory.
   Build and run: nvcc -O3 -arch=sm_90 -o dispatch_rate examples/benchmarks/dispatch_rate.cu && ./dispatch_rate
*/
#include <cstdio>
#include <cuda_runtime.h>
#include "standalone_check.h" /* CK: a failed CUDA call exits, as the other standalone benchmarks */
__global__ void empty_k(int *o) { if (threadIdx.x == 999) o[0] = 1; }
__global__ void ticket_k(unsigned *t, int *o) {
  __shared__ unsigned s;
  if (threadIdx.x == 0) s = atomicInc(t, 0xffffffffu);
  __syncthreads();
  if (s == 0xfffffff0u) o[0] = threadIdx.x;
}
__global__ void persist_k(unsigned *t, unsigned n, int *o) {
  __shared__ unsigned s;
  for (;;) {
    if (threadIdx.x == 0) s = atomicAdd(t, 1u);
    __syncthreads();
    unsigned v = s;
    __syncthreads();
    if (v >= n) break;
    if (v == 0xfffffff0u) o[0] = 1;
  }
}
__global__ void persist_warp_k(unsigned *t, unsigned n, int *o) { // no smem: lane 0 atomics, shfl
  for (;;) {
    unsigned v = 0;
    if ((threadIdx.x & 31) == 0) v = atomicAdd(t, 1u);
    v = __shfl_sync(0xffffffffu, v, 0);
    if (v >= n) break;
    if (v == 0xfffffff0u) o[0] = 1;
  }
}
int main() {
  unsigned *t; int *o; CK(cudaMalloc(&t, 4)); CK(cudaMalloc(&o, 4));
  cudaEvent_t a, b; CK(cudaEventCreate(&a)); CK(cudaEventCreate(&b));
  int nsm; CK(cudaDeviceGetAttribute(&nsm, cudaDevAttrMultiProcessorCount, 0));
  /* one launch between two events, the counter reset before it; its milliseconds into *ms */
  auto timed = [&](float *ms, auto launch) {
    CK(cudaMemset(t, 0, 4));
    CK(cudaEventRecord(a)); launch(); CK(cudaGetLastError()); CK(cudaEventRecord(b)); CK(cudaEventSynchronize(b)); CK(cudaEventElapsedTime(ms, a, b));
  };
  unsigned Ns[] = {65536, 221184, 524288};
  for (unsigned N : Ns) {
    float ms[6] = {0};
    for (int rep = 0; rep < 3; rep++) {
      timed(&ms[0], [&] { empty_k<<<N, 32>>>(o); });
      timed(&ms[1], [&] { ticket_k<<<N, 32>>>(t, o); });
      int ks[] = {16, 32};
      for (int q = 0; q < 2; q++) {
        timed(&ms[2 + q], [&] { persist_k<<<ks[q] * nsm, 32>>>(t, N, o); });
        timed(&ms[4 + q], [&] { persist_warp_k<<<ks[q] * nsm, 32>>>(t, N, o); });
      }
    }
    printf("N=%u blocks: empty %.4f ms (%.2f ns/blk) | ticket %.4f ms (%.2f ns) | persist16 %.4f (%.2f ns/ticket) persist32 %.4f (%.2f) | warp16 %.4f (%.2f) warp32 %.4f (%.2f)\n", N,
           ms[0], 1e6 * ms[0] / N, ms[1], 1e6 * ms[1] / N, ms[2], 1e6 * ms[2] / N, ms[3], 1e6 * ms[3] / N, ms[4], 1e6 * ms[4] / N, ms[5], 1e6 * ms[5] / N);
  }
  return 0;
}
