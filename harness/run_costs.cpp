#include "harness/run_costs.h"

#include <algorithm>
#include <iomanip>
#include <ostream>

namespace lbb {

RunCosts& RunCosts::operator+=(const RunCosts& o) {
  setup += o.setup;
  run += o.run;
  busy += o.busy;
  record += o.record;
  reference += o.reference;
  verify += o.verify;
  archive += o.archive;
  return *this;
}

void print_costs(std::ostream& out, const RunCosts& c, double total, double load) {
  // The harness inside the run: all but the modules and the archive writes (waiting included:
  // a spinning wait is CPU time too).
  const double harness = std::max(0.0, c.run - c.busy - c.record);
  const double other = std::max(0.0, total - c.setup - c.run - c.reference - c.verify - c.archive);
  const double overhead = c.reference + c.verify + c.archive + c.record + harness;
  auto line = [&](const char* what, double s) {
    out << "  " << std::left << std::setw(34) << what << std::right << std::fixed
        << std::setprecision(3) << std::setw(10) << s << " s " << std::setprecision(1)
        << std::setw(6) << (total > 0 ? 100 * s / total : 0.0) << " %\n";
  };
  out << std::fixed << std::setprecision(3) << "CPU time of this invocation: " << total
      << " s (load average " << std::setprecision(2) << load << ")\n";
  line("kernels (modules, recorded steps)", c.busy);
  line("harness in the runs, waits incl.", harness);
  line("serial references", c.reference);
  line("verification against them", c.verify);
  line("archive: step records", c.record);
  line("archive: run header and outcome", c.archive);
  line("setup (workloads, balancers)", c.setup);
  line("rest (config, table, report)", other);
  line("verification + archive + harness", overhead);
  out << std::defaultfloat;
}

}  // namespace lbb
