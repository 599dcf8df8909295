#include "balancers/between_steps/gossip.h"

#include "balancers/between_steps/parts/gossip_rounds.h"
#include "balancers/between_steps/parts/reassignment.h"

namespace lbb {

GossipSettings gossip_settings(const Params& p) {
  GossipSettings s;
  s.fanout = static_cast<int>(p.integer("fanout"));
  s.rounds = static_cast<int>(p.integer("rounds"));
  s.knowledge = static_cast<int>(p.integer("knowledge"));
  s.threshold = p.real("threshold");
  s.tempered = p.text("criterion") == "tempered";
  s.iterations = static_cast<int>(p.integer("iterations"));
  s.seed = static_cast<std::uint64_t>(p.integer("seed"));
  return s;
}

BalancerInfo GossipBalancer::info() {
  return {
      "gossip",
      BalancerRole::kBetweenSteps,
      "underloaded processors' loads spread by gossip; overloaded ones send modules to the "
      "underloaded they heard of (Menon & Kale 2013, GrapevineLB; vt's TemperedLB criterion)",
      {int_param("fanout", 2, "processors each informed processor forwards to per round", 1, 64),
       int_param("rounds", 0, "gossip rounds; 0: log_fanout P (Menon & Kale 2013)", 0, 1000),
       int_param("knowledge", 32,
                 "underloaded processors a processor keeps and forwards at most (bounded "
                 "memory at a million processors); 0: all",
                 0, 1e9),
       real_param("threshold", 1.05, "overloaded: above this x the average load", 1.0, 100.0),
       string_param(
           "criterion", "grapevine",
           "accept a transfer leaving the receiver at most at the average (grapevine) or under "
           "the sender's load (tempered, vt's TemperedLB)",
           {"grapevine", "tempered"}),
       int_param("iterations", 1, "gossip and transfer repeated on the loads they leave", 1, 100),
       int_param("seed", 1, "seed of the gossip targets and receivers drawn", 0)},
      [](const Params& p) { return std::make_unique<GossipBalancer>(gossip_settings(p)); }};
}

Decision GossipBalancer::decide(const LoadView& view) {
  const Owners before = starting_owners(view);
  GossipHoldings holdings(before, view.cost, view.speed);
  Owners owner = before;
  for (const GossipMove& move : gossip_decide(settings_, holdings, view.step))
    owner[move.module] = move.to;
  return reassignment(view, before, std::move(owner));
}

}  // namespace lbb
