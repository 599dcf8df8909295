#include "harness/papers/expectation_verdicts.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <iomanip>
#include <map>
#include <ostream>
#include <sstream>

#include "core/text.h"
#include "harness/papers/auto_outcomes.h"
#include "harness/papers/matrix_model_comparison.h"
#include "harness/stats/sample_summary.h"

namespace lbb {
namespace {

std::optional<double> as_number(const std::string& s) {
  double x = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), x);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return x;
}

bool same_value(const std::string& a, const std::string& b) {
  const auto x = as_number(a), y = as_number(b);
  if (x && y) return std::abs(*x - *y) <= 1e-9 * std::max(1.0, std::abs(*y));
  return a == b;
}

// The value of `key` in a sweep text "k1=v1 k2=v2".
std::optional<std::string> swept_value(const std::string& sweep, const std::string& key) {
  std::istringstream in(sweep);
  for (std::string token; in >> token;)
    if (token.rfind(key + "=", 0) == 0) return token.substr(key.size() + 1);
  return std::nullopt;
}

bool matches_one(const RunInfo& run, const std::string& key, const std::string& value) {
  if (auto t = run.text.find(key); t != run.text.end()) return same_value(t->second, value);
  if (auto n = run.number.find(key); n != run.number.end()) {
    const auto v = as_number(value);
    return v && std::abs(n->second - *v) <= 1e-9 * std::max(1.0, std::abs(*v));
  }
  const auto sweep = run.text.find("sweep");
  if (sweep == run.text.end()) return false;
  const auto v = swept_value(sweep->second, key);
  return v && same_value(*v, value);
}

std::vector<const RunInfo*> select(const std::vector<RunInfo>& runs, const Selector& where) {
  std::vector<const RunInfo*> out;
  for (const RunInfo& r : runs) {
    auto s = r.text.find("status");
    if (s != r.text.end() && s->second == "complete" && run_matches(r, where)) out.push_back(&r);
  }
  return out;
}

std::vector<double> values(const std::vector<const RunInfo*>& runs, const std::string& metric) {
  std::vector<double> out;
  for (const RunInfo* r : runs)
    if (auto it = r->number.find(metric); it != r->number.end() && std::isfinite(it->second))
      out.push_back(it->second);
  return out;
}

void measure(const Expectation& e, const std::vector<RunInfo>& runs, ExpectationResult& r) {
  const std::vector<const RunInfo*> here = select(runs, e.where);
  if (e.metric == "auto_hit_rate" || e.metric == "auto_max_regret") {
    std::vector<RunInfo> chosen;
    for (const RunInfo* x : here) chosen.push_back(*x);
    const AutoFigures f = auto_figures(auto_cases(chosen));
    r.runs = f.cases;
    if (f.cases == 0) return;
    if (e.metric == "auto_hit_rate") r.measured = f.hit_rate();
    if (e.metric == "auto_max_regret") r.measured = f.max_regret;
    r.low = r.high = r.measured.value_or(0);
    return;
  }
  if (e.metric == "matrix_model_error") {
    std::vector<RunInfo> chosen;
    for (const RunInfo* x : here) chosen.push_back(*x);
    const std::vector<ModelSpeedup> rows = compare_matrix_model(chosen);
    r.runs = static_cast<int>(rows.size());
    if (rows.empty()) return;
    r.measured = largest_model_error(rows);
    r.low = r.high = *r.measured;
    return;
  }
  const std::vector<double> v = values(here, e.metric);
  r.runs = static_cast<int>(v.size());
  if (v.empty()) return;
  const double m = stats::median(v);
  r.low = *std::min_element(v.begin(), v.end());
  r.high = *std::max_element(v.begin(), v.end());
  r.measured = m;
  if (e.relative_to.empty()) return;
  const std::vector<double> ref = values(select(runs, e.relative_to), e.metric);
  if (ref.empty()) {
    r.measured.reset();
    return;
  }
  const double base = stats::median(ref);
  r.measured = base / m;
  r.low = base / r.high;
  r.high = base / *std::min_element(v.begin(), v.end());
}

}  // namespace

bool run_matches(const RunInfo& run, const Selector& where) {
  return std::all_of(where.begin(), where.end(),
                     [&](const auto& kv) { return matches_one(run, kv.first, kv.second); });
}

