#include "harness/analysis/race.h"

#include <algorithm>
#include <map>

#include "harness/analysis/comparison_table.h"
#include "harness/stats/racing.h"

namespace lbb {

namespace {

// Per group: does any row other than the best still need rounds?
std::map<std::string, bool> open_groups(const Comparison& c) {
  std::map<std::string, bool> open;
  for (const ComparisonRow& r : c.rows)
    open[group_key(*r.config)] |= !r.best && r.verdict == stats::Verdict::kUndecided;
  return open;
}

}  // namespace

const ConfigResult* result_of(const std::vector<ConfigResult>& results, const RunSpec& spec) {
  for (const ConfigResult& c : results)
    if (c.workload == spec.workload && c.label == spec.balancer.label &&
        c.sweep == spec.sweep_label && c.processors == spec.processors)
      return &c;
  return nullptr;
}

Race::Race(const std::vector<RunSpec>& specs) {
  for (const RunSpec& s : specs) {
    specs_.push_back(&s);
    rounds_ = std::max(rounds_, s.repetitions);
    if (!s.race.on) continue;
    racing_ = true;
    for (int r : stats::look_rounds(s.race.first_look, s.repetitions)) looks_.insert(r);
  }
}

std::vector<const RunSpec*> Race::round(int k) const {
  std::vector<const RunSpec*> out;
  for (const RunSpec* s : specs_)
    if (k < s->repetitions && !decided_.count(s)) out.push_back(s);
  return out;
}

std::string Race::after_round(int k, const std::vector<ConfigResult>& results) {
  if (!racing_ || !looks_.count(k + 1)) return "";
  const Comparison judged = compare_configs(results);
  const std::map<std::string, bool> open = open_groups(judged);
  int undecided = 0, left = 0;
  std::set<std::string> open_names;
  for (const RunSpec* s : specs_) {
    if (!s->race.on || decided_.count(s)) continue;
    const ConfigResult* c = result_of(results, *s);
    const auto row = std::find_if(judged.rows.begin(), judged.rows.end(),
                                  [&](const ComparisonRow& r) { return r.config == c; });
    const bool races =
        row != judged.rows.end() && row->eligible &&
        (row->verdict == stats::Verdict::kUndecided || (row->best && open.at(group_key(*c))));
    if (!races) {
      decided_.insert(s);
      continue;
    }
    ++left;
    if (row->verdict == stats::Verdict::kUndecided) {
      ++undecided;
      open_names.insert(s->workload + " " + s->balancer.label);
    }
  }
  const bool last = k + 1 == *looks_.rbegin();
  std::string line = "race: after round " + std::to_string(k + 1) + ", " +
                     std::to_string(undecided) + " rows undecided";
  if (!open_names.empty()) {
    line += " (";
    int shown = 0;
    for (const std::string& n : open_names) {
      if (shown++ == 6) {
        line += ", ...";
        break;
      }
      line += (shown > 1 ? ", " : "") + n;
    }
    line += ")";
  }
  if (left == 0)
    line += "; every configuration decided";
  else
    line += last ? "; no rounds left (execution.repetitions)"
                 : "; " + std::to_string(left) + " configurations still running";
  return line;
}

}  // namespace lbb
