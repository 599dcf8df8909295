#include "balancers/dynamic/transfer_realization.h"

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

}  // namespace

Owners realize_transfers(const LoadView& view, std::span<const int> owner,
                         std::span<const CostTransfer> transfers, bool forward) {
  const int processors = view.processors();
  Owners next(owner.begin(), owner.end());
  if (transfers.empty()) return next;
  auto held = modules_by_processor(owner, processors);
  const auto original = held;
  const bool chain = view.structure == ModuleStructure::kChain;
  const bool spatial =
      view.structure == ModuleStructure::kSpatial && view.dimensions > 0 &&
      view.coords.size() == static_cast<std::size_t>(view.modules()) * view.dimensions;

  std::vector<double> dist(spatial ? view.modules() : 0, 0.0);
  std::vector<char> leaving(view.modules(), 0);
  for (int sender : sending_order(processors, transfers)) {
    for (const auto& t : transfers) {
      if (t.from != sender || t.cost <= 0) continue;
      auto& mine = held[sender];
      std::vector<int> candidates = mine;
      // Index order facing the receiver: the boundary of a chain range first.
      const bool upward = t.to > sender;
      auto by_index = [upward](int a, int b) { return upward ? a > b : a < b; };
      // Modules held before this decision first, so that each moves once, to a neighbour;
      // received ones only when forwarding is allowed.
      auto own_first = [&](int a, int b, auto&& closer) {
        const bool oa = owner[a] == sender, ob = owner[b] == sender;
        return oa != ob ? oa : closer(a, b);
      };
      if (!forward) std::erase_if(candidates, [&](int m) { return owner[m] != sender; });
      if (spatial && !(original[t.to].empty() && held[t.to].empty())) {
        const auto centre = centre_of(view, original[t.to].empty() ? held[t.to] : original[t.to]);
        for (int m : candidates) {
          dist[m] = 0;
          for (int d = 0; d < view.dimensions; ++d) {
            const double x = view.coords[m * view.dimensions + d] - centre[d];
            dist[m] += x * x;
          }
        }
        std::sort(candidates.begin(), candidates.end(), [&](int a, int b) {
          return own_first(
              a, b, [&](int x, int y) { return dist[x] != dist[y] ? dist[x] < dist[y] : x < y; });
        });
      } else {
        std::sort(candidates.begin(), candidates.end(),
                  [&](int a, int b) { return own_first(a, b, by_index); });
      }
      double moved = 0;
      std::vector<int> taken;
      for (int m : candidates) {
        const double c = view.cost[m];
        if (moved + 0.5 * c < t.cost) {  // taking m brings the moved cost closer to the target
          taken.push_back(m);
          moved += c;
        } else if (chain) {
          break;  // a chain range gives up a contiguous end, nothing from its middle
        }
      }
      if (taken.empty()) continue;
      for (int m : taken) {
        leaving[m] = 1;
        next[m] = t.to;
      }
      std::erase_if(mine, [&](int m) { return leaving[m] != 0; });
      for (int m : taken) leaving[m] = 0;
      auto& theirs = held[t.to];
      theirs.insert(theirs.end(), taken.begin(), taken.end());
      std::sort(theirs.begin(), theirs.end());
    }
  }
  return next;
}

}  // namespace lbb
