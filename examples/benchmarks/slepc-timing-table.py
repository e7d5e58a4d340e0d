#!/usr/bin/env python3
"""The EPSSolve seconds of each solver type from the device check's slepc-timing step, as a Markdown table.

    python3 examples/benchmarks/slepc-timing-table.py [--check] [--rtol 1e-10] LOG...

LOG: the step's log ($OUT/slepc-timing.log of tests/device/run.sh; tests/device/slepc.sh's slepc_timing writes it and
runs this script on it at its end). Each run there starts with a marker line

    [slepc-timing] case=LABEL ref=REFTYPE type=TYPE                  then slepc_eps's lines (tests/slepc/eps_sinvert)
    [slepc-timing] case=LABEL ref=REFTYPE type=TYPE skipped: WHY     (the query: no such factorization for the type)
    [slepc-timing] case=LABEL ref=REFTYPE type=TYPE not run: WHY     (the step's budget was spent)

and a run's output has eps_sinvert's "Problem:" line, its table row per solver type (nconv, its, max rel diff, max bwd
err, setup s, EPSSolve s, backend, PASS/FAIL), "FAILED:" lines, one "Eigenvalues of TYPE (N converged):" line per type,
and slepc_eps's "(exit status N...)" line when it did not exit 0. A log without markers (eps_sinvert with several types
in one process, e.g. the earlier slepc-timing form) is read too: the case is then the Problem line (and -mat_type), the
reference the first type of the process.

One row per (case, solver type): EPSSolve seconds (the fastest of the -repeat solves), EPSSetUp seconds (the
factorization and the plugin's analysis), the ratio of the EPSSolve seconds to the case's reference type's (petsc for host
matrices, cusparse for -mat_type aijcusparse: < 1 is faster than the reference), and the eigenvalue check: the run's own
checks (convergence, backward errors, backend: eps_sinvert's PASS/FAIL) and its eigenvalues against the reference's,
compared as eps_sinvert's MaxDiff does (each of the first nev of one run to the nearest converged one of the other, both
ways, relative to the eigenvalue's modulus) to --rtol (default 1e-10, eps_sinvert's -check_rtol).

--check: exit 1 when a row's check FAILED (a run's own check or its eigenvalues against the reference's); timeouts,
crashes and runs left out are listed but do not count (the shell step counts a run's nonzero exit itself).
"""
import argparse
import re
import sys

MARK = re.compile(r'^\[slepc-timing\] case=(\S+) ref=(\S+) (?:type=(\S+)(?: (skipped|not run): (.*))?|query)\s*$')
CMD = re.compile(r'^\$ eps_sinvert (.*)$')
PROBLEM = re.compile(r'^Problem: (.*); N = (\d+), .* nev (\d+), tol')
ROW = re.compile(r'^(\S+)\s+(lu|cholesky|ilu|icc)\s+(\d+)\s+(\d+)\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s+(PASS|FAIL)\s*$')
EIGS = re.compile(r'^Eigenvalues of (\S+) \((\d+) converged\):(.*)$')
EXIT = re.compile(r'^\(exit status (\d+)(.*)\)\s*$')
NUM = r'[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?|[-+]?(?:nan|inf)'
VALUE = re.compile(r'^(' + NUM + r')(?:([-+](?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?|[-+](?:nan|inf))i)?$')
PETSC_SMALL = 1e-10  # eps_sinvert's scale floor (PETSC_SMALL in double precision)


def parse_values(text):
    vals = []
    for tok in text.split():
        m = VALUE.match(tok)
        if not m:
            raise ValueError('unreadable eigenvalue %r' % tok)
        vals.append(complex(float(m.group(1)), float(m.group(2)) if m.group(2) else 0.0))
    return vals


def max_nearest(a, b, nev):
    """MaxNearest of eps_sinvert.c: the first nev of a, each to the nearest of every converged one of b"""
    worst = 0.0
    for x in a[:nev]:
        scale = max(abs(x), PETSC_SMALL)
        best = min((abs(y - x) / scale for y in b), default=float('inf'))
        worst = max(worst, best)
    return worst


class Run:
    """one solver type's figures in one case"""

    def __init__(self, case, ref, stype):
        self.case, self.ref, self.type = case, ref, stype
        self.state = None  # None: ran (or started); 'skipped', 'not run'
        self.why = ''
        self.row = None  # dict of the table row
        self.eigs = None
        self.failed = []  # FAILED: lines naming this type
        self.exit = None  # (status, text) of slepc_eps's exit line
        self.problem = None
        self.N = None
        self.nev = 6
        self.mat_type = None


