/*
   Matrix Market reader: coordinate format, real/integer/pattern, general/symmetric/skew-symmetric.
   Files are read through zlib, which reads gzip-compressed and plain files alike.
   The entries are collected as triplets (mirrored for the symmetric kinds), sorted into CSR by a
   counting sort on rows and a sort of each row on columns, duplicates summed, then handed to
   MatSeqAIJSetPreallocationCSR(), which allocates exactly what the pattern needs.
*/
#include "mmload.h"
#include <petscversion.h>
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#if PETSC_VERSION_LT(3, 19, 0)
  #define PETSC_SUCCESS 0
#endif
#if !defined(PETSC_INT_MAX) /* PETSc < 3.22 */
  #define PETSC_INT_MAX PETSC_MAX_INT
#endif

#define MM_LINE_MAX 1024

typedef struct {
  gzFile      f;
  const char *path;
  PetscInt64  lineno;
  char        line[MM_LINE_MAX];
} MMReader;

/* read the next line into r->line (newline stripped); *eof at the end of the file. Lines longer than
   the buffer are only allowed for comments: the rest is skipped and *toolong is set. */
static PetscErrorCode MMReadLine(MMReader *r, PetscBool *eof, PetscBool *toolong)
{
  size_t len;

  PetscFunctionBegin;
  *eof     = PETSC_FALSE;
  *toolong = PETSC_FALSE;
  if (!gzgets(r->f, r->line, MM_LINE_MAX)) {
    int         errnum;
    const char *msg = gzerror(r->f, &errnum);

    PetscCheck(errnum == Z_OK || errnum == Z_BUF_ERROR, PETSC_COMM_SELF, PETSC_ERR_FILE_READ, "Error reading %s after line %" PetscInt64_FMT ": %s", r->path, r->lineno, msg);
    *eof = PETSC_TRUE;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  r->lineno++;
  len = strlen(r->line);
  if (len && r->line[len - 1] == '\n') r->line[--len] = 0;
  else if (len == MM_LINE_MAX - 1) {
    /* no newline in the buffer: skip the rest of the line */
    char rest[MM_LINE_MAX];

    *toolong = PETSC_TRUE;
    while (gzgets(r->f, rest, MM_LINE_MAX)) {
      size_t l = strlen(rest);
      if (l && rest[l - 1] == '\n') break;
    }
  }
  if (len && r->line[len - 1] == '\r') r->line[--len] = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscBool MMBlank(const char *s)
{
  while (*s && isspace((unsigned char)*s)) s++;
  return (PetscBool)(*s == 0);
}

/* parse a 64-bit integer token starting at *s; advances *s */
static PetscBool MMParseInt(char **s, long long *v)
{
  char *end;

  errno = 0;
  *v    = strtoll(*s, &end, 10);
  if (end == *s || errno) return PETSC_FALSE;
  if (*end && !isspace((unsigned char)*end)) return PETSC_FALSE;
  *s = end;
  return PETSC_TRUE;
}

static PetscBool MMParseReal(char **s, double *v)
{
  char *end;

  *v = strtod(*s, &end);
  if (end == *s) return PETSC_FALSE;
  if (*end && !isspace((unsigned char)*end)) return PETSC_FALSE;
  *s = end;
  return PETSC_TRUE;
}

typedef enum {
  MM_REAL,
  MM_INTEGER,
  MM_PATTERN
} MMField;
typedef enum {
  MM_GENERAL,
  MM_SYMMETRIC,
  MM_SKEW
} MMSymmetry;

/* the banner: %%MatrixMarket matrix coordinate <field> <symmetry> (case-insensitive) */
static PetscErrorCode MMParseBanner(MMReader *r, MMField *field, MMSymmetry *sym)
{
  char      obj[64] = "", fmt[64] = "", fld[64] = "", sy[64] = "", banner[64] = "";
  PetscBool eof, toolong;
  int       nread;

  PetscFunctionBegin;
  PetscCall(MMReadLine(r, &eof, &toolong));
  PetscCheck(!eof, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s is empty: not a Matrix Market file", r->path);
  nread = sscanf(r->line, "%63s %63s %63s %63s %63s", banner, obj, fmt, fld, sy);
  PetscCheck(nread == 5 && !strcmp(banner, "%%MatrixMarket"), PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s: the first line must be '%%%%MatrixMarket matrix coordinate <field> <symmetry>'", r->path);
  for (char *c = obj; *c; c++) *c = (char)tolower((unsigned char)*c);
  for (char *c = fmt; *c; c++) *c = (char)tolower((unsigned char)*c);
  for (char *c = fld; *c; c++) *c = (char)tolower((unsigned char)*c);
  for (char *c = sy; *c; c++) *c = (char)tolower((unsigned char)*c);
  PetscCheck(!strcmp(obj, "matrix"), PETSC_COMM_SELF, PETSC_ERR_SUP, "%s holds a Matrix Market '%s', not a matrix", r->path, obj);
  PetscCheck(!strcmp(fmt, "coordinate"), PETSC_COMM_SELF, PETSC_ERR_SUP, "%s is in Matrix Market '%s' format: only 'coordinate' (sparse) is supported", r->path, fmt);
  if (!strcmp(fld, "real") || !strcmp(fld, "double")) *field = MM_REAL;
  else if (!strcmp(fld, "integer")) *field = MM_INTEGER;
  else if (!strcmp(fld, "pattern")) *field = MM_PATTERN;
  else SETERRQ(PETSC_COMM_SELF, PETSC_ERR_SUP, "%s has field '%s': only real, integer and pattern are supported", r->path, fld);
  if (!strcmp(sy, "general")) *sym = MM_GENERAL;
  else if (!strcmp(sy, "symmetric")) *sym = MM_SYMMETRIC;
  else if (!strcmp(sy, "skew-symmetric")) *sym = MM_SKEW;
  else SETERRQ(PETSC_COMM_SELF, PETSC_ERR_SUP, "%s has symmetry '%s': only general, symmetric and skew-symmetric are supported", r->path, sy);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the triplets of the file (0-based), mirrored for the symmetric kinds */
typedef struct {
  PetscInt     m, n;
  PetscInt64   nt;
  PetscInt    *ti, *tj;
  PetscScalar *tv;
} MMTriplets;

static PetscErrorCode MMReadEntries(MMReader *r, MMTriplets *t)
{
  MMField    field = MM_REAL;
  MMSymmetry sym   = MM_GENERAL;
  PetscBool  eof, toolong;
  long long  m, n, nz;
  PetscInt64 cap, k = 0;
  char      *s;

  PetscFunctionBegin;
  PetscCall(MMParseBanner(r, &field, &sym));
  /* comments, then the size line */
  do {
    PetscCall(MMReadLine(r, &eof, &toolong));
    PetscCheck(!eof, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s: end of file before the size line", r->path);
  } while (r->line[0] == '%' || MMBlank(r->line));
  PetscCheck(!toolong, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s line %" PetscInt64_FMT ": size line too long", r->path, r->lineno);
  s = r->line;
  PetscCheck(MMParseInt(&s, &m) && MMParseInt(&s, &n) && MMParseInt(&s, &nz) && MMBlank(s), PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s line %" PetscInt64_FMT ": expected 'rows columns entries', got '%s'", r->path, r->lineno, r->line);
  PetscCheck(m >= 0 && n >= 0 && nz >= 0, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s line %" PetscInt64_FMT ": negative size", r->path, r->lineno);
  PetscCheck(m <= PETSC_INT_MAX && n <= PETSC_INT_MAX, PETSC_COMM_SELF, PETSC_ERR_INT_OVERFLOW, "%s: %lld x %lld is too large for PetscInt", r->path, m, n);
  PetscCheck(sym == MM_GENERAL || m == n, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s: a symmetric or skew-symmetric matrix must be square, got %lld x %lld", r->path, m, n);
  /* nz may exceed m * n: duplicate entries are summed */
  cap = sym == MM_GENERAL ? nz : 2 * nz;
  PetscCheck(cap <= PETSC_INT_MAX, PETSC_COMM_SELF, PETSC_ERR_INT_OVERFLOW, "%s: %lld entries are too many for PetscInt", r->path, nz);
  t->m = (PetscInt)m;
  t->n = (PetscInt)n;
  PetscCall(PetscMalloc3(cap + 1, &t->ti, cap + 1, &t->tj, cap + 1, &t->tv));

  for (long long e = 0; e < nz;) {
    long long i, j;
    double    v = 1.0;

    PetscCall(MMReadLine(r, &eof, &toolong));
    PetscCheck(!eof, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s: end of file after %lld of the %lld entries", r->path, e, nz);
    if (MMBlank(r->line) || r->line[0] == '%') continue;
    PetscCheck(!toolong, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s line %" PetscInt64_FMT ": entry line too long", r->path, r->lineno);
    s = r->line;
    PetscCheck(MMParseInt(&s, &i) && MMParseInt(&s, &j), PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s line %" PetscInt64_FMT ": expected 'row column%s', got '%s'", r->path, r->lineno, field == MM_PATTERN ? "" : " value", r->line);
    if (field != MM_PATTERN) PetscCheck(MMParseReal(&s, &v), PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s line %" PetscInt64_FMT ": missing or bad value in '%s'", r->path, r->lineno, r->line);
    PetscCheck(MMBlank(s), PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s line %" PetscInt64_FMT ": unexpected text after the entry: '%s'", r->path, r->lineno, r->line);
    PetscCheck(i >= 1 && i <= m && j >= 1 && j <= n, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s line %" PetscInt64_FMT ": entry (%lld, %lld) outside the %lld x %lld matrix", r->path, r->lineno, i, j, m, n);
    PetscCheck(sym != MM_SKEW || i != j, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s line %" PetscInt64_FMT ": a skew-symmetric matrix cannot store a diagonal entry", r->path, r->lineno);
    t->ti[k] = (PetscInt)(i - 1);
    t->tj[k] = (PetscInt)(j - 1);
    t->tv[k] = (PetscScalar)v;
    k++;
    if (sym != MM_GENERAL && i != j) { /* the mirrored entry */
      t->ti[k] = (PetscInt)(j - 1);
      t->tj[k] = (PetscInt)(i - 1);
      t->tv[k] = sym == MM_SKEW ? -(PetscScalar)v : (PetscScalar)v;
      k++;
    }
    e++;
  }
  /* anything else must be blank or a comment */
  while (PETSC_TRUE) {
    PetscCall(MMReadLine(r, &eof, &toolong));
    if (eof) break;
    PetscCheck(MMBlank(r->line) || r->line[0] == '%', PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s line %" PetscInt64_FMT ": more entries than the %lld declared", r->path, r->lineno, nz);
  }
  t->nt = k;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* CSR from the triplets: counting sort on rows, sort each row on columns, sum duplicates */
static PetscErrorCode MMTripletsToCSR(const MMTriplets *t, PetscInt **ia, PetscInt **ja, PetscScalar **va)
{
  PetscInt    *ci, *cj, *pos, m = t->m;
  PetscScalar *cv;

  PetscFunctionBegin;
  PetscCall(PetscCalloc1(m + 1, &ci));
  PetscCall(PetscMalloc2(t->nt + 1, &cj, t->nt + 1, &cv));
  PetscCall(PetscMalloc1(m + 1, &pos));
  for (PetscInt64 k = 0; k < t->nt; k++) ci[t->ti[k] + 1]++;
  for (PetscInt i = 0; i < m; i++) ci[i + 1] += ci[i];
  for (PetscInt i = 0; i < m; i++) pos[i] = ci[i];
  for (PetscInt64 k = 0; k < t->nt; k++) {
    PetscInt q = pos[t->ti[k]]++;
    cj[q]      = t->tj[k];
    cv[q]      = t->tv[k];
  }
  /* sort each row, then compact it in place, summing entries with the same column */
  {
    PetscInt out = 0;

    for (PetscInt i = 0; i < m; i++) {
      PetscInt start = ci[i], end = ci[i + 1];

      PetscCall(PetscSortIntWithScalarArray(end - start, cj + start, cv + start));
      ci[i] = out;
      for (PetscInt q = start; q < end; q++) {
        if (out > ci[i] && cj[out - 1] == cj[q]) cv[out - 1] += cv[q];
        else {
          cj[out] = cj[q];
          cv[out] = cv[q];
          out++;
        }
      }
    }
    ci[m] = out;
  }
  PetscCall(PetscFree(pos));
  *ia = ci;
  *ja = cj;
  *va = cv;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SpTrsvLoadMatrixMarket(const char *path, Mat *A)
{
  MMReader       r  = {0};
  MMTriplets     t  = {0};
  PetscInt      *ia = NULL, *ja = NULL;
  PetscScalar   *va = NULL;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  PetscCheck(path && path[0], PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "No Matrix Market file name given");
  r.path = path;
  r.f    = gzopen(path, "rb");
  PetscCheck(r.f, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "Cannot open Matrix Market file %s: %s", path, errno ? strerror(errno) : "out of memory");
  ierr = MMReadEntries(&r, &t);
  gzclose(r.f);
  if (ierr) PetscCall(PetscFree3(t.ti, t.tj, t.tv));
  PetscCall(ierr);

  PetscCall(MMTripletsToCSR(&t, &ia, &ja, &va));
  PetscCall(PetscFree3(t.ti, t.tj, t.tv));
  PetscCall(MatCreate(PETSC_COMM_SELF, A));
  PetscCall(MatSetSizes(*A, t.m, t.n, t.m, t.n));
  PetscCall(MatSetType(*A, MATSEQAIJ));
  PetscCall(MatSeqAIJSetPreallocationCSR(*A, ia, ja, va));
  PetscCall(PetscFree(ia));
  PetscCall(PetscFree2(ja, va));
  PetscFunctionReturn(PETSC_SUCCESS);
}
