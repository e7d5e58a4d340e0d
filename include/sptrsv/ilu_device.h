/* The numeric ILU(k) on the device (private to the plugin): the passes the driver src/mat/factor/ilu_device.c runs
   PETSc's shift loop around, behind a small ops table: the CUDA kernels (src/cuda/ilu_numeric.cu, CUDA builds only)
   and a sequential host emulation of exactly the same passes (src/mat/factor/ilu_emul.c), which lets the host tests
   check the driver, the value map and the outcome reports against the host numeric phase. */
#pragma once
#include <sptrsv/factor.h>
#include <sptrsv/deviceops.h> /* the name SpTrsvILUDeviceOps */

/* the zero-pivot rule a pass applies to each pivot (MatFactorShiftType, as SpTrsvShiftCheckPivot()) */
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
  PetscInt    nf_slot[2]; /* its offset in that row of L->a / U->a, or -1 for U's inverted pivot of the row */
} SpTrsvILUPassResult;

/*
   SpTrsvILUDeviceOps - one implementation of the passes. Values live in F = [L strict (L->a's order) | pivots (n) |
   U strict (U->a's order)] and idiag (U->idiag's order), in the implementation's memory.
   - create: the pattern of the factor, the configuration (what an implementation runs by: the CUDA kernels' shared
     rows and residency cap; the emulation has neither), A's row pointers ai and diagonal positions adiag (the POSITIVE_DEFINITE shift
     top), amap (A's nonzero p -> its slot in F), order (the rows in the order the elimination hands them out, a
     topological order of L's DAG; NULL: increasing rows), once per pattern. amap NULL: ILU(0) in the natural ordering, whose
     map the implementation makes from ai, adiag and the row pointers of L and U: row i of A is L(i,:), the pivot,
     U(i,:), so p < adiag[i] -> li[i] + p - ai[i], adiag[i] -> nnzL + i, p > adiag[i] -> nnzL + n + ui[i] + p - adiag[i] - 1
   - set_input: A's CSR values for the passes, host or device memory (mtype)
   - shift_top: max_i (sum_j |a_ij| - |a_ii| - Re(a_ii)) over the rows where it is positive and not NaN (-inf: none)
   - factor: one pass with the rule, the diagonal shift, zeropivot and the INBLOCKS amount
   - get_arrays: L->a, U->a and U->idiag as F and idiag (the implementation's memory)
   - download: copy them into host arrays
*/
struct _n_SpTrsvILUDeviceOps {
  const char *name;
  PetscBool   device; /* its memory is the GPU's: it reads device input in place, logs GPU flops */
  PetscErrorCode (*create)(SpTrsvFactor, const SpTrsvILUDeviceConfig *, const PetscInt *, const PetscInt *, const PetscInt *, const PetscInt *, void **);
  PetscErrorCode (*set_input)(void *, const PetscScalar *, PetscMemType);
  PetscErrorCode (*shift_top)(void *, PetscReal *);
  PetscErrorCode (*factor)(void *, SpTrsvILUShiftRule, PetscReal, PetscReal, PetscReal, SpTrsvILUPassResult *);
  PetscErrorCode (*get_arrays)(void *, const PetscScalar **, const PetscScalar **, const PetscScalar **);
  PetscErrorCode (*download)(void *, PetscScalar *, PetscScalar *, PetscScalar *);
  PetscErrorCode (*destroy)(void **);
};

SPTRSV_INTERN const SpTrsvILUDeviceOps SpTrsvILUDeviceOpsCUDA; /* src/cuda/ilu_numeric.cu (CUDA builds) */
SPTRSV_INTERN const SpTrsvILUDeviceOps SpTrsvILUDeviceOpsEmul; /* src/mat/factor/ilu_emul.c: host emulation, for tests */

/* SpTrsvFactorILUDeviceSetUp() with a given implementation (the tests pass SpTrsvILUDeviceOpsEmul) */
SPTRSV_INTERN PetscErrorCode SpTrsvFactorILUDeviceSetUpOps(Mat, SpTrsvFactor, const SpTrsvILUDeviceConfig *, const PetscInt *, PetscInt, const SpTrsvILUDeviceOps *);

/* the flags of a pass, shared by both implementations so that they report identically (see ilu_numeric.cu) */
#define SPTRSV_ILU_NONE    (~0ULL)
#define SPTRSV_ILU_NFLAGS  8
#define SPTRSV_ILU_F_BAD   0 /* (p << 1 | isnan) of the first non-finite input value */
#define SPTRSV_ILU_F_FAIL  1 /* first failing row (NONZERO, POSITIVE_DEFINITE) */
#define SPTRSV_ILU_F_ZFST  2 /* first zero pivot (NONE) */
#define SPTRSV_ILU_F_ZLST  3 /* ~(last zero pivot) (NONE) */
#define SPTRSV_ILU_F_NINB  4 /* pivots shifted (INBLOCKS), a counter from 0 */
#define SPTRSV_ILU_F_NFL   5 /* first non-finite L value: (row << 32) | (1 + offset in the row) */
#define SPTRSV_ILU_F_NFU   6 /* first non-finite U value: (row << 32) | 0 for idiag, 1 + offset in the row */
#define SPTRSV_ILU_F_TOP   7 /* POSITIVE_DEFINITE: bits of the largest positive row value of the shift top */

/* decode the flags of a pass (all but the pivots, which the implementation reads from F) */
static inline void SpTrsvILUPassDecode(const unsigned long long *h, SpTrsvILUPassResult *res)
{
  res->badinput     = h[SPTRSV_ILU_F_BAD] == SPTRSV_ILU_NONE ? -1 : (PetscInt)(h[SPTRSV_ILU_F_BAD] >> 1);
  res->badinput_nan = (PetscBool)(h[SPTRSV_ILU_F_BAD] != SPTRSV_ILU_NONE && (h[SPTRSV_ILU_F_BAD] & 1));
  res->fail_row     = h[SPTRSV_ILU_F_FAIL] == SPTRSV_ILU_NONE ? -1 : (PetscInt)h[SPTRSV_ILU_F_FAIL];
  res->zero_first   = h[SPTRSV_ILU_F_ZFST] == SPTRSV_ILU_NONE ? -1 : (PetscInt)h[SPTRSV_ILU_F_ZFST];
  res->zero_last    = h[SPTRSV_ILU_F_ZLST] == SPTRSV_ILU_NONE ? -1 : (PetscInt)~h[SPTRSV_ILU_F_ZLST];
  res->ninblocks    = (PetscInt)h[SPTRSV_ILU_F_NINB];
  for (int t = 0; t < 2; t++) {
    const unsigned long long key = h[SPTRSV_ILU_F_NFL + t];

    res->nf_row[t]  = key == SPTRSV_ILU_NONE ? -1 : (PetscInt)(key >> 32);
    res->nf_slot[t] = key == SPTRSV_ILU_NONE ? -1 : (PetscInt)(key & 0xffffffffULL) - 1;
  }
}
