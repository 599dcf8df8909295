#pragma once
// How often `dynamic: auto` picked the candidate that measured best, and its regret when it did
// not (Zaki, Li & Parthasarathy 1997: 16 of 20, never over 10 %). A case is one workload, sweep
// point and processor count: its auto runs (one a repetition) against its candidates' own runs.
// The best candidate is the one of smallest median modelled makespan; the verdicts' comparison
// (harness/stats/verdict.h: paired by round, as the candidates run round-robin, else Mann-Whitney
// U) says whether it is distinguishable, so a case is a hit, a tie or a miss. An
// auto run's choice is its attribute auto_chose_<name>; phases that chose differently make a
// choice no candidate ran alone, measured by auto's own runs.
#include <iosfwd>
#include <string>
#include <vector>

#include "harness/results/result_reader.h"

namespace lbb {

enum class AutoOutcome {
  kHit,   // auto chose the best, and every other candidate is slower or equivalent to it
  kTie,   // the measurement cannot tell auto's choice from the best
  kMiss,  // auto's choice is significantly slower than the best
};

struct AutoCase {
  std::string where;          // workload, sweep point, processors
  std::string chosen;         // what auto ran most often over the case's repetitions
  int repetitions = 0;        // auto runs in the case
  int chosen_times = 0;       // of which chose `chosen`
  std::string best;           // the candidate with the smallest median modelled makespan
  double chosen_seconds = 0;  // median makespan_total of the chosen candidate's own runs
  double best_seconds = 0;
  double predicted = 0;     // auto's prediction for what it chose (its first run that chose it)
  double regret = 0;        // chosen / best - 1
  double auto_seconds = 0;  // median makespan_total of auto's own runs (choosing included)
  double auto_regret = 0;   // auto_seconds / best - 1
  double p_vs_best = 1;     // Holm-adjusted p of the chosen against the best (1: the best)
  int candidates = 0;       // candidates measured
  AutoOutcome outcome = AutoOutcome::kTie;
};

// Complete runs only; a case whose chosen candidate was not measured is left out.
std::vector<AutoCase> auto_cases(const std::vector<RunRecord>& runs, double alpha = 0.05);

struct AutoFigures {
  int cases = 0, hits = 0, ties = 0, misses = 0;
  double max_regret = 0, max_auto_regret = 0;
  int decided() const { return hits + misses; }
  // Of the cases the measurement decides (ties left out); 0 when none is.
  double hit_rate() const { return decided() ? static_cast<double>(hits) / decided() : 0; }
};
AutoFigures auto_figures(const std::vector<AutoCase>& cases);

void print_auto_cases(std::ostream& out, const std::vector<AutoCase>& cases);

}  // namespace lbb
