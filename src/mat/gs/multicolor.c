/*
   Multicolor Gauss-Seidel: the colour-ordered storage of a sequential AIJ matrix (or of its transpose) and the
   host executor of its sweeps, the reference of the CUDA one (src/cuda/gs_multicolor.cu). See
   include/sptrsv/multicolor.h. Pattern work happens once per nonzero pattern (SpTrsvMCCreate()); a new set
   of values is a gather through vmap/dmap (SpTrsvMCSetValues(), or SpTrsvMCSetValuesDevice() on the GPU). The GPU
   side is reached through the device-ops table (include/sptrsv/deviceops.h).
*/
#include <sptrsv/multicolor.h>
#include <sptrsv/coloring.h>
#include <sptrsv/deviceops.h>

/* the off-diagonal entries by position: rows of A (transpose = false) or of A^T (its columns) */
static PetscErrorCode SpTrsvMCBuild(SpTrsvMC mc, const PetscInt *ia, const PetscInt *ja)
{
  const PetscInt n = mc->n;
  PetscInt      *cnt, *next;

  PetscFunctionBegin;
  PetscCall(PetscCalloc2(n + 1, &cnt, n + 1, &next));
  PetscCall(PetscMalloc2(n + 1, &mc->ptr, n + 1, &mc->dmap));
  for (PetscInt k = 0; k < n; k++) mc->dmap[k] = -1;
  mc->nnz = 0;
  for (PetscInt r = 0; r < n; r++)
    for (PetscInt p = ia[r]; p < ia[r + 1]; p++) {
      const PetscInt c = ja[p];
      PetscCheck(c >= 0 && c < n, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Row %" PetscInt_FMT " has column %" PetscInt_FMT " outside [0, %" PetscInt_FMT ")", r, c, n);
      if (c == r) mc->dmap[mc->ipos[r]] = p;
      else {
        cnt[mc->ipos[mc->transpose ? c : r]]++;
        mc->nnz++;
      }
    }
  for (PetscInt k = 0; k < n; k++)
    if (mc->dmap[k] < 0) { /* the caller destroys mc; the work arrays go here */
      PetscCall(PetscFree2(cnt, next));
      SETERRQ(PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "Gauss-Seidel: row %" PetscInt_FMT " has no diagonal entry", mc->perm[k]);
    }
  mc->ptr[0] = 0;
  for (PetscInt k = 0; k < n; k++) mc->ptr[k + 1] = mc->ptr[k] + cnt[k];
  PetscCall(PetscMalloc2(mc->nnz + 1, &mc->idx, mc->nnz + 1, &mc->vmap));
  PetscCall(PetscArraycpy(next, mc->ptr, n));
  /* rows ascending: the entries of each position come out with ascending columns in both orientations */
  for (PetscInt r = 0; r < n; r++)
    for (PetscInt p = ia[r]; p < ia[r + 1]; p++) {
      const PetscInt c = ja[p];
      if (c == r) continue;
      {
        const PetscInt q = next[mc->ipos[mc->transpose ? c : r]]++;
        mc->idx[q]       = mc->transpose ? r : c;
        mc->vmap[q]      = p;
      }
    }
  PetscCall(PetscFree2(cnt, next));
  PetscCall(PetscMalloc2(mc->nnz + 1, &mc->val, n + 1, &mc->idiag));
  PetscCall(PetscArrayzero(mc->val, mc->nnz + 1));
  PetscCall(PetscArrayzero(mc->idiag, n + 1));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the device copy of a host-built storage on the CUDA backend */
static PetscErrorCode SpTrsvMCCreateDevice(SpTrsvMC mc)
{
  const SpTrsvDeviceOps *dev;

  PetscFunctionBegin;
  if (mc->backend->memtype == PETSC_MEMTYPE_HOST) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(SpTrsvDeviceOpsGet(&dev, NULL, NULL));
  PetscCheck(dev->compiled, PETSC_COMM_SELF, PETSC_ERR_SUP, "Multicolor sweeps on backend %s need a CUDA build of the plugin", mc->backend->name);
  PetscCall((*dev->gs.mc_create)(mc, &mc->dev));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* an object without colouring or pattern yet */
static PetscErrorCode SpTrsvMCNew(PetscInt n, PetscReal omega, PetscReal shift, const SpTrsvBackendOps *backend, PetscBool use_graph, PetscBool transpose, SpTrsvMC *mcout)
{
  SpTrsvMC mc;

  PetscFunctionBegin;
  PetscCall(PetscNew(&mc));
  mc->n           = n;
  mc->omega       = omega;
  mc->shift       = shift;
  mc->backend     = backend;
  mc->use_graph   = use_graph;
  mc->transpose   = transpose;
  mc->grid_badrow = -1;
  *mcout          = mc;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the error of -pc_gs_coloring dmda when the rule does not colour the matrix */
static PetscErrorCode SpTrsvMCGridError(const SpTrsvColoringSpec *spec, const char option[], PetscInt badrow)
{
  PetscFunctionBegin;
  SETERRQ(PETSC_COMM_SELF, PETSC_ERR_ARG_INCOMP, "%s dmda: the DMDA's rule (%s stencil of width %" PetscInt_FMT ", %" PetscInt_FMT " components per node) gives local row %" PetscInt_FMT " the colour of a row it is coupled to (the matrix is not that stencil, e.g. a Galerkin coarse operator, or a periodic grid of odd size): use %s jp or auto", option, spec->grid.box ? "box" : "star", spec->grid.s, spec->grid.dof, badrow, option);
}

/* the colours on the host by spec (auto: dmda when the grid rule colours the matrix, else jp) */
static PetscErrorCode SpTrsvMCColorHost(SpTrsvMC mc, const SpTrsvColoringSpec *spec, const char option[], const PetscInt *ia, const PetscInt *ja, PetscInt *ncolors, PetscInt *color)
{
  SpTrsvColoringType type = spec->type;

  PetscFunctionBegin;
  if (spec->grid.dim > 0 && (type == SPTRSV_COLORING_DMDA || type == SPTRSV_COLORING_AUTO)) {
    PetscInt bad;

    PetscCall(SpTrsvColoringGridRule(&spec->grid, mc->n, ncolors, color));
    PetscCall(SpTrsvColoringCheck(mc->n, ia, ja, color, &bad));
    if (bad < 0) {
      mc->coloring = SPTRSV_COLORING_DMDA;
      PetscFunctionReturn(PETSC_SUCCESS);
    }
    if (type == SPTRSV_COLORING_DMDA) PetscCall(SpTrsvMCGridError(spec, option, bad));
    mc->grid_badrow = bad;
  }
  mc->coloring = type == SPTRSV_COLORING_NATURAL ? SPTRSV_COLORING_NATURAL : SPTRSV_COLORING_JP;
  if (mc->coloring == SPTRSV_COLORING_NATURAL) PetscCall(SpTrsvColoringGreedy(mc->n, ia, ja, NULL, ncolors, color));
  else PetscCall(SpTrsvColoringJP(mc->n, ia, ja, ncolors, color));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* CUDA backend: colour (natural on the host, jp and dmda on the GPU) and build the storage on the GPU */
static PetscErrorCode SpTrsvMCCreateOnDevice(SpTrsvMC mc, Mat A, const SpTrsvColoringSpec *spec, const char option[], const PetscInt *ia, const PetscInt *ja)
{
  const SpTrsvDeviceOps *dev;
  const int             *dia = NULL, *dja = NULL;
  PetscInt              *hcolor = NULL, nc = 0;

  PetscFunctionBegin;
  PetscCall(SpTrsvDeviceOpsGet(&dev, NULL, NULL));
  PetscCheck(dev->compiled, PETSC_COMM_SELF, PETSC_ERR_SUP, "Multicolor sweeps on backend %s need a CUDA build of the plugin", mc->backend->name);
  PetscCall((*dev->petsc->mat_get_ij)(A, &dia, &dja)); /* a MATSEQAIJCUSPARSE's device pattern, in place */
  if (spec->type == SPTRSV_COLORING_NATURAL) {
    PetscCall(PetscMalloc1(mc->n + 1, &hcolor));
    PetscCall(SpTrsvColoringGreedy(mc->n, ia, ja, NULL, &nc, hcolor));
  }
  PetscCall((*dev->gs.mc_color_and_create)(mc, dia, dja, ia, ja, spec, hcolor, nc, &mc->dev));
  if (dia) PetscCall((*dev->petsc->mat_restore_ij)(A, &dia, &dja));
  PetscCall(PetscFree(hcolor));
  if (!mc->dev) PetscCall(SpTrsvMCGridError(spec, option, mc->grid_badrow));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvMCCreate - colour the symmetrized graph of a sequential AIJ matrix (spec: include/sptrsv/coloring.h; option: the
  name of the colouring option, for messages) and store it in colour order for the backend: on the host, or on the GPU
  for the CUDA backend; values follow with SpTrsvMCSetValues() or SpTrsvMCSetValuesDevice()
*/
PetscErrorCode SpTrsvMCCreate(Mat A, PetscReal omega, PetscReal shift, const SpTrsvBackendOps *backend, PetscBool use_graph, const SpTrsvColoringSpec *spec, const char option[], SpTrsvMC *mcout)
{
  SpTrsvMC        mc;
  PetscInt        n, nr, *color;
  const PetscInt *ia, *ja;
  PetscBool       done;
  PetscErrorCode  ierr;

  PetscFunctionBegin;
  /* the grid, for both backends: given for dmda, and describing the matrix's rows */
  PetscCall(MatGetSize(A, &n, NULL));
  PetscCheck(spec->type != SPTRSV_COLORING_DMDA || spec->grid.dim > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "%s dmda needs a DMDA on the PC (KSPSetDM(), PCSetDM()) whose local rows are the matrix's", option);
  PetscCheck(spec->grid.dim <= 0 || (PetscInt64)spec->grid.xm * spec->grid.ym * spec->grid.zm * spec->grid.dof == (PetscInt64)n, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "The DMDA has %" PetscInt_FMT " local rows, the matrix %" PetscInt_FMT, spec->grid.xm * spec->grid.ym * spec->grid.zm * spec->grid.dof, n);
  PetscCall(MatGetRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &n, &ia, &ja, &done));
  PetscCheck(done, PETSC_COMM_SELF, PETSC_ERR_SUP, "Cannot get the rows of the matrix");
  PetscCall(SpTrsvMCNew(n, omega, shift, backend, use_graph, PETSC_FALSE, &mc));
  if (backend->memtype != PETSC_MEMTYPE_HOST) {
    ierr = SpTrsvMCCreateOnDevice(mc, A, spec, option, ia, ja);
  } else {
    PetscCall(PetscMalloc1(n + 1, &color));
    ierr = SpTrsvMCColorHost(mc, spec, option, ia, ja, &mc->ncolors, color);
    if (!ierr) ierr = PetscMalloc1(mc->ncolors + 1, &mc->colptr);
    if (!ierr) ierr = PetscMalloc2(n + 1, &mc->perm, n + 1, &mc->ipos);
    if (!ierr) ierr = SpTrsvColoringOrder(n, &mc->ncolors, color, mc->colptr, mc->perm);
    PetscCall(PetscFree(color));
    if (!ierr)
      for (PetscInt k = 0; k < n; k++) mc->ipos[mc->perm[k]] = k;
    if (!ierr) ierr = SpTrsvMCBuild(mc, ia, ja);
  }
  nr = n; /* MatRestoreRowIJ() may reset its size argument */
  PetscCall(MatRestoreRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &nr, &ia, &ja, &done));
  if (ierr) { /* e.g. a row without a diagonal entry: nothing is kept */
    PetscCall(SpTrsvMCDestroy(&mc));
    PetscCall(ierr);
  }
  *mcout = mc;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* SpTrsvMCGetHostPattern - the host arrays (perm, ipos, ptr, idx, vmap, dmap; val and idiag allocated) of a storage built on the GPU */
PetscErrorCode SpTrsvMCGetHostPattern(SpTrsvMC mc)
{
  const SpTrsvDeviceOps *dev;

  PetscFunctionBegin;
  if (mc->perm) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCheck(mc->dev, PETSC_COMM_SELF, PETSC_ERR_PLIB, "A multicolor storage without a host or device pattern");
  PetscCall(SpTrsvDeviceOpsGet(&dev, NULL, NULL));
  PetscCall(PetscMalloc2(mc->n + 1, &mc->perm, mc->n + 1, &mc->ipos));
  PetscCall(PetscMalloc2(mc->n + 1, &mc->ptr, mc->n + 1, &mc->dmap));
  PetscCall(PetscMalloc2(mc->nnz + 1, &mc->idx, mc->nnz + 1, &mc->vmap));
  PetscCall(PetscCalloc2(mc->nnz + 1, &mc->val, mc->n + 1, &mc->idiag));
  PetscCall((*dev->gs.mc_download_pattern)(mc->dev, mc));
  for (PetscInt k = 0; k < mc->n; k++) mc->ipos[mc->perm[k]] = k;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* SpTrsvMCCreateTranspose - the storage of A^T with the colouring of mc (valid for A^T: the graph is symmetrized) */
PetscErrorCode SpTrsvMCCreateTranspose(SpTrsvMC mc, Mat A, SpTrsvMC *mctout)
{
  SpTrsvMC        t;
  PetscInt        n, nr;
  const PetscInt *ia, *ja;
  PetscBool       done;

  PetscFunctionBegin;
  PetscCall(MatGetRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &n, &ia, &ja, &done));
  PetscCheck(done, PETSC_COMM_SELF, PETSC_ERR_SUP, "Cannot get the rows of the matrix");
  PetscCheck(n == mc->n, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "The matrix has %" PetscInt_FMT " rows, the colouring %" PetscInt_FMT, n, mc->n);
  PetscCall(SpTrsvMCGetHostPattern(mc));
  PetscCall(SpTrsvMCNew(n, mc->omega, mc->shift, mc->backend, mc->use_graph, PETSC_TRUE, &t));
  PetscCall(PetscMalloc2(n + 1, &t->perm, n + 1, &t->ipos));
  t->ncolors  = mc->ncolors;
  t->coloring = mc->coloring;
  PetscCall(PetscMalloc1(mc->ncolors + 1, &t->colptr));
  PetscCall(PetscArraycpy(t->colptr, mc->colptr, mc->ncolors + 1));
  PetscCall(PetscArraycpy(t->perm, mc->perm, n));
  PetscCall(PetscArraycpy(t->ipos, mc->ipos, n));
  PetscCall(SpTrsvMCBuild(t, ia, ja));
  nr = n;
  PetscCall(MatRestoreRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &nr, &ia, &ja, &done));
  PetscCall(SpTrsvMCCreateDevice(t));
  *mctout = t;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvMCSetValues - values from the matrix's host value array aa and the relaxed inverse diagonal in natural
  row order (computed by the caller with MatSOR's rules); uploaded on the CUDA backend
*/
PetscErrorCode SpTrsvMCSetValues(SpTrsvMC mc, const PetscScalar *aa, const PetscScalar *idiag)
{
  PetscFunctionBegin;
  PetscCall(SpTrsvMCGetHostPattern(mc));
  for (PetscInt q = 0; q < mc->nnz; q++) mc->val[q] = aa[mc->vmap[q]];
  for (PetscInt k = 0; k < mc->n; k++) mc->idiag[k] = idiag[mc->perm[k]];
  if (mc->dev) {
    const SpTrsvDeviceOps *dev;

    PetscCall(SpTrsvDeviceOpsGet(&dev, NULL, NULL));
    PetscCall((*dev->gs.mc_upload_values)(mc->dev, mc->val, mc->idiag));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvMCSetValuesDevice - values gathered on the GPU from the matrix's device value array (a MATSEQAIJCUSPARSE's,
  in place): the host arrays val, idiag are not updated. *clean is false (and nothing may be assumed about the
  device values) when a non-finite or zero-diagonal case was met: the caller refreshes from the host instead.
  Without a device copy *clean is false.
*/
PetscErrorCode SpTrsvMCSetValuesDevice(SpTrsvMC mc, const PetscScalar *daa, PetscBool *clean)
{
  PetscFunctionBegin;
  *clean = PETSC_FALSE;
  if (mc->dev) {
    const SpTrsvDeviceOps *dev;

    PetscCall(SpTrsvDeviceOpsGet(&dev, NULL, NULL));
    PetscCall((*dev->gs.mc_gather_values)(mc->dev, daa, clean));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvMCSweepHost - one sweep on host arrays (b != x): colours ascending (forward) or descending (backward);
  with zero the sweep starts from x = 0 (MatSOR's zero initial guess)
*/
PetscErrorCode SpTrsvMCSweepHost(SpTrsvMC mc, PetscBool backward, PetscBool zero, const PetscScalar *b, PetscScalar *x)
{
  const PetscScalar keep = 1.0 - mc->omega;

  PetscFunctionBegin;
  if (zero) PetscCall(PetscArrayzero(x, mc->n));
  for (PetscInt cc = 0; cc < mc->ncolors; cc++) {
    const PetscInt c = backward ? mc->ncolors - 1 - cc : cc;

    for (PetscInt k = mc->colptr[c]; k < mc->colptr[c + 1]; k++) {
      const PetscInt i = mc->perm[k];
      PetscScalar    s = b[i];

      for (PetscInt p = mc->ptr[k]; p < mc->ptr[k + 1]; p++) s -= mc->val[p] * x[mc->idx[p]];
      x[i] = keep * x[i] + mc->idiag[k] * s;
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* SpTrsvMCSweep - one sweep on backend arrays: the host executor or one launch per colour on the GPU */
PetscErrorCode SpTrsvMCSweep(SpTrsvMC mc, PetscBool backward, PetscBool zero, const PetscScalar *b, PetscScalar *x)
{
  PetscFunctionBegin;
  if (!mc->n) PetscFunctionReturn(PETSC_SUCCESS);
  if (mc->dev) {
    const SpTrsvDeviceOps *dev;

    PetscCall(SpTrsvDeviceOpsGet(&dev, NULL, NULL));
    PetscCall((*dev->gs.mc_sweep)(mc->dev, backward, zero, b, x));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(SpTrsvMCSweepHost(mc, backward, zero, b, x));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* flops of one sweep: a multiply-add per entry, b_i - s, the scaling and the relaxation of each row */
PetscLogDouble SpTrsvMCSweepFlops(SpTrsvMC mc)
{
  return 2.0 * (PetscLogDouble)mc->nnz + (mc->omega == 1.0 ? 2.0 : 4.0) * (PetscLogDouble)mc->n;
}

/* SpTrsvMCView - the number of colours and the rows of each (the first 16, then the smallest and largest) */
PetscErrorCode SpTrsvMCView(SpTrsvMC mc, PetscViewer viewer)
{
  char     line[512] = "", item[32];
  PetscInt mn = PETSC_INT_MAX, mx = 0;

  PetscFunctionBegin;
  for (PetscInt c = 0; c < mc->ncolors; c++) {
    const PetscInt sz = mc->colptr[c + 1] - mc->colptr[c];

    mn = PetscMin(mn, sz);
    mx = PetscMax(mx, sz);
    if (c < 16) {
      PetscCall(PetscSNPrintf(item, sizeof(item), "%s%" PetscInt_FMT, c ? " " : "", sz));
      PetscCall(PetscStrlcat(line, item, sizeof(line)));
    }
  }
  if (mc->ncolors > 16) {
    PetscCall(PetscSNPrintf(item, sizeof(item), " ... (min %" PetscInt_FMT ", max %" PetscInt_FMT ")", mn, mx));
    PetscCall(PetscStrlcat(line, item, sizeof(line)));
  }
  {
    char how[128];

    if (mc->coloring == SPTRSV_COLORING_DMDA) PetscCall(PetscSNPrintf(how, sizeof(how), "dmda: the rule of the PC's DMDA, checked against the matrix, on the %s", mc->on_device ? "GPU" : "host"));
    else if (mc->coloring == SPTRSV_COLORING_JP && mc->on_device) PetscCall(PetscSNPrintf(how, sizeof(how), "jp: greedy in hash order of the symmetrized pattern, %" PetscInt_FMT " rounds on the GPU", mc->rounds));
    else if (mc->coloring == SPTRSV_COLORING_JP) PetscCall(PetscSNPrintf(how, sizeof(how), "jp: greedy in hash order of the symmetrized pattern, on the host"));
    else PetscCall(PetscSNPrintf(how, sizeof(how), "natural: greedy in row order of the symmetrized pattern, on the host"));
    PetscCall(PetscViewerASCIIPrintf(viewer, "%" PetscInt_FMT " colours (%s), rows per colour: %s\n", mc->ncolors, how, line));
  }
  if (mc->grid_badrow >= 0) PetscCall(PetscViewerASCIIPrintf(viewer, "the DMDA's colouring rule was not used: it gives local row %" PetscInt_FMT " the colour of a row coupled to it\n", mc->grid_badrow));
  if (mc->dev) PetscCall(PetscViewerASCIIPrintf(viewer, "%" PetscInt_FMT " off-diagonal entries stored in colour order (%s); a sweep is %" PetscInt_FMT " launches (CUDA, one per colour%s)\n", mc->nnz, mc->on_device ? "built on the GPU" : "built on the host, uploaded", mc->ncolors, mc->use_graph && mc->ncolors > 1 ? ", replayed as a CUDA graph" : ""));
  else PetscCall(PetscViewerASCIIPrintf(viewer, "%" PetscInt_FMT " off-diagonal entries stored in colour order; a sweep is %" PetscInt_FMT " colour passes (host executor)\n", mc->nnz, mc->ncolors));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SpTrsvMCDestroy(SpTrsvMC *mcp)
{
  SpTrsvMC mc = *mcp;

  PetscFunctionBegin;
  if (!mc) PetscFunctionReturn(PETSC_SUCCESS);
  if (mc->dev) {
    const SpTrsvDeviceOps *dev;

    PetscCall(SpTrsvDeviceOpsGet(&dev, NULL, NULL));
    PetscCall((*dev->gs.mc_destroy)(&mc->dev));
  }
  PetscCall(PetscFree(mc->colptr));
  PetscCall(PetscFree2(mc->perm, mc->ipos));
  PetscCall(PetscFree2(mc->ptr, mc->dmap));
  PetscCall(PetscFree2(mc->idx, mc->vmap));
  PetscCall(PetscFree2(mc->val, mc->idiag));
  PetscCall(PetscFree(*mcp));
  PetscFunctionReturn(PETSC_SUCCESS);
}
