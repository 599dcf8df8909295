// Layering probe (tests/CMakeLists.txt): compiled with the base library's include flags, this file
// must fail to find the upper header: the plain records know no engine.
#include "harness/base/run_spec.h"
#include "harness/exec/executor.h"

int probe() {
  return 0;
}
