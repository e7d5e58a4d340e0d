/* Device memory accounting (see include/sptrsv/devmem.h): a table from device addresses to their size and
   tally, the plugin's totals, the scope stack and the fault injection. Plain C: the CUDA allocator
   (backend_cuda.cu) records into it; a host build never adds an entry. The table uses the system allocator,
   not PetscMalloc, so that it never shows in PETSc's memory checks (-malloc_dump, the fuzz driver's leak check). */
#include <petscsptrsv.h>
#include <sptrsv/devmem.h>
#include <stdint.h>
#include <stdlib.h>

typedef struct {
  uintptr_t     key; /* 0: empty */
  PetscInt64    bytes;
  SpTrsvDevMem *tally;
} SpTrsvDevMemEntry;

static SpTrsvDevMemEntry *dm_table;          /* open addressing, linear probing, capacity a power of two */
static size_t             dm_cap, dm_count;  /* slots, live entries */
static SpTrsvDevMem       dm_total;          /* the plugin's totals */
static SpTrsvDevMem      *dm_current;        /* the current tally */
static PetscInt64         dm_fail_countdown; /* fault injection: 0 off */

static size_t SpTrsvDevMemHash(uintptr_t key, size_t cap)
{
  uint64_t h = (uint64_t)key;

  h ^= h >> 33; /* a 64-bit mix (murmur finalizer): device addresses share their low and high bits */
  h *= 0xff51afd7ed558ccdULL;
  h ^= h >> 33;
  return (size_t)h & (cap - 1);
}

/* the slot of key, or of the empty slot where it would go */
static size_t SpTrsvDevMemFind(uintptr_t key)
{
  size_t s = SpTrsvDevMemHash(key, dm_cap);

  while (dm_table[s].key && dm_table[s].key != key) s = (s + 1) & (dm_cap - 1);
  return s;
}

static PetscErrorCode SpTrsvDevMemGrow(void)
{
  SpTrsvDevMemEntry *old = dm_table;
  size_t             ocap = dm_cap, ncap = dm_cap ? 2 * dm_cap : 256;

  PetscFunctionBegin;
  dm_table = (SpTrsvDevMemEntry *)calloc(ncap, sizeof(SpTrsvDevMemEntry));
  if (!dm_table) {
    dm_table = old;
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_MEM, "Cannot grow the device memory table to %zu entries", ncap);
  }
  dm_cap = ncap;
  for (size_t s = 0; s < ocap; s++)
    if (old[s].key) dm_table[SpTrsvDevMemFind(old[s].key)] = old[s];
  free(old);
  PetscFunctionReturn(PETSC_SUCCESS);
}

void SpTrsvDevMemBegin(SpTrsvDevMem *m, SpTrsvDevMem **saved)
{
  *saved = dm_current;
  if (m && !m->allocs && !m->parent && dm_current != m) { /* first use: the current tally adopts it (no cycles: m is new) */
    SpTrsvDevMem *a = dm_current;
    while (a && a != m) a = a->parent;
    if (!a) m->parent = dm_current;
  }
  dm_current = m;
}

void SpTrsvDevMemEnd(SpTrsvDevMem *saved)
{
  dm_current = saved;
}

static void SpTrsvDevMemCount(SpTrsvDevMem *m, PetscInt64 bytes)
{
  for (; m; m = m->parent) {
    m->bytes += bytes;
    if (bytes > 0) m->allocs++;
    if (m->bytes > m->peak) m->peak = m->bytes;
  }
}

PetscErrorCode SpTrsvDevMemAdd(const void *p, size_t bytes)
{
  size_t s;

  PetscFunctionBegin;
  if (!p) PetscFunctionReturn(PETSC_SUCCESS);
  if (2 * (dm_count + 1) > dm_cap) PetscCall(SpTrsvDevMemGrow());
  s = SpTrsvDevMemFind((uintptr_t)p);
  if (dm_table[s].key) { /* an address freed behind our back, reused */
    SpTrsvDevMemCount(&dm_total, -dm_table[s].bytes);
    SpTrsvDevMemCount(dm_table[s].tally, -dm_table[s].bytes);
  }
  else dm_count++;
  dm_table[s].key   = (uintptr_t)p;
  dm_table[s].bytes = (PetscInt64)bytes;
  dm_table[s].tally = dm_current;
  SpTrsvDevMemCount(&dm_total, (PetscInt64)bytes); /* dm_total has no parent */
  SpTrsvDevMemCount(dm_current, (PetscInt64)bytes);
  PetscFunctionReturn(PETSC_SUCCESS);
}

