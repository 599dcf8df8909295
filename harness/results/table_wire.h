#pragma once
// A table as bytes and back: how a child process that read a part hands its tables to the
// parent (result_reader.cpp), which then never opens that part with HDF5 itself.
#include <string>
#include <string_view>

#include "harness/results/h5_table.h"

namespace lbb {

// Appends `table` to `out`.
void put_table(const ColumnTable& table, std::string& out);

// The table at `at` of `bytes`, `at` moved past it. Throws ResultError naming `where` when the
// bytes end early or declare more than they hold.
ColumnTable take_table(std::string_view bytes, std::size_t& at, const std::string& where);

// A length-prefixed string, as put_table writes names and text.
void put_text(std::string_view text, std::string& out);
std::string take_text(std::string_view bytes, std::size_t& at, const std::string& where);

}  // namespace lbb
