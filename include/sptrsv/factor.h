/* SpTrsvFactor: incomplete factorizations that feed the triangular solves (private to the plugin) */
#pragma once
#include <sptrsv/tri.h>
#include <sptrsv/utils.h>

/*
   P A Q^T ~ L U with L unit lower triangular and U upper triangular (explicit, inverted diagonal).
   ICC(k) computes A ~ Ut^T D Ut and stores L = Ut^T (unit) and U = D Ut, so every factor solves the
   same way:  x = Q^T U^{-1} L^{-1} P b. The complete LU (SuperLU) is stored as ILU, the complete Cholesky (CHOLMOD's
   Lc Lc^T, rescaled to Lu D Lu^T) as ICC (src/mat/factor/lu_superlu.c, chol_cholmod.c).

   Permutations (NULL = identity): row k of the factored matrix is row rperm[k] of A; column k of the
   factored matrix is column cperm[k] of A. So (P b)_k = b[rperm[k]] and x[cperm[k]] = z_k.
*/
typedef struct _n_SpTrsvFactor *SpTrsvFactor;
typedef struct _n_SpTrsvILUDevice *SpTrsvILUDevice; /* the GPU numeric phase of ILU (src/mat/factor/ilu_device.c) */
struct _n_SpTrsvFactor {
  MatFactorType ftype; /* MAT_FACTOR_ILU, MAT_FACTOR_ICC, or the complete MAT_FACTOR_LU / MAT_FACTOR_CHOLESKY of a
                          direct solver (direct.h: stored as ILU / ICC are, with the library's state in sym) */
  PetscInt      n;
  PetscInt      levels; /* levels of fill used */
  SpTrsvTri     L, U;
  PetscInt     *rperm, *cperm;
  PetscInt      nnzA;             /* nonzeros of A, for the fill ratio */
  PetscReal     shift_amount;     /* shift finally applied to the diagonal by the numeric phase */
  PetscInt      nshifts;          /* shifts tried (NONZERO / POSITIVE_DEFINITE) or pivots shifted (INBLOCKS) */
  void         *sym;              /* symbolic data kept for numeric refactorization */
  PetscErrorCode (*symdestroy)(void **);
  /* outcome of the last numeric phase when the matrix does not ask for errors (A->erroriffailure, set by
     MatSetErrorIfFailure(), e.g. by PCSetUp_ILU under -ksp_error_if_not_converged): as PETSc's
     MatPivotCheck_none(), a zero pivot is recorded (the last one met) and the factorization goes on */
  MatFactorError error;           /* MAT_FACTOR_NUMERIC_ZEROPIVOT or MAT_FACTOR_NOERROR */
  PetscReal      zeropivot_value; /* |pivot| of the last zero pivot */
  PetscInt       zeropivot_row;   /* its row of the factored matrix */
  PetscBool      nonfinite;       /* NaN/Inf met in A or in the factor (not an error for PETSc either) */
  /* ILU numeric phase on the GPU (SpTrsvFactorILUDeviceSetUp()): the factor's values live on the device; the
     host's L->a, U->a, U->idiag are stale until SpTrsvFactorSyncHost() downloads them */
  SpTrsvILUDevice device;
  PetscErrorCode (*device_destroy)(SpTrsvILUDevice *); /* set with device by its maker (ilu_device.c) */
  PetscBool       host_stale;
};

/* what the numeric phase of ILU(k) reuses (iluk.c; read by the GPU numeric phase, ilu_device.c) */
typedef struct {
  PetscInt     nnzA;   /* nonzeros of A at the symbolic phase */
  PetscInt    *icperm; /* inverse column permutation; NULL: the identity */
  PetscInt    *adiag;  /* position of A(i,i) in the CSR of A */
  PetscScalar *work;   /* dense accumulator for one row */
} SpTrsvILUSym;

SPTRSV_INTERN PetscErrorCode SpTrsvFactorCreate(MatFactorType, PetscInt, SpTrsvFactor *);
SPTRSV_INTERN PetscErrorCode SpTrsvFactorDestroy(SpTrsvFactor *);

/* Symbolic phases: build the patterns of L and U (and whatever the numeric phase reuses). The IS
   arguments may be NULL (natural ordering). */
SPTRSV_INTERN PetscErrorCode SpTrsvFactorILUSymbolic(Mat, IS, IS, const MatFactorInfo *, SpTrsvFactor);
SPTRSV_INTERN PetscErrorCode SpTrsvFactorICCSymbolic(Mat, IS, const MatFactorInfo *, SpTrsvFactor);
/* the ILU(k) pattern of a CSR pattern (used by ILU(k) and, on the block pattern, by BILU(k)) */
SPTRSV_INTERN PetscErrorCode SpTrsvFactorILUPattern(PetscInt, PetscInt, PetscBool, PetscReal, const PetscInt *, const PetscInt *, const PetscInt *, const PetscInt *, const PetscInt *, PetscBool, PetscInt **, PetscInt **, PetscInt **, PetscInt **);
/* Numeric phases: fill L->a, U->a, U->idiag from the current values of A (same pattern as at the
   symbolic phase). A zero pivot without a shift, and a NaN/Inf in A or in the factor, raise an error naming
   the row (PETSC_ERR_MAT_LU_ZRPVT, PETSC_ERR_FP) when A->erroriffailure is set; otherwise they are recorded
   in fac->error, fac->zeropivot_*, fac->nonfinite, as PETSc's own ILU/ICC does. */
