# petsc-sptrsv: build with PETSc's own make variables and rules.
#   make                 build lib/libpetscsptrsv.so (CUDA backend when nvcc is found; WITH_CUDA=0|1 forces)
#   make examples        build examples/ex1, examples/ex2_register and the benchmark programs (bench, bench_gs, bench_isai, bench_ilu_setup)
#   make check           build everything and run the test suite (last line: "N passed, N failed")
#   make demo            run the demo (GMRES(30) with PETSc's ILU vs sptrsv_level)
#   make install PREFIX=/path   install library, header and pkg-config file
PETSC_DIR  ?= /usr/lib/petsc
PETSC_ARCH ?=
PREFIX     ?= /usr/local
CUDA_HOME  ?= /usr/local/cuda
CUDA_ARCH  ?= 90

.DEFAULT_GOAL := lib

include $(PETSC_DIR)/lib/petsc/conf/variables
include $(PETSC_DIR)/lib/petsc/conf/rules

NVCC_FOUND := $(or $(wildcard $(CUDA_HOME)/bin/nvcc),$(shell command -v nvcc 2>/dev/null))
ifeq ($(origin WITH_CUDA),undefined)
  WITH_CUDA := $(if $(NVCC_FOUND),1,0)
endif
NVCC ?= $(if $(wildcard $(CUDA_HOME)/bin/nvcc),$(CUDA_HOME)/bin/nvcc,nvcc)

# The direct solvers of the LU / Cholesky factors (src/mat/factor/lu_superlu.c, chol_cholmod.c): SuperLU and CHOLMOD,
# Debian's (libsuperlu-dev, libsuitesparse-dev), linked here whether or not PETSc links them itself (Debian's PETSc
# does, the CUDA PETSc at /opt/petsc-cuda does not). DIRECT_DIR: a folder with include/{superlu,suitesparse}/ and
# lib/ made by scripts/carry-direct-libs.sh (default .carry/directlibs when it exists, for the GPU machine, which has
# no such packages). WITH_SUPERLU / WITH_CHOLMOD = 0 builds without one (its factor then says so: PETSC_ERR_SUP).
DIRECT_DIR  ?= $(if $(wildcard .carry/directlibs/lib),$(abspath .carry/directlibs))
SUPERLU_INC ?= $(if $(DIRECT_DIR),$(DIRECT_DIR)/include/superlu,/usr/include/superlu)
CHOLMOD_INC ?= $(if $(DIRECT_DIR),$(DIRECT_DIR)/include/suitesparse,/usr/include/suitesparse)
WITH_SUPERLU ?= $(if $(wildcard $(SUPERLU_INC)/slu_ddefs.h),1,0)
WITH_CHOLMOD ?= $(if $(wildcard $(CHOLMOD_INC)/cholmod.h),1,0)
DIRECT_DEFS := $(if $(filter 1,$(WITH_SUPERLU)),-DPETSC_SPTRSV_HAVE_SUPERLU=1 -I$(SUPERLU_INC)) $(if $(filter 1,$(WITH_CHOLMOD)),-DPETSC_SPTRSV_HAVE_CHOLMOD=1 -I$(CHOLMOD_INC))
DIRECT_RPATH := -L$(DIRECT_DIR)/lib -Wl,-rpath,$(DIRECT_DIR)/lib -Wl,-rpath-link,$(DIRECT_DIR)/lib
DIRECT_LIBS := $(if $(DIRECT_DIR),$(DIRECT_RPATH)) $(if $(filter 1,$(WITH_SUPERLU)),-lsuperlu) $(if $(filter 1,$(WITH_CHOLMOD)),-lcholmod)

SPTRSV_LIB := lib/libpetscsptrsv.so
SPTRSV_AR  := lib/libpetscsptrsv.a
OBJDIR     := build/$(subst /,_,$(patsubst /%,%,$(PETSC_DIR)))-cuda$(WITH_CUDA)-direct$(WITH_SUPERLU)$(WITH_CHOLMOD)
SRC_C      := $(sort $(shell find src -name '*.c'))
SRC_CU     := $(if $(filter 1,$(WITH_CUDA)),$(sort $(shell find src/cuda -name '*.cu')))
OBJS       := $(SRC_C:%.c=$(OBJDIR)/%.o) $(SRC_CU:%.cu=$(OBJDIR)/%.o)

