#include "harness/run/run_selection.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <stdexcept>
#include <utility>

#include "harness/run/executor_registry.h"
#include "harness/run/runner.h"

namespace lbb {

std::vector<PlannedRun> plan_runs(const std::vector<RunSpec>& specs) {
  int max_reps = 0;
  for (const auto& spec : specs) max_reps = std::max(max_reps, spec.repetitions);
  std::vector<PlannedRun> plan;
  for (int rep = 0; rep < max_reps; ++rep)
    for (const auto& spec : specs)
      if (rep < spec.repetitions) plan.push_back({&spec, rep});
  return plan;
}

std::vector<PlannedRun> slice_groups_of(const std::vector<PlannedRun>& plan, Slice slice) {
  std::map<std::string, std::size_t> groups;  // first-seen order
  std::vector<PlannedRun> out;
  for (const PlannedRun& r : plan) {
    const std::string key =
        r.spec->workload + "|" + std::to_string(r.spec->processors) + "|" + r.spec->sweep_label;
    const std::size_t g = groups.try_emplace(key, groups.size()).first->second;
    if (g % static_cast<std::size_t>(slice.count) == static_cast<std::size_t>(slice.index))
      out.push_back(r);
  }
  return out;
}

DeterministicCut once_if_deterministic(std::vector<RunSpec>& specs) {
  DeterministicCut cut;
  for (RunSpec& s : specs)
    if (s.repetitions > 1 && runs_simulated(s)) {
      cut.asked = std::max(cut.asked, s.repetitions);
      s.repetitions = 1;
      ++cut.configurations;
    }
  return cut;
}

Slice parse_slice(const std::string& text) {
  const auto slash = text.find('/');
  Slice s;
  auto number = [&](std::size_t from, std::size_t to, int& out) {
    const char* first = text.data() + from;
    const char* last = text.data() + to;
    auto [end, ec] = std::from_chars(first, last, out);
    return ec == std::errc() && end == last && first != last;
  };
  if (slash == std::string::npos || !number(0, slash, s.index) ||
      !number(slash + 1, text.size(), s.count) || s.count < 1 || s.index < 0 || s.index >= s.count)
    throw std::invalid_argument("'" + text + "' is not i/n with 0 <= i < n");
  return s;
}

std::vector<PlannedRun> slice_of(const std::vector<PlannedRun>& plan, Slice slice) {
  std::vector<PlannedRun> out;
  for (std::size_t k = 0; k < plan.size(); ++k)
    if (k % static_cast<std::size_t>(slice.count) == static_cast<std::size_t>(slice.index))
      out.push_back(plan[k]);
  return out;
}

std::vector<PlannedRun> missing_from(const std::vector<PlannedRun>& plan,
                                     const std::vector<RunRecord>& recorded) {
  std::map<std::pair<std::string, int>, int> done;
  for (const auto& r : recorded) {
    if (r.config_yaml.empty() || r.repetition == -1) continue;
    if (r.interrupted == 1) continue;  // stopped, not failed: resume runs it again
    if (r.status == "complete" || r.status == "failed")
      ++done[{r.config_yaml, static_cast<int>(r.repetition)}];
  }
  std::vector<PlannedRun> out;
  for (const auto& p : plan) {
    auto it = done.find({p.spec->resolved_yaml, p.repetition});
    if (it != done.end() && it->second > 0)
      --it->second;
    else
      out.push_back(p);
  }
  return out;
}

}  // namespace lbb
