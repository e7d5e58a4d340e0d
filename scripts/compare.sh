#!/usr/bin/env bash
# petsc-sptrsv: run a PETSc program with PETSc's own solver and with the plugin's paths, and print one table.
#
#   scripts/compare.sh [--paths "sptrsv_level sptrsv_element gs isai"] [--logs DIR] [--lib SO] -- ./app ARGS...
#
# The program runs once as given (PETSc's own solver: the row "petsc"), then once per path:
#   sptrsv_*   ARGS -dll_append <lib> -pc_factor_mat_solver_type NAME   (e.g. sptrsv_level, sptrsv_element, sptrsv_syncfree)
#   gs, isai   ARGS -dll_append <lib> -pc_type gs / -pc_type isai
# Every run gets -ksp_converged_reason -log_view (and -log_view_gpu_time with a CUDA PETSc: the program links
# a libpetsc whose petscconf.h, or that of $PETSC_DIR, defines PETSC_HAVE_CUDA, or its -log_view has GPU
# columns). The table has one row per run: total linear iterations, the (last) converged reason, and the
# KSPSolve, PCSetUp, PCApply (MatSolve when there is no PCApply) and MatMult times of -log_view (max over
# ranks, summed over stages), each with its ratio to the first run. The options go last, so they override
# the same options in ARGS; ARGS may start with an MPI launcher (-- mpiexec -n 2 ./app ...).
#
# Options: --paths LIST   paths to run after PETSc's own (default "sptrsv_level sptrsv_element sptrsv_syncfree")
#          --logs DIR     keep each run's output in DIR/<run>.log (default: a temporary folder, removed)
#          --lib SO       the plugin (default <repository>/lib/libpetscsptrsv.so)
# Exit status: 0 iff every run exited 0 and printed a -log_view; 2 for a usage error.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
LIB=$ROOT/lib/libpetscsptrsv.so
PATHS="sptrsv_level sptrsv_element sptrsv_syncfree"
LOGDIR=""

usage() {
  cat >&2 <<EOF
usage: scripts/compare.sh [--paths "sptrsv_level sptrsv_element gs isai"] [--logs DIR] [--lib SO] -- ./app ARGS...
  runs ./app ARGS with PETSc's own solver, then once per path (default paths: sptrsv_level sptrsv_element sptrsv_syncfree),
  each with -log_view, and prints one table of iterations and times (scripts/compare.sh --help for more)
EOF
  [ -n "${1:-}" ] && echo "compare.sh: $1" >&2
  exit 2
}

DASHDASH=0
while [ $# -gt 0 ]; do
  case $1 in
    --paths) [ $# -ge 2 ] || usage "--paths needs a list"; PATHS=$2; shift 2 ;;
    --paths=*) PATHS=${1#--paths=}; shift ;;
    --logs) [ $# -ge 2 ] || usage "--logs needs a folder"; LOGDIR=$2; shift 2 ;;
    --lib) [ $# -ge 2 ] || usage "--lib needs a file"; LIB=$2; shift 2 ;;
    -h | --help) sed -n '2,19p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    --) DASHDASH=1; shift; break ;;
    *) usage "expected options, then -- and the program to run (got '$1')" ;;
  esac
