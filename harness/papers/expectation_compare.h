#pragma once
// One comparison of two expectation samples by the verdicts' rule (harness/stats/verdict.h),
// with the direction an order verdict needs and the words that say how it was compared.
#include <string>
#include <vector>

#include "harness/stats/verdict.h"

namespace lbb {

struct Comparison {
  stats::Method method = stats::Method::kNone;
  double ratio = 1;  // a / b (1 when differences were compared)
  double p = 1;      // two-sided; by value: 0 when the values differ, else 1
  int way = 0;       // a against b: +1 larger, -1 smaller, 0 equal (by value) or unknown
  int pairs = 0;     // paired: the pairs compared
};

// compare_rows (paired by trial and round, else unpaired; by value when both are deterministic
// and constant). A sample with a value not positive (modules moved: 0) has no log ratio: the
// same tests then compare the values' differences (on exp of the values), and the ratio is 1.
Comparison compare_samples(const stats::RowSample& a, const stats::RowSample& b, double alpha);

// "(paired, 50 trials)", "(exact; the order of one recording, results/x)", "(paired/unpaired)".
std::string method_text(const std::vector<Comparison>& cs, int trials,
                        const std::string& recording);

}  // namespace lbb
