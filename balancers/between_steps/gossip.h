#pragma once
// Gossip-based distributed balancing (Menon & Kale 2013, GrapevineLB), modelled in one decision:
// the underloaded processors' loads spread by gossip, each informed processor forwarding what it
// knows to `fanout` random processors for `rounds` rounds (log_f P by default), each keeping at
// most `knowledge` underloaded processors (32 unless set; 0: all); then each overloaded processor,
// knowing only what reached it and the loads as gossiped (its own transfers added), offers its
// modules, largest first, to known underloaded processors drawn with probability proportional to
// their room under the average. The original criterion accepts a transfer that leaves the receiver
// at most at the average; vt's TemperedLB criterion one that leaves it under the sender's load as
// it then is. `iterations` repeats gossip and transfers on the loads they leave (TemperedLB's
// iterations). Deterministic for a seed and step. The decision itself is gossip_rounds.h's.
#include <cstdint>

#include "balancers/balancer.h"

namespace lbb {

struct GossipSettings {
  int fanout = 2;
  int rounds = 0;           // 0: log_f P, the fewest with fanout^rounds >= P (base 2 at fanout 1)
  int knowledge = 32;       // underloaded processors a processor keeps (and forwards); 0: all
  double threshold = 1.05;  // overloaded: above threshold x the average (speed-proportional)
  bool tempered = false;
  int iterations = 1;
  std::uint64_t seed = 1;
};

// The settings the registry's parameters (resolved, with defaults) give.
GossipSettings gossip_settings(const Params& params);

class GossipBalancer final : public Balancer {
 public:
  explicit GossipBalancer(GossipSettings settings) : settings_(settings) {}
  static BalancerInfo info();
  Decision decide(const LoadView& view) override;

 private:
  GossipSettings settings_;
};

}  // namespace lbb
