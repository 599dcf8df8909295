// Layering probe (tests/CMakeLists.txt): compiled with the formats' include flags, this file must
// fail to find the upper header: exporting a recorded run (its config read back) is analysis's job.
#include "harness/config/config_loader.h"
#include "harness/formats/trace.h"

int probe() {
  return 0;
}
