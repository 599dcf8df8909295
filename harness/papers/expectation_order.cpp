#include "harness/papers/expectation_order.h"

#include <algorithm>

#include "core/text.h"
#include "harness/papers/expectation_compare.h"

namespace lbb {
namespace {

int sign(double x) {
  return (x > 0) - (x < 0);
}

stats::RowSample sample_of(const ExpectationResult& r) {
  stats::RowSample s;
  s.values = r.samples;
  s.rounds = r.rounds;
  s.deterministic = r.deterministic;
  s.uncertainty = r.uncertainty;
  return s;
}

// What orders a row within its trend group: the paper's number, or its stated rank.
std::optional<double> order_key(const Expectation& e) {
  return e.rank ? e.rank : e.paper;
}

// The rows `r` is ordered against: its trend group's measured rows of another paper order,
// leaving out context rows (true by construction) and open choices (unless `r` is one).
bool comparable(const ExpectationResult& r, const ExpectationResult& o) {
  const Expectation &e = *r.expectation, &f = *o.expectation;
  if (&o == &r || f.trend != e.trend || o.samples.empty() || !f.context.empty()) return false;
  if (!f.open_choice.empty() && e.open_choice.empty()) return false;
  return order_key(f) && sign(*order_key(e) - *order_key(f)) != 0;
}

struct Named {
  std::string row;
  double p = 1;
  bool exact = false;  // decided by value: no p to show
};

// "'a' (p 0.4)" for one or two rows ("'a' (exact)"), else "3 rows (p 0.2-1)".
std::string rows_text(const std::vector<Named>& rows) {
  const bool exact = std::all_of(rows.begin(), rows.end(), [](const Named& n) { return n.exact; });
  if (rows.size() > 2 && exact) return std::to_string(rows.size()) + " rows (exact)";
  if (rows.size() > 2) {
    double lo = 1, hi = 0;
    for (const Named& n : rows) lo = std::min(lo, n.p), hi = std::max(hi, n.p);
    return std::to_string(rows.size()) + " rows (p " + format_number(lo, 2) + "-" +
           format_number(hi, 2) + ")";
  }
  std::string out;
  for (const Named& n : rows)
    out += (out.empty() ? "'" : ", '") + n.row + "' (" +
           (n.exact ? std::string("exact") : "p " + format_number(n.p, 2)) + ")";
  return out;
}

}  // namespace

std::string judge_order(ExpectationResult& r, const std::vector<ExpectationResult>& all,
                        double alpha) {
  const Expectation& e = *r.expectation;
  if (e.trend.empty() || r.samples.empty() || !order_key(e)) return "";
  std::vector<const ExpectationResult*> others;
  std::vector<Comparison> cs;
  std::vector<double> p;
  std::string recording = r.recording;
  for (const ExpectationResult& o : all)
    if (comparable(r, o)) {
      others.push_back(&o);
      cs.push_back(compare_samples(sample_of(r), sample_of(o), alpha));
      p.push_back(cs.back().p);
      if (o.recording != r.recording) recording.clear();
    }
  if (others.empty()) return "";
  const std::vector<double> adjusted = stats::holm_adjust(p);
  std::vector<Named> held, tied, reversed;
  for (std::size_t k = 0; k < others.size(); ++k) {
    const Expectation& f = *others[k]->expectation;
    const bool paper_order = cs[k].way == sign(*order_key(e) - *order_key(f));
    auto& to = adjusted[k] > alpha || cs[k].way == 0 ? tied : paper_order ? held : reversed;
    to.push_back({f.row, adjusted[k], cs[k].method == stats::Method::kExact});
  }
  r.order = !reversed.empty() ? OrderKind::kDiffers
            : !tied.empty()   ? OrderKind::kTied
                              : OrderKind::kHolds;
  const std::string how = " " + method_text(cs, distinct_trials(r.trials), recording);
  if (!reversed.empty()) return "order reversed" + how + " against " + rows_text(reversed);
  if (!tied.empty()) return "order tied" + how + " with " + rows_text(tied);
  return "order holds" + how + " against " + rows_text(held);
}

}  // namespace lbb
