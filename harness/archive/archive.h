#pragma once
// The HDF5 archive (contract in docs/ARCHITECTURE.md, records in archive_schema.h): one file,
// many runs, as rows of run tables /tables/<table-id> (run_tables.h) or, written across
// commits, /runs/<run-id> groups with attributes and per-step datasets; /invocations/<id>
// with the provenance of each invocation. Writing only ever adds: an existing run is never
// rewritten, and every change reaches the path by an atomic rename (archive_file.h), so the
// path always holds a complete archive, whenever the writer is killed.
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "harness/archive/archive_file.h"
#include "harness/archive/h5_records.h"
#include "harness/archive/journal_recovery.h"
#include "harness/archive/run_tables.h"
#include "harness/archive/step_journal.h"
#include "harness/step_record.h"

namespace lbb {

// Every failure to read or write an archive, HDF5's own included.
using ArchiveError = h5::Error;

struct RunLayout {
  std::string label;  // becomes part of the run id
  int processors = 1;
  int modules = 1;
  bool record_modules = false;
  std::vector<std::string> metrics;  // workload step metrics, one dataset each under metric/
  int phases = 1;                    // > 1: module/phase_* too, when record_modules
};

// Provenance stored once per invocation under /invocations/<id>.
struct InvocationRecord {
  std::string id;
  std::vector<std::pair<std::string, h5::Value>> attributes;  // names: invocation_attributes()
  std::string hwloc_xml;
};

class ArchiveWriter;

// One run's records, held in memory until the archive commits them (at most one commit interval
// later, or at flush()). Until then the run's header (at its first step), each step's rows and
// its end are in the archive's step journal (step_journal.h), so a kill loses no finished step.
class RunWriter final : public StepSink {
 public:
  RunWriter(ArchiveWriter& archive, std::string id, const RunLayout& layout);
  ~RunWriter() override;  // commits what is left
  const std::string& id() const { return id_; }

  // Attribute names and types come from run_attributes(); a name not in that table is refused
  // (std::logic_error), except by set_real: the workload's own figures.
  void set_text(const std::string& name, const std::string& value);
  void set_int(const std::string& name, std::int64_t value);
  void set_real(const std::string& name, double value);
  void on_step(const StepRecord& record) override;  // buffers and journals a row; commits when due
  // The same, their rows in one journal record (one write(2)) up to kJournalRecordBytes.
  void on_steps(std::span<const StepRecord> records) override;
  static constexpr std::size_t kJournalRecordBytes = std::size_t{16} << 20;
  void flush();  // commits now
  // The run's end: journals the attributes set since the last commit as its end record, and
  // leaves them, with any step rows not yet committed, to the archive's next commit (a due
  // commit or ArchiveWriter::finish()). No attribute may be set after it.
  void end();  // LBB_STEP_LOG gets "<run-id> end" once it is in the journal

 private:
  friend class ArchiveWriter;
  struct Column;
  RunWriter(RunWriter&& o) noexcept;  // the archive keeps an ended run's uncommitted records
  // Writes what changed since the last commit into the archive's new version `file`; once
  // that version is in place, forgets it.
  void write_pending(hid_t file);  // into its /runs group: a run written across commits
  void hand_to_table();  // its rows and attributes become its run table's row; nothing left
  void detach();         // its pending rows into its own buffers, out of its table's tail
  std::vector<unsigned char>& buffer(std::size_t k);  // where column k's pending rows grow
  const unsigned char* pending_rows(std::size_t k, std::int64_t from);
  void mark_committed();
  std::size_t fitting(std::span<const StepRecord> records) const;
  void journal_rows(std::int64_t from);
  void journal_header();
  void journal_attributes();
  void set(const std::string& name, h5::Value value);
  ArchiveWriter& archive_;
  std::string id_, uuid_;
  RunLayout layout_;
  std::vector<Column> columns_;
  std::map<std::string, h5::Value> attributes_;  // changed since the last commit
  std::int64_t rows_written_ = 0, rows_pending_ = 0;
  bool created_ = false;           // the archive holds its group
  bool journaled_ = false;         // the journal holds its header record
  bool ended_ = false;             // its end is in the journal
  bool kept_ = false;              // the archive's copy of an ended run (ArchiveWriter::ended_)
  bool tabled_ = false;            // handed to a pending run table (hand_to_table)
  bool detached_ = false;          // its pending rows in Column::own, not its table's tail
  h5::RunTable* table_ = nullptr;  // the archive's pending table of its layout
  hsize_t table_row_ = 0;          // buffer()'s row where its pending rows start
};

class ArchiveWriter {
 public:
  // Takes the archive's lock (refusing a second writer), then checks that the path holds an
  // archive lbbench wrote, or creates one, and folds a step journal left by a killed writer into
  // its run (journal_recovery.h; recovered() says what it added). Throws ArchiveError, touching
  // nothing, when the path holds anything else, another writer holds it or the journal is
  // refused. LBB_STEP_LOG=FILE appends "<run-id> <step>" to FILE once each finished step is in
  // the journal or the archive (for monitors and the kill test).
  explicit ArchiveWriter(const std::string& path, InvocationRecord invocation = {});
  ~ArchiveWriter();
  std::unique_ptr<RunWriter> begin_run(const RunLayout& layout);
  const std::string& path() const { return path_; }
  const JournalReport& recovered() const { return recovered_; }

