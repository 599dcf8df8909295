#pragma once
// Typed scalar attributes, read only after checking their class, type and shape: an archive
// from elsewhere may hold anything (a non-scalar "processors" once overflowed a buffer).
#include <cstdint>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "harness/archive/archive_schema.h"
#include "harness/archive/h5_handle.h"

namespace lbb::h5 {

using Value = std::variant<std::string, std::int64_t, double>;

// The file and memory types of a record type (variable-length UTF-8 strings).
Handle file_type(RecordType t);
hid_t memory_type(RecordType t);  // a predefined type; text has none (use file_type)

// Creates or replaces a scalar attribute (`replace` false: `obj` cannot have it yet, no lookup).
void write_attribute(hid_t obj, const std::string& name, const Value& value, bool replace = true);

// Reads a scalar string, integer or float attribute; throws Error naming `where` when it is of
// another class or shape.
Value read_attribute(hid_t obj, const std::string& name, const std::string& where);

// A transfer property list whose type-conversion buffers hold `bytes`, at least 4 KiB and at most
// HDF5's default 1 MiB or one `element` (HDF5 refuses a buffer smaller than one). A read or write
// that converts (text, a compound's members) allocates them every time, a compound's background
// buffer zeroed, at 1 MiB whatever the data's size: that calloc was 27 % of configs/smoke.yaml's
// CPU in text writes, and 85 % of checking a 1500-run archive.
Handle conversion_transfer(std::size_t bytes, const std::string& what, std::size_t element = 0);

// A scalar variable-length UTF-8 string dataset (texts too large for an attribute).
void write_text_dataset(hid_t group, const std::string& name, const std::string& text);
std::string read_text_dataset(hid_t group, const std::string& name, const std::string& where);

// Creates the empty, extensible, compressed dataset `name` (intermediate groups too) of `cols`
// values a row (0: one-dimensional), as a run's step datasets are written.
Handle create_step_dataset(hid_t group, const std::string& name, RecordType type, hsize_t cols);

// The largest step dataset a finished run stores compact (its values inside its object header).
inline constexpr hsize_t kCompactStepBytes = 8192;

// Creates the dataset `name` (a run table's column) holding its `rows` rows of `data` (as
// append_rows takes them): it never grows, so up to kCompactStepBytes it is compact and
// fixed-size, with no chunk index and no filters (docs/ARCHITECTURE.md, "Archive layout"); a
// larger one is fixed-size too, chunked and compressed in chunks sized to its rows.
void write_final_step_dataset(hid_t group, const std::string& name, RecordType type, hsize_t cols,
                              hsize_t rows, const void* data);

// Names the dataset `existing` of `group` also `name` (a second hard link: one dataset, read
// under either name), making name's run subgroup as write_final_step_dataset would.
void link_step_dataset(hid_t group, const std::string& existing, const std::string& name);

// Creates the group `path` of `parent` (and its missing parents) keeping up to 128 links and
// attributes in its object header, as a run's groups do: a heap and a B-tree each only past that.
// `room`: the links its header is sized for at creation (none: HDF5's default, 4 of 8 characters).
struct GroupRoom {
  unsigned links = 0;
  unsigned name_length = 0;
};
Handle create_group(hid_t parent, const std::string& path, GroupRoom room = {});

// Creates the group /runs/<id> (and /runs when absent), its header sized for a run's attributes.
Handle create_run_group(hid_t file, const std::string& id);

// Creates a run's group `name` (step, proc, metric, module), its header sized for the datasets
// the schema puts there.
Handle create_run_subgroup(hid_t run, const std::string& name);

// Extends the dataset `name` of `group` to first + count rows of `cols` values (0: a
// one-dimensional dataset) and writes `count` rows of `data` (host layout of `type`) there.
void append_rows(hid_t group, const std::string& name, RecordType type, hsize_t cols, hsize_t first,
                 hsize_t count, const void* data);

// The names of `group`'s members, and of `obj`'s attributes, in name order.
std::vector<std::string> member_names(hid_t group, const std::string& where);
std::vector<std::string> attribute_names(hid_t obj, const std::string& where);

// The link `name` in `group` is a hard link to an object of type `type`; else throws Error.
void require_hard_link(hid_t group, const std::string& name, H5O_type_t type,
                       const std::string& where);

}  // namespace lbb::h5