def parse_logs(paths):
    runs = []  # in log order
    cur = None  # runs of the process being read (a marker: one; markerless: several)
    pending = None  # the marker run whose process output follows
    proc = None  # the current eps_sinvert process: dict with problem, N, nev, mat_type, runs by type

    def start_process(cmd):
        args = cmd.split()
        mt = None
        for k, a in enumerate(args[:-1]):
            if a == '-mat_type':
                mt = args[k + 1]
        return {'cmd': cmd, 'problem': None, 'N': None, 'nev': 6, 'mat_type': mt, 'runs': {}, 'order': [], 'marker': pending,
                'failed': []}

    def end_process(p):
        """each FAILED: line to the run it names ("of TYPE differ", "TYPE: backward error", "TYPE ran on", "TYPE converged"),
        one naming none (an option left unused, nothing compared) to the process's marker run or to all its runs"""
        if p is None:
            return
        for text in p['failed']:
            named = [r for t, r in p['runs'].items() if re.search(r'(^|\s)' + re.escape(t) + r'(:|\s|$)', text)]
            for r in named or ([p['marker']] if p['marker'] is not None else list(p['runs'].values())):
                r.failed.append(text)
        p['failed'] = []

    def get_run(p, stype):
        if stype in p['runs']:
            return p['runs'][stype]
        if p['marker'] is not None and p['marker'].type == stype:
            r = p['marker']
        else:  # markerless log: the case is the problem, the reference the process's first type
            case = p['problem'] or '?'
            if p['mat_type']:
                case += ' (-mat_type %s)' % p['mat_type']
            ref = p['order'][0] if p['order'] else stype
            r = Run(case, ref, stype)
            runs.append(r)
        r.problem, r.N, r.nev, r.mat_type = p['problem'], p['N'], p['nev'], p['mat_type']
        p['runs'][stype] = r
        p['order'].append(stype)
        return r

    for path in paths:
        with open(path, errors='replace') as f:
            lines = f.read().splitlines()
        in_query = False
        for line in lines:
            m = MARK.match(line)
            if m:
                case, ref, stype, state, why = m.groups()
                end_process(proc)
                proc = None
                if stype is None:  # the query's output follows: not a timing run
                    in_query, pending = True, None
                    continue
                in_query = False
                r = Run(case, ref, stype)
                runs.append(r)
                if state:
                    r.state, r.why = state, why
                    pending = None
                else:
                    pending = r
                continue
            if in_query:
                continue
            m = CMD.match(line)
            if m:
                end_process(proc)
                proc = start_process(m.group(1))
                continue
            if proc is None:
                continue
            m = PROBLEM.match(line)
            if m:
                proc['problem'], proc['N'], proc['nev'] = m.group(1), int(m.group(2)), int(m.group(3))
                continue
            m = ROW.match(line)
            if m:
                r = get_run(proc, m.group(1))
                r.row = {'factor': m.group(2), 'nconv': int(m.group(3)), 'its': int(m.group(4)), 'maxdiff': float(m.group(5)),
                         'maxerr': float(m.group(6)), 'setup': float(m.group(7)), 'solve': float(m.group(8)), 'backend': m.group(9),
                         'result': m.group(10), 'inprocess_ref': proc['order'][0]}
                continue
            m = EIGS.match(line)
            if m:
                r = get_run(proc, m.group(1))
                try:
                    r.eigs = parse_values(m.group(3))
                except ValueError as e:
                    r.failed.append(str(e))
                continue
            if line.startswith('FAILED: '):  # printed before its type's row: given out when the process ends
                proc['failed'].append(line[len('FAILED: '):])
                continue
            if line.startswith('skipped: ') and proc['marker'] is None:
                stype = line.split()[1]
                case = proc['problem'] or '?'
                r = Run(case + (' (-mat_type %s)' % proc['mat_type'] if proc['mat_type'] else ''), '?', stype)
                r.state, r.why = 'skipped', line[len('skipped: '):]
                runs.append(r)
                continue
            m = EXIT.match(line)
            if m:
                targets = list(proc['runs'].values()) or ([proc['marker']] if proc['marker'] else [])
                for r in targets:
                    r.exit = (int(m.group(1)), m.group(2).lstrip(': ').strip())
                # a process that died before its rows: its marker run keeps the exit status
                if proc['marker'] is not None and proc['marker'] not in targets:
                    proc['marker'].exit = (int(m.group(1)), m.group(2).lstrip(': ').strip())
                continue
        end_process(proc)
        proc, pending = None, None
    return runs


