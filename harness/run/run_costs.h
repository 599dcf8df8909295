#pragma once
// Where an invocation's CPU time went, run by run: the kernels, the strategies' own work, and what
// the harness adds around them (issue 16's goal: verification, writing results and bookkeeping
// together at most 10 % of a config's CPU time). Process CPU seconds (every thread), `lbbench
// run --costs` prints them; docs/ARCHITECTURE.md, "What --costs counts", defines each part.
#include <iosfwd>

namespace lbb {

struct RunCosts {
  double setup = 0;  // building the workload, its balancers and its executor
  double run = 0;    // the executor's run: everything below marked "of the run"
  // Of the run, thread CPU measured by the executors over every step, warm-up included:
  double modules = 0;    // the kernels' modules
  double serial = 0;     // the workload's serial end of step
  double placement = 0;  // creating the modules' states before the first step
  double balancing = 0;  // balancer decisions (the decider's CPU) and module copies
  double simulated = 0;  // a simulator's whole run (no kernel runs there)
  double record = 0;     // of the run: handing step records to the result writer (wall, one thread)
  double reference = 0;  // the serial reference; 0 where a shared one served
  double verify = 0;     // comparing the result with it
  double replay = 0;     // the modelled replay of an in-step run (harness/run/modelled_replay.h)
  double results = 0;    // the run's header and end handed to the result writer, parts written
  RunCosts& operator+=(const RunCosts& o);
  // What the run's parts above account for: the kernels, balancing, a simulator, records.
  double accounted() const;
  // The rest of the run: the harness's own work (clocks, records, scheduling, barriers) and
  // the CPU its threads burn waiting at barriers.
  double harness() const;
  // What the harness adds: verification (with its references), modelled replays, results
  // writing, harness().
  double overhead() const;
};

// Adds to a part the process CPU spent since the last lap (or since it was made).
class CpuLap {
 public:
  CpuLap();
  void operator()(double& part);

 private:
  double cpu_;
};

// One line per part with its share of `total` (the invocation's process CPU seconds), and the
// load average it ran under.
void print_costs(std::ostream& out, const RunCosts& costs, double total, double load);

}  // namespace lbb
