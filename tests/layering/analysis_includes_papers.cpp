// Layering probe (tests/CMakeLists.txt): compiled with the analysis library's include flags, this
// file must fail to find the upper header: the tables know no paper.
#include "harness/analysis/comparison_table.h"
#include "harness/papers/paper_comparison.h"

int probe() {
  return 0;
}