WARN        := -Wall -Wextra -Wno-unused-parameter
SPTRSV_DEFS := $(if $(filter 1,$(WITH_CUDA)),-DPETSC_SPTRSV_HAVE_CUDA=1)
SPTRSV_CPP  := -Iinclude $(PETSC_CC_INCLUDES) $(SPTRSV_DEFS)
MPI_INC     := $(shell $(PCC) --showme:compile 2>/dev/null)
ifeq ($(WITH_CUDA),1)
  CUDA_LIBS := -L$(CUDA_HOME)/lib64 -Wl,-rpath,$(CUDA_HOME)/lib64 -lcusparse -lcublas -lcudart -lstdc++
endif
NVCC_FLAGS  := -O3 -std=c++17 -Xcompiler -fPIC,-Wall,-fvisibility=hidden -gencode arch=compute_$(CUDA_ARCH),code=sm_$(CUDA_ARCH) -gencode arch=compute_$(CUDA_ARCH),code=compute_$(CUDA_ARCH) -lineinfo
LINK_LIBS   := $(PETSC_LIB) $(DIRECT_LIBS)

# relink when the selected build (CUDA or not, which PETSc) differs from the last one
BUILD_ID := $(OBJDIR) $(PETSC_DIR) superlu$(WITH_SUPERLU) cholmod$(WITH_CHOLMOD) $(DIRECT_DIR)
ifneq ($(shell cat build/.selected 2>/dev/null),$(BUILD_ID))
  $(shell mkdir -p build && echo '$(BUILD_ID)' > build/.selected)
  RELINK := relink-always
endif
relink-always:

lib: $(SPTRSV_LIB) $(SPTRSV_AR)
	@echo "Built $(SPTRSV_LIB) and $(SPTRSV_AR) (WITH_CUDA=$(WITH_CUDA), PETSC_DIR=$(PETSC_DIR), WITH_SUPERLU=$(WITH_SUPERLU), WITH_CHOLMOD=$(WITH_CHOLMOD)$(if $(DIRECT_DIR), from $(DIRECT_DIR)))"

# the shared library exports the documented API only (PETSC_EXTERN); internal functions are PETSC_INTERN (hidden).
# The static archive holds the same objects, for the programs that call internal functions (unit tests,
# benchmarks, device checks).
$(SPTRSV_LIB): $(OBJS) $(RELINK)
	@mkdir -p lib
	$(PCC_LINKER) -shared -Wl,-soname,libpetscsptrsv.so $(PCC_LINKER_FLAGS) -o $@ $(OBJS) $(LINK_LIBS) $(CUDA_LIBS)

$(SPTRSV_AR): $(OBJS) $(RELINK)
	@mkdir -p lib
	rm -f $@
	ar rcs $@ $(OBJS)

$(OBJDIR)/%.o: %.c
	@mkdir -p $(dir $@)
	$(PCC) $(PCC_FLAGS) $(WARN) -fvisibility=hidden -MMD -MP $(SPTRSV_CPP) $(DIRECT_DEFS) -c $< -o $@

$(OBJDIR)/%.o: %.cu
	@mkdir -p $(dir $@)
	$(NVCC) $(NVCC_FLAGS) -MMD -MP $(SPTRSV_CPP) $(MPI_INC) -c $< -o $@

-include $(OBJS:.o=.d)

# ---- programs linked against the plugin ------------------------------------------------------
EXAMPLES   := examples/ex1 examples/ex2_register examples/benchmarks/bench examples/benchmarks/bench_gs examples/benchmarks/bench_isai examples/benchmarks/bench_ilu_setup examples/benchmarks/large
UNIT_TESTS := $(patsubst %.c,%,$(wildcard tests/unit/test_*.c))
PROG_LIBS  := -Llib -lpetscsptrsv -Wl,-rpath,$(CURDIR)/lib $(LINK_LIBS) -lz $(CUDA_LIBS)
# programs that call internal functions link the static archive
INTERNAL_LIBS := $(SPTRSV_AR) $(LINK_LIBS) -lz $(CUDA_LIBS)

