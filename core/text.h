#pragma once
#include <cstdio>
#include <string>

namespace lbb {

// A number in %g form with `digits` significant digits, for messages and tables.
inline std::string format_number(double x, int digits = 4) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*g", digits, x);
  return buf;
}

}  // namespace lbb
