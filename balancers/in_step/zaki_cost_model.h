#pragma once
// The cost model of Zaki, Li & Parthasarathy 1997 (section "Total Cost"): what one
// redistribution costs under each scheme. Used by the profitability rule of the four schemes and
// exposed so that a simulator can pick the cheapest scheme automatically, as the paper does.
#include "balancers/in_step/profiled_redistribution.h"

namespace lbb {

struct ZakiNetwork {
  double latency = 0;    // L: seconds per message
  double bandwidth = 1;  // B: bytes per second
};

struct ZakiCost {
  double synchronisation = 0;  // gathering profiles (and, distributed, broadcasting them)
  double instructions = 0;     // centralised only: the new distribution sent to processors
  double data_movement = 0;    // the modules' states
  // The cost of computing the new distribution is left out: "usually very small" (the paper).
  double total() const { return synchronisation + instructions + data_movement; }
};

// Synchronisation over n processors (P for global schemes, K for local ones): one-to-all +
// all-to-one (centralised: n + n messages), one-to-all + all-to-all (distributed: n + n^2).
double synchronisation_cost(ProfiledScheme scheme, int n, double latency);

// Centralised schemes send one instruction message to each processor whose modules change; the
// distributed ones compute the distribution everywhere and send none.
double instruction_cost(ProfiledScheme scheme, int instructed, double latency);

// Messages x latency + iterations moved x bytes per iteration / bandwidth; `bytes` is the sum,
// iterations x bytes per iteration.
double data_movement_cost(int messages, double bytes, const ZakiNetwork& network);

ZakiCost zaki_cost(ProfiledScheme scheme, int n, int instructed, int messages, double bytes,
                   const ZakiNetwork& network);

}  // namespace lbb
