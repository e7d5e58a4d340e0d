/* Device check of PC isai: the GPU column solves and the apply as cuSPARSE SpMVs against the host (check_isai.h) */
#include "check_isai.h"
#include <petscsptrsv.h>
#include <petscksp.h>
#include "../../examples/common/stencil.h"

#if defined(PETSC_HAVE_CUDA)
/* a PC isai on A with the given backend and options (prefix isck_) */
static PetscErrorCode MakeISAI(Mat A, const char *backend, const char *opts, PC *pc)
{
  const char *keys[] = {"-isck_pc_isai_power", "-isck_pc_isai_relaxation_steps", "-isck_pc_isai_block_size", "-isck_pc_isai_levels", "-isck_pc_isai_backend"};

  PetscFunctionBeginUser;
  PetscCall(PCCreate(PETSC_COMM_SELF, pc));
  PetscCall(PCSetOperators(*pc, A, A));
  PetscCall(PCSetType(*pc, PCISAI));
  PetscCall(PCSetOptionsPrefix(*pc, "isck_"));
  PetscCall(PetscOptionsInsertString(NULL, opts));
  PetscCall(PetscOptionsSetValue(NULL, "-isck_pc_isai_backend", backend));
  PetscCall(PCSetFromOptions(*pc));
  PetscCall(PCSetUp(*pc));
  for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) PetscCall(PetscOptionsClearValue(NULL, keys[k])); /* no leak into the next configuration */
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CompareISAI2(Mat, Mat, const char *, const char *, PetscBool, PetscRandom, PetscReal, PetscInt *, PetscInt *);
static PetscErrorCode CompareApply(PC, PC, PetscInt, const char *, const char *, PetscRandom, PetscReal, PetscInt *, PetscInt *);

static PetscErrorCode CompareISAI(Mat A, const char *name, const char *opts, PetscRandom rnd, PetscReal tol, PetscInt *npass, PetscInt *nfail)
{
  PetscFunctionBeginUser;
  PetscCall(CompareISAI2(A, A, name, opts, PETSC_FALSE, rnd, tol, npass, nfail));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* host PC on Ah, GPU PC on Ad (the same matrix, possibly another type); with gpufactor, the GPU PC must
   have factored on the GPU, and a second numeric setup after scaling both matrices is compared too, as
   are the host copies of N_L, N_U (PCISAIGetApplyMatrices()) */
static PetscErrorCode CompareISAI2(Mat Ah, Mat Ad, const char *name, const char *opts, PetscBool gpufactor, PetscRandom rnd, PetscReal tol, PetscInt *npass, PetscInt *nfail)
{
  PC        ph, pd;
  PetscInt  n;

  PetscFunctionBeginUser;
  PetscCall(MatGetLocalSize(Ah, &n, NULL));
  PetscCall(MakeISAI(Ah, "host", opts, &ph));
  PetscCall(MakeISAI(Ad, "cuda", opts, &pd));
  PetscCall(CompareApply(ph, pd, n, name, opts, rnd, tol, npass, nfail));
  if (gpufactor) {
    PCISAIInfo info;
    Mat        NLh, NUh, NLd, NUd, D;
    PetscReal  nrm, err;
    char       name2[64];

    PetscCall(PCISAIGetInfo(pd, &info));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "isai %-18s %-60s factored on the GPU (%" PetscInt_FMT " level sets) %s\n", name, opts, info.nlevels, info.gpu_factor ? "PASS" : "FAIL"));
    if (info.gpu_factor) (*npass)++;
    else (*nfail)++;
    /* the host copies of N_L and N_U, brought back from the device */
    PetscCall(PCISAIGetApplyMatrices(ph, &NLh, &NUh));
    PetscCall(PCISAIGetApplyMatrices(pd, &NLd, &NUd));
    for (PetscInt t = 0; t < 2; t++) {
      PetscCall(MatDuplicate(t ? NUd : NLd, MAT_COPY_VALUES, &D));
      PetscCall(MatAXPY(D, -1.0, t ? NUh : NLh, SAME_NONZERO_PATTERN));
      PetscCall(MatNorm(D, NORM_FROBENIUS, &err));
      PetscCall(MatNorm(t ? NUh : NLh, NORM_FROBENIUS, &nrm));
      PetscCall(MatDestroy(&D));
      err = err / PetscMax(nrm, PETSC_SMALL);
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "isai %-18s %-60s host copy of %s %9.2e %s\n", name, opts, t ? "N_U" : "N_L", (double)err, err <= tol ? "PASS" : "FAIL"));
      if (err <= tol) (*npass)++;
      else (*nfail)++;
    }
    /* new values, same pattern: a numeric setup only */
    PetscCall(MatScale(Ah, 2.0));
    if (Ad != Ah) PetscCall(MatScale(Ad, 2.0));
    PetscCall(MatShift(Ah, 0.5));
    if (Ad != Ah) PetscCall(MatShift(Ad, 0.5));
    PetscCall(PCSetUp(ph));
    PetscCall(PCSetUp(pd));
    PetscCall(PCISAIGetInfo(pd, &info));
    PetscCall(PetscSNPrintf(name2, sizeof(name2), "%s-reuse%" PetscInt_FMT, name, info.nsetups));
    PetscCall(CompareApply(ph, pd, n, name2, opts, rnd, tol, npass, nfail));
  }
  PetscCall(PCDestroy(&ph));
  PetscCall(PCDestroy(&pd));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* relative max-norm difference of pd's apply (CUDA vectors, and host vectors through copies) from ph's */
