#pragma once
// A part of the older layout (links in dense storage, whose link objects carry no checksum:
// HDF5 1.10.8 crashes on some damaged ones even under a valid seal) is read by a child process
// alone, which hands its tables back as bytes (table_wire.h): a crash inside HDF5 ends the
// child, and the reader, which never opens such a part's tables itself, refuses the part.
#include <cstdint>
#include <map>
#include <string>

#include "harness/results/h5_table.h"

namespace lbb {

struct HeldTable {
  ColumnTable table;
  std::string error;  // why the table could not be read (a ResultError's text); empty: it was
};

// Every table of the part `path`, read in a child process as read_table reads it, each within
// `budget` bytes. Throws ResultError when the child crashed or could not be run.
std::map<TableId, HeldTable> read_tables_in_child(const std::string& path, std::uint64_t budget);

}  // namespace lbb
