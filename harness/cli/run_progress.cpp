#include "harness/cli/run_progress.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <set>

#include "core/text.h"
#include "harness/analysis/comparison_table.h"
#include "harness/analysis/race.h"
#include "harness/base/process_world.h"
#include "harness/mpi/mpi_session.h"

namespace lbb {

namespace {

std::string duration(double s) {
  const int t = static_cast<int>(std::lround(s));
  char buf[32];
  if (t >= 60)
    std::snprintf(buf, sizeof buf, "%dm%02ds", t / 60, t % 60);
  else
    std::snprintf(buf, sizeof buf, "%ds", t);
  return buf;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Whether the leader's result writer failed (a full disk, a folder gone): every rank stops.
bool write_failed(ResultWriter* writer) {
  std::vector<int> failed{writer && !writer->failure().empty() ? 1 : 0};
  share_from_leader(failed);
  return failed.front() != 0;
}

}  // namespace

std::vector<RunOutcome> run_all(const std::vector<PlannedRun>& plan, ResultWriter* writer,
                                const Provenance& prov, bool quiet, ReferenceCache& references) {
  const bool tty = !quiet && isatty(fileno(stderr)) != 0;
  const bool leader = process_world().leader();
  const int total = static_cast<int>(plan.size());
  std::vector<RunOutcome> outcomes;
  outcomes.reserve(total);
  const auto start = std::chrono::steady_clock::now();
  int n = 0;
  for (const auto& [spec_ptr, rep] : plan) {
    const RunSpec& spec = *spec_ptr;
    ++n;
    const std::string what =
        printable("[" + std::to_string(n) + "/" + std::to_string(total) + "] " + spec.workload +
                  " P=" + std::to_string(spec.processors) + " " + spec.balancer.label +
                  (spec.sweep_label.empty() ? "" : " " + spec.sweep_label) +
                  (spec.repetitions > 1
                       ? " rep " + std::to_string(rep + 1) + "/" + std::to_string(spec.repetitions)
                       : ""));
    if (tty) std::cerr << what << std::flush;  // the rest of the line when the run ends
    outcomes.push_back(execute_run(spec, rep, writer, prov, &references));
    const RunOutcome& r = outcomes.back();
    const double elapsed = seconds_since(start);
    // Under mpirun every rank runs (and fails) each run alike: rank 0 says so, once.
    if (leader && !r.error.empty())
      std::cerr << (tty ? "" : what) << "  FAILED: " << printable(r.error) << "\n";
    else if (leader && !r.verification.passed)
      std::cerr << (tty ? "" : what)
                << "  VERIFICATION FAILED: " << printable(r.verification.detail) << "\n";
    else if (leader && !quiet)
      std::cerr << (tty ? "" : what) << "  " << format_number(r.record.run_wall, 3) << " s, "
                << (r.verification.simulated ? kNotVerifiedSimulated : "verified") << ", ETA "
                << duration(elapsed / n * (total - n)) << "\n";
    if (write_failed(writer)) {
      std::cerr << "lbbench: stopped after run " << n << " of " << total
                << ": its results could not be written; the parts written before are kept\n";
      break;
    }
  }
  return outcomes;
}

namespace {

// Every run of the race's configurations so far: this invocation's, and the set's earlier ones
// (run --resume), judged together.
std::vector<ConfigResult> results_so_far(const std::vector<RunOutcome>& outcomes,
                                         const RaceContext& c) {
  std::vector<ConfigResult> out = results_from_outcomes(outcomes, *c.prov, c.load_at_start);
  for (const ConfigResult& e : c.earlier) {
    auto same = std::find_if(out.begin(), out.end(), [&](const ConfigResult& r) {
      return r.workload == e.workload && r.label == e.label && r.sweep == e.sweep &&
             r.processors == e.processors;
    });
    if (same == out.end())
      out.push_back(e);
    else
      same->reps.insert(same->reps.begin(), e.reps.begin(), e.reps.end());
  }
  return out;
}

struct Budget {
  int runs = 0;        // 0: none
  double seconds = 0;  // 0: none
};

Budget budget_of(const std::vector<RunSpec>& specs) {
  Budget b;
  for (const RunSpec& s : specs)
    if (s.race.on) {
      b.runs = std::max(b.runs, s.race.budget_runs);
      b.seconds = std::max(b.seconds, s.race.budget_seconds);
    }
  return b;
}

// Why a round of `size` runs may not start (empty: it may): the budget's runs or seconds.
std::string over_budget(const Budget& b, int started, int size, double elapsed) {
  if (b.runs > 0 && started + size > b.runs)
    return "its budget of " + std::to_string(b.runs) + " runs (" + std::to_string(started) +
           " run, the next round has " + std::to_string(size) + ")";
  if (b.seconds > 0 && started > 0 && elapsed + elapsed / started * size > b.seconds)
    return "its budget of " + format_number(b.seconds, 4) + " s (" + duration(elapsed) +
           " run, the next round would take about " + duration(elapsed / started * size) + ")";
  return "";
}

// "; 24 runs left in the budget, about 2 rounds of 10".
std::string budget_left(const Budget& b, int started, std::size_t next_round) {
  if (b.runs <= 0 || next_round == 0) return "";
  const int left = std::max(0, b.runs - started);
  return "; " + std::to_string(left) + " runs left in the budget, about " +
         std::to_string(left / static_cast<int>(next_round)) + " rounds of " +
         std::to_string(next_round);
}

}  // namespace

std::vector<RunOutcome> race_all(const std::vector<RunSpec>& specs,
                                 const std::vector<PlannedRun>& allowed, const RaceContext& c) {
  Race race(specs);
  ReferenceCache references;  // announced for every run the race may make: kept to its end
  for (const auto& r : allowed) expect_references(references, *r.spec);
  const std::set<std::pair<const RunSpec*, int>> may = [&] {
    std::set<std::pair<const RunSpec*, int>> out;
    for (const auto& r : allowed) out.insert({r.spec, r.repetition});
    return out;
  }();
  const Budget budget = budget_of(specs);
  const bool leader = process_world().leader();
  std::vector<RunOutcome> outcomes;
  const auto start = std::chrono::steady_clock::now();
  int started = 0;
  for (int k = 0; k < race.rounds(); ++k) {
    // The round's configurations, by index, as the leader chose them; -1: the race is over.
    std::vector<int> chosen;
    const std::vector<const RunSpec*> open = race.round(k);
    for (const RunSpec* s : open)
      if (may.count({s, k})) chosen.push_back(static_cast<int>(s - specs.data()));
    const std::string over =
        over_budget(budget, started, static_cast<int>(chosen.size()), seconds_since(start));
    if (!over.empty() && leader)
      std::cerr << "race: stopped before round " << k + 1 << ": " << over << "\n";
    if (open.empty() || !over.empty()) chosen.assign(1, -1);
    share_from_leader(chosen);
    if (!chosen.empty() && chosen.front() < 0) break;
    std::vector<PlannedRun> round;
    for (int i : chosen) round.push_back({&specs.at(static_cast<std::size_t>(i)), k});
    std::vector<RunOutcome> done = run_all(round, c.writer, *c.prov, c.quiet, references);
    started += static_cast<int>(round.size());
    std::move(done.begin(), done.end(), std::back_inserter(outcomes));
    if (write_failed(c.writer)) break;
    const std::string line = race.after_round(k, results_so_far(outcomes, c));
    if (!line.empty() && leader && !c.quiet)
      std::cerr << line << budget_left(budget, started, race.round(k + 1).size()) << "\n";
  }
  return outcomes;
}

}  // namespace lbb
