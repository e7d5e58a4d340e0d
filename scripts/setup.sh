#!/usr/bin/env bash
# petsc-sptrsv: install what the build and the tests need on Debian/Ubuntu (when missing), then run make.
#   scripts/setup.sh demo     build the plugin and run the demo
#   scripts/setup.sh check    build everything and run the test suite
#   scripts/setup.sh          build lib/libpetscsptrsv.so
# Installing packages needs root or sudo; with everything installed it only runs make.
# Set SPTRSV_NO_APT=1 to skip the package step (e.g. with your own PETSc: PETSC_DIR=... scripts/setup.sh).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

PKGS=(petsc-dev slepc-dev openmpi-bin libopenmpi-dev zlib1g-dev make gcc python3 gzip libsuperlu-dev libsuitesparse-dev)

installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }

if [ "${SPTRSV_NO_APT:-0}" != 1 ] && command -v dpkg-query >/dev/null 2>&1; then
  SUDO=()
  if [ "$(id -u)" != 0 ]; then
    if command -v sudo >/dev/null 2>&1; then SUDO=(sudo); else SUDO=(false); fi
  fi
  apt_install() {
    echo "setup: installing Debian packages: $*"
    if [ "${SUDO[0]:-}" = false ]; then
      echo "setup: need root to install them; run as root:  apt-get install --no-install-recommends $*" >&2
      exit 1
    fi
    if [ -z "${SPTRSV_APT_UPDATED:-}" ]; then
      "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q
      SPTRSV_APT_UPDATED=1
    fi
    "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "$@"
  }
  missing=()
  for p in "${PKGS[@]}"; do installed "$p" || missing+=("$p"); done
  [ ${#missing[@]} -eq 0 ] || apt_install "${missing[@]}"
  # PETSc's tutorial sources (the tests build ksp ex2/ex45 and snes ex19): the package of the installed PETSc
  ver=$(sed -n 's/^#define PETSC_VERSION_\(MAJOR\|MINOR\) *\([0-9]*\).*/\2/p' /usr/lib/petsc/include/petscversion.h 2>/dev/null | paste -sd. -)
  if [ -n "$ver" ] && ! installed "libpetsc$ver-dev-examples"; then apt_install "libpetsc$ver-dev-examples"; fi
fi

echo "setup: make -j$(nproc) $*"
exec make -j"$(nproc)" "$@"
