#include <CLI/CLI.hpp>

#include <iostream>

#include "harness/archive/archive_schema.h"
#include "harness/cli/commands.h"

namespace lbb {

void add_schema_command(CLI::App& app) {
  auto markdown = std::make_shared<bool>(false);
  CLI::App* cmd = app.add_subcommand("schema",
                                     "print the archive's records (run attributes, per-step "
                                     "datasets, invocation provenance) as JSON");
  cmd->add_flag("--markdown", *markdown, "print the tables of docs/ARCHITECTURE.md instead");
  cmd->callback([markdown] {
    if (*markdown)
      write_archive_schema_markdown(std::cout);
    else
      std::cout << archive_schema_json() << "\n";
  });
}

}  // namespace lbb
