#include "harness/cli/number_options.h"

namespace lbb {

CLI::Validator checked_as(const ParamSpec& spec) {
  return CLI::Validator(
      [spec](std::string& text) -> std::string {
        try {
          if (auto why = check_value(spec, parse_param_text(spec, text))) return text + " " + *why;
          return "";
        } catch (const ParamError&) {
          return "'" + text + "' is not a " + std::string(type_name(spec.type));
        }
      },
      std::string(type_name(spec.type)));
}

const ParamSpec& relative_speed_spec() {
  static const ParamSpec spec =
      real_param("speed", 1.0, "relative speed of a processor", 1e-6, 1e6);
  return spec;
}

}  // namespace lbb
