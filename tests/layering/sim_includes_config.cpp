// Layering probe (tests/CMakeLists.txt): compiled with the simulator's include flags, this file
// must fail to find the upper header: the simulator reads no config.
#include "harness/config/config_loader.h"
#include "harness/sim/sim_run.h"

int probe() {
  return 0;
}
