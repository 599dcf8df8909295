#pragma once
// A config as loaded (Config: its name, output, runs and expectations) and its loader: the file
// expands (sweeps x repetitions aside) into RunSpecs (harness/base/run_spec.h), one concrete run
// each.
#include <stdexcept>
#include <string>
#include <vector>

#include "harness/base/run_spec.h"
#include "harness/config/expectations.h"

namespace lbb {

struct Config {
  std::string path;
  std::string name;
  std::string output;
  std::vector<RunSpec> runs;
  std::vector<Expectation> expectations;  // the paper's numbers (`expectations:`)
  // "where: execution.replay_archive is deprecated; use execution.replay_set", one a renamed key
  // the config used. load_config prints them; a run's recorded config read back (a set older
  // than the rename) is read under the new names without them.
  std::vector<std::string> deprecated;
};

// Every problem found, one "file:line:col: message" per line.
class ConfigError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Loads, applies `--set key.path=value` overrides, validates and expands a config.
// Throws ConfigError before anything runs.
Config load_config(const std::string& path, const std::vector<std::string>& overrides = {});
// The same from a config's text (a recorded run's resolved config); `path` names it in messages.
Config load_config_text(const std::string& text, const std::string& path,
                        const std::vector<std::string>& overrides = {});

}  // namespace lbb
