/* Mat_SpTrsv: the data of the factor matrix every sptrsv_* MatSolverType returns, and its values where they are
   current: the host factor, the solvers after a GPU numeric phase (src/mat/solvers/factorhost.c; private to the
   plugin). Below the factor matrix (factormat.c) and its parts (automeasure.c, factormem.c). */
#pragma once
#include <sptrsv/backend.h>
#include <sptrsv/factor.h>
#include <sptrsv/direct.h>
#include <sptrsv/auto.h>
#include <petsc/private/matimpl.h>

typedef struct {
  SpTrsvPath              path;       /* NULL for MatSolverType sptrsv: the path of each triangle is chosen (tripath) */
  PetscBool               automatic;  /* MatSolverType sptrsv */
  SpTrsvAutoOptions       autoopts;   /* its options */
  SpTrsvAutoChoice        choice[2];  /* its choice for L and U, and why */
  PetscBool               measure_done; /* the measured check ran (or was passed over) since the last analysis */
  PetscInt                learn_solves;  /* the learning choice: solves of the pattern since its analysis (all numeric factorizations) */
  PetscInt                learn_numeric; /* numeric factorizations of the pattern */
  PetscInt                learn_next;    /* the solve count of the next look */
  SpTrsvPath              tripath[2]; /* the path of L and of U (their transposes take the same) */
  SpTrsvPathOptions     triopts[2]; /* the options of L and of U: opts, with the chosen variant's (sptrsv) */
  SpTrsvFactor            fac;
  SpTrsvFormat            format;
  SpTrsvBackendType       backendreq;
  SpTrsvPathOptions     opts; /* the path's options (graphs, fusion, ...) */
  const SpTrsvBackendOps *backend;
  char                    backend_note[256];
  SpTrsvSolver            tri[2][2];     /* [transpose][0 = L, 1 = U] */
  SpTrsvSolver            pair_u;        /* the learning choice's start: U's solver analysed with L's as a pair (MatSpTrsvAutoCreateFirst), taken by U's turn */
  SpTrsvPath              pair_u_path;   /* its path and variant, and its half of the pair's setup time */
  const char             *pair_u_variant;
  PetscReal               pair_u_ms;
  void                   *rperm, *cperm; /* backend copies of the permutations */
  PetscScalar            *w1, *w2;       /* backend work vectors */
  SpTrsvStaging           staging;       /* PETSc vectors on the backend */
  PetscReal               fill_given; /* MatFactorInfo fill, reported by MatGetInfo as PETSc does */
  PetscBool               factor_device;   /* -mat_sptrsv_factor_device: ILU's numeric phase on the GPU when the solves run there */
  SpTrsvILUDeviceConfig   factor_device_cfg; /* -mat_sptrsv_factor_device_order, _rows, _blocks_per_sm: how it runs there */
  PetscBool               numeric_device;  /* it does (decided at the symbolic phase) */
  char                    numeric_note[256]; /* where the numeric phase runs and why, for -ksp_view */
  SpTrsvDirectOptions     direct;            /* LU / Cholesky: the direct solver's options (direct.h) */
  SpTrsvDevMem            mem;               /* device memory of the factor outside its solvers (GPU numeric factor, permutations, work vectors) */
  PetscInt                setup_threads_req; /* -mat_sptrsv_setup_threads (0: automatic) */
  PetscInt                setup_threads;     /* the count the last symbolic phase ran with (threads.h) */
  PetscBool               compare_cusparse;  /* -mat_sptrsv_compare_cusparse_memory */
  PetscBool               cusp_done;         /* the comparison below was computed */
  PetscInt64              cusp_mat[2], cusp_buf[2]; /* what cusparseSpSV would hold for L and U: matrix, buffer */
  char                    cusp_note[256];    /* why it was not computed */
} Mat_SpTrsv;

/* the setup's side job (src/mat/solvers/prefetch.c): A and the L/U patterns uploaded while threads analyse */
typedef struct {
  Mat       F, A;
  PetscBool kept; /* it kept index arrays on the device (freed by MatSpTrsvPrefetchEnd()) */
} MatSpTrsvPrefetch;
SPTRSV_INTERN PetscErrorCode MatSpTrsvPrefetchBegin(Mat, Mat, MatSpTrsvPrefetch *); /* after the factor's pattern */
SPTRSV_INTERN PetscErrorCode MatSpTrsvNumericOnDevice(Mat, char *, size_t, PetscBool *); /* numeric_place.c: the numeric phase on the GPU? else the reason */
SPTRSV_INTERN PetscErrorCode MatSpTrsvPrefetchFlush(MatSpTrsvPrefetch *);           /* after the analysis */
SPTRSV_INTERN PetscErrorCode MatSpTrsvPrefetchEnd(MatSpTrsvPrefetch *);             /* the end of the symbolic phase */

/* the factor of an sptrsv factor Mat with current host values (downloaded after a GPU numeric phase) */
SPTRSV_INTERN PetscErrorCode MatSpTrsvGetFactorHost(Mat, SpTrsvFactor *);
/* a solver of L or U takes the values of the GPU numeric phase, device to device */
SPTRSV_INTERN PetscErrorCode MatSpTrsvSolverFromDevice(Mat_SpTrsv *, SpTrsvSolver);
