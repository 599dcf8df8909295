// Layering control (tests/CMakeLists.txt): with the config library's include flags, its own headers
// and those below compile. Were this to fail, the refusals beside it would prove nothing.
#include "harness/config/config_loader.h"
#include "harness/run/executor_registry.h"

int probe() {
  return 0;
}
