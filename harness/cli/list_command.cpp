#include <CLI/CLI.hpp>

#include <iostream>

#include "balancers/balancer.h"
#include "core/text.h"
#include "harness/base/schedule.h"
#include "harness/cli/commands.h"
#include "harness/config/config_keys.h"
#include "harness/config/expectations.h"
#include "harness/formats/trace_workload.h"
#include "harness/run/executor_registry.h"
#include "workloads/workload.h"

namespace lbb {

namespace {

void print_params(std::span<const ParamSpec> specs) {
  for (const auto& s : specs) {
    std::cout << "      " << s.name << " (" << type_name(s.type)
              << (per_processor(s) ? " or pattern" : "") << ", "
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

void print_keys(std::span<const KeyDoc> keys) {
  for (const KeyDoc& k : keys) std::cout << "      " << k.key << ": " << k.meaning << "\n";
}

// The keys of the file itself, of its platform and execution sections, of a balancers entry
// and of an expectation row (`lbbench schema --config`: the same as a JSON Schema).
void print_config_keys() {
  std::cout << "\nconfig file keys (any parameter may be a list of values: a sweep; "
               "`lbbench schema --config` prints these as a JSON Schema)\n";
  print_keys(top_level_table());
  std::cout << "  platform:\n";
  print_params(platform_specs());
  std::cout << "  execution:\n";
  print_params(execution_specs());
  std::cout
      << "  a balancers entry (its other keys are its balancers' or schedule's parameters):\n";
  print_keys(balancer_entry_keys());
  std::cout << "    and its options for a between-step dynamic: balancer:\n";
  print_params(balancer_option_specs());
  std::cout << "  an expectations row:\n";
  for (const ExpectationKey& k : expectation_keys())
    std::cout << "      " << k.key << ": " << k.meaning << "\n";
}

}  // namespace

void add_list_command(CLI::App& app) {
  CLI::App* cmd = app.add_subcommand("list",
                                     "list workloads, balancers, schedules, executors and "
                                     "every config key with its type, default, range and "
                                     "meaning");
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
        if (b.capabilities.needs_coordinates) std::cout << " [coordinates]";
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
      std::cout << "  " << e.name << " - " << e.summary << " (record: auto is "
                << record_level_name(e.record) << ")\n";
    print_config_keys();
  });
}

}  // namespace lbb
