#include "harness/exec/step_recorder.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace lbb {

void ProcessorTimes::clear() {
  start = end = busy_wall = 0;
  load = {};
  std::fill(phase.begin(), phase.end(), PhaseTimes{});
  migrated = bytes = 0;
  triggered = 0;
}

StepRecorder::StepRecorder(std::span<const double> speed, int phases)
    : speed_(speed.begin(), speed.end()), procs_(speed.size()) {
  if (speed_.empty() || phases < 1) throw std::invalid_argument("step recorder: no processors");
  for (ProcessorTimes& t : procs_) t.phase.assign(phases, PhaseTimes{});
}

void StepRecorder::clear() {
  for (ProcessorTimes& t : procs_) t.clear();
}

double StepRecorder::first_start() const {
  double first = procs_[0].start;
  for (const ProcessorTimes& t : procs_) first = std::min(first, t.start);
  return first;
}

void StepRecorder::close(StepRecord& rec, double serial, double wall) {
  const int P = processors();
  const std::size_t phases = procs_[0].phase.size();
  rec.busy.assign(P, 0);
  rec.busy_wall.assign(P, 0);
  rec.external_load.assign(P, 0);
  rec.idle.assign(P, 0);
  rec.proc_balance.assign(P, 0);
  rec.proc_migration.assign(P, 0);
  rec.triggered.assign(P, 0);
  rec.migrations = rec.bytes_moved = 0;
  double first = procs_[0].start, last = procs_[0].end, work = 0, speed_sum = 0;
  for (int p = 0; p < P; ++p) {
    const ProcessorTimes& t = procs_[p];
    first = std::min(first, t.start);
    last = std::max(last, t.end);
    for (const PhaseTimes& ph : t.phase) {
      rec.busy[p] += ph.busy;
      rec.proc_balance[p] += ph.balance + ph.end_balance;
      rec.proc_migration[p] += ph.migration + ph.end_migration;
    }
    rec.busy_wall[p] = t.busy_wall;
    rec.external_load[p] = t.load.mean();
    rec.triggered[p] = t.triggered;
    rec.migrations += t.migrated;
    rec.bytes_moved += t.bytes;
    work += rec.busy[p] * speed_[p];  // nominal work: busy time at speed 1
    speed_sum += speed_[p];
  }
  rec.compute_wall = last - first;
  rec.ideal = work / speed_sum;
  rec.serial = serial;
  rec.wall = wall;
  double makespan = 0;
  rec.balance = rec.balance_wall = 0;
  for (std::size_t ph = 0; ph < phases; ++ph) {
    double slowest = 0, decision = 0, sync_wall = 0, end_wall = 0;
    for (const ProcessorTimes& t : procs_) {
      const PhaseTimes& x = t.phase[ph];
      slowest = std::max(slowest, x.finish + x.end_balance + x.end_migration);
      decision = std::max(decision, x.balance + x.end_balance);
      sync_wall = std::max(sync_wall, x.balance_wall);
      end_wall = std::max(end_wall, x.end_balance_wall);
    }
    makespan += slowest;
    rec.balance += decision;
    rec.balance_wall += sync_wall + end_wall;
  }
  rec.makespan = makespan + serial;
  for (int p = 0; p < P; ++p) {
    rec.idle[p] = makespan - (rec.busy[p] + rec.proc_balance[p] + rec.proc_migration[p]);
    work_.modules += rec.busy[p];
    work_.balancing += rec.proc_migration[p];
  }
  work_.serial += serial;
  work_.balancing += rec.balance;
}

double step_imbalance(std::span<const double> busy) {
  double max = 0, sum = 0;
  for (double b : busy) {
    max = std::max(max, b);
    sum += b;
  }
  const double mean = busy.empty() ? 0 : sum / busy.size();
  return mean > 0 ? max / mean - 1.0 : 0.0;
}

void add_predictions(StepRecord& rec, double before, double after) {
  const auto add = [](double& sum, double x) {
    if (!std::isnan(x)) sum = std::isnan(sum) ? x : sum + x;
  };
  add(rec.predicted_before, before);
  add(rec.predicted_after, after);
}

double efficiency(double ideal, double makespan) {
  return makespan > 0 ? ideal / makespan : 0;
}

}  // namespace lbb
