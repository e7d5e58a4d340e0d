/* The plugin's log events (private to the plugin; the public ones are declared in include/petscsptrsv.h too) */
#pragma once
#include <petscsys.h>
#include <sptrsv/compat.h>

/* SpTrsvSymbolic, SpTrsvFactorSym, SpTrsvNumSetUp, SpTrsvAnalysis, SpTrsvUpload, SpTrsvNumeric, SpTrsvSolve (public), PC gs
   and PC isai's setup and apply, the direct factors' numeric phases and conversion, the automatic choice's measured check */
PETSC_EXTERN PetscLogEvent SPTRSV_Symbolic, SPTRSV_FactorSym, SPTRSV_NumericSetUp, SPTRSV_Analysis, SPTRSV_Upload, SPTRSV_Numeric, SPTRSV_Solve;
PETSC_EXTERN PetscLogEvent  SPTRSV_GSSetup, SPTRSV_GSApply, SPTRSV_ISAISetup, SPTRSV_ISAIApply;
SPTRSV_INTERN PetscLogEvent SPTRSV_LUNumeric, SPTRSV_CholNumeric, SPTRSV_DirectConvert;
SPTRSV_INTERN PetscLogEvent SPTRSV_AutoMeasure;
SPTRSV_INTERN PetscLogEvent SPTRSV_AutoLearn; /* the learning choice's looks (inside MatSolve, outside SpTrsvSolve) */
SPTRSV_INTERN PetscErrorCode SpTrsvEventsRegister(void);
