#include <CLI/CLI.hpp>

#include <iostream>

#include "core/text.h"
#include "harness/archive/archive.h"
#include "harness/archive/archive_merge.h"
#include "harness/cli/commands.h"

namespace lbb {

void add_merge_command(CLI::App& app) {
  auto output = std::make_shared<std::string>();
  auto inputs = std::make_shared<std::vector<std::string>>();
  CLI::App* cmd = app.add_subcommand("merge",
                                     "combine archives (e.g. the slices of a sweep run on many "
                                     "nodes) into one; runs keep their provenance");
  cmd->add_option("output", *output, "HDF5 archive to add the runs to (created when absent)")
      ->required();
  cmd->add_option("inputs", *inputs, "archives to copy runs from")->required();
  cmd->callback([output, inputs] {
    MergeReport report;
    try {
      report = merge_archives(*output, *inputs);
    } catch (const std::exception& e) {
      std::cerr << "lbbench: merge: " << printable(e.what()) << "\n";
      throw CLI::RuntimeError(kExitBadInput);
    }
    if (const std::string note = describe_recovery(report.journal); !note.empty())
      std::cerr << printable(note) << "\n";
    for (const auto& d : report.duplicates) std::cerr << "duplicate: " << printable(d) << "\n";
    std::cout << "merge: " << report.copied << " runs and " << report.invocations
              << " invocations added to " << printable(*output) << "; " << report.duplicates.size()
              << " duplicate runs reported and not copied\n";
  });
}

}  // namespace lbb
