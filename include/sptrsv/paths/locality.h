/* The locality path's plan (plan->data of sptrsv_locality, paper 004): built by src/mat/paths/locality/locality.c from
   the partition or the chain of include/sptrsv/paths/partition.h, read by its host executor and by its CUDA
   executor (src/cuda/paths/locality/) (private to the plugin) */
#pragma once
#include <sptrsv/paths/partition.h> /* the partition, its cost model, the chain and blocks kernels */
#include <sptrsv/paths/locality_blocks.h> /* the blocks kernel's host executor */

/*
   The plan (plan->data). plan->order lists the rows by sub-graph (sub-graphs by level), inside a sub-graph by slot,
   inside a slot long rows first, then by row index. Sub-graph g holds positions subptr[g] .. subptr[g+1]-1; its slots are s = sslot[g] ..
   sslot[g+1]-1, slot s holding positions slotptr[s] .. slotptr[s+1]-1; sub-graph level l holds sub-graphs
   levptr[l] .. levptr[l+1]-1 (one launch, one block each).
   The entries of the row at position k are stored in the order the kernel reads them: q = ptr[k] .. ptr[k+1]-1,
   where ptr[k] = sum of the lengths of the earlier positions; the external ones (a column in an earlier sub-graph)
   first, q < split[k], then the internal ones. emap[q] is the index of entry q in the rows of op(T) (op->rj, op->ra);
   col[q] is its column for an external entry (global x) and, for an internal one, the column's offset in the
   sub-graph (its shared-memory word: position - subptr[g]).
*/
typedef struct {
  PetscInt  nmax;                      /* the cap the partition used */
  PetscInt  nsub, nsublevels, nslots;  /* sub-graphs, sub-graph levels (launches), slots */
  PetscInt *subptr, *sslot, *slotptr;  /* nsub + 1, nsub + 1, nslots + 1 */
  PetscInt *levptr;                    /* nsublevels + 1 */
  PetscInt *ptr, *split, *emap, *col;  /* n + 1, n, nnz, nnz */
  PetscInt  max_sub_rows, max_slot_rows, max_slots; /* largest sub-graph, widest slot, most slots of one sub-graph */
  PetscInt  max_level_subs;                         /* most sub-graphs in one level (the widest launch) */
  PetscInt  nint, next;                             /* internal and external entries */
  int       K;                                      /* lanes per row (2..32, a power of two) */
  int       block;                                  /* threads per block (a multiple of 32, at most SPTRSV_LOCALITY_MAX_BLOCK) */
  PetscInt  long_len, nlong;                        /* rows of at least long_len entries are long (0: none); how many */
  PetscInt *slotlong;                               /* nslots: long rows at the start of each slot (they come first in it) */
  PetscInt *lptr, *lpos;                            /* nsub + 1, nlong: positions of the long rows of each sub-graph */
  PetscInt *levstage;                               /* nsublevels: each launch's stage (0, 1, 2; see above) */
  PetscInt64 *levsmem;                              /* nsublevels: its dynamic shared memory in bytes */
  PetscInt  max_stage;                              /* the highest stage allowed (-mat_sptrsv_locality_stage) */
  SpTrsvPartition part;                             /* the partition's figures (its arrays freed) */
  SpTrsvLocalityChoice choice;                      /* how the partitioner was chosen, the model's figures */
  PetscInt             kernel;                      /* SPTRSV_LOCALITY_KERNEL_SLOTS, _CHAIN or _BLOCKS: what the executors run */
  PetscInt             kernel_requested;            /* -mat_sptrsv_locality_kernel */
  SpTrsvLocalityChain  chain;                       /* the chain analysis (kernel chain: the schedule; auto: the figures) */
  SpTrsvLocalityBlocks blocks;                      /* its blocks (kernel blocks: the schedule; auto: the figures) */
  PetscBool            have_slots;                  /* the sub-graph schedule above was built (not for a forced chain) */
} SpTrsvLocalitySchedule;

SPTRSV_INTERN PetscErrorCode SpTrsvLocalityScheduleCheck(const SpTrsvOp *, SpTrsvPlan);
/* the locality path's own options (SpTrsvPathOptions; read by its parser, SpTrsvOptionsSet_locality) */
typedef struct {
  PetscInt  subgraph_rows;       /* rows per sub-graph at most (-mat_sptrsv_subgraph_rows; 0: what a block's shared memory holds) */
  PetscInt  locality_partition;  /* SpTrsvLocalityPartitioner, auto (0), paper (1) or regions (2) (-mat_sptrsv_locality_partition) */
  PetscInt  locality_sms;        /* multiprocessors the cost model fills (-mat_sptrsv_locality_sms; 132, the H100's) */
  PetscInt  locality_stage;      /* CUDA: what a block copies to shared memory before its slots, at most: 0 nothing, 1 the row and slot pointers, 2 also the entries (-mat_sptrsv_locality_stage; 2) */
  PetscBool locality_pack;       /* pack the small independent sub-graphs of one level into one block (-mat_sptrsv_locality_pack; true) */
  PetscInt  locality_kernel;     /* SpTrsvLocalityKernelType, auto (0), slots (1), chain (2) or blocks (3) (-mat_sptrsv_locality_kernel) */
  PetscReal locality_block_cond; /* blocks kernel: largest condition number of an inverted diagonal block (-mat_sptrsv_locality_block_cond) */
  PetscInt  locality_block_rows; /* blocks kernel: rows per block (-mat_sptrsv_locality_block_rows; 0: the cost model's choice) */
} SpTrsvLocalityOptions;
/* the automatic choice (locality_auto.c): the chain or blocks kernel's prediction for the path's candidate */
SPTRSV_INTERN PetscErrorCode SpTrsvAutoRefine_locality(const SpTrsvOp *, const void *, struct _n_SpTrsvAutoChoice *, PetscInt);
SPTRSV_PATH_DECLARE(locality);
