// Layering control (tests/CMakeLists.txt): with the formats' include flags, their own headers and
// the simulator's compile. Were this to fail, the refusals beside it would prove nothing.
#include "harness/formats/trace_workload.h"
#include "harness/sim/cost_stream.h"

int probe() {
  return 0;
}
