#include "harness/archive/archive_merge.h"

#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>

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
  std::unique_ptr<ArchiveReader> reader;
  std::vector<RunInfo> runs;
};

void copy_invocation(hid_t from_file, const std::string& path, hid_t to_file,
                     const std::string& where) {
  auto from = h5::group(H5Gopen2(from_file, path.c_str(), H5P_DEFAULT), where);
  auto to = h5::create_group(to_file, path);
  for (const auto& name : h5::attribute_names(from.get(), where))
    h5::write_attribute(to.get(), name, h5::read_attribute(from.get(), name, where));
  for (const auto& name : h5::member_names(from.get(), where))
    h5::write_text_dataset(to.get(), name, h5::read_text_dataset(from.get(), name, where));
}

std::vector<std::string> invocation_names(hid_t file, const std::string& where) {
  if (H5Lexists(file, "invocations", H5P_DEFAULT) <= 0) return {};
  auto g = h5::group(H5Gopen2(file, "invocations", H5P_DEFAULT), where + ": /invocations");
  return h5::member_names(g.get(), where + ": /invocations");
}

// Runs copied wait here until about this many bytes of steps, then go out as run tables.
constexpr std::size_t kMergeBatchBytes = std::size_t{64} << 20;

void write_batch(hid_t out, std::vector<h5::StoredRun>& batch) {
  h5::write_run_tables(out, batch);
  batch.clear();
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
    next = h5::count_runs(reader.file(), output);
  }
  std::vector<Input> in;
  for (const auto& path : inputs) {
    auto reader = std::make_unique<ArchiveReader>(path);
    check_archive_structure(reader->file(), path);
    auto runs = reader->runs();
    in.push_back({path, std::move(reader), std::move(runs)});
  }
  commit_archive(
      output,
      [&](hid_t out) {
        std::vector<h5::StoredRun> batch;
        std::size_t batch_bytes = 0;
        for (const Input& input : in) {
          for (const auto& inv : invocation_names(input.reader->file(), input.path)) {
            const std::string path = "/invocations/" + inv;
            if (H5Lexists(out, "invocations", H5P_DEFAULT) > 0 &&
                H5Lexists(out, path.c_str(), H5P_DEFAULT) > 0)
              continue;
            copy_invocation(input.reader->file(), path, out, input.path + ":" + path);
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
            h5::StoredRun run = input.reader->read_run(r.id);
            char prefix[32];
            std::snprintf(prefix, sizeof prefix, "run-%05zu", next++);
            run.id = prefix + label_of(r.id);
            run.attributes["merged_from"] = input.path;
            run.attributes["source_run"] = r.id;
            for (const auto& c : run.columns) batch_bytes += c.bytes.size();
            batch.push_back(std::move(run));
            if (batch_bytes > kMergeBatchBytes) {
              write_batch(out, batch);
              batch_bytes = 0;
            }
            ++report.copied;
          }
        }
        write_batch(out, batch);
      },
      true);
  return report;
}

}  // namespace lbb
