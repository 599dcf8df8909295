// Layering probe (tests/CMakeLists.txt): compiled with the papers library's include flags, this
// file must fail to find the upper header: papers know no command line.
#include "harness/cli/commands.h"
#include "harness/papers/balance_experiment.h"

int probe() {
  return 0;
}
