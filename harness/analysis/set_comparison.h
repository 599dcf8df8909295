#pragma once
// `lbbench compare A B`: the runs of two result sets matched by resolved configuration, and per
// match how B's times relate to A's (as google/benchmark's compare.py does, with intervals).
#include <ostream>
#include <string>
#include <vector>

#include "harness/analysis/comparison_table.h"
#include "harness/analysis/result_set.h"

namespace lbb {

struct ClockChange {
  double median_a = 0, median_b = 0;
  double ratio = 0;                                 // median_b / median_a
  double ratio_low = 0, ratio_high = 0, level = 0;  // Moses interval of the B / A scale
  double p = 1;                                     // two-sided Mann-Whitney U
  double p_adjusted = 1;                            // Holm over all matches of this clock
  bool significant = false;                         // p_adjusted <= 0.05
};

struct ConfigChange {
  const ConfigResult* a = nullptr;  // null: only in B
  const ConfigResult* b = nullptr;  // null: only in A
  ClockChange makespan, wall;
};

std::vector<ConfigChange> compare_sets(const std::vector<ConfigResult>& a,
                                       const std::vector<ConfigResult>& b);
void print_set_comparison(std::ostream& out, const std::vector<ConfigChange>& changes,
                          const std::string& name_a, const std::string& name_b,
                          OutputFormat format);

}  // namespace lbb
