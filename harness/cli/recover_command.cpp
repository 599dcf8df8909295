#include <CLI/CLI.hpp>

#include <iostream>

#include "core/text.h"
#include "harness/archive/archive.h"
#include "harness/archive/journal_recovery.h"
#include "harness/cli/commands.h"

namespace lbb {

// `lbbench recover ARCHIVE`: what the next writer would do first, on its own. After a kill,
// the interrupted run's finished steps since the archive's last commit wait in the step
// journal; this adds them to the run (which stays partial), so they are readable at once.
void add_recover_command(CLI::App& app) {
  auto path = std::make_shared<std::string>();
  CLI::App* cmd =
      app.add_subcommand("recover",
                         "add the finished steps a killed run left in ARCHIVE's step journal "
                         "to its interrupted (partial) run");
  cmd->add_option("archive", *path, "HDF5 archive")->required();
  cmd->callback([path] {
    h5::silence_library_errors();
    JournalReport report;
    try {
      h5::Handle(open_archive_read_only(*path), H5Fclose);  // before the lock: it must exist
      ArchiveLock lock(*path);
      check_output_archive(*path);
      report = fold_journal(*path);
    } catch (const std::exception& e) {
      std::cerr << "lbbench: recover: " << printable(e.what()) << "\n";
      throw CLI::RuntimeError(kExitBadInput);
    }
    const std::string note = describe_recovery(report);
    std::cout << printable(note.empty()
                               ? "recover: no step journal beside " + *path + ": nothing to recover"
                               : note)
              << "\n";
  });
}

}  // namespace lbb
