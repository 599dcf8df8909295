#include "harness/papers/expectation_verdicts.h"

#include <algorithm>
#include <cmath>

#include "core/text.h"
#include "harness/papers/auto_outcomes.h"
#include "harness/papers/expectation_order.h"
#include "harness/papers/expectation_samples.h"
#include "harness/papers/matrix_model_comparison.h"
#include "harness/papers/schedule_regret.h"
#include "harness/stats/sample_summary.h"
#include "harness/stats/verdict.h"

namespace lbb {
namespace {

// The row's runs as keyed samples (expectation_samples.h); relative_to: base median / value.
void measure_samples(const Expectation& e, const std::vector<RunRecord>& runs,
                     const std::vector<const RunRecord*>& here, const RunFactsMap& facts,
                     ExpectationResult& r) {
  KeyedSample k = keyed_sample(here, e.metric, e.where, facts);
  const std::vector<double>& v = k.sample.values;
  r.runs = static_cast<int>(v.size());
  if (v.empty()) return;
  const double m = stats::median(v);
  r.low = *std::min_element(v.begin(), v.end());
  r.high = *std::max_element(v.begin(), v.end());
  r.measured = m;
  r.samples = v;
  r.rounds = k.sample.rounds;
  r.trials = k.trials;
  r.deterministic = k.sample.deterministic;
  r.uncertainty = k.sample.uncertainty;
  r.recording = k.recording;
  if (e.relative_to.empty()) return;
  const KeyedSample base_runs =
      keyed_sample(select_runs(runs, e.relative_to), e.metric, e.relative_to, facts);
  const std::vector<double>& ref = base_runs.sample.values;
  if (ref.empty()) {
    r.measured.reset();
    r.samples.clear();
    return;
  }
  const double base = stats::median(ref);
  r.measured = base / m;
  r.low = base / r.high;
  r.high = base / *std::min_element(v.begin(), v.end());
  for (double& x : r.samples) x = base / x;  // monotone: the order is unchanged
  // A ratio moves by the shares of both its values; the base is deterministic too or not at all.
  r.deterministic &= base_runs.sample.deterministic;
  const double share = k.relative_uncertainty + base_runs.relative_uncertainty;
  r.uncertainty =
      r.deterministic ? share * *std::max_element(r.samples.begin(), r.samples.end()) : 0;
  if (base_runs.recording != r.recording) r.recording.clear();
}

void measure(const Expectation& e, const std::vector<RunRecord>& runs, const RunFactsMap& facts,
             ExpectationResult& r) {
  const std::vector<const RunRecord*> here = select_runs(runs, e.where);
  if (e.metric == "auto_hit_rate" || e.metric == "auto_max_regret") {
    std::vector<RunRecord> chosen;
    for (const RunRecord* x : here) chosen.push_back(*x);
    const AutoFigures f = auto_figures(auto_cases(chosen));
    const bool rate = e.metric == "auto_hit_rate";
    r.runs = rate ? f.decided() : f.cases;  // a tie is neither a hit nor a miss
    if (rate && f.cases > 0 && f.decided() == 0)
      r.unmeasured = "no case decided: in each the test cannot tell auto's choice from the best";
    if (r.runs == 0) return;
    r.measured = rate ? f.hit_rate() : f.max_regret;
    r.low = r.high = r.measured.value_or(0);
    return;
  }
  if (e.metric == "schedule_regret") {
    const ScheduleRegret s = schedule_regret(runs, here, facts);
    r.runs = s.runs;
    if (s.runs == 0) {
      r.unmeasured = "no fixed loop schedule ran on the same workload and processors";
      return;
    }
    r.measured = s.regret;
    r.low = s.low, r.high = s.high;
    return;
  }
  if (e.metric == "matrix_model_error") {
    std::vector<RunRecord> chosen;
    for (const RunRecord* x : here) chosen.push_back(*x);
    const std::vector<ModelSpeedup> rows = compare_matrix_model(chosen);
    r.runs = static_cast<int>(rows.size());
    if (rows.empty()) return;
    r.measured = largest_model_error(rows);
    r.low = r.high = *r.measured;
    return;
  }
  measure_samples(e, runs, here, facts, r);
}

}  // namespace

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

bool counted(const Expectation& e) {
  return e.context.empty() && e.open_choice.empty();
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
  if (!e.monotone.empty()) {  // judged as it was measured (judge_monotone)
    if (!e.open_choice.empty()) r.verdict = "open choice, not counted: " + r.verdict;
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
                                                  const std::vector<RunRecord>& runs,
                                                  double alpha) {
  const RunFactsMap facts = run_facts(runs);
  std::vector<ExpectationResult> out(rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    out[i].expectation = &rows[i];
    if (!rows[i].not_built.empty()) continue;
    if (rows[i].monotone.empty())
      measure(rows[i], runs, facts, out[i]);
    else
      judge_monotone(out[i], runs, facts, alpha);
  }
  for (ExpectationResult& r : out) give_verdict(r, out, alpha);
  return out;
}

}  // namespace lbb
