#include "harness/papers/schedule_regret.h"

#include <algorithm>
#include <map>

#include "harness/base/schedule.h"
#include "harness/stats/sample_summary.h"

namespace lbb {

namespace {

// A fixed loop schedule's label: its schedule name (before any parameters) is one of the
// in-step schedules, not an automatic choice.
bool fixed_schedule(const std::string& label) {
  const std::string name = label.substr(0, label.find('('));
  const ScheduleInfo* info = find_schedule(name);
  return info && info->kind != InStepSchedule::kAssigned &&
         !(info->kind == InStepSchedule::kChunked && info->technique == LoopTechnique::kAuto4OMP);
}

bool same_setting(const RunRecord& a, const RunRecord& b) {
  return a.workload == b.workload && a.processors == b.processors;
}

// Per trial (the swept values, as expectation rows pair runs), the median makespan_total of
// each run set's runs in it.
std::map<std::string, double> median_by_trial(const std::vector<const RunRecord*>& runs,
                                              const RunFactsMap& facts) {
  const KeyedSample k = keyed_sample(runs, "makespan_total", {}, facts);
  std::map<std::string, std::vector<double>> values;
  for (std::size_t i = 0; i < k.sample.values.size(); ++i)
    values[k.trials[i]].push_back(k.sample.values[i]);
  std::map<std::string, double> out;
  for (auto& [trial, v] : values) out[trial] = stats::median(v);
  return out;
}

}  // namespace

ScheduleRegret schedule_regret(const std::vector<RunRecord>& all,
                               const std::vector<const RunRecord*>& here,
                               const RunFactsMap& facts) {
  ScheduleRegret out;
  if (here.empty()) return out;
  std::map<std::string, std::vector<const RunRecord*>> fixed;  // by label
  for (const RunRecord& run : all)
    if (fixed_schedule(run.balancer) && same_setting(run, *here.front()))
      fixed[run.balancer].push_back(&run);
  std::map<std::string, double> best;  // per trial, the best fixed schedule's median
  for (const auto& [label, runs] : fixed)
    for (const auto& [trial, m] : median_by_trial(runs, facts))
      if (m > 0 && (!best.count(trial) || m < best[trial])) best[trial] = m;
  const KeyedSample mine = keyed_sample(here, "makespan_total", {}, facts);
  std::vector<double> regret;
  for (std::size_t i = 0; i < mine.sample.values.size(); ++i)
    if (const auto b = best.find(mine.trials[i]); b != best.end())
      regret.push_back(mine.sample.values[i] / b->second);
  if (regret.empty()) return out;
  out.schedules = static_cast<int>(fixed.size());
  out.runs = static_cast<int>(regret.size());
  out.regret = stats::median(regret);
  out.low = *std::min_element(regret.begin(), regret.end());
  out.high = *std::max_element(regret.begin(), regret.end());
  return out;
}

}  // namespace lbb
