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

/* relative max-norm difference of the GPU apply (CUDA vectors, and host vectors through copies) from the host apply */
static PetscErrorCode CompareISAI(Mat A, const char *name, const char *opts, PetscRandom rnd, PetscReal tol, PetscInt *npass, PetscInt *nfail)
{
  PC        ph, pd;
  Vec       b, yh, bd, yd, yc;
  PetscReal e[3], nrm, err;
  PetscInt  n;

  PetscFunctionBeginUser;
  PetscCall(MatGetLocalSize(A, &n, NULL));
  PetscCall(MakeISAI(A, "host", opts, &ph));
  PetscCall(MakeISAI(A, "cuda", opts, &pd));
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
  PetscCall(PCDestroy(&ph));
  PetscCall(PCDestroy(&pd));
  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&yh));
  PetscCall(VecDestroy(&yc));
  PetscCall(VecDestroy(&bd));
  PetscCall(VecDestroy(&yd));
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
    for (PetscInt ib = 0; ib < (quick ? 1 : 4); ib++) { /* templated block sizes and the runtime one (6) */
      const PetscInt bsl[] = {2, 3, 4, 6}, bs = bsl[ib];
      char           name[32];
      PetscCall(SpTrsvBuildBlockCD(quick ? 6 : 14, bs, 20.0, MATSEQBAIJ, &A));
      PetscCall(PetscSNPrintf(name, sizeof(name), "blockcd_bs%" PetscInt_FMT, bs));
      for (PetscInt o = 0; o < (quick ? 1 : 4); o++) PetscCall(CompareISAI(A, name, sopts[o], rnd, tol, npass, nfail));
      PetscCall(MatDestroy(&A));
    }
  }
#else
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "isai: this PETSc has no CUDA, GPU apply not compared\n"));
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}
