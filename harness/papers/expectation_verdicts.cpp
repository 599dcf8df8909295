#include "harness/papers/expectation_verdicts.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <sstream>

#include "core/text.h"
#include "harness/papers/auto_outcomes.h"
#include "harness/papers/matrix_model_comparison.h"
#include "harness/stats/rank_tests.h"
#include "harness/stats/sample_summary.h"
#include "harness/stats/verdict.h"

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
    const bool rate = e.metric == "auto_hit_rate";
    r.runs = rate ? f.decided() : f.cases;  // a tie is neither a hit nor a miss
    if (rate && f.cases > 0 && f.decided() == 0)
      r.unmeasured = "no case decided: in each the U test cannot tell auto's choice from the best";
    if (r.runs == 0) return;
    r.measured = rate ? f.hit_rate() : f.max_regret;
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
  r.samples = v;
  if (e.relative_to.empty()) return;
  const std::vector<double> ref = values(select(runs, e.relative_to), e.metric);
  if (ref.empty()) {
    r.measured.reset();
    r.samples.clear();
    return;
  }
  const double base = stats::median(ref);
  r.measured = base / m;
  r.low = base / r.high;
  r.high = base / *std::min_element(v.begin(), v.end());
  for (double& x : r.samples) x = base / x;  // monotone: the U test's order is unchanged
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

// Rows of this many runs or more place the paper's number in their distribution: its percentile
// (runs below it, ties counted half). Fewer runs (three trees, six repetitions) say little of it.
constexpr std::size_t kPercentileRuns = 20;

std::string paper_percentile(const std::vector<double>& samples, double paper) {
  if (samples.size() < kPercentileRuns) return "";
  double below = 0;
  for (double x : samples) below += x < paper ? 1.0 : x == paper ? 0.5 : 0.0;
  return "; the paper's number at percentile " +
         format_number(100 * below / static_cast<double>(samples.size()), 3) + " of its " +
         std::to_string(samples.size()) + " runs";
}

// What orders a row within its trend group: the paper's number, or its stated rank.
std::optional<double> order_key(const Expectation& e) {
  return e.rank ? e.rank : e.paper;
}

bool counted(const Expectation& e) {
  return e.context.empty() && e.open_choice.empty();
}

// The rows `r` is ordered against: its trend group's measured rows of another paper order,
// leaving out context rows (true by construction) and open choices (unless `r` is one).
bool comparable(const ExpectationResult& r, const ExpectationResult& o) {
  const Expectation &e = *r.expectation, &f = *o.expectation;
  if (&o == &r || f.trend != e.trend || o.samples.empty() || !f.context.empty()) return false;
  if (!f.open_choice.empty() && e.open_choice.empty()) return false;
  return order_key(f) && sign(*order_key(e) - *order_key(f)) != 0;
}

// "'a' (p 0.4)" for one or two rows, else "3 rows (p 0.2-1)".
std::string rows_text(const std::vector<std::pair<std::string, double>>& rows) {
  if (rows.size() > 2) {
    double lo = 1, hi = 0;
    for (const auto& [name, p] : rows) lo = std::min(lo, p), hi = std::max(hi, p);
    return std::to_string(rows.size()) + " rows (p " + format_number(lo, 2) + "-" +
           format_number(hi, 2) + ")";
  }
  std::string out;
  for (const auto& [name, p] : rows)
    out += (out.empty() ? "'" : ", '") + name + "' (p " + format_number(p, 2) + ")";
  return out;
}

