#pragma once
// Loads a config text from a scratch file and returns its error message with the path as FILE.
#include <string>
#include <vector>

#include "harness/config/config_loader.h"
#include "test_support.h"

namespace lbb::testing {

// "" when the text loads.
inline std::string config_error_of(const std::string& text,
                                   std::vector<std::string> overrides = {}) {
  TempDir dir;
  const std::string path = dir.write("c.yaml", text);
  try {
    load_config(path, overrides);
  } catch (const ConfigError& e) {
    std::string msg = e.what();
    for (auto pos = msg.find(path); pos != std::string::npos; pos = msg.find(path))
      msg.replace(pos, path.size(), "FILE");
    return msg;
  }
  return "";
}

}  // namespace lbb::testing
