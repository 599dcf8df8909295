// Layering probe (tests/CMakeLists.txt): compiled with the formats' include flags, this file must
// fail to find the upper header: the runner looks the trace workload up, not the other way round.
#include "harness/formats/trace_workload.h"
#include "harness/run/runner.h"

int probe() {
  return 0;
}
