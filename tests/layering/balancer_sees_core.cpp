// Layering control (tests/CMakeLists.txt): with the balancers' include flags, a balancer's own
// and core's headers compile. Were this to fail, the refusals beside it would prove nothing.
#include "balancers/balancer.h"
#include "core/topology.h"

int probe() { return 0; }