# the benchmark programs: bench (triangular solves), bench_gs (Gauss-Seidel sweeps) and bench_isai (PC isai, GMRES), with
# their shared pieces
STENCIL_SRC  := examples/common/stencil.c
BENCH_COMMON := examples/benchmarks/bench_common.c examples/benchmarks/bench_matrices.c examples/benchmarks/bench_cusparse.c $(STENCIL_SRC)
BENCH_SRC    := examples/benchmarks/bench.c examples/benchmarks/bench_paths.c $(BENCH_COMMON)
BENCH_GS_SRC := examples/benchmarks/bench_gs.c examples/benchmarks/bench_gs_cusparse.c $(BENCH_COMMON)
BENCH_ISAI_SRC := examples/benchmarks/bench_isai.c $(STENCIL_SRC)
BENCH_ILU_SRC  := examples/benchmarks/bench_ilu_setup.c $(STENCIL_SRC)
BENCH_HDR    := examples/benchmarks/bench.h examples/common/stencil.h examples/common/mmload.h examples/common/relerr.h
BENCH_LINK    = $(PCC) $(PCC_FLAGS) $(WARN) $(SPTRSV_CPP) -o $@ $(filter %.c,$^) $(INTERNAL_LIBS)
examples/benchmarks/bench: $(BENCH_SRC) examples/common/mmload.c $(BENCH_HDR) $(SPTRSV_AR)
	$(BENCH_LINK)
examples/benchmarks/bench_gs: $(BENCH_GS_SRC) examples/common/mmload.c $(BENCH_HDR) examples/benchmarks/bench_gs.h $(SPTRSV_AR)
	$(BENCH_LINK)
examples/benchmarks/bench_isai: $(BENCH_ISAI_SRC) examples/common/mmload.c $(BENCH_HDR) $(SPTRSV_AR)
	$(BENCH_LINK)
# the host set-up passes of ILU(k) (issue 12)
examples/benchmarks/bench_ilu_setup: $(BENCH_ILU_SRC) $(BENCH_HDR) $(SPTRSV_AR)
	$(BENCH_LINK)
# large problems (issue 15): the 3-D Laplacian at 256^3 through ILU(k)/GMRES(30) (examples/benchmarks/run-large-device.sh)
examples/benchmarks/large: examples/benchmarks/large.c $(STENCIL_SRC) $(BENCH_HDR) $(SPTRSV_AR)
	$(PCC) $(PCC_FLAGS) $(WARN) $(SPTRSV_CPP) -o $@ examples/benchmarks/large.c $(STENCIL_SRC) $(INTERNAL_LIBS)

examples/%: examples/%.c $(SPTRSV_LIB) examples/common/mmload.c
	$(PCC) $(PCC_FLAGS) $(WARN) $(SPTRSV_CPP) -o $@ $< examples/common/mmload.c $(PROG_LIBS)

tests/unit/%: tests/unit/%.c $(SPTRSV_AR) examples/common/mmload.c $(STENCIL_SRC)
	$(PCC) $(PCC_FLAGS) $(WARN) $(SPTRSV_CPP) -o $@ $< examples/common/mmload.c $(STENCIL_SRC) $(INTERNAL_LIBS)

examples: $(filter-out $(if $(wildcard examples/benchmarks/bench.c),,examples/benchmarks/bench examples/benchmarks/bench_gs examples/benchmarks/bench_isai examples/benchmarks/bench_ilu_setup examples/benchmarks/large),$(EXAMPLES))
# the fuzz driver of the sync-free kernels (tests/device/check_fuzz.c): GPU with a watchdog in tests/device/run.sh,
# host executors in the test suite; the CUDA runtime header for CUDA builds
tests/device/check_fuzz: tests/device/check_fuzz.c $(SPTRSV_AR)
	$(PCC) $(PCC_FLAGS) $(WARN) $(SPTRSV_CPP) $(if $(filter 1,$(WITH_CUDA)),-I$(CUDA_HOME)/include) -o $@ $< $(INTERNAL_LIBS)

