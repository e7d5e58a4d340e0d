# sourced by tests/run-tests.sh (its helpers, variables and run_test); not a program of its own
# shellcheck shell=bash disable=SC2154
# h. scripts/compare.sh: one program run with PETSc's solver and with the plugin's paths, one table
#    compare_script "ARGS": compare.sh --paths "$CMP_PATHS" -- ex2 ARGS exits 0 and prints one row per run (petsc first,
#    then the paths in order), every run converged, the sptrsv_* rows have the native row's iterations, every time
#    cell is "SECONDS (RATIOx)" and the first row's ratios are 1.00x
CMP_PATHS="sptrsv_level sptrsv_element sptrsv_syncfree sptrsv_locality gs isai"
compare_script() {
  local o=$OUT/compare.out
  need_file "$OUT/bin/ex2" "see the build/programs test" || return 1
  # shellcheck disable=SC2086
  prun "$o" bash scripts/compare.sh --paths "$CMP_PATHS" -- "$OUT/bin/ex2" $1 || fail "compare.sh exited nonzero" || return 1
  # shellcheck disable=SC2086
  python3 - "$o" petsc $CMP_PATHS <<'PY'
import re, sys
lines = open(sys.argv[1]).read().splitlines()
want = sys.argv[2:]
hdr = [i for i, l in enumerate(lines) if l.startswith("run ")]
if len(hdr) != 1:
    sys.exit("FAIL: expected one table header line ('run ...'), found %d" % len(hdr))
rows = []
for l in lines[hdr[0] + 2:]:
    if not l.strip() or l.startswith("("):
        break
    rows.append(re.split(r"\s{2,}", l.strip()))
names = [r[0] for r in rows]
bad = []
if names != want:
    bad.append("rows %s, expected one per run: %s" % (names, want))
cell = re.compile(r"^\d\.\d{3}e[-+]\d\d \((\d+\.\d\d)x\)$")
for r in rows:
    if len(r) != 7:
        bad.append("row %s has %d columns, expected 7" % (r[0], len(r)))
        continue
    if not r[2].startswith("CONVERGED"):
        bad.append("%s did not converge: %s" % (r[0], r[2]))
    for c in r[3:]:
        m = cell.match(c)
        if not m:
            bad.append("%s: time cell '%s' is not 'SECONDS (RATIOx)'" % (r[0], c))
        elif r is rows[0] and m.group(1) != "1.00":
            bad.append("first row's ratio is %sx, expected 1.00x" % m.group(1))
its = {r[0]: r[1] for r in rows if len(r) > 1}
for p in ("sptrsv_level", "sptrsv_element", "sptrsv_syncfree", "sptrsv_locality"):
    if p in its and its[p] != its.get("petsc"):
        bad.append("%s took %s iterations, petsc %s" % (p, its[p], its.get("petsc")))
print("rows: %s; iterations: %s" % (", ".join(names), ", ".join("%s %s" % kv for kv in its.items())))
for b in bad:
    print("FAIL:", b)
sys.exit(1 if bad else 0)
PY
}

# compare.sh's bad invocations: no "--" before the program, no program, an unknown path: exit 2 with a usage message
compare_script_usage() {
  local o=$OUT/compare.out rc
  prun "$o" bash scripts/compare.sh "$OUT/bin/ex2" -m 10 -n 10
  rc=$?
  [ $rc = 2 ] || fail "exit $rc without --, expected 2" || return 1
  grep -q "^usage: scripts/compare.sh .* -- ./app ARGS" "$o" || fail "no usage line without --" || return 1
  grep -q "missing -- \|expected options, then --" "$o" || fail "the message does not say -- is missing" || return 1
  prun "$o" bash scripts/compare.sh --paths sptrsv_level --
  rc=$?
  [ $rc = 2 ] && grep -q "no program after --" "$o" || fail "no program after --: exit $rc" || return 1
  prun "$o" bash scripts/compare.sh --paths "sptrsv_level nosuchpath" -- "$OUT/bin/ex2"
  rc=$?
  [ $rc = 2 ] && grep -q "unknown path 'nosuchpath'" "$o" || fail "unknown path: exit $rc"
}
run_test compare/ex2-table compare_script "-m 20 -n 20 -ksp_type gmres -pc_type ilu"
run_test compare/usage compare_script_usage