static PetscErrorCode CompareApply(PC ph, PC pd, PetscInt n, const char *name, const char *opts, PetscRandom rnd, PetscReal tol, PetscInt *npass, PetscInt *nfail)
{
  Vec       b, yh, bd, yd, yc;
  PetscReal e[3], nrm, err;

  PetscFunctionBeginUser;
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, n, &b));
  PetscCall(VecDuplicate(b, &yh));
  PetscCall(VecDuplicate(b, &yc));
  PetscCall(VecCreateSeqCUDA(PETSC_COMM_SELF, n, &bd));
  PetscCall(VecDuplicate(bd, &yd));
  PetscCall(VecSetRandom(b, rnd));
  PetscCall(VecCopy(b, bd));
  for (PetscInt m = 0; m < 3; m++) {
    if (m < 2) PetscCall(PCApply(ph, b, yh));
    else PetscCall(PCApplyTranspose(ph, b, yh));
    if (m == 0) PetscCall(PCApply(pd, bd, yd)); /* CUDA vectors: in place on the device */
    else if (m == 1) PetscCall(PCApply(pd, b, yc)); /* host vectors: copied through */
    else PetscCall(PCApplyTranspose(pd, bd, yd));
    if (m != 1) PetscCall(VecCopy(yd, yc));
    PetscCall(VecNorm(yh, NORM_INFINITY, &nrm));
    PetscCall(VecAXPY(yc, -1.0, yh));
    PetscCall(VecNorm(yc, NORM_INFINITY, &err));
    e[m] = err / PetscMax(nrm, PETSC_SMALL);
  }
  {
    const PetscBool ok = (PetscBool)(e[0] <= tol && e[1] <= tol && e[2] <= tol);
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "isai %-18s %-60s apply %9.2e host-vecs %9.2e transpose %9.2e %s\n", name, opts, (double)e[0], (double)e[1], (double)e[2], ok ? "PASS" : "FAIL"));
    if (ok) (*npass)++;
    else (*nfail)++;
  }
  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&yh));
  PetscCall(VecDestroy(&yc));
  PetscCall(VecDestroy(&bd));
  PetscCall(VecDestroy(&yd));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* expect PCSetUp() of the GPU-factored PC isai on A to fail with the code want (failures asked to be errors) */
