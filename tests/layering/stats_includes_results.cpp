// Layering probe (tests/CMakeLists.txt): compiled with the stats library's include flags, this file
// must fail to find the upper header: statistics know no archive.
#include "harness/results/result_reader.h"
#include "harness/stats/verdict.h"

int probe() {
  return 0;
}
