#include "harness/formats/csv_trace.h"

#include <array>
#include <charconv>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <string_view>

namespace lbb {

namespace {

constexpr std::array<const char*, 6> kColumns = {"step",  "task",  "cost",
                                                 "owner", "bytes", "neighbours"};
constexpr std::size_t kMaxLine = std::size_t(1) << 20;

std::vector<std::string_view> split(std::string_view line, char by) {
  std::vector<std::string_view> fields;
  for (std::size_t start = 0;;) {
    const std::size_t end = line.find(by, start);
    fields.push_back(line.substr(start, end - start));
    if (end == std::string_view::npos) return fields;
    start = end + 1;
  }
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}

std::int64_t integer(std::string_view text, const std::string& where) {
  std::int64_t v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size())
    throw TraceError(where + ": '" + std::string(text) + "' is not an integer");
  return v;
}

double real(std::string_view text, const std::string& where) {
  const std::string s(text);
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  if (s.empty() || end != s.c_str() + s.size())
    throw TraceError(where + ": '" + s + "' is not a number");
  return v;
}

// Column k of kColumns -> its field index in a line; the header must name step, task and cost.
std::array<std::optional<std::size_t>, 6> header(std::string_view line, const std::string& where) {
  std::array<std::optional<std::size_t>, 6> at;
  const std::vector<std::string_view> names = split(line, ',');
  for (std::size_t f = 0; f < names.size(); ++f) {
    std::size_t k = 0;
    while (k < kColumns.size() && trim(names[f]) != kColumns[k]) ++k;
    if (k == kColumns.size() || at[k])
      throw TraceError(where + ": header column '" + std::string(trim(names[f])) +
                       "' is unknown or repeated (expected " + kCsvTraceFormat + ")");
    at[k] = f;
  }
  for (std::size_t k = 0; k < 3; ++k)
    if (!at[k]) throw TraceError(where + ": the header lacks '" + kColumns[k] + "'");
  return at;
}

}  // namespace

void read_csv_trace(const std::string& path, TraceBuilder& out) {
  std::ifstream in(path);
  if (!in) throw TraceError(path + ": cannot open");
  std::array<std::optional<std::size_t>, 6> at;
  bool have_header = false;
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    const std::string where = path + ":" + std::to_string(n);
    if (line.size() > kMaxLine) throw TraceError(where + ": line longer than 1 MiB");
    const std::string_view text = trim(line);
    if (text.empty() || text.front() == '#') continue;
    if (!have_header) {
      at = header(text, where);
      have_header = true;
      continue;
    }
    const std::vector<std::string_view> f = split(text, ',');
    for (const auto& k : at)
      if (k && *k >= f.size())
        throw TraceError(where + ": " + std::to_string(f.size()) + " fields, the header has more");
    auto field = [&](std::size_t k) { return trim(f[*at[k]]); };
    const std::int64_t task = integer(field(1), where);
    const std::int64_t owner = at[3] && !field(3).empty() ? integer(field(3), where) : -1;
    out.task(integer(field(0), where), task, trace_seconds(real(field(2), where), where + ": cost"),
             owner, where);
    if (at[4] && !field(4).empty())
      out.bytes(integer(field(0), where), task,
                trace_bytes(real(field(4), where), where + ": bytes"), where);
    if (at[5] && !field(5).empty())
      for (std::string_view id : split(field(5), ';'))
        out.link(task, integer(trim(id), where), where);
  }
  if (!have_header) throw TraceError(path + ": empty (expected a header: " + kCsvTraceFormat + ")");
}

}  // namespace lbb
