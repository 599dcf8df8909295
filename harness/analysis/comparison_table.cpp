#include "harness/analysis/comparison_table.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>

#include "core/text.h"

namespace lbb {

bool ComparisonRow::complete() const {
  return verified == "yes" || verified == kNotVerifiedSimulated;
}

namespace {

constexpr std::size_t kFewRepetitions = 5;

// Medians of the verified repetitions; the verification column counts the rest.
ComparisonRow summarize_config(const ConfigResult& c) {
  ComparisonRow row;
  row.config = &c;
  std::vector<double> mk, wl, id, lm, ef, im, mg, mb, bl;
  std::vector<std::pair<std::string, std::vector<double>>> attrs;
  std::string error;
  int failed = 0;
  for (const Repetition& r : c.reps) {
    if (!r.error.empty()) error = r.error;
    if (!r.verified) {
      ++failed;
      continue;
    }
    mk.push_back(modelled_value(r, c));
    wl.push_back(r.wall);
    id.push_back(r.ideal);
    lm.push_back(r.largest_module);
    ef.push_back(r.efficiency);
    im.push_back(r.imbalance);
    mg.push_back(r.migrations);
    mb.push_back(r.megabytes);
    bl.push_back(r.balance);
    for (const auto& [name, value] : r.attributes) {
      const auto& key = name;  // clang 14 (the fuzz build) cannot capture a structured binding
      auto it = std::find_if(attrs.begin(), attrs.end(), [&](auto& a) { return a.first == key; });
      if (it == attrs.end()) it = attrs.insert(attrs.end(), {name, {}});
      it->second.push_back(value);
    }
  }
  row.makespan = stats::summarize(mk);
  row.modelled_by_replay = modelled_by_replay(c);
  row.wall = stats::summarize(wl);
  row.ideal = stats::median(id);
  row.largest_module = stats::median(lm);
  row.efficiency = stats::median(ef);
  row.imbalance = stats::median(im);
  row.migrations = stats::median(mg);
  row.megabytes = stats::median(mb);
  row.balance = stats::median(bl);
  for (const auto& [name, values] : attrs)
    row.attributes += "  " + name + "=" + format_number(stats::median(values), 7);
  row.verified = !error.empty() ? "FAILED: " + error
                 : failed > 0   ? "NO (" + std::to_string(failed) + ")"
                 : c.simulated  ? kNotVerifiedSimulated
                                : "yes";
  return row;
}

// The verified repetitions on the headline clock, with their rounds; a simulated row is
// deterministic but for its measured decision time (its balance time, when charged).
stats::RowSample row_sample(const ConfigResult& c, Clock clock) {
  stats::RowSample s;
  std::vector<double> balance;
  for (const Repetition& r : c.reps) {
    if (!r.verified) continue;
    s.values.push_back(clock == Clock::kWall ? r.wall : modelled_value(r, c));
    s.rounds.push_back(r.round);
    balance.push_back(r.balance);
  }
  s.deterministic = c.simulated;
  if (c.simulated && c.measured_decisions && !balance.empty())
    s.uncertainty = stats::median(balance);
  return s;
}

// The group's baseline: the row labelled `named` when one is named, else the config's marked
// row, else `none`.
const ComparisonRow* find_baseline(const std::vector<ComparisonRow>& rows,
                                   const std::vector<std::size_t>& group,
                                   const std::string& named) {
  const ComparisonRow* base = nullptr;
  for (std::size_t i : group) {
    const ComparisonRow& r = rows[i];
    if (!named.empty()) {
      if (r.config->label == named) base = &r;
      continue;
    }
    if (r.config->baseline && (!base || !base->config->baseline)) base = &r;
    if (!base && r.config->label == "none") base = &r;
  }
  return base;
}

// Baseline, ratios and verdicts of one group (rows given by index).
stats::GroupJudgement judge(std::vector<ComparisonRow>& rows, const std::vector<std::size_t>& group,
                            const Headline& headline, const std::string& named) {
  std::vector<stats::RowSample> samples;
  std::vector<bool> eligible;
  for (std::size_t i : group) {
    ComparisonRow& r = rows[i];
    r.headline = headline.clock;
    samples.push_back(row_sample(*r.config, headline.clock));
    r.eligible = r.complete() && (headline.clock == Clock::kWall || headline.simulated ||
                                  modelled_makespan_orders(*r.config));
    eligible.push_back(r.eligible);
  }
  stats::VerdictRules rules;
  rules.delta = rows[group.front()].config->equivalence;
  for (std::size_t i : group) rules.looks = std::max(rules.looks, rows[i].config->looks);
  const stats::GroupJudgement v = stats::judge_group(samples, eligible, rules);
  const ComparisonRow* base = find_baseline(rows, group, named);
  for (std::size_t k = 0; k < group.size(); ++k) {
    ComparisonRow& r = rows[group[k]];
    r.best = v.best == static_cast<int>(k);
    r.verdict = v.rows[k].verdict;
    r.method = v.rows[k].method;
    r.vs_best = v.rows[k].vs_best;
    r.p_vs_best = v.rows[k].p;
    r.delta = rules.delta;
    if (!base) {
      const double nan = std::numeric_limits<double>::quiet_NaN();
      r.vs_baseline = {nan, nan, nan, 0};
      continue;
    }
    r.baseline = base->config->label;
    r.is_baseline = &r == base;
    const stats::RowSample own = row_sample(*r.config, headline.clock);
    const stats::RowSample against = row_sample(*base->config, headline.clock);
    r.vs_baseline = stats::compare_rows(own, against, 0.95).ratio;
  }
  return v;
}

}  // namespace

std::string group_key(const ConfigResult& c) {
  return c.workload + "|" + std::to_string(c.processors) + "|" + c.sweep;
}

Headline choose_headline(int processors, int available, double load_average, bool simulated) {
  if (simulated)
    return {Clock::kModelled,
            "ranked by the simulated makespan (P = " + std::to_string(processors) +
                " modelled processors: no thread ran, the host's cores and "
                "load do not enter)",
            true};
  const int free_cores = available - static_cast<int>(std::lround(load_average));
  const std::string host = std::to_string(available) + " cores, load average " +
                           format_number(load_average, 3) + " at start";
  if (free_cores >= processors)
    return {Clock::kWall, "ranked by wall time (P = " + std::to_string(processors) +
                              " <= " + std::to_string(free_cores) + " free cores: " + host + ")"};
  return {Clock::kModelled, "ranked by modelled makespan (P = " + std::to_string(processors) +
                                " > " + std::to_string(std::max(free_cores, 0)) +
                                " free cores: " + host + "); wall time is shown beside it"};
}

namespace {

bool makespan_misorders(const ConfigResult& c) {
  static const std::set<std::string> fastest_finish = {"gcdlb", "gddlb", "lcdlb", "lddlb", "auto"};
  return !c.schedule_name.empty() || fastest_finish.count(c.dynamic_name);
}

}  // namespace

bool modelled_by_replay(const ConfigResult& c) {
  bool any = false;
  for (const Repetition& r : c.reps) {
    if (!r.verified) continue;
    if (!std::isfinite(r.replayed_makespan)) return false;
    any = true;
  }
  return any && makespan_misorders(c);
}

double modelled_value(const Repetition& r, const ConfigResult& c) {
  return modelled_by_replay(c) ? r.replayed_makespan : r.makespan;
}

bool modelled_makespan_orders(const ConfigResult& c) {
  return !makespan_misorders(c) || modelled_by_replay(c);
}

Comparison compare_configs(const std::vector<ConfigResult>& configs, const std::string& baseline) {
  Comparison out;
  std::map<std::string, std::vector<std::size_t>> groups;
  std::vector<std::string> order;
  for (const ConfigResult& c : configs) {
    out.rows.push_back(summarize_config(c));
    auto [it, fresh] = groups.try_emplace(group_key(c));
    if (fresh) order.push_back(it->first);
    it->second.push_back(out.rows.size() - 1);
  }
  std::set<std::string> reasons;
  bool unranked = false, undecided = false, few = false, broken = false, varied = false;
  bool exact = false, replayed = false;
  for (const std::string& g : order) {
    const ConfigResult& first = *out.rows[groups[g].front()].config;
    // The simulator's clock ranks a group only when no thread ran any of its rows.
    const bool simulated = std::all_of(groups[g].begin(), groups[g].end(), [&](std::size_t i) {
      return out.rows[i].config->simulated;
    });
    const Headline h =
        choose_headline(first.processors, first.available, first.load_average, simulated);
    if (reasons.insert(h.reason).second) out.notes.push_back(h.reason);
    const stats::GroupJudgement v = judge(out.rows, groups[g], h, baseline);
    broken |= v.broken_rounds;
    varied |= v.varied_constant;
    for (std::size_t i : groups[g]) {
      const ComparisonRow& r = out.rows[i];
      unranked |= r.complete() && !r.eligible;
      undecided |= r.verdict == stats::Verdict::kUndecided;
      exact |= r.method == stats::Method::kExact;
      few |= r.eligible && !r.config->simulated && r.config->reps.size() < kFewRepetitions;
      replayed |= r.eligible && r.modelled_by_replay && r.headline == Clock::kModelled;
    }
  }
  out.notes.push_back(
      "verdicts against the group's best (lowest median): slower = significantly slower "
      "(paired t-test on the log ratios of rounds run back to back, Holm-adjusted over the "
      "group, 5 %); equivalent = not slower and its 90 % interval within +-delta of the best "
      "(two one-sided tests); winner = the best, every other row slower or equivalent; "
      "undecided = neither shown (docs/results.md, \"Verdicts\")");
  if (exact)
    out.notes.push_back(
        "exact = simulated rows compared by value (nothing varies between their repetitions): "
        "any difference past a relative 1e-9, and past their measured decision times, is a "
        "difference");
  if (broken)
    out.notes.push_back(
        "some rows' rounds are broken (runs of different invocations or hosts in one group): "
        "they were compared unpaired (Mann-Whitney U, Hodges-Lehmann ratio)");
  if (varied)
    out.notes.push_back(
        "a simulated row's repetitions differed by more than its measured decision time: its "
        "group was judged statistically");
  if (undecided)
    out.notes.push_back(
        "undecided rows need more rounds: execution.repetitions (or auto, which runs rounds "
        "until each row is decided)");
  if (replayed)
    out.notes.push_back(
        "replay = modelled: an in-step schedule or fastest-finish scheme, its measured module "
        "costs (thread CPU time) replayed through the simulator's schedule model at P "
        "processors (runs column replayed_makespan_total; --wide: its makespan_s)");
  if (unranked)
    out.notes.push_back(
        "- = not ranked: on an oversubscribed host the modelled makespan misorders in-step "
        "schedules and fastest-finish schemes, and these rows have no replayed makespan "
        "(omp_runtime, runs across ranks, level workloads, sets older than the column; see "
        "README, \"Reading the table\")");
  if (few)
    out.notes.push_back("warning: fewer than " + std::to_string(kFewRepetitions) +
                        " repetitions in some rows: intervals are wide and few differences can "
                        "be significant; use --repetitions");
  return out;
}

std::size_t keep_selected(Comparison& c, const Selection& selection) {
  const std::size_t before = c.rows.size();
  std::erase_if(c.rows, [&](const ComparisonRow& r) {
    return !selection.selects(r.config->workload, r.config->label);
  });
  const std::size_t hidden = before - c.rows.size();
  if (hidden > 0 && !c.rows.empty())
    c.notes.push_back(std::to_string(hidden) +
                      " rows left out by --only / --exclude; the ratios and marks above were "
                      "judged with them");
  return hidden;
}

}  // namespace lbb
