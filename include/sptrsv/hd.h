/* SPTRSV_HD: a small inline function shared by the host code and the CUDA kernels (private to the plugin) */
#pragma once
#if defined(__CUDACC__)
  #define SPTRSV_HD __host__ __device__
#else
  #define SPTRSV_HD
#endif
