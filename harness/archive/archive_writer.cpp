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

// One dataset of the run: its table line and its width. Its rows not yet committed are the tail
// of its run table's column (RunWriter::buffer), or `own` once the run is detached from it.
struct RunWriter::Column {
  const DatasetSpec* spec;
  std::string name;
  std::size_t metric;  // index into StepRecord::metrics for metric/<name>
  hsize_t cols;        // 0: one-dimensional
  std::vector<unsigned char> own;
  std::size_t row_bytes() const;  // a step's bytes
  // The record's row fits: a row of its width (or none: zeros), its metric present. Else throws
  // std::logic_error saying why (`where` names the run).
  void check(const StepRecord& r, const std::string& where) const;
  bool fits(const StepRecord& r) const;
  void append(std::vector<unsigned char>& out, std::span<const StepRecord> records) const;
};

namespace {

void append_bytes(std::vector<unsigned char>& out, const void* data, std::size_t bytes) {
  const auto* p = static_cast<const unsigned char*>(data);
  out.insert(out.end(), p, p + bytes);
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
  std::vector<h5::RunTable::ColumnLayout> table_layout;
  for (const Column& c : columns_) table_layout.push_back({c.name, c.spec->type, c.cols});
  table_ = &archive_.table_for(std::move(table_layout));
  table_row_ = table_->open_run();
}

std::vector<unsigned char>& RunWriter::buffer(std::size_t k) {
  return detached_ ? columns_[k].own : table_->column_bytes(k);
}

const unsigned char* RunWriter::pending_rows(std::size_t k, std::int64_t from) {
  return buffer(k).data() + (table_row_ + from) * columns_[k].row_bytes();
}

// Its pending rows move from its table's tail into its own buffers (a run written across commits
// that ended: the table takes the next run's rows, and the commit writes these to its group).
void RunWriter::detach() {
  if (detached_) return;
  for (std::size_t k = 0; k < columns_.size(); ++k) {
    std::vector<unsigned char>& tail = table_->column_bytes(k);
    const std::size_t at = table_row_ * columns_[k].row_bytes();
    columns_[k].own.assign(tail.begin() + static_cast<std::ptrdiff_t>(at), tail.end());
    tail.resize(at);
  }
  detached_ = true;
  table_row_ = 0;  // its rows start its own buffers
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
      journaled_(o.journaled_),
      ended_(o.ended_),
      kept_(true),
      tabled_(o.tabled_),
      detached_(o.detached_),
      table_(o.table_),
      table_row_(o.table_row_) {
  o.attributes_.clear();
}

RunWriter::~RunWriter() {
  const bool pending = !kept_ && (rows_pending_ > 0 || !attributes_.empty());
  try {
    if (pending && ended_) {  // its end is journaled: the next commit takes it (issue 16)
      if (archive_.active_ == this) archive_.active_ = nullptr;
      if (created_) {
        detach();
        archive_.ended_.emplace_back(new RunWriter(std::move(*this)));
      } else {
        hand_to_table();
      }
      if (archive_.journal_.bytes() > ArchiveWriter::kMaxPendingBytes) archive_.commit(false);
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
  on_steps({&r, 1});
}

void RunWriter::on_steps(std::span<const StepRecord> records) {
  const std::int64_t first = rows_written_ + rows_pending_;
  const std::int64_t buffered = rows_pending_;
  // A burst's rows in one allocation a column, and step-by-step rows by doubling: reserving the
  // exact size every step copied the buffer every step (seed002's 1000 steps of 512 processors).
  for (std::size_t k = 0; k < columns_.size(); ++k) {
    std::vector<unsigned char>& rows = buffer(k);
    if (const std::size_t need = rows.size() + records.size() * columns_[k].row_bytes();
        need > rows.capacity())
      rows.reserve(std::max(need, 2 * rows.capacity()));
  }
  // Column by column, a column's type dispatched once a burst; the rows before one that does
  // not fit are buffered and journaled, that one is refused.
  const std::size_t fit = fitting(records);
  try {
    for (std::size_t k = 0; k < columns_.size(); ++k)
      columns_[k].append(buffer(k), records.first(fit));
  } catch (...) {  // out of memory: every column back to the rows before the burst
    for (std::size_t k = 0; k < columns_.size(); ++k)
      buffer(k).resize((table_row_ + rows_pending_) * columns_[k].row_bytes());
    throw;
  }
  rows_pending_ += static_cast<std::int64_t>(fit);
  journal_rows(buffered);
  if (fit < records.size())
    for (const Column& c : columns_) c.check(records[fit], id_);
  archive_.commit_when_due();  // after the journal: a commit empties it
  if (archive_.step_log_ < 0) return;
  std::string lines;
  for (std::size_t k = 0; k < records.size(); ++k)
    lines += id_ + " " + std::to_string(first + static_cast<std::int64_t>(k)) + "\n";
  if (::write(archive_.step_log_, lines.data(), lines.size()) < 0) {
    // The log only reports progress; the steps themselves are safe.
  }
}

std::size_t RunWriter::Column::row_bytes() const {
  return row_values(cols) * record_type_bytes(spec->type);
}

bool RunWriter::Column::fits(const StepRecord& r) const {
  return std::visit(
      [&](auto field) {
        using F = decltype(field);
        if constexpr (std::is_same_v<F, std::monostate>)
          return metric < r.metrics.size();
        else if constexpr (std::is_same_v<F, double StepRecord::*> ||
                           std::is_same_v<F, std::int64_t StepRecord::*>)
          return true;
        else
          return (r.*field).empty() || (r.*field).size() == row_values(cols);
      },
      spec->field);
}

void RunWriter::Column::check(const StepRecord& r, const std::string& where) const {
  if (fits(r)) return;
  if (std::holds_alternative<std::monostate>(spec->field))
    throw std::logic_error(where + ": " + name + ": a step record without this metric");
  throw std::logic_error(where + ": " + name + ": a row of another width than " +
                         std::to_string(row_values(cols)));
}

// Each record's row, one after another (`records` fit: fitting()); an empty vector (a record
// from an executor that does not measure it) is archived as zeros.
void RunWriter::Column::append(std::vector<unsigned char>& out,
                               std::span<const StepRecord> records) const {
  std::visit(
      [&](auto field) {
        using F = decltype(field);
        for (const StepRecord& r : records) {
          if constexpr (std::is_same_v<F, std::monostate>) {
            append_bytes(out, &r.metrics[metric], sizeof(double));
          } else if constexpr (std::is_same_v<F, double StepRecord::*> ||
                               std::is_same_v<F, std::int64_t StepRecord::*>) {
            append_bytes(out, &(r.*field), sizeof(r.*field));
          } else if ((r.*field).empty()) {
            out.insert(out.end(), row_bytes(), 0);
          } else {
            append_bytes(out, (r.*field).data(), row_bytes());
          }
        }
      },
      spec->field);
}

// How many records, from the first, fit every column; none after the run's end.
std::size_t RunWriter::fitting(std::span<const StepRecord> records) const {
  // Its datasets may be committed at their final size once it ended (write_pending).
  if (ended_) throw std::logic_error(id_ + ": a step after the run's end");
  for (std::size_t i = 0; i < records.size(); ++i)
    for (const Column& c : columns_)
      if (!c.fits(records[i])) return i;
  return records.size();
}

// Journals the rows buffered from pending row `from` on: one record (one write(2)) for up to
// kJournalRecordBytes of them, where a record a step would repeat every column's name.
void RunWriter::journal_rows(std::int64_t from) {
  if (from == rows_pending_) return;
  if (!created_ && !journaled_) journal_header();  // the run is in neither file yet
  std::size_t row_bytes = 0;
  for (const Column& c : columns_) row_bytes += c.row_bytes();
  const std::int64_t per_record =
      std::max<std::int64_t>(1, kJournalRecordBytes / std::max<std::size_t>(1, row_bytes));
  JournalWriter& journal = archive_.journal_;
  for (std::int64_t at = from; at < rows_pending_; at += per_record) {
    const std::int64_t rows = std::min(per_record, rows_pending_ - at);
    journal.begin(id_, uuid_, rows_written_ + at, static_cast<std::uint32_t>(columns_.size()),
                  static_cast<std::uint32_t>(rows));
    for (std::size_t k = 0; k < columns_.size(); ++k) {
      const Column& c = columns_[k];
      journal.column(c.name, c.spec->type, c.cols, pending_rows(k, at), rows * c.row_bytes());
    }
    journal.append();
  }
}

// The run's header (step_journal.h): its datasets, empty, and the attributes set so far, from
// which recovery creates the run when the archive lacks it.
void RunWriter::journal_header() {
  JournalWriter& journal = archive_.journal_;
  journal.begin(id_, uuid_, kHeaderRow,
                static_cast<std::uint32_t>(columns_.size() + attributes_.size()));
  for (const Column& c : columns_) journal.column(c.name, c.spec->type, c.cols, nullptr, 0);
  journal_attributes();
  journal.append();
  journaled_ = true;
}

void RunWriter::journal_attributes() {
  JournalWriter& journal = archive_.journal_;
  for (const auto& [name, value] : attributes_) {
    if (const auto* text = std::get_if<std::string>(&value))
      journal.column(name, RecordType::kText, 0, text->data(), text->size());
    else if (const auto* i = std::get_if<std::int64_t>(&value))
      journal.column(name, RecordType::kInt64, 0, i, sizeof *i);
    else
      journal.column(name, RecordType::kFloat64, 0, &std::get<double>(value), sizeof(double));
  }
}

void RunWriter::flush() {
  archive_.commit();
}

void RunWriter::end() {
  if (!created_ && !journaled_) journal_header();  // a run without steps
  JournalWriter& journal = archive_.journal_;
  journal.begin(id_, uuid_, kEndRow, static_cast<std::uint32_t>(attributes_.size()));
  journal_attributes();
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
  auto group = created_
                   ? h5::group(H5Gopen2(file, path.c_str(), H5P_DEFAULT), "open run group " + id_)
                   : h5::create_run_group(file, id_);
  // A group made by this commit has no attribute to replace.
  for (const auto& [name, value] : attributes_)
    h5::write_attribute(group.get(), name, value, created_);
  if (!created_)
    for (const Column& c : columns_)
      h5::create_step_dataset(group.get(), c.name, c.spec->type, c.cols);
  if (rows_pending_ > 0)
    for (std::size_t k = 0; k < columns_.size(); ++k) {
      const Column& c = columns_[k];
      h5::append_rows(group.get(), c.name, c.spec->type, c.cols, rows_written_, rows_pending_,
                      pending_rows(k, 0));
    }
}

void RunWriter::hand_to_table() {
  table_->close_run(id_, std::move(attributes_), static_cast<hsize_t>(rows_pending_));
  tabled_ = true;
  rows_pending_ = 0;
  attributes_.clear();
}

// Its pending rows are in the archive: its own buffers are emptied, and its table's tail with
// the others' rows after the commit (ArchiveWriter::commit).
void RunWriter::mark_committed() {
  rows_written_ += rows_pending_;
  rows_pending_ = 0;
  for (auto& c : columns_) c.own.clear();
  table_row_ = 0;
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
  if (const char* s = std::getenv("LBB_ARCHIVE_COMMIT_SECONDS")) interval_ = std::atof(s);
  recovered_ = fold_journal(path);  // before counting the runs: it may add some
  const bool existed = fs::exists(path);
  if (existed) {
    h5::Handle file(open_archive_read_only(path), H5Fclose);
    next_run_ = h5::count_runs(file.get(), path);
  }
  // Replacing an archive must survive a power loss; creating one risks only this empty file.
  commit(existed);
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
  if (!ended_.empty() ||
      std::any_of(tables_.begin(), tables_.end(), [](const auto& t) { return t->runs() > 0; }))
    commit();
}

h5::RunTable& ArchiveWriter::table_for(std::vector<h5::RunTable::ColumnLayout> layout) {
  for (const auto& table : tables_)
    if (table->fits(layout)) return *table;
  return *tables_.emplace_back(std::make_unique<h5::RunTable>(std::move(layout)));
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
  // Ended, never written: a row of a run table, handed over before the edit so that a failed
  // commit cannot hand it over twice.
  if (active_ && active_->ended_ && !active_->created_ && !active_->tabled_)
    active_->hand_to_table();
  commit_archive(
      path_,
      [&](hid_t file) {
        if (!invocation_.id.empty()) {
          const std::string group = "/invocations/" + invocation_.id;
          if (H5Lexists(file, "invocations", H5P_DEFAULT) <= 0 ||
              H5Lexists(file, group.c_str(), H5P_DEFAULT) <= 0) {
            auto g = h5::create_group(file, group);
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
        for (const auto& run : ended_) run->write_pending(file);
        if (active_ && !active_->tabled_) active_->write_pending(file);
        for (const auto& table : tables_)
          if (table->runs() > 0) table->write(file);
      },
      durable);
  ended_.clear();
  // Every row is in the archive now, the active run's too. A layout no run ended in since the
  // last commit gives its memory back; the others keep theirs for the next commit's rows.
  for (const auto& table : tables_) table->clear(table->runs() == 0);
  if (active_ && !active_->tabled_) active_->mark_committed();
  journal_.clear();
  ++commits_;
  last_commit_ = std::chrono::steady_clock::now();
  if (durable) last_durable_ = last_commit_;
  last_commit_cost_ = std::chrono::duration<double>(last_commit_ - start).count();
}

void ArchiveWriter::commit_when_due() {
  const auto now = std::chrono::steady_clock::now();
  const double since = std::chrono::duration<double>(now - last_commit_).count();
  if (interval_ <= 0 || since >= std::max(interval_, 20 * last_commit_cost_) ||
      journal_.bytes() > kMaxPendingBytes)
    commit(std::chrono::duration<double>(now - last_durable_).count() >= kDurableSeconds);
}

}  // namespace lbb
