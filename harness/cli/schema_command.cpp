#include <CLI/CLI.hpp>

#include <iostream>

#include "harness/cli/commands.h"
#include "harness/results/result_schema.h"

namespace lbb {

void add_schema_command(CLI::App& app) {
  auto markdown = std::make_shared<bool>(false);
  CLI::App* cmd =
      app.add_subcommand("schema",
                         "print the result set's tables (runs, steps, procs, modules, "
                         "invocations): every column's type, unit and meaning, as JSON");
  cmd->add_flag("--markdown", *markdown, "print the tables of docs/ARCHITECTURE.md instead");
  cmd->callback([markdown] {
    if (*markdown)
      write_result_schema_markdown(std::cout);
    else
      std::cout << result_schema_json() << "\n";
  });
}

}  // namespace lbb
