/*
   Input generator of the hostile-input fuzz driver: one small matrix per case (FuzzMatrixGenerate), then
   one file made from it (FuzzWriteInput): Matrix Market text or PETSc binary (MatView), either valid or
   spoiled in one or two ways. Everything follows the case's random stream, so -seed S -case K remakes it.
*/
#include "fuzz.h"
#include <stdio.h>
#include <string.h>

/* ---- the matrix ------------------------------------------------------------------------------------ */
static void FuzzAdd(FuzzMatrix *A, PetscInt i, PetscInt j, double v)
{
  if (A->nz >= FUZZ_MAXNZ) return;
  A->i[A->nz] = i;
  A->j[A->nz] = j;
  A->v[A->nz] = v;
  A->nz++;
}

/* n in 1..maxn (a few empty and non-square ones); kinds: diagonally dominant, symmetric dominant (SPD),
   random values (small or zero pivots), 1-D Laplacian */
PetscErrorCode FuzzMatrixGenerate(FuzzRng *r, PetscInt maxn, FuzzMatrix *A)
{
  PetscInt kind  = FuzzInt(r, 0, 3);
  double   dens  = 0.6 * FuzzUnit(r);
  double   rsum[FUZZ_MAXN] = {0};
  PetscInt diag[FUZZ_MAXN];

  PetscFunctionBegin;
  PetscCall(PetscMemzero(A, sizeof(*A)));
  maxn = PetscMax(1, PetscMin(maxn, FUZZ_MAXN));
  A->n = FuzzChance(r, 0.03) ? 0 : FuzzInt(r, 1, maxn);
  A->m = A->n;
  if (FuzzChance(r, 0.06)) {
    PetscInt d = FuzzInt(r, -2, 2); /* not inside PetscMin/PetscMax: they evaluate their arguments twice */
    A->m       = PetscMax(0, PetscMin(maxn, A->n + d));
  }
  A->symmetric = (PetscBool)((kind == 1 || kind == 3) && A->m == A->n);
  for (PetscInt i = 0; i < A->m; i++) {
    diag[i] = -1;
    for (PetscInt j = 0; j < A->n; j++) {
      PetscBool on = (PetscBool)(i == j || (kind == 3 ? PetscAbsInt(i - j) == 1 : FuzzUnit(r) < dens));
      double    v;

      if (!on || (A->symmetric && j > i)) continue;
      v = kind == 3 ? -1.0 : 2.0 * FuzzUnit(r) - 1.0;
      if (i == j) {
        diag[i] = A->nz;
        v       = kind == 2 ? v : 0.0;
      }
      FuzzAdd(A, i, j, v);
      if (i != j) rsum[i] += PetscAbsReal(v);
      if (A->symmetric && i != j) {
        FuzzAdd(A, j, i, v);
        rsum[j] += PetscAbsReal(v);
      }
    }
  }
  /* dominant kinds: the diagonal beats the row */
  for (PetscInt i = 0; i < A->m; i++)
    if (diag[i] >= 0 && kind != 2) A->v[diag[i]] = (kind == 3 ? 2.0 : rsum[i] + 0.5 + FuzzUnit(r));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- spoilings of the matrix itself (both file kinds) ---------------------------------------------- */
static void FuzzRemove(FuzzMatrix *A, PetscInt k)
{
  A->nz--;
  A->i[k] = A->i[A->nz];
  A->j[k] = A->j[A->nz];
  A->v[k] = A->v[A->nz];
}

/* duplicates, an empty row, a missing diagonal, an all-zero row: the file stays loadable */
static void FuzzSpoilStructure(FuzzRng *r, FuzzMatrix *A, char *what, size_t len)
{
  PetscInt s = FuzzInt(r, 0, 3), row = A->m ? FuzzInt(r, 0, A->m - 1) : 0;

  if (!A->nz) return;
  switch (s) {
  case 0: { /* duplicate entries (summed by the loaders) */
    PetscInt nd = FuzzInt(r, 1, 4);
    for (PetscInt d = 0; d < nd; d++) {
      PetscInt k = FuzzInt(r, 0, A->nz - 1);
      FuzzAdd(A, A->i[k], A->j[k], 2.0 * FuzzUnit(r) - 1.0);
    }
    A->symmetric = PETSC_FALSE;
    strncat(what, " +duplicates", len);
  } break;
  case 1: /* empty row */
    for (PetscInt k = A->nz - 1; k >= 0; k--)
      if (A->i[k] == row) FuzzRemove(A, k);
    A->symmetric = PETSC_FALSE;
    strncat(what, " +empty-row", len);
    break;
  case 2: /* missing diagonal entry */
    for (PetscInt k = A->nz - 1; k >= 0; k--)
      if (A->i[k] == row && A->j[k] == row) FuzzRemove(A, k);
    strncat(what, " +missing-diagonal", len);
    break;
  default: /* all-zero row (explicit zeros) */
    for (PetscInt k = 0; k < A->nz; k++)
      if (A->i[k] == row) A->v[k] = 0.0;
    A->symmetric = PETSC_FALSE;
    strncat(what, " +zero-row", len);
  }
}

/* ---- Matrix Market ----------------------------------------------------------------------------------- */
#define FUZZ_TEXT_MAX 65536
typedef struct {
  char   b[FUZZ_TEXT_MAX];
  size_t len;
} FuzzText;

static void FuzzPut(FuzzText *t, const char *fmt, ...) PETSC_ATTRIBUTE_FORMAT(2, 3);
static void FuzzPut(FuzzText *t, const char *fmt, ...)
{
  va_list ap;
  int     w;

  if (t->len >= FUZZ_TEXT_MAX - 1) return;
  va_start(ap, fmt);
  w = vsnprintf(t->b + t->len, FUZZ_TEXT_MAX - t->len, fmt, ap);
  va_end(ap);
  if (w > 0) t->len = PetscMin(t->len + (size_t)w, FUZZ_TEXT_MAX - 1);
}

static const char *FuzzBadIndex(FuzzRng *r, PetscInt size)
{
  static char       buf[64];
  static const char *fixed[] = {"0", "-1", "-2147483648", "2147483648", "99999999999999999999", "1.5", "x", "", "+3", "0x10", "1e3"};
  PetscInt           k       = FuzzInt(r, 0, 12);

  if (k < 11) return fixed[k];
  snprintf(buf, sizeof(buf), "%" PetscInt_FMT, size + FuzzInt(r, 1, 3)); /* just beyond the size */
  return buf;
}

static const char *FuzzBadValue(FuzzRng *r)
{
  static const char *v[] = {"nan", "inf", "-inf", "NaN", "1e999", "-1e999", "garbage", "", "1e-320", "0x1p3", "1.0.0", "--1", "1,5", "infinity"};
  return v[FuzzInt(r, 0, (PetscInt)(sizeof(v) / sizeof(v[0])) - 1)];
}

/* the text of A: banner, size line, entries; with the text-level spoilings */
static PetscErrorCode FuzzWriteMM(FuzzRng *r, FuzzMatrix *A, PetscInt spoil, FILE *fp, char *what, size_t wl, PetscBool *valid)
{
  static FuzzText t;
  char            rs[FUZZ_MAXNZ][48], cs[FUZZ_MAXNZ][48], vs[FUZZ_MAXNZ][48];
  char            banner[128] = "%%MatrixMarket matrix coordinate real general";
  char            sizeline[128];
  PetscInt        nz = A->nz, nzdecl = A->nz, symfile = 0, eol = 0, bad = FuzzInt(r, 0, PetscMax(0, A->nz - 1));

  PetscFunctionBegin;
  t.len = 0;
  /* the symmetric kinds store one triangle (valid when the values are symmetric) */
  if (spoil == 14 && A->symmetric) {
    symfile = 1;
    PetscCall(PetscStrncpy(banner, FuzzChance(r, 0.5) ? "%%MatrixMarket matrix coordinate real symmetric" : "%%MatrixMarket MATRIX Coordinate Real Symmetric", sizeof(banner)));
    strncat(what, " +symmetric-file", wl);
  }
  nz = 0;
  for (PetscInt k = 0; k < A->nz; k++) {
    if (symfile && A->j[k] > A->i[k]) continue;
    snprintf(rs[nz], 48, "%" PetscInt_FMT, A->i[k] + 1);
    snprintf(cs[nz], 48, "%" PetscInt_FMT, A->j[k] + 1);
    snprintf(vs[nz], 48, "%.17g", A->v[k]);
    nz++;
  }
  nzdecl = nz;
  bad    = nz ? PetscMin(bad, nz - 1) : 0;
  snprintf(sizeline, sizeof(sizeline), "%" PetscInt_FMT " %" PetscInt_FMT " %" PetscInt_FMT, A->m, A->n, nzdecl);
  switch (spoil) {
  case 2: { /* the size line lies */
    static const char *lies[] = {"%lld %lld %lld", "%lld %lld", "%lld %lld %lld 7", "-3 %lld %lld", "%lld -1 %lld", "2147483648 %lld %lld", "%lld %lld 99999999999", "%lld %lld -5", "100000 100000 %lld", "x y z"};
    PetscInt           k      = FuzzInt(r, 0, 9);
    long long          m = A->m, n = A->n, z = nzdecl;
    if (k == 0) {
      PetscInt which = FuzzInt(r, 0, 2), d = FuzzChance(r, 0.5) ? 1 : -1;
      if (which == 0) m += d;
      else if (which == 1) n += d;
      else z += d;
      snprintf(sizeline, sizeof(sizeline), lies[0], m, n, z);
    } else if (k == 1 || k == 2) snprintf(sizeline, sizeof(sizeline), lies[k], m, n, z);
    else if (k == 3 || k == 5) snprintf(sizeline, sizeof(sizeline), lies[k], n, z);
    else if (k == 4 || k == 6 || k == 7) snprintf(sizeline, sizeof(sizeline), lies[k], m, k == 4 ? z : n);
    else if (k == 8) snprintf(sizeline, sizeof(sizeline), lies[k], z);
    else snprintf(sizeline, sizeof(sizeline), "%s", lies[k]);
    *valid = (PetscBool)(k == 8 && nz == 0); /* 100000 x 100000 with the same entries still loads */
    if (k == 0 && m == A->m + 1) *valid = PETSC_TRUE; /* one row more: an empty row */
    if (k == 0 && n == A->n + 1) *valid = PETSC_TRUE; /* one column more: non-square */
    if (k == 8) *valid = PETSC_TRUE;
    strncat(what, " +size-line-lies", wl);
  } break;
  case 3: /* an index 0, negative, huge or beyond the size */
    if (nz) {
      if (FuzzChance(r, 0.5)) snprintf(rs[bad], 48, "%s", FuzzBadIndex(r, A->m));
      else snprintf(cs[bad], 48, "%s", FuzzBadIndex(r, A->n));
      *valid = PETSC_FALSE;
      strncat(what, " +bad-index", wl);
    }
    break;
  case 4: /* a NaN/Inf/garbage value */
    if (nz) {
      const char *v = FuzzBadValue(r);
      snprintf(vs[bad], 48, "%s", v);
      *valid = (PetscBool)(!strcmp(v, "nan") || !strcmp(v, "inf") || !strcmp(v, "-inf") || !strcmp(v, "NaN") || !strcmp(v, "1e999") || !strcmp(v, "-1e999") || !strcmp(v, "1e-320") || !strcmp(v, "0x1p3") || !strcmp(v, "infinity"));
      strncat(what, " +bad-value(", wl);
      strncat(what, v, wl);
      strncat(what, ")", wl);
    }
    break;
  case 5: { /* another banner */
    static const char *b[] = {"%%MatrixMarket matrix coordinate pattern general", "%%MatrixMarket matrix coordinate integer general", "%%MatrixMarket matrix array real general", "%%MatrixMarket matrix coordinate complex general", "%%MatrixMarket tensor coordinate real general", "%%MatrixMarket matrix coordinate real hermitian", "%%MatrixMarket matrix coordinate real skew-symmetric", "%MatrixMarket matrix coordinate real general", "", "%%MatrixMarket matrix coordinate real"};
    PetscInt           k   = FuzzInt(r, 0, 9);
    PetscCall(PetscStrncpy(banner, b[k], sizeof(banner)));
    *valid = PETSC_FALSE;
    if (k == 0) { /* pattern: the values are dropped */
      for (PetscInt e = 0; e < nz; e++) vs[e][0] = 0;
      *valid = PETSC_TRUE;
    }
    strncat(what, " +banner", wl);
  } break;
  case 6: /* a long comment line, and an entry line beyond the loader's line buffer */
    strncat(what, " +long-line", wl);
    break;
  case 7: /* more entries than declared */
    if (nz) {
      nzdecl = nz - 1;
      snprintf(sizeline, sizeof(sizeline), "%" PetscInt_FMT " %" PetscInt_FMT " %" PetscInt_FMT, A->m, A->n, nzdecl);
      *valid = PETSC_FALSE;
      strncat(what, " +extra-entries", wl);
    }
    break;
  case 8: /* CRLF line ends, tabs, blank lines and comments between the entries */
    eol = 1;
    strncat(what, " +crlf-blank-comments", wl);
    break;
  default:
    break;
  }
  FuzzPut(&t, "%s%s", banner, eol ? "\r\n" : "\n");
  FuzzPut(&t, "%% generated by tests/fuzz/fuzz_input\n");
  if (spoil == 6) {
    FuzzPut(&t, "%%");
    for (int c = 0; c < 3000; c++) FuzzPut(&t, "c");
    FuzzPut(&t, "\n");
  }
  FuzzPut(&t, "%s%s", sizeline, eol ? "\r\n" : "\n");
  for (PetscInt e = 0; e < nz; e++) {
    if (eol && FuzzChance(r, 0.2)) FuzzPut(&t, "%s", FuzzChance(r, 0.5) ? "\r\n" : "% a comment\r\n");
    if (spoil == 6 && e == bad && FuzzChance(r, 0.5)) {
      for (int c = 0; c < 1500; c++) FuzzPut(&t, " ");
      *valid = PETSC_FALSE;
    }
    FuzzPut(&t, "%s%s%s%s%s%s", rs[e], eol ? "\t" : " ", cs[e], vs[e][0] ? " " : "", vs[e], eol ? "\r\n" : "\n");
  }
  /* spoilings of the bytes: a cut at a random byte, or random bytes overwritten */
  if (spoil == 1) {
    size_t cut = (size_t)FuzzInt(r, 0, (PetscInt)(t.len ? t.len - 1 : 0));
    t.len      = cut;
    *valid     = PETSC_FALSE;
    strncat(what, " +truncated", wl);
  } else if (spoil == 9 && t.len) {
    PetscInt nflip = FuzzInt(r, 1, 4);
    for (PetscInt f = 0; f < nflip; f++) {
      static const char chars[] = "0123456789 -+.eE\n%xX\t\r\0\xff";
      t.b[FuzzInt(r, 0, (PetscInt)t.len - 1)] = chars[FuzzInt(r, 0, (PetscInt)sizeof(chars) - 2)];
    }
    *valid = PETSC_FALSE;
    strncat(what, " +bytes-flipped", wl);
  }
  PetscCheck(fwrite(t.b, 1, t.len, fp) == t.len, PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "Cannot write the fuzz input");
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- PETSc binary ----------------------------------------------------------------------------------- */
static void FuzzPutInt32BE(unsigned char *p, int32_t v)
{
  uint32_t u = (uint32_t)v;
  p[0]       = (unsigned char)(u >> 24);
  p[1]       = (unsigned char)(u >> 16);
  p[2]       = (unsigned char)(u >> 8);
  p[3]       = (unsigned char)u;
}

static PetscErrorCode FuzzWriteBinary(FuzzRng *r, FuzzMatrix *A, PetscInt spoil, const char *path, char *what, size_t wl, PetscBool *valid)
{
  Mat            B;
  PetscViewer    v;
  FILE          *fp;
  unsigned char *buf;
  long           len;
  const long     rowlen = 16, colidx = 16 + 4L * A->m;

  PetscFunctionBegin;
  PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, A->m, A->n, 0, NULL, &B));
  PetscCall(MatSetOption(B, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_FALSE));
  for (PetscInt k = 0; k < A->nz; k++) PetscCall(MatSetValue(B, A->i[k], A->j[k], A->v[k], ADD_VALUES));
  PetscCall(MatAssemblyBegin(B, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(B, MAT_FINAL_ASSEMBLY));
  PetscCall(PetscViewerCreate(PETSC_COMM_SELF, &v));
  PetscCall(PetscViewerSetType(v, PETSCVIEWERBINARY));
  PetscCall(PetscViewerFileSetMode(v, FILE_MODE_WRITE));
  PetscCall(PetscViewerBinarySetSkipInfo(v, PETSC_TRUE));
  PetscCall(PetscViewerFileSetName(v, path));
  PetscCall(MatView(B, v));
  PetscCall(PetscViewerDestroy(&v));
  PetscCall(MatDestroy(&B));
  if (spoil == 0) PetscFunctionReturn(PETSC_SUCCESS);

  /* the bytes: header (classid, M, N, nz), row lengths, column indices, values; all big-endian */
  fp = fopen(path, "rb");
  PetscCheck(fp, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "Cannot reopen %s", path);
  fseek(fp, 0, SEEK_END);
  len = ftell(fp);
  fseek(fp, 0, SEEK_SET);
  PetscCall(PetscMalloc1(len + 64, &buf));
  PetscCheck((long)fread(buf, 1, (size_t)len, fp) == len, PETSC_COMM_SELF, PETSC_ERR_FILE_READ, "Cannot read back %s", path);
  fclose(fp);
  *valid = PETSC_FALSE;
  switch (spoil % 6) {
  case 0: /* truncated */
    len = FuzzInt(r, 0, PetscMax(0, (PetscInt)len - 1));
    strncat(what, " +truncated", wl);
    break;
  case 1: { /* header field */
    static const int32_t bad[] = {-1, 0, 1, 2147483647, -2147483647, 1211216, 1211214, 13};
    PetscInt             f     = FuzzInt(r, 0, 3);
    int32_t              val   = FuzzChance(r, 0.3) ? (int32_t)FuzzInt(r, 0, 40) : bad[FuzzInt(r, 0, 7)];
    FuzzPutInt32BE(buf + 4 * f, val);
    strncat(what, f == 0 ? " +classid" : f == 1 ? " +rows" : f == 2 ? " +columns" : " +nonzeros", wl);
  } break;
  case 2: /* a row length */
    if (A->m) FuzzPutInt32BE(buf + rowlen + 4 * FuzzInt(r, 0, A->m - 1), FuzzChance(r, 0.5) ? -1 : (int32_t)FuzzInt(r, 0, 20));
    strncat(what, " +row-length", wl);
    break;
  case 3: /* a column index */
    if (len > colidx + 4) {
      long    nzf = (len - colidx) / 12;
      int32_t val = FuzzChance(r, 0.5) ? (FuzzChance(r, 0.5) ? -1 : 2147483647) : (int32_t)(A->n + FuzzInt(r, 0, 2));
      if (nzf > 0) FuzzPutInt32BE(buf + colidx + 4 * FuzzInt(r, 0, (PetscInt)nzf - 1), val);
    }
    strncat(what, " +column-index", wl);
    break;
  case 4: { /* a value: NaN or Inf (the file stays loadable) */
    long nzf = (len - colidx) / 12;
    if (nzf > 0) {
      unsigned char *p = buf + colidx + 4 * nzf + 8 * FuzzInt(r, 0, (PetscInt)nzf - 1);
      p[0] = FuzzChance(r, 0.5) ? 0x7f : 0xff;
      p[1] = FuzzChance(r, 0.5) ? 0xf8 : 0xf0;
      for (int b = 2; b < 8; b++) p[b] = 0;
    }
    *valid = PETSC_TRUE;
    strncat(what, " +nan-or-inf", wl);
  } break;
  default: /* random bytes */
    for (PetscInt f = FuzzInt(r, 1, 3); f > 0 && len; f--) buf[FuzzInt(r, 0, (PetscInt)len - 1)] = (unsigned char)FuzzInt(r, 0, 255);
    strncat(what, " +bytes-flipped", wl);
  }
  fp = fopen(path, "wb");
  PetscCheck(fp, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "Cannot rewrite %s", path);
  PetscCheck(fwrite(buf, 1, (size_t)len, fp) == (size_t)len, PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "Cannot rewrite %s", path);
  fclose(fp);
  PetscCall(PetscFree(buf));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  FuzzWriteInput - the input file of one case, in dir: a Matrix Market file (70%) or a PETSc binary file
*/
PetscErrorCode FuzzWriteInput(FuzzRng *r, const char *dir, PetscInt maxn, FuzzInput *in)
{
  FuzzMatrix *A;
  PetscInt    spoil;

  PetscFunctionBegin;
  PetscCall(PetscNew(&A));
  PetscCall(FuzzMatrixGenerate(r, maxn, A));
  in->binary = FuzzChance(r, 0.3);
  in->valid  = PETSC_TRUE;
  snprintf(in->what, sizeof(in->what), "%s %" PetscInt_FMT "x%" PetscInt_FMT " nz %" PetscInt_FMT "%s", in->binary ? "binary" : "mtx", A->m, A->n, A->nz, A->symmetric ? " symmetric" : "");
  if (FuzzChance(r, 0.25)) FuzzSpoilStructure(r, A, in->what, sizeof(in->what) - strlen(in->what) - 1);
  snprintf(in->path, sizeof(in->path), "%s/case.%s", dir, in->binary ? "bin" : "mtx");
  if (in->binary) {
    spoil = FuzzChance(r, 0.4) ? 0 : FuzzInt(r, 1, 6);
    PetscCall(FuzzWriteBinary(r, A, spoil, in->path, in->what, sizeof(in->what) - strlen(in->what) - 1, &in->valid));
  } else {
    FILE *fp = fopen(in->path, "wb");

    PetscCheck(fp, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "Cannot write %s", in->path);
    spoil = FuzzChance(r, 0.35) ? 0 : FuzzInt(r, 1, 14);
    if (spoil > 9 && spoil < 14) spoil = 0; /* valid more often */
    PetscCall(FuzzWriteMM(r, A, spoil, fp, in->what, sizeof(in->what) - strlen(in->what) - 1, &in->valid));
    fclose(fp);
  }
  in->symmetric = A->symmetric;
  PetscCall(PetscFree(A));
  PetscFunctionReturn(PETSC_SUCCESS);
}
