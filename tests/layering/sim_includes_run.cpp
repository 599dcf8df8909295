// Layering probe (tests/CMakeLists.txt): compiled with the simulator's include flags, this file
// must fail to find the upper header: the simulator is a line in the executor table, not its owner.
#include "harness/run/executor_registry.h"
#include "harness/sim/simulate_executor.h"

int probe() {
  return 0;
}
