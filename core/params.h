#pragma once
// Typed, schema-checked parameters: the one description of every workload's and balancer's knobs.
// Config validation, `lbbench list`, `--param k=v` and the archive all read these specs.
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace lbb {

enum class ParamType { kInt, kReal, kBool, kString, kRealList };

using ParamValue = std::variant<std::int64_t, double, bool, std::string, std::vector<double>>;

struct ParamSpec {
  std::string name;
  ParamType type = ParamType::kReal;
  std::optional<ParamValue> default_value;  // empty: the parameter is required
  std::string doc;
  std::optional<double> min;         // inclusive bound for numbers (and for list elements)
  std::optional<double> max;         // inclusive bound
  std::vector<std::string> choices;  // allowed values of a string parameter
};

// Thrown for a parameter that is missing, unknown, of the wrong type or out of range.
// Spec builders (out of line: they also keep GCC 12's variant warnings out of registries).
ParamSpec int_param(std::string name, std::int64_t def, std::string doc,
                    std::optional<double> min = std::nullopt,
                    std::optional<double> max = std::nullopt);
ParamSpec real_param(std::string name, double def, std::string doc,
                     std::optional<double> min = std::nullopt,
                     std::optional<double> max = std::nullopt);
ParamSpec bool_param(std::string name, bool def, std::string doc);
ParamSpec string_param(std::string name, std::string def, std::string doc,
                       std::vector<std::string> choices = {});
ParamSpec reals_param(std::string name, std::vector<double> def, std::string doc,
                      std::optional<double> min = std::nullopt,
                      std::optional<double> max = std::nullopt);
// The same spec with no default: the parameter must be given.
ParamSpec required(ParamSpec spec);

class ParamError : public std::runtime_error {
 public:
  ParamError(std::string param, const std::string& message)
      : std::runtime_error(message), param_(std::move(param)) {}
  const std::string& param() const { return param_; }

 private:
  std::string param_;
};

class Params {
 public:
  void set(const std::string& name, ParamValue value) { values_[name] = std::move(value); }
  bool has(std::string_view name) const { return values_.find(name) != values_.end(); }
  std::int64_t integer(std::string_view name) const;
  double real(std::string_view name) const;  // an integer value reads as real too
  bool boolean(std::string_view name) const;
  const std::string& text(std::string_view name) const;
  const std::vector<double>& reals(std::string_view name) const;
  const std::map<std::string, ParamValue, std::less<>>& values() const { return values_; }
  // "k1=v1 k2=v2" in name order, for labels and logs.
  std::string describe() const;

 private:
  const ParamValue& at(std::string_view name) const;
  std::map<std::string, ParamValue, std::less<>> values_;
};

std::string_view type_name(ParamType type);
std::string to_string(const ParamValue& value);

// Empty when the value fits the spec; else what is wrong with it (no parameter name in it).
std::optional<std::string> check_value(const ParamSpec& spec, const ParamValue& value);

// Given values, checked against the specs, plus defaults for the rest. Throws ParamError.
Params resolve_params(std::span<const ParamSpec> specs, const Params& given);

// Parses the text form of a value ("3", "0.5", "true", "a", "1,2,3") as the spec's type.
ParamValue parse_param_text(const ParamSpec& spec, std::string_view text);

// Parses "k=v" against the specs and stores it in params. Throws ParamError.
void set_param_from_text(std::span<const ParamSpec> specs, std::string_view key_value,
                         Params& params);

const ParamSpec* find_spec(std::span<const ParamSpec> specs, std::string_view name);

}  // namespace lbb
