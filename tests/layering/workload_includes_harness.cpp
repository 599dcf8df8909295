// Layering probe (tests/CMakeLists.txt): compiled with the workloads' include flags, this
// workload-to-be must fail to find the executor header: workloads know nothing of threads.
#include "workloads/workload.h"
#include "harness/exec/team.h"

int probe() { return 0; }
