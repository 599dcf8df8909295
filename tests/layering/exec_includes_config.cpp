// Layering probe (tests/CMakeLists.txt): compiled with the engine's include flags, this file must
// fail to find the upper header: the engine runs a RunSpec, it reads no config.
#include "harness/config/config_loader.h"
#include "harness/exec/execution.h"

int probe() {
  return 0;
}
