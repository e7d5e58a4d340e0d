/*
   spmv_bsr_vs_csr: which SpMV should PC isai's apply use? Times cuSPARSE's BSR SpMV (cusparseDbsrmv, blocks
   column-major as MATSEQBAIJ and our N_L/N_U store them) against the generic CSR SpMV (cusparseSpMV) on the
   scalar expansion of the same matrix (the MATSEQAIJCUSPARSE matrices PC isai multiplies by), side by side in
   one process, and checks that both give the same product.

   The matrix: a 3-D m x m x m grid, 7-point block stencil, bs x bs dense blocks with random values (the pattern
   of a block ILU(0) factor L + U; N_L and N_U with k = 1 have the patterns of L and U). Standalone (CUDA and
   cuSPARSE only, no PETSc); built and run on the GPU machine by run-isai-device.sh:

     nvcc -O3 -arch=sm_90 -o spmv_bsr_vs_csr examples/benchmarks/spmv_bsr_vs_csr.cu -lcusparse
     ./spmv_bsr_vs_csr m bs [reps]      (prints one CSV line; header with -h)
*/
#include <cuda_runtime.h>
#include <cusparse.h>
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <vector>

#include "standalone_check.h" /* CK, CS: CUDA and cuSPARSE calls checked */

template <typename T>
static T *Upload(const std::vector<T> &h)
{
  T *d;
  CK(cudaMalloc((void **)&d, sizeof(T) * (h.size() + 1)));
  CK(cudaMemcpy(d, h.data(), sizeof(T) * h.size(), cudaMemcpyHostToDevice));
  return d;
}

