// Layering control (tests/CMakeLists.txt): with the stats library's include flags, its own headers
// and those below compile. Were this to fail, the refusals beside it would prove nothing.
#include "harness/stats/rank_tests.h"
#include "harness/stats/verdict.h"

int probe() {
  return 0;
}