// Each comparison a two-sided U test, Holm-adjusted over the row's comparisons: holds when
// every one finds the paper's order, differs when any finds the opposite, else tied.
std::string judge_order(ExpectationResult& r, const std::vector<ExpectationResult>& all,
                        double alpha) {
  const Expectation& e = *r.expectation;
  if (e.trend.empty() || r.samples.empty() || !order_key(e)) return "";
  std::vector<const ExpectationResult*> others;
  std::vector<double> p;
  for (const ExpectationResult& o : all)
    if (comparable(r, o)) {
      others.push_back(&o);
      p.push_back(stats::mann_whitney_p(r.samples, o.samples));
    }
  if (others.empty()) return "";
  const std::vector<double> adjusted = stats::holm_adjust(p);
  std::vector<std::pair<std::string, double>> held, tied, reversed;
  for (std::size_t k = 0; k < others.size(); ++k) {
    const Expectation& f = *others[k]->expectation;
    const bool paper_order = sign(stats::median(r.samples) - stats::median(others[k]->samples)) ==
                             sign(*order_key(e) - *order_key(f));
    auto& to = adjusted[k] > alpha ? tied : paper_order ? held : reversed;
    to.emplace_back(f.row, adjusted[k]);
  }
  r.order = !reversed.empty() ? OrderKind::kDiffers
            : !tied.empty()   ? OrderKind::kTied
                              : OrderKind::kHolds;
  if (!reversed.empty()) return "order reversed against " + rows_text(reversed);
  if (!tied.empty()) return "order tied with " + rows_text(tied);
  return "order holds against " + rows_text(held);
}

VerdictKind order_verdict(OrderKind k) {
  switch (k) {
    case OrderKind::kHolds:
      return VerdictKind::kHolds;
    case OrderKind::kTied:
      return VerdictKind::kTied;
    case OrderKind::kDiffers:
      return VerdictKind::kDiffers;
    case OrderKind::kNone:
      break;
  }
  return VerdictKind::kNoRuns;
}

// A number of the paper: within its tolerance or not; its order shown beside and deciding only
// when the value is within (a reversed order then differs).
void judge_value(ExpectationResult& r, const std::string& order) {
  const Expectation& e = *r.expectation;
  const double m = *r.measured, p = *e.paper;
  const std::string beside = order.empty() ? "" : "; " + order;
  if (!e.bound.empty()) {
    const bool inside = e.bound == "upper" ? m <= p : m >= p;
    r.kind = inside ? VerdictKind::kExact : VerdictKind::kDiffers;
    r.verdict = inside ? "exact (within the paper's " + e.bound + " bound)"
                       : "differs: beyond the paper's " + e.bound + " bound by " + difference(m, p);
    return;
  }
  r.tolerance = value_tolerance(e);
  const bool within = std::abs(m - p) <= r.tolerance + 1e-12 * std::max(1.0, std::abs(p));
  if (!within) {
    r.kind = VerdictKind::kDiffers;
    r.verdict = "differs by " + difference(m, p) + beside;
  } else {
    r.kind = r.order == OrderKind::kDiffers ? VerdictKind::kDiffers : VerdictKind::kExact;
    r.verdict = "exact" + beside;
  }
}

void give_verdict(ExpectationResult& r, const std::vector<ExpectationResult>& all, double alpha) {
  const Expectation& e = *r.expectation;
  r.counted = counted(e);
  if (!e.not_built.empty()) {
    r.kind = VerdictKind::kNotBuilt;
    r.verdict = "not built: " + e.not_built;
    return;
  }
  if (!r.measured) {
    r.kind = VerdictKind::kNoRuns;
    r.verdict = r.unmeasured.empty() ? "no runs" : r.unmeasured;
    return;
  }
  if (!e.context.empty()) {
    r.kind = VerdictKind::kContext;
    r.verdict = "context: " + e.context;
    if (e.paper) r.verdict += "; " + difference(*r.measured, *e.paper);
    if (e.paper) r.verdict += paper_percentile(r.samples, *e.paper);
    return;
  }
  const std::string order = judge_order(r, all, alpha);
  if (e.paper) {
    judge_value(r, order);
  } else {
    r.kind = order_verdict(r.order);
    r.verdict = order.empty() ? "nothing measured to order it against" : order;
  }
  if (e.paper) r.verdict += paper_percentile(r.samples, *e.paper);
  if (!e.open_choice.empty()) r.verdict = "open choice, not counted: " + r.verdict;
}

}  // namespace

std::vector<ExpectationResult> judge_expectations(const std::vector<Expectation>& rows,
                                                  const std::vector<RunInfo>& runs, double alpha) {
  std::vector<ExpectationResult> out(rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    out[i].expectation = &rows[i];
    if (rows[i].not_built.empty()) measure(rows[i], runs, out[i]);
  }
  for (ExpectationResult& r : out) give_verdict(r, out, alpha);
  return out;
}

}  // namespace lbb
