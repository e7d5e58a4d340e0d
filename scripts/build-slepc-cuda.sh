#!/usr/bin/env bash
# Build and install SLEPc against the CUDA PETSc made by scripts/build-petsc-cuda.sh, on a machine WITHOUT a
# GPU/driver, and/or pack a stripped copy of the install to carry to a GPU machine beside .petsc-cuda.
# Run with --help for usage.
set -euo pipefail

: "${PREFIX:=/opt/slepc-cuda}"
: "${PETSC_DIR:=/opt/petsc-cuda}"
: "${SLEPC_VERSION:=3.26.1}"
: "${JOBS:=$(nproc 2>/dev/null || echo 2)}"
: "${WORKDIR:=/tmp/slepc-cuda-build}"
: "${SLEPC_TARBALL:=}"
CARRY_DIR=""
DO_BUILD=1
CLEAN=0

usage() {
  cat <<EOF
Usage: $(basename "$0") [options]

Build SLEPc from PyPI's source distribution against an installed CUDA PETSc (PETSC_DIR, a prefix install:
PETSC_ARCH empty) and install it into PREFIX, on a machine that has the CUDA toolkit but no GPU driver.
Optionally pack a stripped copy (headers + libslepc.so + conf) to carry to a GPU machine.

Options (each also settable through the environment variable in brackets):
  --prefix DIR          install prefix                          [PREFIX=$PREFIX]
  --petsc-dir DIR       the CUDA PETSc install to build against [PETSC_DIR=$PETSC_DIR]
  --slepc-version VER   SLEPc version from PyPI (must match     [SLEPC_VERSION=$SLEPC_VERSION]
                        PETSc's major.minor)
  --tarball FILE        use this slepc-VER.tar.gz instead of    [SLEPC_TARBALL=$SLEPC_TARBALL]
                        a download (no network needed)
  --jobs N              parallel make jobs                      [JOBS=$JOBS]
  --workdir DIR         scratch dir (source, build, smoke test) [WORKDIR=$WORKDIR]
  --clean               delete the unpacked source tree in WORKDIR first
  --with-carry DIR      build + install, then pack a carry copy into DIR
  --carry DIR           only pack a carry copy of an existing PREFIX into DIR (no build): include/ (no Fortran
                        modules), lib/libslepc.so* (stripped), lib/slepc/conf/, lib/pkgconfig/, SLEPc's small
                        test matrices (share/slepc/datafiles/matrices); no static libs, docs, examples or logs
  -h, --help            show this help

The source is the PyPI sdist (its file, through PyPI's simple index, sha256 checked; not pip download, which would build
PETSc from source to read the sdist's metadata)
Driver stubs: libslepc.so links libpetsc.so, which needs libcuda.so.1; the link resolves it through the toolkit's
lib64/stubs (-rpath-link only: the stubs never enter an RPATH or PREFIX).

Examples:
  JOBS=2 $(basename "$0")                            # build + install into $PREFIX
  $(basename "$0") --carry .slepc-cuda               # pack an existing install (next to .petsc-cuda)
  On the GPU machine: tests/device/run.sh relocates both copies (tests/device/slepc-relocate.sh) and puts their
  lib/ into LD_LIBRARY_PATH.
EOF
}

log() { printf '[build-slepc-cuda %(%H:%M:%S)T] %s\n' -1 "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }

parse_args() {
  while [[ $# -gt 0 ]]; do
    case "$1" in
      -h|--help) usage; exit 0 ;;
      --prefix) PREFIX="$2"; shift 2 ;;
      --petsc-dir) PETSC_DIR="$2"; shift 2 ;;
      --slepc-version) SLEPC_VERSION="$2"; shift 2 ;;
      --tarball) SLEPC_TARBALL="$2"; shift 2 ;;
      --jobs) JOBS="$2"; shift 2 ;;
      --workdir) WORKDIR="$2"; shift 2 ;;
      --clean) CLEAN=1; shift ;;
      --with-carry) CARRY_DIR="$2"; shift 2 ;;
      --carry) CARRY_DIR="$2"; DO_BUILD=0; shift 2 ;;
      *) usage >&2; die "unknown argument: $1" ;;
    esac
  done
  # the build cd's into the source tree: relative paths mean relative to where we were called
  if [[ -n "$CARRY_DIR" && "$CARRY_DIR" != /* ]]; then CARRY_DIR="$PWD/$CARRY_DIR"; fi
  if [[ -n "$SLEPC_TARBALL" && "$SLEPC_TARBALL" != /* ]]; then SLEPC_TARBALL="$PWD/$SLEPC_TARBALL"; fi
  [[ "$JOBS" =~ ^[0-9]+$ && "$JOBS" -ge 1 ]] || die "JOBS must be a positive integer"
  [[ "$SLEPC_VERSION" =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || die "bad SLEPC_VERSION: $SLEPC_VERSION"
}

# ---------------------------------------------------------------- deps
install_deps() {
  local pkgs=(python3 make gcc g++ binutils tar gzip libopenmpi-dev openmpi-bin liblapack-dev libblas-dev)
  local missing=() p
  command -v dpkg-query >/dev/null || { log "no dpkg: not checking Debian build deps"; return 0; }
  for p in "${pkgs[@]}"; do
    [[ "$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)" == "install ok installed" ]] || missing+=("$p")
  done
  if [[ -z "$SLEPC_TARBALL" ]] && ! command -v python3 >/dev/null; then
    missing+=(python3) # the download (PyPI's JSON API)
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

# PETSc's version as MAJOR.MINOR.SUBMINOR from its petscversion.h
petsc_version() {
  local h="$PETSC_DIR/include/petscversion.h"
  [[ -f "$h" ]] || die "no $h: is PETSC_DIR=$PETSC_DIR a PETSc install? (scripts/build-petsc-cuda.sh makes one)"
  sed -n 's/^#define PETSC_VERSION_\(MAJOR\|MINOR\|SUBMINOR\) *\([0-9]*\).*/\2/p' "$h" | paste -sd. -
}

check_petsc() {
  [[ -f "$PETSC_DIR/lib/petsc/conf/petscvariables" ]] || die "no $PETSC_DIR/lib/petsc/conf/petscvariables"
  [[ -e "$PETSC_DIR/lib/libpetsc.so" ]] || die "no $PETSC_DIR/lib/libpetsc.so"
  local pv; pv="$(petsc_version)"
  [[ "${pv%.*}" == "${SLEPC_VERSION%.*}" ]] || die "SLEPc $SLEPC_VERSION needs PETSc ${SLEPC_VERSION%.*}.x; $PETSC_DIR is PETSc $pv"
  grep -q '^#define PETSC_HAVE_CUDA 1' "$PETSC_DIR/include/petscconf.h" \
    || log "NOTE: $PETSC_DIR is not a CUDA PETSc (no PETSC_HAVE_CUDA); building anyway"
  PETSC_VER="$pv"
}

# ---------------------------------------------------------------- source
fetch_source() {
  mkdir -p "$WORKDIR"
  local tarball="$WORKDIR/slepc-$SLEPC_VERSION.tar.gz"
  SRC="$WORKDIR/slepc-$SLEPC_VERSION"
  if [[ ! -s "$tarball" && -n "$SLEPC_TARBALL" ]]; then
    [[ -s "$SLEPC_TARBALL" ]] || die "no tarball $SLEPC_TARBALL"
    log "using $SLEPC_TARBALL"; cp "$SLEPC_TARBALL" "$tarball"
  fi
  if [[ ! -s "$tarball" ]]; then
    # the sdist file itself, found through PyPI's simple index (PEP 503: the link carries its sha256, checked). Not
    # `pip download`: to read an sdist's metadata pip installs its build requirements, and slepc's is petsc, which pip
    # then builds from source (a whole PETSc build, tens of minutes on 2 cores) only to throw it away
    log "downloading the slepc==$SLEPC_VERSION sdist from PyPI"
    python3 - "$SLEPC_VERSION" "$tarball" <<'PY' || die "could not download the slepc==$SLEPC_VERSION sdist from PyPI"
import hashlib, re, sys, urllib.request
ver, out = sys.argv[1], sys.argv[2]
page = urllib.request.urlopen("https://pypi.org/simple/slepc/", timeout=60).read().decode()
links = re.findall(r'href="([^"]*/slepc-%s\.tar\.gz)#sha256=([0-9a-f]{64})"' % re.escape(ver), page)
if not links:
    sys.exit("PyPI's index lists no sdist slepc-%s.tar.gz" % ver)
url, sha = links[0]
data = urllib.request.urlopen(url, timeout=300).read()
if hashlib.sha256(data).hexdigest() != sha:
    sys.exit("sha256 mismatch for %s" % url)
open(out, "wb").write(data)
print("%s: %d bytes, sha256 ok" % (url.rsplit("/", 1)[-1], len(data)))
PY
  fi
  [[ -s "$tarball" ]] || die "expected $tarball after the download"
  if [[ $CLEAN -eq 1 && -d "$SRC" ]]; then log "removing $SRC"; rm -rf "$SRC"; fi
  if [[ ! -f "$SRC/configure" ]]; then
    log "unpacking $tarball"
    tar -xzf "$tarball" -C "$WORKDIR"
  fi
  [[ -f "$SRC/configure" ]] || die "no configure in $SRC"
}

# the toolkit's driver stubs (libcuda.so), to resolve libpetsc.so's libcuda.so.1 at link time only
stub_dir() {
  local cuda d
  cuda="$(sed -n 's/^CUDAC *= *\(.*\)\/bin\/nvcc.*/\1/p' "$PETSC_DIR/lib/petsc/conf/petscvariables" | head -n 1)"
  for d in "$cuda/lib64/stubs" "$cuda/lib/stubs" /usr/local/cuda/lib64/stubs /usr/local/cuda/lib/stubs \
           /tmp/petsc-cuda-build/cuda-shadow/lib64/stubs; do
    if [[ -e "$d/libcuda.so" ]]; then echo "$d"; return 0; fi
  done
  return 1
}

# ---------------------------------------------------------------- build
build() {
  install_deps
  check_petsc
  fetch_source
  command -v mpicc >/dev/null || die "mpicc not found"
  STUB_DIR="$(stub_dir || true)"
  [[ -n "$STUB_DIR" ]] || log "NOTE: no driver stubs found (libcuda.so); the link may fail without a driver"
  cd "$SRC"
  # a prefix-installed PETSc has no PETSC_ARCH: SLEPc then builds in $SRC/installed-<arch> by itself
  unset PETSC_ARCH
  export SLEPC_DIR="$SRC" PETSC_DIR
  # OpenMPI refuses to run as root unless told; configure may run MPI test programs.
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  log "SLEPc $SLEPC_VERSION against PETSc $PETSC_VER at $PETSC_DIR, prefix $PREFIX, jobs $JOBS"
  if ! python3 ./configure --prefix="$PREFIX"; then
    log "configure failed; last lines of the log:"
    tail -n 40 "$SRC"/installed-*/lib/slepc/conf/configure.log 2>/dev/null >&2 || true
    die "configure failed (log: $SRC/installed-*/lib/slepc/conf/configure.log)"
  fi
  log "make all"
  make SLEPC_DIR="$SRC" PETSC_DIR="$PETSC_DIR" MAKE_NP="$JOBS" all \
    || die "make all failed (see $SRC/installed-*/lib/slepc/conf/make.log)"
  log "make install"
  mkdir -p "$PREFIX"
  make SLEPC_DIR="$SRC" PETSC_DIR="$PETSC_DIR" install || die "make install failed"
  check_install
}

check_install() {
  local lib; lib="$(readlink -f "$PREFIX/lib/libslepc.so")"
  [[ -f "$lib" ]] || die "no $PREFIX/lib/libslepc.so"
  local rp; rp="$(readelf -d "$lib" | sed -n 's/.*(\(RUNPATH\|RPATH\)).*\[\(.*\)\]/\2/p')"
  log "libslepc RUNPATH: ${rp:-<none>}"
  if [[ ":$rp:" == *"/stubs:"* || ":$rp:" == *"/stubs/:"* ]]; then
    die "stub directory leaked into RUNPATH of $lib"
  fi
  if find "$PREFIX" \( -name 'libcuda.so*' -o -name 'libnvidia-ml.so*' \) | grep . >/dev/null; then
    die "driver stub library found inside $PREFIX"
  fi
  log "libslepc NEEDED: $(readelf -d "$lib" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ')"
  # (no grep -q: with pipefail, nm's SIGPIPE would make the test fail)
  if nm -D --defined-only "$lib" | grep ' EPSSolve$' >/dev/null; then log "EPSSolve exported: ok"; else die "EPSSolve missing from $lib"; fi
  # SLEPc's CUDA code (BV, FN kernels) follows PETSC_HAVE_CUDA: libslepc then needs the CUDA runtime
  if readelf -d "$lib" | grep 'NEEDED.*libcudart' >/dev/null; then log "CUDA code compiled in (libcudart NEEDED): ok"
  else log "NOTE: libslepc does not link libcudart: no CUDA code in it"; fi
  smoke_link
  log "installed: $PREFIX ($(du -sh "$PREFIX" | cut -f1))"
}

# Compile+link (not run: no GPU here) a tiny shift-and-invert program against the install.
smoke_link() {
  local d="$WORKDIR/smoke"; mkdir -p "$d"
  cat >"$d/t.c" <<'EOF'
#include <slepceps.h>
int main(int argc, char **argv)
{
  EPS eps; ST st;
  PetscCall(SlepcInitialize(&argc, &argv, NULL, NULL));
  PetscCall(EPSCreate(PETSC_COMM_WORLD, &eps));
  PetscCall(EPSGetST(eps, &st));
  PetscCall(STSetType(st, STSINVERT));
  PetscCall(EPSDestroy(&eps));
  PetscCall(SlepcFinalize());
  return 0;
}
EOF
  mpicc -O2 -I"$PREFIX/include" -I"$PETSC_DIR/include" "$d/t.c" -o "$d/t" \
    -L"$PREFIX/lib" -Wl,-rpath,"$PREFIX/lib" -L"$PETSC_DIR/lib" -Wl,-rpath,"$PETSC_DIR/lib" \
    ${STUB_DIR:+-Wl,-rpath-link,"$STUB_DIR"} -lslepc -lpetsc || die "smoke link against $PREFIX failed"
  log "smoke test program compiled and linked: $d/t (run it on a GPU machine)"
}

# ---------------------------------------------------------------- carry copy
carry() {
  local dst="$1"
  [[ -e "$PREFIX/lib/libslepc.so" ]] || die "no $PREFIX/lib/libslepc.so: build first"
  [[ -n "$dst" && "$dst" != / ]] || die "bad carry dir"
  local abs_dst; abs_dst="$(mkdir -p "$dst" && cd "$dst" && pwd)"
  local abs_pre; abs_pre="$(cd "$PREFIX" && pwd)"
  [[ "$abs_dst" != "$abs_pre" ]] || die "carry dir must differ from PREFIX"
  log "packing carry copy of $PREFIX into $abs_dst"
  rm -rf "${abs_dst:?}/include" "${abs_dst:?}/lib" "${abs_dst:?}/share"
  mkdir -p "$abs_dst/lib/slepc"
  cp -a "$PREFIX/include" "$abs_dst/"
  cp -a "$PREFIX"/lib/libslepc.so* "$abs_dst/lib/"
  cp -a "$PREFIX/lib/slepc/conf" "$abs_dst/lib/slepc/"
  if [[ -d "$PREFIX/lib/pkgconfig" ]]; then cp -a "$PREFIX/lib/pkgconfig" "$abs_dst/lib/"; fi
  # SLEPc's own small test matrices (bfw62a/b, rdb200, speaker107*: about 100 KB), read by the device step's
  # generalized problem from files
  if [[ -d "$PREFIX/share/slepc/datafiles/matrices" ]]; then
    mkdir -p "$abs_dst/share/slepc/datafiles"
    cp -a "$PREFIX/share/slepc/datafiles/matrices" "$abs_dst/share/slepc/datafiles/"
  fi
  # no static libraries, Fortran modules, logs or test harness files: C programs need none of them
  find "$abs_dst" \( -name '*.a' -o -name '*.la' -o -name '*.mod' \) -delete
  rm -f "$abs_dst/lib/slepc/conf/"*.log "$abs_dst/lib/slepc/conf/"*.py
  rm -rf "$abs_dst/lib/slepc/conf/__pycache__"
  local f
  for f in "$abs_dst"/lib/libslepc.so*; do
    if [[ ! -L "$f" ]]; then strip --strip-unneeded "$f"; fi
  done
  local pre_petsc; pre_petsc="$(cd "$PETSC_DIR" 2>/dev/null && pwd || echo "$PETSC_DIR")"
  cat >"$abs_dst/README.txt" <<EOF
Stripped carry copy of the SLEPc install at $abs_pre (SLEPc $SLEPC_VERSION, built against the PETSc at $pre_petsc),
made by scripts/build-slepc-cuda.sh --carry on $(hostname) at $(date -u +%Y-%m-%dT%H:%MZ).
Use it beside the carried PETSc (.petsc-cuda, scripts/build-petsc-cuda.sh --carry); on the GPU machine
  export LD_LIBRARY_PATH=\$PWD/lib:/path/to/.petsc-cuda/lib:\$LD_LIBRARY_PATH
libslepc.so NEEDED (must be found at run time):
$(readelf -d "$(readlink -f "$abs_dst/lib/libslepc.so")" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/  \1/p')
Note: lib/slepc/conf/* and lib/pkgconfig/*.pc hold the absolute paths $abs_pre and $pre_petsc of the build machine;
      tests/device/slepc-relocate.sh rewrites them to where the copies lie.
EOF
  local sz; sz="$(du -sm "$abs_dst" | cut -f1)"
  log "carry copy: $abs_dst (${sz} MiB)"
  (( sz <= 20 )) || log "WARNING: carry copy is larger than 20 MiB (with .petsc-cuda's 37 MiB the carry limit is 64 MiB)"
}

main() {
  parse_args "$@"
  if [[ $DO_BUILD -eq 1 ]]; then build; fi
  if [[ -n "$CARRY_DIR" ]]; then
    if [[ $DO_BUILD -eq 0 ]]; then PETSC_VER="$(petsc_version 2>/dev/null || echo '?')"; fi
    carry "$CARRY_DIR"
  fi
  log "done"
}

main "$@"; exit $?
