// Layering probe (tests/CMakeLists.txt): compiled with the runner's include flags, this file must
// fail to find the upper header: the runner runs RunSpecs, it reads no config.
#include "harness/config/config_loader.h"
#include "harness/run/runner.h"

int probe() {
  return 0;
}
