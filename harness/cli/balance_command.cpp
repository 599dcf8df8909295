// `lbbench balance` (the report itself: harness/analysis/balance_report.h).
#include <CLI/CLI.hpp>

#include <iostream>
#include <memory>

#include "core/text.h"
#include "harness/analysis/balance_report.h"
#include "harness/cli/commands.h"

namespace lbb {

void add_balance_command(CLI::App& app) {
  auto request = std::make_shared<BalanceRequest>();
  CLI::App* cmd = app.add_subcommand(
      "balance",
      "run one dynamic balancer's decision on integer work units per processor (Horton 1993's "
      "setting) and print its transfer phases as JSON");
  cmd->add_option("--method", request->method,
                  "balancer: diffusion_horton, multilevel, diffusion or random")
      ->required();
  cmd->add_option("--topology", request->topology, "chain, ring, mesh2d, hypercube or complete")
      ->required();
  cmd->add_option("--loads", request->loads, "work units per processor: l0,l1,...")->required();
  cmd->add_option("--speeds", request->speeds, "relative speed per processor: s0,s1,...");
  cmd->add_option("--param", request->params, "balancer parameter key=value (repeatable)")
      ->allow_extra_args(false);
  cmd->add_option("--step", request->step, "step number: varies randomised draws (default 0)");
  cmd->add_option("--graph", request->graph,
                  "communication graph between processors, a-b,c-d,... (multilevel with "
                  "--param bisect=communication follows it; Horton 1993)");
  cmd->callback([request] {
    try {
      auto report = std::make_unique<nlohmann::json>(balance_report(*request));
      try {
        std::cout << report->dump() << "\n";  // one object, one line
      } catch (const std::bad_alloc&) {
        report.release();  // as in balance_report: its destructor would allocate
        throw;
      }
    } catch (const std::invalid_argument& e) {
      std::cerr << "lbbench balance: " << printable(e.what()) << "\n";
      throw CLI::RuntimeError(kExitBadInput);
    } catch (const ParamError& e) {
      std::cerr << "lbbench balance: --param: " << printable(e.what()) << "\n";
      throw CLI::RuntimeError(kExitBadInput);
    }
  });
}

}  // namespace lbb
