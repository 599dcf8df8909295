// A monotone row (`monotone`, `over`): the claim that a metric falls, or rises, with a swept key
// whatever the key's unit, as Iqbal, Saltz & Bokhari 1986 claim of the safety factor (Figs. 6-7).
#include <algorithm>
#include <cmath>
#include <map>

#include "core/text.h"
#include "harness/papers/expectation_compare.h"
#include "harness/papers/expectation_order.h"
#include "harness/stats/sample_summary.h"

namespace lbb {
namespace {

// The row's runs by the value of its swept key, ascending.
std::map<double, std::vector<const RunRecord*>> by_value(const std::vector<const RunRecord*>& here,
                                                         const std::string& over) {
  std::map<double, std::vector<const RunRecord*>> out;
  for (const RunRecord* run : here)
    if (const auto text = run_value(*run, over))
      if (const auto x = parse_number(*text)) out[*x].push_back(run);
  return out;
}

struct Step {
  std::string name;  // "0.5->1"
  Comparison c;
  double p = 1;  // Holm-adjusted
};

// "falls 0.5->1 (p 1e-05), 1->2 (exact)": the steps shown to go `way`.
std::string steps_text(const std::vector<Step>& steps, int way, const char* verb, double alpha) {
  std::string out;
  for (const Step& s : steps)
    if (s.c.way == way && s.p <= alpha)
      out += (out.empty() ? std::string(verb) + " " : ", ") + s.name +
             (s.c.method == stats::Method::kExact ? "" : " (p " + format_number(s.p, 2) + ")");
  return out;
}

// The row's samples at each value of its swept key (ascending), values without runs left out.
void points_of(ExpectationResult& r, const std::vector<RunRecord>& runs, const RunFactsMap& facts,
               std::vector<double>& at, std::vector<KeyedSample>& samples) {
  const Expectation& e = *r.expectation;
  for (const auto& [x, these] : by_value(select_runs(runs, e.where), e.over)) {
    KeyedSample k = keyed_sample(these, e.metric, e.where, facts, e.over);
    if (k.sample.values.empty()) continue;
    r.runs += static_cast<int>(k.sample.values.size());
    at.push_back(x);
    samples.push_back(std::move(k));
  }
}

// Each value against the next, then the last against the first; Holm over all of them.
std::vector<Step> compare_steps(const std::vector<double>& at,
                                const std::vector<KeyedSample>& samples, double alpha) {
  std::vector<Step> steps;
  std::vector<double> p;
  const auto add = [&](std::size_t from, std::size_t to) {
    steps.push_back({format_number(at[from], 4) + "->" + format_number(at[to], 4),
                     compare_samples(samples[to].sample, samples[from].sample, alpha)});
    p.push_back(steps.back().c.p);
  };
  for (std::size_t i = 0; i + 1 < samples.size(); ++i) add(i, i + 1);
  add(0, samples.size() - 1);  // the whole range: the claim's "at least" (docs/results.md)
  const std::vector<double> adjusted = stats::holm_adjust(p);
  for (std::size_t k = 0; k < steps.size(); ++k) steps[k].p = adjusted[k];
  return steps;
}

// "non-increasing over safety_factor 0.5-8 holds (paired, 50 trials): falls 0.5->1 (p 0.001);
// 0.5->8 x0.71 (p 1e-09)".
std::string monotone_text(const Expectation& e, const std::vector<double>& at,
                          const std::vector<Step>& steps, const std::string& outcome, int trials,
                          double measured, double alpha) {
  const bool falling = e.monotone == "non_increasing";
  std::vector<Comparison> cs;
  for (const Step& s : steps) cs.push_back(s.c);
  std::string out = std::string(falling ? "non-increasing" : "non-decreasing") + " over " + e.over +
                    " " + format_number(at.front(), 4) + "-" + format_number(at.back(), 4) + " " +
                    outcome + " " + method_text(cs, trials, "");
  const std::vector<Step> consecutive(steps.begin(), steps.end() - 1);
  const int claimed = falling ? -1 : 1;
  const std::string bad = steps_text(consecutive, -claimed, falling ? "rises" : "falls", alpha);
  const std::string good = steps_text(consecutive, claimed, falling ? "falls" : "rises", alpha);
  if (!bad.empty()) out += ": " + bad;
  if (!good.empty()) out += (bad.empty() ? ": " : "; ") + good;
  return out + "; " + steps.back().name + " x" + format_number(measured, 3) + " (p " +
         format_number(steps.back().p, 2) + ")";
}

}  // namespace

void judge_monotone(ExpectationResult& r, const std::vector<RunRecord>& runs,
                    const RunFactsMap& facts, double alpha) {
  const Expectation& e = *r.expectation;
  std::vector<double> at;
  std::vector<KeyedSample> samples;
  points_of(r, runs, facts, at, samples);
  if (samples.size() < 2) {
    if (r.runs > 0) r.unmeasured = "fewer than two values of " + e.over + " to order";
    return;
  }
  const std::vector<Step> steps = compare_steps(at, samples, alpha);
  const int claimed = e.monotone == "non_increasing" ? -1 : 1;
  const auto shown = [&](const Step& s, int way) { return s.c.way == way && s.p <= alpha; };
  const bool against =
      std::any_of(steps.begin(), steps.end(), [&](const Step& s) { return shown(s, -claimed); });
  const bool overall = shown(steps.back(), claimed);
  r.order = against ? OrderKind::kDiffers : overall ? OrderKind::kHolds : OrderKind::kTied;
  r.kind = against ? VerdictKind::kDiffers : overall ? VerdictKind::kHolds : VerdictKind::kTied;
  // The values as ratios to the first's median: the claim's unit is the metric's own.
  const double first = stats::median(samples.front().sample.values);
  r.low = r.high = 1;
  for (const KeyedSample& s : samples) {
    const double ratio = stats::median(s.sample.values) / first;
    r.low = std::min(r.low, ratio), r.high = std::max(r.high, ratio);
  }
  r.measured = stats::median(samples.back().sample.values) / first;
  r.verdict = monotone_text(e, at, steps,
                            against   ? "differs"
                            : overall ? "holds"
                                      : "tied",
                            distinct_trials(samples.front().trials), *r.measured, alpha);
}

}  // namespace lbb
