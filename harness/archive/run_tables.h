#pragma once
// Run tables: finished runs as rows (docs/ARCHITECTURE.md, "Archive layout"). A commit writes
// the runs that ended since the last one, and that the archive does not hold yet, as one group
// /tables/<table-id> a column layout: a run a row, its attributes a record's members and its
// step datasets concatenated, in place of a group and about 24 datasets a run (issue 16: those
// cost seed000 11.6 % of its CPU). A run written across commits keeps its /runs/<run-id> group.
//
// A table holds (R runs):
//   run_id            text [R]       the runs' ids, unique in the archive
//   step_rows         int64 [R]      each run's rows in the step columns, in run_id's order
//   attr_numbers      compound [R]   a member a number attribute: int64 or float64 (0 or NaN
//                                    where a run lacks it)
//   attr_present      compound [R]   a member (int32, 1: has it) a number attribute some run
//                                    lacks; only when there is one
//   attr_texts        compound [R]   a member (int32) a text attribute: an index into
//                                    attr_text_values, -1 where a run lacks it
//   attr_text_values  text [U]       the distinct texts of the table's runs, each once
//   step/*, proc/*, metric/*, module/*   the schema's step datasets, the runs' rows one after
//                    another: [sum step_rows] or [sum step_rows, width]; one equal byte for
//                    byte to an earlier one of the table is a second hard link to its dataset
// Attributes are three compound datasets, not a dataset each: a table of a few runs (a small
// config's commit) cost more than their groups with ~90 datasets (configs/smoke.yaml).
#include <cstdint>
#include <functional>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "harness/archive/h5_records.h"

namespace lbb::h5 {

inline constexpr const char* kTablesGroup = "tables";

// One step dataset of a run: `rows` rows of `cols` values (0: one-dimensional) in host layout.
struct RunColumn {
  std::string name;  // "step/makespan", "metric/residual", ...
  RecordType type;
  hsize_t cols;
  hsize_t rows;
  std::vector<unsigned char> bytes;  // rows * row_values(cols) * record_type_bytes(type)
};

// A finished run as the archive stores it, whichever layout holds it.
struct StoredRun {
  std::string id;
  std::map<std::string, Value> attributes;
  std::vector<RunColumn> columns;
};

// A run table being filled: the runs of one column layout (names, types and widths), their
// attributes and their rows, until a commit writes it. The archive's writer appends an open
// run's rows to the columns' tails (column_bytes) as its steps arrive, and close_run makes them
// the run's at its end: a row is copied once, from its step record to the table. clear()
// keeps the columns' memory for the next commit's rows.
class RunTable {
 public:
  struct ColumnLayout {
    std::string name;
    RecordType type;
    hsize_t cols;
  };
  explicit RunTable(std::vector<ColumnLayout> layout);
  bool fits(std::span<const ColumnLayout> layout) const;  // the same names, types and widths
  void add(const StoredRun& run);                         // copies its id, attributes and rows
  // Column k's bytes: its runs' rows, then an open run's rows.
  std::vector<unsigned char>& column_bytes(std::size_t k) { return columns_[k].bytes; }
  std::size_t row_bytes(std::size_t k) const;
  hsize_t rows() const { return rows_total_; }  // of its runs, the open run's excluded
  // A new open run: drops an earlier one's rows left behind (a failed commit's; the journal has
  // them) and returns the row its rows will start at.
  hsize_t open_run();
  std::size_t runs() const { return ids_.size(); }
  // The open run's rows (the columns' tails, `rows` each) become the run `id`'s.
  void close_run(std::string id, std::map<std::string, Value>&& attributes, hsize_t rows);
  void clear(bool release);  // drops every run and row; `release`: their memory too
  // Writes the runs as the next table of `file` (/tables/t-NNNNN). Throws Error, or
  // std::logic_error for an attribute whose type differs between runs.
  void write(hid_t file) const;

 private:
  struct Column {
    ColumnLayout layout;
    std::vector<unsigned char> bytes;
  };
  // An earlier column of column k's type and width holding the same rows, byte for byte (a
  // simulated run's proc/busy_wall is its proc/busy): k is written as a second name of its
  // dataset, not as a copy.
  const Column* earlier_equal(std::size_t k) const;
  std::vector<Column> columns_;
  std::vector<std::string> ids_;
  std::vector<std::int64_t> rows_;
  std::vector<std::map<std::string, Value>> attributes_;
  hsize_t rows_total_ = 0;
};

// Writes `runs` as new tables of `file`, one for each column layout, in the order of the runs.
void write_run_tables(hid_t file, std::span<const StoredRun> runs);

// The runs an archive holds in /runs and in its tables (without reading their attributes).
std::size_t count_runs(hid_t file, const std::string& where);

}  // namespace lbb::h5

namespace lbb::h5 {

// A run table's runs, checked as read (a table from elsewhere may hold anything): their ids,
// where their rows start (first[R], the length every step column is checked to have) and, when
// asked, their attributes.
struct TableContents {
  std::vector<std::string> ids;
  std::vector<hsize_t> first;
  std::vector<std::map<std::string, Value>> attributes;
};
TableContents read_table(hid_t table, bool with_attributes, const std::string& where);

// Every run table of `file` (none without /tables; /tables and each table checked to be hard
// links to groups), read with read_table and handed to `visit` with its name, in name order.
void for_each_table(
    hid_t file, bool with_attributes, const std::string& where,
    const std::function<void(const std::string& name, hid_t table, const TableContents& t)>& visit);

// The rows [first, first + rows) of the table's step dataset `name` ("step/makespan"), in
// `memory` (HDF5's memory type), with the dataset's width (0: one-dimensional). Throws Error
// unless the dataset is the schema's and `total` rows long.
std::vector<unsigned char> read_table_rows(hid_t table, const std::string& name, hid_t memory,
                                           hsize_t first, hsize_t rows, hsize_t total,
                                           hsize_t& cols, const std::string& where);

}  // namespace lbb::h5