static PetscErrorCode ExpectSetUpError(Mat A, PetscErrorCode want, const char *what, PetscInt *npass, PetscInt *nfail)
{
  PC             pc;
  PetscErrorCode ierr;

  PetscFunctionBeginUser;
  PetscCall(PCCreate(PETSC_COMM_SELF, &pc));
  PetscCall(PCSetOperators(pc, A, A));
  PetscCall(PCSetType(pc, PCISAI));
  PetscCall(PCSetErrorIfFailure(pc, PETSC_TRUE));
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = PCSetUp(pc);
  PetscCall(PetscPopErrorHandler());
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "isai gpu-factor %-40s error code %d (want %d) %s\n", what, (int)ierr, (int)want, ierr == want ? "PASS" : "FAIL"));
  if (ierr == want) (*npass)++;
  else (*nfail)++;
  PetscCall(PCDestroy(&pc));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* without PCSetErrorIfFailure(): PCSetUp() succeeds with the failed reason want (a zero pivot fails the PC, a
   NaN does not), and the apply returns Inf (as PETSc's MatSolve() on a failed factor) */
static PetscErrorCode ExpectSetUpFailure(Mat A, PCFailedReason want, const char *what, PetscInt *npass, PetscInt *nfail)
{
  PC             pc;
  PCFailedReason fr;
  Vec            x, y;
  PetscReal      nrm;
  PetscBool      ok;

  PetscFunctionBeginUser;
  PetscCall(PCCreate(PETSC_COMM_SELF, &pc));
  PetscCall(PCSetOperators(pc, A, A));
  PetscCall(PCSetType(pc, PCISAI));
  PetscCall(PCSetUp(pc));
  PetscCall(PCGetFailedReason(pc, &fr));
  PetscCall(MatCreateVecs(A, &x, &y));
  PetscCall(VecSet(x, 1.0));
  PetscCall(PCApply(pc, x, y));
  PetscCall(VecNorm(y, NORM_1, &nrm));
  ok = (PetscBool)(fr == want && PetscIsInfReal(nrm));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "isai gpu-factor %-40s failed reason %s (want %s), |y| %g %s\n", what, PCFailedReasons[fr], PCFailedReasons[want], (double)nrm, ok ? "PASS" : "FAIL"));
  if (ok) (*npass)++;
  else (*nfail)++;
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&y));
  PetscCall(PCDestroy(&pc));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* bad input reaches the GPU factor: a zero diagonal block, a NaN entry (MATSEQAIJCUSPARSE, block size 3) */
static PetscErrorCode CheckGPUFactorErrors(PetscInt *npass, PetscInt *nfail)
{
  Mat      A, Ad;
  const PetscInt r0 = 0; /* block row 0 has nothing to eliminate: its pivot block is the matrix's */

  PetscFunctionBeginUser;
  PetscCall(SpTrsvBuildBlockCD(6, 3, 20.0, MATSEQAIJ, &A));
  for (PetscInt k = 0; k < 3; k++)
    for (PetscInt c = 0; c < 3; c++) PetscCall(MatSetValue(A, r0 + k, r0 + c, 0.0, INSERT_VALUES));
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatConvert(A, MATSEQAIJCUSPARSE, MAT_INITIAL_MATRIX, &Ad));
  PetscCall(ExpectSetUpError(Ad, PETSC_ERR_MAT_LU_ZRPVT, "zero diagonal block (block row 0)", npass, nfail));
  PetscCall(ExpectSetUpFailure(Ad, PC_FACTOR_NUMERIC_ZEROPIVOT, "zero diagonal block, no error asked", npass, nfail));
  PetscCall(MatDestroy(&Ad));
  PetscCall(MatDestroy(&A));
  PetscCall(SpTrsvBuildBlockCD(6, 3, 20.0, MATSEQAIJ, &A));
  PetscCall(MatSetValue(A, 5, 4, NAN, INSERT_VALUES));
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatConvert(A, MATSEQAIJCUSPARSE, MAT_INITIAL_MATRIX, &Ad));
  PetscCall(ExpectSetUpError(Ad, PETSC_ERR_FP, "NaN entry (5, 4)", npass, nfail));
  PetscCall(ExpectSetUpFailure(Ad, PC_NOERROR, "NaN entry, no error asked", npass, nfail));
  PetscCall(MatDestroy(&Ad));
  PetscCall(MatDestroy(&A));
  PetscFunctionReturn(PETSC_SUCCESS);
}
#endif

