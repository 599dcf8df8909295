// Layering control (tests/CMakeLists.txt): with the command line's include flags, its own headers
// and those below compile. Were this to fail, the refusals beside it would prove nothing.
#include "harness/cli/commands.h"
#include "harness/papers/auto_choice.h"

int probe() {
  return 0;
}
