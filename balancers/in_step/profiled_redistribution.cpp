#include "balancers/in_step/profiled_redistribution.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <utility>

#include "balancers/in_step/zaki_cost_model.h"
#include "balancers/partition/block.h"

namespace lbb {

namespace {

bool is_local(ProfiledScheme scheme) {
  return scheme == ProfiledScheme::kLCDLB || scheme == ProfiledScheme::kLDDLB;
}

bool is_distributed(ProfiledScheme scheme) {
  return scheme == ProfiledScheme::kGDDLB || scheme == ProfiledScheme::kLDDLB;
}

// Every processor that still holds unfinished modules is left one at least: the decision rests on
// rates measured since the last synchronisation, and taking a processor's last module gains one
// module's time at most while it idles for the rest of the step and starts the next with nothing
// to measure (on a loaded host a descheduled processor was emptied so, step after step). The
// module comes from the processor with the longest predicted time that can spare one.
void keep_one_each(std::vector<int>& target, std::span<const double> rate,
                   const std::vector<int>& holding) {
  const std::size_t size = target.size();
  for (std::size_t k = 0; k < size; ++k) {
    if (target[k] > 0 || holding[k] == 0) continue;
    std::size_t from = size;
    for (std::size_t j = 0; j < size; ++j) {
      const int keeps = holding[j] > 0 ? 1 : 0;
      if (j == k || target[j] <= keeps) continue;
      if (from == size || target[j] / rate[j] > target[from] / rate[from]) from = j;
    }
    if (from == size) return;  // cannot happen: the group holds a module per holder at least
    --target[from];
    ++target[k];
  }
}

}  // namespace

std::vector<ParamSpec> zaki_cost_params() {
  return {
      real_param("latency", 1e-6,
                 "L: seconds per message in the cost model (charges: threads, per wake-up of "
                 "waiting threads)",
                 0.0),
      real_param("bandwidth", 1e10, "B: bytes per second a migration copies in the cost model",
                 1.0),
      string_param("charges", "threads",
                   "what the cost model charges: threads (what the executors do: atomic "
                   "exchanges, wake-ups and copies in shared memory) or messages (the paper's "
                   "network: n + n or n + n^2 messages a synchronisation)",
                   {"threads", "messages"}),
      real_param("atomic_latency", 1e-7,
                 "seconds per atomic exchange on a cache line a group shares (charges: threads)",
                 0.0)};
}

ZakiMachine zaki_machine(const Params& p) {
  return p.text("charges") == "messages" ? ZakiMachine::kMessages : ZakiMachine::kThreads;
}

BalancerInfo ProfiledRedistribution::info(ProfiledScheme scheme, std::string name,
                                          std::string summary) {
  std::vector<ParamSpec> params;
  if (is_local(scheme))
    params.push_back(int_param("group_size", 4, "K: processors per group (consecutive ids)", 1));
  params.push_back(real_param("move_threshold", 0.01,
                              "move nothing when fewer than this fraction of a group's modules "
                              "would move",
                              0.0, 1.0));
  params.push_back(real_param("profit", 0.10,
                              "act only when the predicted time improves by at least this "
                              "fraction (the 10 % profitability rule)",
                              0.0, 1.0));
  for (ParamSpec& spec : zaki_cost_params()) params.push_back(std::move(spec));
  params.push_back(int_param("max_syncs", 8,
                             "synchronisations of a group per phase, at most: one whenever its "
                             "fastest processor finishes, until a decision moves nothing",
                             1, 1000));
  BalancerInfo info{std::move(name), BalancerRole::kInStep, std::move(summary), std::move(params),
                    [scheme](const Params& p) {
                      ProfiledConfig c;
                      c.scheme = scheme;
                      c.group_size =
                          is_local(scheme) ? static_cast<int>(p.integer("group_size")) : 0;
                      c.move_threshold = p.real("move_threshold");
                      c.profit = p.real("profit");
                      c.latency = p.real("latency");
                      c.bandwidth = p.real("bandwidth");
                      c.machine = zaki_machine(p);
                      c.atomic = p.real("atomic_latency");
                      c.max_syncs = static_cast<int>(p.integer("max_syncs"));
                      return std::make_unique<ProfiledRedistribution>(c);
                    }};
  info.capabilities.redundant = is_distributed(scheme);
  return info;
}

bool ProfiledRedistribution::local() const {
  return is_local(config_.scheme);
}

bool ProfiledRedistribution::redundant() const {
  return is_distributed(config_.scheme);
}

DecisionScope ProfiledRedistribution::scope() const {
  if (local()) return DecisionScope::kGroup;
  return redundant() ? DecisionScope::kAll : DecisionScope::kLeader;
}

SyncTrigger ProfiledRedistribution::sync_trigger() const {
  return {true, local() ? config_.group_size : 0, config_.max_syncs};
}

std::vector<int> proportional_counts(int total, std::span<const double> rate) {
  return counts_finishing_together(total, rate, std::vector<double>(rate.size(), 0.0));
}

std::vector<int> counts_finishing_together(int total, std::span<const double> rate,
                                           std::span<const double> done) {
  const std::size_t n = rate.size();
  std::vector<char> active(n, 1);
  std::vector<double> quota(n, 0.0);
  for (bool dropped = total > 0; dropped;) {  // drop those that ran more than their share
    dropped = false;
    double rates = 0, modules = total;
    for (std::size_t p = 0; p < n; ++p)
      if (active[p]) rates += rate[p], modules += done[p];
    for (std::size_t p = 0; p < n; ++p) {
      quota[p] = active[p] ? modules * rate[p] / rates - done[p] : 0.0;
      if (active[p] && quota[p] < 0) active[p] = 0, dropped = true;
    }
  }
  std::vector<int> count(n, 0);
  std::vector<std::pair<double, int>> remainder;  // (fraction, index)
  int given = 0;
  for (std::size_t p = 0; p < n; ++p) {
    count[p] = static_cast<int>(std::floor(quota[p]));
    given += count[p];
    if (active[p]) remainder.emplace_back(quota[p] - count[p], static_cast<int>(p));
  }
  std::stable_sort(remainder.begin(), remainder.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  for (int k = 0; given < total; ++k, ++given) ++count[remainder[k % remainder.size()].second];
  return count;
}

Decision ProfiledRedistribution::decide(const LoadView& view) {
  const int processors = view.processors();
  const bool initial = view.owner.empty();
  const Owners owner = initial ? block_owners(view.modules(), processors)
                               : Owners(view.owner.begin(), view.owner.end());
  const Decision keep{initial, initial ? owner : Owners{}, 0};
  const auto held = modules_by_processor(owner, processors);
  // Load function: work done per second of busy time since the last synchronisation.
  const std::vector<double> busy = view.busy.size() == static_cast<std::size_t>(processors)
                                       ? std::vector<double>(view.busy.begin(), view.busy.end())
                                       : processor_loads(owner, view.cost, view.speed);
  const bool in_step = view.work_done.size() == static_cast<std::size_t>(processors);
  std::vector<double> done(processors);
  for (int p = 0; p < processors; ++p)
    done[p] = view.work_done.size() == static_cast<std::size_t>(processors)
                  ? view.work_done[p]
                  : static_cast<double>(held[p].size());

  Owners next = owner;
  bool acted = false;
  const int group = local() ? config_.group_size : processors;
  std::vector<std::vector<int>> group_modules((processors + group - 1) / group);
  for (int m = 0; m < view.modules(); ++m) group_modules[owner[m] / group].push_back(m);
  for (int first = 0; first < processors; first += group) {
    const int size = std::min(group, processors - first);
    // Rates: modules completed per busy second.
    std::vector<double> rate(size, 0.0);
    double per_speed = 0;
    int known = 0;
    for (int k = 0; k < size; ++k) {
      const int p = first + k;
      if (busy[p] > 0 && done[p] > 0) {
        rate[k] = done[p] / busy[p];
        per_speed += rate[k] / view.speed[p];
        ++known;
      }
    }
    // A processor that did no work since the last synchronisation (an emptied one, or all of a
    // group that had not finished a module) is rated, never dropped: by its nominal speed times
    // the group's measured rate per unit speed, or by nominal speed alone when none measured.
    per_speed = known > 0 ? per_speed / known : 1.0;
    for (int k = 0; k < size; ++k)
      if (rate[k] == 0) rate[k] = per_speed * view.speed[first + k];

    const std::vector<int>& modules = group_modules[first / group];  // in index order
    const int total = static_cast<int>(modules.size());
    if (total == 0) continue;
    // At an in-step synchronisation each processor ran `since` modules since the last one, in
    // since / rate seconds of its own clock: the modules left are shared so that all finish
    // together on that clock. Where threads outnumber cores the trigger ran alone while others
    // waited for a core; shared by rate alone, the trigger took its share again at every
    // synchronisation (issue 35: 38 of 64 equal modules on 8 threads). On dedicated processors
    // since is rate x the trigger's time for all, and the shares are by rate.
    std::vector<double> since(size, 0.0), ran(size, 0.0);
    double trigger = 0;
    for (int k = 0; k < size && in_step; ++k) {
      since[k] = done[first + k];
      ran[k] = since[k] / rate[k];
      trigger = std::max(trigger, ran[k]);
    }
    std::vector<int> target = counts_finishing_together(total, rate, since);
    std::vector<int> holding(size);
    for (int k = 0; k < size; ++k) holding[k] = static_cast<int>(held[first + k].size());
    keep_one_each(target, rate, holding);
    double now = 0, after = 0;  // predicted time of the group's modules, kept and redistributed
    for (int k = 0; k < size; ++k) {
      now = std::max(now, ran[k] + static_cast<double>(held[first + k].size()) / rate[k]);
      after = std::max(after, ran[k] + target[k] / rate[k]);
    }
    now -= trigger;  // from the trigger's end on its clock
    after -= trigger;

    // New owners: contiguous ranges in processor order when the modules form a chain already
    // held that way, else surplus modules (highest indices first) fill the deficits in order.
    Owners& proposal = next;  // written for the group's modules only, undone if not adopted
    bool contiguous = view.structure == ModuleStructure::kChain;
    for (int i = 1; contiguous && i < total; ++i)
      contiguous = owner[modules[i]] >= owner[modules[i - 1]];
    if (contiguous) {
      int i = 0;
      for (int k = 0; k < size; ++k)
        for (int c = 0; c < target[k]; ++c) proposal[modules[i++]] = first + k;
    } else {
      std::vector<int> surplus;
      for (int k = 0; k < size; ++k) {
        const auto& mine = held[first + k];
        for (int c = 0; c < static_cast<int>(mine.size()) - target[k]; ++c)
          surplus.push_back(mine[mine.size() - 1 - c]);
      }
      std::size_t s = 0;
      for (int k = 0; k < size; ++k)
        for (int c = static_cast<int>(held[first + k].size()); c < target[k]; ++c)
          proposal[surplus[s++]] = first + k;
    }
    int moved = 0;
    double bytes = 0;
    std::vector<std::pair<int, int>> messages;
    for (int m : modules)
      if (proposal[m] != owner[m]) {
        ++moved;
        bytes += view.bytes.empty() ? 0.0 : static_cast<double>(view.bytes[m]);
        if (messages.empty() || messages.back() != std::pair(owner[m], proposal[m]))
          messages.emplace_back(owner[m], proposal[m]);  // runs of one pair count once
      }
    std::sort(messages.begin(), messages.end());
    messages.erase(std::unique(messages.begin(), messages.end()), messages.end());
    std::vector<char> instructed(size, 0);  // processors whose modules change
    for (const auto& [from, to] : messages) instructed[from - first] = instructed[to - first] = 1;
    const double migration =
        zaki_cost(config_.scheme, size,
                  static_cast<int>(std::count(instructed.begin(), instructed.end(), 1)),
                  static_cast<int>(messages.size()), bytes,
                  {config_.latency, config_.bandwidth, config_.machine, config_.atomic})
            .total();
    if (moved == 0 || moved < config_.move_threshold * total ||  // movement threshold
        now - (after + migration) < config_.profit * now) {      // profitability rule
      for (int m : modules) next[m] = owner[m];
      continue;
    }
    acted = true;
  }
  if (!acted) return keep;
  return {true, std::move(next), 1};
}

}  // namespace lbb