namespace {

std::string signed_number(double x, int digits) {
  std::string out = x > 0 ? "+" : "";
  out += format_number(x, digits);  // appended: GCC 12 misreports "+" + string (-Wrestrict)
  return out;
}

std::string difference(double measured, double paper) {
  std::string out = signed_number(measured - paper, 3);
  if (paper != 0)
    out += " (" + signed_number(100 * (measured - paper) / std::abs(paper), 3) + " %)";
  return out;
}

int sign(double x) {
  return (x > 0) - (x < 0);
}

// What orders a row within its trend group: the paper's number, or its stated rank.
std::optional<double> order_key(const Expectation& e) {
  return e.rank ? e.rank : e.paper;
}

// A row holds its group's trend when every other measured row of the group whose paper value
// differs from its own lies on the same side as in the paper; nullopt: nothing to compare.
std::optional<bool> trend_holds(const ExpectationResult& r,
                                const std::vector<ExpectationResult>& all) {
  const Expectation& e = *r.expectation;
  if (e.trend.empty() || !r.measured) return std::nullopt;
  int compared = 0;
  for (const ExpectationResult& o : all) {
    if (&o == &r || o.expectation->trend != e.trend || !o.measured || !order_key(*o.expectation))
      continue;
    const int paper = sign(*order_key(e) - *order_key(*o.expectation));
    if (paper == 0) continue;
    ++compared;
    if (sign(*r.measured - *o.measured) != paper) return false;
  }
  if (compared == 0) return std::nullopt;
  return true;
}

void give_verdict(ExpectationResult& r, const std::vector<ExpectationResult>& all) {
  const Expectation& e = *r.expectation;
  if (!e.not_built.empty()) {
    r.kind = VerdictKind::kNotBuilt;
    r.verdict = "not built: " + e.not_built;
    return;
  }
  if (!r.measured) {
    r.kind = VerdictKind::kNoRuns;
    r.verdict = "no runs";
    return;
  }
  if (!e.paper) {  // a rank: the order is all the paper gives
    const std::optional<bool> holds = trend_holds(r, all);
    r.kind = holds.value_or(false) ? VerdictKind::kTrendHolds : VerdictKind::kDiffers;
    r.verdict = !holds   ? "differs: nothing measured to order it against"
                : *holds ? "trend holds (the paper's order)"
                         : "differs: breaks the paper's order";
    return;
  }
  const double m = *r.measured, p = *e.paper;
  if (!e.bound.empty()) {
    const bool inside = e.bound == "upper" ? m <= p : m >= p;
    r.kind = inside ? VerdictKind::kExact : VerdictKind::kDiffers;
    r.verdict = inside ? "exact (within the paper's " + e.bound + " bound)"
                       : "differs: beyond the paper's " + e.bound + " bound by " + difference(m, p);
    return;
  }
  if (std::abs(m - p) <= e.tolerance * std::abs(p)) {
    r.kind = VerdictKind::kExact;
    r.verdict = "exact (within " + format_number(100 * e.tolerance, 3) + " %)";
  } else if (trend_holds(r, all).value_or(false)) {
    r.kind = VerdictKind::kTrendHolds;
    r.verdict = "trend holds; value differs by " + difference(m, p);
  } else {
    r.kind = VerdictKind::kDiffers;
    r.verdict = "differs by " + difference(m, p) +
                (trend_holds(r, all).has_value() ? " and breaks the trend" : "");
  }
}

std::string paper_cell(const Expectation& e) {
  if (e.paper) return format_number(*e.paper, 4);
  if (e.rank) return "rank " + format_number(*e.rank, 3);
  return "-";
}

}  // namespace

std::vector<ExpectationResult> judge_expectations(const std::vector<Expectation>& rows,
                                                  const std::vector<RunInfo>& runs) {
  std::vector<ExpectationResult> out(rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    out[i].expectation = &rows[i];
    if (rows[i].not_built.empty()) measure(rows[i], runs, out[i]);
  }
  for (ExpectationResult& r : out) give_verdict(r, out);
  return out;
}

void print_expectations(std::ostream& out, const std::vector<ExpectationResult>& results) {
  std::size_t wr = 3, wm = 6;
  for (const auto& r : results) {
    wr = std::max(wr, printable(r.expectation->row).size());
    wm = std::max(wm, r.expectation->metric.size());
  }
  out << std::left << std::setw(static_cast<int>(wr)) << "row"
      << "  " << std::setw(static_cast<int>(wm)) << "metric" << std::right << std::setw(10)
      << "measured" << std::setw(20) << "min-max (runs)" << std::setw(10) << "paper"
      << "  verdict\n";
  std::map<VerdictKind, int> count;
  for (const auto& r : results) {
    ++count[r.kind];
    std::ostringstream range;
    if (r.measured) range << format_number(r.low, 3) << "-" << format_number(r.high, 3);
    range << " (" << r.runs << ")";
    out << std::left << std::setw(static_cast<int>(wr)) << printable(r.expectation->row) << "  "
        << std::setw(static_cast<int>(wm)) << r.expectation->metric << std::right << std::setw(10)
        << (r.measured ? format_number(*r.measured, 4) : "-") << std::setw(20) << range.str()
        << std::setw(10) << paper_cell(*r.expectation) << "  " << r.verdict << "\n";
  }
  out << "verdicts: " << count[VerdictKind::kExact] << " exact, " << count[VerdictKind::kTrendHolds]
      << " trend holds, " << count[VerdictKind::kDiffers] << " differ, "
      << count[VerdictKind::kNoRuns] << " without runs, " << count[VerdictKind::kNotBuilt]
      << " not built\n";
}

}  // namespace lbb
