#include "harness/papers/schedule_regret.h"

#include <algorithm>
#include <map>

#include "harness/base/schedule.h"
#include "harness/stats/sample_summary.h"

namespace lbb {

namespace {

std::string column_text(const RunInfo& run, const std::string& key) {
  const auto it = run.text.find(key);
  return it == run.text.end() ? "" : it->second;
}

// A fixed loop schedule's label: its schedule name (before any parameters) is one of the
// in-step schedules, not an automatic choice.
bool fixed_schedule(const std::string& label) {
  const std::string name = label.substr(0, label.find('('));
  const ScheduleInfo* info = find_schedule(name);
  return info && info->kind != InStepSchedule::kAssigned &&
         !(info->kind == InStepSchedule::kChunked && info->technique == LoopTechnique::kAuto4OMP);
}

bool same_setting(const RunInfo& a, const RunInfo& b) {
  const auto pa = a.number.find("processors"), pb = b.number.find("processors");
  return column_text(a, "workload") == column_text(b, "workload") &&
         (pa == a.number.end()) == (pb == b.number.end()) &&
         (pa == a.number.end() || pa->second == pb->second);
}

double median_makespan(const std::vector<const RunInfo*>& runs, const RunFactsMap& facts) {
  const KeyedSample k = keyed_sample(runs, "makespan_total", {}, facts);
  return k.sample.values.empty() ? -1 : stats::median(k.sample.values);
}

}  // namespace

ScheduleRegret schedule_regret(const std::vector<RunInfo>& all,
                               const std::vector<const RunInfo*>& here, const RunFactsMap& facts) {
  ScheduleRegret out;
  if (here.empty()) return out;
  std::map<std::string, std::vector<const RunInfo*>> fixed;  // by label
  for (const RunInfo& run : all)
    if (fixed_schedule(column_text(run, "balancer")) && same_setting(run, *here.front()))
      fixed[column_text(run, "balancer")].push_back(&run);
  double best = -1;
  for (const auto& [label, runs] : fixed)
    if (const double m = median_makespan(runs, facts); m > 0 && (best < 0 || m < best))
      best = m, out.best = label;
  const KeyedSample mine = keyed_sample(here, "makespan_total", {}, facts);
  const std::vector<double>& v = mine.sample.values;
  if (best <= 0 || v.empty()) return out;
  out.schedules = static_cast<int>(fixed.size());
  out.runs = static_cast<int>(v.size());
  out.regret = stats::median(v) / best;
  out.low = *std::min_element(v.begin(), v.end()) / best;
  out.high = *std::max_element(v.begin(), v.end()) / best;
  return out;
}

}  // namespace lbb
