// libFuzzer target for the command-line options of every lbbench command but report: the input
// is an argument list (one argument a line), parsed by the real commands; parsing ends before
// any command runs, so only the options' own parsing and checks do (regular expressions,
// numbers, slices, lists). Any outcome but a parse or a CLI::ParseError is a finding.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "harness/cli/commands.h"

namespace {

struct Parsed {};  // thrown once every option is parsed and checked, before a command runs

CLI::App& app() {
  static CLI::App* const lbbench = [] {
    auto* a = new CLI::App("lbbench");  // never destroyed: libFuzzer may end the process anywhere
    lbb::add_run_command(*a);
    lbb::add_validate_command(*a);
    lbb::add_list_command(*a);
    lbb::add_show_command(*a);
    lbb::add_partition_command(*a);
    lbb::add_balance_command(*a);
    lbb::add_table_command(*a);
    lbb::add_compare_command(*a);
    lbb::add_schema_command(*a);
    lbb::add_export_command(*a);
    lbb::add_expect_command(*a);
    lbb::add_convert_command(*a);
    lbb::add_simulate_command(*a);
    // The app's own parse-complete callback runs before its commands' callbacks.
    a->parse_complete_callback([] { throw Parsed{}; });
    return a;
  }();
  return *lbbench;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  std::vector<std::string> args;  // CLI11 takes them last first
  for (std::size_t start = 0; start <= text.size();) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    args.insert(args.begin(), text.substr(start, end - start));
    start = end + 1;
  }
  CLI::App& lbbench = app();
  lbbench.clear();
  try {
    lbbench.parse(args);
  } catch (const CLI::ParseError&) {
  } catch (const Parsed&) {
  }
  return 0;
}
