#include "balancers/between_steps/hierarchical.h"

#include <algorithm>
#include <numeric>

#include "balancers/between_steps/parts/reassignment.h"

namespace lbb {

namespace {

// The strategies a tree node may run: centralised ones that read costs and speeds alone (no
// topology, no neighbours), as Charm++'s HybridLB composes GreedyLB and RefineLB.
const std::vector<std::string> kNodeStrategies = {"greedy", "refine", "greedy_refine", "metis"};

}  // namespace

BalancerInfo HierarchicalBalancer::info() {
  return {"hierarchical",
          BalancerRole::kBetweenSteps,
          "a tree of groups: across groups first, each group as one processor, then within each "
          "group (Zheng, Bhatele, Meneses & Kale 2011, Charm++'s HybridLB)",
          {int_param("group", 4, "processors per group (consecutive ids; the last may be smaller)",
                     1, 4096),
           string_param("within", "greedy", "the strategy of each group's own processors",
                        kNodeStrategies),
           string_param("across", "refine",
                        "the root's strategy across the groups (refine moves the fewest modules "
                        "between groups)",
                        kNodeStrategies)},
          [](const Params& p) {
            return std::make_unique<HierarchicalBalancer>(static_cast<int>(p.integer("group")),
                                                          p.text("within"), p.text("across"));
          }};
}

HierarchicalBalancer::HierarchicalBalancer(int group, const std::string& within,
                                           const std::string& across)
    : group_(group),
      within_(make_balancer(within, BalancerKind::kDynamic, {})),
      across_(make_balancer(across, BalancerKind::kDynamic, {})) {}

Decision HierarchicalBalancer::decide(const LoadView& view) {
  const std::vector<int> before = starting_owners(view);
  std::vector<int> owner = across_groups(view, before);
  const int groups = (view.processors() + group_ - 1) / group_;
  for (int g = 0; g < groups; ++g) within_group(view, g, owner);
  for (std::size_t m = 0; m < view.migratable.size(); ++m)  // the node strategies ignore it
    if (!view.migratable[m]) owner[m] = before[m];
  return reassignment(view, before, std::move(owner));
}

std::vector<int> HierarchicalBalancer::across_groups(const LoadView& view, std::vector<int> owner) {
  const int P = view.processors(), groups = (P + group_ - 1) / group_;
  if (groups < 2) return owner;
  std::vector<double> speed(groups, 0.0);
  std::vector<int> of_group(owner.size());
  for (int p = 0; p < P; ++p) speed[p / group_] += view.speed[p];
  for (std::size_t m = 0; m < owner.size(); ++m) of_group[m] = owner[m] / group_;
  const Topology tree(TopologyKind::kComplete, groups);
  LoadView root = view;
  root.speed = speed;
  root.owner = of_group;
  root.topology = &tree;
  root.busy = root.work_done = {};
  const Decision d = across_->decide(root);
  if (!d.act) return owner;
  // Arrivals, largest first, each onto its new group's least-loaded processor (load / speed).
  std::vector<double> load(P, 0.0);
  std::vector<int> arrivals;
  const auto stays = [&](std::size_t m) {  // a module that may not move stays home
    return d.owner[m] == of_group[m] || (!view.migratable.empty() && !view.migratable[m]);
  };
  for (std::size_t m = 0; m < owner.size(); ++m)
    if (stays(m))
      load[owner[m]] += view.cost[m];
    else
      arrivals.push_back(static_cast<int>(m));
  std::stable_sort(arrivals.begin(), arrivals.end(),
                   [&](int a, int b) { return view.cost[a] > view.cost[b]; });
  for (int m : arrivals) {
    const int first = d.owner[m] * group_, end = std::min(P, first + group_);
    int best = first;
    for (int p = first + 1; p < end; ++p)
      if (load[p] / view.speed[p] < load[best] / view.speed[best]) best = p;
    owner[m] = best;
    load[best] += view.cost[m];
  }
  return owner;
}

void HierarchicalBalancer::within_group(const LoadView& view, int g, std::vector<int>& owner) {
  const int first = g * group_, size = std::min(view.processors(), first + group_) - first;
  if (size < 2) return;
  std::vector<int> modules, local;
  for (std::size_t m = 0; m < owner.size(); ++m)
    if (owner[m] >= first && owner[m] < first + size) {
      modules.push_back(static_cast<int>(m));
      local.push_back(owner[m] - first);
    }
  if (modules.empty()) return;
  std::vector<double> cost, coords;
  std::vector<std::uint64_t> bytes;
  std::vector<unsigned char> migratable;
  const int dims = view.coords.empty() ? 0 : view.dimensions;
  for (int m : modules) {
    cost.push_back(view.cost[m]);
    bytes.push_back(view.bytes.empty() ? 0 : view.bytes[m]);
    for (int k = 0; k < dims; ++k) coords.push_back(view.coords[m * dims + k]);
    if (!view.migratable.empty()) migratable.push_back(view.migratable[m]);
  }
  const Topology node(TopologyKind::kComplete, size);
  LoadView v;
  v.cost = cost;
  v.bytes = bytes;
  v.speed = view.speed.subspan(first, size);
  v.owner = local;
  v.topology = &node;
  v.coords = coords;
  v.dimensions = dims;
  v.migratable = migratable;
  v.step = view.step;
  v.phase = view.phase;
  const Decision d = within_->decide(v);
  if (!d.act) return;
  for (std::size_t k = 0; k < modules.size(); ++k) owner[modules[k]] = first + d.owner[k];
}

}  // namespace lbb
