#include "balancers/partition/optimal_chain_bokhari.h"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>

namespace lbb {
namespace {

constexpr double kUnreached = std::numeric_limits<double>::infinity();

// One layer of the assignment graph: a node per subchain <a, b> = modules [a, b), 0 <= a <= b <=
// m, stored row by row (row a holds b = a..m), so the nodes <b, c> that an edge from <a, b> can
// reach are one contiguous row. The empty node <a, a> lets a processor take no module: the
// paper's layers hold only non-empty subchains, which is enough for equal speeds, but with
// unequal speeds leaving a slow processor idle can be optimal. The communication term of the
// paper's edge weights is zero here: balancers see no communication costs.
class LayerIndex {
 public:
  explicit LayerIndex(int m) : m_(m), row_(m + 2, 0) {
    for (int a = 0; a <= m; ++a) row_[a + 1] = row_[a] + (m - a + 1);
  }
  long long size() const { return row_[m_ + 1]; }
  long long node(int a, int b) const { return row_[a] + (b - a); }

 private:
  int m_;
  std::vector<long long> row_;
};

}  // namespace

ChainPartition optimal_chain_bokhari(std::span<const double> weights,
                                     std::span<const double> speeds) {
  const ChainLoads loads(weights, speeds);
  const int m = loads.modules();
  const int n = loads.processors();
  const LayerIndex index(m);
  if (index.size() * n > kMaxBokhariNodes)
    throw std::invalid_argument(
        "optimal_chain_bokhari: the layered graph for " + std::to_string(m) + " modules on " +
        std::to_string(n) + " processors has " + std::to_string(index.size() * n) +
        " nodes, over the limit of " + std::to_string(kMaxBokhariNodes) + "; use optimal_chain");

  // label[k][<a, b>]: the smallest possible heaviest edge on a path from s to node <a, b> of
  // layer k (processor k takes modules [a, b)). Every node starts unreached...
  std::vector<std::vector<double>> label(n, std::vector<double>(index.size(), kUnreached));
  // ...except the first layer's nodes joined to s, <0, b>, which start at zero.
  for (int b = 0; b <= m; ++b) label[0][index.node(0, b)] = 0.0;

  // Top down, every edge from node <a, b> of layer k to node <b, c> of layer k + 1 has weight
  // W = time of processor k on modules [a, b); relax L(below) = min(L(below), max(W, L(above))).
  for (int k = 0; k + 1 < n; ++k) {
    const std::vector<double>& above = label[k];
    std::vector<double>& next = label[k + 1];
    for (int a = 0; a <= m; ++a)
      for (int b = a; b <= m; ++b) {
        const double from = above[index.node(a, b)];
        if (from == kUnreached) continue;
        const double through = std::max(from, loads.load(a, b, k));
        double* row = next.data() + index.node(b, b);
        for (int c = b; c <= m; ++c) row[c - b] = std::min(row[c - b], through);
      }
  }

  // Edges into t leave every node <a, m> of every layer, weighted like the others; the best of
  // them ends the bottleneck path.
  double best = kUnreached;
  int last_layer = 0;
  int last_begin = 0;
  for (int k = 0; k < n; ++k)
    for (int a = 0; a <= m; ++a) {
      const double value = std::max(label[k][index.node(a, m)], loads.load(a, m, k));
      if (value < best) {
        best = value;
        last_layer = k;
        last_begin = a;
      }
    }

  // Walk the path back up: a node's label is exactly the best max(W, L) over the edges into it,
  // so one of its predecessors reproduces it. Processors after the last layer stay empty.
  ChainPartition partition{std::vector<int>(n + 1, m), best};
  partition.first[last_layer] = last_begin;
  int end = last_begin;
  double target = label[last_layer][index.node(last_begin, m)];
  for (int k = last_layer - 1; k >= 0; --k) {
    int a = 0;
    while (a <= end && std::max(label[k][index.node(a, end)], loads.load(a, end, k)) != target) ++a;
    if (a > end) throw std::logic_error("optimal_chain_bokhari: broken bottleneck path");
    partition.first[k] = a;
    target = label[k][index.node(a, end)];
    end = a;
  }
  return partition;
}

BalancerInfo OptimalChainBokhari::info() {
  BalancerInfo info{
      "optimal_chain_bokhari",
      BalancerRole::kPartition,
      "exact contiguous chain partition as the minimum bottleneck path of Bokhari's layered "
      "assignment graph (Iqbal, Saltz & Bokhari 1986, section 3); O(m^3 n), the reference",
      {},
      [](const Params&) { return std::make_unique<OptimalChainBokhari>(); }};
  info.capabilities.contiguous = true;
  return info;
}

Decision OptimalChainBokhari::decide(const LoadView& view) {
  return {true, chain_owners(optimal_chain_bokhari(view.cost, view.speed)), 1};
}

}  // namespace lbb
