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

// Whether `s` is well-formed UTF-8 (RFC 3629: no overlong forms, no surrogates, at most
// U+10FFFF).
inline bool valid_utf8(const std::string& s) {
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    int more = -1;  // continuation bytes after c
    if (c < 0x80) more = 0;
    if (c >= 0xC2 && c <= 0xDF) more = 1;
    if (c >= 0xE0 && c <= 0xEF) more = 2;
    if (c >= 0xF0 && c <= 0xF4) more = 3;
    if (more < 0 || i + more >= s.size()) return false;
    // The second byte's range, narrowed where the first byte allows overlong or too-large forms.
    unsigned lo = 0x80, hi = 0xBF;
    if (c == 0xE0) lo = 0xA0;
    if (c == 0xED) hi = 0x9F;
    if (c == 0xF0) lo = 0x90;
    if (c == 0xF4) hi = 0x8F;
    for (int k = 1; k <= more; ++k) {
      const auto b = static_cast<unsigned char>(s[i + k]);
      if (b < (k == 1 ? lo : 0x80) || b > (k == 1 ? hi : 0xBF)) return false;
    }
    i += 1 + more;
  }
  return true;
}

}  // namespace lbb
