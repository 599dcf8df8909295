#include "harness/archive/h5_records.h"

#include <algorithm>

#include "harness/archive/deflated_chunks.h"

namespace lbb::h5 {

namespace {

// Links or attributes a run's group keeps in its object header before HDF5's dense storage.
constexpr unsigned kCompactRunMembers = 128;

// Room for at least this many links in a run's subgroup header.
constexpr unsigned kMinSubgroupRoom = 8;

// Larger fixed-length strings are not what lbbench writes; refusing them bounds memory.
constexpr std::size_t kMaxFixedString = std::size_t{1} << 24;

Handle text_type() {
  auto t = datatype(H5Tcopy(H5T_C_S1), "string type");
  check(H5Tset_size(t.get(), H5T_VARIABLE), "string size");
  check(H5Tset_cset(t.get(), H5T_CSET_UTF8), "string charset");
  return t;
}

std::string read_string(hid_t attr, hid_t type, const std::string& where) {
  if (H5Tis_variable_str(type) > 0) {
    // Read with the file's own string type: HDF5 does not convert UTF-8 to ASCII.
    char* s = nullptr;
    check(H5Aread(attr, type, &s), where + ": cannot read");
    std::string out = s ? s : "";
    auto space = dataspace(H5Aget_space(attr), where);
    H5Dvlen_reclaim(type, space.get(), H5P_DEFAULT, &s);
    return out;
  }
  const std::size_t size = H5Tget_size(type);
  if (size == 0 || size > kMaxFixedString) throw Error(where + ": string of unexpected size");
  std::string s(size, '\0');
  check(H5Aread(attr, type, s.data()), where + ": cannot read");
  return s.c_str();
}

}  // namespace

// Numbers are HDF5's predefined types, handed out as they are: nothing to copy, nothing to close.
Handle file_type(RecordType t) {
  switch (t) {
    case RecordType::kText:
      return text_type();
    case RecordType::kInt32:
      return Handle(H5T_STD_I32LE, nullptr);
    case RecordType::kInt64:
      return Handle(H5T_STD_I64LE, nullptr);
    case RecordType::kFloat64:
      break;
  }
  return Handle(H5T_IEEE_F64LE, nullptr);
}

hid_t memory_type(RecordType t) {
  switch (t) {
    case RecordType::kInt32:
      return H5T_NATIVE_INT32;
    case RecordType::kInt64:
      return H5T_NATIVE_INT64;
    default:
      return H5T_NATIVE_DOUBLE;
  }
}

void write_attribute(hid_t obj, const std::string& name, const Value& value, bool replace) {
  if (replace && H5Aexists(obj, name.c_str()) > 0)
    check(H5Adelete(obj, name.c_str()), "delete " + name);
  const RecordType t = std::holds_alternative<std::string>(value)    ? RecordType::kText
                       : std::holds_alternative<std::int64_t>(value) ? RecordType::kInt64
                                                                     : RecordType::kFloat64;
  auto type = file_type(t);
  auto space = dataspace(H5Screate(H5S_SCALAR), name);
  auto attr =
      attribute(H5Acreate2(obj, name.c_str(), type.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT),
                "attribute " + name);
  if (const auto* s = std::get_if<std::string>(&value)) {
    const char* c = s->c_str();
    check(H5Awrite(attr.get(), type.get(), &c), "write attribute " + name);
  } else if (const auto* i = std::get_if<std::int64_t>(&value)) {
    check(H5Awrite(attr.get(), H5T_NATIVE_INT64, i), "write attribute " + name);
  } else {
    check(H5Awrite(attr.get(), H5T_NATIVE_DOUBLE, &std::get<double>(value)),
          "write attribute " + name);
  }
}

Value read_attribute(hid_t obj, const std::string& name, const std::string& where) {
  const std::string what = where + ": attribute " + name;
  auto attr = attribute(H5Aopen(obj, name.c_str(), H5P_DEFAULT), what + ": cannot open");
  auto space = dataspace(H5Aget_space(attr.get()), what);
  if (H5Sget_simple_extent_type(space.get()) != H5S_SCALAR)
    throw Error(what + " is not a single value");
  auto type = datatype(H5Aget_type(attr.get()), what);
  switch (H5Tget_class(type.get())) {
    case H5T_STRING:
      return read_string(attr.get(), type.get(), what);
    case H5T_INTEGER: {
      std::int64_t v = 0;
      check(H5Aread(attr.get(), H5T_NATIVE_INT64, &v), what + ": cannot read");
      return v;
    }
    case H5T_FLOAT: {
      double v = 0;
      check(H5Aread(attr.get(), H5T_NATIVE_DOUBLE, &v), what + ": cannot read");
      return v;
    }
    default:
      throw Error(what + " is neither text nor a number");
  }
}

Handle conversion_transfer(std::size_t bytes, const std::string& what, std::size_t element) {
  const std::size_t most = std::max<std::size_t>(std::size_t{1} << 20, element);
  auto dxpl = plist(H5Pcreate(H5P_DATASET_XFER), what);
  check(H5Pset_buffer(dxpl.get(), std::clamp<std::size_t>(bytes, 4096, most), nullptr, nullptr),
        "conversion buffer of " + what);
  return dxpl;
}

void write_text_dataset(hid_t group, const std::string& name, const std::string& text) {
  auto type = text_type();
  auto space = dataspace(H5Screate(H5S_SCALAR), name);
  auto d = dataset(H5Dcreate2(group, name.c_str(), type.get(), space.get(), H5P_DEFAULT,
                              H5P_DEFAULT, H5P_DEFAULT),
                   "create " + name);
  const char* c = text.c_str();
  auto dxpl = conversion_transfer(0, name);  // one string's conversion: a few bytes
  check(H5Dwrite(d.get(), type.get(), H5S_ALL, H5S_ALL, dxpl.get(), &c), "write " + name);
}

std::string read_text_dataset(hid_t group, const std::string& name, const std::string& where) {
  const std::string what = where + ": " + name;
  require_hard_link(group, name, H5O_TYPE_DATASET, where);
  auto d = dataset(H5Dopen2(group, name.c_str(), H5P_DEFAULT), what + ": cannot open");
  auto space = dataspace(H5Dget_space(d.get()), what);
  auto type = datatype(H5Dget_type(d.get()), what);
  if (H5Sget_simple_extent_type(space.get()) != H5S_SCALAR ||
      H5Tget_class(type.get()) != H5T_STRING || H5Tis_variable_str(type.get()) <= 0)
    throw Error(what + " is not a single variable-length string");
  char* s = nullptr;
  auto dxpl = conversion_transfer(0, what);  // one string's conversion: a few bytes
  check(H5Dread(d.get(), type.get(), H5S_ALL, H5S_ALL, dxpl.get(), &s), what + ": cannot read");
  std::string out = s ? s : "";
  H5Dvlen_reclaim(type.get(), space.get(), H5P_DEFAULT, &s);
  return out;
}

namespace {

// An H5Literate or H5Aiterate2 callback adding each name to the std::vector<std::string> `out`.
template <class Info>
herr_t append_name(hid_t, const char* name, const Info*, void* out) {
  static_cast<std::vector<std::string>*>(out)->push_back(name);
  return 0;
}

}  // namespace

std::vector<std::string> member_names(hid_t group, const std::string& where) {
  std::vector<std::string> names;
  if (H5Literate(group, H5_INDEX_NAME, H5_ITER_INC, nullptr, append_name<H5L_info_t>, &names) < 0)
    throw Error(where + ": cannot list");
  return names;
}

std::vector<std::string> attribute_names(hid_t obj, const std::string& where) {
  std::vector<std::string> names;
  if (H5Aiterate2(obj, H5_INDEX_NAME, H5_ITER_INC, nullptr, append_name<H5A_info_t>, &names) < 0)
    throw Error(where + ": cannot list the attributes");
  return names;
}

void require_hard_link(hid_t group, const std::string& name, H5O_type_t type,
                       const std::string& where) {
  const std::string what = where + ": " + name;
  if (H5Lexists(group, name.c_str(), H5P_DEFAULT) <= 0) throw Error(what + " is missing");
  H5L_info_t link;
  check(H5Lget_info(group, name.c_str(), &link, H5P_DEFAULT), what + ": cannot read the link");
  if (link.type != H5L_TYPE_HARD)
    throw Error(what + " is a " + (link.type == H5L_TYPE_SOFT ? "soft" : "external") +
                " link (lbbench archives hold no links)");
  H5O_info_t info;
  check(H5Oget_info_by_name(group, name.c_str(), &info, H5P_DEFAULT), what + ": cannot inspect");
  if (info.type != type)
    throw Error(what + " is a " + (info.type == H5O_TYPE_GROUP ? "group" : "dataset or type") +
                ", expected a " + (type == H5O_TYPE_GROUP ? "group" : "dataset"));
}

void append_rows(hid_t group, const std::string& name, RecordType type, hsize_t cols, hsize_t first,
                 hsize_t count, const void* data) {
  auto d = dataset(H5Dopen2(group, name.c_str(), H5P_DEFAULT), "open dataset " + name);
  const int rank = step_rank(cols);
  hsize_t size[2] = {first + count, cols};
  check(H5Dset_extent(d.get(), size), "extend dataset " + name);
  auto file_space = dataspace(H5Dget_space(d.get()), "dataset space");
  hsize_t start[2] = {first, 0};
  hsize_t block[2] = {count, row_values(cols)};
  check(H5Sselect_hyperslab(file_space.get(), H5S_SELECT_SET, start, nullptr, block, nullptr),
        "select rows");
  auto mem_space = dataspace(H5Screate_simple(rank, block, nullptr), "row space");
  check(H5Dwrite(d.get(), memory_type(type), mem_space.get(), file_space.get(), H5P_DEFAULT, data),
        "write rows of " + name);
}

namespace {

// Rows of `width` values a chunk: chunks of about 64 KiB at most.
hsize_t chunk_rows(hsize_t rows, hsize_t width) {
  return std::max<hsize_t>(1, std::min<hsize_t>(rows, 8192 / width));
}

bool deflate_available() {
  static const bool available = H5Zfilter_avail(H5Z_FILTER_DEFLATE) > 0;
  return available;
}

// Chunks of chunk_rows(rows, width) rows, shuffled (when `shuffled`) and deflated.
Handle chunked_plist(const std::string& name, int rank, hsize_t rows, hsize_t width,
                     bool shuffled) {
  hsize_t chunk[2] = {chunk_rows(rows, width), width};
  auto dcpl = plist(H5Pcreate(H5P_DATASET_CREATE), name);
  check(H5Pset_chunk(dcpl.get(), rank, chunk), "chunk " + name);
  if (deflate_available()) {
    if (shuffled) check(H5Pset_shuffle(dcpl.get()), "shuffle " + name);
    check(H5Pset_deflate(dcpl.get(), kDeflateLevel), "deflate " + name);
  }
  return dcpl;
}

// A run's groups keep their links and attributes in their object header: past HDF5's default
// of 8, each would get a fractal heap and a B-tree (a run has 59 attributes, 11 step datasets).
// HDF5 sizes a new group's header by the links it is told to expect: a header that holds every
// member from the start spares a continuation block, its allocation and its cache entry, every
// few members added.
Handle run_group_plist(const std::string& name, GroupRoom room) {
  auto gcpl = plist(H5Pcreate(H5P_GROUP_CREATE), name);
  check(H5Pset_link_phase_change(gcpl.get(), kCompactRunMembers, kCompactRunMembers - 2),
        "compact links of " + name);
  check(H5Pset_attr_phase_change(gcpl.get(), kCompactRunMembers, kCompactRunMembers - 2),
        "compact attributes of " + name);
  if (room.links > 0)
    check(H5Pset_est_link_info(gcpl.get(), room.links, room.name_length), "size " + name);
  return gcpl;
}

// Room for the datasets the schema puts under the run's subgroup `name`, at their mean name
// length (the metric family, one entry there, stands for several).
GroupRoom subgroup_room(std::string_view name) {
  unsigned n = 0, length = 0;
  for (const DatasetSpec& d : step_datasets())
    if (d.name.size() > name.size() && d.name.starts_with(name) && d.name[name.size()] == '/') {
      ++n;
      length += static_cast<unsigned>(d.name.size() - name.size() - 1);
    }
  if (n == 0) return {};
  return {std::max(n, kMinSubgroupRoom), (length + n - 1) / n};
}

// The parent of `name` (step/, proc/, ...) made as the run's subgroup when missing.
void ensure_run_subgroup(hid_t group, const std::string& name) {
  const auto slash = name.rfind('/');
  if (slash == std::string::npos || slash == 0) return;
  const std::string parent = name.substr(0, slash);
  if (H5Lexists(group, parent.c_str(), H5P_DEFAULT) <= 0) create_run_subgroup(group, parent);
}

Handle create_dataset(hid_t group, const std::string& name, RecordType type, hid_t space,
                      hid_t dcpl) {
  // The dataset's own groups (step/, proc/, ...) are made here, not as HDF5's default groups.
  ensure_run_subgroup(group, name);
  auto lcpl = plist(H5Pcreate(H5P_LINK_CREATE), name);
  H5Pset_create_intermediate_group(lcpl.get(), 1);
  // lbbench puts no attributes on datasets: HDF5 then leaves no room for them in the header.
  check(H5Pset_dset_no_attrs_hint(dcpl, 1), "minimal header of " + name);
  auto ftype = file_type(type);
  return dataset(H5Dcreate2(group, name.c_str(), ftype.get(), space, lcpl.get(), dcpl, H5P_DEFAULT),
                 "create dataset " + name);
}

}  // namespace

Handle create_step_dataset(hid_t group, const std::string& name, RecordType type, hsize_t cols) {
  const int rank = step_rank(cols);
  hsize_t dims[2] = {0, cols};
  hsize_t maxdims[2] = {H5S_UNLIMITED, cols};
  auto space = dataspace(H5Screate_simple(rank, dims, maxdims), name);
  auto dcpl = chunked_plist(name, rank, 256, row_values(cols), true);
  return create_dataset(group, name, type, space.get(), dcpl.get());
}

void write_final_step_dataset(hid_t group, const std::string& name, RecordType type, hsize_t cols,
                              hsize_t rows, const void* data) {
  const hsize_t width = row_values(cols);
  const int rank = step_rank(cols);
  hsize_t dims[2] = {rows, cols};
  auto space = dataspace(H5Screate_simple(rank, dims, nullptr), name);
  // Small: in the object header, no chunk index or filter; large: chunks sized to the data,
  // deflated here by libdeflate before the dataset exists, which takes the filters they chose.
  const bool compact = rows * width * record_type_bytes(type) <= kCompactStepBytes;
  const DeflatedChunks* chunks =
      compact || !deflate_available()
          ? nullptr
          : deflate_chunks(type, rows, width, chunk_rows(rows, width), data);
  auto dcpl = compact ? plist(H5Pcreate(H5P_DATASET_CREATE), name)
                      : chunked_plist(name, rank, rows, width, !chunks || chunks->shuffled);
  if (compact) check(H5Pset_layout(dcpl.get(), H5D_COMPACT), "compact " + name);
  const Handle d = create_dataset(group, name, type, space.get(), dcpl.get());
  if (chunks) {
    write_deflated_chunks(d.get(), *chunks);
  } else if (rows > 0) {
    check(H5Dwrite(d.get(), memory_type(type), H5S_ALL, H5S_ALL, H5P_DEFAULT, data),
          "write rows of " + name);
  }
}

void link_step_dataset(hid_t group, const std::string& existing, const std::string& name) {
  ensure_run_subgroup(group, name);
  check(H5Lcreate_hard(group, existing.c_str(), group, name.c_str(), H5P_DEFAULT, H5P_DEFAULT),
        "link " + name + " to " + existing);
}

Handle create_group(hid_t parent, const std::string& path, GroupRoom room) {
  auto lcpl = plist(H5Pcreate(H5P_LINK_CREATE), path);
  H5Pset_create_intermediate_group(lcpl.get(), 1);
  auto gcpl = run_group_plist(path, room);
  return group(H5Gcreate2(parent, path.c_str(), lcpl.get(), gcpl.get(), H5P_DEFAULT),
               "create group " + path);
}

Handle create_run_group(hid_t file, const std::string& id) {
  // A run's attributes take about 56 bytes of header each (3.3 KB for 59, by H5Oget_info), a
  // link of a 24-character name about 35.
  const auto links = static_cast<unsigned>(run_attributes().size() * 56 / 35);
  return create_group(file, "/runs/" + id, {links, 24});
}

Handle create_run_subgroup(hid_t run, const std::string& name) {
  return create_group(run, name, subgroup_room(name));
}

}  // namespace lbb::h5
