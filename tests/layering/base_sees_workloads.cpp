// Layering control (tests/CMakeLists.txt): with the base library's include flags, its own headers
// and those below compile. Were this to fail, the refusals beside it would prove nothing.
#include "harness/base/run_spec.h"
#include "workloads/workload.h"

int probe() {
  return 0;
}