  // Commits now / when the commit interval has passed since the last one. The interval is
  // LBB_ARCHIVE_COMMIT_SECONDS (default 1), stretched to 20 times the last commit's cost so
  // that copying a large archive stays under 5 % of the time; 0 commits every step.
  // A commit is also due when the journal holds kMaxPendingBytes. The opening commit (but one
  // that creates the archive) and commits from flush() and finish() are durable (archive_file.h),
  // and a due one when kDurableSeconds have passed since the last durable one; the others are
  // not, which is safe against kills but not power loss. Each commit writes every ended run
  // waiting in memory and the active run, then empties the step journal: the interval bounds the
  // journal's length, not what a kill loses.
  void commit(bool durable = true);
  void commit_when_due();
  // Commits the ended runs' records that wait for the next commit (durable); the destructor
  // does it too, silently. Call it before reading the archive while this writer lives.
  void finish();
  int commits() const { return commits_; }

 private:
  friend class RunWriter;
  std::string path_;
  ArchiveLock lock_;
  JournalReport recovered_;
  JournalWriter journal_;  // after lock_: emptied and removed while the lock is held
  int step_log_ = -1;
  InvocationRecord invocation_;
  // What the archive lacks waits in memory (and in the journal, which holds the same rows and
  // attributes) for the next commit up to about this many bytes of journal.
  static constexpr std::uint64_t kMaxPendingBytes = std::uint64_t{64} << 20;
  RunWriter* active_ = nullptr;                    // the run being written, if any
  std::vector<std::unique_ptr<RunWriter>> ended_;  // ended runs' rows their groups lack
  // The run tables the next commit writes, one a column layout: ended runs the archive lacks,
  // and the active run's rows after theirs. Never removed while the writer lives (its runs
  // point to them); clear() between commits.
  std::vector<std::unique_ptr<h5::RunTable>> tables_;
  h5::RunTable& table_for(std::vector<h5::RunTable::ColumnLayout> layout);
  std::size_t next_run_ = 0;
  double interval_ = 1.0;
  // A due commit is durable when the last durable one is this old: a power loss loses at most
  // the runs ended in about this time (docs/ARCHITECTURE.md, "Crash safety").
  static constexpr double kDurableSeconds = 30;
  std::chrono::steady_clock::time_point last_commit_, last_durable_;
  double last_commit_cost_ = 0;
  int commits_ = 0;
};

// Read side, for `lbbench show`, `merge`, reports and tests. Every object is checked (link,
// class, type, shape) before it is read.
struct RunInfo {
  std::string id;
  std::map<std::string, std::string> text;
  std::map<std::string, double> number;
};

class ArchiveReader {
 public:
  explicit ArchiveReader(const std::string& path);  // throws ArchiveError
  std::vector<RunInfo> runs() const;
  std::vector<double> read_series(const std::string& run, const std::string& dataset) const;
  // A 2-D dataset as rows x cols, row-major.
  std::vector<double> read_matrix(const std::string& run, const std::string& dataset,
                                  std::size_t& rows, std::size_t& cols) const;
  // The run whole, its attributes typed and every step dataset in its record type (merge).
  h5::StoredRun read_run(const std::string& run) const;
  hid_t file() const { return file_.get(); }

 private:
  // Where a run of a run table (run_tables.h) keeps its rows.
  struct TableRow {
    std::string table;
    hsize_t first, rows, total;
  };
  const TableRow* table_row(const std::string& run) const;  // null: a /runs group, or none
  void add_to_index(const std::string& table, const h5::TableContents& t,
                    std::map<std::string, TableRow>& index) const;
  std::vector<std::string> run_groups() const;
  std::string path_;
  h5::Handle file_;
  mutable std::map<std::string, TableRow> table_rows_;
  mutable bool indexed_ = false;
  mutable std::string cached_table_;  // the table read_run read last, and its contents
  mutable h5::TableContents cached_;
};

}  // namespace lbb
