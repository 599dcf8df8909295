// Layering probe (tests/CMakeLists.txt): compiled with the MPI layer's include flags, this file
// must fail to find the runner: the executor across ranks is a line in the runner's table.
#include "harness/mpi/mpi_session.h"
#include "harness/run/executor_registry.h"

int probe() {
  return 0;
}
