#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <utility>
#include <variant>

#include "harness/archive/archive.h"

namespace lbb {

namespace {

constexpr unsigned kDeflateLevel = 4;

}  // namespace

// One dataset of the run: its table line, its width and the rows not yet committed.
struct RunWriter::Column {
  const DatasetSpec* spec;
  std::string name;
  std::size_t metric;  // index into StepRecord::metrics for metric/<name>
  hsize_t cols;        // 0: one-dimensional
  std::vector<unsigned char> pending;
};

namespace {

void append_bytes(std::vector<unsigned char>& out, const void* data, std::size_t bytes) {
  const auto* p = static_cast<const unsigned char*>(data);
  out.insert(out.end(), p, p + bytes);
}

// Appends a vector row of `width` elements; an empty vector (a record from an executor that
// does not measure it) is archived as zeros.
template <typename V>
void append_row(std::vector<unsigned char>& out, const std::vector<V>& row, hsize_t width,
                const std::string& name) {
  if (row.empty()) {
    out.insert(out.end(), width * sizeof(V), 0);
    return;
  }
  if (row.size() != width)
    throw std::logic_error(name + ": a row of " + std::to_string(row.size()) + ", expected " +
                           std::to_string(width));
  append_bytes(out, row.data(), width * sizeof(V));
}

h5::Handle make_dataset(hid_t group, const std::string& name, RecordType type, hsize_t cols) {
  const int rank = cols == 0 ? 1 : 2;
  hsize_t dims[2] = {0, cols};
  hsize_t maxdims[2] = {H5S_UNLIMITED, cols};
  // About 64 KiB of data a chunk at most.
  const hsize_t width = cols == 0 ? 1 : cols;
  hsize_t chunk[2] = {std::max<hsize_t>(1, std::min<hsize_t>(256, 8192 / width)), width};
  auto space = h5::dataspace(H5Screate_simple(rank, dims, maxdims), name);
  auto dcpl = h5::plist(H5Pcreate(H5P_DATASET_CREATE), name);
  h5::check(H5Pset_chunk(dcpl.get(), rank, chunk), "chunk " + name);
  if (H5Zfilter_avail(H5Z_FILTER_DEFLATE) > 0) {
    H5Pset_shuffle(dcpl.get());
    H5Pset_deflate(dcpl.get(), kDeflateLevel);
  }
  auto lcpl = h5::plist(H5Pcreate(H5P_LINK_CREATE), name);
  H5Pset_create_intermediate_group(lcpl.get(), 1);
  auto ftype = h5::file_type(type);
  return h5::dataset(H5Dcreate2(group, name.c_str(), ftype.get(), space.get(), lcpl.get(),
                                dcpl.get(), H5P_DEFAULT),
                     "create dataset " + name);
}

}  // namespace

RunWriter::RunWriter(ArchiveWriter& archive, std::string id, const RunLayout& layout)
    : archive_(archive), id_(std::move(id)), layout_(layout) {
  for (const DatasetSpec& spec : step_datasets()) {
    const hsize_t width = spec.shape == RecordShape::kStepsByProcessors ? layout.processors
                          : spec.shape == RecordShape::kStepsByModules  ? layout.modules
                          : spec.shape == RecordShape::kStepsByPhaseModules
                              ? hsize_t(layout.phases) * layout.modules
                              : 0;
    if (spec.shape == RecordShape::kStepsByModules && !layout.record_modules) continue;
    if (spec.shape == RecordShape::kStepsByPhaseModules &&
        (!layout.record_modules || layout.phases < 2))
      continue;
    if (std::holds_alternative<std::monostate>(spec.field)) {
      for (std::size_t k = 0; k < layout.metrics.size(); ++k)
        columns_.push_back({&spec, "metric/" + layout.metrics[k], k, 0, {}});
      continue;
    }
    columns_.push_back({&spec, std::string(spec.name), 0, width, {}});
  }
}

RunWriter::RunWriter(RunWriter&& o) noexcept
    : archive_(o.archive_),
      id_(std::move(o.id_)),
      uuid_(std::move(o.uuid_)),
      layout_(std::move(o.layout_)),
      columns_(std::move(o.columns_)),
      attributes_(std::move(o.attributes_)),
      rows_written_(o.rows_written_),
      rows_pending_(std::exchange(o.rows_pending_, 0)),
      created_(o.created_),
      ended_(o.ended_),
      kept_(true) {
  o.attributes_.clear();
}

RunWriter::~RunWriter() {
  const bool pending = !kept_ && (rows_pending_ > 0 || !attributes_.empty());
  try {
    if (pending && ended_) {  // its end is journaled: the next commit takes it (issue 16)
      if (archive_.ended_) archive_.commit();  // one ended run waits at a time
      if (archive_.active_ == this) archive_.active_ = nullptr;
      if (rows_pending_ > 0 || !attributes_.empty())
        archive_.ended_.reset(new RunWriter(std::move(*this)));
    } else if (pending) {
      archive_.commit();  // while it is still the active run, which the commit writes
    }
  } catch (const std::exception&) {
    // Destructors cannot report; the steps before the last commit are in the archive.
  }
  if (archive_.active_ == this) archive_.active_ = nullptr;
}

void RunWriter::set(const std::string& name, h5::Value value) {
  if (name == "run_uuid" && std::holds_alternative<std::string>(value))
    uuid_ = std::get<std::string>(value);
  attributes_[name] = std::move(value);
}

void RunWriter::set_text(const std::string& name, const std::string& value) {
  const AttributeSpec* a = find_run_attribute(name);
  if (!a || a->type != RecordType::kText)
    throw std::logic_error("run attribute " + name + " is not text in the archive schema");
  set(name, value);
}

void RunWriter::set_int(const std::string& name, std::int64_t value) {
  const AttributeSpec* a = find_run_attribute(name);
  if (!a || a->type != RecordType::kInt64)
    throw std::logic_error("run attribute " + name + " is not int64 in the archive schema");
  set(name, value);
}

void RunWriter::set_real(const std::string& name, double value) {
  const AttributeSpec* a = find_run_attribute(name);
  if (a && a->type != RecordType::kFloat64)
    throw std::logic_error("run attribute " + name + " is not float64 in the archive schema");
  set(name, value);  // a name not in the table: a figure the workload declares
}

void RunWriter::on_step(const StepRecord& r) {
  for (Column& c : columns_) {
    std::visit(
        [&](auto field) {
          using F = decltype(field);
          if constexpr (std::is_same_v<F, std::monostate>) {
            append_bytes(c.pending, &r.metrics.at(c.metric), sizeof(double));
          } else if constexpr (std::is_same_v<F, double StepRecord::*> ||
                               std::is_same_v<F, std::int64_t StepRecord::*>) {
            append_bytes(c.pending, &(r.*field), sizeof(r.*field));
          } else {
            append_row(c.pending, r.*field, c.cols, c.name);
          }
        },
        c.spec->field);
  }
  ++rows_pending_;
  if (created_) {
    journal_row();
    archive_.commit_when_due();
  } else {
    archive_.commit(false);  // creates the run's group, which the journal's records name
  }
  if (archive_.step_log_ >= 0) {
    const std::string line = id_ + " " + std::to_string(rows_written_ + rows_pending_ - 1) + "\n";
    if (::write(archive_.step_log_, line.data(), line.size()) < 0) {
      // The log only reports progress; the step itself is safe.
    }
  }
}

void RunWriter::journal_row() {
  JournalWriter& journal = archive_.journal_;
  journal.begin(id_, uuid_, rows_written_ + rows_pending_ - 1,
                static_cast<std::uint32_t>(columns_.size()));
  for (const Column& c : columns_) {
    const std::size_t bytes = c.pending.size() / rows_pending_;  // the row just buffered
    journal.column(c.name, c.spec->type, c.cols, c.pending.data() + c.pending.size() - bytes,
                   bytes);
  }
  journal.append();
}

void RunWriter::flush() {
  archive_.commit();
}

void RunWriter::end() {
  if (!created_) {  // no journal record names the run yet: nothing to recover it by
    archive_.commit();
    return;
  }
  JournalWriter& journal = archive_.journal_;
  journal.begin(id_, uuid_, kEndRow, static_cast<std::uint32_t>(attributes_.size()));
  for (const auto& [name, value] : attributes_) {
    if (const auto* text = std::get_if<std::string>(&value))
      journal.column(name, RecordType::kText, 0, text->data(), text->size());
    else if (const auto* i = std::get_if<std::int64_t>(&value))
      journal.column(name, RecordType::kInt64, 0, i, sizeof *i);
    else
      journal.column(name, RecordType::kFloat64, 0, &std::get<double>(value), sizeof(double));
  }
  journal.append();
  ended_ = true;
  if (archive_.step_log_ >= 0) {
    const std::string line = id_ + " end\n";
    if (::write(archive_.step_log_, line.data(), line.size()) < 0) {
      // The log only reports progress; the run's end itself is safe.
    }
  }
}

void RunWriter::write_pending(hid_t file) {
  const std::string path = "/runs/" + id_;
  if (!created_) {
    auto lcpl = h5::plist(H5Pcreate(H5P_LINK_CREATE), "lcpl");
    H5Pset_create_intermediate_group(lcpl.get(), 1);
    h5::group(H5Gcreate2(file, path.c_str(), lcpl.get(), H5P_DEFAULT, H5P_DEFAULT),
              "create run group " + id_);
  }
  auto group = h5::group(H5Gopen2(file, path.c_str(), H5P_DEFAULT), "open run group " + id_);
  if (!created_)
    for (const Column& c : columns_) make_dataset(group.get(), c.name, c.spec->type, c.cols);
  for (const auto& [name, value] : attributes_) h5::write_attribute(group.get(), name, value);
  if (rows_pending_ > 0)
    for (const Column& c : columns_)
      h5::append_rows(group.get(), c.name, c.spec->type, c.cols, rows_written_, rows_pending_,
                      c.pending.data());
}

void RunWriter::mark_committed() {
  rows_written_ += rows_pending_;
  rows_pending_ = 0;
  for (auto& c : columns_) c.pending.clear();
  attributes_.clear();
  created_ = true;
}

ArchiveWriter::ArchiveWriter(const std::string& path, InvocationRecord invocation)
    : path_(path), invocation_(std::move(invocation)) {
  h5::silence_library_errors();
  namespace fs = std::filesystem;
  std::error_code ec;
  if (auto parent = fs::path(path).parent_path(); !parent.empty())
    fs::create_directories(parent, ec);
  if (fs::exists(fs::symlink_status(path, ec))) {
    if (!fs::is_regular_file(fs::symlink_status(path, ec)))
      throw ArchiveError(path + ": not a regular file (refusing to touch it)");
    if (H5Fis_hdf5(path.c_str()) <= 0)
      throw ArchiveError(path + ": not an HDF5 file (refusing to touch it)");
  }
  lock_ = ArchiveLock(path);
  check_output_archive(path);
  if (fs::exists(path)) {
    h5::Handle file(open_archive_read_only(path), H5Fclose);
    auto runs = h5::group(H5Gopen2(file.get(), "runs", H5P_DEFAULT), path + ": open /runs");
    H5G_info_t info;
    h5::check(H5Gget_info(runs.get(), &info), path + ": count runs");
    next_run_ = info.nlinks;
  }
  if (const char* s = std::getenv("LBB_ARCHIVE_COMMIT_SECONDS")) interval_ = std::atof(s);
  recovered_ = fold_journal(path);
  commit();
  journal_ = JournalWriter(path);
  if (const char* log = std::getenv("LBB_STEP_LOG"); log && *log)
    step_log_ = ::open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
}

ArchiveWriter::~ArchiveWriter() {
  try {
    finish();
  } catch (const std::exception&) {
    // The ended run's records stay in the journal, which the next writer folds in.
  }
  if (step_log_ >= 0) ::close(step_log_);
}

void ArchiveWriter::finish() {
  if (ended_) commit();
}

std::unique_ptr<RunWriter> ArchiveWriter::begin_run(const RunLayout& layout) {
  std::string safe;
  for (char c : layout.label)
    safe += (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.' || c == '=' ||
             c == '+' || c == ',')
                ? c
                : '_';
  char prefix[32];
  std::snprintf(prefix, sizeof prefix, "run-%05zu", next_run_++);
  auto run = std::make_unique<RunWriter>(
      *this, std::string(prefix) + (safe.empty() ? "" : "-" + safe), layout);
  active_ = run.get();
  return run;
}

void ArchiveWriter::commit(bool durable) {
  const auto start = std::chrono::steady_clock::now();
  commit_archive(
      path_,
      [&](hid_t file) {
        if (!invocation_.id.empty()) {
          const std::string group = "/invocations/" + invocation_.id;
          if (H5Lexists(file, "invocations", H5P_DEFAULT) <= 0 ||
              H5Lexists(file, group.c_str(), H5P_DEFAULT) <= 0) {
            auto lcpl = h5::plist(H5Pcreate(H5P_LINK_CREATE), "lcpl");
            H5Pset_create_intermediate_group(lcpl.get(), 1);
            auto g =
                h5::group(H5Gcreate2(file, group.c_str(), lcpl.get(), H5P_DEFAULT, H5P_DEFAULT),
                          "create " + group);
            for (const auto& [name, value] : invocation_.attributes) {
              const RecordType type = std::holds_alternative<std::string>(value) ? RecordType::kText
                                      : std::holds_alternative<std::int64_t>(value)
                                          ? RecordType::kInt64
                                          : RecordType::kFloat64;
              const auto table = invocation_attributes();
              // A named copy: clang 14 cannot capture a structured binding in a lambda.
              const std::string& key = name;
              if (std::none_of(table.begin(), table.end(), [&](const AttributeSpec& a) {
                    return a.name == key && a.type == type && !a.as_dataset;
                  }))
                throw std::logic_error("invocation attribute " + name + " is not in the schema");
              h5::write_attribute(g.get(), name, value);
            }
            h5::write_text_dataset(g.get(), "hwloc_topology", invocation_.hwloc_xml);
          }
        }
        if (ended_) ended_->write_pending(file);
        if (active_) active_->write_pending(file);
      },
      durable);
  ended_.reset();
  if (active_) active_->mark_committed();
  journal_.clear();
  ++commits_;
  last_commit_ = std::chrono::steady_clock::now();
  last_commit_cost_ = std::chrono::duration<double>(last_commit_ - start).count();
}

void ArchiveWriter::commit_when_due() {
  const double since =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - last_commit_).count();
  if (interval_ <= 0 || since >= std::max(interval_, 20 * last_commit_cost_)) commit(false);
}

}  // namespace lbb
