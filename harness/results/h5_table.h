#pragma once
// A table of a result part: an HDF5 group of equal-length 1-D column datasets, each carrying its
// unit and meaning. Text is fixed-length UTF-8: no variable-length data, so no global heap.
#include <hdf5.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "harness/results/result_schema.h"

namespace lbb {

// Every failure to read or write a result set, HDF5's own included.
class ResultError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct Column {
  std::string name;
  ColumnType type = ColumnType::kFloat64;
  std::vector<std::string> text;
  std::vector<std::int64_t> ints;  // kInt32 and kInt64
  std::vector<double> reals;
  // Text as runs of one value (a run id over all of a run's steps, processors and modules), in
  // place of `text` when not empty: one string for thousands of rows.
  std::vector<std::pair<std::string, std::size_t>> repeated;
  std::size_t repeated_rows = 0;
  std::size_t rows() const;
  void pad_to(std::size_t rows);  // with the type's fill: "", -1 or NaN
  double number(std::size_t row) const;
};

struct ColumnTable {
  std::vector<Column> columns;
  std::size_t rows() const;
  const Column* find(std::string_view name) const;
  // The column `name`, added (padded to rows()) when absent.
  Column& column(std::string_view name, ColumnType type);
  // Appends `more`'s rows; a column one side lacks gets its fill there.
  void append(ColumnTable&& more);
};

// Text as the writer stores it: valid UTF-8, NUL and invalid bytes replaced by U+FFFD.
std::string as_valid_utf8(std::string_view text);

// RAII for an HDF5 identifier.
class H5Id {
 public:
  using Closer = herr_t (*)(hid_t);
  H5Id(hid_t id, Closer close, const std::string& what);  // throws ResultError(what) if id < 0
  H5Id(H5Id&& o) noexcept : id_(o.id_), close_(o.close_) { o.id_ = -1; }
  H5Id(const H5Id&) = delete;
  H5Id& operator=(const H5Id&) = delete;
  H5Id& operator=(H5Id&&) = delete;
  ~H5Id() {
    if (id_ >= 0) close_(id_);
  }
  hid_t get() const { return id_; }

 private:
  hid_t id_;
  Closer close_;
};
void h5_check(herr_t status, const std::string& what);

void write_text_attribute(hid_t obj, const char* name, std::string_view value);
void write_int_attribute(hid_t obj, const char* name, std::int64_t value);
// A scalar attribute checked for class and size first; throws ResultError.
std::string read_text_attribute(hid_t obj, const char* name, const std::string& where);
std::int64_t read_int_attribute(hid_t obj, const char* name, const std::string& where);

void write_table(hid_t file, const TableSpec& spec, const ColumnTable& table);

// Reads the table `spec.name` of `file` (only the columns `wanted` names, when not empty), each
// object checked before it is read: hard links only, 1-D, equal lengths, types the schema
// allows, no external storage, only the deflate, shuffle and Fletcher-32 filters, and at most
// `byte_budget` bytes in memory (decremented). Throws ResultError naming `where`.
ColumnTable read_table(hid_t file, const TableSpec& spec, const std::string& where,
                       std::uint64_t& byte_budget, const std::vector<std::string>& wanted = {});

}  // namespace lbb
