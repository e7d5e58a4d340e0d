/* Package registration: MatSolverTypes, log events; loaded by -dll_append or SpTrsvInitializePackage() */
#include <sptrsv/factormat.h>
#include <sptrsv/events.h>
#include <sptrsv/deviceops.h> /* SpTrsvDeviceScalarNote */

static PetscBool SpTrsvPackageInitialized = PETSC_FALSE;

/*@C
   SpTrsvFinalizePackage - called from PetscFinalize() to undo SpTrsvInitializePackage()

   Level: developer

.seealso: `SpTrsvInitializePackage()`
@*/
PetscErrorCode SpTrsvFinalizePackage(void)
{
  PetscFunctionBegin;
  SpTrsvPackageInitialized = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
   SpTrsvInitializePackage - registers the petsc-sptrsv MatSolverTypes (sptrsv_level, ...), the PCs
   (gs, isai) and log events. Called automatically when the library is loaded with -dll_append; a
   program that links the library calls it once after PetscInitialize().

   Level: beginner

.seealso: `SpTrsvFinalizePackage()`, `MatSolverTypeRegister()`
@*/
PetscErrorCode SpTrsvInitializePackage(void)
{
  PetscFunctionBegin;
  if (SpTrsvPackageInitialized) PetscFunctionReturn(PETSC_SUCCESS);
  SpTrsvPackageInitialized = PETSC_TRUE;
  PetscCall(MatInitializePackage());
  PetscCall(SpTrsvEventsRegister());
  { /* a PETSc whose scalars the CUDA kernels cannot take (complex): said once, here (-info), and in -help */
    const char *note = SpTrsvDeviceScalarNote();

    if (note) PetscCall(PetscInfo(NULL, "petsc-sptrsv: %s\n", note));
  }
  PetscCall(SpTrsvPathRegisterAll());
  PetscCall(PCInitializePackage());
  PetscCall(PCRegister(PCGS, PCCreate_GS));
  PetscCall(PCRegister(PCISAI, PCCreate_ISAI));
  PetscCall(PetscRegisterFinalize(SpTrsvFinalizePackage));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* entry point PETSc calls when it opens libpetscsptrsv.so through -dll_append / -dll_prepend */
PETSC_EXTERN PetscErrorCode PetscDLLibraryRegister_petscsptrsv(void)
{
  PetscFunctionBegin;
  PetscCall(SpTrsvInitializePackage());
  PetscFunctionReturn(PETSC_SUCCESS);
}
