#include <CLI/CLI.hpp>

#include <iomanip>
#include <iostream>

#include "core/text.h"
#include "harness/archive/archive.h"
#include "harness/archive/journal_recovery.h"
#include "harness/cli/commands.h"

namespace lbb {

void add_show_command(CLI::App& app) {
  auto path = std::make_shared<std::string>();
  CLI::App* cmd = app.add_subcommand("show", "one table row per archived run");
  cmd->add_option("archive", *path, "HDF5 archive")->required();
  cmd->callback([path] {
    std::vector<RunInfo> runs;
    try {
      runs = ArchiveReader(*path).runs();
    } catch (const std::exception& e) {
      std::cerr << "lbbench: " << e.what() << "\n";
      throw CLI::RuntimeError(kExitBadInput);
    }
    auto text = [](const RunInfo& r, const char* k) {
      auto it = r.text.find(k);
      return it == r.text.end() ? std::string("-") : printable(it->second);
    };
    auto number = [](const RunInfo& r, const char* k) {
      auto it = r.number.find(k);
      return it == r.number.end() ? 0.0 : it->second;
    };
    auto whole = [&](const RunInfo& r, const char* k) {
      return static_cast<long long>(number(r, k));
    };
    std::size_t wid = 6, wb = 8;
    for (const auto& r : runs) {
      wid = std::max(wid, printable(r.id).size());
      wb = std::max(wb, text(r, "balancer").size());
    }
    std::cout << std::left << std::setw(static_cast<int>(wid) + 2) << "run" << std::setw(20)
              << "workload" << std::setw(static_cast<int>(wb) + 2) << "balancer" << std::right
              << std::setw(4) << "P" << std::setw(7) << "steps" << std::setw(10) << "status"
              << std::setw(5) << "ok" << std::setw(12) << "makespan_s" << std::setw(10) << "wall_s"
              << std::setw(7) << "eff" << std::setw(9) << "migr"
              << "  started\n";
    for (const auto& r : runs) {
      std::cout << std::left << std::setw(static_cast<int>(wid) + 2) << printable(r.id)
                << std::setw(20) << text(r, "workload") << std::setw(static_cast<int>(wb) + 2)
                << text(r, "balancer") << std::right << std::setw(4) << whole(r, "processors")
                << std::setw(7) << whole(r, "steps") << std::setw(10) << text(r, "status")
                << std::setw(5) << (number(r, "verified") == 1 ? "yes" : "no") << std::fixed
                << std::setprecision(4) << std::setw(12) << number(r, "makespan_total")
                << std::setw(10) << number(r, "wall_total") << std::setprecision(3) << std::setw(7)
                << number(r, "efficiency") << std::setw(9) << whole(r, "migrations_total") << "  "
                << text(r, "started") << "\n";
      std::cout.unsetf(std::ios::floatfield);
    }
    std::cout << runs.size() << " runs in " << printable(*path) << "\n";
    // Read-only: a journal is reported, never folded here.
    const JournalReport journal = inspect_journal(*path);
    if (!journal.problem.empty())
      std::cout << "note: " << printable(journal.journal)
                << " is refused: " << printable(journal.problem) << "\n";
    else if (journal.changes())
      std::cout << journal.pending() << " finished steps of " << journal.runs.size()
                << " runs wait in " << printable(journal.journal) << ": a run writing the archive "
                << "commits them; after a killed run `lbbench recover " << printable(*path)
                << "` adds them\n";
  });
}

}  // namespace lbb
