#include "harness/mpi/scoped_decision.h"

#include <algorithm>
#include <cstring>
#include <optional>
#include <set>
#include <stdexcept>

#include "balancers/between_steps/parts/decision_scope.h"

namespace lbb {

namespace {

// Per other rank: the processors of this rank whose loads its processors read (`send`), and its
// processors whose loads this rank's read (`wanted`), both in processor order.
struct LoadRoutes {
  std::vector<std::set<int>> send, wanted;
};

LoadRoutes routes(DecisionScope scope, const Topology& topology, const RankLayout& ranks) {
  LoadRoutes out{std::vector<std::set<int>>(ranks.ranks), std::vector<std::set<int>>(ranks.ranks)};
  for (int p = 0; p < topology.size(); ++p)
    for (int q : scope_of(scope, topology, p)) {
      const int reader = ranks.rank_of(p), holder = ranks.rank_of(q);
      if (reader == holder) continue;
      if (holder == ranks.rank) out.send[reader].insert(q);
      if (reader == ranks.rank) out.wanted[holder].insert(q);
    }
  return out;
}

// This rank's `mine` to every other rank, and every rank's back, concatenated in rank order
// (the processors' transfers, or the groups' (module, owner) notices); counted in `traffic`.
template <class T>
std::vector<T> share_with_every_rank(const std::vector<T>& mine, const RankLayout& ranks,
                                     Traffic& traffic) {
  const auto bytes = std::as_bytes(std::span(mine));
  std::vector<std::size_t> offset;
  const std::vector<std::byte> all = allgather_bytes(bytes, ranks.ranks, offset);
  traffic.messages += ranks.ranks - 1;
  traffic.bytes += static_cast<std::int64_t>(bytes.size()) * (ranks.ranks - 1);
  std::vector<T> out(all.size() / sizeof(T));
  if (!out.empty()) std::memcpy(out.data(), all.data(), out.size() * sizeof(T));
  return out;
}

// One point-to-point message per rank whose part is not empty.
template <class T>
void count_parts(const std::vector<std::vector<T>>& to, Traffic& traffic) {
  for (const auto& part : to)
    if (!part.empty()) {
      ++traffic.messages;
      traffic.bytes += static_cast<std::int64_t>(part.size() * sizeof(T));
    }
}

}  // namespace

ScopedDecision decide_on_scope(UnitPlanBalancer& balancer, DecisionScope scope,
                               const LoadView& view, const RankLayout& ranks) {
  const int processors = view.processors();
  const ModuleUnits units = module_units(view.owner, view.cost, processors);
  ScopedDecision out;
  // Own loads as measured; the scopes' others as received; every other one poisoned.
  std::vector<std::int64_t> scoped(processors, kUnreadLoad);
  for (int p = ranks.first(); p < ranks.first() + ranks.threads; ++p) scoped[p] = units.loads[p];
  const LoadRoutes route = routes(scope, *view.topology, ranks);
  std::vector<std::vector<std::int64_t>> to(ranks.ranks);
  std::vector<int> counts(ranks.ranks, 0);
  for (int r = 0; r < ranks.ranks; ++r) {
    for (int q : route.send[r]) to[r].push_back(units.loads[q]);
    counts[r] = static_cast<int>(route.wanted[r].size());
  }
  count_parts(to, out.traffic);
  const auto received = send_receive(to, counts);
  for (int r = 0; r < ranks.ranks; ++r) {
    auto value = received[r].begin();
    for (int q : route.wanted[r]) scoped[q] = *value++;
  }
  UnitLoads in{scoped, view.speed, view.topology, view.step};
  if (scope == DecisionScope::kOwnAndTotal) {
    std::int64_t own = 0;
    for (int p = ranks.first(); p < ranks.first() + ranks.threads; ++p) own += scoped[p];
    in.total = sum_over_ranks(own);
    out.traffic.messages += ranks.ranks - 1;
    out.traffic.bytes += static_cast<std::int64_t>(sizeof own) * (ranks.ranks - 1);
  }
  const TransferPlan plan = balancer.plan(in);
  std::vector<UnitTransfer> mine;
  for (int p = ranks.first(); p < ranks.first() + ranks.threads; ++p)
    for (const UnitTransfer& t : rows_of(plan, p)) mine.push_back(t);
  const std::vector<UnitTransfer> rows = share_with_every_rank(mine, ranks, out.traffic);
  out.decision = balancer.decide_planned(view, plan_of_rows(units.loads, rows));
  return out;
}

namespace {

// Which ranks decide which processor's group.
struct Groups {
  int size = 1, processors = 1;
  bool one_decides = true;  // the rank of the group's first processor alone
  RankLayout ranks;
  int first(int p) const { return p / size * size; }
  int publisher(int p) const { return ranks.rank_of(first(p)); }
  bool decides(int rank, int p) const {
    const int last = std::min(first(p) + size, processors) - 1;
    return one_decides ? rank == publisher(p)
                       : rank >= ranks.rank_of(first(p)) && rank <= ranks.rank_of(last);
  }
};

}  // namespace

ScopedDecision decide_in_groups(Balancer& balancer, const LoadView& view,
                                std::span<const double> own_busy, const RankLayout& ranks) {
  const int processors = view.processors(), modules = view.modules();
  const int k = balancer.sync_trigger().group_size;
  const Groups groups{k > 0 ? k : processors, processors, !balancer.redundant(), ranks};
  ScopedDecision out;
  std::vector<double> busy(processors, kUnreadSeconds), cost(modules, kUnreadSeconds);
  std::vector<std::vector<double>> to(ranks.ranks);
  std::vector<int> counts(ranks.ranks, 0);
  for (int p = 0; p < processors; ++p) {
    if (ranks.mine(p)) {
      const double mine = own_busy[p - ranks.first()];
      if (groups.decides(ranks.rank, p)) busy[p] = mine;
      for (int r = 0; r < ranks.ranks; ++r)
        if (r != ranks.rank && groups.decides(r, p)) to[r].push_back(mine);
    } else if (groups.decides(ranks.rank, p)) {
      ++counts[ranks.rank_of(p)];
    }
  }
  count_parts(to, out.traffic);
  const auto received = send_receive(to, counts);
  std::vector<std::size_t> next(ranks.ranks, 0);
  for (int p = 0; p < processors; ++p)
    if (!ranks.mine(p) && groups.decides(ranks.rank, p))
      busy[p] = received[ranks.rank_of(p)][next[ranks.rank_of(p)]++];
  bool deciding = false;
  for (int m = 0; m < modules; ++m)
    if (groups.decides(ranks.rank, view.owner[m])) {
      cost[m] = view.cost[m];
      deciding = true;
    }
  LoadView scoped = view;
  scoped.busy = busy;
  scoped.cost = cost;
  const Decision d = deciding ? balancer.decide(scoped) : Decision{};
  auto decided = [&](int m) { return d.act ? d.owner[m] : view.owner[m]; };
  std::vector<int> notices;  // (module, owner) of the groups this rank publishes
  for (int m = 0; m < modules; ++m)
    if (groups.publisher(view.owner[m]) == ranks.rank && decided(m) != view.owner[m])
      notices.insert(notices.end(), {m, decided(m)});
  const std::vector<int> pairs = share_with_every_rank(notices, ranks, out.traffic);
  Owners owner(view.owner.begin(), view.owner.end());
  for (std::size_t i = 0; i + 1 < pairs.size(); i += 2) owner[pairs[i]] = pairs[i + 1];
  for (int m = 0; m < modules; ++m)
    if (groups.decides(ranks.rank, view.owner[m]) && decided(m) != owner[m])
      throw std::logic_error("the ranks of a group decided differently");
  out.decision.act = !pairs.empty();
  if (out.decision.act) out.decision.owner = std::move(owner);
  out.decision.phases = 1;
  return out;
}

namespace {

// One bisection tree's node hosts, seen from this rank.
struct TreeHosts {
  const BisectionTree& tree;
  const RankLayout& ranks;
  int rank_of(int node) const { return ranks.rank_of(tree.host(node)); }
  bool mine(int node) const { return rank_of(node) == ranks.rank; }
};

// Up the tree: every node's load sum at its host, the right child's received from its host;
// one round per depth, deepest first. Entries are (node, sum).
std::vector<std::int64_t> sums_up(const TreeHosts& h, std::span<const std::int64_t> own,
                                  Traffic& traffic) {
  const auto nodes = h.tree.nodes();
  std::vector<std::int64_t> sum(nodes.size(), kUnreadLoad);
  for (std::size_t n = 0; n < nodes.size(); ++n)
    if (nodes[n].leaf() && h.mine(static_cast<int>(n)))
      sum[n] = own[h.tree.host(static_cast<int>(n))];
  for (int depth = h.tree.depth() - 1; depth >= 0; --depth) {
    std::vector<std::vector<std::int64_t>> to(h.ranks.ranks);
    std::vector<int> counts(h.ranks.ranks, 0);
    for (std::size_t n = 0; n < nodes.size(); ++n) {
      if (nodes[n].depth != depth || nodes[n].leaf()) continue;
      const int right = nodes[n].right, parent = h.rank_of(static_cast<int>(n));
      if (parent == h.rank_of(right)) continue;
      if (h.mine(right))
        to[parent].insert(to[parent].end(), {static_cast<std::int64_t>(n), sum[right]});
      if (parent == h.ranks.rank) counts[h.rank_of(right)] += 2;
    }
    count_parts(to, traffic);
    const auto received = send_receive(to, counts);
    for (const auto& part : received)
      for (std::size_t i = 0; i + 1 < part.size(); i += 2) sum[nodes[part[i]].right] = part[i + 1];
    for (std::size_t n = 0; n < nodes.size(); ++n)
      if (nodes[n].depth == depth && !nodes[n].leaf() && h.mine(static_cast<int>(n)))
        sum[n] = sum[nodes[n].left] + sum[nodes[n].right];
  }
  return sum;
}

// A message of (node, count, then count transfers of from, to, units), one node after another.
void read_inheritance(std::span<const std::int64_t> part,
                      std::vector<std::vector<UnitTransfer>>& inherited) {
  for (std::size_t i = 0; i + 1 < part.size();) {
    std::vector<UnitTransfer>& list = inherited[part[i]];
    auto count = static_cast<std::size_t>(part[i + 1]);
    for (i += 2; count-- > 0; i += 3)
      list.push_back({static_cast<int>(part[i]), static_cast<int>(part[i + 1]), part[i + 2]});
  }
}

// Down the tree: this rank's nodes' cuts, depth by depth, each on its halves' sums and what it
// inherited; a right half hosted elsewhere receives its inheritance as (node, count, then count
// transfers of from, to, units).
std::vector<std::vector<UnitTransfer>> cuts_down(const TreeHosts& h,
                                                 std::span<const std::int64_t> sum,
                                                 std::span<const double> speed, Traffic& traffic) {
  const auto nodes = h.tree.nodes();
  std::vector<std::vector<UnitTransfer>> inherited(nodes.size()), moved(nodes.size());
  for (int depth = 0; depth < h.tree.depth(); ++depth) {
    std::vector<std::vector<std::int64_t>> to(h.ranks.ranks);
    std::vector<char> sends(h.ranks.ranks, 0), expects(h.ranks.ranks, 0);
    for (std::size_t n = 0; n < nodes.size(); ++n) {
      const BisectionNode& node = nodes[n];
      if (node.depth != depth || node.leaf()) continue;
      const int parent = h.rank_of(static_cast<int>(n)), child = h.rank_of(node.right);
      const bool inherits = !nodes[node.right].leaf();  // a leaf decides no cut
      if (inherits && child == h.ranks.rank && parent != child) expects[parent] = 1;
      if (parent != h.ranks.rank) continue;
      CutOutcome cut =
          h.tree.descend(static_cast<int>(n), sum[node.left], sum[node.right], inherited[n], speed);
      moved[n] = std::move(cut.moved);
      inherited[node.left] = std::move(cut.left);
      if (!inherits) continue;
      if (child == parent) {
        inherited[node.right] = std::move(cut.right);
        continue;
      }
      sends[child] = 1;
      to[child].insert(to[child].end(), {node.right, static_cast<std::int64_t>(cut.right.size())});
      for (const UnitTransfer& t : cut.right)
        to[child].insert(to[child].end(), {t.from, t.to, t.units});
    }
    count_parts(to, traffic);  // a part sent is never empty: it names its node
    for (const auto& part : send_receive_lists(to, sends, expects))
      read_inheritance(part, inherited);
  }
  return moved;
}

// A cut's transfer, tagged with its node, as it travels to every rank.
struct NodeTransfer {
  int node;
  UnitTransfer transfer;
};

}  // namespace

ScopedDecision decide_by_levels(MultilevelDiffusion& balancer, const LoadView& view,
                                const RankLayout& ranks) {
  const int processors = view.processors();
  const ModuleUnits units = module_units(view.owner, view.cost, processors);
  std::vector<std::int64_t> own(processors, kUnreadLoad);
  for (int p = ranks.first(); p < ranks.first() + ranks.threads; ++p) own[p] = units.loads[p];
  // The problem's communication graph, which every rank's owners induce alike (no load in it).
  std::optional<ModuleGraph> links;
  if (view.communication)
    links = induced_processor_graph(*view.communication, view.owner, processors);
  const BisectionTree tree =
      balancer.tree({own, view.speed, view.topology, view.step, links ? &*links : nullptr});
  const TreeHosts hosts{tree, ranks};
  ScopedDecision out;
  const std::vector<std::int64_t> sum = sums_up(hosts, own, out.traffic);
  const auto moved = cuts_down(hosts, sum, view.speed, out.traffic);
  std::vector<NodeTransfer> mine;
  for (std::size_t n = 0; n < moved.size(); ++n)
    for (const UnitTransfer& t : moved[n]) mine.push_back({static_cast<int>(n), t});
  std::vector<NodeTransfer> all = share_with_every_rank(mine, ranks, out.traffic);
  std::stable_sort(all.begin(), all.end(),
                   [](const NodeTransfer& a, const NodeTransfer& b) { return a.node < b.node; });
  std::vector<std::vector<UnitTransfer>> cuts(tree.nodes().size());
  for (const NodeTransfer& t : all) cuts[t.node].push_back(t.transfer);
  out.decision = balancer.decide_planned(view, plan_of_cuts(tree, units.loads, cuts));
  return out;
}

}  // namespace lbb
