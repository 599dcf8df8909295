// Layering probe (tests/CMakeLists.txt): compiled with the balancers' include flags, this
// balancer-to-be must fail to find the workload header: balancers know nothing of workloads.
#include "balancers/balancer.h"
#include "workloads/workload.h"

int probe() { return 0; }
