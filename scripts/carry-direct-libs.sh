#!/usr/bin/env bash
# Copy what the plugin's LU (SuperLU) and Cholesky (CHOLMOD) factors need onto a machine without those packages (the
# GPU machine: Ubuntu 24.04 with CUDA, MPI and LAPACK only, no package registry) into a folder to carry there:
#
#   bash scripts/carry-direct-libs.sh [DEST]          (default DEST: .carry/directlibs, ignored by git)
#
#   DEST/include/superlu/       SuperLU's headers (the plugin is compiled on the GPU machine)
#   DEST/include/suitesparse/   CHOLMOD's headers and SuiteSparse_config.h, amd.h, camd.h, colamd.h, ccolamd.h
#   DEST/lib/                   libsuperlu.so.5, libcholmod.so.3 and their SuiteSparse/METIS dependencies (libamd,
#                               libcamd, libcolamd, libccolamd, libsuitesparseconfig, libmetis), plus the link-time
#                               names libsuperlu.so and libcholmod.so
#   DEST/lib/fallback/          the other libraries ldd resolves for them here that a bare Ubuntu may lack (libgomp:
#                               CHOLMOD uses OpenMP; libgfortran, libquadmath: LAPACK's, normally there with LAPACK);
#                               tests/device/run.sh puts a library from there on LD_LIBRARY_PATH only when ldd says
#                               it is missing on the GPU machine (never the C library, libm, libgcc_s: the GPU machine
#                               has newer ones; Debian 12's glibc 2.36 objects run on Ubuntu 24.04's 2.39)
#   DEST/MANIFEST.txt           what was copied, from where, with the Debian package versions
#
# Debian ships static archives of SuiteSparse (libcholmod.a, ...) but not of SuperLU, and its archives are not built
# for a shared library (no -fPIC guarantee), so the shared objects are carried for both; the makefile links them from
# DEST when DEST/lib exists (DIRECT_DIR, rpath DEST/lib) and tests/device/run.sh sets LD_LIBRARY_PATH for their own
# dependencies. Carry DEST with the run tool (carry: [".carry/directlibs"], beside .petsc-cuda).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
DEST=${1:-.carry/directlibs}
LIBDIR=${SPTRSV_DIRECT_LIBDIR:-/usr/lib/x86_64-linux-gnu}
NEEDED=(libsuperlu.so.5 libcholmod.so.3 libamd.so.2 libcamd.so.2 libcolamd.so.2 libccolamd.so.2 libsuitesparseconfig.so.5 libmetis.so.5)
# present on any Linux the plugin runs on, or newer there: never carried
SYSTEM_RE='^(linux-vdso|ld-linux|libc|libm|libdl|libpthread|librt|libgcc_s|libstdc\+\+|libblas|liblapack)\.so'

for f in "${NEEDED[@]}"; do
  [ -e "$LIBDIR/$f" ] || { echo "carry-direct-libs: $LIBDIR/$f not found (apt-get install libsuperlu-dev libsuitesparse-dev)" >&2; exit 1; }
done
if ! [ -f /usr/include/superlu/slu_ddefs.h ] || ! [ -f /usr/include/suitesparse/cholmod.h ]; then
  echo "carry-direct-libs: headers not found (apt-get install libsuperlu-dev libsuitesparse-dev)" >&2
  exit 1
fi

rm -rf "$DEST"
mkdir -p "$DEST/include/superlu" "$DEST/include/suitesparse" "$DEST/lib/fallback"
cp /usr/include/superlu/*.h "$DEST/include/superlu/"
cp /usr/include/suitesparse/cholmod*.h /usr/include/suitesparse/SuiteSparse_config.h /usr/include/suitesparse/{amd,camd,colamd,ccolamd}.h "$DEST/include/suitesparse/"
for f in "${NEEDED[@]}"; do cp -L "$LIBDIR/$f" "$DEST/lib/$f"; done
ln -sf libsuperlu.so.5 "$DEST/lib/libsuperlu.so"
ln -sf libcholmod.so.3 "$DEST/lib/libcholmod.so"

# everything else the two libraries load here: system libraries skipped, the rest kept as fallbacks
{
  echo "# carried by scripts/carry-direct-libs.sh on $(hostname) $(date -u +%Y-%m-%dT%H:%MZ)"
  for p in libsuperlu5 libsuperlu-dev libcholmod3 libsuitesparse-dev libmetis5; do dpkg-query -W -f='${Package} ${Version}\n' "$p" 2>/dev/null || true; done
  echo "# lib/: ${NEEDED[*]}"
} >"$DEST/MANIFEST.txt"
ldd "$LIBDIR/libsuperlu.so.5" "$LIBDIR/libcholmod.so.3" | awk '/=>/ {print $1, $3}' | sort -u | while read -r name path; do
  case " ${NEEDED[*]} " in *" $name "*) continue ;; esac
  if [[ $name =~ $SYSTEM_RE ]]; then echo "# system, not carried: $name ($path)" >>"$DEST/MANIFEST.txt"; continue; fi
  cp -L "$path" "$DEST/lib/fallback/$name"
  echo "# fallback: $name ($path)" >>"$DEST/MANIFEST.txt"
done
du -sh "$DEST" | awk '{print "carry-direct-libs: " $1 " in " $2}'
cat "$DEST/MANIFEST.txt"
