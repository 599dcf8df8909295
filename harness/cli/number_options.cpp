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

}  // namespace lbb
