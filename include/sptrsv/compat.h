/* Differences between the PETSc versions we build against (3.18 ... main) */
#pragma once
#include <petscversion.h>

#if PETSC_VERSION_LT(3, 19, 0)
  #define PETSC_SUCCESS 0
#endif

/* Internal functions are hidden in the shared library; the unit tests, benchmarks and device checks link the
   static archive (lib/libpetscsptrsv.a) to call them */
#define SPTRSV_INTERN PETSC_INTERN

/* a small function the compiler must inline where it is called (a row loop's per-row step, called through a constant
   function table: inlined, the call costs nothing) */
#if defined(__GNUC__)
  #define SPTRSV_FORCE_INLINE inline __attribute__((always_inline))
#else
  #define SPTRSV_FORCE_INLINE inline
#endif

/* PETSc 3.22 renamed PETSC_MAX_INT to PETSC_INT_MAX (the old name is deprecated) */
#include <petscsys.h>
#if !defined(PETSC_INT_MAX)
  #define PETSC_INT_MAX PETSC_MAX_INT
#endif

/* The one real-scalar guard: the CUDA kernels (and the GPU code around them) are written for real scalars,
   double or float (complex atomics and shuffles are not provided). Without it the CUDA backend reports
   itself unavailable, PC isai keeps its column solves and factorization on the host, and the host runs. */
#if !defined(PETSC_USE_COMPLEX) && (defined(PETSC_USE_REAL_DOUBLE) || defined(PETSC_USE_REAL_SINGLE))
  #define SPTRSV_CUDA_SCALAR_OK 1
#endif

/* PETSc 3.23 made PetscOptionItems a pointer type: the argument of a PCSetFromOptions_XXX */
#if PETSC_VERSION_LT(3, 23, 0)
typedef PetscOptionItems *SpTrsvOptionItems;
#else
typedef PetscOptionItems SpTrsvOptionItems;
#endif

/* PETSc 3.22 replaced VecSetInf() (fill with Inf: what MatSolve() returns for a failed factor) by VecFlag(v, 1) */
#if PETSC_VERSION_LT(3, 22, 0)
  #define SpTrsvVecSetInf(v) VecSetInf(v)
#else
  #define SpTrsvVecSetInf(v) VecFlag((v), 1)
#endif
