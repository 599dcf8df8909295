#include "harness/analysis/set_comparison.h"

#include <cmath>
#include <iomanip>
#include <map>

#include "core/text.h"
#include "harness/analysis/json_rows.h"
#include "harness/stats/rank_tests.h"
#include "harness/stats/sample_summary.h"
#include "harness/stats/verdict.h"

namespace lbb {

namespace {

constexpr double kFamilyWiseAlpha = 0.05;

std::vector<double> verified(const ConfigResult& c, bool wall) {
  std::vector<double> v;
  for (const Repetition& r : c.reps)
    if (r.verified) v.push_back(wall ? r.wall : r.makespan);
  return v;
}

ClockChange change(const std::vector<double>& a, const std::vector<double>& b) {
  ClockChange c;
  c.median_a = stats::median(a);
  c.median_b = stats::median(b);
  c.ratio = c.median_a > 0 ? c.median_b / c.median_a : 0;
  const stats::RatioInterval r = stats::ratio_interval(b, a);
  c.ratio_low = r.low;
  c.ratio_high = r.high;
  c.level = r.level;
  c.p = stats::mann_whitney_p(a, b);
  return c;
}

// Holm over the matches, clock by clock.
void adjust(std::vector<ConfigChange>& changes, ClockChange ConfigChange::*clock) {
  std::vector<double> p;
  std::vector<ConfigChange*> matched;
  for (auto& c : changes)
    if (c.a && c.b) {
      p.push_back((c.*clock).p);
      matched.push_back(&c);
    }
  const std::vector<double> adj = stats::holm_adjust(p);
  for (std::size_t i = 0; i < matched.size(); ++i) {
    (matched[i]->*clock).p_adjusted = adj[i];
    (matched[i]->*clock).significant = adj[i] <= kFamilyWiseAlpha;
  }
}

using Json = JsonRow;

Json clock_json(const ClockChange& c) {
  auto finite = [](double x) { return std::isfinite(x) ? Json(x) : Json(); };
  return Json{{"median_a", c.median_a},
              {"median_b", c.median_b},
              {"ratio", c.ratio},
              {"ratio_ci_low", finite(c.ratio_low)},
              {"ratio_ci_high", finite(c.ratio_high)},
              {"p", c.p},
              {"p_adjusted", c.p_adjusted},
              {"significant", c.significant}};
}

Json row_json(const ConfigChange& c) {
  const ConfigResult& k = c.a ? *c.a : *c.b;
  Json row{{"workload", k.workload},
           {"label", k.label},
           {"processors", k.processors},
           {"sweep", k.sweep},
           {"status", c.a && c.b ? "matched"
                      : c.a      ? "only_a"
                                 : "only_b"},
           {"n_a", c.a ? verified(*c.a, false).size() : 0},
           {"n_b", c.b ? verified(*c.b, false).size() : 0}};
  // Unmatched rows carry the same fields, empty, so that CSV columns line up.
  auto clock = [&](const ClockChange& x) {
    Json j = clock_json(x);
    if (!(c.a && c.b))
      for (auto& [k, v] : j.items()) v = nullptr;
    return j;
  };
  row["makespan"] = clock(c.makespan);
  row["wall"] = clock(c.wall);
  return row;
}

std::string cell(const ClockChange& c) {
  return format_number(c.median_a, 4) + " " + format_number(c.median_b, 4) + " " +
         format_number(c.ratio, 3) + " [" + format_number(c.ratio_low, 3) + "," +
         format_number(c.ratio_high, 3) + "] p=" + format_number(c.p_adjusted, 2) +
         (c.significant ? " *" : "  ");
}

void print_text(std::ostream& out, const std::vector<ConfigChange>& changes,
                const std::string& name_a, const std::string& name_b) {
  out << "A = " << printable(name_a) << "\nB = " << printable(name_b) << "\n";
  out << std::left << std::setw(20) << "workload" << std::right << std::setw(4) << "P"
      << "  " << std::left << std::setw(24) << "balancer" << std::setw(18) << "sweep" << std::right
      << std::setw(6) << "n_A" << std::setw(5) << "n_B"
      << "  " << std::left << std::setw(46) << "makespan_s: A B B/A [95% CI] p"
      << "wall_s: A B B/A [95% CI] p\n";
  std::vector<const ConfigChange*> unmatched;
  for (const auto& c : changes) {
    if (!(c.a && c.b)) {
      unmatched.push_back(&c);
      continue;
    }
    out << std::left << std::setw(20) << printable(c.a->workload) << std::right << std::setw(4)
        << c.a->processors << "  " << std::left << std::setw(24) << printable(c.a->label)
        << std::setw(18) << printable(c.a->sweep) << std::right << std::setw(6)
        << verified(*c.a, false).size() << std::setw(5) << verified(*c.b, false).size() << "  "
        << std::left << std::setw(46) << cell(c.makespan) << cell(c.wall) << "\n";
  }
  out << "B/A = ratio of medians with the 95 % Moses interval of B's scale against A's; p = "
         "two-sided Mann-Whitney U, Holm-adjusted over the matches of each clock; * = "
         "significant at 95 %\n";
  for (const ConfigChange* c : unmatched) {
    const ConfigResult& k = c->a ? *c->a : *c->b;
    out << "only in " << (c->a ? "A" : "B") << ": " << printable(k.workload)
        << " P=" << k.processors << " " << printable(k.label) << (k.sweep.empty() ? "" : " ")
        << printable(k.sweep) << " (" << k.reps.size() << " runs)\n";
  }
}

}  // namespace

std::vector<ConfigChange> compare_sets(const std::vector<ConfigResult>& a,
                                       const std::vector<ConfigResult>& b) {
  std::map<std::string, const ConfigResult*> in_b;
  for (const auto& c : b) in_b[c.match_key] = &c;
  std::vector<ConfigChange> out;
  for (const auto& c : a) {
    ConfigChange ch;
    ch.a = &c;
    if (auto it = in_b.find(c.match_key); it != in_b.end()) {
      ch.b = it->second;
      in_b.erase(it);
      ch.makespan = change(verified(c, false), verified(*ch.b, false));
      ch.wall = change(verified(c, true), verified(*ch.b, true));
    }
    out.push_back(ch);
  }
  for (const auto& c : b)
    if (in_b.count(c.match_key)) out.push_back({nullptr, &c, {}, {}});
  adjust(out, &ConfigChange::makespan);
  adjust(out, &ConfigChange::wall);
  return out;
}

void print_set_comparison(std::ostream& out, const std::vector<ConfigChange>& changes,
                          const std::string& name_a, const std::string& name_b,
                          OutputFormat format) {
  if (format == OutputFormat::kTable) return print_text(out, changes, name_a, name_b);
  std::vector<JsonRow> rows;
  for (const auto& c : changes) rows.push_back(row_json(c));
  if (format == OutputFormat::kJson)
    print_json_rows(out, rows);
  else
    print_csv_rows(out, rows);
}

}  // namespace lbb
