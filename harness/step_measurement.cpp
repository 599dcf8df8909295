#include "harness/step_measurement.h"

#include <algorithm>

namespace lbb {

double ProcessorStep::busy_cpu() const {
  double sum = 0;
  for (double c : phase_cpu) sum += c;
  return sum;
}

void ProcessorStep::clear(int phases) {
  start = end = busy_wall = 0;
  load = {};
  phase_cpu.assign(phases, 0.0);
}

void record_compute(std::span<const ProcessorStep> procs, std::span<const double> speed,
                    StepRecord& rec) {
  const int P = static_cast<int>(procs.size());
  rec.busy.assign(P, 0);
  rec.busy_wall.assign(P, 0);
  rec.external_load.assign(P, 0);
  rec.idle.assign(P, 0);
  rec.proc_balance.assign(P, 0);
  rec.proc_migration.assign(P, 0);
  double first = procs[0].start, last = procs[0].end, busy_sum = 0, speed_sum = 0;
  for (int p = 0; p < P; ++p) {
    const ProcessorStep& s = procs[p];
    first = std::min(first, s.start);
    last = std::max(last, s.end);
    rec.busy[p] = s.busy_cpu();
    rec.busy_wall[p] = s.busy_wall;
    rec.external_load[p] = s.load.mean();
    busy_sum += rec.busy[p] * speed[p];  // nominal work: busy time at speed 1
    speed_sum += speed[p];
  }
  rec.compute_wall = last - first;
  rec.ideal = busy_sum / speed_sum;
}

void record_makespan(std::span<const ProcessorStep> procs, StepRecord& rec) {
  double makespan = 0;
  for (std::size_t ph = 0; ph < procs[0].phase_cpu.size(); ++ph) {
    double slowest = 0;
    for (const ProcessorStep& s : procs) slowest = std::max(slowest, s.phase_cpu[ph]);
    makespan += slowest;
  }
  rec.makespan = makespan + rec.serial;
  for (std::size_t p = 0; p < rec.busy.size(); ++p)
    rec.idle[p] =
        rec.makespan - rec.serial - (rec.busy[p] + rec.proc_balance[p] + rec.proc_migration[p]);
}

}  // namespace lbb
