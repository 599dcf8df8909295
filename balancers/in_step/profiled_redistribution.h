#pragma once
#include <span>
#include <string>
#include <vector>

#include "balancers/balancer.h"
#include "core/assignment.h"

namespace lbb {

// Zaki, Li & Parthasarathy 1997's four schemes: global or local (groups of K consecutive
// processors) x centralised (one thread decides) or distributed (every thread decides).
enum class ProfiledScheme { kGCDLB, kGDDLB, kLCDLB, kLDDLB };

// The machine the cost model charges (zaki_cost_model.h): threads sharing memory, as the
// executors run the schemes, or the paper's messages.
enum class ZakiMachine { kMessages, kThreads };
// The cost-model parameters every scheme and `auto` share: latency, bandwidth, charges,
// atomic_latency.
std::vector<ParamSpec> zaki_cost_params();
ZakiMachine zaki_machine(const Params& resolved);

struct ProfiledConfig {
  ProfiledScheme scheme = ProfiledScheme::kGCDLB;
  int group_size = 0;            // K, local schemes only
  double move_threshold = 0.01;  // fraction of a group's modules below which nothing moves
  double profit = 0.10;          // minimum predicted improvement of the group's time
  double latency = 0;            // seconds per message (the paper's L)
  double bandwidth = 0;          // bytes per second (the paper's B)
  ZakiMachine machine = ZakiMachine::kThreads;  // what the cost model charges
  double atomic = 0;                            // s per atomic exchange (threads)
  int max_syncs = 8;                            // synchronisations of a group per phase, at most
};

// The profile-driven redistribution of Zaki, Li & Parthasarathy 1997. Load function: modules
// completed per second of busy time since the last synchronisation. Each group's modules are
// redistributed in proportion to it, unless fewer than move_threshold of them would move or the
// predicted time (max over the group of modules / rate, plus L per message and bytes / B) is not
// at least `profit` better than keeping the distribution. Stateless, so distributed schemes may
// call decide on every thread at once.
class ProfiledRedistribution final : public Balancer {
 public:
  explicit ProfiledRedistribution(ProfiledConfig config) : config_(config) {}
  // The shared registry entry of the four schemes (each registers itself in its own file).
  static BalancerInfo info(ProfiledScheme scheme, std::string name, std::string summary);
  Decision decide(const LoadView& view) override;
  bool redundant() const override;
  // The local schemes decide each group on its own processors' profiles (Zaki, Li & Parthasarathy
  // 1997: all-to-one within K processors for LCDLB, all-to-all within K for LDDLB).
  DecisionScope scope() const override;
  SyncTrigger sync_trigger() const override;

 private:
  bool local() const;
  ProfiledConfig config_;
};

// The four registry entries, one file each (gcdlb.cpp, gddlb.cpp, lcdlb.cpp, lddlb.cpp).
BalancerInfo gcdlb_info();
BalancerInfo gddlb_info();
BalancerInfo lcdlb_info();
BalancerInfo lddlb_info();

// Modules per processor proportional to rate, summing to `total` (largest remainders).
std::vector<int> proportional_counts(int total, std::span<const double> rate);
// Modules per processor, summing to `total`, so that done + count is proportional to rate (all
// finish together); a processor that ran more than its share already gets none.
std::vector<int> counts_finishing_together(int total, std::span<const double> rate,
                                           std::span<const double> done);

}  // namespace lbb
