#include "harness/archive/archive_merge.h"

#include <cstdio>
#include <filesystem>
#include <map>
#include <optional>

#include "harness/archive/archive.h"

namespace lbb {

namespace {

// What makes two archived runs the same run.
std::string identity(const RunInfo& r) {
  if (auto it = r.text.find("run_uuid"); it != r.text.end()) return "uuid:" + it->second;
  auto text = [&](const char* k) {
    auto it = r.text.find(k);
    return it == r.text.end() ? std::string() : it->second;
  };
  auto rep = r.number.find("repetition");
  return "run:" + text("config_yaml") + "|" +
         std::to_string(rep == r.number.end() ? -1.0 : rep->second) + "|" + text("host") + "|" +
         text("started");
}

// "run-00012-cyclic" -> "-cyclic": the label part of a run id.
std::string label_of(const std::string& id) {
  if (id.rfind("run-", 0) != 0) return "-" + id;
  std::size_t i = 4;
  while (i < id.size() && std::isdigit(static_cast<unsigned char>(id[i]))) ++i;
  return id.substr(i);
}

struct Input {
  std::string path;
  h5::Handle file;
  std::vector<RunInfo> runs;
};

std::vector<std::string> child_names(hid_t file, const char* group) {
  std::vector<std::string> names;
  if (H5Lexists(file, group, H5P_DEFAULT) <= 0) return names;
  auto g = h5::group(H5Gopen2(file, group, H5P_DEFAULT), group);
  H5Literate(
      g.get(), H5_INDEX_NAME, H5_ITER_INC, nullptr,
      [](hid_t, const char* name, const H5L_info_t*, void* out) -> herr_t {
        static_cast<std::vector<std::string>*>(out)->push_back(name);
        return 0;
      },
      &names);
  return names;
}

// Objects are copied value by value, not with H5Ocopy: HDF5 1.10.8's H5Ocopy crashes on a group
// whose variable-length string attributes are stored densely (seen here on every run group of
// an archive with more than 8 attributes), and reading each value through the checked readers
// keeps a hostile input from reaching HDF5's copy code at all.
void copy_attributes(hid_t from, hid_t to, const std::string& where) {
  std::vector<std::string> names;
  if (H5Aiterate2(
          from, H5_INDEX_NAME, H5_ITER_INC, nullptr,
          [](hid_t, const char* name, const H5A_info_t*, void* out) -> herr_t {
            static_cast<std::vector<std::string>*>(out)->push_back(name);
            return 0;
          },
          &names) < 0)
    throw h5::Error(where + ": cannot list the attributes");
  for (const auto& name : names)
    h5::write_attribute(to, name, h5::read_attribute(from, name, where));
}

constexpr hsize_t kMaxElements = hsize_t{1} << 28;

// The record type a copied dataset holds, where its memory type is that type's exactly.
std::optional<RecordType> record_type_of(const std::string& column, hid_t native) {
  const DatasetSpec* spec = find_step_dataset(column);
  if (!spec || spec->type == RecordType::kText) return std::nullopt;
  if (H5Tequal(native, h5::memory_type(spec->type)) <= 0) return std::nullopt;
  return spec->type;
}

// Copies `sub`/`name` of a run into `to_run`'s subgroup `to`; a constant one equal to one copied
// before is linked to it, as the writer links them (h5::ConstantDatasets). A finished run's
// dataset (fixed-size) is written as the writer writes it, compact or deflated by libdeflate:
// through HDF5's own deflate filter, seed000's two slices merged took 20.0 MB, their files 18.0.
void copy_dataset(hid_t from, hid_t to_run, hid_t to, const std::string& sub,
                  const std::string& name, h5::ConstantDatasets& constants,
                  const std::string& where) {
  auto d = h5::dataset(H5Dopen2(from, name.c_str(), H5P_DEFAULT), where + ": cannot open");
  auto type = h5::datatype(H5Dget_type(d.get()), where);
  auto native = h5::datatype(H5Tget_native_type(type.get(), H5T_DIR_ASCEND), where);
  auto space = h5::dataspace(H5Dget_space(d.get()), where);
  const hssize_t n = H5Sget_simple_extent_npoints(space.get());
  if (n < 0 || static_cast<hsize_t>(n) > kMaxElements)
    throw h5::Error(where + ": too large to be an lbbench dataset");
  std::vector<unsigned char> data(static_cast<std::size_t>(n) * H5Tget_size(native.get()));
  if (n > 0)
    h5::check(H5Dread(d.get(), native.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, data.data()),
              where + ": cannot read");
  const std::string column = sub + "/" + name;
  const std::optional<RecordType> kind = record_type_of(column, native.get());
  hsize_t dims[2] = {0, 0}, maxdims[2] = {0, 0};
  const int rank = H5Sget_simple_extent_dims(space.get(), dims, maxdims);
  const hsize_t rows = dims[0], cols = rank == 2 ? dims[1] : 0;
  if (kind && (rank == 1 || (rank == 2 && cols > 0)) && maxdims[0] == rows)
    return h5::write_final_step_dataset(to_run, column, *kind, cols, rows, data.data(), &constants);
  if (kind && (rank == 1 || rank == 2))
    if (const hid_t equal = constants.find(column, *kind, cols, rows, data.data()); equal >= 0) {
      h5::check(H5Olink(equal, to, name.c_str(), H5P_DEFAULT, H5P_DEFAULT),
                where + ": cannot link the copy");
      return;
    }
  auto dcpl = h5::plist(H5Dget_create_plist(d.get()), where);
  auto copy = h5::dataset(
      H5Dcreate2(to, name.c_str(), type.get(), space.get(), H5P_DEFAULT, dcpl.get(), H5P_DEFAULT),
      where + ": cannot create the copy");
  if (n > 0)
    h5::check(H5Dwrite(copy.get(), native.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, data.data()),
              where + ": cannot write the copy");
  if (kind && (rank == 1 || rank == 2))
    constants.remember(column, *kind, cols, rows, data.data(), std::move(copy));
}

// A run group as check_archive_structure allows it: attributes and groups of datasets.
void copy_run(hid_t from_file, const std::string& src, hid_t to_file, const std::string& id,
              h5::ConstantDatasets& constants, const std::string& where) {
  auto from = h5::group(H5Gopen2(from_file, src.c_str(), H5P_DEFAULT), where);
  auto to = h5::create_run_group(to_file, id);
  copy_attributes(from.get(), to.get(), where);
  for (const auto& sub : child_names(from_file, src.c_str())) {
    auto from_sub = h5::group(H5Gopen2(from.get(), sub.c_str(), H5P_DEFAULT), where);
    auto to_sub = h5::create_run_subgroup(to.get(), sub);
    for (const auto& name : child_names(from.get(), sub.c_str()))
      copy_dataset(from_sub.get(), to.get(), to_sub.get(), sub, name, constants,
                   where + "/" + sub + "/" + name);
  }
}

void copy_invocation(hid_t from_file, const std::string& path, hid_t to_file,
                     const std::string& where) {
  auto from = h5::group(H5Gopen2(from_file, path.c_str(), H5P_DEFAULT), where);
  auto to = h5::create_group(to_file, path);
  copy_attributes(from.get(), to.get(), where);
  for (const auto& name : child_names(from_file, path.c_str()))
    h5::write_text_dataset(to.get(), name, h5::read_text_dataset(from.get(), name, where));
}

}  // namespace

MergeReport merge_archives(const std::string& output, const std::vector<std::string>& inputs) {
  h5::silence_library_errors();
  ArchiveLock lock(output);
  check_output_archive(output);
  MergeReport report;
  report.journal = fold_journal(output);
  std::map<std::string, std::string> seen;  // identity -> where
  std::size_t next = 0;
  if (std::filesystem::exists(output)) {
    ArchiveReader reader(output);
    for (const auto& r : reader.runs()) seen[identity(r)] = output + ":" + r.id;
    next = child_names(reader.file(), "runs").size();
  }
  std::vector<Input> in;
  for (const auto& path : inputs) {
    ArchiveReader reader(path);
    check_archive_structure(reader.file(), path);
    in.push_back({path, h5::Handle(open_archive_read_only(path), H5Fclose), reader.runs()});
  }
  commit_archive(
      output,
      [&](hid_t out) {
        h5::ConstantDatasets constants;
        for (const Input& input : in) {
          for (const auto& inv : child_names(input.file.get(), "invocations")) {
            const std::string path = "/invocations/" + inv;
            if (H5Lexists(out, "invocations", H5P_DEFAULT) > 0 &&
                H5Lexists(out, path.c_str(), H5P_DEFAULT) > 0)
              continue;
            copy_invocation(input.file.get(), path, out, input.path + ":" + path);
            ++report.invocations;
          }
          for (const RunInfo& r : input.runs) {
            const std::string where = input.path + ":" + r.id;
            auto [it, fresh] = seen.emplace(identity(r), where);
            if (!fresh) {
              report.duplicates.push_back(where + " is the same run as " + it->second +
                                          ": not copied again");
              continue;
            }
            char prefix[32];
            std::snprintf(prefix, sizeof prefix, "run-%05zu", next++);
            const std::string id = prefix + label_of(r.id);
            copy_run(input.file.get(), "/runs/" + r.id, out, id, constants, where);
            auto g = h5::group(H5Gopen2(out, ("/runs/" + id).c_str(), H5P_DEFAULT), id);
            h5::write_attribute(g.get(), "merged_from", input.path);
            h5::write_attribute(g.get(), "source_run", r.id);
            ++report.copied;
          }
        }
      },
      true);
  return report;
}

}  // namespace lbb
