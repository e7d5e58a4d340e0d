/* Package registration: MatSolverTypes, log events; loaded by -dll_append or SpTrsvInitializePackage() */
#include <sptrsv/factormat.h>

PetscLogEvent    SPTRSV_Symbolic, SPTRSV_FactorSym, SPTRSV_NumericSetUp, SPTRSV_Analysis, SPTRSV_Upload, SPTRSV_Numeric, SPTRSV_Solve, SPTRSV_GSSetup, SPTRSV_GSApply, SPTRSV_ISAISetup, SPTRSV_ISAIApply;
PetscLogEvent    SPTRSV_LUNumeric, SPTRSV_CholNumeric, SPTRSV_DirectConvert; /* direct.h */
PetscLogEvent    SPTRSV_AutoMeasure;                                      /* factormat.h */
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
  PetscClassId classid;

  PetscFunctionBegin;
  if (SpTrsvPackageInitialized) PetscFunctionReturn(PETSC_SUCCESS);
  SpTrsvPackageInitialized = PETSC_TRUE;
  PetscCall(MatInitializePackage());
  PetscCall(PetscClassIdRegister("SpTrsv", &classid));
  PetscCall(PetscLogEventRegister("SpTrsvSymbolic", classid, &SPTRSV_Symbolic));
  PetscCall(PetscLogEventRegister("SpTrsvFactorSym", classid, &SPTRSV_FactorSym));
  PetscCall(PetscLogEventRegister("SpTrsvNumSetUp", classid, &SPTRSV_NumericSetUp));
  PetscCall(PetscLogEventRegister("SpTrsvAnalysis", classid, &SPTRSV_Analysis));
  PetscCall(PetscLogEventRegister("SpTrsvUpload", classid, &SPTRSV_Upload));
  PetscCall(PetscLogEventRegister("SpTrsvNumeric", classid, &SPTRSV_Numeric));
  PetscCall(PetscLogEventRegister("SpTrsvSolve", classid, &SPTRSV_Solve));
  PetscCall(PetscLogEventRegister("SpTrsvLUNumeric", classid, &SPTRSV_LUNumeric));
  PetscCall(PetscLogEventRegister("SpTrsvCholNumeric", classid, &SPTRSV_CholNumeric));
  PetscCall(PetscLogEventRegister("SpTrsvDirectConv", classid, &SPTRSV_DirectConvert));
  PetscCall(PetscLogEventRegister("SpTrsvAutoMeasure", classid, &SPTRSV_AutoMeasure));
  PetscCall(PetscLogEventRegister("SpTrsvGSSetup", classid, &SPTRSV_GSSetup));
  PetscCall(PetscLogEventRegister("SpTrsvGSApply", classid, &SPTRSV_GSApply));
  PetscCall(PetscLogEventRegister("SpTrsvISAISetup", classid, &SPTRSV_ISAISetup));
  PetscCall(PetscLogEventRegister("SpTrsvISAIApply", classid, &SPTRSV_ISAIApply));
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
