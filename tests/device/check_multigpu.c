static char help[] = "One GPU per MPI rank (issue 15): solves a 3-D Laplacian (7-point, n^3, a DMDA) with the KSP and PC given\n"
                     "(default CG + block Jacobi, ILU(0) sub-solves by sptrsv_level), then gathers, from every rank, the GPU its\n"
                     "petsc-sptrsv objects run on as the objects themselves recorded it (MatSpTrsvGetDeviceInfo, PCGSGetDeviceInfo:\n"
                     "device number, PCI bus id) with the check that their device buffers live on that GPU (cudaPointerGetAttributes),\n"
                     "and fails when two ranks of one node share a GPU while the node has more than one, when a rank's objects\n"
                     "sit on two GPUs or have a buffer on another one, or (CUDA PETSc) when they are not on PETSc's device of the rank.\n"
                     "  -n <n>                      grid points per direction (default 24)\n"
                     "  -expect_distinct_gpus <bool> ranks of a node must use distinct GPUs, as many as there are (default true)\n"
                     "  -gpus_per_node <g>          the GPUs a node has (default: the most devices a rank of the node sees; give it when\n"
                     "                              CUDA_VISIBLE_DEVICES hides some)\n"
                     "  -require_cuda               fail when the objects ran on the host backend (else: 'no CUDA device, skipped')\n"
                     "  -synthetic_pci <id,id,...>  one PCI bus id per rank instead of the objects' records (host test of the detection)\n"
                     "  -synthetic_gpus <g>         with -synthetic_pci: devices each rank sees (default 2)\n"
                     "  -synthetic_foreign <rank>   with -synthetic_pci: that rank reports a buffer on another GPU\n"
                     "Exit status 0 iff the check passed (or was skipped); the last line says PASS, FAIL or skipped.\n\n";

#include <petscksp.h>
#include <petscdmda.h>
#include <petscsptrsv.h>
#include <sptrsv/compat.h> /* PETSC_SUCCESS with PETSc < 3.19 */
#include <string.h>
#if defined(PETSC_HAVE_CUDA)
  #include <petscdevice.h>
#endif

/* what one rank reports (plain bytes, gathered on rank 0) */
typedef struct {
  char host[64];
  char pci[32];
  char name[64];
  int  id;        /* device number of the rank's objects (-1: host backend) */
  int  ndevices;  /* CUDA devices the rank sees */
  int  nobjects;  /* petsc-sptrsv objects found in the PC */
  int  nbuffers;  /* device buffers checked */
  int  nforeign;  /* of them not on the device */
  int  mixed;     /* objects on two devices */
  int  petsc_id;  /* PETSc's device of the rank (CUDA PETSc), -2 when unknown */
} Rank;

