#include "harness/exec/group_sync.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "harness/base/clock.h"

namespace lbb {

std::vector<std::unique_ptr<SyncGroup>> make_sync_groups(int processors, int group_size) {
  const int k = group_size <= 0 ? processors : std::min(group_size, processors);
  std::vector<std::unique_ptr<SyncGroup>> groups;
  for (int first = 0; first < processors; first += k)
    groups.push_back(std::make_unique<SyncGroup>(first, std::min(k, processors - first)));
  return groups;
}

GroupDecision decide_for_group(Balancer& balancer, const SyncGroup& group,
                               std::span<const StopReport> reports, const GroupViewContext& ctx) {
  const double start = thread_cpu_now();
  const int processors = static_cast<int>(ctx.views->speed().size());
  const std::span<const double> run_coords = ctx.views->coords();
  const int dimensions = ctx.views->dimensions();
  GroupDecision out;
  std::vector<int>& modules = out.modules;
  std::vector<double> busy(processors, 0.0), done(processors, 0.0);
  double ran_seconds = 0, ran_weight = 0;
  for (int q = group.first; q < group.first + group.size; ++q) {
    const StopReport& r = reports[q];
    modules.insert(modules.end(), r.unrun.begin(), r.unrun.end());
    busy[q] = r.busy;
    done[q] = r.done;
    ran_seconds += r.ran_seconds;
    ran_weight += r.ran_weight;
  }
  std::sort(modules.begin(), modules.end());
  const int n = static_cast<int>(modules.size());
  std::vector<int> owner(n);
  std::vector<double> cost(n);
  // Costs predicted from the previous step's measurements; before any, the predicted weights in
  // the seconds per unit weight the group measured so far.
  const double scale = ran_weight > 0 && ran_seconds > 0 ? ran_seconds / ran_weight : 1.0;
  for (int q = group.first; q < group.first + group.size; ++q)
    for (std::size_t k = 0; k < reports[q].unrun.size(); ++k) {
      const int m = reports[q].unrun[k];
      const auto i = std::lower_bound(modules.begin(), modules.end(), m) - modules.begin();
      owner[i] = q;
      cost[i] = ctx.measured ? reports[q].unrun_cost[k] : ctx.predicted[m] * scale;
    }
  std::vector<double> coords(run_coords.empty() ? 0 : std::size_t(n) * dimensions);
  std::vector<std::uint64_t> bytes(n);
  const std::span<const unsigned char> run_may = ctx.views->migratable();
  std::vector<unsigned char> may(run_may.empty() ? 0 : n);
  for (int i = 0; i < n; ++i) {
    const int m = modules[i];
    bytes[i] = ctx.bytes.empty() ? ctx.store->bytes(m) : ctx.bytes[m];
    if (!may.empty()) may[i] = run_may[m];
    if (!coords.empty())
      std::copy_n(run_coords.begin() + static_cast<std::ptrdiff_t>(m) * dimensions, dimensions,
                  coords.begin() + static_cast<std::ptrdiff_t>(i) * dimensions);
  }
  const LoadView view = ctx.views->view(ctx.step, ViewLoads(cost, bytes)
                                                      .owners(owner)
                                                      .busy_times(busy)
                                                      .work(done)
                                                      .module_coords(coords)
                                                      .migratable_modules(may));
  out.decision = balancer.decide(view);
  keep_unmigratable(view, out.decision);
  if (out.decision.act) {
    if (static_cast<int>(out.decision.owner.size()) != n)
      throw std::logic_error("balancer returned " + std::to_string(out.decision.owner.size()) +
                             " owners for a group's " + std::to_string(n) + " unfinished modules");
    for (int q : out.decision.owner)
      if (q < group.first || q >= group.first + group.size)
        throw std::logic_error("balancer moved a module to processor " + std::to_string(q) +
                               ", outside its group [" + std::to_string(group.first) + ", " +
                               std::to_string(group.first + group.size) + ")");
  }
  out.cpu = thread_cpu_now() - start;
  return out;
}

bool same_decision(const Decision& a, const Decision& b) {
  return a.act == b.act && (!a.act || a.owner == b.owner);
}

}  // namespace lbb