def fmt_s(x):
    return '%.4f' % x if x < 10 else '%.2f' % x


def build_rows(runs, rtol):
    """the table rows and whether a check failed"""
    refs = {}
    for r in runs:
        if r.type == r.ref and r.row is not None and r.case not in refs:
            refs[r.case] = r
    rows, bad = [], False
    for r in runs:
        problem = r.case + (' (N=%d)' % r.N if r.N else '')
        solve = setup = ratio = '-'
        if r.state == 'skipped':
            status = 'skipped: ' + r.why
        elif r.state == 'not run':
            status = 'not run: ' + r.why
        elif r.row is None:
            if r.exit and r.exit[0] == 124:
                status = 'timeout' + (' (%s)' % r.exit[1] if r.exit[1] else '')
            elif r.exit:
                status = 'no figures (exit status %d%s)' % (r.exit[0], ': ' + r.failed[0] if r.failed else '')
            else:
                status = 'no figures (no table row in the log)'
        else:
            row = r.row
            solve, setup = fmt_s(row['solve']), fmt_s(row['setup'])
            ref = refs.get(r.case)
            if ref is not None and ref.row['solve'] > 0:
                ratio = '%.2f' % (row['solve'] / ref.row['solve'])
            own = None
            if row['result'] != 'PASS' or r.failed:
                own = '; '.join(r.failed) if r.failed else 'eps_sinvert FAIL'
            diff = None  # the eigenvalue comparison: (max rel diff, against, in process)
            if r is ref:
                verdict = 'reference'
            elif row['inprocess_ref'] != r.type:  # compared in its own process by eps_sinvert
                diff = (row['maxdiff'], row['inprocess_ref'], True)
            elif ref is None:
                verdict = 'own checks only: no reference figures'
            elif r.eigs is None or ref.eigs is None:
                verdict = 'own checks only: no eigenvalue line'
            else:
                nev = r.nev or 6
                diff = (max(max_nearest(ref.eigs, r.eigs, nev), max_nearest(r.eigs, ref.eigs, nev)), ref.type, False)
            eigbad = diff is not None and not diff[0] <= rtol
            if diff is not None:
                verdict = 'max rel diff %.1e vs %s%s%s' % (diff[0], diff[1], ' > %g' % rtol if eigbad else '', ', in process' if diff[2] else '')
            if own is not None or eigbad:
                bad = True
                status = 'FAIL' + (': ' + own if own is not None else '') + ' (' + verdict + ')'
            else:
                status = 'PASS (' + verdict + ')'
            if r.exit and r.exit[0] != 0 and own is None:
                status += ', exit status %d' % r.exit[0]
        rows.append((problem, r.type, solve, setup, ratio, status))
    return rows, bad


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('logs', nargs='+', help='the slepc-timing step log(s)')
    ap.add_argument('--rtol', type=float, default=1e-10, help='eigenvalues against the reference, relative (default 1e-10)')
    ap.add_argument('--check', action='store_true', help='exit 1 when a check failed')
    a = ap.parse_args()
    runs = parse_logs(a.logs)
    if not runs:
        print('no slepc-timing runs found in %s' % ', '.join(a.logs), file=sys.stderr)
        return 2
    rows, bad = build_rows(runs, a.rtol)
    print('| problem | solver type | EPSSolve s (fastest) | EPSSetUp s | EPSSolve / reference | eigenvalue check |')
    print('|---|---|--:|--:|--:|---|')
    for row in rows:
        print('| ' + ' | '.join(c.replace('|', '\\|') for c in row) + ' |')
    refs = sorted({(r.case, r.ref) for r in runs if r.ref != '?'})
    print()
    print('Reference per problem: ' + '; '.join('%s: %s' % c for c in refs) + '. EPSSolve / reference < 1: faster than the reference.')
    if bad:
        print('CHECK FAILED: see the rows marked FAIL')
    return 1 if (bad and a.check) else 0


if __name__ == '__main__':
    sys.exit(main())
