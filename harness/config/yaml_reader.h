#pragma once
// Strict YAML reading for configs and --set values. YAML allows what a config must not mean:
// a repeated key (the last one silently won), a second document, aliases (which can point into
// themselves and recurse without end), tags that change a value's type, nesting deep enough
// to exhaust the stack, and texts holding a NUL or bytes that are not UTF-8. These are refused
// with file:line:col before any value is read.
#include <yaml-cpp/yaml.h>

#include <cstddef>
#include <string>

namespace lbb {

inline constexpr std::size_t kMaxConfigBytes = 4u << 20;  // a config file, read whole
inline constexpr int kMaxYamlDepth = 32;                  // nested lists and maps

// The text of a config file, at most kMaxConfigBytes (a device such as /dev/zero never ends).
// Throws ConfigError.
std::string read_config_text(const std::string& path);

// Parses `text` after the strict checks. `origin` names it in messages: a file ("f.yaml", then
// messages are "f.yaml:line:col: ...") or an override ("--set k=v", messages "--set k=v: ...").
// Throws ConfigError.
YAML::Node parse_strict_yaml(const std::string& text, const std::string& origin,
                             bool with_positions);

}  // namespace lbb
