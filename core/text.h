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

// The bytes of a bidirectional-text control at s[i] (U+061C, U+200E/F, U+202A..E, U+2066..9),
// or 0: they reorder what a terminal shows after them, so a name can pass for another.
inline std::size_t bidi_control_bytes(const std::string& s, std::size_t i) {
  auto at = [&](std::size_t k) {
    return i + k < s.size() ? static_cast<unsigned char>(s[i + k]) : 0;
  };
  if (at(0) == 0xD8 && at(1) == 0x9C) return 2;
  if (at(0) != 0xE2) return 0;
  const unsigned b1 = at(1), b2 = at(2);
  if (b1 == 0x80 && (b2 == 0x8E || b2 == 0x8F || (b2 >= 0xAA && b2 <= 0xAE))) return 3;
  if (b1 == 0x81 && b2 >= 0xA6 && b2 <= 0xA9) return 3;
  return 0;
}

// Text from a file (an archive from elsewhere) made safe to print on a terminal: control
// characters, DEL and the C1 controls (UTF-8 U+0080..U+009F) become \xNN, and the bidirectional
// controls \uNNNN, so no escape sequence or reordering stored in the file reaches the terminal.
inline std::string printable(const std::string& s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    const bool c1 = c == 0xC2 && i + 1 < s.size() && static_cast<unsigned char>(s[i + 1]) >= 0x80 &&
                    static_cast<unsigned char>(s[i + 1]) <= 0x9F;
    char buf[8];
    if (const std::size_t n = bidi_control_bytes(s, i); n > 0) {
      const unsigned v = n == 2 ? 0x061C
                                : 0x2000 + ((static_cast<unsigned char>(s[i + 1]) & 0x3F) << 6) +
                                      (static_cast<unsigned char>(s[i + 2]) & 0x3F);
      std::snprintf(buf, sizeof buf, "\\u%04X", v);
      out += buf;
      i += n - 1;
    } else if (c < 0x20 || c == 0x7F || c1) {
      const unsigned v = c1 ? static_cast<unsigned char>(s[++i]) : c;
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