int main(int argc, char **argv)
{
  if (argc > 1 && argv[1][0] == '-') {
    printf("m,bs,block_rows,nnz_blocks,bsrmv_us,csr_spmv_us,csr_over_bsr,bsrmv_GBs,csr_GBs,max_rel_diff\n");
    return 0;
  }
  const int m = argc > 1 ? atoi(argv[1]) : 40, bs = argc > 2 ? atoi(argv[2]) : 4, reps = argc > 3 ? atoi(argv[3]) : 200;
  const int mb = m * m * m, bs2 = bs * bs;
  std::vector<int>    bi(mb + 1), bj;
  std::vector<double> ba;
  srand(12345);
  bi[0] = 0;
  for (int z = 0; z < m; z++)
    for (int y = 0; y < m; y++)
      for (int x = 0; x < m; x++) {
        const int r = (z * m + y) * m + x;
        const int cand[7] = {z > 0 ? r - m * m : -1, y > 0 ? r - m : -1, x > 0 ? r - 1 : -1, r, x < m - 1 ? r + 1 : -1, y < m - 1 ? r + m : -1, z < m - 1 ? r + m * m : -1};
        for (int c : cand)
          if (c >= 0) {
            bj.push_back(c);
            for (int e = 0; e < bs2; e++) ba.push_back((double)rand() / RAND_MAX - 0.5);
          }
        bi[r + 1] = (int)bj.size();
      }
  const int nnzb = bi[mb], n = mb * bs;
  /* scalar expansion in PC isai's order: row br*bs+rr holds row rr of each block of block row br */
  std::vector<int>    si(n + 1), sj((size_t)nnzb * bs2);
  std::vector<double> sa((size_t)nnzb * bs2);
  size_t              k = 0;
  si[0] = 0;
  for (int br = 0; br < mb; br++)
    for (int rr = 0; rr < bs; rr++) {
      for (int p = bi[br]; p < bi[br + 1]; p++)
        for (int cc = 0; cc < bs; cc++) {
          sj[k]   = bj[p] * bs + cc;
          sa[k++] = ba[(size_t)p * bs2 + rr + cc * bs];
        }
      si[br * bs + rr + 1] = (int)k;
    }
  std::vector<double> x(n);
  for (auto &v : x) v = (double)rand() / RAND_MAX;

  int    *dbi = Upload(bi), *dbj = Upload(bj), *dsi = Upload(si), *dsj = Upload(sj);
  double *dba = Upload(ba), *dsa = Upload(sa), *dx = Upload(x), *dy1, *dy2;
  CK(cudaMalloc((void **)&dy1, sizeof(double) * n));
  CK(cudaMalloc((void **)&dy2, sizeof(double) * n));
  cusparseHandle_t h;
  CS(cusparseCreate(&h));
  cusparseMatDescr_t descr;
  CS(cusparseCreateMatDescr(&descr));
  const double one = 1.0, zero = 0.0;

  cusparseSpMatDescr_t A;
  cusparseDnVecDescr_t vx, vy;
  size_t               bufsz = 0;
  void                *buf   = NULL;
  CS(cusparseCreateCsr(&A, n, n, (int64_t)k, dsi, dsj, dsa, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F));
  CS(cusparseCreateDnVec(&vx, n, dx, CUDA_R_64F));
  CS(cusparseCreateDnVec(&vy, n, dy2, CUDA_R_64F));
  CS(cusparseSpMV_bufferSize(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, A, vx, &zero, vy, CUDA_R_64F, CUSPARSE_SPMV_ALG_DEFAULT, &bufsz));
  CK(cudaMalloc(&buf, bufsz + 1));

  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  float tb = 0, tc = 0;
  for (int w = 0; w < 2; w++) { /* w = 0: warm-up */
    CK(cudaEventRecord(e0));
    for (int r = 0; r < (w ? reps : 5); r++) CS(cusparseDbsrmv(h, CUSPARSE_DIRECTION_COLUMN, CUSPARSE_OPERATION_NON_TRANSPOSE, mb, mb, nnzb, &one, descr, dba, dbi, dbj, bs, dx, &zero, dy1));
    CK(cudaEventRecord(e1));
    CK(cudaEventSynchronize(e1));
    CK(cudaEventElapsedTime(&tb, e0, e1));
    CK(cudaEventRecord(e0));
    for (int r = 0; r < (w ? reps : 5); r++) CS(cusparseSpMV(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, A, vx, &zero, vy, CUDA_R_64F, CUSPARSE_SPMV_ALG_DEFAULT, buf));
    CK(cudaEventRecord(e1));
    CK(cudaEventSynchronize(e1));
    CK(cudaEventElapsedTime(&tc, e0, e1));
  }
  std::vector<double> y1(n), y2(n);
  CK(cudaMemcpy(y1.data(), dy1, sizeof(double) * n, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(y2.data(), dy2, sizeof(double) * n, cudaMemcpyDeviceToHost));
  double dmax = 0, ymax = 0;
  for (int i = 0; i < n; i++) {
    dmax = fmax(dmax, fabs(y1[i] - y2[i]));
    ymax = fmax(ymax, fabs(y2[i]));
  }
  const double ub = 1e3 * tb / reps, uc = 1e3 * tc / reps;
  /* bytes of one product: values, indices, x read once, y written */
  const double bytes_b = 8.0 * nnzb * bs2 + 4.0 * nnzb + 4.0 * (mb + 1) + 16.0 * n;
  const double bytes_c = 12.0 * (double)k + 4.0 * (n + 1) + 16.0 * n;
  printf("%d,%d,%d,%d,%.2f,%.2f,%.3f,%.0f,%.0f,%.2e\n", m, bs, mb, nnzb, ub, uc, uc / ub, bytes_b / ub * 1e-3, bytes_c / uc * 1e-3, dmax / (ymax > 0 ? ymax : 1));
  cusparseDestroySpMat(A);
  cusparseDestroyDnVec(vx);
  cusparseDestroyDnVec(vy);
  cusparseDestroyMatDescr(descr);
  cusparseDestroy(h);
  cudaFree(buf);
  cudaFree(dbi);
  cudaFree(dbj);
  cudaFree(dsi);
  cudaFree(dsj);
  cudaFree(dba);
  cudaFree(dsa);
  cudaFree(dx);
  cudaFree(dy1);
  cudaFree(dy2);
  return dmax <= 1e-12 * (ymax > 0 ? ymax : 1) ? 0 : 1;
}
