#pragma once
// How often `dynamic: auto` picked the candidate that measured best, and its regret when it did
// not (Zaki, Li & Parthasarathy 1997: 16 of 20, never over 10 %). Each auto run is compared with
// the runs of its candidates at the same workload, sweep point and processor count.
#include <iosfwd>
#include <string>
#include <vector>

#include "harness/results/result_reader.h"

namespace lbb {

struct AutoCase {
  std::string where;          // workload, sweep point, processors
  std::string chosen;         // what auto ran
  std::string best;           // the candidate with the smallest median modelled makespan
  double chosen_seconds = 0;  // median makespan_total of the chosen candidate's own runs
  double best_seconds = 0;
  double predicted = 0;  // auto's prediction for what it chose
  double regret = 0;     // chosen / best - 1
  int candidates = 0;    // candidates measured
  bool hit() const { return chosen == best; }
};

// Complete runs only; an auto run whose chosen candidate was not measured is left out.
std::vector<AutoCase> auto_cases(const std::vector<RunInfo>& runs);

struct AutoFigures {
  int cases = 0, hits = 0;
  double max_regret = 0;
  double hit_rate() const { return cases ? static_cast<double>(hits) / cases : 0; }
};
AutoFigures auto_figures(const std::vector<AutoCase>& cases);

void print_auto_cases(std::ostream& out, const std::vector<AutoCase>& cases);

}  // namespace lbb
