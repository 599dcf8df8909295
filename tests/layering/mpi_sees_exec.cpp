// Layering control (tests/CMakeLists.txt): with the MPI layer's include flags, its own headers and
// the engine's below compile. Were this to fail, the refusal beside it would prove nothing.
#include "harness/exec/executor.h"
#include "harness/mpi/mpi_session.h"

int probe() {
  return 0;
}
