#include "harness/sim/contention_fit.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <regex>
#include <stdexcept>

#include "harness/stats/sample_summary.h"

namespace lbb {

ContentionFit fit_contention(const RecordedRuns& set) {
  // group -> P -> busy totals of its repetitions
  std::map<std::string, std::map<int, std::vector<double>>> busy;
  const std::regex processors_token(R"((^| )processors=\d+)");
  for (const RunRecord& info : set.runs()) {
    if (info.status != "complete" || info.executor == "simulate") continue;
    std::size_t steps = 0, processors = 0;  // every processor's busy time of every step
    const std::vector<double> b = set.read_matrix(info.run, "proc/busy", steps, processors);
    const std::string group = info.workload + " " + info.balancer + " " +
                              std::regex_replace(info.sweep, processors_token, "");
    busy[group][static_cast<int>(info.processors)].push_back(
        std::accumulate(b.begin(), b.end(), 0.0));
  }
  ContentionFit fit;
  double num = 0, den = 0;
  for (const auto& [group, by_p] : busy) {
    auto one = by_p.find(1);
    if (one == by_p.end() || by_p.size() < 2) continue;
    const double base = stats::median(one->second);
    if (base <= 0) continue;
    for (const auto& [p, totals] : by_p) {
      if (p == 1) continue;
      const double r = stats::median(totals) / base;
      fit.points.push_back({group, p, r});
      num += (r - 1) * (p - 1);
      den += static_cast<double>(p - 1) * (p - 1);
    }
  }
  if (den == 0)
    throw std::invalid_argument(
        "calibration needs one configuration run at 1 processor and at more (a sweep over "
        "platform.processors)");
  fit.c = std::max(0.0, num / den);
  return fit;
}

}  // namespace lbb
