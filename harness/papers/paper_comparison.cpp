#include "harness/papers/paper_comparison.h"

#include <algorithm>
#include <cmath>
#include <ostream>

#include "core/text.h"
#include "harness/papers/auto_outcomes.h"
#include "harness/papers/expectation_verdicts.h"
#include "harness/papers/matrix_model_comparison.h"

namespace lbb {

std::vector<RunRecord> runs_of(const std::vector<RunRecord>& all, const std::string& config_name,
                               const std::string& invocation) {
  std::vector<RunRecord> out;
  for (const RunRecord& r : all) {
    if (r.name != config_name) continue;
    if (!invocation.empty() && r.invocation != invocation) continue;
    out.push_back(r);
  }
  return out;
}

void print_paper_comparison(std::ostream& out, const Config& config,
                            const std::vector<RunRecord>& runs) {
  double load = 1e300;
  for (const RunRecord& r : runs)
    if (!std::isnan(r.load_start)) load = std::min(load, r.load_start);
  out << "\n" << config.name << " beside the paper (" << runs.size() << " runs";
  if (load < 1e300) out << ", load average " << format_number(load, 3) << " at start";
  out << ")\n";
  const std::vector<AutoCase> cases = auto_cases(runs);
  if (!cases.empty()) print_auto_cases(out, cases);
  for (const Expectation& e : config.expectations)
    if (e.metric == "matrix_model_error" && e.paper) {
      std::vector<RunRecord> chosen;
      for (const RunRecord& r : runs)
        if (run_matches(r, e.where)) chosen.push_back(r);
      print_model_speedups(out, compare_matrix_model(chosen), *e.paper);
      out << "\n";
    }
  if (!config.expectations.empty())
    print_expectations(out, judge_expectations(config.expectations, runs));
}

}  // namespace lbb