void SpTrsvDevMemRemove(const void *p)
{
  size_t s, e;

  if (!p || !dm_count) return;
  s = SpTrsvDevMemFind((uintptr_t)p);
  if (!dm_table[s].key) return;
  SpTrsvDevMemCount(&dm_total, -dm_table[s].bytes);
  SpTrsvDevMemCount(dm_table[s].tally, -dm_table[s].bytes);
  /* delete by backward shift: move later entries of the probe run into the hole when their home allows it */
  e = s;
  for (size_t t = (s + 1) & (dm_cap - 1); dm_table[t].key; t = (t + 1) & (dm_cap - 1)) {
    const size_t h = SpTrsvDevMemHash(dm_table[t].key, dm_cap);
    /* t may move to e iff its home h is not cyclically in (e, t] */
    if ((t > e && (h <= e || h > t)) || (t < e && h <= e && h > t)) {
      dm_table[e] = dm_table[t];
      e           = t;
    }
  }
  dm_table[e].key   = 0;
  dm_table[e].bytes = 0;
  dm_table[e].tally = NULL;
  if (!--dm_count) { /* nothing live: give the table back */
    free(dm_table);
    dm_table = NULL;
    dm_cap   = 0;
  }
}

void SpTrsvDevMemDetach(SpTrsvDevMem *m)
{
  if (!m) return;
  for (size_t s = 0; s < dm_cap; s++) {
    if (!dm_table[s].key) continue;
    if (dm_table[s].tally == m) dm_table[s].tally = m->parent; /* a leak stays counted where it is visible */
    for (SpTrsvDevMem *a = dm_table[s].tally; a; a = a->parent)
      if (a->parent == m) a->parent = m->parent;
  }
  if (dm_current == m) dm_current = m->parent;
}

void SpTrsvDevMemInjectFailure(PetscInt64 k)
{
  dm_fail_countdown = k > 0 ? k : 0;
}

PetscBool SpTrsvDevMemShouldFail(void)
{
  if (!dm_fail_countdown) return PETSC_FALSE;
  return --dm_fail_countdown ? PETSC_FALSE : PETSC_TRUE;
}

void SpTrsvDevMemFormat(PetscInt64 bytes, char *buf, size_t len)
{
  const double b = (double)bytes;

  if (b >= 1e9) (void)PetscSNPrintf(buf, len, "%.2f GB", b / 1e9);
  else if (b >= 1e6) (void)PetscSNPrintf(buf, len, "%.1f MB", b / 1e6);
  else if (b >= 1e3) (void)PetscSNPrintf(buf, len, "%.0f kB", b / 1e3);
  else (void)PetscSNPrintf(buf, len, "%" PetscInt64_FMT " B", bytes);
}

PetscErrorCode SpTrsvDevMemAllocFailed(size_t bytes, const char *what, size_t freeb, size_t total, const char *cudaerr)
{
  char req[32], fr[32], tot[32];

  PetscFunctionBegin;
  SpTrsvDevMemFormat((PetscInt64)bytes, req, sizeof(req));
  SpTrsvDevMemFormat((PetscInt64)freeb, fr, sizeof(fr));
  SpTrsvDevMemFormat((PetscInt64)total, tot, sizeof(tot));
  if (total)
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_MEM, "Device allocation of %zu bytes (%s) for %s failed (%s): %s free of %s on the GPU; the plugin holds %" PetscInt64_FMT " bytes in %zu allocations", bytes, req, what, cudaerr, fr, tot, dm_total.bytes, dm_count);
  SETERRQ(PETSC_COMM_SELF, PETSC_ERR_MEM, "Device allocation of %zu bytes (%s) for %s failed (%s); free device memory unknown; the plugin holds %" PetscInt64_FMT " bytes in %zu allocations", bytes, req, what, cudaerr, dm_total.bytes, dm_count);
}

/*@
   SpTrsvDeviceMemoryGetUsage - the device memory the plugin holds: live bytes, their peak, allocations made
   and allocations live (all zero on the host backend)

   Not Collective

   Level: advanced
@*/
PetscErrorCode SpTrsvDeviceMemoryGetUsage(PetscInt64 *live, PetscInt64 *peak, PetscInt64 *allocs, PetscInt64 *nlive)
{
  PetscFunctionBegin;
  if (live) *live = dm_total.bytes;
  if (peak) *peak = dm_total.peak;
  if (allocs) *allocs = dm_total.allocs;
  if (nlive) *nlive = (PetscInt64)dm_count;
  PetscFunctionReturn(PETSC_SUCCESS);
}
