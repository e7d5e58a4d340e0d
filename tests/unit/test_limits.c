static char help[] = "Unit tests of the size limits and the device memory accounting, with synthetic sizes (no 2^31 real bytes):\n"
                     "the 32-bit index checks and their messages (the sync-free ELL image, products, counts), the device allocation\n"
                     "failure message, the allocation table and its nested tallies, the fault injection.\n";

#include <sptrsv/utils.h>
#include <sptrsv/devmem.h>
#include <sptrsv/paths/syncfree.h>
#include <petscsptrsv.h>

#include "unit_common.h"

static char last_error[4096];

/* an error handler that keeps the message (as PetscReturnErrorHandler, which prints nothing) */
static PetscErrorCode KeepMessage(MPI_Comm comm, int line, const char *fun, const char *file, PetscErrorCode n, PetscErrorType p, const char *mess, void *ctx)
{
  if (p == PETSC_ERROR_INITIAL && mess) PetscStrncpy(last_error, mess, sizeof(last_error));
  return n;
}

#define CAPTURE(ierr_, msg_, call_) \
  do { \
    last_error[0] = 0; \
    PetscCall(PetscPushErrorHandler(KeepMessage, NULL)); \
    ierr_ = (call_); \
    PetscCall(PetscPopErrorHandler()); \
    PetscCall(PetscStrncpy(msg_, ierr_ ? last_error : "", sizeof(msg_))); \
  } while (0)

static PetscBool Has(const char *msg, const char *s)
{
  return strstr(msg, s) ? PETSC_TRUE : PETSC_FALSE;
}