PetscErrorCode ISAICheckRun(PetscRandom rnd, PetscReal tol, PetscBool quick, PetscInt *npass, PetscInt *nfail)
{
  PetscFunctionBeginUser;
#if defined(PETSC_HAVE_CUDA)
  {
    const char *sopts[] = {"-isck_pc_isai_power 1", "-isck_pc_isai_power 2", "-isck_pc_isai_power 3", "-isck_pc_isai_power 2 -isck_pc_isai_relaxation_steps 2", "-isck_pc_isai_power 1 -isck_pc_isai_levels 1"};
    const PetscInt nsopt   = quick ? 2 : 5;
    Mat         A, Ad;

    PetscCall(SpTrsvBuildStencil(quick ? 24 : 96, quick ? 24 : 96, 1, 5, &A));
    for (PetscInt o = 0; o < nsopt; o++) PetscCall(CompareISAI(A, "lap2d5", sopts[o], rnd, tol, npass, nfail));
    /* auto with a CUDA matrix type: the apply must be on the GPU without being asked */
    PetscCall(MatConvert(A, MATSEQAIJCUSPARSE, MAT_INITIAL_MATRIX, &Ad));
    {
      PC         pc;
      PCISAIInfo info;
      PetscBool  dev;
      PetscCall(PCCreate(PETSC_COMM_SELF, &pc));
      PetscCall(PCSetOperators(pc, Ad, Ad));
      PetscCall(PCSetType(pc, PCISAI));
      PetscCall(PCSetUp(pc));
      PetscCall(PCView(pc, PETSC_VIEWER_STDOUT_SELF));
      PetscCall(PCISAIGetInfo(pc, &info));
      dev = (PetscBool)(info.gpu_apply && info.gpu_columns);
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "isai auto-with-aijcusparse: column solves and apply on the GPU %s\n", dev ? "PASS" : "FAIL"));
      if (dev) (*npass)++;
      else (*nfail)++;
      PetscCall(PCDestroy(&pc));
    }
    PetscCall(MatDestroy(&Ad));
    PetscCall(MatDestroy(&A));
    for (PetscInt ib = 0; ib < (quick ? 1 : 6); ib++) { /* templated block sizes and the runtime ones (6, 8) */
      const PetscInt bsl[] = {2, 3, 4, 5, 6, 8}, bs = bsl[ib];
      char           name[32];
      PetscCall(SpTrsvBuildBlockCD(quick ? 6 : 14, bs, 20.0, MATSEQBAIJ, &A));
      PetscCall(PetscSNPrintf(name, sizeof(name), "blockcd_bs%" PetscInt_FMT, bs));
      /* host BAIJ input: the GPU factor uploads the block values */
      for (PetscInt o = 0; o < (quick ? 1 : 4); o++) PetscCall(CompareISAI2(A, A, name, sopts[o], PETSC_TRUE, rnd, tol, npass, nfail));
      /* the same matrix as MATSEQAIJCUSPARSE with its block size: the factor gathers the device values in place */
      PetscCall(MatConvert(A, MATSEQAIJCUSPARSE, MAT_INITIAL_MATRIX, &Ad));
      PetscCall(PetscSNPrintf(name, sizeof(name), "blockcd_bs%" PetscInt_FMT "_aijcusp", bs));
      for (PetscInt o = 0; o < (quick ? 1 : 4); o += 3) PetscCall(CompareISAI2(A, Ad, name, sopts[o], PETSC_TRUE, rnd, tol, npass, nfail));
      PetscCall(MatDestroy(&Ad));
      PetscCall(MatDestroy(&A));
    }
    PetscCall(CheckGPUFactorErrors(npass, nfail));
  }
#else
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "isai: this PETSc has no CUDA, GPU apply not compared\n"));
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}
