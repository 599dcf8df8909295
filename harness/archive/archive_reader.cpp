#include "harness/archive/archive.h"

namespace lbb {

namespace {

// A dataset larger than this is not one lbbench wrote (2 GiB of doubles); refusing it keeps a
// hostile archive from exhausting memory.
constexpr hsize_t kMaxElements = hsize_t{1} << 28;

herr_t collect_name(hid_t, const char* name, const H5L_info_t*, void* out) {
  static_cast<std::vector<std::string>*>(out)->push_back(name);
  return 0;
}

herr_t collect_attribute_name(hid_t, const char* name, const H5A_info_t*, void* out) {
  static_cast<std::vector<std::string>*>(out)->push_back(name);
  return 0;
}

std::vector<std::string> link_names(hid_t group, const std::string& where) {
  std::vector<std::string> names;
  if (H5Literate(group, H5_INDEX_NAME, H5_ITER_INC, nullptr, collect_name, &names) < 0)
    throw ArchiveError(where + ": cannot list");
  return names;
}

void read_run_attributes(hid_t group, const std::string& where, RunInfo& info) {
  std::vector<std::string> names;
  if (H5Aiterate2(group, H5_INDEX_NAME, H5_ITER_INC, nullptr, collect_attribute_name, &names) < 0)
    throw ArchiveError(where + ": cannot list the attributes");
  for (const auto& name : names) {
    h5::Value v = h5::read_attribute(group, name, where);
    const AttributeSpec* spec = find_run_attribute(name);
    const bool text = std::holds_alternative<std::string>(v);
    if (spec && text != (spec->type == RecordType::kText))
      throw ArchiveError(where + ": attribute " + name + " is " + (text ? "text" : "a number") +
                         ", the schema says " + std::string(record_type_name(spec->type)));
    if (text)
      info.text[name] = std::get<std::string>(v);
    else if (const auto* i = std::get_if<std::int64_t>(&v))
      info.number[name] = static_cast<double>(*i);
    else
      info.number[name] = std::get<double>(v);
  }
}

}  // namespace

ArchiveReader::ArchiveReader(const std::string& path) : path_(path) {
  h5::silence_library_errors();
  file_ = h5::Handle(open_archive_read_only(path), H5Fclose);
}

std::vector<RunInfo> ArchiveReader::runs() const {
  auto runs = h5::group(H5Gopen2(file_.get(), "/runs", H5P_DEFAULT), path_ + ": open /runs");
  std::vector<RunInfo> out;
  for (const auto& n : link_names(runs.get(), path_ + ": /runs")) {
    const std::string where = path_ + ": run " + n;
    h5::require_hard_link(runs.get(), n, H5O_TYPE_GROUP, path_ + ": /runs");
    auto g = h5::group(H5Gopen2(runs.get(), n.c_str(), H5P_DEFAULT), where + ": cannot open");
    RunInfo info;
    info.id = n;
    read_run_attributes(g.get(), where, info);
    out.push_back(std::move(info));
  }
  return out;
}

std::vector<double> ArchiveReader::read_matrix(const std::string& run, const std::string& dataset,
                                               std::size_t& rows, std::size_t& cols) const {
  const std::string path = "/runs/" + run + "/" + dataset;
  const std::string where = path_ + ": " + path;
  // Every link on the way is checked: a soft or external link could lead anywhere.
  h5::Handle group = h5::group(H5Gopen2(file_.get(), "/runs", H5P_DEFAULT), where);
  std::string rest = run + "/" + dataset;
  for (std::size_t slash; (slash = rest.find('/')) != std::string::npos;) {
    const std::string part = rest.substr(0, slash);
    h5::require_hard_link(group.get(), part, H5O_TYPE_GROUP, where);
    group = h5::group(H5Gopen2(group.get(), part.c_str(), H5P_DEFAULT), where);
    rest = rest.substr(slash + 1);
  }
  h5::require_hard_link(group.get(), rest, H5O_TYPE_DATASET, where);
  auto d = h5::dataset(H5Dopen2(group.get(), rest.c_str(), H5P_DEFAULT), where + ": cannot open");
  auto type = h5::datatype(H5Dget_type(d.get()), where);
  const H5T_class_t cls = H5Tget_class(type.get());
  if (cls != H5T_INTEGER && cls != H5T_FLOAT) throw ArchiveError(where + " is not numeric");
  auto space = h5::dataspace(H5Dget_space(d.get()), where);
  const int rank = H5Sget_simple_extent_ndims(space.get());
  if (rank < 1 || rank > 2) throw ArchiveError(where + ": rank " + std::to_string(rank));
  hsize_t dims[2] = {0, 1};
  H5Sget_simple_extent_dims(space.get(), dims, nullptr);
  if (rank == 1) dims[1] = 1;
  if (dims[1] != 0 && dims[0] > kMaxElements / dims[1])
    throw ArchiveError(where + ": too large to be an lbbench dataset");
  rows = dims[0];
  cols = dims[1];
  std::vector<double> out(rows * cols);
  if (!out.empty())
    h5::check(H5Dread(d.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, out.data()),
              where + ": cannot read");
  return out;
}

std::vector<double> ArchiveReader::read_series(const std::string& run,
                                               const std::string& dataset) const {
  std::size_t rows = 0, cols = 0;
  return read_matrix(run, dataset, rows, cols);
}

}  // namespace lbb