# the device check of the sync-free analysis on the GPU (tests/device/check_analysis.c): tests/device/run.sh; without a
# CUDA device it only says so (the test suite builds it)
tests/device/check_analysis: tests/device/check_analysis.c $(SPTRSV_AR) examples/common/mmload.c
	$(PCC) $(PCC_FLAGS) $(WARN) $(SPTRSV_CPP) $(if $(filter 1,$(WITH_CUDA)),-I$(CUDA_HOME)/include) -o $@ $< examples/common/mmload.c $(INTERNAL_LIBS)

# the device check of the GPU numeric ILU (tests/device/check_factor.c, run by tests/device/run.sh): CUDA builds only
# (WITH_CUDA=1; it checks the device path, so it needs the GPU to run, and a CUDA PETSc for its cuSPARSE case)
tests/device/check_factor: tests/device/check_factor.c $(STENCIL_SRC) examples/common/mmload.c $(SPTRSV_AR)
	@test "$(WITH_CUDA)" = 1 || { echo "tests/device/check_factor needs WITH_CUDA=1"; exit 1; }
	$(PCC) $(PCC_FLAGS) $(WARN) $(SPTRSV_CPP) -I$(CUDA_HOME)/include -o $@ tests/device/check_factor.c $(STENCIL_SRC) examples/common/mmload.c $(INTERNAL_LIBS)

# the device check of every path's CUDA executor against the host (tests/device/check_kernels.c): GPU in
# tests/device/run.sh (which builds its own copy, build/device/check_kernels); the test suite runs its host comparisons
# and its list of configurations (every registered path must have a CUDA one)
CHECK_KERNELS_SRC := tests/device/check_kernels.c tests/device/check_cases.c tests/device/check_sweeps.c tests/device/check_isai.c
tests/device/check_kernels: $(CHECK_KERNELS_SRC) tests/device/check_cases.h tests/device/check_sweeps.h tests/device/check_isai.h $(STENCIL_SRC) examples/common/mmload.c $(SPTRSV_AR)
	$(PCC) $(PCC_FLAGS) $(WARN) -Wno-missing-field-initializers $(SPTRSV_CPP) -o $@ $(CHECK_KERNELS_SRC) $(STENCIL_SRC) examples/common/mmload.c $(INTERNAL_LIBS)

# the device check of the multicolor sweeps (tests/device/check_multicolor.c): GPU in tests/device/run.sh, the host
# side in the test suite
tests/device/check_multicolor: tests/device/check_multicolor.c $(STENCIL_SRC) $(SPTRSV_AR)
	$(PCC) $(PCC_FLAGS) $(WARN) $(SPTRSV_CPP) -o $@ $< $(STENCIL_SRC) $(INTERNAL_LIBS)

# one GPU per MPI rank (tests/device/check_multigpu.c): 2 GPUs in tests/device/run-multigpu.sh, the host mode (skips, and the
# detection on synthetic PCI bus ids) in the test suite (tests/suites/mpi.sh); the public API only
tests/device/check_multigpu: tests/device/check_multigpu.c $(SPTRSV_AR)
	$(PCC) $(PCC_FLAGS) $(WARN) $(SPTRSV_CPP) -o $@ $< $(INTERNAL_LIBS)

# the hostile-input fuzz driver (tests/fuzz/): spoiled Matrix Market and PETSc binary files through every solver type and PC
FUZZ_SRC := tests/fuzz/fuzz_input.c tests/fuzz/fuzz_consume.c tests/fuzz/fuzz_gen.c examples/common/mmload.c
tests/fuzz/fuzz_input: $(FUZZ_SRC) tests/fuzz/fuzz.h tests/fuzz/fuzz_case.h examples/common/mmload.h $(SPTRSV_AR)
	$(PCC) $(PCC_FLAGS) $(WARN) $(SPTRSV_CPP) -o $@ $(FUZZ_SRC) $(INTERNAL_LIBS)

