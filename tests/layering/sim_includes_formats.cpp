// Layering probe (tests/CMakeLists.txt): compiled with the simulator's include flags, this file
// must fail to find the upper header: a trace's costs reach the simulator through its CostSource.
#include "harness/formats/trace_workload.h"
#include "harness/sim/simulate_executor.h"

int probe() {
  return 0;
}
