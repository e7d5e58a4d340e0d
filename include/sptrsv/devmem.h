/* Device memory accounting (private to the plugin; plain C, backend-neutral)

   Every device allocation of the plugin goes through SpTrsvCUDAMalloc()/SpTrsvCUDAFree() (src/cuda/cuda_check.h),
   which record it here: a table from the device address to its size and to the tally (SpTrsvDevMem) that was
   current when it was made. A tally belongs to one object (a solver, a factor, a PC gs or PC isai): the object
   makes its tally current around the calls that allocate (SpTrsvDevMemBegin/End, nestable), and -ksp_view prints its
   bytes. Tallies nest: the tally current when another is first made current becomes its parent (a factor's solvers
   are children of the factor's tally, PC gs's sweep solvers of the PC's), and an allocation counts in its tally and
   every ancestor. An object's tally must outlive the objects made inside it, which ownership gives (an object
   destroys what it made before itself). A free takes the bytes off the tally it was
   counted in and off the plugin's total, whichever scope is current then. An object detaches its tally when it
   is destroyed (SpTrsvDevMemDetach): allocations still counted there (none, unless something leaked) stay in the
   plugin's total only, so no table entry points into freed memory.

   The plugin's totals (live bytes, peak, allocations made) are what the long-run check compares before and after
   (with cudaMemGetInfo); SpTrsvDevMemInjectFailure() makes the k-th allocation from now fail as an out-of-memory
   cudaMalloc would (the device checks' fault injection).
*/
#pragma once
#include <petscsys.h>
#include <sptrsv/compat.h>
#include <sptrsv/tri.h>

typedef struct _n_SpTrsvDevMem SpTrsvDevMem;
struct _n_SpTrsvDevMem {
  PetscInt64    bytes;  /* live bytes counted here (and in the tallies made current inside it: its children) */
  PetscInt64    peak;   /* the largest value bytes had */
  PetscInt64    allocs; /* allocations counted here, ever */
  SpTrsvDevMem *parent; /* the tally current when this one was first made current: it counts this one's bytes too */
};

/* make m current (NULL: none) until the matching End; *saved keeps the previous one */
SPTRSV_INTERN void SpTrsvDevMemBegin(SpTrsvDevMem *m, SpTrsvDevMem **saved);
SPTRSV_INTERN void SpTrsvDevMemEnd(SpTrsvDevMem *saved);
/* run call with m current: SpTrsvDevMemScope(&obj->mem, fn(obj)) */
#define SpTrsvDevMemScope(m, ...) \
  do { \
    SpTrsvDevMem        *sptrsv_dm_saved_; \
    PetscErrorCode       sptrsv_dm_err_; \
    SpTrsvDevMemBegin((m), &sptrsv_dm_saved_); \
    sptrsv_dm_err_ = (__VA_ARGS__); \
    SpTrsvDevMemEnd(sptrsv_dm_saved_); \
    PetscCall(sptrsv_dm_err_); \
  } while (0)

/* record an allocation made (counted in the current tally) / one about to be freed (unknown pointers are ignored) */
SPTRSV_INTERN PetscErrorCode SpTrsvDevMemAdd(const void *, size_t);
SPTRSV_INTERN void           SpTrsvDevMemRemove(const void *);
/* forget m: its live allocations stay in the plugin's total only */
SPTRSV_INTERN void           SpTrsvDevMemDetach(SpTrsvDevMem *m);
/* fault injection: the k-th allocation from now (k >= 1) fails; k = 0 turns it off. ShouldFail() counts down */
SPTRSV_INTERN void           SpTrsvDevMemInjectFailure(PetscInt64 k);
SPTRSV_INTERN PetscBool      SpTrsvDevMemShouldFail(void);
/* the error of a failed device allocation: names what was asked for, the bytes, the free and total device memory
   (0, 0: unknown) and the CUDA error name; the text is fixed here so that host tests can check it */
SPTRSV_INTERN PetscErrorCode SpTrsvDevMemAllocFailed(size_t bytes, const char *what, size_t freeb, size_t total, const char *cudaerr);
/* "1.23 GB", "45.6 MB", "789 kB", "12 B" (powers of 10^3) */
SPTRSV_INTERN void           SpTrsvDevMemFormat(PetscInt64 bytes, char *buf, size_t len);
/* the plugin's totals (SpTrsvDeviceMemoryGetUsage() in petscsptrsv.h) */

/* CUDA builds (src/cuda/cusparse_memory.cu): the device bytes cusparseSpSV would hold for a triangle (its CSR with
   the diagonal stored, 32-bit indices; and its SpSV buffer), for -mat_sptrsv_compare_cusparse_memory */
SPTRSV_INTERN PetscErrorCode SpTrsvCUDASpSVMemory(SpTrsvTri, PetscInt64 *, PetscInt64 *);
