// Layering probe (tests/CMakeLists.txt): compiled with the balancers' include flags, this
// balancer-to-be must fail to find the kernel header: balancers know nothing of kernels.
#include "balancers/balancer.h"
#include "kernels/trfd.h"

int probe() { return 0; }
