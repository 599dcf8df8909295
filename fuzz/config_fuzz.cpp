// libFuzzer target for the config loader: the input is a config file, and its first line is
// also tried as a --set value on a valid config. Any outcome but a loaded config or a
// ConfigError (a crash, a sanitizer report, another exception) is a finding.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <fstream>
#include <string>

#include "harness/config/config_loader.h"

namespace {

std::string scratch(const char* name) {
  return "/tmp/lbb_fuzz_config_" + std::to_string(getpid()) + "_" + name;
}

void write(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
}

void load(const std::string& path, const std::vector<std::string>& overrides) {
  try {
    lbb::load_config(path, overrides);
  } catch (const lbb::ConfigError&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::string config = scratch("input.yaml");
  static const std::string valid = [] {
    const std::string path = scratch("valid.yaml");
    write(path,
          "workload: { kind: block_substitution, blocks: 16 }\nplatform: { processors: 2 }\n"
          "balancers: [ { static: block }, { dynamic: redistribution } ]\n");
    return path;
  }();
  const std::string text(reinterpret_cast<const char*>(data), size);
  write(config, text);
  load(config, {});
  const std::string first_line = text.substr(0, text.find('\n'));
  load(valid, {first_line});
  load(valid, {"workload." + first_line});
  return 0;
}
