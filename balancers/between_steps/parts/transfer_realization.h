#pragma once
// From amounts of work to concrete modules: which modules realise "send this much cost from
// processor a to processor b". Shared by every balancer that plans transfers between processors.
#include <span>
#include <vector>

#include "balancers/balancer.h"
#include "core/assignment.h"

namespace lbb {

struct CostTransfer {
  int from = 0;
  int to = 0;
  double cost = 0;  // nominal cost to move, > 0
};

// Owners after moving modules so that each transfer's moved cost is as close to its target as
// whole modules allow. Processors send before they forward (senders that only send go first), and
// a sender gives the modules nearest the receiver first: the end of its range facing the receiver
// for chains and unstructured modules (boundary modules, so contiguous ranges stay contiguous),
// the modules closest to the receiver's centre for spatial modules. Modules it held before this
// decision always go first, and the ones it received only when `forward` allows it (multi-phase
// plans, where units pass through a processor: Horton 1993, Table 4). A module therefore moves
// to a neighbour of its old owner unless a sender must forward what it received.
// When `realised` is given it receives, per transfer, the cost the chosen modules carry across it.
Owners realize_transfers(const LoadView& view, std::span<const int> owner,
                         std::span<const CostTransfer> transfers, bool forward,
                         std::vector<double>* realised = nullptr);

}  // namespace lbb
