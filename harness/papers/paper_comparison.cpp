#include "harness/papers/paper_comparison.h"

#include <algorithm>
#include <ostream>

#include "core/text.h"
#include "harness/papers/auto_outcomes.h"
#include "harness/papers/expectation_verdicts.h"
#include "harness/papers/matrix_model_comparison.h"

namespace lbb {

std::vector<RunInfo> runs_of(const std::vector<RunInfo>& all, const std::string& config_name,
                             const std::string& invocation) {
  std::vector<RunInfo> out;
  for (const RunInfo& r : all) {
    auto name = r.text.find("name");
    auto inv = r.text.find("invocation");
    if (name == r.text.end() || name->second != config_name) continue;
    if (!invocation.empty() && (inv == r.text.end() || inv->second != invocation)) continue;
    out.push_back(r);
  }
  return out;
}

void print_paper_comparison(std::ostream& out, const Config& config,
                            const std::vector<RunInfo>& runs) {
  double load = 1e300;
  for (const RunInfo& r : runs)
    if (auto it = r.number.find("load_start"); it != r.number.end())
      load = std::min(load, it->second);
  out << "\n" << config.name << " beside the paper (" << runs.size() << " runs";
  if (load < 1e300) out << ", load average " << format_number(load, 3) << " at start";
  out << ")\n";
  const std::vector<AutoCase> cases = auto_cases(runs);
  if (!cases.empty()) print_auto_cases(out, cases);
  for (const Expectation& e : config.expectations)
    if (e.metric == "matrix_model_error" && e.paper) {
      std::vector<RunInfo> chosen;
      for (const RunInfo& r : runs)
        if (run_matches(r, e.where)) chosen.push_back(r);
      print_model_speedups(out, compare_matrix_model(chosen), *e.paper);
      out << "\n";
    }
  if (!config.expectations.empty())
    print_expectations(out, judge_expectations(config.expectations, runs));
}

}  // namespace lbb
