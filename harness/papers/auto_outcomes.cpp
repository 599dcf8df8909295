#include "harness/papers/auto_outcomes.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <map>
#include <ostream>
#include <tuple>

#include "core/text.h"
#include "harness/papers/expectation_samples.h"
#include "harness/stats/sample_summary.h"
#include "harness/stats/verdict.h"

namespace lbb {
namespace {

constexpr const char* kPredicted = "auto_predicted_";

constexpr const char* kChose = "auto_chose_";

// An auto run's figures of a family (auto_chose_*, auto_predicted_*), by name.
std::map<std::string, double> family(const RunRecord& r, const char* prefix) {
  std::map<std::string, double> out;
  for (const RunFigure& f : r.figures)
    if (f.name.rfind(prefix, 0) == 0) out[f.name.substr(std::string(prefix).size())] = f.value;
  return out;
}

bool is_auto(const RunRecord& r) {
  return !family(r, kPredicted).empty();
}

double makespan(const RunRecord& r) {
  return std::isnan(r.makespan_total) ? 0 : r.makespan_total;
}

// Phase k > 0's figures of a two-phase workload carry a suffix (harness/exec/module_execution).
bool of_later_phase(const std::string& key) {
  return key.find("_phase") != std::string::npos;
}

// The scheme an auto run chose (auto_chose_<name>); where a later phase chose another, both
// ("gddlb+lddlb"), a strategy no candidate ran alone.
std::string auto_choice(const RunRecord& r) {
  std::string first, others;
  for (const auto& [name, value] : family(r, kChose)) {
    if (value != 1.0) continue;
    if (!of_later_phase(name))
      first = name;
    else
      others += "+" + name.substr(0, name.find("_phase"));
  }
  std::string out = first;
  for (std::size_t at = 1; at < others.size();) {
    const std::size_t end = std::min(others.find('+', at), others.size());
    const std::string name = others.substr(at, end - at);
    if (name != first && out.find(name) == std::string::npos) out += "+" + name;
    at = end + 1;
  }
  return out;
}

// The strategy a run ran: its dynamic balancer, or "none"; auto's choice for an auto run.
std::string strategy(const RunRecord& r) {
  if (is_auto(r)) return auto_choice(r);
  return r.dynamic.empty() ? "none" : r.dynamic;
}

// Candidates are compared from the same static start ("none" is that start left alone).
std::string group_of(const RunRecord& r) {
  // Appended piece by piece: GCC 12 misreports "x" + std::string (-Wrestrict).
  std::string out = r.name;
  out.append(" ").append(r.workload).append(" ").append(r.static_name);
  out.append(" P=").append(std::to_string(static_cast<int>(r.processors)));
  if (!r.sweep.empty()) out.append(" ").append(r.sweep);
  return out;
}

// strategy -> makespans with their rounds: the candidates run round-robin (run_selection.h), so
// repetition k of each ran in the same minute and the verdicts pair them.
using Samples = std::map<std::string, stats::RowSample>;

void add_run(stats::RowSample& s, const RunRecord& r) {
  s.values.push_back(makespan(r));
  s.rounds.push_back(run_round(r));
}

// The strategy auto chose most often among `runs`, and how often.
std::pair<std::string, int> most_chosen(const std::vector<const RunRecord*>& runs) {
  std::map<std::string, int> times;
  for (const RunRecord* r : runs) ++times[strategy(*r)];
  const auto top = std::max_element(
      times.begin(), times.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
  return *top;
}

// The case's candidates (those auto predicted and that ran on their own) judged as a group.
AutoCase judge_case(const std::string& where, const std::vector<const RunRecord*>& autos,
                    const Samples& measured, double alpha) {
  AutoCase c;
  c.where = where;
  c.repetitions = static_cast<int>(autos.size());
  std::tie(c.chosen, c.chosen_times) = most_chosen(autos);
  for (const RunRecord* r : autos)
    if (strategy(*r) == c.chosen) {
      c.predicted = r->figure(kPredicted + c.chosen).value_or(0.0);
      break;
    }
  std::vector<std::string> names;
  std::vector<stats::RowSample> rows;
  for (const auto& kv : family(*autos.front(), kPredicted)) {
    const std::string& name = kv.first;
    if (of_later_phase(name)) continue;
    if (auto it = measured.find(name); it != measured.end()) {
      names.push_back(name);
      rows.push_back(it->second);
    }
  }
  c.candidates = static_cast<int>(names.size());
  // A choice no candidate ran alone (phases that chose differently): auto's own runs stand for it.
  if (std::find(names.begin(), names.end(), c.chosen) == names.end() && !names.empty()) {
    stats::RowSample own;
    for (const RunRecord* r : autos) add_run(own, *r);
    names.push_back(c.chosen);
    rows.push_back(own);
  }
  stats::VerdictRules rules;
  rules.alpha = alpha;
  const stats::GroupJudgement v =
      stats::judge_group(rows, std::vector<bool>(names.size(), true), rules);
  const auto chosen = std::find(names.begin(), names.end(), c.chosen) - names.begin();
  if (v.best < 0 || chosen == static_cast<std::ptrdiff_t>(names.size())) return c;
  c.best = names[v.best];
  c.best_seconds = stats::median(rows[v.best].values);
  c.chosen_seconds = stats::median(rows[chosen].values);
  c.regret = c.chosen_seconds / c.best_seconds - 1;
  std::vector<double> runs;  // auto's own, its choosing included
  for (const RunRecord* r : autos) runs.push_back(makespan(*r));
  c.auto_seconds = stats::median(runs);
  c.auto_regret = c.auto_seconds / c.best_seconds - 1;
  c.p_vs_best = v.rows[chosen].p;
  const bool won = v.rows[v.best].verdict == stats::Verdict::kWinner;
  c.outcome = c.chosen == c.best     ? (won ? AutoOutcome::kHit : AutoOutcome::kTie)
              : c.p_vs_best <= alpha ? AutoOutcome::kMiss
                                     : AutoOutcome::kTie;
  return c;
}

}  // namespace

std::vector<AutoCase> auto_cases(const std::vector<RunRecord>& runs, double alpha) {
  std::map<std::string, Samples> measured;  // case -> its candidates' own runs
  std::map<std::string, std::vector<const RunRecord*>> autos;
  for (const RunRecord& r : runs) {
    if (r.status != "complete") continue;
    if (is_auto(r))
      autos[group_of(r)].push_back(&r);
    else
      add_run(measured[group_of(r)][strategy(r)], r);
  }
  std::vector<AutoCase> out;
  for (const auto& [where, mine] : autos) {
    AutoCase c = judge_case(where, mine, measured[where], alpha);
    if (!c.best.empty()) out.push_back(std::move(c));
  }
  return out;
}

AutoFigures auto_figures(const std::vector<AutoCase>& cases) {
  AutoFigures f;
  for (const AutoCase& c : cases) {
    ++f.cases;
    f.hits += c.outcome == AutoOutcome::kHit;
    f.ties += c.outcome == AutoOutcome::kTie;
    f.misses += c.outcome == AutoOutcome::kMiss;
    f.max_regret = std::max(f.max_regret, c.regret);
    f.max_auto_regret = std::max(f.max_auto_regret, c.auto_regret);
  }
  return f;
}

namespace {

const char* outcome_text(AutoOutcome o) {
  switch (o) {
    case AutoOutcome::kHit:
      return "hit";
    case AutoOutcome::kMiss:
      return "miss";
    case AutoOutcome::kTie:
      break;
  }
  return "tie";
}

}  // namespace

void print_auto_cases(std::ostream& out, const std::vector<AutoCase>& cases) {
  out << "auto (Zaki, Li & Parthasarathy 1997): chosen vs measured best, modelled makespan, "
         "per case\n";
  std::size_t w = 5;
  std::size_t n = 8;  // a scheme's column: "gddlb+lddlb" where phases chose differently
  for (const AutoCase& c : cases) {
    w = std::max(w, printable(c.where).size());
    n = std::max({n, c.chosen.size() + 2, c.best.size() + 2});
  }
  const int name = static_cast<int>(n);
  out << std::left << std::setw(static_cast<int>(w)) << "where" << std::right << std::setw(name)
      << "chosen" << std::setw(6) << "reps" << std::setw(11) << "predicted" << std::setw(11)
      << "measured" << std::setw(name) << "best" << std::setw(11) << "best s" << std::setw(9)
      << "regret" << std::setw(9) << "p" << std::setw(11) << "auto s" << std::setw(9) << "own"
      << "  outcome\n";
  for (const AutoCase& c : cases)
    out << std::left << std::setw(static_cast<int>(w)) << printable(c.where) << std::right
        << std::setw(name) << c.chosen << std::setw(6)
        << (std::to_string(c.chosen_times) + "/" + std::to_string(c.repetitions)) << std::setw(11)
        << format_number(c.predicted, 4) << std::setw(11) << format_number(c.chosen_seconds, 4)
        << std::setw(name) << c.best << std::setw(11) << format_number(c.best_seconds, 4)
        << std::setw(8) << format_number(100 * c.regret, 3) << "%" << std::setw(9)
        << format_number(c.p_vs_best, 2) << std::setw(11) << format_number(c.auto_seconds, 4)
        << std::setw(8) << format_number(100 * c.auto_regret, 3) << "%  " << outcome_text(c.outcome)
        << "\n";
  const AutoFigures f = auto_figures(cases);
  out << "auto per case: " << f.hits << " hits, " << f.ties << " ties, " << f.misses
      << " misses of " << f.cases << " (a tie: the test cannot tell its choice from the best); "
      << "largest regret " << format_number(100 * f.max_regret, 3)
      << " %; the paper: the best in 16 of 20, never over 10 %\n"
      << "auto's own runs (its first synchronisation and choice included) against the best: "
         "largest regret "
      << format_number(100 * f.max_auto_regret, 3) << " %\n";
}

}  // namespace lbb
