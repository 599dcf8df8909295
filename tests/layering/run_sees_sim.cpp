// Layering control (tests/CMakeLists.txt): with the runner's include flags, its own headers and
// those below compile. Were this to fail, the refusals beside it would prove nothing.
#include "harness/run/executor_registry.h"
#include "harness/sim/simulate_executor.h"

int probe() {
  return 0;
}
