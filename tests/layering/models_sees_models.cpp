// Layering control (tests/CMakeLists.txt): with the models library's include flags, its own headers
// and those below compile. Were this to fail, the refusals beside it would prove nothing.
#include "harness/models/matrix_iterative_model.h"

int probe() {
  return 0;
}
