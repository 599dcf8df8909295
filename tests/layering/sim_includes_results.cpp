// Layering probe (tests/CMakeLists.txt): compiled with the simulator's include flags, this file
// must fail to find the result store: the simulator reads recorded runs through base's
// RecordedRuns, which the runner opens with the results layer's reader.
#include "harness/results/result_reader.h"
#include "harness/sim/simulate_executor.h"

int probe() {
  return 0;
}