# the long-run and leak check (tests/device/check_longrun.c): GPU in tests/device/run.sh (step longrun), a short host
# version in the test suite
tests/device/check_longrun: tests/device/check_longrun.c $(STENCIL_SRC) $(SPTRSV_AR)
	$(PCC) $(PCC_FLAGS) $(WARN) $(SPTRSV_CPP) -o $@ $< $(STENCIL_SRC) $(INTERNAL_LIBS)

# the SLEPc shift-and-invert check (tests/slepc/eps_sinvert.c, tests/suites/slepc.sh): built when a SLEPc is found at
# SLEPC_DIR (Debian's slepc-dev: /usr/lib/slepc, library libslepc_real; a SLEPc of its own: libslepc, e.g. the CUDA one
# of scripts/build-slepc-cuda.sh); without one the suite reports its tests skipped
SLEPC_DIR     ?= /usr/lib/slepc
SLEPC_LIBNAME := $(patsubst lib%.so,%,$(notdir $(firstword $(wildcard $(SLEPC_DIR)/lib/libslepc_real.so $(SLEPC_DIR)/lib/libslepc.so))))
SLEPC_TESTS   := $(if $(SLEPC_LIBNAME),tests/slepc/eps_sinvert)
tests/slepc/eps_sinvert: tests/slepc/eps_sinvert.c examples/common/mmload.c examples/common/mmload.h $(SPTRSV_AR)
	@test -n "$(SLEPC_LIBNAME)" || { echo "no SLEPc at SLEPC_DIR=$(SLEPC_DIR) (lib/libslepc_real.so or lib/libslepc.so): install slepc-dev or set SLEPC_DIR"; exit 1; }
	$(PCC) $(PCC_FLAGS) $(WARN) -I$(SLEPC_DIR)/include $(SPTRSV_CPP) -o $@ $< examples/common/mmload.c -L$(SLEPC_DIR)/lib -Wl,-rpath,$(SLEPC_DIR)/lib -l$(SLEPC_LIBNAME) $(INTERNAL_LIBS)

unit-tests: $(UNIT_TESTS) tests/device/check_fuzz tests/device/check_kernels tests/device/check_analysis tests/device/check_multicolor tests/device/check_multigpu tests/device/check_longrun tests/fuzz/fuzz_input $(SLEPC_TESTS)

check: lib examples unit-tests
	@bash tests/run-tests.sh

demo: lib examples/ex1
	@bash examples/demo.sh

install: lib
	@test -n "$(PREFIX)" || { echo "PREFIX is empty"; exit 1; }
	mkdir -p $(PREFIX)/lib/pkgconfig $(PREFIX)/include
	cp $(SPTRSV_LIB) $(PREFIX)/lib/
	cp include/petscsptrsv.h $(PREFIX)/include/
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@PETSC_DIR@|$(PETSC_DIR)|g' petscsptrsv.pc.in > $(PREFIX)/lib/pkgconfig/petscsptrsv.pc
	@echo "Installed into $(PREFIX); load with -dll_append $(PREFIX)/lib/libpetscsptrsv.so"

# PETSc's rules define clean as "clean:" (3.18) or "clean::" (newer): extend whichever it is
ifeq ($(shell grep -q '^clean::' $(PETSC_DIR)/lib/petsc/conf/rules && echo 2),2)
clean:: sptrsv-clean
else
clean: sptrsv-clean
endif
sptrsv-clean:
	rm -rf build lib $(EXAMPLES) $(UNIT_TESTS) tests/device/check_fuzz tests/device/check_kernels tests/device/check_multicolor tests/device/check_multigpu tests/device/check_longrun tests/fuzz/fuzz_input tests/slepc/eps_sinvert tests/out

.PHONY: relink-always lib examples unit-tests check demo install sptrsv-clean
