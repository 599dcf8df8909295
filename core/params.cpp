#include "core/params.h"

#include <charconv>
#include <cmath>
#include <sstream>

namespace lbb {

ParamSpec int_param(std::string name, std::int64_t def, std::string doc, std::optional<double> min,
                    std::optional<double> max) {
  return {std::move(name), ParamType::kInt, ParamValue(def), std::move(doc), min, max, {}};
}

ParamSpec real_param(std::string name, double def, std::string doc, std::optional<double> min,
                     std::optional<double> max) {
  return {std::move(name), ParamType::kReal, ParamValue(def), std::move(doc), min, max, {}};
}

ParamSpec bool_param(std::string name, bool def, std::string doc) {
  return {std::move(name), ParamType::kBool, ParamValue(def), std::move(doc), {}, {}, {}};
}

ParamSpec string_param(std::string name, std::string def, std::string doc,
                       std::vector<std::string> choices) {
  return {std::move(name),   ParamType::kString, ParamValue(std::move(def)), std::move(doc), {}, {},
          std::move(choices)};
}

ParamSpec reals_param(std::string name, std::vector<double> def, std::string doc,
                      std::optional<double> min, std::optional<double> max) {
  return {std::move(name),
          ParamType::kRealList,
          ParamValue(std::move(def)),
          std::move(doc),
          min,
          max,
          {}};
}

ParamSpec required(ParamSpec spec) {
  spec.default_value.reset();
  return spec;
}

const ParamValue& Params::at(std::string_view name) const {
  auto it = values_.find(name);
  if (it == values_.end()) throw ParamError(std::string(name), "missing parameter");
  return it->second;
}

std::int64_t Params::integer(std::string_view name) const {
  const auto& v = at(name);
  if (auto* i = std::get_if<std::int64_t>(&v)) return *i;
  throw ParamError(std::string(name), "not an integer");
}

double Params::real(std::string_view name) const {
  const auto& v = at(name);
  if (auto* d = std::get_if<double>(&v)) return *d;
  if (auto* i = std::get_if<std::int64_t>(&v)) return static_cast<double>(*i);
  throw ParamError(std::string(name), "not a number");
}

bool Params::boolean(std::string_view name) const {
  const auto& v = at(name);
  if (auto* b = std::get_if<bool>(&v)) return *b;
  throw ParamError(std::string(name), "not a boolean");
}

const std::string& Params::text(std::string_view name) const {
  const auto& v = at(name);
  if (auto* s = std::get_if<std::string>(&v)) return *s;
  throw ParamError(std::string(name), "not a string");
}

const std::vector<double>& Params::reals(std::string_view name) const {
  const auto& v = at(name);
  if (auto* l = std::get_if<std::vector<double>>(&v)) return *l;
  throw ParamError(std::string(name), "not a list of numbers");
}

std::string Params::describe() const {
  std::string out;
  for (const auto& [k, v] : values_) {
    if (!out.empty()) out += ' ';
    out += k + "=" + to_string(v);
  }
  return out;
}

std::string_view type_name(ParamType type) {
  switch (type) {
    case ParamType::kInt:
      return "integer";
    case ParamType::kReal:
      return "number";
    case ParamType::kBool:
      return "boolean";
    case ParamType::kString:
      return "string";
    case ParamType::kRealList:
      return "list of numbers";
  }
  return "?";
}

std::string to_string(const ParamValue& value) {
  struct Visitor {
    std::string operator()(std::int64_t i) const { return std::to_string(i); }
    std::string operator()(double d) const {
      std::ostringstream os;
      os << d;
      return os.str();
    }
    std::string operator()(bool b) const { return b ? "true" : "false"; }
    std::string operator()(const std::string& s) const { return s; }
    std::string operator()(const std::vector<double>& l) const {
      std::string out = "[";
      for (std::size_t i = 0; i < l.size(); ++i) {
        if (i) out += ',';
        out += (*this)(l[i]);
      }
      return out + "]";
    }
  };
  return std::visit(Visitor{}, value);
}

namespace {

std::optional<std::string> check_bounds(const ParamSpec& spec, double x) {
  if (!std::isfinite(x)) return "must be a finite number";
  std::ostringstream os;
  if (spec.min && x < *spec.min) {
    os << "must be >= " << *spec.min << ", got " << x;
    return os.str();
  }
  if (spec.max && x > *spec.max) {
    os << "must be <= " << *spec.max << ", got " << x;
    return os.str();
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> check_value(const ParamSpec& spec, const ParamValue& value) {
  switch (spec.type) {
    case ParamType::kInt:
      if (auto* i = std::get_if<std::int64_t>(&value))
        return check_bounds(spec, static_cast<double>(*i));
      return "must be an integer";
    case ParamType::kReal:
      if (auto* d = std::get_if<double>(&value)) return check_bounds(spec, *d);
      if (auto* i = std::get_if<std::int64_t>(&value))
        return check_bounds(spec, static_cast<double>(*i));
      return "must be a number";
    case ParamType::kBool:
      if (std::holds_alternative<bool>(value)) return std::nullopt;
      return "must be true or false";
    case ParamType::kString: {
      auto* s = std::get_if<std::string>(&value);
      if (!s) return "must be a string";
      if (spec.choices.empty()) return std::nullopt;
      for (const auto& c : spec.choices)
        if (c == *s) return std::nullopt;
      std::string msg = "must be one of";
      for (const auto& c : spec.choices) msg += " " + c;
      return msg + ", got '" + *s + "'";
    }
    case ParamType::kRealList: {
      auto* l = std::get_if<std::vector<double>>(&value);
      if (!l) return "must be a list of numbers";
      for (double x : *l)
        if (auto err = check_bounds(spec, x)) return "every element " + *err;
      return std::nullopt;
    }
  }
  return "unknown type";
}

const ParamSpec* find_spec(std::span<const ParamSpec> specs, std::string_view name) {
  for (const auto& s : specs)
    if (s.name == name) return &s;
  return nullptr;
}

Params resolve_params(std::span<const ParamSpec> specs, const Params& given) {
  for (const auto& [name, value] : given.values()) {
    const ParamSpec* spec = find_spec(specs, name);
    if (!spec) throw ParamError(name, "unknown parameter '" + name + "'");
    if (auto err = check_value(*spec, value)) throw ParamError(name, name + " " + *err);
  }
  Params out;
  for (const auto& spec : specs) {
    if (auto it = given.values().find(spec.name); it != given.values().end()) {
      ParamValue v = it->second;
      if (spec.type == ParamType::kReal)  // store reals as double so readers see one type
        if (auto* i = std::get_if<std::int64_t>(&v)) v = static_cast<double>(*i);
      out.set(spec.name, std::move(v));
    } else if (spec.default_value) {
      out.set(spec.name, *spec.default_value);
    } else {
      throw ParamError(spec.name, "missing required parameter '" + spec.name + "'");
    }
  }
  return out;
}

namespace {

std::optional<double> parse_double(std::string_view s) {
  double d = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), d);
  if (ec != std::errc() || p != s.data() + s.size() || s.empty()) return std::nullopt;
  return d;
}

}  // namespace

ParamValue parse_param_text(const ParamSpec& spec, std::string_view text) {
  auto fail = [&]() -> ParamError {
    return ParamError(spec.name, spec.name + ": '" + std::string(text) + "' is not a " +
                                     std::string(type_name(spec.type)));
  };
  switch (spec.type) {
    case ParamType::kInt: {
      std::int64_t i = 0;
      auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), i);
      if (ec != std::errc() || p != text.data() + text.size() || text.empty()) throw fail();
      return i;
    }
    case ParamType::kReal:
      if (auto d = parse_double(text)) return *d;
      throw fail();
    case ParamType::kBool:
      if (text == "true" || text == "1") return true;
      if (text == "false" || text == "0") return false;
      throw fail();
    case ParamType::kString:
      return std::string(text);
    case ParamType::kRealList: {
      std::vector<double> out;
      std::size_t start = 0;
      while (start <= text.size()) {
        std::size_t comma = text.find(',', start);
        if (comma == std::string_view::npos) comma = text.size();
        auto d = parse_double(text.substr(start, comma - start));
        if (!d) throw fail();
        out.push_back(*d);
        start = comma + 1;
      }
      return out;
    }
  }
  throw fail();
}

void set_param_from_text(std::span<const ParamSpec> specs, std::string_view key_value,
                         Params& params) {
  auto eq = key_value.find('=');
  if (eq == std::string_view::npos || eq == 0)
    throw ParamError(std::string(key_value),
                     "expected key=value, got '" + std::string(key_value) + "'");
  std::string key(key_value.substr(0, eq));
  const ParamSpec* spec = find_spec(specs, key);
  if (!spec) throw ParamError(key, "unknown parameter '" + key + "'");
  ParamValue v = parse_param_text(*spec, key_value.substr(eq + 1));
  if (auto err = check_value(*spec, v)) throw ParamError(key, key + " " + *err);
  params.set(key, std::move(v));
}

}  // namespace lbb
