// `lbbench simulate --replay SET`: each real run replayed on its recorded costs under its own
// strategy (harness/analysis/replay.h), predicted vs measured makespan and the strategies' ranking
// agreement (an mpi run's ranks charged at the --network-* and --exchange-* rates); `lbbench
// simulate --calibrate SET`: the contention model's c fitted from runs
// at several P (harness/sim/contention_fit.h), and the network's latency and bandwidth from runs
// across MPI ranks (harness/sim/network_fit.h).
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>

#include "core/text.h"
#include "harness/analysis/replay.h"
#include "harness/cli/commands.h"
#include "harness/cli/left_out.h"
#include "harness/cli/number_options.h"
#include "harness/config/config_keys.h"
#include "harness/sim/contention_fit.h"
#include "harness/sim/network_fit.h"
#include "harness/stats/sample_summary.h"

namespace lbb {

namespace {

// Runs that could not be replayed, one line per reason (with its first run and how many).
void print_skipped(const std::vector<ReplayedRun>& runs) {
  struct Seen {
    std::string first;
    int count = 0;
  };
  std::map<std::string, Seen> reasons;
  for (const ReplayedRun& r : runs) {
    if (r.skipped.empty()) continue;
    Seen& seen = reasons[r.skipped];
    if (seen.count++ == 0) seen.first = r.run;
  }
  for (const auto& [why, seen] : reasons)
    std::cout << "skipped " << seen.count << (seen.count == 1 ? " run (" : " runs (")
              << printable(seen.first) << (seen.count == 1 ? "" : ", ...")
              << "): " << printable(why) << "\n";
}

// The replay table; returns how many runs were replayed.
std::size_t print_replay(const std::vector<ReplayedRun>& runs, const ResultReader& set) {
  const auto replayed = static_cast<std::size_t>(std::count_if(
      runs.begin(), runs.end(), [](const ReplayedRun& r) { return r.skipped.empty(); }));
  if (replayed == 0) {
    print_skipped(runs);
    return 0;
  }
  std::size_t wid = 6;
  for (const ReplayedRun& r : runs) wid = std::max(wid, printable(r.run).size() + 2);
  std::cout << std::left << std::setw(static_cast<int>(wid)) << "run" << std::setw(20) << "workload"
            << std::setw(18) << "balancer" << std::right << std::setw(5) << "P" << std::setw(13)
            << "predicted_s" << std::setw(11) << "wall_s" << std::setw(9) << "error"
            << std::setw(13) << "makespan_s" << std::setw(9) << "error"
            << "  reproduced\n";
  std::vector<double> errors, cpu_errors;
  std::map<std::string, int> available;
  for (const RunRecord& info : set.runs())
    if (info.available_processors != -1)
      available[info.run] = static_cast<int>(info.available_processors);
  for (const ReplayedRun& r : runs) {
    if (!r.skipped.empty()) continue;
    std::cout << std::left << std::setw(static_cast<int>(wid)) << printable(r.run) << std::setw(20)
              << printable(r.workload) << std::setw(18) << printable(r.label) << std::right
              << std::setw(5) << r.processors;
    std::cout << std::fixed << std::setprecision(4) << std::setw(13) << r.predicted << std::setw(11)
              << r.measured_wall << std::setprecision(1) << std::setw(8) << 100 * r.error() << "%"
              << std::setprecision(4) << std::setw(13) << r.measured_makespan
              << std::setprecision(1) << std::setw(8) << 100 * r.cpu_error() << "%  "
              << (r.reproduced ? "yes" : "no: " + r.difference) << "\n";
    std::cout.unsetf(std::ios::floatfield);
    if (r.bulk_synchronous && r.processors_on_a_host <= available[r.run]) {
      errors.push_back(std::abs(r.error()));
      cpu_errors.push_back(std::abs(r.cpu_error()));
    }
  }
  print_skipped(runs);
  std::cout << "\nranking of strategies, Kendall tau-b of median predicted vs median measured wall "
               "time and modelled makespan (-: fewer than two distinct):\n";
  auto tau = [](const std::optional<double>& t) {
    std::ostringstream s;
    if (t)
      s << std::setprecision(3) << *t;
    else
      s << "-";
    return s.str();
  };
  for (const RankAgreement& a : ranking_agreement(runs))
    std::cout << "  " << std::left << std::setw(50) << printable(a.group) << std::right
              << std::setw(3) << a.strategies << " strategies  tau(wall) = " << std::setw(6)
              << tau(a.tau) << "  tau(makespan) = " << std::setw(6) << tau(a.tau_makespan) << "\n";
  if (errors.empty()) return replayed;
  std::cout << "median |error| of the " << errors.size()
            << " bulk-synchronous runs at P (on a host) <= the host's available processors: "
            << std::setprecision(3) << 100 * stats::median(errors) << "% against wall time, "
            << 100 * stats::median(cpu_errors) << "% against the modelled makespan\n";
  return replayed;
}

void print_calibration(const ContentionFit& fit) {
  std::cout << std::left << std::setw(50) << "configuration" << std::right << std::setw(5) << "P"
            << std::setw(22) << "busy(P) / busy(1)\n";
  for (const ContentionPoint& p : fit.points)
    std::cout << std::left << std::setw(50) << printable(p.group) << std::right << std::setw(5)
              << p.processors << std::setw(21) << std::setprecision(4) << p.ratio << "\n";
  std::cout << "fit: busy(P) / busy(1) = 1 + c (P - 1), c = " << std::setprecision(4) << fit.c
            << "\nuse: execution: { executor: simulate, sim_contention: " << fit.c << " }\n";
}

// One fitted link: "L = ... s, B = ... B/s" and the fit's error.
void print_link(const char* what, const LinkFit& fit) {
  std::cout << "  " << what << ", from " << fit.steps << " steps: L = " << std::setprecision(4)
            << fit.latency << " s, B = " << fit.bandwidth << " B/s"
            << (fit.bandwidth == 0 ? " (bytes' term fitted as free)" : "")
            << "; median |fitted / measured - 1| = " << fit.median_error << "\n";
}

// The network's two fits and the settings that pass them on.
void print_network(const NetworkFit& net, bool after) {
  std::cout << (after ? "\n" : "") << "network, from " << net.runs
            << " runs across MPI ranks: seconds = L messages + bytes / B\n";
  if (net.moves.steps > 0) print_link("moves across ranks (one message each)", net.moves);
  if (net.exchange.steps > 0)
    print_link("the ranks' exchange after each phase (a message from each other rank)",
               net.exchange);
  std::ostringstream replay;
  replay << std::setprecision(4);
  if (net.moves.steps > 0) {
    std::cout << "use: execution: { executor: simulate, sim_latency: " << std::setprecision(4)
              << net.moves.latency << ", sim_bandwidth: " << net.moves.bandwidth << " }\n";
    replay << " --network-latency " << net.moves.latency << " --network-bandwidth "
           << net.moves.bandwidth;
  }
  if (net.exchange.steps > 0)
    replay << " --exchange-latency " << net.exchange.latency << " --exchange-bandwidth "
           << net.exchange.bandwidth;
  std::cout << "replay: lbbench simulate --replay SET" << replay.str() << "\n";
}

// Each fit the set's runs allow: contention from runs at several P, the network from runs across
// MPI ranks; neither: the reasons of both.
void print_calibrations(const ResultReader& set) {
  std::string why;
  bool any = false;
  try {
    print_calibration(fit_contention(set));
    any = true;
  } catch (const std::invalid_argument& e) {
    why = e.what();
  }
  try {
    print_network(fit_network(set, recorded_exchanges_per_step), any);
    any = true;
  } catch (const std::invalid_argument& e) {
    why += std::string(why.empty() ? "" : "; ") + e.what();
  }
  if (!any) throw std::invalid_argument(why);
}

}  // namespace

void add_simulate_command(CLI::App& app) {
  auto replay = std::make_shared<std::string>();
  auto calibrate = std::make_shared<std::string>();
  auto settings = std::make_shared<SimSettings>();
  CLI::App* cmd = app.add_subcommand(
      "simulate",
      "validate the simulator on real runs (--replay) or fit its contention model (--calibrate)");
  auto* r =
      cmd->add_option("--replay", *replay,
                      "result set: replay each bsp run recorded with execution.record: modules "
                      "under its "
                      "own strategy; predicted vs measured makespan, ranking agreement");
  auto* c = cmd->add_option(
      "--calibrate", *calibrate,
      "result set: fit execution.sim_contention from runs at several P, and sim_latency "
      "and sim_bandwidth from runs across MPI ranks (executor mpi)");
  r->excludes(c);
  // As their config keys: CLI::NonNegativeNumber let "nan" through (read as 0).
  cmd->add_option("--latency", settings->latency, "replay: s charged per migrated module")
      ->check(checked_as(*find_spec(execution_specs(), "sim_latency")));
  cmd->add_option("--bandwidth", settings->bandwidth, "replay: B/s for migrated bytes; 0: free")
      ->check(checked_as(*find_spec(execution_specs(), "sim_bandwidth")));
  // A latency is the cost per message (a module moved across ranks, or one rank's part of an
  // exchange or broadcast): no separate per-message key.
  cmd->add_option("--network-latency", settings->network_latency,
                  "replay of mpi runs: s per module moved across ranks, as --calibrate fits it; "
                  "moves within a rank pay --latency")
      ->check(checked_as(*find_spec(execution_specs(), "sim_latency")));
  cmd->add_option("--network-bandwidth", settings->network_bandwidth,
                  "replay of mpi runs: B/s across ranks, as --calibrate fits it; 0: free")
      ->check(checked_as(*find_spec(execution_specs(), "sim_bandwidth")));
  cmd->add_option("--exchange-latency", settings->rank_exchange_latency,
                  "replay of mpi runs: s per message of the ranks' exchange after each phase "
                  "and of a decision's broadcast (one from, or to, each other rank), as "
                  "--calibrate fits it")
      ->check(checked_as(*find_spec(execution_specs(), "sim_latency")));
  cmd->add_option("--exchange-bandwidth", settings->rank_exchange_bandwidth,
                  "replay of mpi runs: B/s of the ranks' exchange, as --calibrate fits it; 0: free")
      ->check(checked_as(*find_spec(execution_specs(), "sim_bandwidth")));
  cmd->callback([replay, calibrate, settings] {
    if (replay->empty() && calibrate->empty()) {
      std::cerr << "lbbench simulate: give --replay SET or --calibrate SET\n";
      throw CLI::RuntimeError(kExitBadInput);
    }
    try {
      if (!replay->empty()) {
        const ResultReader set(*replay);
        const std::size_t named = print_left_out(set);
        const std::size_t replayed = print_replay(replay_complete_runs(set, *settings), set);
        print_left_out(set, named);
        if (replayed == 0)
          throw std::invalid_argument(*replay + ": no run could be replayed (see above why)");
      } else {
        const ResultReader set(*calibrate);
        const std::size_t named = print_left_out(set);
        print_calibrations(set);
        print_left_out(set, named);
      }
    } catch (const std::exception& e) {
      std::cerr << "lbbench: " << printable(e.what()) << "\n";
      throw CLI::RuntimeError(kExitBadInput);
    }
  });
}

}  // namespace lbb
