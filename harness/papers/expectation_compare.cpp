#include "harness/papers/expectation_compare.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <set>

#include "harness/stats/rank_tests.h"
#include "harness/stats/sample_summary.h"

namespace lbb {
namespace {

constexpr double kTolerance = 1e-9;  // relative: deterministic values this close are equal

int direction(double x) {
  return (x > 0) - (x < 0);
}

bool positive(const stats::RowSample& s) {
  return std::all_of(s.values.begin(), s.values.end(), [](double v) { return v > 0; });
}

// exp of each value, so that the log-ratio tests compare differences: log(e^a / e^b) = a - b.
// nullopt when a value is too large for exp.
std::optional<stats::RowSample> exponentiated(const stats::RowSample& s) {
  stats::RowSample out = s;
  double largest = 0;
  for (double& v : out.values) {
    if (!(std::abs(v) < 700)) return std::nullopt;
    v = std::exp(v);
    largest = std::max(largest, v);
  }
  out.uncertainty = largest * std::expm1(s.uncertainty);
  return out;
}

}  // namespace

Comparison compare_samples(const stats::RowSample& a, const stats::RowSample& b, double alpha) {
  Comparison out;
  if (a.values.empty() || b.values.empty()) return out;
  if (!positive(a) || !positive(b)) {  // a zero has no log: compare differences instead
    const auto ea = exponentiated(a), eb = exponentiated(b);
    if (!ea || !eb) {
      out.method = stats::Method::kUnpaired;
      out.p = stats::mann_whitney_p(a.values, b.values);
      out.way = direction(stats::median(a.values) - stats::median(b.values));
      return out;
    }
    out = compare_samples(*ea, *eb, alpha);
    out.ratio = 1;
    return out;
  }
  const stats::RowComparison c = stats::compare_rows(a, b, 1 - alpha, kTolerance);
  out.method = c.method;
  out.ratio = c.ratio.estimate;
  out.p = c.p;
  if (c.method == stats::Method::kExact) {
    out.way = c.ratio.low > 1 + kTolerance ? 1 : c.ratio.high < 1 - kTolerance ? -1 : 0;
    out.p = out.way != 0 ? 0 : 1;  // decided by value: nothing to adjust
    return out;
  }
  out.way = std::isfinite(out.ratio) && out.ratio > 0 ? direction(std::log(out.ratio)) : 0;
  if (c.method == stats::Method::kPaired)
    out.pairs = static_cast<int>(std::min(a.values.size(), b.values.size()));
  return out;
}

std::string method_text(const std::vector<Comparison>& cs, int trials,
                        const std::string& recording) {
  std::set<std::string> names;
  int pairs = 0;
  for (const Comparison& c : cs) {
    names.insert(stats::method_name(c.method));
    pairs = std::max(pairs, c.pairs);
  }
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : "/") + n;
  if (names.size() == 1 && *names.begin() == "paired")
    out += ", " + std::to_string(pairs) + (trials > 1 ? " trials" : " rounds");
  // A replay of one recording: the order is that recording's, not one robust to another.
  if (!recording.empty()) out += "; the order of one recording, " + recording;
  return "(" + out + ")";
}

}  // namespace lbb