SPTRSV_INTERN PetscErrorCode SpTrsvFactorILUNumeric(Mat, const MatFactorInfo *, SpTrsvFactor);
SPTRSV_INTERN PetscErrorCode SpTrsvFactorICCNumeric(Mat, const MatFactorInfo *, SpTrsvFactor);

/* ---- helpers shared by the factorizations (src/mat/factor/factor.c) ---------------------------- */

/*
   SpTrsvShiftCtx - the zero-pivot state of one numeric factorization, with PETSc's semantics for
   MatFactorInfo shifttype / shiftamount / zeropivot (see SpTrsvShiftCheckPivot()).
*/
typedef struct {
  PetscBool   erroriffailure; /* input: a zero pivot (shift type NONE) is an error; kept by SpTrsvShiftSetUp() */
  PetscBool   zeropivot;      /* output: a zero pivot was met (shift type NONE, no error) */
  PetscInt    zeropivot_row;  /* the last one's factored row (PETSc's ICC reports another index: see icck.c) */
  PetscInt    nzeropivot;     /* zero pivots met */
  PetscReal   zeropivot_value;
  PetscInt    nshift, nshift_max;
  PetscReal   shift_amount, shift_lo, shift_hi, shift_top, shift_fraction;
  PetscBool   newshift; /* the pass must restart with shift_amount */
  PetscReal   rs;       /* sum of |off-diagonal| of the active factored row */
  PetscScalar pv;       /* pivot of the active row */
} SpTrsvShiftCtx;

/*
   SpTrsvFillListMerge - the level-of-fill rule of ILU(k)/ICC(k) for one pivot row: the active row is a
   linked list of columns (nxt, ascending, ending at n; lev[c] = level of column c, -1 when absent); the
   pivot row's entries cols[0..nz) (ascending) with levels levs[] give fill of level base + levs[t] + 1,
   which is added (at most levels) after the insertion cursor cur, or lowers the level already there.
*/
static inline void SpTrsvFillListMerge(PetscInt levels, PetscInt base, PetscInt cur, PetscInt nz, const PetscInt *cols, const PetscInt *levs, PetscInt *nxt, PetscInt *lev)
{
  for (PetscInt t = 0; t < nz; t++) {
    const PetscInt nl = base + levs[t] + 1, c = cols[t];

    if (nl > levels) continue;
    if (lev[c] >= 0) {
      if (nl < lev[c]) lev[c] = nl;
    } else {
      while (nxt[cur] < c) cur = nxt[cur];
      nxt[c]   = nxt[cur];
      nxt[cur] = c;
      lev[c]   = nl;
      cur      = c;
    }
  }
}

SPTRSV_INTERN PetscErrorCode SpTrsvFactorReset(SpTrsvFactor);
SPTRSV_INTERN PetscErrorCode SpTrsvFactorCheckMat(Mat, PetscInt);
SPTRSV_INTERN PetscErrorCode SpTrsvFactorGetPerm(IS, PetscInt, const char *, PetscInt **);
SPTRSV_INTERN PetscErrorCode SpTrsvFactorInvertPerm(PetscInt, const PetscInt *, PetscInt **);
SPTRSV_INTERN PetscErrorCode SpTrsvFactorFindDiagonal(PetscInt, const PetscInt *, const PetscInt *, PetscInt *);
SPTRSV_INTERN PetscErrorCode SpTrsvFactorCheckSamePattern(PetscInt, PetscInt, const PetscInt *, const PetscInt *, const PetscInt *);
SPTRSV_INTERN PetscErrorCode SpTrsvFactorCheckFinite(PetscInt, const PetscInt *, const PetscInt *, const PetscScalar *, PetscBool, PetscBool *);
SPTRSV_INTERN PetscErrorCode SpTrsvFactorReportNonFiniteInput(PetscInt, PetscInt, PetscBool, PetscBool);        /* row, column, isnan, errorif */
SPTRSV_INTERN PetscErrorCode SpTrsvFactorReportNonFiniteFactor(PetscInt, PetscInt, PetscBool, SpTrsvFactor); /* row, column (-1: pivot), errorif */
SPTRSV_INTERN PetscErrorCode SpTrsvFactorCheckNonFiniteFactor(PetscBool, SpTrsvFactor); /* the first NaN/Inf of L, then U, reported (errorif) */
SPTRSV_INTERN PetscErrorCode SpTrsvShiftSetUpTop(const MatFactorInfo *, PetscReal, SpTrsvShiftCtx *); /* rowmax: max_i (sum_j |a_ij| - |a_ii| - Re(a_ii)) */
SPTRSV_INTERN PetscErrorCode SpTrsvShiftSetUp(const MatFactorInfo *, PetscInt, const PetscInt *, const PetscInt *, const PetscScalar *, SpTrsvShiftCtx *);
SPTRSV_INTERN PetscErrorCode SpTrsvShiftCheckPivot(const MatFactorInfo *, SpTrsvShiftCtx *, PetscInt, PetscInt);
SPTRSV_INTERN PetscErrorCode SpTrsvShiftRefine(const MatFactorInfo *, SpTrsvShiftCtx *);
SPTRSV_INTERN PetscErrorCode SpTrsvShiftRecord(const MatFactorInfo *, const SpTrsvShiftCtx *, SpTrsvFactor);

