#include "balancers/between_steps/parts/bisection_tree.h"

#include <cmath>
#include <numeric>
#include <stdexcept>

#include "balancers/between_steps/parts/processor_path.h"

namespace lbb {

BisectionTree::BisectionTree(const UnitLoads& in, Bisection bisect) : topology_(in.topology) {
  if (bisect == Bisection::kCommunication) {
    if (!in.communication)
      throw std::invalid_argument("bisection along the communication graph needs one");
    links_ = in.communication;
    path_.resize(in.processors());
    std::iota(path_.begin(), path_.end(), 0);
  } else {
    path_ = processor_path(*in.topology);
  }
  position_.resize(path_.size());
  for (std::size_t k = 0; k < path_.size(); ++k) position_[path_[k]] = static_cast<int>(k);
  const int processors = static_cast<int>(path_.size());
  nodes_.push_back({0, processors, processors, 0});
  for (std::size_t i = 0; i < nodes_.size(); ++i) {  // breadth first: by depth, then path order
    BisectionNode n = nodes_[i];
    if (n.last - n.first < 2) continue;
    n.middle = n.first + (n.last - n.first + 1) / 2;
    n.left = static_cast<int>(nodes_.size());
    n.right = n.left + 1;
    nodes_.push_back({n.first, n.middle, n.middle, n.depth + 1});
    nodes_.push_back({n.middle, n.last, n.last, n.depth + 1});
    nodes_[i] = n;
    depth_ = std::max(depth_, n.depth + 1);
  }
}

bool BisectionTree::covers(int node, int processor) const {
  const int k = position_[processor];
  return k >= nodes_[node].first && k < nodes_[node].last;
}

std::vector<std::int64_t> BisectionTree::sums(std::span<const std::int64_t> loads) const {
  std::vector<std::int64_t> sum(nodes_.size(), 0);
  for (std::size_t i = nodes_.size(); i-- > 0;) {  // children come after their parent
    const BisectionNode& n = nodes_[i];
    sum[i] = n.leaf() ? loads[path_[n.first]] : sum[n.left] + sum[n.right];
  }
  return sum;
}

std::int64_t BisectionTree::net_into(int node, std::span<const UnitTransfer> transfers) const {
  std::int64_t net = 0;
  for (const UnitTransfer& t : transfers)
    net += (covers(node, t.to) ? t.units : 0) - (covers(node, t.from) ? t.units : 0);
  return net;
}

// Disjoint pairs (in P1, in P2) across the cut, matched greedily in path order among the
// communication graph's neighbours, else (no pair there) among the topology's.
std::vector<std::pair<int, int>> BisectionTree::cut_pairs(const BisectionNode& n) const {
  auto match = [&](auto neighbours) {
    std::vector<std::pair<int, int>> pairs;
    std::vector<char> matched(n.last - n.middle, 0);  // by position in P2: O(|P2|) a cut
    for (int k = n.first; k < n.middle; ++k)
      for (int b : neighbours(path_[k])) {
        const int at = position_[b];
        if (at < n.middle || at >= n.last || matched[at - n.middle]) continue;
        matched[at - n.middle] = 1;
        pairs.emplace_back(path_[k], b);
        break;
      }
    return pairs;
  };
  if (links_)
    if (auto pairs = match([&](int p) { return links_->neighbours(p); }); !pairs.empty())
      return pairs;
  return match([&](int p) { return std::span<const int>(topology_->neighbours(p)); });
}

CutOutcome BisectionTree::descend(int node, std::int64_t left_sum, std::int64_t right_sum,
                                  std::span<const UnitTransfer> inherited,
                                  std::span<const double> speed) const {
  const BisectionNode& n = nodes_.at(node);
  if (n.leaf()) throw std::logic_error("a leaf of the bisection tree has no cut");
  const auto load1 = static_cast<double>(left_sum + net_into(n.left, inherited));
  const auto load2 = static_cast<double>(right_sum + net_into(n.right, inherited));
  double speed1 = 0, speed2 = 0;
  for (int k = n.first; k < n.last; ++k) (k < n.middle ? speed1 : speed2) += speed[path_[k]];
  // Units from P2 to P1: floor((L2 |P1| - L1 |P2|) / (|P1| + |P2|)), with speeds for sizes.
  const auto units = static_cast<std::int64_t>(
      std::floor((load2 * speed1 - load1 * speed2) / (speed1 + speed2) + 1e-9));
  CutOutcome out;
  // Horton 1993, section 5: the amount is split over as many neighbouring pairs as possible, the
  // first pairs taking the remainder (Table 2, T1 phase 1: 3, 3, 2).
  const auto pairs = cut_pairs(n);
  const std::int64_t magnitude = std::abs(units);
  const auto count = static_cast<std::int64_t>(pairs.size());
  for (std::int64_t k = 0; k < count && magnitude > 0; ++k) {
    const std::int64_t share = magnitude / count + (k < magnitude % count ? 1 : 0);
    if (share == 0) break;  // the rest take none either
    const auto [a, b] = pairs[k];
    out.moved.push_back(units > 0 ? UnitTransfer{b, a, share} : UnitTransfer{a, b, share});
  }
  // A leaf has no cut to decide: it inherits nothing.
  const bool left = !nodes_[n.left].leaf(), right = !nodes_[n.right].leaf();
  for (auto list : {inherited, std::span<const UnitTransfer>(out.moved)})
    for (const UnitTransfer& t : list) {
      if (left && (covers(n.left, t.from) || covers(n.left, t.to))) out.left.push_back(t);
      if (right && (covers(n.right, t.from) || covers(n.right, t.to))) out.right.push_back(t);
    }
  return out;
}

}  // namespace lbb
