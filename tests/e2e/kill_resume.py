#!/usr/bin/python3
"""kill_resume.py LBBENCH SCRATCH: `lbbench run --resume` killed with SIGKILL at random moments,
at least 20 times, then resumed to the end. After every kill the set is readable, no part is
left out, every run whose end was reported more than PART_SECONDS + 1 s before the kill is in
it, and no run is in it twice; at the end it holds each planned run exactly once."""
import random
import signal
import subprocess
import sys
import threading
import time
from collections import Counter

from result_runs import runs_of

PART_SECONDS = 0.5  # LBB_RESULTS_PART_SECONDS: a part at most this long after a run ends
KILLS = 20
RUNS = 3 * 60  # a set outlives a few kills on an idle host; the last resume runs what is left


def run(lbbench, cmd, kill_after=None):
    """Runs `lbbench cmd`; returns the times its progress lines reported a run's end."""
    env = {"LBB_RESULTS_PART_SECONDS": str(PART_SECONDS), "PATH": "/usr/bin:/bin"}
    p = subprocess.Popen([lbbench] + cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                         text=True, env=env)
    ended = []
    reader = threading.Thread(target=lambda: ended.extend(
        time.monotonic() for line in p.stderr if ", verified, ETA" in line))
    reader.start()
    if kill_after is not None:
        time.sleep(kill_after)
        p.kill()
    killed_at = time.monotonic()
    p.wait()
    reader.join()
    return ended, killed_at, p.returncode


def count(d):
    try:
        runs = runs_of(d)
    except ValueError:  # no part yet
        return Counter()
    return Counter(zip(runs.config_yaml, runs.repetition))


def check_complete(lbbench, d, cmd):
    _, _, rc = run(lbbench, cmd)
    runs = count(d)
    if rc != 0 or len(runs) != RUNS or set(runs.values()) != {1}:
        sys.exit(f"kill_resume: after the last resume (exit {rc}): {sum(runs.values())} runs, "
                 f"{len(runs)} distinct, {RUNS} planned")


def main(lbbench, scratch):
    random.seed(7)
    kills, sets = 0, 0
    while kills < KILLS:  # a set finished before the kills are done: check it, start another
        sets += 1
        d = f"{scratch}/set{sets}"
        cmd = ["run", "configs/smoke.yaml", "--set", "execution.steps=300", "--repetitions",
               str(RUNS // 3), "-o", d, "--resume"]
        while kills < KILLS:
            before = sum(count(d).values())
            ended, killed_at, rc = run(lbbench, cmd, random.uniform(1.5, 3.5))
            if rc == 0:
                break
            if rc != -signal.SIGKILL:
                sys.exit(f"kill_resume: lbbench {' '.join(cmd)} exited {rc} before its kill")
            kills += 1
            show = subprocess.run([lbbench, "show", d], capture_output=True, text=True)
            runs = count(d)
            # Killed before its first part: `show` refuses a set of no runs, or none yet (exit 2).
            empty = not runs and show.returncode == 2 and (
                "no runs" in show.stderr or "no such result set" in show.stderr)
            if (show.returncode != 0 and not empty) or "left out" in show.stderr:
                sys.exit(f"kill_resume: kill {kills}: the set is not readable whole (exit "
                         f"{show.returncode}):\n{show.stdout}{show.stderr}")
            if any(n > 1 for n in runs.values()):
                sys.exit(f"kill_resume: kill {kills}: a run is in the set twice")
            safe = sum(t < killed_at - PART_SECONDS - 1.0 for t in ended)
            added = sum(runs.values()) - before
            # a run can be written but killed before its progress line: one more than reported
            if added < safe or added > len(ended) + 1:
                sys.exit(f"kill_resume: kill {kills}: {added} runs added, {safe} ended safely "
                         f"before the kill, {len(ended)} ended")
            print(f"kill {kills}: {len(ended)} runs ended, {safe} more than "
                  f"{PART_SECONDS + 1} s before the kill, {added} in the set")
        check_complete(lbbench, d, cmd)
    print(f"kill_resume: {KILLS} kills over {sets} sets, each then complete with {RUNS} runs, "
          f"each once")


if __name__ == "__main__":
    main(*sys.argv[1:])
