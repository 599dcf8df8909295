#pragma once
// Where an invocation's CPU time went, run by run: the kernels, and what the harness adds around
// them (issue 16's goal: verification, archive writing and bookkeeping together at most 10 % of
// a config's CPU time). Process CPU seconds (every thread), `lbbench run --costs` prints them.
#include <iosfwd>

namespace lbb {

struct RunCosts {
  double setup = 0;      // building the workload, its balancers and its executor
  double run = 0;        // the executor's run: kernels, harness, waiting, in-run archive writes
  double busy = 0;       // of the run: the processors' CPU time in modules (recorded steps)
  double record = 0;     // of the run: handing step records to the archive (wall, one thread)
  double reference = 0;  // the serial reference; 0 where a shared one served
  double verify = 0;     // comparing the result with it
  double archive = 0;    // the run's header, summary and outcome in the archive
  RunCosts& operator+=(const RunCosts& o);
};

// One line per part with its share of `total` (the invocation's process CPU seconds), and the
// load average it ran under.
void print_costs(std::ostream& out, const RunCosts& costs, double total, double load);

}  // namespace lbb
