// What an lbbench archive may hold, checked object by object before a writer adds to it or a
// merge copies from it (archive_file.h).
#include <filesystem>
#include <set>
#include <string_view>
#include <vector>

#include "harness/archive/archive_file.h"
#include "harness/archive/archive_schema.h"
#include "harness/archive/h5_records.h"
#include "harness/archive/run_tables.h"

namespace lbb {

namespace {

std::vector<std::string_view> split_path(std::string_view path) {
  std::vector<std::string_view> parts;
  while (!path.empty()) {
    const auto slash = path.find('/');
    parts.push_back(path.substr(0, slash));
    if (slash == path.npos) break;
    path.remove_prefix(slash + 1);
  }
  return parts;
}

bool is_run_subgroup(std::string_view name) {
  return name == "step" || name == "proc" || name == "module" || name == "metric";
}

// The object type a run table (run_tables.h) has at this path inside /tables, or
// H5O_TYPE_UNKNOWN when none belongs.
H5O_type_t expected_table_type(const std::vector<std::string_view>& p) {
  if (p.size() <= 2) return H5O_TYPE_GROUP;
  if (p.size() == 3) {
    for (const char* member :
         {"run_id", "step_rows", "attr_numbers", "attr_present", "attr_texts", "attr_text_values"})
      if (p[2] == member) return H5O_TYPE_DATASET;
    return is_run_subgroup(p[2]) ? H5O_TYPE_GROUP : H5O_TYPE_UNKNOWN;
  }
  if (p.size() != 4) return H5O_TYPE_UNKNOWN;
  const std::string path = std::string(p[2]) + "/" + std::string(p[3]);
  return is_run_subgroup(p[2]) && find_step_dataset(path) ? H5O_TYPE_DATASET : H5O_TYPE_UNKNOWN;
}

// The object type an lbbench archive has at this path, or H5O_TYPE_UNKNOWN when none belongs.
H5O_type_t expected_type(const std::vector<std::string_view>& p) {
  if (p[0] == h5::kTablesGroup) return expected_table_type(p);
  const bool runs = p[0] == "runs", invocations = p[0] == "invocations";
  if (p.size() == 1) return runs || invocations ? H5O_TYPE_GROUP : H5O_TYPE_UNKNOWN;
  if (p.size() == 2) return runs || invocations ? H5O_TYPE_GROUP : H5O_TYPE_UNKNOWN;
  if (p.size() == 3 && runs && is_run_subgroup(p[2])) return H5O_TYPE_GROUP;
  if (p.size() == 3 && invocations) {
    for (const auto& a : invocation_attributes())
      if (a.as_dataset && a.name == p[2]) return H5O_TYPE_DATASET;
    return H5O_TYPE_UNKNOWN;
  }
  if (p.size() == 4 && runs) {
    const std::string path = std::string(p[2]) + "/" + std::string(p[3]);
    return find_step_dataset(path) ? H5O_TYPE_DATASET : H5O_TYPE_UNKNOWN;
  }
  return H5O_TYPE_UNKNOWN;
}

void check_step_dataset(hid_t file, const std::string& name, const std::vector<std::string_view>& p,
                        const std::string& where) {
  const DatasetSpec* spec = find_step_dataset(std::string(p[2]) + "/" + std::string(p[3]));
  auto d = h5::dataset(H5Dopen2(file, name.c_str(), H5P_DEFAULT), where + ": cannot open");
  auto type = h5::datatype(H5Dget_type(d.get()), where);
  auto space = h5::dataspace(H5Dget_space(d.get()), where);
  const H5T_class_t cls = H5Tget_class(type.get());
  const bool real = spec->type == RecordType::kFloat64;
  if (cls != (real ? H5T_FLOAT : H5T_INTEGER))
    throw h5::Error(where + " is not " + std::string(record_type_name(spec->type)));
  const int rank = spec->shape == RecordShape::kSteps ? 1 : 2;
  if (H5Sget_simple_extent_ndims(space.get()) != rank)
    throw h5::Error(where + " is not of shape " + std::string(record_shape_name(spec->shape)));
}

struct Walk {
  std::string path;
  std::string error;
};

herr_t check_link(hid_t file, const char* name, const H5L_info_t* link, void* data) {
  auto* walk = static_cast<Walk*>(data);
  const std::string where = walk->path + ": /" + name;
  try {
    if (link->type != H5L_TYPE_HARD)
      throw h5::Error(where + " is a " + (link->type == H5L_TYPE_SOFT ? "soft" : "external") +
                      " link; lbbench archives hold no links (refusing to write through it)");
    const auto parts = split_path(name);
    const H5O_type_t want = expected_type(parts);
    H5O_info_t info;
    h5::check(H5Oget_info_by_name(file, name, &info, H5P_DEFAULT), where + ": cannot inspect");
    if (want == H5O_TYPE_UNKNOWN || info.type != want)
      throw h5::Error(where + " was not written by lbbench (refusing to touch the archive)");
    if (want == H5O_TYPE_DATASET && parts.size() == 4 && is_run_subgroup(parts[2]))
      check_step_dataset(file, name, parts, where);
  } catch (const h5::Error& e) {
    walk->error = e.what();
    return -1;
  }
  return 0;
}

// Every run table's members agree (h5::read_table: ids, rows, attributes and step columns of R
// runs), and no run id is in the archive twice.
void check_run_tables(hid_t file, const std::string& path) {
  auto runs = h5::group(H5Gopen2(file, "runs", H5P_DEFAULT), path + ": /runs");
  const auto groups = h5::member_names(runs.get(), path + ": /runs");
  std::set<std::string> ids(groups.begin(), groups.end());
  h5::for_each_table(file, true, path,
                     [&](const std::string& name, hid_t, const h5::TableContents& t) {
                       for (const auto& id : t.ids)
                         if (!ids.insert(id).second)
                           throw h5::Error(path + ": /tables/" + name + ": run " + id +
                                           " is in the archive twice");
                     });
}

}  // namespace

void check_archive_structure(hid_t file, const std::string& path) {
  h5::require_hard_link(file, "runs", H5O_TYPE_GROUP, path);
  Walk walk{path, ""};
  if (H5Lvisit(file, H5_INDEX_NAME, H5_ITER_INC, check_link, &walk) < 0)
    throw h5::Error(walk.error.empty() ? path + ": cannot list the archive's objects" : walk.error);
  check_run_tables(file, path);
}

hid_t open_archive_read_only(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::exists(path, ec)) throw h5::Error(path + ": no such archive");
  if (!fs::is_regular_file(path, ec)) throw h5::Error(path + ": not a regular file");
  if (H5Fis_hdf5(path.c_str()) <= 0) throw h5::Error(path + ": not an HDF5 file");
  hid_t f = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  if (f < 0) throw h5::Error(path + ": cannot open (corrupt?)");
  h5::Handle file(f, H5Fclose);
  if (H5Lexists(f, "runs", H5P_DEFAULT) <= 0)
    throw h5::Error(path + ": not an lbbench archive (no /runs group)");
  h5::require_hard_link(f, "runs", H5O_TYPE_GROUP, path);
  return file.release();
}

void check_output_archive(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::exists(fs::symlink_status(path, ec))) return;  // created at the first commit
  h5::Handle file(open_archive_read_only(path), H5Fclose);
  check_archive_structure(file.get(), path);
}

}  // namespace lbb
