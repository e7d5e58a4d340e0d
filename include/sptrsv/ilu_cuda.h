/* The numeric ILU(k) on the GPU (src/cuda/ilu_numeric.cu; private to the plugin; the functions exist in CUDA
   builds only, PETSC_SPTRSV_HAVE_CUDA). The driver with PETSc's shift rules is src/mat/factor/ilu_device.c. */
#pragma once
#include <sptrsv/factor.h>

/*
   SpTrsvCUDAILU - the pattern of an ILU(k) factor on the device (32-bit indices, uploaded once per pattern)
   and its values F = [L strict (L->i order) | pivots (n) | U strict (U->i order)], the inverted pivots idiag,
   the map amap from A's CSR positions into F, and the flags of one pass.
*/
typedef struct _n_SpTrsvCUDAILU *SpTrsvCUDAILU;

/* the zero-pivot rule the kernel applies to each pivot (MatFactorShiftType, as SpTrsvShiftCheckPivot()) */
typedef enum {
  SPTRSV_ILU_SHIFT_NONE,
  SPTRSV_ILU_SHIFT_NONZERO,
  SPTRSV_ILU_SHIFT_PD,
  SPTRSV_ILU_SHIFT_INBLOCKS
} SpTrsvILUShiftRule;

/* what one pass (gather + elimination) reports; rows are rows of the factored matrix, -1 = none */
typedef struct {
  PetscInt    badinput;     /* A's CSR position of the first non-finite input value */
  PetscBool   badinput_nan; /* it is a NaN (else an Inf) */
  PetscInt    fail_row;     /* NONZERO, POSITIVE_DEFINITE: the first row whose pivot needs a restart */
  PetscScalar fail_pv;      /* its pivot */
  PetscReal   fail_rs;      /* its sum of |L(i,:)| + |U(i,:)| */
  PetscInt    zero_first, zero_last; /* NONE: the first and the last zero pivot */
  PetscScalar zero_first_pv, zero_last_pv;
  PetscInt    ninblocks;  /* INBLOCKS: pivots shifted */
  PetscInt    nf_row[2];  /* first non-finite value of the factor, [0] in L, [1] in U, by rows */
  PetscInt    nf_slot[2]; /* its position in L->a / U->a, or -1 for U's inverted pivot of that row */
} SpTrsvCUDAILUResult;

SPTRSV_INTERN PetscErrorCode SpTrsvCUDAILUCreate(SpTrsvFactor, const PetscInt *, const PetscInt *, const PetscInt *, SpTrsvCUDAILU *); /* fac, A's ai, adiag, amap (A's nonzeros -> F) */
SPTRSV_INTERN PetscErrorCode SpTrsvCUDAILUSetInput(SpTrsvCUDAILU, const PetscScalar *, PetscMemType); /* A's CSR values, host (one upload) or device (in place) */
SPTRSV_INTERN PetscErrorCode SpTrsvCUDAILUShiftTop(SpTrsvCUDAILU, PetscReal *); /* max_i (sum_j |a_ij| - |a_ii| - Re(a_ii)) over non-NaN rows, -inf when none is positive */
SPTRSV_INTERN PetscErrorCode SpTrsvCUDAILUFactor(SpTrsvCUDAILU, SpTrsvILUShiftRule, PetscReal, PetscReal, PetscReal, SpTrsvCUDAILUResult *); /* rule, diagonal shift, zeropivot, INBLOCKS amount */
SPTRSV_INTERN PetscErrorCode SpTrsvCUDAILUGetArrays(SpTrsvCUDAILU, const PetscScalar **, const PetscScalar **, const PetscScalar **); /* device L->a, U->a, U->idiag */
SPTRSV_INTERN PetscErrorCode SpTrsvCUDAILUDownload(SpTrsvCUDAILU, PetscScalar *, PetscScalar *, PetscScalar *);                      /* into host L->a, U->a, U->idiag */
SPTRSV_INTERN PetscErrorCode SpTrsvCUDAILUDestroy(SpTrsvCUDAILU *);
