// Layering probe (tests/CMakeLists.txt): compiled with the engine's include flags, this file must
// fail to find the upper header: the engine knows no simulator.
#include "harness/exec/executor.h"
#include "harness/sim/simulate_executor.h"

int probe() {
  return 0;
}
