// Layering probe (tests/CMakeLists.txt): compiled with the config library's include flags, this
// file must fail to find the upper header: config knows nothing of tables.
#include "harness/analysis/result_set.h"
#include "harness/config/config_loader.h"

int probe() {
  return 0;
}