/* the 7-point Laplacian of the DMDA (Dirichlet rows kept as scaled identity), b = A * 1 */
static PetscErrorCode Assemble(DM da, Mat A, Vec b, Vec x)
{
  PetscInt    xs, ys, zs, xm, ym, zm, M, N, P;
  MatStencil  row, col[7];
  PetscScalar v[7];

  PetscFunctionBeginUser;
  PetscCall(DMDAGetInfo(da, NULL, &M, &N, &P, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
  PetscCall(DMDAGetCorners(da, &xs, &ys, &zs, &xm, &ym, &zm));
  for (PetscInt k = zs; k < zs + zm; k++)
    for (PetscInt j = ys; j < ys + ym; j++)
      for (PetscInt i = xs; i < xs + xm; i++) {
        PetscInt nc = 0;
        row.i = i, row.j = j, row.k = k;
        if (i == 0 || j == 0 || k == 0 || i == M - 1 || j == N - 1 || k == P - 1) {
          v[0] = 6.0, col[0] = row;
          PetscCall(MatSetValuesStencil(A, 1, &row, 1, col, v, INSERT_VALUES));
          continue;
        }
        col[nc] = row, v[nc++] = 6.0;
        col[nc] = row, col[nc].i--, v[nc++] = -1.0;
        col[nc] = row, col[nc].i++, v[nc++] = -1.0;
        col[nc] = row, col[nc].j--, v[nc++] = -1.0;
        col[nc] = row, col[nc].j++, v[nc++] = -1.0;
        col[nc] = row, col[nc].k--, v[nc++] = -1.0;
        col[nc] = row, col[nc].k++, v[nc++] = -1.0;
        PetscCall(MatSetValuesStencil(A, 1, &row, nc, col, v, INSERT_VALUES));
      }
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscCall(VecSet(x, 1.0));
  PetscCall(MatMult(A, x, b));
  PetscCall(VecZeroEntries(x));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* two fixed-size record fields equal */
static PetscBool Same(const char *a, const char *b)
{
  return strcmp(a, b) ? PETSC_FALSE : PETSC_TRUE;
}

/* add one object's record to the rank's */
static void Merge(Rank *r, const SpTrsvDeviceInfo *info)
{
  if (r->nobjects && info->id != r->id) r->mixed = 1;
  if (!r->nobjects) {
    r->id       = (int)info->id;
    r->ndevices = (int)info->ndevices;
    snprintf(r->pci, sizeof(r->pci), "%.31s", info->pci);
    snprintf(r->name, sizeof(r->name), "%.63s", info->name);
  }
  r->nobjects++;
  r->nbuffers += (int)info->nbuffers;
  r->nforeign += (int)info->nforeign;
}

/* the plugin's objects in a PC: PC gs, sptrsv_* factors of PCILU/PCICC, and those inside block Jacobi / ASM blocks */
static PetscErrorCode Collect(PC pc, Rank *r)
{
  PetscBool        isgs, isbj, isasm, isfac;
  SpTrsvDeviceInfo info;

  PetscFunctionBeginUser;
  PetscCall(PetscObjectTypeCompare((PetscObject)pc, PCGS, &isgs));
  PetscCall(PetscObjectTypeCompare((PetscObject)pc, PCBJACOBI, &isbj));
  PetscCall(PetscObjectTypeCompare((PetscObject)pc, PCASM, &isasm));
  PetscCall(PetscObjectTypeCompareAny((PetscObject)pc, &isfac, PCILU, PCICC, ""));
  if (isgs) {
    PetscCall(PCGSGetDeviceInfo(pc, &info));
    Merge(r, &info);
  } else if (isbj || isasm) {
    KSP     *sub;
    PetscInt nlocal, first;

    if (isbj) PetscCall(PCBJacobiGetSubKSP(pc, &nlocal, &first, &sub));
    else PetscCall(PCASMGetSubKSP(pc, &nlocal, &first, &sub));
    for (PetscInt k = 0; k < nlocal; k++) {
      PC subpc;

      PetscCall(KSPGetPC(sub[k], &subpc));
      PetscCall(Collect(subpc, r));
    }
  } else if (isfac) {
    Mat           F;
    MatSolverType type;
    PetscBool     ours;

    PetscCall(PCFactorGetMatrix(pc, &F));
    PetscCall(MatFactorGetSolverType(F, &type));
    PetscCall(PetscStrbeginswith(type, "sptrsv", &ours));
    if (ours) {
      PetscCall(MatSpTrsvGetDeviceInfo(F, &info));
      Merge(r, &info);
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* PETSc's device of this rank (-2: not a CUDA PETSc, or not known) */
static PetscErrorCode PetscDeviceOfRank(int *id)
{
  PetscFunctionBeginUser;
  *id = -2;
#if defined(PETSC_HAVE_CUDA) && PETSC_VERSION_GE(3, 19, 0)
  {
    PetscDeviceContext dctx;
    PetscDeviceType    dtype;
    PetscDevice        dev;
    PetscInt           pid;

    PetscCall(PetscDeviceContextGetCurrentContext(&dctx));
    PetscCall(PetscDeviceContextGetDeviceType(dctx, &dtype));
    if (dtype == PETSC_DEVICE_CUDA) {
      PetscCall(PetscDeviceContextGetDevice(dctx, &dev));
      PetscCall(PetscDeviceGetDeviceId(dev, &pid));
      *id = (int)pid;
    }
  }
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  Verdict - rank 0, from every rank's record: per node (host name), the ranks there must use min(ranks, GPUs) distinct
  PCI bus ids (GPUs = -gpus_per_node, else the most devices a rank of the node sees); a rank with objects on two
  devices, a buffer off its device, or a device other than PETSc's fails too. Prints one line per problem.
*/
static PetscErrorCode Verdict(PetscMPIInt size, const Rank *r, PetscInt gpus_per_node, PetscBool expect, PetscBool *ok, char *summary, size_t len)
{
  PetscInt ngpus = 0;

  PetscFunctionBeginUser;
  *ok = PETSC_TRUE;
  for (PetscMPIInt i = 0; i < size; i++) {
    if (r[i].mixed) {
      *ok = PETSC_FALSE;
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "FAIL: rank %d: its objects run on more than one GPU\n", i));
    }
    if (r[i].nforeign) {
      *ok = PETSC_FALSE;
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "FAIL: rank %d: %d of its %d device buffers are not memory of its GPU %d (PCI %s)\n", i, r[i].nforeign, r[i].nbuffers, r[i].id, r[i].pci));
    }
    if (r[i].petsc_id != -2 && r[i].petsc_id != r[i].id) {
      *ok = PETSC_FALSE;
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "FAIL: rank %d: its objects run on CUDA device %d, PETSc's device of the rank is %d\n", i, r[i].id, r[i].petsc_id));
    }
  }
  for (PetscMPIInt i = 0; i < size; i++) {
    PetscBool first = PETSC_TRUE, flg;
    PetscInt  nr = 0, nd = 0, g = 0, need;

    for (PetscMPIInt j = 0; j < i && first; j++) {
      flg = Same(r[i].host, r[j].host);
      if (flg) first = PETSC_FALSE;
    }
    if (!first) continue; /* node already done */
    for (PetscMPIInt j = i; j < size; j++) {
      PetscBool same, seen = PETSC_FALSE;

      same = Same(r[i].host, r[j].host);
      if (!same) continue;
      nr++;
      g = PetscMax(g, r[j].ndevices);
      for (PetscMPIInt k = i; k < j && !seen; k++) {
        PetscBool h, p;

        h = Same(r[i].host, r[k].host);
        p = Same(r[j].pci, r[k].pci);
        if (h && p) seen = PETSC_TRUE;
      }
      if (!seen) nd++;
    }
    if (gpus_per_node > 0) g = gpus_per_node;
    need = PetscMin(nr, g);
    ngpus += nd;
    /* and evenly: no GPU with more than ceil(ranks / GPUs used) ranks (rank % devices gives that) */
    if (need > 0) {
      for (PetscMPIInt j = i; j < size; j++) {
        PetscInt  on = 0;
        PetscBool same;

        same = Same(r[i].host, r[j].host);
        if (!same) continue;
        for (PetscMPIInt k = i; k < size; k++) {
          PetscBool h, p;

          h = Same(r[i].host, r[k].host);
          p = Same(r[j].pci, r[k].pci);
          if (h && p) on++;
        }
        if (on > (nr + need - 1) / need) {
          PetscCall(PetscPrintf(PETSC_COMM_SELF, "%s: node %s: %" PetscInt_FMT " of its %" PetscInt_FMT " ranks on the GPU at PCI %s (at most %" PetscInt_FMT " per GPU when %" PetscInt_FMT " GPUs are shared evenly)\n", expect ? "FAIL" : "NOTE", r[i].host, on, nr, r[j].pci, (nr + need - 1) / need, need));
          if (expect) *ok = PETSC_FALSE;
          break;
        }
      }
    }
    if (nd < need) {
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "%s: node %s: %" PetscInt_FMT " ranks share %" PetscInt_FMT " GPU%s while the node has %" PetscInt_FMT " (expected %" PetscInt_FMT " distinct):", expect ? "FAIL" : "NOTE", r[i].host, nr, nd, nd == 1 ? "" : "s", g, need));
      for (PetscMPIInt j = i; j < size; j++) {
        PetscBool same;

        same = Same(r[i].host, r[j].host);
        if (same) PetscCall(PetscPrintf(PETSC_COMM_SELF, " rank %d on PCI %s;", j, r[j].pci));
      }
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "%s\n", expect ? "" : " allowed by -expect_distinct_gpus 0"));
      if (expect) *ok = PETSC_FALSE;
    }
  }
  PetscCall(PetscSNPrintf(summary, len, "%d ranks on %" PetscInt_FMT " distinct GPU%s", size, ngpus, ngpus == 1 ? "" : "s"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  DM                 da;
  Mat                A;
  Vec                b, x;
  KSP                ksp;
  PC                 pc;
  PetscInt           n = 24, gpus_per_node = 0, synth_gpus = 2, synth_foreign = -1, nsynth = 0, its;
  PetscBool          expect = PETSC_TRUE, require = PETSC_FALSE, synth = PETSC_FALSE, flg;
  char              *synth_pci[256];
  PetscMPIInt        rank, size;
  Rank               mine, *all = NULL;
  KSPConvergedReason reason;
  int                status = 0;
  const char        *defaults[][2] = {{"-ksp_type", "cg"}, {"-pc_type", "bjacobi"}, {"-sub_pc_type", "ilu"}, {"-sub_pc_factor_mat_solver_type", "sptrsv_level"}};

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SpTrsvInitializePackage());
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "One GPU per rank check", NULL);
  PetscCall(PetscOptionsInt("-n", "grid points per direction", NULL, n, &n, NULL));
  PetscCall(PetscOptionsBool("-expect_distinct_gpus", "ranks of a node must use distinct GPUs", NULL, expect, &expect, NULL));
  PetscCall(PetscOptionsInt("-gpus_per_node", "GPUs a node has (0: the most a rank sees)", NULL, gpus_per_node, &gpus_per_node, NULL));
  PetscCall(PetscOptionsBool("-require_cuda", "fail when the objects ran on the host backend", NULL, require, &require, NULL));
  nsynth = (PetscInt)(sizeof(synth_pci) / sizeof(synth_pci[0]));
  PetscCall(PetscOptionsStringArray("-synthetic_pci", "one PCI bus id per rank (host test of the detection)", NULL, synth_pci, &nsynth, &synth));
  PetscCall(PetscOptionsInt("-synthetic_gpus", "with -synthetic_pci: devices each rank sees", NULL, synth_gpus, &synth_gpus, NULL));
  PetscCall(PetscOptionsInt("-synthetic_foreign", "with -synthetic_pci: this rank reports a foreign buffer", NULL, synth_foreign, &synth_foreign, NULL));
  PetscOptionsEnd();
  if (!synth) nsynth = 0;
  PetscCheck(!synth || nsynth == size, PETSC_COMM_WORLD, PETSC_ERR_USER_INPUT, "-synthetic_pci: %" PetscInt_FMT " ids given for %d ranks", nsynth, size);
  for (size_t k = 0; k < sizeof(defaults) / sizeof(defaults[0]); k++) {
    PetscCall(PetscOptionsHasName(NULL, NULL, defaults[k][0], &flg));
    if (!flg) PetscCall(PetscOptionsSetValue(NULL, defaults[k][0], defaults[k][1]));
  }

  /* the solve: every plugin object is set up (and used) on the rank's device */
  PetscCall(DMDACreate3d(PETSC_COMM_WORLD, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DMDA_STENCIL_STAR, n, n, n, PETSC_DECIDE, PETSC_DECIDE, PETSC_DECIDE, 1, 1, NULL, NULL, NULL, &da));
  PetscCall(DMSetFromOptions(da)); /* -dm_mat_type aijcusparse -dm_vec_type cuda */
  PetscCall(DMSetUp(da));
  PetscCall(DMCreateMatrix(da, &A));
  PetscCall(DMCreateGlobalVector(da, &b));
  PetscCall(VecDuplicate(b, &x));
  PetscCall(Assemble(da, A, b, x));
  PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSetTolerances(ksp, 1e-8, PETSC_DEFAULT, PETSC_DEFAULT, 1000));
  PetscCall(KSPSetFromOptions(ksp));
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(KSPGetConvergedReason(ksp, &reason));
  PetscCall(KSPGetIterationNumber(ksp, &its));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "solve: %s in %" PetscInt_FMT " iterations\n", KSPConvergedReasons[reason], its));
  if (reason <= 0) status = 1;

  /* each rank's record: the objects' own, or the synthetic one */
  PetscCall(PetscMemzero(&mine, sizeof(mine)));
  mine.id = -1;
  PetscCall(PetscGetHostName(mine.host, sizeof(mine.host)));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(Collect(pc, &mine));
  PetscCall(PetscDeviceOfRank(&mine.petsc_id));
  if (mine.id < 0) mine.petsc_id = -2; /* host backend: no device to compare */
  if (synth) {
    PetscCall(PetscSNPrintf(mine.pci, sizeof(mine.pci), "%s", synth_pci[rank]));
    PetscCall(PetscSNPrintf(mine.name, sizeof(mine.name), "synthetic"));
    mine.id       = (int)(rank % PetscMax(synth_gpus, 1));
    mine.ndevices = (int)synth_gpus;
    mine.nobjects = PetscMax(mine.nobjects, 1);
    mine.nbuffers = 2;
    mine.nforeign = rank == synth_foreign ? 1 : 0;
    mine.mixed    = 0;
    mine.petsc_id = -2;
  }
  for (PetscInt k = 0; k < nsynth; k++) PetscCall(PetscFree(synth_pci[k]));
  PetscCall(PetscSynchronizedPrintf(PETSC_COMM_WORLD, "rank %d: host %s, %s %d of %d (PCI %s, %s), %d plugin objects, %d device buffers, %d not on it%s\n", rank, mine.host, mine.id >= 0 ? "CUDA device" : "host backend, device", mine.id, mine.ndevices, mine.pci[0] ? mine.pci : "-", mine.name[0] ? mine.name : "-", mine.nobjects, mine.nbuffers, mine.nforeign, mine.petsc_id >= 0 ? (mine.petsc_id == mine.id ? "; PETSc's device of the rank: the same" : "; PETSc's device of the rank: ANOTHER") : ""));
  PetscCall(PetscSynchronizedFlush(PETSC_COMM_WORLD, PETSC_STDOUT));

  if (rank == 0) PetscCall(PetscMalloc1(size, &all));
  PetscCallMPI(MPI_Gather(&mine, (int)sizeof(Rank), MPI_BYTE, all, (int)sizeof(Rank), MPI_BYTE, 0, PETSC_COMM_WORLD));
  if (rank == 0) {
    PetscBool ok = PETSC_TRUE, anyobj = PETSC_TRUE, host = PETSC_FALSE;
    char      summary[128] = "";

    for (PetscMPIInt i = 0; i < size; i++) {
      if (!all[i].nobjects) anyobj = PETSC_FALSE;
      if (all[i].id < 0) host = PETSC_TRUE;
    }
    if (status) {
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "check_multigpu: FAIL: the solve did not converge\n"));
    } else if (!anyobj) {
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "check_multigpu: FAIL: a rank has no petsc-sptrsv object in its PC (nothing to check: use an sptrsv_* sub-solver or PC gs)\n"));
      status = 1;
    } else if (host) {
      if (require) {
        PetscCall(PetscPrintf(PETSC_COMM_SELF, "check_multigpu: FAIL: -require_cuda, but a rank's objects ran on the host backend (no CUDA device, or a host build)\n"));
        status = 1;
      } else PetscCall(PetscPrintf(PETSC_COMM_SELF, "check_multigpu: no CUDA device, skipped (the objects ran on the host backend; the solve converged)\n"));
    } else {
      PetscCall(Verdict(size, all, gpus_per_node, expect, &ok, summary, sizeof(summary)));
      if (ok) PetscCall(PetscPrintf(PETSC_COMM_SELF, "check_multigpu: PASS (%s%s)\n", summary, synth ? ", synthetic ids" : ""));
      else {
        PetscCall(PetscPrintf(PETSC_COMM_SELF, "check_multigpu: FAIL (%s%s)\n", summary, synth ? ", synthetic ids" : ""));
        status = 1;
      }
    }
    PetscCall(PetscFree(all));
  }
  PetscCallMPI(MPI_Bcast(&status, 1, MPI_INT, 0, PETSC_COMM_WORLD));
  PetscCall(KSPDestroy(&ksp));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&b));
  PetscCall(MatDestroy(&A));
  PetscCall(DMDestroy(&da));
  PetscCall(PetscFinalize());
  return status;
}
