#include "harness/stats/verdict.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>

#include "harness/stats/paired_tests.h"
#include "harness/stats/sample_summary.h"

namespace lbb::stats {

namespace {

// The values of a and b from the rounds both ran, when every value of the shorter row has its
// partner (each round once per row); empty otherwise (the rounds are broken).
std::pair<std::vector<double>, std::vector<double>> pairs_by_round(const RowSample& a,
                                                                   const RowSample& b) {
  if (a.rounds.size() != a.values.size() || b.rounds.size() != b.values.size()) return {};
  std::map<long, double> by_round;
  for (std::size_t k = 0; k < b.values.size(); ++k)
    if (b.rounds[k] < 0 || !by_round.emplace(b.rounds[k], b.values[k]).second) return {};
  std::vector<double> x, y;
  for (std::size_t k = 0; k < a.values.size(); ++k) {
    auto it = by_round.find(a.rounds[k]);
    if (a.rounds[k] < 0 || it == by_round.end()) continue;
    x.push_back(a.values[k]);
    y.push_back(it->second);
    by_round.erase(it);  // a round twice in a: not pairable
  }
  if (x.empty() || x.size() < std::min(a.values.size(), b.values.size())) return {};
  return {x, y};
}

RowComparison compare_statistically(const RowSample& row, const RowSample& best,
                                    double confidence) {
  const auto [x, y] = pairs_by_round(row, best);
  if (!x.empty()) {
    const PairedRatio r = paired_log_ratio(x, y, confidence);
    return {Method::kPaired, r.ratio, r.p};
  }
  return {Method::kUnpaired, ratio_interval(row.values, best.values, confidence),
          mann_whitney_p(row.values, best.values)};
}

bool constant(const RowSample& r, double tolerance) {
  const auto [lo, hi] = std::minmax_element(r.values.begin(), r.values.end());
  return *hi <= *lo * (1 + tolerance) + 2 * r.uncertainty;
}

// The ratio of the values with its bounds when each may move by its uncertainty.
RowComparison compare_exactly(const RowSample& row, const RowSample& best) {
  const double v = median(row.values), b = median(best.values);
  const double low = (v - row.uncertainty) / (b + best.uncertainty);
  const double high_den = b - best.uncertainty;
  const double high =
      high_den > 0 ? (v + row.uncertainty) / high_den : std::numeric_limits<double>::infinity();
  return {Method::kExact, {v / b, low, high, 1}, 1};
}

Verdict row_verdict(const RowComparison& c, double p_adjusted, const VerdictRules& rules) {
  const bool slower = c.method == Method::kExact
                          ? c.ratio.low > 1 + rules.tolerance
                          : p_adjusted <= rules.level() && c.ratio.estimate > 1;
  if (slower) return Verdict::kSlower;
  if (c.ratio.low >= 1 - rules.delta && c.ratio.high <= 1 + rules.delta)
    return Verdict::kEquivalent;
  return Verdict::kUndecided;
}

}  // namespace

RowComparison compare_rows(const RowSample& a, const RowSample& b, double confidence,
                           double tolerance) {
  if (a.values.empty() || b.values.empty()) return {};
  const auto fixed = [&](const RowSample& r) { return r.deterministic && constant(r, tolerance); };
  if (fixed(a) && fixed(b)) return compare_exactly(a, b);
  return compare_statistically(a, b, confidence);
}

const char* verdict_name(Verdict v) {
  switch (v) {
    case Verdict::kWinner:
      return "winner";
    case Verdict::kEquivalent:
      return "equivalent";
    case Verdict::kSlower:
      return "slower";
    case Verdict::kUndecided:
      return "undecided";
    case Verdict::kNotJudged:
      break;
  }
  return "";
}

const char* method_name(Method m) {
  switch (m) {
    case Method::kPaired:
      return "paired";
    case Method::kUnpaired:
      return "unpaired";
    case Method::kExact:
      return "exact";
    case Method::kNone:
      break;
  }
  return "";
}

std::vector<double> holm_adjust(const std::vector<double>& p, std::size_t family) {
  const std::size_t m = p.size();
  family = std::max(family, m);
  std::vector<std::size_t> order(m);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](auto a, auto b) { return p[a] < p[b]; });
  std::vector<double> out(m);
  double running = 0;
  for (std::size_t k = 0; k < m; ++k) {
    running = std::max(running, std::min(1.0, static_cast<double>(family - k) * p[order[k]]));
    out[order[k]] = running;
  }
  return out;
}

GroupJudgement judge_group(const std::vector<RowSample>& rows, const std::vector<bool>& eligible,
                           const VerdictRules& rules) {
  GroupJudgement g;
  g.rows.resize(rows.size());
  std::vector<std::size_t> ranked;
  for (std::size_t i = 0; i < rows.size(); ++i)
    if (eligible[i] && !rows[i].values.empty()) ranked.push_back(i);
  if (ranked.empty()) return g;
  const auto by_median = [&](std::size_t a, std::size_t b) {
    return median(rows[a].values) < median(rows[b].values);
  };
  g.best = static_cast<int>(*std::min_element(ranked.begin(), ranked.end(), by_median));
  if (ranked.size() == 1) return g;
  const bool exact = std::all_of(ranked.begin(), ranked.end(), [&](std::size_t i) {
    return rows[i].deterministic && constant(rows[i], rules.tolerance);
  });
  g.varied_constant = !exact && std::any_of(ranked.begin(), ranked.end(), [&](std::size_t i) {
    return rows[i].deterministic && !constant(rows[i], rules.tolerance);
  });
  const RowSample& best = rows[static_cast<std::size_t>(g.best)];
  std::vector<std::size_t> others;
  std::vector<RowComparison> compared;
  std::vector<double> p;
  for (std::size_t i : ranked) {
    if (static_cast<int>(i) == g.best) continue;
    others.push_back(i);
    compared.push_back(exact ? compare_exactly(rows[i], best)
                             : compare_statistically(rows[i], best, 1 - 2 * rules.level()));
    g.broken_rounds |= compared.back().method == Method::kUnpaired;
    p.push_back(compared.back().p);
  }
  // The best is chosen from the data: one look adjusts over all the group's pairs; a race's looks,
  // each at alpha / looks, leave room for the choice (tests/verdict_error_rates_test.cpp).
  const std::size_t pairs = ranked.size() * (ranked.size() - 1) / 2;
  const std::vector<double> adjusted = holm_adjust(p, rules.looks > 1 ? p.size() : pairs);
  bool all_decided = true;
  for (std::size_t k = 0; k < others.size(); ++k) {
    RowJudgement& r = g.rows[others[k]];
    r.method = compared[k].method;
    r.vs_best = compared[k].ratio;
    r.p = adjusted[k];
    r.verdict = row_verdict(compared[k], adjusted[k], rules);
    all_decided &= r.verdict != Verdict::kUndecided;
  }
  RowJudgement& b = g.rows[static_cast<std::size_t>(g.best)];
  b.method = exact ? Method::kExact : compared.front().method;
  b.vs_best = {1, 1, 1, 1};
  b.verdict = all_decided ? Verdict::kWinner : Verdict::kUndecided;
  return g;
}

}  // namespace lbb::stats
