/* PETSc matrices that apply a block CSR operator (ISAI factors, triangles): MATSEQAIJ or MATSEQBAIJ */
#include <sptrsv/isaimat.h>
#include <sptrsv/utils.h>
#include <petsc/private/petscimpl.h> /* PetscObjectStateIncrease() */

/*
  SpTrsvBlockMatCreate - an assembled sequential matrix of n block rows of size bs with the block CSR
  pattern i, j (columns ascending) and zero values; MATSEQAIJ for bs = 1, MATSEQBAIJ otherwise. Its value
  array then holds the blocks in CSR order, column-major inside a block (SpTrsvBlockMatSetValues()).
*/
PetscErrorCode SpTrsvBlockMatCreate(PetscInt n, PetscInt bs, const PetscInt *i, const PetscInt *j, Mat *M)
{
  const PetscInt *mi, *mj;
  PetscInt        mn;
  PetscBool       done;

  PetscFunctionBegin;
  PetscCall(MatCreate(PETSC_COMM_SELF, M));
  PetscCall(MatSetSizes(*M, n * bs, n * bs, n * bs, n * bs));
  PetscCall(MatSetBlockSize(*M, bs));
  if (bs == 1) {
    PetscCall(MatSetType(*M, MATSEQAIJ));
    PetscCall(MatSeqAIJSetPreallocationCSR(*M, i, j, NULL));
  } else {
    PetscCall(MatSetType(*M, MATSEQBAIJ));
    PetscCall(MatSeqBAIJSetPreallocationCSR(*M, bs, i, j, NULL));
  }
  /* the value array must follow our pattern exactly (explicit zeros kept, nothing merged; for AIJ the
     uncompressed rows, not the inodes) */
  PetscCall(MatGetRowIJ(*M, 0, PETSC_FALSE, (PetscBool)(bs > 1), &mn, &mi, &mj, &done));
  PetscCheck(done && mn == n && mi[n] == i[n], PETSC_COMM_SELF, PETSC_ERR_PLIB, "The apply matrix has %" PetscInt_FMT " blocks, expected %" PetscInt_FMT, done ? mi[mn] : -1, i[n]);
  PetscCall(MatRestoreRowIJ(*M, 0, PETSC_FALSE, (PetscBool)(bs > 1), &mn, &mi, &mj, &done));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvBlockMatSetValues - copy the values (bs*bs per block, CSR order, column-major blocks) into a
  matrix made by SpTrsvBlockMatCreate(); the matrix's state is increased
*/
PetscErrorCode SpTrsvBlockMatSetValues(Mat M, const PetscScalar *a)
{
  const PetscInt *mi, *mj;
  PetscInt        mn, bs;
  PetscBool       done, isaij;
  PetscScalar    *v;

  PetscFunctionBegin;
  PetscCall(MatGetBlockSize(M, &bs));
  PetscCall(MatGetRowIJ(M, 0, PETSC_FALSE, (PetscBool)(bs > 1), &mn, &mi, &mj, &done));
  PetscCheck(done, PETSC_COMM_SELF, PETSC_ERR_SUP, "Cannot access the pattern of the apply matrix");
  PetscCall(PetscObjectBaseTypeCompare((PetscObject)M, MATSEQAIJ, &isaij));
  if (isaij) {
    PetscCall(MatSeqAIJGetArrayWrite(M, &v));
    PetscCall(PetscArraycpy(v, a, mi[mn]));
    PetscCall(MatSeqAIJRestoreArrayWrite(M, &v));
  } else {
    PetscCall(MatSeqBAIJGetArray(M, &v));
    PetscCall(PetscArraycpy(v, a, (size_t)mi[mn] * bs * bs));
    PetscCall(MatSeqBAIJRestoreArray(M, &v));
  }
  PetscCall(MatRestoreRowIJ(M, 0, PETSC_FALSE, (PetscBool)(bs > 1), &mn, &mi, &mj, &done));
  PetscCall(PetscObjectStateIncrease((PetscObject)M));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvBlockMatCreateExpanded - a scalar matrix of the given AIJ type (MATSEQAIJ, or a GPU type such as
  MATSEQAIJCUSPARSE) with the scalar expansion of the block CSR pattern bi, bj (n block rows of size bs,
  columns ascending) and zero values. Scalar row r = br bs + rr holds, block by block of block row br, the
  bs entries of row rr of each block: the order the GPU expansion writes (src/cuda/block_expand_kernels.cu),
  so that value array is filled without a host round trip. The matrix is made on its CSR arrays
  (MatCreateSeqAIJWithArrays(), no MatSetValues()); they are returned in *si, *sj, *sa and must be freed
  (PetscFree()) after the matrix is destroyed.
*/
PetscErrorCode SpTrsvBlockMatCreateExpanded(PetscInt n, PetscInt bs, const PetscInt *bi, const PetscInt *bj, MatType type, PetscInt **si, PetscInt **sj, PetscScalar **sa, Mat *M)
{
  PetscInt *i, *j, k = 0;

  PetscFunctionBegin;
  PetscCall(SpTrsvCheckCount((PetscInt64)bi[n] * bs * bs, "nonzeros of the expanded matrix"));
  PetscCall(PetscMalloc1(n * bs + 1, &i));
  PetscCall(PetscMalloc1((size_t)bi[n] * bs * bs + 1, &j));
  PetscCall(PetscCalloc1((size_t)bi[n] * bs * bs + 1, sa));
  i[0] = 0;
  for (PetscInt br = 0; br < n; br++)
    for (PetscInt rr = 0; rr < bs; rr++) {
      for (PetscInt p = bi[br]; p < bi[br + 1]; p++)
        for (PetscInt cc = 0; cc < bs; cc++) j[k++] = bj[p] * bs + cc;
      i[br * bs + rr + 1] = k;
    }
  PetscCall(MatCreateSeqAIJWithArrays(PETSC_COMM_SELF, n * bs, n * bs, i, j, *sa, M));
  PetscCall(MatConvert(*M, type, MAT_INPLACE_MATRIX, M));
  *si = i;
  *sj = j;
  PetscFunctionReturn(PETSC_SUCCESS);
}
