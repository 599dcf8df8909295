#pragma once
// Auto4OMP's choice of a loop schedule during a run (Mohammed & Ciorba 2022, "Automated
// scheduling algorithm selection and chunk parameter calculation in OpenMP"): each loop runs
// under one candidate, and what the loop measured (its time, its load imbalance) decides the next
// loop's candidate. Candidates are indexed in the order of their chunk sizes, largest first.
// Pure bookkeeping: it knows no technique, no thread and no clock.
#include <string>
#include <vector>

namespace lbb {

enum class SelectionStrategy {
  kExhaustive,  // ExhaustiveSel: each candidate for one loop, then the fastest one
  kBinary,      // BinarySel: binary search for the fastest over the chunk-size order
  kExpert,      // ExpertSel: a step toward smaller chunks under high imbalance, larger under low
};

struct SelectionSettings {
  SelectionStrategy strategy = SelectionStrategy::kExhaustive;
  // A chosen candidate whose loop time rises by more than this over its time when chosen starts
  // a new search (0: never). Expert takes back a step toward larger chunks that slowed the loop.
  double reselect = 0.1;
  double high_imbalance = 0.1, low_imbalance = 0.02;  // expert's thresholds of 1 - mean / max
};

// The strategy's name for a config value; throws std::invalid_argument for an unknown one.
SelectionStrategy selection_strategy(const std::string& name);

class ScheduleSelection {
 public:
  ScheduleSelection(int candidates, SelectionSettings settings);
  int current() const { return current_; }  // the candidate of the next loop
  bool searching() const { return searching_; }
  // The loop just run under current(): its time and load imbalance 1 - mean / max of the
  // processors' busy times.
  void observe(double loop_time, double imbalance);

 private:
  void restart();
  void exhaustive(double loop_time);
  void binary(double loop_time);
  void expert(double loop_time, double imbalance);
  void keep(int candidate);

  const int K_;
  const SelectionSettings settings_;
  int current_ = 0;
  bool searching_ = true;
  std::vector<double> time_;  // this search's loop time of each candidate (< 0: not tried)
  int lo_ = 0, hi_ = 0;       // binary: the range the fastest lies in
  double kept_time_ = 0;      // the chosen candidate's time when chosen
  double before_move_ = -1;   // expert: the loop time before its last step to larger chunks
  bool hold_larger_ = false;  // expert: a step to larger chunks was taken back
};

}  // namespace lbb
