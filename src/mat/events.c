/* The plugin's log events (include/sptrsv/events.h): defined here, below every file that logs them, and registered by
   SpTrsvInitializePackage() */
#include <sptrsv/events.h>

PetscLogEvent SPTRSV_Symbolic, SPTRSV_FactorSym, SPTRSV_NumericSetUp, SPTRSV_Analysis, SPTRSV_Upload, SPTRSV_Numeric, SPTRSV_Solve, SPTRSV_GSSetup, SPTRSV_GSApply, SPTRSV_ISAISetup, SPTRSV_ISAIApply;
PetscLogEvent SPTRSV_LUNumeric, SPTRSV_CholNumeric, SPTRSV_DirectConvert;
PetscLogEvent SPTRSV_AutoMeasure;
PetscLogEvent SPTRSV_AutoLearn;

/* SpTrsvEventsRegister - the events, in the package's class "SpTrsv" (-log_view lists them by these names); once per
   process: SpTrsvInitializePackage() calls it, and so does the factor constructor, for a program that registered the
   constructor itself */
PetscErrorCode SpTrsvEventsRegister(void)
{
  static PetscBool registered = PETSC_FALSE;
  PetscClassId     classid;

  PetscFunctionBegin;
  if (registered) PetscFunctionReturn(PETSC_SUCCESS);
  registered = PETSC_TRUE;
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
  PetscCall(PetscLogEventRegister("SpTrsvAutoLearn", classid, &SPTRSV_AutoLearn));
  PetscCall(PetscLogEventRegister("SpTrsvGSSetup", classid, &SPTRSV_GSSetup));
  PetscCall(PetscLogEventRegister("SpTrsvGSApply", classid, &SPTRSV_GSApply));
  PetscCall(PetscLogEventRegister("SpTrsvISAISetup", classid, &SPTRSV_ISAISetup));
  PetscCall(PetscLogEventRegister("SpTrsvISAIApply", classid, &SPTRSV_ISAIApply));
  PetscFunctionReturn(PETSC_SUCCESS);
}
