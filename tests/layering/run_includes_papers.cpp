// Layering probe (tests/CMakeLists.txt): compiled with the runner's include flags, this file must
// fail to find the upper header: the run path knows no paper (auto registers itself).
#include "harness/papers/auto_choice.h"
#include "harness/run/runner.h"

int probe() {
  return 0;
}
