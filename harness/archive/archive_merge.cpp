#include "harness/archive/archive_merge.h"

#include <cstdio>
#include <filesystem>
#include <map>

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

void copy_object(hid_t from, const std::string& src, hid_t to, const std::string& dst) {
  auto lcpl = h5::plist(H5Pcreate(H5P_LINK_CREATE), "lcpl");
  H5Pset_create_intermediate_group(lcpl.get(), 1);
  h5::check(H5Ocopy(from, src.c_str(), to, dst.c_str(), H5P_DEFAULT, lcpl.get()),
            "copy " + src + " to " + dst);
}

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

}  // namespace

MergeReport merge_archives(const std::string& output, const std::vector<std::string>& inputs) {
  h5::silence_library_errors();
  ArchiveLock lock(output);
  check_output_archive(output);
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
  MergeReport report;
  commit_archive(
      output,
      [&](hid_t out) {
        for (const Input& input : in) {
          for (const auto& inv : child_names(input.file.get(), "invocations")) {
            const std::string path = "/invocations/" + inv;
            if (H5Lexists(out, "invocations", H5P_DEFAULT) > 0 &&
                H5Lexists(out, path.c_str(), H5P_DEFAULT) > 0)
              continue;
            copy_object(input.file.get(), path, out, path);
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
            copy_object(input.file.get(), "/runs/" + r.id, out, "/runs/" + id);
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
