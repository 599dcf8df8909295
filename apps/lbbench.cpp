// lbbench: which load-balancing strategy wins for which parallel program, measured.
#include <CLI/CLI.hpp>

#include <iostream>
#include <new>

#include "core/text.h"
#include "harness/cli/commands.h"
#include "lbb/build_info.h"
#include "report/report_command.h"

int main(int argc, char** argv) {
  CLI::App app{
      "lbbench: run real kernels on OpenMP threads under static and dynamic load "
      "balancers, measure every step, archive it in HDF5"};
  // The sha carries "-dirty" when the tree had uncommitted changes at build time.
  const std::string sha = lbb::build::kGitSha;
  const bool dirty = sha.ends_with("-dirty");
  app.set_version_flag("--version", std::string("lbbench ") + lbb::build::kVersion + " (git " +
                                        sha.substr(0, dirty ? sha.size() - 6 : sha.size()) +
                                        (dirty ? ", dirty" : ", clean") + ")");
  app.require_subcommand(1);
  lbb::add_run_command(app);
  lbb::add_validate_command(app);
  lbb::add_list_command(app);
  lbb::add_show_command(app);
  lbb::add_partition_command(app);
  lbb::add_balance_command(app);
  lbb::add_schedule_command(app);
  lbb::add_table_command(app);
  lbb::add_compare_command(app);
  lbb::add_schema_command(app);
  lbb::add_expect_command(app);
  lbb::add_export_command(app);
  lbb::add_simulate_command(app);
  lbb::add_convert_command(app);
  lbb::add_report_command(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::RuntimeError& e) {
    return e.get_exit_code();
  } catch (const CLI::ParseError& e) {
    std::cerr << "lbbench: " << lbb::printable(e.what()) << " (see lbbench --help)\n";
    return lbb::kExitBadInput;
  } catch (const std::bad_alloc&) {
    // Without this, an allocation the input asked for aborts the process (exit 134).
    std::cerr << "lbbench: out of memory: the input asks for more memory than this machine "
                 "gives (reduce its sizes)\n";
    return lbb::kExitFailure;
  } catch (const std::exception& e) {
    std::cerr << "lbbench: " << lbb::printable(e.what()) << "\n";
    return lbb::kExitFailure;
  }
  return 0;
}
