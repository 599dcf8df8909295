#!/usr/bin/env python3
"""Task Bench's METG(50 %) of its OpenMP implementation, by its own method, to set beside
lbbench's (bench/metg_bench.cpp). Task Bench (Slaughter et al., SC 2020) is built outside this
repository from its public source; this script only runs its binary and its analysis script.

Its sweep (experiments/*/metg_openmp.sh): -kernel compute_bound, -iter 2^(top - s) for s = 0, 1,
..., with s + 1 repetitions up to 5 (at least --reps: on a shared host one disturbed run of the
largest size, the reference, moves every efficiency), width = threads, 1000 steps; its analysis
(scripts/chart_metg.py, imported from the Task Bench tree, so numpy is needed) gives METG. Added
here: each run's process CPU time (its children's rusage, less the median CPU of five empty
one-step runs: the process's start and end), interpolated at the METG point as
chart_metg interpolates the granularity; the same rule on the CPU clock (CPU per task, which
other processes on a shared host do not stretch); an empty-kernel run's wall and CPU per task.

  /usr/bin/python3 scripts/taskbench_metg.py TASKBENCH_DIR [--threads 2] [--type trivial]
      [--top 16] [--bottom 0] [--reps 1] [--out DIR]
Prints one line per wait policy (OMP_WAIT_POLICY unset, then passive): chart_metg's METG where
it accepts the sweep, and the same rule computed here on both clocks.
"""
import argparse
import os
import resource
import subprocess
import sys
import tempfile


def run(binary, args, env):
    """One Task Bench run: its output, and the CPU seconds (user + system) it used."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run([binary] + args, env=env, check=True, capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return out.stdout, cpu


def field(text, prefix):
    for line in text.splitlines():
        line = line.strip()
        if line.startswith(prefix):
            return float(line[len(prefix):].split()[0])
    raise ValueError('no "%s" in Task Bench output' % prefix)


def startup_cpu(binary, opts, env):
    """CPU seconds of a run's start and end (process, threads, graph): the median of five empty
    one-step runs, taken off every run's CPU so that a task's CPU is the run's work alone."""
    cpu = sorted(run(binary, ['-kernel', 'empty', '-type', opts.type, '-steps', '1', '-width',
                              str(opts.threads), '-worker', str(opts.threads)], env)[1]
                 for _ in range(5))
    return cpu[2]


def sweep(binary, opts, env, folder, startup):
    """The log chart_metg reads; per iteration count, the mean core time and CPU per task."""
    log = os.path.join(folder, 'openmp_ngraphs_1_type_%s_nodes_1.log' % opts.type)
    runs = {}
    with open(log, 'w') as f:
        for s in range(opts.top - opts.bottom + 1):
            iters = 1 << (opts.top - s)
            for rep in range(max(min(s + 1, 5), opts.reps)):
                text, cpu = run(binary, ['-kernel', 'compute_bound', '-iter', str(iters),
                                         '-type', opts.type, '-steps', str(opts.steps),
                                         '-width', str(opts.threads), '-worker',
                                         str(opts.threads)], env)
                f.write(text)
                tasks = field(text, 'Total Tasks')
                wall = field(text, 'Elapsed Time') / tasks * opts.threads
                runs.setdefault(iters, []).append((wall, (cpu - startup) / tasks))
    mean = lambda v: sum(v) / len(v)
    return log, {k: (mean([w for w, _ in v]), mean([c for _, c in v])) for k, v in runs.items()}


def metg(points, clock):
    """chart_metg's rule over points {iterations: (core time, cpu) per task} on one clock
    (0: wall core time, as chart_metg; 1: process CPU): efficiency = the largest size's time
    scaled by the size ratio over the measured; METG the smallest time per task at 50 % or
    more, interpolated linearly in efficiency towards the next smaller size. Returns (METG,
    the other clock's figure there), or None."""
    sizes = sorted(points, reverse=True)
    g = [points[i][clock] for i in sizes]
    other = [points[i][1 - clock] for i in sizes]
    eff = [g[0] * i / sizes[0] / gi for i, gi in zip(sizes, g)]
    above = [k for k in range(len(sizes)) if eff[k] >= 0.5]
    if not above:
        return None
    b = min(above, key=lambda k: g[k])
    at, there = g[b], other[b]
    if b + 1 < len(sizes) and g[b + 1] < g[b]:
        t = 0 if eff[b] == eff[b + 1] else (eff[b] - 0.5) / (eff[b] - eff[b + 1])
        at, there = at + t * (g[b + 1] - at), there + t * (other[b + 1] - there)
    return at, there


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('taskbench')
    parser.add_argument('--threads', type=int, default=2)
    parser.add_argument('--type', default='trivial')
    parser.add_argument('--steps', type=int, default=1000)
    parser.add_argument('--top', type=int, default=16, help='largest -iter is 2^top')
    parser.add_argument('--bottom', type=int, default=0, help='smallest -iter is 2^bottom')
    parser.add_argument('--reps', type=int, default=1,
                        help='at least this many repetitions of every size (Task Bench: 1)')
    parser.add_argument('--out', default=None, help='keep the logs here')
    opts = parser.parse_args()
    sys.path.insert(0, os.path.join(opts.taskbench, 'scripts'))
    import chart_metg  # Task Bench's own analysis

    binary = os.path.join(opts.taskbench, 'openmp', 'main')
    us = lambda x: 'none' if x is None else '%.2f' % (x * 1e6)
    for policy in (None, 'passive'):
        env = dict(os.environ)
        env.pop('OMP_WAIT_POLICY', None)
        if policy:
            env['OMP_WAIT_POLICY'] = policy
        name = policy or 'default'
        folder = os.path.join(opts.out, name) if opts.out else tempfile.mkdtemp()
        os.makedirs(folder, exist_ok=True)
        load = os.getloadavg()[0]
        startup = startup_cpu(binary, opts, env)
        log, points = sweep(binary, opts, env, folder, startup)
        # Task Bench's analysis, the figure of record where it accepts the sweep; it refuses one
        # whose efficiency passes 150 % somewhere (a disturbed reference on a shared host).
        try:
            _, metg_ms = chart_metg.analyze(log, 1, 1, opts.threads, 0.5, None, None,
                                            summary=False)
            theirs = '%.2f' % (metg_ms * 1e3)
        except AssertionError as e:
            theirs = 'refused (%s)' % e
        wall = metg(points, 0) or (None, None)
        cpu = metg(points, 1) or (None, None)
        empty, empty_cpu = run(binary, ['-kernel', 'empty', '-type', opts.type, '-steps',
                                        str(opts.steps), '-width', str(opts.threads),
                                        '-worker', str(opts.threads)], env)
        tasks = field(empty, 'Total Tasks')
        empty_wall = field(empty, 'Elapsed Time') / tasks * opts.threads
        print('policy %s type %s threads %d: chart_metg METG %s us; the rule here: METG %s us '
              'with %s us CPU per task, on the CPU clock %s us; empty task %s us core time, '
              '%s us CPU (start-up CPU %.1f ms off each run); load %.2f-%.2f' %
              (name, opts.type, opts.threads, theirs, us(wall[0]), us(wall[1]), us(cpu[0]),
               us(empty_wall), us((empty_cpu - startup) / tasks), startup * 1e3, load,
               os.getloadavg()[0]),
              flush=True)


if __name__ == '__main__':
    main()
