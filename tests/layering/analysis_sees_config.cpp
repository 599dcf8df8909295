// Layering control (tests/CMakeLists.txt): with the analysis library's include flags, its own
// headers and those below compile. Were this to fail, the refusals beside it would prove nothing.
#include "harness/analysis/result_set.h"
#include "harness/config/config_loader.h"

int probe() {
  return 0;
}