/* the checks and reset every symbolic phase starts with; sets fac->levels */
SPTRSV_INTERN PetscErrorCode SpTrsvFactorSymbolicBegin(Mat, const MatFactorInfo *, MatFactorType, SpTrsvFactor);

/* the numeric phase around a factorization's row loop: checks, CSR access, shift record, new values */
typedef PetscErrorCode (*SpTrsvNumericRowsFn)(SpTrsvFactor, const MatFactorInfo *, const PetscInt *, const PetscInt *, const PetscScalar *, SpTrsvShiftCtx *);
SPTRSV_INTERN PetscErrorCode SpTrsvFactorNumericRun(Mat, const MatFactorInfo *, SpTrsvFactor, MatFactorType, SpTrsvNumericRowsFn);

/* ---- the numeric ILU(k) on the GPU (src/mat/factor/ilu_device.c; kernels in src/cuda/ilu_numeric.cu) ------
   SpTrsvFactorILUDeviceAvailable: a CUDA build with real scalars (why: the reason when not);
   SpTrsvFactorILUDeviceSetUp: after SpTrsvFactorILUSymbolic(), the device pattern and value map (once per pattern), run
     as the configuration says (SpTrsvILUDeviceConfig);
   SpTrsvFactorILUNumericDevice: SpTrsvFactorILUNumeric() on the GPU, same outcomes and errors, values left there;
   SpTrsvFactorILUDeviceGetArrays: the device L->a, U->a, U->idiag;
   SpTrsvFactorSyncHost: download the values when the host copies are stale (then SpTrsvTriValuesChanged()) */
SPTRSV_INTERN PetscErrorCode SpTrsvFactorILUDeviceAvailable(PetscBool *, const char **);
/* how the GPU numeric ILU runs: the factor Mat's -mat_sptrsv_factor_device_* options */
typedef struct {
  PetscBool level_order;   /* -mat_sptrsv_factor_device_order level: rows handed out in level (wavefront) order, else increasing */
  PetscBool rows_shared;   /* -mat_sptrsv_factor_device_rows shared: each row (up to 128 entries) eliminated in its warp's shared memory */
  PetscInt  blocks_per_sm; /* -mat_sptrsv_factor_device_blocks_per_sm: resident blocks of the elimination per SM at most (0: no cap;
                              PETSC_DECIDE: SPTRSV_ILU_AUTO_CAP blocks when L's levels are narrow, see SpTrsvFactorILUDeviceSetUpOps()) */
} SpTrsvILUDeviceConfig;
#define SPTRSV_ILU_AUTO_CAP       4    /* the automatic cap: blocks per SM (docs/perf-data/refactor-variants-2026-11-30.txt) */
#define SPTRSV_ILU_AUTO_CAP_WIDTH 1024 /* ... taken when L's levels hold at most this many rows on average */
SPTRSV_INTERN PetscErrorCode SpTrsvFactorILUDeviceSetUp(Mat, SpTrsvFactor, const SpTrsvILUDeviceConfig *, const PetscInt *, PetscInt); /* the last two: L's ASAP levels and their count when an analysis has them, else NULL, 0 */
SPTRSV_INTERN PetscErrorCode SpTrsvFactorILUDeviceGetConfig(SpTrsvFactor, SpTrsvILUDeviceConfig *);
SPTRSV_INTERN PetscErrorCode SpTrsvFactorILUNumericDevice(Mat, const MatFactorInfo *, SpTrsvFactor);
SPTRSV_INTERN PetscErrorCode SpTrsvFactorILUDeviceGetArrays(SpTrsvFactor, const PetscScalar **, const PetscScalar **, const PetscScalar **);
SPTRSV_INTERN PetscErrorCode SpTrsvFactorSyncHost(SpTrsvFactor);
