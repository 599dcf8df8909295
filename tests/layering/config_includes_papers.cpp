// Layering probe (tests/CMakeLists.txt): compiled with the config library's include flags, this
// file must fail to find the upper header: config checks entries without a paper's code.
#include "harness/config/config_loader.h"
#include "harness/papers/auto_choice.h"

int probe() {
  return 0;
}
