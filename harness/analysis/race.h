#pragma once
// A race over a config's runs (execution.race; Birattari et al. 2002): which configurations run
// each round, judged at the planned looks as the comparison table judges them, and a progress
// line per look. Configurations that do not race run their repetitions as planned.
#include <set>
#include <string>
#include <vector>

#include "harness/analysis/result_set.h"

namespace lbb {

class Race {
 public:
  explicit Race(const std::vector<RunSpec>& specs);
  bool any() const { return racing_; }  // does any configuration race?
  int rounds() const { return rounds_; }
  // The configurations that run round k (from 0).
  std::vector<const RunSpec*> round(int k) const;
  // After round k: at a look, judges `results` (every run so far of these specs, keyed as
  // results_from_outcomes keys them), drops the decided configurations and returns a line that
  // says what is still open; empty between looks.
  std::string after_round(int k, const std::vector<ConfigResult>& results);

 private:
  std::vector<const RunSpec*> specs_;
  std::set<const RunSpec*> decided_;
  std::set<int> looks_;  // rounds after which the race looks
  int rounds_ = 0;
  bool racing_ = false;
};

// The configuration of `spec` among `results` (workload, label, sweep and P); null if none.
const ConfigResult* result_of(const std::vector<ConfigResult>& results, const RunSpec& spec);

}  // namespace lbb
