#include <CLI/CLI.hpp>

#include <iostream>

#include "harness/cli/commands.h"
#include "harness/config/config_schema.h"
#include "harness/results/result_schema.h"

namespace lbb {

void add_schema_command(CLI::App& app) {
  auto markdown = std::make_shared<bool>(false);
  auto config = std::make_shared<bool>(false);
  CLI::App* cmd =
      app.add_subcommand("schema",
                         "print the result set's tables (runs, steps, procs, modules, "
                         "invocations): every column's type, unit and meaning, as JSON; or "
                         "with --config the config file's JSON Schema");
  cmd->add_flag("--markdown", *markdown, "print the tables of docs/ARCHITECTURE.md instead");
  cmd->add_flag("--config", *config,
                "print the JSON Schema (draft 2020-12) of a config file instead, for editors; "
                "generated from the tables `lbbench list` prints");
  cmd->callback([markdown, config] {
    if (*config)
      std::cout << config_json_schema().dump(2) << "\n";
    else if (*markdown)
      write_result_schema_markdown(std::cout);
    else
      std::cout << result_schema_json() << "\n";
  });
}

}  // namespace lbb
