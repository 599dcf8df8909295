#include "harness/sim/scale_sim.h"

#include <algorithm>
#include <stdexcept>

#include "balancers/partition/block.h"
#include "core/assignment.h"
#include "harness/base/clock.h"

namespace lbb {

ScaleSim::ScaleSim(std::span<const double> cost, std::vector<double> speed,
                   const Topology& topology, ModuleStructure structure)
    : cost_(cost),
      speed_(std::move(speed)),
      topology_(topology),
      structure_(structure),
      owner_(block_owners(static_cast<int>(cost.size()), static_cast<int>(speed_.size()))),
      load_(speed_.size(), 0.0),
      busy_(speed_.size(), 0.0) {
  if (topology.size() != static_cast<int>(speed_.size()))
    throw std::invalid_argument("the topology's processors differ from the speeds'");
  for (std::size_t m = 0; m < owner_.size(); ++m) load_[owner_[m]] += cost_[m];
}

double ScaleSim::makespan() const {
  double worst = 0;
  for (std::size_t p = 0; p < load_.size(); ++p) worst = std::max(worst, load_[p] / speed_[p]);
  return worst;
}

ScaleStep ScaleSim::step(int step, Balancer& balancer) {
  ScaleStep out;
  for (std::size_t p = 0; p < load_.size(); ++p) busy_[p] = load_[p] / speed_[p];
  out.makespan = *std::max_element(busy_.begin(), busy_.end());
  LoadView view;
  view.cost = cost_;
  view.speed = speed_;
  view.owner = owner_;
  view.busy = busy_;
  view.topology = &topology_;
  view.structure = structure_;
  view.step = step;
  const double c0 = thread_cpu_now();
  Decision d = balancer.decide(view);
  out.decide_cpu = thread_cpu_now() - c0;
  if (d.act) {
    if (auto err = assignment_error(d.owner, static_cast<int>(owner_.size()),
                                    static_cast<int>(load_.size())))
      throw std::logic_error("scale simulation: the balancer's decision: " + *err);
    out.migrations = move_to(d.owner);
    block_ = false;  // ranges no longer describe the owners
    chain_.reset();
    holdings_.reset();
  }
  return out;
}

ScaleStep ScaleSim::step(int step, const MultilevelDiffusion& multilevel, double min_gain) {
  if (!chain_) {
    if (!block_) throw std::logic_error("chain steps start from the block partition");
    chain_.emplace(cost_);
    ranges_ = chain_->block(static_cast<int>(load_.size()));
    load_ = ranges_.work;  // summed in module order, as the ordinary balancer sums them
  }
  ScaleStep out;
  out.makespan = makespan();
  const double c0 = thread_cpu_now();
  ChainDecision d =
      multilevel_on_chain(multilevel, min_gain, *chain_, ranges_, speed_, topology_, step);
  out.decide_cpu = thread_cpu_now() - c0;
  if (d.act) out.migrations = move_ranges(d.next);
  if (d.act) holdings_.reset();
  return out;
}

ScaleStep ScaleSim::step(int step, const GossipSettings& gossip) {
  if (!holdings_) holdings_.emplace(owner_, cost_, speed_);
  ScaleStep out;
  out.makespan = makespan();
  const double c0 = thread_cpu_now();
  const std::vector<GossipMove> moves = gossip_decide(gossip, *holdings_, step);
  out.decide_cpu = thread_cpu_now() - c0;
  for (const GossipMove& move : moves) {
    load_[move.from] -= cost_[move.module];
    load_[move.to] += cost_[move.module];
    owner_[move.module] = move.to;
  }
  out.migrations = static_cast<std::int64_t>(moves.size());
  if (!moves.empty()) block_ = false, chain_.reset();
  return out;
}

// Each processor's owners change only where its new range leaves its old one.
std::int64_t ScaleSim::move_ranges(const ChainRanges& next) {
  std::int64_t moved = 0;
  for (std::size_t p = 0; p + 1 < next.first.size(); ++p) {
    auto take = [&](std::int64_t first, std::int64_t last) {
      for (std::int64_t m = first; m < last; ++m) owner_[m] = static_cast<int>(p);
      moved += std::max<std::int64_t>(0, last - first);
    };
    take(next.first[p], std::min(next.first[p + 1], ranges_.first[p]));      // below the old range
    take(std::max(next.first[p], ranges_.first[p + 1]), next.first[p + 1]);  // above it
  }
  ranges_ = next;
  load_ = ranges_.work;
  return moved;
}

// Loads follow the modules that moved: one pass over the decision, nothing summed again.
std::int64_t ScaleSim::move_to(std::span<const int> next) {
  std::int64_t moved = 0;
  for (std::size_t m = 0; m < owner_.size(); ++m) {
    if (next[m] == owner_[m]) continue;
    load_[owner_[m]] -= cost_[m];
    load_[next[m]] += cost_[m];
    owner_[m] = next[m];
    ++moved;
  }
  return moved;
}

}  // namespace lbb
