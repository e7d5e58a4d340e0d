# sourced by tests/run-tests.sh (its helpers and variables); not a program of its own
# shellcheck shell=bash disable=SC2154
# its_compare NATIVE OURS: the check of pinv_its_case on two outputs (every linear solve converged for the same reason,
# ours within one iteration of native); compare_case uses it where the automatic choice took a pinv fill variant or the locality path its blocks kernel
its_compare() {
  python3 - "$1" "$2" <<'PY'
import re, sys
def runs(path):
    out = []
    for line in open(path, errors='replace'):
        m = re.search(r'Linear solve (converged|did not converge|diverged) due to (\S+) iterations (\d+)', line)
        if m:
            out.append((m.group(1) + ' ' + m.group(2), int(m.group(3))))
    return out
na, ou = runs(sys.argv[1]), runs(sys.argv[2])
bad = []
if not na:
    bad.append('no converged-reason line in the native output')
if len(na) != len(ou):
    bad.append('native %d linear solves, ours %d' % (len(na), len(ou)))
for k, ((ra, ia), (rb, ib)) in enumerate(zip(na, ou)):
    if ra != rb or not ra.startswith('converged'):
        bad.append('solve %d: native %s, ours %s' % (k, ra, rb))
    if abs(ia - ib) > 1:
        bad.append('solve %d: native %d iterations, ours %d' % (k, ia, ib))
print('linear solves: native %s; ours %s' % ([i for _, i in na], [i for _, i in ou]))
for b in bad:
    print('MISMATCH:', b)
sys.exit(1 if bad else 0)
PY
}
