# Sourced by tests/device/run.sh (beside petsc-relocate.sh).
# relocate_slepc: a carried SLEPc install (SLEPC_DIR, made by scripts/build-slepc-cuda.sh --carry) names the prefix it was
# installed into, and the PETSc it was built against, in its conf and pkg-config files; rewrite both to where the copies
# lie now (SLEPC_DIR and PETSC_DIR), unless that prefix exists on this machine. Programs built by the makefile need only
# SLEPC_DIR/include and SLEPC_DIR/lib; this keeps SLEPc's own makefiles (slepc_common, slepc_variables) usable too.
# shellcheck shell=bash
# shellcheck disable=SC2317 # called through step
relocate_slepc() {
  local new old oldpetsc newpetsc conf=$SLEPC_DIR/lib/slepc/conf
  new=$(cd "$SLEPC_DIR" && pwd -P)
  newpetsc=$(cd "$PETSC_DIR" && pwd -P)
  old=$(sed -n 's/^prefix=//p' "$SLEPC_DIR"/lib/pkgconfig/*.pc 2>/dev/null | head -n 1)
  [ -n "$old" ] || old=$(sed -n 's/^SLEPC_INSTALLDIR *= *//p' "$conf/slepcvariables" | head -n 1)
  oldpetsc=$(sed -n 's/^include \(.*\)\/lib\/petsc\/conf\/petscvariables$/\1/p' "$conf/slepcvariables" | head -n 1)
  if [ -z "$old" ] || [ "$old" = "$new" ] || [ "$old" = "$SLEPC_DIR" ]; then
    echo "SLEPc at $SLEPC_DIR: no relocation needed (prefix '${old:-?}')"
  elif [ -d "$old/lib/slepc/conf" ]; then
    echo "SLEPc prefix $old exists on this machine; not touching $SLEPC_DIR"
    return 0
  else
    echo "relocating SLEPc configuration files: $old -> $new"
    grep -rlI --null -F "$old" "$conf" "$SLEPC_DIR/lib/pkgconfig" 2>/dev/null | xargs -0 -r sed -i "s#$old#$new#g"
  fi
  if [ -n "$oldpetsc" ] && [ "$oldpetsc" != "$newpetsc" ] && [ ! -d "$oldpetsc/lib/petsc/conf" ]; then
    echo "SLEPc's PETSc: $oldpetsc -> $newpetsc"
    grep -rlI --null -F "$oldpetsc" "$conf" "$SLEPC_DIR/lib/pkgconfig" 2>/dev/null | xargs -0 -r sed -i "s#$oldpetsc#$newpetsc#g"
  fi
  if [ ! -f "$SLEPC_DIR/include/slepceps.h" ] || [ ! -e "$SLEPC_DIR/lib/libslepc.so" ]; then
    echo "no SLEPc at $SLEPC_DIR (include/slepceps.h, lib/libslepc.so)"
    return 1
  fi
}
