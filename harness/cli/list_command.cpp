#include <CLI/CLI.hpp>

#include <iostream>

#include "balancers/balancer.h"
#include "core/text.h"
#include "harness/base/schedule.h"
#include "harness/cli/commands.h"
#include "harness/formats/trace_workload.h"
#include "harness/run/executor_registry.h"
#include "workloads/workload.h"

namespace lbb {

namespace {

void print_params(std::span<const ParamSpec> specs) {
  for (const auto& s : specs) {
    std::cout << "      " << s.name << " (" << type_name(s.type) << ", "
              << (s.default_value ? "default " + to_string(*s.default_value) : "required");
    if (s.min || s.max)
      std::cout << ", range [" << (s.min ? format_number(*s.min, 12) : "-inf") << ", "
                << (s.max ? format_number(*s.max, 12) : "inf") << "]";
    if (!s.choices.empty()) {
      std::cout << ", one of";
      for (const auto& c : s.choices) std::cout << " " << c;
    }
    std::cout << "): " << s.doc << "\n";
  }
}

}  // namespace

void add_list_command(CLI::App& app) {
  CLI::App* cmd = app.add_subcommand("list",
                                     "list workloads and balancers with their "
                                     "parameters and defaults");
  cmd->callback([] {
    std::cout << "workloads (config: workload: { kind: NAME, param: value })\n";
    for (const auto* w : workload_kinds()) {
      std::cout << "  " << w->name << " - " << w->summary << "\n";
      print_params(w->params);
    }
    for (auto kind : {BalancerKind::kStatic, BalancerKind::kDynamic}) {
      std::cout << (kind == BalancerKind::kStatic
                        ? "\nstatic balancers (config: - { static: NAME, param: value })\n"
                        : "\ndynamic balancers (config: - { dynamic: NAME, param: value }, may "
                          "follow a static: in the same entry)\n");
      for (const auto& b : balancer_registry()) {
        if (b.kind() != kind) continue;
        std::cout << "  " << b.name;
        if (kind == BalancerKind::kDynamic) std::cout << " [" << role_name(b.role) << "]";
        std::cout << " - " << b.summary << "\n";
        print_params(b.params);
      }
    }
    std::cout << "\nin-step schedules (config: - { schedule: NAME, param: value })\n";
    for (const auto& s : schedule_registry()) {
      std::cout << "  " << s.name << " - " << s.summary << "\n";
      print_params(s.params);
    }
    std::cout << "\nexecutors (config: execution: { executor: NAME }; auto: the first that runs "
                 "the entry)\n";
    for (const auto& e : executor_registry())
      std::cout << "  " << e.name << " - " << e.summary << "\n";
  });
}

}  // namespace lbb
