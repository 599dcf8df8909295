#pragma once
// Result rows as JSON objects, printed as a JSON list or as CSV: one description of a row's
// fields serves both formats. Nested objects (a clock's statistics) become prefix_key columns.
#include <nlohmann/json.hpp>

#include <ostream>
#include <vector>

namespace lbb {

using JsonRow = nlohmann::ordered_json;

void print_json_rows(std::ostream& out, const std::vector<JsonRow>& rows);
// The header comes from the first row; every row must have the same fields.
void print_csv_rows(std::ostream& out, const std::vector<JsonRow>& rows);

}  // namespace lbb
