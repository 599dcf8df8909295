#pragma once
// Horton 1993's setting: integer work units per processor, moved between processors in parallel
// transfer phases. Balancers with a unit-level form compute a TransferPlan from unit loads; the
// `balance` command prints it and the module-level decide realises it with concrete modules.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/module_graph.h"
#include "core/topology.h"

namespace lbb {

struct UnitTransfer {
  int from = 0;
  int to = 0;
  std::int64_t units = 0;  // > 0
};

struct TransferPhase {
  std::vector<UnitTransfer> transfers;  // all run in parallel
  // Every processor's units after the phase. May be negative in transit: a processor forwards
  // units it only receives in a later phase (Horton 1993, Table 4).
  std::vector<std::int64_t> loads;
};

struct TransferPlan {
  std::vector<TransferPhase> phases;
  std::vector<std::int64_t> final_loads;

  std::int64_t units_moved() const;
  bool moves_anything() const { return units_moved() > 0; }
};

// What a unit-level balancer sees: units per processor, speeds, the processor graph.
struct UnitLoads {
  std::span<const std::int64_t> loads;
  std::span<const double> speed;  // one per processor, > 0
  const Topology* topology = nullptr;
  int step = 0;  // varies the draws of randomised balancers between steps
  // Horton 1993's communication graph between the subproblems, one per processor (node p is
  // processor p), for balancers that follow it; null when none is given.
  const ModuleGraph* communication = nullptr;
  // The sum of every processor's load, where `loads` holds only some (a decision across MPI ranks,
  // each on its scope's loads: DecisionScope::kOwnAndTotal); -1: the sum of `loads`.
  std::int64_t total = -1;

  int processors() const { return static_cast<int>(loads.size()); }
  std::int64_t total_load() const;
};

// Empty when the input is consistent (sizes agree, speeds positive, loads non-negative).
std::optional<std::string> unit_loads_error(const UnitLoads& in);

// A plan with no phases whose final loads are the initial ones.
TransferPlan empty_plan(std::span<const std::int64_t> loads);

// Applies the transfers to plan.final_loads and records them as the next phase. Transfers of
// zero units are dropped; a phase with no transfer left is recorded only when keep_empty.
void append_phase(TransferPlan& plan, std::vector<UnitTransfer> transfers, bool keep_empty = false);

// The speed-proportional balanced vector: total * s_i / sum(s) (Franklin & Govindan 1995, eq. 5).
std::vector<double> balanced_loads(std::span<const std::int64_t> loads,
                                   std::span<const double> speed);
std::vector<double> balanced_loads(std::int64_t total, std::span<const double> speed);

// 2-norm of loads minus the balanced vector (Horton 1993, section 5; speed-proportional here).
double imbalance(std::span<const std::int64_t> loads, std::span<const double> speed);

// Net units between each pair of processors over the whole plan, one entry per pair that
// exchanged anything, oriented from the net sender; ordered by (from, to).
std::vector<UnitTransfer> net_transfers(const TransferPlan& plan);

// A balancer whose decision has a unit-level form (the `balance` command runs it).
class UnitLevelBalancer {
 public:
  virtual ~UnitLevelBalancer() = default;
  virtual TransferPlan plan(const UnitLoads& in) const = 0;
};

}  // namespace lbb
