#!/usr/bin/env bash
# Build and install a CUDA-enabled PETSc on a machine WITHOUT a GPU/driver,
# and/or pack a stripped copy of the install to carry to a GPU machine.
#
# Configure options come from petscconf-snippets/petsc-cuda-configure.txt
# (single source of truth).  Run with --help for usage.
set -euo pipefail

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_ROOT="$(cd "$SCRIPT_DIR/.." && pwd)"

: "${PREFIX:=/opt/petsc-cuda}"
: "${PETSC_VERSION:=3.26.1}"
: "${CUDA_ARCH:=90}"
: "${CUDA_DIR:=/usr/local/cuda}"
: "${JOBS:=$(nproc 2>/dev/null || echo 2)}"
: "${WORKDIR:=/tmp/petsc-cuda-build}"
: "${PETSC_ARCH:=arch-linux-cuda-opt}"
: "${WITH_NVML:=0}"
: "${OPTIONS_FILE:=$REPO_ROOT/petscconf-snippets/petsc-cuda-configure.txt}"
CARRY_DIR=""
DO_BUILD=1
CLEAN=0

usage() {
  cat <<EOF
Usage: $(basename "$0") [options]

Build a CUDA-enabled PETSc from PyPI's source distribution and install it into
PREFIX, on a machine that has the CUDA toolkit but no GPU driver.  Optionally
pack a stripped copy (headers + libpetsc.so + conf) to carry to a GPU machine.

Options (each also settable through the environment variable in brackets):
  --prefix DIR          install prefix                     [PREFIX=$PREFIX]
  --petsc-version VER   PETSc version from PyPI            [PETSC_VERSION=$PETSC_VERSION]
  --cuda-arch SM        CUDA SM architecture (90 = H100)   [CUDA_ARCH=$CUDA_ARCH]
  --cuda-dir DIR        CUDA toolkit root                  [CUDA_DIR=$CUDA_DIR]
  --jobs N              parallel make jobs                 [JOBS=$JOBS]
  --workdir DIR         scratch dir (source, build, stubs) [WORKDIR=$WORKDIR]
  --with-nvml           also enable NVML energy logging    [WITH_NVML=1]
                        (libpetsc then needs libnvidia-ml.so.1 at run time)
  --clean               delete the unpacked source tree in WORKDIR first
  --with-carry DIR      build + install, then pack a carry copy into DIR
  --carry DIR           only pack a carry copy of an existing PREFIX into DIR
                        (no build): include/, lib/libpetsc.so* (stripped),
                        lib/petsc/conf/, lib/pkgconfig/; no static libs/docs/examples
  -h, --help            show this help

Configure options are read from:
  $OPTIONS_FILE
(one option per line, '#' comments; placeholders \${PREFIX} \${CUDA_DIR} \${CUDA_ARCH}).

Driver stubs: configure and the link of libpetsc.so need libcuda.so (and
libnvidia-ml.so + nvml.h with --with-nvml).  The toolkit's lib64/stubs are used
when present; otherwise stubs are generated under WORKDIR.  Stubs are never
installed into PREFIX nor put into RPATH: the real driver libraries are used at
run time on the GPU machine.

Examples:
  JOBS=2 $(basename "$0")                         # build + install into $PREFIX
  $(basename "$0") --carry /path/to/.petsc-cuda   # pack an existing install
  On the GPU machine: export LD_LIBRARY_PATH=/path/to/.petsc-cuda/lib:\$LD_LIBRARY_PATH
EOF
}

