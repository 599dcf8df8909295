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

// Text from a file (an archive from elsewhere) made safe to print on a terminal: control
// characters, DEL and the C1 controls (UTF-8 U+0080..U+009F) become \xNN, so no escape
// sequence stored in the file reaches the terminal.
inline std::string printable(const std::string& s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    const bool c1 = c == 0xC2 && i + 1 < s.size() && static_cast<unsigned char>(s[i + 1]) >= 0x80 &&
                    static_cast<unsigned char>(s[i + 1]) <= 0x9F;
    if (c < 0x20 || c == 0x7F || c1) {
      const unsigned v = c1 ? static_cast<unsigned char>(s[++i]) : c;
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02X", v);
      out += buf;
    } else {
      out += s[i];
    }
  }
  return out;
}

}  // namespace lbb
