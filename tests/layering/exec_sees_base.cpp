// Layering control (tests/CMakeLists.txt): with the engine's include flags, its own headers and
// those below compile. Were this to fail, the refusals beside it would prove nothing.
#include "harness/base/run_record.h"
#include "harness/exec/execution.h"

int probe() {
  return 0;
}
