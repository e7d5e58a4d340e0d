#!/usr/bin/env bash
# Debian's OpenBLAS (libopenblas0-pthread) as one compressed file to carry to the GPU machine, whose libblas.so.3 is the
# reference BLAS: CHOLMOD's and SuperLU's host factorizations of the large benchmark factors (bench -bench_factor
# cholesky|lu) call the BLAS, and the reference one makes the Cholesky factor of a 64^3 Laplacian take minutes.
#
#   bash scripts/carry-openblas.sh [DEST]        (default DEST: .carry/openblas.tar.xz, ignored by git; about 4 MB)
#
# The archive holds openblas/libblas.so.3 (the BLAS interface), libopenblas.so.0 and the library it names; the runs
# unpack it and put it first on LD_LIBRARY_PATH (tests/device/direct-env.sh). LAPACK stays the machine's (it calls
# the BLAS, so it gets OpenBLAS's too). Its one dependency beyond the C library, libgfortran.so.5, comes with LAPACK
# (and is carried in .carry/directlibs/lib/fallback). The plugin's own kernels and the tests never depend on it.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
DEST=${1:-.carry/openblas.tar.xz}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
(cd "$TMP" && apt-get download libopenblas0-pthread >/dev/null 2>&1) || { echo "carry-openblas: apt-get download libopenblas0-pthread failed" >&2; exit 1; }
dpkg -x "$TMP"/libopenblas0-pthread_*.deb "$TMP/x"
SRC=$(dirname "$(find "$TMP/x" -name libopenblas.so.0 | head -n 1)")
mkdir -p "$TMP/openblas"
cp -a "$SRC"/libblas.so.3 "$SRC"/libopenblas.so.0 "$SRC"/libopenblas*-r*.so "$TMP/openblas/"
mkdir -p "$(dirname "$DEST")"
tar -cJf "$DEST" -C "$TMP" openblas
echo "carry-openblas: $(dpkg-deb -f "$TMP"/libopenblas0-pthread_*.deb Package Version | paste -sd' ') -> $DEST ($(du -h "$DEST" | cut -f1))"
