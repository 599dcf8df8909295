// Layering probe (tests/CMakeLists.txt): compiled with the kernels' include flags, this
// kernel-to-be must fail to find the balancer header: kernels know nothing of balancers.
#include "kernels/trfd.h"
#include "balancers/balancer.h"

int probe() { return 0; }
