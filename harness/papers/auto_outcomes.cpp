#include "harness/papers/auto_outcomes.h"

#include <algorithm>
#include <iomanip>
#include <map>
#include <ostream>

#include "core/text.h"
#include "harness/stats/sample_summary.h"

namespace lbb {
namespace {

constexpr const char* kPredicted = "auto_predicted_";

std::string text(const RunInfo& r, const char* k) {
  auto it = r.text.find(k);
  return it == r.text.end() ? std::string() : it->second;
}

double number(const RunInfo& r, const std::string& k) {
  auto it = r.number.find(k);
  return it == r.number.end() ? 0.0 : it->second;
}

bool is_auto(const RunInfo& r) {
  return std::any_of(r.number.begin(), r.number.end(),
                     [](const auto& kv) { return kv.first.rfind(kPredicted, 0) == 0; });
}

// The strategy a run ran: its dynamic balancer, or "none".
std::string strategy(const RunInfo& r) {
  const std::string d = text(r, "dynamic");
  return d.empty() ? "none" : d;
}

// Candidates are compared from the same static start ("none" is that start left alone).
std::string group_of(const RunInfo& r) {
  // Appended piece by piece: GCC 12 misreports "x" + std::string (-Wrestrict).
  std::string out = text(r, "name");
  for (const char* key : {"workload", "static"}) out.append(" ").append(text(r, key));
  out.append(" P=").append(std::to_string(static_cast<int>(number(r, "processors"))));
  if (!text(r, "sweep").empty()) out.append(" ").append(text(r, "sweep"));
  return out;
}

}  // namespace

std::vector<AutoCase> auto_cases(const std::vector<RunInfo>& runs) {
  // group -> strategy -> makespans of its own (non-auto) runs
  std::map<std::string, std::map<std::string, std::vector<double>>> measured;
  for (const RunInfo& r : runs)
    if (text(r, "status") == "complete" && !is_auto(r))
      measured[group_of(r)][strategy(r)].push_back(number(r, "makespan_total"));
  std::vector<AutoCase> out;
  for (const RunInfo& r : runs) {
    if (text(r, "status") != "complete" || !is_auto(r)) continue;
    AutoCase c;
    c.where = group_of(r);
    c.chosen = strategy(r);
    c.predicted = number(r, kPredicted + c.chosen);
    const auto& mine = measured[c.where];
    if (!mine.count(c.chosen)) continue;
    c.best_seconds = 1e300;
    for (const auto& kv : r.number) {
      if (kv.first.rfind(kPredicted, 0) != 0) continue;
      const std::string name = kv.first.substr(std::string(kPredicted).size());
      auto it = mine.find(name);
      if (it == mine.end()) continue;
      ++c.candidates;
      const double t = stats::median(it->second);
      if (name == c.chosen) c.chosen_seconds = t;
      if (t < c.best_seconds) c.best_seconds = t, c.best = name;
    }
    c.regret = c.chosen_seconds / c.best_seconds - 1;
    out.push_back(std::move(c));
  }
  return out;
}

AutoFigures auto_figures(const std::vector<AutoCase>& cases) {
  AutoFigures f;
  for (const AutoCase& c : cases) {
    ++f.cases;
    f.hits += c.hit();
    f.max_regret = std::max(f.max_regret, c.regret);
  }
  return f;
}

void print_auto_cases(std::ostream& out, const std::vector<AutoCase>& cases) {
  out << "auto (Zaki, Li & Parthasarathy 1997): chosen vs measured best, modelled makespan\n";
  std::size_t w = 5;
  for (const AutoCase& c : cases) w = std::max(w, printable(c.where).size());
  out << std::left << std::setw(static_cast<int>(w)) << "where" << std::right << std::setw(8)
      << "chosen" << std::setw(11) << "predicted" << std::setw(11) << "measured" << std::setw(8)
      << "best" << std::setw(11) << "best s" << std::setw(9) << "regret"
      << "\n";
  for (const AutoCase& c : cases)
    out << std::left << std::setw(static_cast<int>(w)) << printable(c.where) << std::right
        << std::setw(8) << c.chosen << std::setw(11) << format_number(c.predicted, 4)
        << std::setw(11) << format_number(c.chosen_seconds, 4) << std::setw(8) << c.best
        << std::setw(11) << format_number(c.best_seconds, 4) << std::setw(8)
        << format_number(100 * c.regret, 3) << "%" << (c.hit() ? "" : "  (miss)") << "\n";
  const AutoFigures f = auto_figures(cases);
  out << "auto picked the measured best in " << f.hits << " of " << f.cases
      << " cases; largest regret " << format_number(100 * f.max_regret, 3) << " %\n";
}

}  // namespace lbb
