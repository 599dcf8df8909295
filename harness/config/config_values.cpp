#include "harness/config/config_values.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <optional>
#include <set>

#include "harness/config/config_keys.h"
#include "harness/config/processor_pattern.h"

namespace lbb {

namespace {

// yaml-cpp tags a quoted scalar "!": "12" is a string, and a number must be written 12.
bool quoted(const YAML::Node& n) {
  return n.Tag() == "!";
}

// YAML 1.1 reads 010 as octal 8, YAML 1.2 as 10 (and 0o14 as 12, which yaml-cpp refuses): a
// number with a leading zero means different things to different readers, so none is read.
bool leading_zero(const std::string& text) {
  const std::size_t first = text.starts_with('-') || text.starts_with('+') ? 1 : 0;
  return text.size() > first + 1 && text[first] == '0' &&
         std::all_of(text.begin() + first, text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// Decimal digits with an optional sign: yaml-cpp also took 0x10 as 16 and 010 as 8.
std::optional<std::int64_t> decimal_integer(const std::string& text) {
  const char* first = text.data() + (text.starts_with('+') ? 1 : 0);
  const char* last = text.data() + text.size();
  std::int64_t value = 0;
  const auto [end, ec] = std::from_chars(first, last, value);
  if (ec != std::errc() || end != last || first == last || *first == '+') return std::nullopt;
  return value;
}

std::optional<ParamValue> scalar_value(const YAML::Node& n, ParamType type) {
  if (!n.IsScalar()) return std::nullopt;
  if (type != ParamType::kString && quoted(n)) return std::nullopt;
  if ((type == ParamType::kInt || type == ParamType::kReal) && leading_zero(n.Scalar()))
    return std::nullopt;
  try {
    switch (type) {
      case ParamType::kInt:
        if (auto i = decimal_integer(n.Scalar())) return ParamValue(*i);
        return std::nullopt;
      case ParamType::kReal:
        return ParamValue(n.as<double>());
      case ParamType::kBool:
        return ParamValue(n.as<bool>());
      case ParamType::kString:
        return ParamValue(n.as<std::string>());
      case ParamType::kRealList:
        return std::nullopt;
    }
  } catch (const YAML::Exception&) {
  }
  return std::nullopt;
}

// A per-processor pattern ("last:0.5"): text until the processor count is known.
bool pattern_node(const ParamSpec& spec, const YAML::Node& n) {
  return per_processor(spec) && n.IsScalar() && looks_like_processor_pattern(n.Scalar());
}

// check_value, and for a pattern the pattern's own check.
std::optional<std::string> value_problem(const ParamSpec& spec, const ParamValue& v) {
  if (const auto* pattern = std::get_if<std::string>(&v); pattern && per_processor(spec))
    return processor_pattern_problem(*pattern, spec.min.value_or(-HUGE_VAL),
                                     spec.max.value_or(HUGE_VAL));
  return check_value(spec, v);
}

std::optional<ParamValue> list_value(const YAML::Node& n) {
  if (!n.IsSequence()) return std::nullopt;
  std::vector<double> out;
  out.reserve(n.size());
  for (const auto& e : n) {
    auto v = scalar_value(e, ParamType::kReal);
    if (!v) return std::nullopt;
    out.push_back(std::get<double>(*v));
  }
  return ParamValue(std::move(out));
}

// One value of the parameter (not a sweep): a pattern's text, a list, or a scalar.
std::optional<ParamValue> one_value(const ParamSpec& spec, const YAML::Node& n) {
  if (pattern_node(spec, n)) return ParamValue(n.Scalar());
  return spec.type == ParamType::kRealList ? list_value(n) : scalar_value(n, spec.type);
}

std::string type_error(const ParamSpec& spec, const YAML::Node& n) {
  const std::string type =
      std::string(type_name(spec.type)) +
      (per_processor(spec) ? " or a pattern such as last:0.5 (`lbbench list`)" : "");
  std::string message = spec.name + " must be " + (type[0] == 'i' ? "an " : "a ") + type;
  if (spec.type != ParamType::kString && n.IsScalar() && quoted(n))
    message += ", not the quoted string \"" + n.Scalar().substr(0, 40) + "\"";
  else if (n.IsScalar() && leading_zero(n.Scalar()))
    message += ", not " + n.Scalar().substr(0, 40) +
               ": a leading zero is octal in YAML 1.1 and decimal in YAML 1.2; write the number "
               "without it";
  return message;
}

}  // namespace

Axis read_axis(const ParamSpec& spec, const YAML::Node& node, Problems& problems) {
  Axis axis{spec.name, {}, {}};
  auto take = [&](const YAML::Node& n) {
    std::optional<ParamValue> v = one_value(spec, n);
    if (!v) {
      problems.at(n, type_error(spec, n));
      return;
    }
    if (auto err = value_problem(spec, *v)) {
      problems.at(n, spec.name + " " + *err);
      return;
    }
    axis.values.push_back(std::move(*v));
    axis.nodes.push_back(n);
  };
  const bool sweep = spec.type == ParamType::kRealList
                         ? node.IsSequence() && node.size() > 0 &&
                               (node[0].IsSequence() || pattern_node(spec, node[0]))
                         : node.IsSequence();
  if (!sweep) {
    take(node);
  } else if (node.size() == 0) {
    problems.at(node, spec.name + ": an empty sweep list");
  } else if (node.size() > kMaxSweepValues) {
    problems.at(node, spec.name + ": a sweep of " + std::to_string(node.size()) +
                          " values; at most " + std::to_string(kMaxSweepValues));
  } else {
    for (const auto& e : node) take(e);
  }
  return axis;
}

std::string known_keys(std::span<const ParamSpec> specs, std::vector<std::string> extra) {
  for (const auto& s : specs) extra.push_back(s.name);
  std::string out;
  for (const auto& k : extra) out += (out.empty() ? "" : ", ") + k;
  return out;
}

std::vector<Axis> read_section(const YAML::Node& section, const std::string& name,
                               std::span<const ParamSpec> specs,
                               const std::vector<std::string>& skip, Problems& problems) {
  std::vector<Axis> axes;
  std::set<std::string> given;
  for (const auto& kv : section) {
    const std::string key = kv.first.Scalar();
    if (std::find(skip.begin(), skip.end(), key) != skip.end()) continue;
    const ParamSpec* spec = find_spec(specs, key);
    if (!spec) {
      problems.at(kv.first, "unknown key '" + key + "' in " + name +
                                " (expected: " + known_keys(specs, skip) + ")");
      continue;
    }
    given.insert(key);
    Axis a = read_axis(*spec, kv.second, problems);
    if (!a.values.empty()) axes.push_back(std::move(a));
  }
  for (const auto& spec : specs)
    if (!spec.default_value && !given.count(spec.name))
      problems.at(section, name + ": missing required key '" + spec.name + "'");
  return axes;
}

}  // namespace lbb