log() { printf '[build-petsc-cuda %(%H:%M:%S)T] %s\n' -1 "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }

parse_args() {
  while [[ $# -gt 0 ]]; do
    case "$1" in
      -h|--help) usage; exit 0 ;;
      --prefix) PREFIX="$2"; shift 2 ;;
      --petsc-version) PETSC_VERSION="$2"; shift 2 ;;
      --cuda-arch) CUDA_ARCH="$2"; shift 2 ;;
      --cuda-dir) CUDA_DIR="$2"; shift 2 ;;
      --jobs) JOBS="$2"; shift 2 ;;
      --workdir) WORKDIR="$2"; shift 2 ;;
      --with-nvml) WITH_NVML=1; shift ;;
      --clean) CLEAN=1; shift ;;
      --with-carry) CARRY_DIR="$2"; shift 2 ;;
      --carry) CARRY_DIR="$2"; DO_BUILD=0; shift 2 ;;
      *) usage >&2; die "unknown argument: $1" ;;
    esac
  done
  # the build cd's into the source tree: a relative carry folder means relative to where we were called
  if [[ -n "$CARRY_DIR" && "$CARRY_DIR" != /* ]]; then CARRY_DIR="$PWD/$CARRY_DIR"; fi
  [[ "$JOBS" =~ ^[0-9]+$ && "$JOBS" -ge 1 ]] || die "JOBS must be a positive integer"
  [[ "$CUDA_ARCH" =~ ^[0-9a-z,_-]+$ ]] || die "bad CUDA_ARCH: $CUDA_ARCH"
}

# ---------------------------------------------------------------- deps
install_deps() {
  local pkgs=(libopenmpi-dev openmpi-bin liblapack-dev libblas-dev python3 make gcc g++
              binutils tar gzip unzip file)
  local missing=() p
  command -v dpkg-query >/dev/null || { log "no dpkg: not checking Debian build deps"; return 0; }
  for p in "${pkgs[@]}"; do
    [[ "$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)" == "install ok installed" ]] || missing+=("$p")
  done
  if ! python3 -m pip --version >/dev/null 2>&1 && ! command -v pip >/dev/null; then
    missing+=(python3-pip)
  fi
  if [[ ${#missing[@]} -eq 0 ]]; then log "build deps present"; return 0; fi
  if [[ $(id -u) -eq 0 ]]; then
    log "installing missing build deps: ${missing[*]}"
    apt-get update
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
  else
    die "missing packages (run as root or install them): ${missing[*]}"
  fi
}

pip_cmd() {
  if python3 -m pip --version >/dev/null 2>&1; then python3 -m pip "$@"; else pip "$@"; fi
}

# ---------------------------------------------------------------- source
fetch_source() {
  mkdir -p "$WORKDIR"
  local tarball="$WORKDIR/petsc-$PETSC_VERSION.tar.gz"
  SRC="$WORKDIR/petsc-$PETSC_VERSION"
  if [[ ! -s "$tarball" ]]; then
    log "downloading petsc==$PETSC_VERSION sdist from PyPI"
    pip_cmd download --no-deps --no-binary :all: "petsc==$PETSC_VERSION" -d "$WORKDIR" \
      || die "pip could not download petsc==$PETSC_VERSION (see: pip index versions petsc)"
  fi
  [[ -s "$tarball" ]] || die "expected $tarball after pip download"
  if [[ $CLEAN -eq 1 && -d "$SRC" ]]; then log "removing $SRC"; rm -rf "$SRC"; fi
  if [[ ! -f "$SRC/configure" ]]; then
    log "unpacking $tarball"
    tar -xzf "$tarball" -C "$WORKDIR"
  fi
  [[ -f "$SRC/configure" ]] || die "no configure in $SRC"
}

# ---------------------------------------------------------------- driver stubs
# Writes a minimal nvml.h with exactly what PETSc uses (layouts as in NVML 12/13).
write_min_nvml_h() {
  cat >"$1" <<'EOF'
/* Minimal NVML header generated by build-petsc-cuda.sh: only what PETSc uses.
   Types/values match NVIDIA's nvml.h (CUDA 12.2+).  Link-time use only. */
#ifndef PETSC_MIN_NVML_H
#define PETSC_MIN_NVML_H
#ifdef __cplusplus
extern "C" {
#endif
#define DECLDIR
typedef enum nvmlReturn_enum { NVML_SUCCESS = 0, NVML_ERROR_UNKNOWN = 999 } nvmlReturn_t;
typedef struct nvmlDevice_st *nvmlDevice_t;
typedef enum nvmlValueType_enum { NVML_VALUE_TYPE_DOUBLE = 0, NVML_VALUE_TYPE_UNSIGNED_INT = 1,
  NVML_VALUE_TYPE_UNSIGNED_LONG = 2, NVML_VALUE_TYPE_UNSIGNED_LONG_LONG = 3,
  NVML_VALUE_TYPE_SIGNED_LONG_LONG = 4, NVML_VALUE_TYPE_SIGNED_INT = 5,
  NVML_VALUE_TYPE_UNSIGNED_SHORT = 6, NVML_VALUE_TYPE_COUNT } nvmlValueType_t;
typedef union nvmlValue_st { double dVal; int siVal; unsigned int uiVal; unsigned long ulVal;
  unsigned long long ullVal; signed long long sllVal; unsigned short usVal; } nvmlValue_t;
typedef struct nvmlFieldValue_st { unsigned int fieldId; unsigned int scopeId; long long timestamp;
  long long latencyUsec; nvmlValueType_t valueType; nvmlReturn_t nvmlReturn; nvmlValue_t value; } nvmlFieldValue_t;
#define NVML_FI_DEV_POWER_INSTANT 186
#define nvmlInit nvmlInit_v2
#define nvmlDeviceGetHandleByIndex nvmlDeviceGetHandleByIndex_v2
nvmlReturn_t DECLDIR nvmlInit_v2(void);
nvmlReturn_t DECLDIR nvmlShutdown(void);
const DECLDIR char *nvmlErrorString(nvmlReturn_t result);
nvmlReturn_t DECLDIR nvmlDeviceGetHandleByIndex_v2(unsigned int index, nvmlDevice_t *device);
nvmlReturn_t DECLDIR nvmlDeviceGetTotalEnergyConsumption(nvmlDevice_t device, unsigned long long *energy);
nvmlReturn_t DECLDIR nvmlDeviceGetFieldValues(nvmlDevice_t device, int valuesCount, nvmlFieldValue_t *values);
#ifdef __cplusplus
}
#endif
#endif
EOF
}

build_stub_so() { # $1 = output .so, $2 = soname, $3 = C source text
  local dir; dir="$(dirname "$1")"; mkdir -p "$dir"
  printf '%s\n' "$3" >"$dir/.$2.c"
  gcc -shared -fPIC -O0 -Wl,-soname,"$2" -o "$1" "$dir/.$2.c"
}

# Sets CUDA_CONF_DIR: the toolkit itself if it has what configure needs, else a
# scratch "shadow" toolkit (symlinks to the real one + generated stubs).
prepare_cuda() {
  [[ -x "$CUDA_DIR/bin/nvcc" ]] || die "no nvcc at $CUDA_DIR/bin/nvcc (set CUDA_DIR)"
  [[ -f "$CUDA_DIR/include/cuda.h" ]] || die "no $CUDA_DIR/include/cuda.h"
  local libdir
  if [[ -d "$CUDA_DIR/lib64" ]]; then libdir="$CUDA_DIR/lib64"; else libdir="$CUDA_DIR/lib"; fi
  local need_cuda_stub=0 need_nvml_h=0 need_nvml_stub=0
  [[ -e "$libdir/stubs/libcuda.so" ]] || need_cuda_stub=1
  if [[ "$WITH_NVML" == 1 ]]; then
    [[ -f "$CUDA_DIR/include/nvml.h" ]] || need_nvml_h=1
    [[ -e "$libdir/stubs/libnvidia-ml.so" ]] || need_nvml_stub=1
  fi
  if (( need_cuda_stub + need_nvml_h + need_nvml_stub == 0 )); then
    log "using toolkit stubs in $libdir/stubs (skipped from RPATH by PETSc's CUDA.py)"
    CUDA_CONF_DIR="$CUDA_DIR"
    STUB_DIR="$libdir/stubs"
    return 0
  fi
  local sh="$WORKDIR/cuda-shadow" f
  log "toolkit lacks driver stubs/headers; generating a shadow toolkit in $sh"
  rm -rf "$sh"; mkdir -p "$sh/include" "$sh/lib64/stubs"
  for f in "$CUDA_DIR"/*; do
    case "$(basename "$f")" in include|lib|lib64) ;; *) ln -s "$f" "$sh/" ;; esac
  done
  for f in "$CUDA_DIR/include"/*; do ln -s "$f" "$sh/include/"; done
  for f in "$libdir"/*; do [[ "$(basename "$f")" == stubs ]] || ln -s "$f" "$sh/lib64/"; done
  for f in "$libdir"/stubs/*; do if [[ -e "$f" ]]; then ln -s "$f" "$sh/lib64/stubs/"; fi; done
  STUB_DIR="$sh/lib64/stubs"
  if (( need_cuda_stub )); then
    build_stub_so "$STUB_DIR/libcuda.so" libcuda.so.1 \
      'int cuInit(unsigned int f){(void)f;return 100;} int cuDriverGetVersion(int*v){if(v)*v=0;return 100;}'
  fi
  if (( need_nvml_h )); then
    local mm; mm="$("$CUDA_DIR/bin/nvcc" --version | sed -n 's/.*release \([0-9]*\.[0-9]*\).*/\1/p')"
    rm -f "$sh/include/nvml.h"
    if pip_cmd download --no-deps "nvidia-nvml-dev==${mm}.*" -d "$WORKDIR/nvml-wheel" >/dev/null 2>&1 \
       && unzip -o -q "$WORKDIR"/nvml-wheel/nvidia_nvml_dev-*.whl -d "$WORKDIR/nvml-wheel/x" \
       && f="$(find "$WORKDIR/nvml-wheel/x" -name nvml.h | head -1)" && [[ -n "$f" ]]; then
      log "nvml.h from PyPI nvidia-nvml-dev==${mm}.*"; cp "$f" "$sh/include/nvml.h"
    else
      log "generating minimal nvml.h"; write_min_nvml_h "$sh/include/nvml.h"
    fi
  fi
  if (( need_nvml_stub )); then
    build_stub_so "$STUB_DIR/libnvidia-ml.so" libnvidia-ml.so.1 \
      'int nvmlInit_v2(void){return 999;} int nvmlInit(void){return 999;} int nvmlShutdown(void){return 0;}
const char*nvmlErrorString(int r){(void)r;return "stub";}
int nvmlDeviceGetHandleByIndex_v2(unsigned i,void**d){(void)i;(void)d;return 999;}
int nvmlDeviceGetTotalEnergyConsumption(void*d,unsigned long long*e){(void)d;(void)e;return 999;}
int nvmlDeviceGetFieldValues(void*d,int n,void*v){(void)d;(void)n;(void)v;return 999;}'
  fi
  CUDA_CONF_DIR="$sh"
  log "NOTE: libpetsc's RUNPATH will mention $sh/lib64 (harmless; stubs dir itself is skipped)"
}

# ---------------------------------------------------------------- configure options
read_options() { # fills CONF_OPTS from OPTIONS_FILE
  [[ -f "$OPTIONS_FILE" ]] || die "options file not found: $OPTIONS_FILE"
  CONF_OPTS=()
  local line opt
  while IFS= read -r line || [[ -n "$line" ]]; do
    line="${line%%$'\r'}"
    [[ "$line" =~ ^[[:space:]]*(#|$) ]] && continue
    opt="${line%%[[:space:]]#*}"                 # strip trailing ' # comment'
    opt="${opt#"${opt%%[![:space:]]*}"}"; opt="${opt%"${opt##*[![:space:]]}"}"
    [[ -n "$opt" ]] || continue
    opt="${opt//\$\{PREFIX\}/$PREFIX}"
    opt="${opt//\$\{CUDA_DIR\}/$CUDA_CONF_DIR}"
    opt="${opt//\$\{CUDA_ARCH\}/$CUDA_ARCH}"
    [[ "$opt" != *"\${"* ]] || die "unknown placeholder in option: $opt"
    CONF_OPTS+=("$opt")
  done <"$OPTIONS_FILE"
  if [[ "$WITH_NVML" == 1 ]]; then
    local i; for i in "${!CONF_OPTS[@]}"; do
      if [[ "${CONF_OPTS[i]}" == --with-cuda-nvml=* ]]; then CONF_OPTS[i]=--with-cuda-nvml=1; fi
    done
  fi
  CONF_OPTS+=("PETSC_ARCH=$PETSC_ARCH" "--with-make-np=$JOBS")
}

# ---------------------------------------------------------------- build
build() {
  install_deps
  fetch_source
  prepare_cuda
  read_options
  command -v mpicc >/dev/null || die "mpicc not found"
  cd "$SRC"
  export PETSC_DIR="$SRC"
  # OpenMPI refuses to run as root unless told; configure runs MPI test programs.
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  log "PETSc $PETSC_VERSION, CUDA arch $CUDA_ARCH, prefix $PREFIX, jobs $JOBS"
  log "configure options:"; printf '    %s\n' "${CONF_OPTS[@]}" >&2
  if ! python3 ./configure "${CONF_OPTS[@]}"; then
    log "configure failed; last lines of $SRC/configure.log:"
    tail -n 40 "$SRC/configure.log" >&2 || true
    die "configure failed (full log: $SRC/configure.log)"
  fi
  log "make all"
  make PETSC_DIR="$SRC" PETSC_ARCH="$PETSC_ARCH" MAKE_NP="$JOBS" all \
    || die "make all failed (see $SRC/$PETSC_ARCH/lib/petsc/conf/make.log)"
  log "make install"
  mkdir -p "$PREFIX"
  make PETSC_DIR="$SRC" PETSC_ARCH="$PETSC_ARCH" install || die "make install failed"
  check_install
}

check_install() {
  local lib; lib="$(readlink -f "$PREFIX/lib/libpetsc.so")"
  [[ -f "$lib" ]] || die "no $PREFIX/lib/libpetsc.so"
  local rp; rp="$(readelf -d "$lib" | sed -n 's/.*(\(RUNPATH\|RPATH\)).*\[\(.*\)\]/\2/p')"
  log "libpetsc RUNPATH: ${rp:-<none>}"
  if [[ ":$rp:" == *"/stubs:"* || ":$rp:" == *"/stubs/:"* ]]; then
    die "stub directory leaked into RUNPATH of $lib"
  fi
  if find "$PREFIX" \( -name 'libcuda.so*' -o -name 'libnvidia-ml.so*' \) | grep . >/dev/null; then
    die "driver stub library found inside $PREFIX"
  fi
  log "libpetsc NEEDED: $(readelf -d "$lib" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ')"
  # (no grep -q: with pipefail, nm's SIGPIPE would make the test fail)
  if nm -D --defined-only "$lib" | grep ' VecCUDAGetArrayRead$' >/dev/null; then
    log "VecCUDAGetArrayRead exported: ok"
  else
    die "VecCUDAGetArrayRead missing from $lib"
  fi
  smoke_link
  log "installed: $PREFIX ($(du -sh "$PREFIX" | cut -f1))"
}

# Compile+link (not run: no GPU here) a tiny program against the install.
# -rpath-link to the stub dir lets ld resolve libcuda.so.1 without a driver.
smoke_link() {
  local d="$WORKDIR/smoke"; mkdir -p "$d"
  cat >"$d/t.c" <<'EOF'
#include <petscvec.h>
#include <petscdevice_cuda.h>
int main(int argc, char **argv)
{
  Vec v; const PetscScalar *a;
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  PetscCall(VecCreateSeqCUDA(PETSC_COMM_SELF, 4, &v));
  PetscCall(VecCUDAGetArrayRead(v, &a));
  PetscCall(VecCUDARestoreArrayRead(v, &a));
  PetscCall(VecDestroy(&v));
  PetscCall(PetscFinalize());
  return 0;
}
EOF
  mpicc -O2 -I"$PREFIX/include" -I"$CUDA_DIR/include" "$d/t.c" -o "$d/t" \
    -L"$PREFIX/lib" -Wl,-rpath,"$PREFIX/lib" -Wl,-rpath-link,"$STUB_DIR" -lpetsc \
    || die "smoke link against $PREFIX failed"
  log "smoke test program compiled and linked: $d/t (run it on a GPU machine)"
}

# ---------------------------------------------------------------- carry copy
carry() {
  local dst="$1"
  [[ -e "$PREFIX/lib/libpetsc.so" ]] || die "no $PREFIX/lib/libpetsc.so: build first"
  [[ -n "$dst" && "$dst" != / ]] || die "bad carry dir"
  local abs_dst; abs_dst="$(mkdir -p "$dst" && cd "$dst" && pwd)"
  local abs_pre; abs_pre="$(cd "$PREFIX" && pwd)"
  [[ "$abs_dst" != "$abs_pre" ]] || die "carry dir must differ from PREFIX"
  log "packing carry copy of $PREFIX into $abs_dst"
  rm -rf "${abs_dst:?}/include" "${abs_dst:?}/lib"
  mkdir -p "$abs_dst/lib/petsc"
  cp -a "$PREFIX/include" "$abs_dst/"
  cp -a "$PREFIX"/lib/libpetsc.so* "$abs_dst/lib/"
  cp -a "$PREFIX/lib/petsc/conf" "$abs_dst/lib/petsc/"
  if [[ -d "$PREFIX/lib/pkgconfig" ]]; then cp -a "$PREFIX/lib/pkgconfig" "$abs_dst/lib/"; fi
  find "$abs_dst" \( -name '*.a' -o -name '*.la' \) -delete
  rm -f "$abs_dst/lib/petsc/conf/"*.log
  local f
  for f in "$abs_dst"/lib/libpetsc.so*; do
    if [[ ! -L "$f" ]]; then strip --strip-unneeded "$f"; fi
  done
  cat >"$abs_dst/README.txt" <<EOF
Stripped carry copy of the PETSc install at $abs_pre (PETSc $PETSC_VERSION, CUDA arch $CUDA_ARCH),
made by scripts/build-petsc-cuda.sh --carry on $(hostname) at $(date -u +%Y-%m-%dT%H:%MZ).
Use: build against $abs_pre on the build machine; on the GPU machine
  export LD_LIBRARY_PATH=\$PWD/lib:\$LD_LIBRARY_PATH
libpetsc.so NEEDED (must be found at run time: OpenMPI, LAPACK/BLAS, CUDA runtime libs, driver):
$(readelf -d "$(readlink -f "$abs_dst/lib/libpetsc.so")" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/  \1/p')
Note: lib/petsc/conf/petscvariables holds absolute paths of the build machine.
Note: Ubuntu/Debian OpenMPI is not CUDA-aware: run PETSc programs with -use_gpu_aware_mpi 0
      (or PETSC_OPTIONS=-use_gpu_aware_mpi 0), otherwise PetscInitialize aborts.
EOF
  local sz; sz="$(du -sm "$abs_dst" | cut -f1)"
  log "carry copy: $abs_dst (${sz} MiB)"
  (( sz <= 50 )) || log "WARNING: carry copy is larger than 50 MiB"
}

main() {
  parse_args "$@"
  if [[ $DO_BUILD -eq 1 ]]; then build; fi
  if [[ -n "$CARRY_DIR" ]]; then carry "$CARRY_DIR"; fi
  log "done"
}

main "$@"; exit $?
