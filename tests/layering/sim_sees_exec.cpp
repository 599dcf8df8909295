// Layering control (tests/CMakeLists.txt): with the simulator's include flags, its own headers and
// those below compile. Were this to fail, the refusals beside it would prove nothing.
#include "harness/sim/simulate_executor.h"
#include "harness/stats/sample_summary.h"

int probe() {
  return 0;
}
