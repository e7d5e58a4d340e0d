/*
   The error checks of the standalone CUDA benchmark programs (trsv3d_breakdown.cu, spmv_bsr_vs_csr.cu, window_hop.cu, dispatch_rate.cu:
   nvcc and cuSPARSE, no PETSc): a failed CUDA or cuSPARSE call prints the call's status, file and line and exits with
   status 2.
*/
#pragma once
#include <cuda_runtime.h>
#include <cusparse.h>
#include <cstdio>
#include <cstdlib>

#define CK(x) \
  do { \
    cudaError_t e_ = (x); \
    if (e_ != cudaSuccess) { \
      fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); \
      exit(2); \
    } \
  } while (0)
#define CS(x) \
  do { \
    cusparseStatus_t s_ = (x); \
    if (s_ != CUSPARSE_STATUS_SUCCESS) { \
      fprintf(stderr, "cuSPARSE error %d at %s:%d\n", (int)s_, __FILE__, __LINE__); \
      exit(2); \
    } \
  } while (0)
