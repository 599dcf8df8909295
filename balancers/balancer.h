#pragma once
// The one interface every balancer implements, static partitioner or dynamic rebalancer alike.
// A balancer sees a LoadView and returns a Decision; it never sees a kernel or a workload, so
// the same object serves real runs, simulated runs and the command-line tools.
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/module_graph.h"
#include "core/module_structure.h"
#include "core/params.h"
#include "core/topology.h"

namespace lbb {

struct LoadView {
  std::span<const double> cost;          // per module: measured seconds, or predicted weight
  std::span<const std::uint64_t> bytes;  // per module: state size (what a migration copies)
  std::span<const double> speed;         // per processor: relative speed, 1 = nominal
  std::span<const int> owner;            // current owner per module; empty before the first step
  const Topology* topology = nullptr;    // processor graph, never null in a run
  ModuleStructure structure = ModuleStructure::kIndependent;
  int dimensions = 0;              // of coords
  std::span<const double> coords;  // module centres, dimensions per module, may be empty
  int step = -1;                   // last finished step; -1 for the initial partition
  int phase = 0;                   // the workload's phase within the step
  // Measured since the last synchronisation (Zaki, Li & Parthasarathy 1997), per processor; both
  // may be empty. busy: seconds the processor spent executing modules (speed factor and external
  // load included; wall seconds at an in-step synchronisation, the trigger's clock, or CPU
  // seconds since the phase began where threads outnumber cores; CPU seconds between steps);
  // when empty, profile-driven balancers take sum(cost) / speed of its modules. work_done:
  // modules the processor completed (in the same span as busy); when empty, the number of
  // modules it owns.
  std::span<const double> busy;
  std::span<const double> work_done;
  // per module: cost of moving it one hop and returning its result, B_a + M_a in the units of
  // cost (Hwang & Hong 2001, section 3); empty when moves are free (no distance limit)
  std::span<const double> hop_cost;
  // Horton 1993's communication graph between the view's modules (the workload's; module
  // indices are the view's), or null when the workload gives none or the view holds only some of
  // the run's modules.
  const ModuleGraph* communication = nullptr;
  // per module: 0 where the module must stay with its owner; empty when every module may move
  // (plugins are checked against it, balancers/plugin/plugin_output.h)
  std::span<const unsigned char> migratable;

