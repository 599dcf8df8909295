// Layering probe (tests/CMakeLists.txt): compiled with the result store's include flags, this file
// must fail to find the upper header: the store knows no engine.
#include "harness/exec/execution.h"
#include "harness/results/result_writer.h"

int probe() {
  return 0;
}
