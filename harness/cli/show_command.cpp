// lbbench show SET: one row per run of a result set.
#include <CLI/CLI.hpp>

#include <iomanip>
#include <iostream>

#include "core/text.h"
#include "harness/analysis/result_set.h"
#include "harness/cli/commands.h"
#include "harness/cli/left_out.h"
#include "harness/results/result_reader.h"

namespace lbb {

void add_show_command(CLI::App& app) {
  auto path = std::make_shared<std::string>();
  CLI::App* cmd = app.add_subcommand("show", "one row per run of a result set");
  cmd->add_option("set", *path, "result set (a directory of parts, or one part)")->required();
  cmd->callback([path] {
    std::unique_ptr<ResultReader> reader;
    try {
      reader = std::make_unique<ResultReader>(*path);
      print_left_out(*reader);  // on stderr, as every command that reads a set
      require_runs(*reader, *path);
    } catch (const std::exception& e) {
      std::cerr << "lbbench: " << printable(e.what()) << "\n";
      throw CLI::RuntimeError(kExitBadInput);
    }
    const std::vector<RunRecord>& runs = reader->runs();
    auto text = [](const std::string& s) { return s.empty() ? std::string("-") : printable(s); };
    auto number = [](double x) { return std::isnan(x) ? 0.0 : x; };  // a fill shows as 0
    auto whole = [](std::int64_t n) { return static_cast<long long>(n == -1 ? 0 : n); };
    std::size_t wid = 6, wb = 8;
    for (const auto& r : runs) {
      wid = std::max(wid, printable(r.run).size());
      wb = std::max(wb, text(r.balancer).size());
    }
    std::cout << std::left << std::setw(static_cast<int>(wid) + 2) << "run" << std::setw(20)
              << "workload" << std::setw(static_cast<int>(wb) + 2) << "balancer" << std::right
              << std::setw(4) << "P" << std::setw(7) << "steps" << std::setw(10) << "status"
              << std::setw(5) << "ok" << std::setw(12) << "makespan_s" << std::setw(10) << "wall_s"
              << std::setw(7) << "eff" << std::setw(9) << "migr"
              << "  started\n";
    for (const auto& r : runs) {
      std::cout << std::left << std::setw(static_cast<int>(wid) + 2) << printable(r.run)
                << std::setw(20) << text(r.workload) << std::setw(static_cast<int>(wb) + 2)
                << text(r.balancer) << std::right << std::setw(4) << whole(r.processors)
                << std::setw(7) << whole(r.steps) << std::setw(10) << text(r.status) << std::setw(5)
                << (r.verified == 1    ? "yes"
                    : simulated_run(r) ? "sim"
                                       : "no")
                << std::fixed << std::setprecision(4) << std::setw(12) << number(r.makespan_total)
                << std::setw(10) << number(r.wall_total) << std::setprecision(3) << std::setw(7)
                << number(r.efficiency) << std::setw(9) << whole(r.migrations_total) << "  "
                << text(r.started) << "\n";
      std::cout.unsetf(std::ios::floatfield);
    }
    std::cout << runs.size() << " runs of " << reader->invocations().size() << " invocations in "
              << reader->parts_read() << " parts of " << printable(*path) << "\n";
  });
}

}  // namespace lbb
