#include "harness/analysis/json_rows.h"

#include <string>

namespace lbb {

namespace {

std::string csv_cell(const JsonRow& v) {
  if (v.is_null()) return "";
  if (!v.is_string()) return v.dump();
  const std::string s = v.get<std::string>();
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string q = "\"";
  for (char ch : s) q += ch == '"' ? std::string("\"\"") : std::string(1, ch);
  return q + "\"";
}

void flatten(const JsonRow& row, std::vector<std::pair<std::string, std::string>>& out) {
  for (const auto& [name, v] : row.items())
    if (v.is_object())
      for (const auto& [key, value] : v.items()) out.push_back({name + "_" + key, csv_cell(value)});
    else
      out.push_back({name, csv_cell(v)});
}

}  // namespace

void print_json_rows(std::ostream& out, const std::vector<JsonRow>& rows) {
  out << JsonRow(rows).dump(1) << "\n";
}

void print_csv_rows(std::ostream& out, const std::vector<JsonRow>& rows) {
  for (std::size_t i = 0; i < rows.size(); ++i) {
    std::vector<std::pair<std::string, std::string>> cells;
    flatten(rows[i], cells);
    if (i == 0)
      for (std::size_t k = 0; k < cells.size(); ++k)
        out << cells[k].first << (k + 1 < cells.size() ? "," : "\n");
    for (std::size_t k = 0; k < cells.size(); ++k)
      out << cells[k].second << (k + 1 < cells.size() ? "," : "\n");
  }
}

}  // namespace lbb
