#include "balancers/in_step/zaki_cost_model.h"

namespace lbb {
namespace {

bool centralised(ProfiledScheme scheme) {
  return scheme == ProfiledScheme::kGCDLB || scheme == ProfiledScheme::kLCDLB;
}

}  // namespace

double synchronisation_cost(ProfiledScheme scheme, int n, double latency) {
  const double one_to_all = n;
  const double gather = centralised(scheme) ? n : static_cast<double>(n) * n;
  return (one_to_all + gather) * latency;
}

double instruction_cost(ProfiledScheme scheme, int instructed, double latency) {
  return centralised(scheme) ? instructed * latency : 0.0;
}

double data_movement_cost(int messages, double bytes, const ZakiNetwork& network) {
  return messages * network.latency + bytes / network.bandwidth;
}

double threads_synchronisation_cost(ProfiledScheme scheme, int n, const ZakiNetwork& network) {
  const double barrier = n * network.atomic + network.latency;
  return barrier + (centralised(scheme) ? network.latency : n * network.atomic);
}

double sync_cost(ProfiledScheme scheme, int n, const ZakiNetwork& network) {
  return network.machine == ZakiMachine::kThreads
             ? threads_synchronisation_cost(scheme, n, network)
             : synchronisation_cost(scheme, n, network.latency);
}

ZakiCost zaki_cost(ProfiledScheme scheme, int n, int instructed, int messages, double bytes,
                   const ZakiNetwork& network) {
  if (network.machine == ZakiMachine::kThreads)
    return {threads_synchronisation_cost(scheme, n, network), 0.0, bytes / network.bandwidth};
  return {synchronisation_cost(scheme, n, network.latency),
          instruction_cost(scheme, instructed, network.latency),
          data_movement_cost(messages, bytes, network)};
}

}  // namespace lbb
