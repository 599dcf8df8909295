#include "harness/run/run_costs.h"

#include <algorithm>
#include <iomanip>
#include <ostream>

#include "harness/base/clock.h"

namespace lbb {

CpuLap::CpuLap() : cpu_(process_cpu_now()) {}

void CpuLap::operator()(double& part) {
  const double now = process_cpu_now();
  part += now - cpu_;
  cpu_ = now;
}

RunCosts& RunCosts::operator+=(const RunCosts& o) {
  setup += o.setup;
  run += o.run;
  modules += o.modules;
  serial += o.serial;
  placement += o.placement;
  balancing += o.balancing;
  simulated += o.simulated;
  record += o.record;
  reference += o.reference;
  verify += o.verify;
  replay += o.replay;
  results += o.results;
  return *this;
}

double RunCosts::accounted() const {
  return modules + serial + placement + balancing + simulated + record;
}

double RunCosts::harness() const {
  return std::max(0.0, run - accounted());
}

double RunCosts::overhead() const {
  return reference + verify + replay + results + record + harness();
}

void print_costs(std::ostream& out, const RunCosts& c, double total, double load) {
  const double other =
      std::max(0.0, total - c.setup - c.run - c.reference - c.verify - c.replay - c.results);
  auto line = [&](const char* what, double s) {
    out << "  " << std::left << std::setw(40) << what << std::right << std::fixed
        << std::setprecision(3) << std::setw(10) << s << " s " << std::setprecision(1)
        << std::setw(6) << (total > 0 ? 100 * s / total : 0.0) << " %\n";
  };
  out << std::fixed << std::setprecision(3) << "CPU time of this invocation: " << total
      << " s (load average " << std::setprecision(2) << load << ")\n";
  line("kernels: modules (warm-up steps incl.)", c.modules);
  line("kernels: serial end of step", c.serial);
  line("kernels: creating module states", c.placement);
  line("balancers: decisions and copies", c.balancing);
  if (c.simulated > 0) line("simulated runs (the model, no kernel)", c.simulated);
  line("harness in the runs, waits incl.", c.harness());
  line("serial references", c.reference);
  line("verification against them", c.verify);
  if (c.replay > 0) line("modelled replays (in-step schemes)", c.replay);
  line("results: step records", c.record);
  line("results: run headers, ends, parts written", c.results);
  line("setup (workloads, balancers)", c.setup);
  line("rest (config, table, report)", other);
  line("verification + results + harness", c.overhead());
  // A stretch after short ones is timed by the wall clock where every thread has a core
  // (harness/base/clock.h): a loaded host's preemptions there count others' time as the kernels'.
  if (const double over = c.accounted() - c.run; over > 0.005)
    out << std::setprecision(3) << "  note: the kernels' clocks exceed the runs' CPU by " << over
        << " s (stretches timed by the wall clock while other load preempted them): the kernel "
           "lines are upper bounds, the harness line a lower one\n";
  out << std::defaultfloat;
}

}  // namespace lbb
