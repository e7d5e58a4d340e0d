# Sourced by tests/device/run.sh and examples/benchmarks/run-device.sh.
# relocate_petsc: a carried PETSc install (PETSC_DIR) names the prefix it was installed into in its conf and
# pkg-config files; rewrite them to where it lies now, unless that prefix exists on this machine.
# shellcheck shell=bash
# shellcheck disable=SC2317 # called through step
relocate_petsc() {
  local new old conf=$PETSC_DIR/lib/petsc/conf
  new=$(cd "$PETSC_DIR" && pwd -P)
  old=$(sed -n 's/^prefix=//p' "$PETSC_DIR"/lib/pkgconfig/*.pc 2>/dev/null | head -n 1)
  [ -n "$old" ] || old=$(sed -n 's/^PETSC_CC_INCLUDES *= *-I\([^ ]*\)\/include.*/\1/p' "$conf/petscvariables" | head -n 1)
  if [ -z "$old" ] || [ "$old" = "$new" ] || [ "$old" = "$PETSC_DIR" ]; then
    echo "PETSc at $PETSC_DIR: no relocation needed (prefix '${old:-?}')"
    return 0
  fi
  if [ -d "$old/lib/petsc/conf" ]; then
    echo "PETSc prefix $old exists on this machine; not touching $PETSC_DIR"
    return 0
  fi
  echo "relocating PETSc configuration files: $old -> $new"
  grep -rlI --null -F "$old" "$conf" "$PETSC_DIR/lib/pkgconfig" 2>/dev/null | xargs -0 -r sed -i "s#$old#$new#g"
}
