// Layering control (tests/CMakeLists.txt): with the papers library's include flags, its own headers
// and those below compile. Were this to fail, the refusals beside it would prove nothing.
#include "harness/analysis/balance_report.h"
#include "harness/papers/balance_experiment.h"

int probe() {
  return 0;
}