static PetscErrorCode TestIndexLimits(void)
{
  PetscErrorCode ierr;
  char           msg[4096];

  PetscFunctionBeginUser;
  /* the sync-free ELL image: 32 slots per warp. n = 2e7 rows of 200 entries each take a warp of their own (long rows):
     6.4e8 slots fit; 1e8 such rows (3.2e9 slots) do not, and the message names the option that avoids the image */
  CAPTURE(ierr, msg, SpTrsvSyncFreeCheckELL(20000000));
  EXPECT(!ierr, "ELL image of 2e7 warps refused: %s", msg);
  CAPTURE(ierr, msg, SpTrsvSyncFreeCheckELL(100000000));
  EXPECT(ierr == PETSC_ERR_INT_OVERFLOW, "ELL image of 1e8 warps: error %d, expected PETSC_ERR_INT_OVERFLOW", (int)ierr);
  EXPECT(Has(msg, "warp-packed ELL image") && Has(msg, "3200000000 entries") && Has(msg, "exceeds 32-bit indexing") && Has(msg, "use -mat_sptrsv_storage csr"), "ELL message: %s", msg);
  /* the boundary: INT_MAX - 1 entries fit, INT_MAX does not */
  CAPTURE(ierr, msg, SpTrsvCheckIndex32(2147483646LL, "An array", NULL));
  EXPECT(!ierr, "2^31 - 2 entries refused: %s", msg);
  CAPTURE(ierr, msg, SpTrsvCheckIndex32(2147483647LL, "An array", NULL));
  EXPECT(ierr == PETSC_ERR_INT_OVERFLOW && Has(msg, "An array of 2147483647 entries") && !Has(msg, "; "), "2^31 - 1 entries: %d %s", (int)ierr, msg);
  CAPTURE(ierr, msg, SpTrsvCheckIndex32(-1, "A negative count", "never"));
  EXPECT(ierr == PETSC_ERR_INT_OVERFLOW, "a negative count accepted");
  /* products in 64 bits: 1e6 blocks x 4096 entries (bs 64) do not fit PetscInt; 1e6 x 2000 do */
  {
    PetscInt64 count = -1;
    CAPTURE(ierr, msg, SpTrsvCheckProduct(1000000, 2000, "Block values", &count));
    EXPECT(!ierr && count == 2000000000LL, "1e6 x 2000: %d, count %" PetscInt64_FMT, (int)ierr, count);
    CAPTURE(ierr, msg, SpTrsvCheckProduct(1000000, 4096, "Block values", &count));
    EXPECT(ierr == PETSC_ERR_INT_OVERFLOW && Has(msg, "Block values: 1000000 x 4096") && Has(msg, "--with-64-bit-indices"), "1e6 x 4096: %d %s", (int)ierr, msg);
    CAPTURE(ierr, msg, SpTrsvCheckProduct(3037000500LL, 3037000500LL, "Huge", &count)); /* the product itself would overflow 64 bits */
    EXPECT(ierr == PETSC_ERR_INT_OVERFLOW, "3.04e9^2 accepted");
  }
  /* a factor's count (ILU(k) fill accumulated in 64 bits) */
  CAPTURE(ierr, msg, SpTrsvCheckCount(3000000000LL, "nonzeros"));
  EXPECT(ierr == PETSC_ERR_INT_OVERFLOW && Has(msg, "too many nonzeros (3000000000)") && Has(msg, "reduce the levels of fill"), "count 3e9: %d %s", (int)ierr, msg);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TestAllocFailedMessage(void)
{
  PetscErrorCode ierr;
  char           msg[4096];

  PetscFunctionBeginUser;
  /* what SpTrsvCUDAMalloc raises when cudaMalloc fails: 2.6 GB asked for, 1.5 GB free of 80 GB */
  CAPTURE(ierr, msg, SpTrsvDevMemAllocFailed((size_t)2600000000ULL, "d->d_val", (size_t)1500000000ULL, (size_t)80000000000ULL, "cudaErrorMemoryAllocation"));
  EXPECT(ierr == PETSC_ERR_MEM, "allocation failure: error %d, expected PETSC_ERR_MEM", (int)ierr);
  EXPECT(Has(msg, "Device allocation of 2600000000 bytes (2.60 GB) for d->d_val failed (cudaErrorMemoryAllocation)") && Has(msg, "1.50 GB free of 80.00 GB on the GPU"), "allocation failure message: %s", msg);
  CAPTURE(ierr, msg, SpTrsvDevMemAllocFailed(4096, "f->xs", 0, 0, "cudaErrorMemoryAllocation"));
  EXPECT(ierr == PETSC_ERR_MEM && Has(msg, "4096 bytes (4 kB) for f->xs") && Has(msg, "free device memory unknown"), "allocation failure, no cudaMemGetInfo: %s", msg);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* a small deterministic generator (the table test must not depend on rand()) */
static PetscInt64 Next(PetscInt64 *s)
{
  *s = (*s * 6364136223846793005LL + 1442695040888963407LL) & 0x7fffffffffffffffLL;
  return *s >> 17;
}

static PetscErrorCode TestAccounting(void)
{
  SpTrsvDevMem  outer, inner, other, *saved, *saved2;
  PetscInt64    live0, live, peak, allocs0, allocs, nlive0, nlive;
  const size_t  N = 20000;
  uintptr_t    *ptr;
  PetscInt64   *bytes, sum = 0, seed = 7;
  PetscBool     ok = PETSC_TRUE;

  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(&outer, sizeof(outer)));
  PetscCall(PetscMemzero(&inner, sizeof(inner)));
  PetscCall(PetscMemzero(&other, sizeof(other)));
  PetscCall(SpTrsvDeviceMemoryGetUsage(&live0, NULL, &allocs0, &nlive0));
  EXPECT(live0 == 0 && nlive0 == 0, "host run: the plugin holds %" PetscInt64_FMT " device bytes at the start", live0);
  /* nesting: inner is made current inside outer, so outer counts inner's bytes too; other, outside, does not */
  SpTrsvDevMemBegin(&outer, &saved);
  PetscCall(SpTrsvDevMemAdd((void *)0x1000, 100));
  SpTrsvDevMemBegin(&inner, &saved2);
  PetscCall(SpTrsvDevMemAdd((void *)0x2000, 1000));
  SpTrsvDevMemEnd(saved2);
  SpTrsvDevMemEnd(saved);
  SpTrsvDevMemBegin(&other, &saved);
  PetscCall(SpTrsvDevMemAdd((void *)0x3000, 10000));
  SpTrsvDevMemEnd(saved);
  EXPECT(outer.bytes == 1100 && inner.bytes == 1000 && other.bytes == 10000 && inner.parent == &outer && !other.parent, "nested tallies: outer %" PetscInt64_FMT ", inner %" PetscInt64_FMT ", other %" PetscInt64_FMT, outer.bytes, inner.bytes, other.bytes);
  PetscCall(SpTrsvDeviceMemoryGetUsage(&live, &peak, &allocs, &nlive));
  EXPECT(live == 11100 && nlive == 3 && allocs == allocs0 + 3 && peak >= 11100, "plugin totals: live %" PetscInt64_FMT ", %" PetscInt64_FMT " live allocations", live, nlive);
  /* a free counts wherever the allocation was made, whatever is current */
  SpTrsvDevMemBegin(&other, &saved);
  SpTrsvDevMemRemove((void *)0x2000);
  SpTrsvDevMemEnd(saved);
  EXPECT(inner.bytes == 0 && outer.bytes == 100 && other.bytes == 10000 && inner.peak == 1000 && outer.peak == 1100, "free of inner's array: outer %" PetscInt64_FMT ", inner %" PetscInt64_FMT, outer.bytes, inner.bytes);
  SpTrsvDevMemRemove((void *)0x9999); /* unknown: ignored */
  SpTrsvDevMemRemove(NULL);
  /* detach (an object destroyed with arrays still live, i.e. a leak): outer's live array stays in the plugin's total
     only, and inner, a child with a live array, loses its parent; later frees leave outer alone */
  SpTrsvDevMemBegin(&inner, &saved);
  PetscCall(SpTrsvDevMemAdd((void *)0x2100, 50));
  SpTrsvDevMemEnd(saved);
  EXPECT(outer.bytes == 150 && inner.bytes == 50, "child again: outer %" PetscInt64_FMT ", inner %" PetscInt64_FMT, outer.bytes, inner.bytes);
  SpTrsvDevMemDetach(&outer);
  EXPECT(inner.parent == NULL, "detach: the child keeps its parent");
  SpTrsvDevMemRemove((void *)0x2100);
  SpTrsvDevMemRemove((void *)0x1000);
  EXPECT(outer.bytes == 150 && inner.bytes == 0, "detach: a later free still changed the detached tally (%" PetscInt64_FMT ")", outer.bytes);
  SpTrsvDevMemRemove((void *)0x3000);
  PetscCall(SpTrsvDeviceMemoryGetUsage(&live, NULL, NULL, &nlive));
  EXPECT(live == 0 && nlive == 0, "after the frees: live %" PetscInt64_FMT ", %" PetscInt64_FMT " allocations", live, nlive);
  /* the table: many entries (growth), frees in a scrambled order (backward-shift deletion), totals checked throughout */
  PetscCall(PetscMalloc2(N, &ptr, N, &bytes));
  SpTrsvDevMemBegin(&other, &saved);
  for (size_t k = 0; k < N; k++) {
    ptr[k]   = (uintptr_t)0x7f0000000000ULL + 512 * (uintptr_t)k; /* aligned addresses, as cudaMalloc's */
    bytes[k] = 1 + Next(&seed) % 100000;
    sum += bytes[k];
    PetscCall(SpTrsvDevMemAdd((void *)ptr[k], (size_t)bytes[k]));
  }
  SpTrsvDevMemEnd(saved);
  PetscCall(SpTrsvDeviceMemoryGetUsage(&live, NULL, NULL, &nlive));
  EXPECT(live == sum && nlive == (PetscInt64)N && other.bytes == 10000 + sum - 10000, "table of %zu: live %" PetscInt64_FMT " expected %" PetscInt64_FMT, N, live, sum);
  for (size_t k = N; k > 1; k--) { /* a Fisher-Yates shuffle of the order of the frees */
    const size_t j = (size_t)(Next(&seed) % k);
    uintptr_t    tp = ptr[k - 1];
    PetscInt64   tb = bytes[k - 1];
    ptr[k - 1] = ptr[j];
    bytes[k - 1] = bytes[j];
    ptr[j]       = tp;
    bytes[j]     = tb;
  }
  for (size_t k = 0; k < N; k++) {
    SpTrsvDevMemRemove((void *)ptr[k]);
    sum -= bytes[k];
    if (k % 997 == 0 || k == N - 1) {
      PetscCall(SpTrsvDeviceMemoryGetUsage(&live, NULL, NULL, &nlive));
      if (live != sum || nlive != (PetscInt64)(N - k - 1)) ok = PETSC_FALSE;
    }
  }
  EXPECT(ok && other.bytes == 0, "scrambled frees: the totals drifted (tally %" PetscInt64_FMT ")", other.bytes);
  PetscCall(PetscFree2(ptr, bytes));
  /* fault injection: the third allocation from now fails, once */
  SpTrsvDevMemInjectFailure(3);
  {
    const PetscBool a = SpTrsvDevMemShouldFail(), b = SpTrsvDevMemShouldFail(), c = SpTrsvDevMemShouldFail(), d = SpTrsvDevMemShouldFail();
    EXPECT(!a && !b && c && !d, "fault injection: %d %d %d %d", (int)a, (int)b, (int)c, (int)d);
  }
  SpTrsvDevMemInjectFailure(0);
  EXPECT(!SpTrsvDevMemShouldFail(), "fault injection off still fails");
  {
    PetscInt64 f = -1, t = -1;
    PetscCall(SpTrsvDeviceMemoryGetInfo(&f, &t));
    EXPECT(f >= 0 && t >= 0 && f <= t, "device memory info: %" PetscInt64_FMT " free of %" PetscInt64_FMT, f, t);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(TestIndexLimits());
  PetscCall(TestAllocFailedMessage());
  PetscCall(TestAccounting());
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "test_limits: %" PetscInt_FMT " passed, %" PetscInt_FMT " failed\n", npass, nfail));
  PetscCall(PetscFinalize());
  return nfail ? 1 : 0;
}
