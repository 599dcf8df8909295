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

ZakiCost zaki_cost(ProfiledScheme scheme, int n, int instructed, int messages, double bytes,
                   const ZakiNetwork& network) {
  return {synchronisation_cost(scheme, n, network.latency),
          instruction_cost(scheme, instructed, network.latency),
          data_movement_cost(messages, bytes, network)};
}

}  // namespace lbb