  int processors() const { return static_cast<int>(speed.size()); }
  int modules() const { return static_cast<int>(cost.size()); }
};

struct Decision {
  bool act = false;        // false: keep the current assignment, nothing moves
  std::vector<int> owner;  // the new owner of every module, when act
  int phases = 0;          // transfer phases the decision used (multi-phase balancers)
  // Predicted makespan, max_p sum(cost) / speed, of the current assignment and of the proposed
  // one (NaN when the balancer does not predict); a declined proposal keeps both figures.
  double predicted_before = std::numeric_limits<double>::quiet_NaN();
  double predicted_after = std::numeric_limits<double>::quiet_NaN();
};

// When the executor stops processors to rebalance (Zaki, Li & Parthasarathy 1997): by default
// between steps; profile-driven schemes synchronise a group whenever its fastest processor has
// finished its modules, and rebalance the modules the group has not run yet, again each time one
// finishes again, until a decision moves nothing or max_syncs synchronisations were held.
struct SyncTrigger {
  bool on_fastest_finish = false;
  int group_size = 0;  // processors per group (consecutive ids); 0: all processors form one group
  int max_syncs = 1;   // synchronisations of a group per phase of a step, at most
};

// A whole-run figure a balancer reports, archived as a run attribute (`dynamic: auto`'s
// predictions and choice).
struct BalancerFigure {
  std::string name;
  double value = 0;
};

// What one processor's decision reads, as the balancer's paper says: under MPI each rank receives
// exactly that (docs/engine.md, "Across processes"), and tests/balancer_scope_test.cpp checks that
// a processor deciding on its scope alone, every other load poisoned, decides as on the full view.
enum class DecisionScope {
  kLeader,       // centralised: one processor reads every load and decides for all
  kAll,          // distributed: every processor reads every load and decides the same (redundant)
  kNeighbours,   // processor i's transfers read the loads of i and of its topology neighbours
  kOwnAndTotal,  // processor i's transfers read the load of i and the sum of all loads
  // A group's decision (sync_trigger().group_size consecutive processors) reads the loads of the
  // group's processors and the costs of their modules only; one processor of the group decides
  // for it (redundant() false) or each of them alike.
  kGroup,
  // Horton 1993's multilevel scheme: the loads are summed up a tree of bisections of the
  // processors, each node's host reading its children's sums, and each cut is decided top down
  // by its host on those sums and the transfers its ancestors made into its halves.
  kTree,
};
std::string_view scope_name(DecisionScope scope);  // "leader", "all", "neighbours", ...

class Balancer {
 public:
  virtual ~Balancer() = default;
  virtual Decision decide(const LoadView& view) = 0;
  // True for distributed schemes: every processor computes the same decision redundantly, so the
  // executor calls decide on every thread at once (decide must then be safe to call concurrently)
  // and applies one result; false: one thread decides while the others wait.
  virtual bool redundant() const { return false; }
  // Read by the MPI executor at set-up, like redundant().
  virtual DecisionScope scope() const {
    return redundant() ? DecisionScope::kAll : DecisionScope::kLeader;
  }
  // Read by the executor at set-up and, for an in-step balancer, after every phase: a balancer
  // may change them at a decision (`dynamic: auto`); the next phase follows.
  virtual SyncTrigger sync_trigger() const { return {}; }
  // Read after the run.
  virtual std::vector<BalancerFigure> figures() const { return {}; }
};

// What a balancer is for, which says when the executor calls it. Declared by its registry entry
// (and the folder its file lives in), never discovered by making one.
enum class BalancerRole {
  kPartition,     // static: once, on predicted weights, before the first step
  kBetweenSteps,  // dynamic: after every step, on the step's measured costs
  kInStep,        // dynamic: inside a step, when a group's fastest processor finishes (Zaki et al.)
  kLevel,         // dynamic: once per level of a growing task tree (Hwang & Hong 2001)
  kAsync,   // dynamic: with no barrier between steps, as modules advance (Iqbal, Saltz & Bokhari
            // 1986)
  kChoice,  // dynamic: in step; at its first synchronisation a cost model picks the in-step
            // scheme that runs from there on (Zaki et al. 1997)
};
std::string_view role_name(BalancerRole role);  // "partition", "between steps", ...

// The config key that names a balancer: `static:` for partitioners, `dynamic:` for every other
// role.
enum class BalancerKind { kStatic, kDynamic };

// Optional abilities a registry entry declares, so tools and executors look them up by name.
struct BalancerCapabilities {
  // Partitioners whose result is always a contiguous chain partition (processor k holds one range
  // of modules preceding processor k+1's): tools print such parts as [first, last].
  bool contiguous = false;
  // Distributed schemes: every processor computes the same decision (Balancer::redundant()).
  bool redundant = false;
  // Partitioners that place modules by their coordinates (LoadView::coords): `validate` refuses
  // a workload whose modules have none, and `lbbench list` tags them [coordinates].
  bool needs_coordinates = false;
};

class UnitLevelBalancer;  // balancers/between_steps/parts/transfer_plan.h

struct BalancerInfo {
  std::string name;
  BalancerRole role = BalancerRole::kPartition;
  std::string summary;  // one line, with the paper it comes from
  std::vector<ParamSpec> params;
  std::function<std::unique_ptr<Balancer>(const Params&)> make{};
  BalancerCapabilities capabilities{};
  // Set for balancers with a unit-level form (Horton 1993's integer units; the `balance`
  // command): makes the same balancer as `make`, seen through its plan() interface.
  std::function<std::unique_ptr<UnitLevelBalancer>(const Params&)> make_unit_level{};
  // Set where some parameters need the workload's communication graph (LoadView::communication):
  // why these parameters need one, "" when they do not; `validate` refuses a workload without.
  std::function<std::string(const Params&)> needs_communication{};

  BalancerKind kind() const {
    return role == BalancerRole::kPartition ? BalancerKind::kStatic : BalancerKind::kDynamic;
  }
  bool has_unit_level() const { return static_cast<bool>(make_unit_level); }
};

// Every balancer, in the order `lbbench list` shows them (balancers/registry.cpp).
std::span<const BalancerInfo> balancer_registry();
const BalancerInfo* find_balancer(std::string_view name);
// The one of that kind: `plugin` and `python` name a partitioner (static:) and a between-step
// balancer (dynamic:) alike; the name alone finds the between-step one.
const BalancerInfo* find_balancer(std::string_view name, BalancerKind kind);

// Builds a balancer from given parameters plus defaults. Throws ParamError or
// std::invalid_argument (unknown name).
std::unique_ptr<Balancer> make_balancer(std::string_view name, const Params& given);
std::unique_ptr<Balancer> make_balancer(std::string_view name, BalancerKind kind,
                                        const Params& given);

}  // namespace lbb