done
[ "$DASHDASH" = 1 ] || usage "missing -- before the program to run"
[ $# -gt 0 ] || usage "no program after --"
CMD=("$@")

read -r -a PATHLIST <<<"$PATHS"
[ ${#PATHLIST[@]} -gt 0 ] || usage "--paths is empty"
for p in "${PATHLIST[@]}"; do
  case $p in
    sptrsv_* | gs | isai) ;;
    *) usage "unknown path '$p' (sptrsv_<type>, gs or isai)" ;;
  esac
done
[ -f "$LIB" ] || { echo "compare.sh: $LIB not found: build it first (make lib)" >&2; exit 1; }

# Open MPI refuses to run as root without these (singleton runs and mpiexec alike)
if [ "$(id -u)" = 0 ]; then export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1; fi

# a CUDA PETSc: the petscconf.h of the libpetsc the program links, else of $PETSC_DIR
have_cuda() {
  local w f lib d confs=()
  for w in "${CMD[@]}"; do
    f=$w
    [ -f "$f" ] || f=$(command -v -- "$w" 2>/dev/null) || continue
    [ -f "$f" ] || continue
    lib=$(ldd "$f" 2>/dev/null | awk '/libpetsc[^ ]*\.so/ {print $3; exit}') || true
    if [ -n "$lib" ]; then
      d=$(dirname "$(readlink -f "$lib")")/..
      confs+=("$d/include/petscconf.h")
      break
    fi
  done
  if [ ${#confs[@]} = 0 ] && [ -n "${PETSC_DIR:-}" ]; then
    confs+=("$PETSC_DIR/include/petscconf.h" "$PETSC_DIR/${PETSC_ARCH:-}/include/petscconf.h")
  fi
  for f in "${confs[@]}"; do
    [ -f "$f" ] && grep -q '^#define PETSC_HAVE_CUDA 1' "$f" && return 0
  done
  return 1
}
GPU=()
have_cuda && GPU=(-log_view_gpu_time)

TMP=""
if [ -z "$LOGDIR" ]; then
  TMP=$(mktemp -d)
  trap 'rm -rf "$TMP"' EXIT
  LOGDIR=$TMP
fi
mkdir -p "$LOGDIR"

RUNS=(petsc "${PATHLIST[@]}")
STATUS=0
run_one() { # run_one NAME: run the program for that row, output to $LOGDIR/NAME.log; prints the command
  local name=$1 extra=()
  case $name in
    petsc) ;;
    sptrsv_*) extra=(-dll_append "$LIB" -pc_factor_mat_solver_type "$name") ;;
    gs | isai) extra=(-dll_append "$LIB" -pc_type "$name") ;;
  esac
  local full=("${CMD[@]}" "${extra[@]}" -ksp_converged_reason -log_view "${GPU[@]}")
  local shown
  shown=$(printf '%q ' "${full[@]}") # quoted as a shell reads it: the line can be copied
  echo "# $name: ${shown% }"
  local rc=0
  "${full[@]}" >"$LOGDIR/$name.log" 2>&1 </dev/null || rc=$?
  echo "$rc" >"$LOGDIR/$name.rc"
}
i=0
for name in "${RUNS[@]}"; do
  run_one "$name"
  # a CUDA PETSc not recognised above: its -log_view has GPU columns; run the first run again with GPU times
  if [ $i = 0 ] && [ ${#GPU[@]} = 0 ] && grep -q 'CpuToGpu' "$LOGDIR/$name.log"; then
    GPU=(-log_view_gpu_time)
    echo "# (the -log_view has GPU columns: every run gets -log_view_gpu_time)"
    run_one "$name"
  fi
  i=$((i + 1))
done

python3 - "$LOGDIR" "${RUNS[@]}" <<'PY' || STATUS=$?
import re, sys
logdir, runs = sys.argv[1], sys.argv[2:]
reason_re = re.compile(r"Linear (?:\S+ )?solve (?:converged|did not converge|diverged) due to (\S+) iterations (\d+)")
events = ["KSPSolve", "PCSetUp", "PCApply", "MatSolve", "MatMult"]


def num(s):
    try:
        return float(s)
    except ValueError:
        return None


def parse(name):
    text = open("%s/%s.log" % (logdir, name), errors="replace").read()
    rc = int(open("%s/%s.rc" % (logdir, name)).read().strip() or 1)
    found = reason_re.findall(text)
    its = sum(int(n) for _, n in found) if found else None
    reasons = sorted(set(r for r, _ in found))
    reason = found[-1][0] if found else "-"
    if len(found) > 1:
        reason += " (%d solves%s)" % (len(found), ", " + "/".join(reasons) if len(reasons) > 1 else "")
    # the event table of -log_view: from its "Event  Count  Time" header to "Object Type"; an event line is
    # NAME COUNT COUNT-RATIO TIME TIME-RATIO ...; the same event in several stages is summed
    times, inside, haslog = {}, False, False
    for line in text.splitlines():
        if re.match(r"^Event\s+Count\s+Time", line):
            inside = haslog = True
            continue
        if line.startswith("Object Type"):
            inside = False
        if not inside:
            continue
        tok = line.split()
        if len(tok) < 5 or tok[0] not in events or not tok[1].isdigit():
            continue
        t = num(tok[3])
        if t is not None:
            times[tok[0]] = times.get(tok[0], 0.0) + t
    return {"rc": rc, "its": its, "reason": reason, "times": times, "haslog": haslog,
            "error": ": ".join(re.findall(r"PETSC ERROR: ([^-#\s].*)", text)[:2])}


rows = [(r, parse(r)) for r in runs]
apply_ev = "PCApply" if any("PCApply" in d["times"] for _, d in rows) else "MatSolve"
cols = ["KSPSolve", "PCSetUp", apply_ev, "MatMult"]
first = rows[0][1]["times"]


def cell(d, ev):
    t = d["times"].get(ev)
    if t is None:
        return "-"
    b = first.get(ev)
    return "%.3e (%s)" % (t, "%.2fx" % (t / b) if b else "-")


header = ["run", "iterations", "reason"] + ["%s s (ratio)" % c for c in cols]
table = []
bad = 0
for name, d in rows:
    reason = d["reason"]
    if d["rc"] != 0:
        reason = "FAILED (exit %d)%s" % (d["rc"], ": " + d["error"][:90] if d["error"] else "")
        bad += 1
    elif not d["haslog"]:
        reason += " (no -log_view)"
        bad += 1
    table.append([name, "-" if d["its"] is None else str(d["its"]), reason] + [cell(d, c) for c in cols])
w = [max(len(r[i]) for r in [header] + table) for i in range(len(header))]
fmt = lambda r: "  ".join(c.ljust(w[i]) for i, c in enumerate(r)).rstrip()
print()
print(fmt(header))
print("  ".join("-" * x for x in w))
for r in table:
    print(fmt(r))
print("(seconds from -log_view, max over ranks; ratio = time / time of the first run%s)" %
      ("; no PCApply event: MatSolve" if apply_ev == "MatSolve" and any("MatSolve" in d["times"] for _, d in rows) else ""))
sys.exit(1 if bad else 0)
PY
[ -z "$TMP" ] && echo "logs: $LOGDIR/<run>.log"
exit "$STATUS"
