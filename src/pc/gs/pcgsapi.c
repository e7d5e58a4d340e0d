/*
   PC gs's public API (src/pc/gs/pcgs.c is the PC): the setters and the device information, each a composed method of
   the PC, as PETSc's own PCs expose theirs (a PC of another type ignores the setters, as PCSORSetOmega() on a PC that is
   not PCSOR does).
*/
#include <sptrsv/gs.h>
#include <petsc/private/pcimpl.h>

/*@
   PCGSSetType - forward, backward or symmetric sweeps

   Logically Collective

   Input Parameters:
+  pc   - the preconditioner context
-  type - `PC_GS_FORWARD`, `PC_GS_BACKWARD` or `PC_GS_SYMMETRIC` (default)

   Options Database Key:
.  -pc_gs_type <forward,backward,symmetric> - the sweeps

   Level: beginner

.seealso: `PCGS`, `PCSORSetSymmetric()`
@*/
PetscErrorCode PCGSSetType(PC pc, PCGSType type)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscTryMethod(pc, "PCGSSetType_C", (PC, PCGSType), (pc, type));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PCGSSetOmega - the relaxation factor (1 = Gauss-Seidel)

   Logically Collective

   Input Parameters:
+  pc    - the preconditioner context
-  omega - in (0, 2)

   Options Database Key:
.  -pc_gs_omega <omega> - the relaxation factor

   Level: beginner

.seealso: `PCGS`, `PCSORSetOmega()`
@*/
PetscErrorCode PCGSSetOmega(PC pc, PetscReal omega)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscTryMethod(pc, "PCGSSetOmega_C", (PC, PetscReal), (pc, omega));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PCGSSetIterations - iterations per application of the preconditioner

   Logically Collective

   Input Parameters:
+  pc  - the preconditioner context
-  its - a positive number (default 1)

   Options Database Key:
.  -pc_gs_its <its> - the iterations

   Level: beginner

.seealso: `PCGS`, `PCSORSetIterations()`
@*/
PetscErrorCode PCGSSetIterations(PC pc, PetscInt its)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscTryMethod(pc, "PCGSSetIterations_C", (PC, PetscInt), (pc, its));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PCGSSetOrdering - the order of the rows in a sweep: exact (natural, the iterates of `PCSOR`, default) or
   multicolor (Gauss-Seidel in the order of a greedy colouring of the symmetrized matrix graph)

   Logically Collective

   Input Parameters:
+  pc       - the preconditioner context
-  ordering - `PC_GS_ORDERING_EXACT` or `PC_GS_ORDERING_MULTICOLOR`

   Options Database Key:
.  -pc_gs_ordering <exact,multicolor> - the ordering

   Notes:
   A multicolor sweep updates all rows of one colour at once (one GPU launch per colour, a handful per sweep
   on stencil matrices) with the newest values of the other colours: it is exactly `PCSOR`'s sweep of the
   colour-permuted matrix, not of the matrix itself, so iteration counts differ (often a few more). Type,
   omega, iterations, local iterations, the diagonal shift and the transposed application keep their meaning;
   -pc_gs_scheduler and -pc_gs_format apply to the exact ordering only. The colouring (-pc_gs_coloring) and the
   colour-ordered storage are made once per nonzero pattern, on the GPU for the CUDA backend; new values on the same
   pattern are one gather, on the GPU from a MATSEQAIJCUSPARSE's device values.

   Level: intermediate

.seealso: `PCGS`, `PCGSSetType()`
@*/
PetscErrorCode PCGSSetOrdering(PC pc, PCGSOrdering ordering)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscTryMethod(pc, "PCGSSetOrdering_C", (PC, PCGSOrdering), (pc, ordering));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
   PCGSGetDeviceInfo - the GPU a `PCGS` sweeps on, from the PC's own record (made at its setup on the CUDA backend),
   with a check that its device buffers (staging, work vectors, the exact ordering's sweep solvers) live on that GPU

   Not Collective

   Input Parameter:
.  pc - the preconditioner context, after `PCSetUp()`

   Output Parameter:
.  info - id -1 (nothing checked) on the host backend; else device number, PCI bus id, name, devices seen, and
          nbuffers / nforeign: buffers checked, and those not on that device (0)

   Level: intermediate

.seealso: `PCGS`, `SpTrsvDeviceInfo`, `MatSpTrsvGetDeviceInfo()`
@*/
PetscErrorCode PCGSGetDeviceInfo(PC pc, SpTrsvDeviceInfo *info)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscUseMethod(pc, "PCGSGetDeviceInfo_C", (PC, SpTrsvDeviceInfo *), (pc, info));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PCGSSetScheduler - level-set or element (synchronization-free) scheduling of the sweeps

   Logically Collective

   Input Parameters:
+  pc        - the preconditioner context
-  scheduler - the name of a path that runs sweeps ("level", "element") or "auto" (default: element on the GPU, level on the host)

   Options Database Key:
.  -pc_gs_scheduler <level,element,auto> - the scheduler

   Level: intermediate

.seealso: `PCGS`
@*/
PetscErrorCode PCGSSetScheduler(PC pc, const char scheduler[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscTryMethod(pc, "PCGSSetScheduler_C", (PC, const char[]), (pc, scheduler));
  PetscFunctionReturn(PETSC_SUCCESS);
}
