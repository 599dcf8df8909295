// Layering probe (tests/CMakeLists.txt): compiled with the engine's include flags, this file must
// fail to find the upper header: the engine returns a run's figures as data, it writes no result
// set (harness/run/runner.cpp does).
#include "harness/exec/execution.h"
#include "harness/results/result_writer.h"

int probe() {
  return 0;
}
