#pragma once
// The one way an executor assembles the LoadView a balancer decides on: what stays fixed for a
// run (speeds, topology, the workload's structure and module coordinates) is set once, and each
// decision names what it measured. The view borrows every span: the data must outlive decide().
#include <cstdint>
#include <span>
#include <vector>

#include "balancers/balancer.h"
#include "workloads/workload.h"

namespace lbb {

// Per decision: costs and sizes of the modules decided on, and what was measured; set by name,
// e.g. ViewLoads(cost, bytes).owners(owner).busy_times(busy).
struct ViewLoads {
  ViewLoads(std::span<const double> cost_, std::span<const std::uint64_t> bytes_)
      : cost(cost_), bytes(bytes_) {}
  ViewLoads& owners(std::span<const int> v) { return owner = v, *this; }
  ViewLoads& busy_times(std::span<const double> v) { return busy = v, *this; }
  ViewLoads& work(std::span<const double> v) { return work_done = v, *this; }
  ViewLoads& hop_costs(std::span<const double> v) { return hop_cost = v, *this; }
  ViewLoads& module_coords(std::span<const double> v) { return coords = v, *this; }
  ViewLoads& migratable_modules(std::span<const unsigned char> v) { return migratable = v, *this; }

  std::span<const double> cost;
  std::span<const std::uint64_t> bytes;
  std::span<const int> owner;                 // empty before the first step
  std::span<const double> busy;               // per processor, since the last synchronisation
  std::span<const double> work_done;          // per processor, modules completed since then
  std::span<const double> hop_cost;           // per module, B_a + M_a (level workloads)
  std::span<const double> coords;             // of these modules; empty: the run's (all modules)
  std::span<const unsigned char> migratable;  // of these modules; empty: the run's (all modules)
};

class LoadViewBuilder {
 public:
  LoadViewBuilder(std::span<const double> speed, const Topology* topology,
                  ModuleStructure structure = ModuleStructure::kIndependent, int dimensions = 0,
                  std::span<const double> coords = {}, const ModuleGraph* communication = nullptr,
                  std::span<const unsigned char> migratable = {})
      : speed_(speed),
        topology_(topology),
        structure_(structure),
        dimensions_(dimensions),
        coords_(coords),
        communication_(communication),
        migratable_(migratable) {}

  // The view after step `step` (-1: the initial partition, from predicted weights).
  LoadView view(int step, const ViewLoads& loads) const {
    LoadView v;
    v.cost = loads.cost;
    v.bytes = loads.bytes;
    v.speed = speed_;
    v.owner = loads.owner;
    v.topology = topology_;
    v.structure = structure_;
    v.coords = loads.coords.empty() ? coords_ : loads.coords;
    v.dimensions = v.coords.empty() ? 0 : dimensions_;
    v.step = step;
    v.busy = loads.busy;
    v.work_done = loads.work_done;
    v.hop_cost = loads.hop_cost;
    // The graph's indices are the run's modules: a view of a sorted subset of them (an in-step
    // group's unfinished modules) is the whole run only when it holds all of them.
    if (communication_ && communication_->modules() == v.modules())
      v.communication = communication_;
    if (!loads.migratable.empty())
      v.migratable = loads.migratable;
    else if (static_cast<int>(migratable_.size()) == v.modules())
      v.migratable = migratable_;
    return v;
  }

  std::span<const double> speed() const { return speed_; }
  std::span<const double> coords() const { return coords_; }
  std::span<const unsigned char> migratable() const { return migratable_; }
  int dimensions() const { return dimensions_; }

 private:
  std::span<const double> speed_;
  const Topology* topology_;
  ModuleStructure structure_;
  int dimensions_;
  std::span<const double> coords_;
  const ModuleGraph* communication_;
  std::span<const unsigned char> migratable_;  // per module of the run; empty: all may move
};

// The workload's modules that may move, 0 where one may not (an imported task with vt's
// migratable: false); empty when every one may.
std::vector<unsigned char> migratable_modules(const Workload& workload);

// `d` with every module the view marks unmigratable back with its owner: whatever a balancer
// proposes, such a module stays (LoadView::migratable).
void keep_unmigratable(const LoadView& view, Decision& d);

}  // namespace lbb
