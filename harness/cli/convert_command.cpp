#include <CLI/CLI.hpp>

#include <memory>

#include "harness/cli/commands.h"
#include "report/python_script.h"

namespace lbb {

// The old layout is read in Python alone (report/lbbench_report/legacy_archive.py); the part's
// tables, columns, units and meanings come from `lbbench schema`.
void add_convert_command(CLI::App& app) {
  auto archive = std::make_shared<std::string>();
  auto dir = std::make_shared<std::string>();
  CLI::App* cmd = app.add_subcommand(
      "convert",
      "turn an archive of an older lbbench (one HDF5 file, schema version 2 or 3) into one part "
      "of the result set DIR (created if absent); runs left partial are not converted");
  cmd->add_option("archive", *archive, "the older archive (.h5)")->required();
  cmd->add_option("dir", *dir, "the result set (a directory) to add the part to")->required();
  // "--": an archive named "-x.h5" stays a file name for the script.
  cmd->callback([archive, dir] {
    exec_python_script("convert", "convert.py", {"--", *archive, *dir});
  });
}

}  // namespace lbb
