#include "balancers/between_steps/parts/transfer_realization.h"

#include <algorithm>
#include <queue>

namespace lbb {
namespace {

// Senders first: Kahn's order on the transfer graph; processors left on a cycle follow by index.
std::vector<int> sending_order(int processors, std::span<const CostTransfer> transfers) {
  std::vector<int> indegree(processors, 0);
  std::vector<std::vector<int>> out(processors);
  for (const auto& t : transfers) {
    ++indegree[t.to];
    out[t.from].push_back(t.to);
  }
  std::vector<int> order;
  std::vector<char> done(processors, 0);
  std::queue<int> ready;
  for (int p = 0; p < processors; ++p)
    if (indegree[p] == 0) ready.push(p);
  while (!ready.empty()) {
    const int p = ready.front();
    ready.pop();
    order.push_back(p);
    done[p] = 1;
    for (int q : out[p])
      if (--indegree[q] == 0) ready.push(q);
  }
  for (int p = 0; p < processors; ++p)
    if (!done[p]) order.push_back(p);
  return order;
}

std::vector<double> centre_of(const LoadView& view, std::span<const int> modules) {
  std::vector<double> centre(view.dimensions, 0.0);
  for (int m : modules)
    for (int d = 0; d < view.dimensions; ++d) centre[d] += view.coords[m * view.dimensions + d];
  for (auto& c : centre) c /= static_cast<double>(modules.size());
  return centre;
}

// A chain held in contiguous ranges whose transfers all join consecutive processors: the moves
// only shift range boundaries. The boundary after processor p moves to the old cumulative cost
// up to p minus the net cost crossing from p to p + 1; one pass over the modules places them,
// however far units travel through intermediate processors.
bool shift_chain_boundaries(const LoadView& view, std::span<const int> owner,
                            std::span<const CostTransfer> transfers, Owners& next) {
  const int processors = view.processors();
  if (view.structure != ModuleStructure::kChain || !is_contiguous_chain(owner, processors))
    return false;
  std::vector<double> crossing(processors, 0.0);  // net cost from p to p + 1
  for (const auto& t : transfers) {
    if (t.to == t.from + 1)
      crossing[t.from] += t.cost;
    else if (t.to == t.from - 1)
      crossing[t.to] -= t.cost;
    else
      return false;
  }
  std::vector<double> work(processors, 0.0);
  for (std::size_t m = 0; m < owner.size(); ++m) work[owner[m]] += view.cost[m];
  const int modules = view.modules();
  int m = 0;
  double before = 0, cumulative = 0;  // cost of modules 0..m-1; of processors 0..p
  for (int p = 0; p + 1 < processors; ++p) {
    cumulative += work[p];
    const double boundary = cumulative - crossing[p];
    while (m < modules && before + 0.5 * view.cost[m] < boundary) {
      next[m] = p;
      before += view.cost[m++];
    }
  }
  for (; m < modules; ++m) next[m] = processors - 1;
  return true;
}

// Cost crossing each chain transfer's boundary when ranges moved from `owner` to `next`.
std::vector<double> boundary_crossings(const LoadView& view, std::span<const int> owner,
                                       std::span<const int> next,
                                       std::span<const CostTransfer> transfers) {
  std::vector<double> out;
  for (const auto& t : transfers) {
    const int boundary = std::min(t.from, t.to);  // between boundary and boundary + 1
    double crossed = 0;                           // net cost from boundary's side upward
    for (std::size_t m = 0; m < owner.size(); ++m) {
      if (owner[m] <= boundary && next[m] > boundary) crossed += view.cost[m];
      if (owner[m] > boundary && next[m] <= boundary) crossed -= view.cost[m];
    }
    out.push_back(t.to > t.from ? crossed : -crossed);
  }
  return out;
}

}  // namespace

Owners realize_transfers(const LoadView& view, std::span<const int> owner,
                         std::span<const CostTransfer> transfers, bool forward,
                         std::vector<double>* realised) {
  const int processors = view.processors();
  Owners next(owner.begin(), owner.end());
  if (realised) realised->assign(transfers.size(), 0.0);
  if (transfers.empty()) return next;
  if (shift_chain_boundaries(view, owner, transfers, next)) {
    if (realised) *realised = boundary_crossings(view, owner, next, transfers);
    return next;
  }
  auto held = modules_by_processor(owner, processors);
  const auto original = held;
  const bool chain = view.structure == ModuleStructure::kChain;
  const bool spatial =
      view.structure == ModuleStructure::kSpatial && view.dimensions > 0 &&
      view.coords.size() == static_cast<std::size_t>(view.modules()) * view.dimensions;

  std::vector<double> dist(spatial ? view.modules() : 0, 0.0);
  std::vector<char> leaving(view.modules(), 0);
  for (int sender : sending_order(processors, transfers)) {
    for (std::size_t k = 0; k < transfers.size(); ++k) {
      const CostTransfer& t = transfers[k];
      if (t.from != sender || t.cost <= 0) continue;
      auto& mine = held[sender];  // ascending module indices
      // Modules held before this decision first, so that each moves once, to a neighbour;
      // received ones only when forwarding is allowed.
      std::vector<int> taken;
      double moved = 0;
      bool full = false;
      // Takes m when that brings the moved cost closer to the target; false when it does not.
      auto offer = [&](int m) {
        const double c = view.cost[m];
        if (moved + 0.5 * c >= t.cost) return false;
        taken.push_back(m);
        moved += c;
        return true;
      };
      for (const bool originals : {true, false}) {
        if (full || (!originals && !forward)) break;
        auto mine_now = [&](int m) { return (owner[m] == sender) == originals; };
        if (spatial && !(original[t.to].empty() && held[t.to].empty())) {
          const auto centre = centre_of(view, original[t.to].empty() ? held[t.to] : original[t.to]);
          std::vector<int> candidates;
          for (int m : mine)
            if (mine_now(m)) candidates.push_back(m);
          for (int m : candidates) {
            dist[m] = 0;
            for (int d = 0; d < view.dimensions; ++d) {
              const double x = view.coords[m * view.dimensions + d] - centre[d];
              dist[m] += x * x;
            }
          }
          std::sort(candidates.begin(), candidates.end(),
                    [&](int a, int b) { return dist[a] != dist[b] ? dist[a] < dist[b] : a < b; });
          for (int m : candidates) offer(m);
        } else {
          // Index order facing the receiver: the boundary of a chain range first.
          const bool upward = t.to > sender;
          const auto n = static_cast<std::ptrdiff_t>(mine.size());
          for (std::ptrdiff_t k = 0; k < n; ++k) {
            const int m = mine[upward ? n - 1 - k : k];
            if (!mine_now(m)) continue;
            if (!offer(m) && chain) {  // a chain range gives up a contiguous end, not its middle
              full = true;
              break;
            }
          }
        }
      }
      if (taken.empty()) continue;
      if (realised) (*realised)[k] = moved;
      for (int m : taken) {
        leaving[m] = 1;
        next[m] = t.to;
      }
      std::erase_if(mine, [&](int m) { return leaving[m] != 0; });
      for (int m : taken) leaving[m] = 0;
      std::sort(taken.begin(), taken.end());
      auto& theirs = held[t.to];
      const auto middle = static_cast<std::ptrdiff_t>(theirs.size());
      theirs.insert(theirs.end(), taken.begin(), taken.end());
      std::inplace_merge(theirs.begin(), theirs.begin() + middle, theirs.end());
    }
  }
  return next;
}

}  // namespace lbb
