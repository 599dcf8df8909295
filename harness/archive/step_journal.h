#pragma once
// The step journal (docs/ARCHITECTURE.md, "Crash safety"): <archive>.lbbench-journal, one
// appended record per hand-over of finished steps of the run being written (one step, or the
// steps an asynchronous run finished together), truncated at each commit. A kill -9 loses no
// finished step: the record reached the page cache in one write(2) before its steps counted as
// finished, and the next writer (or `lbbench recover`) folds the journal's whole records into
// the interrupted run. A record holds its steps' rows of every dataset of the run, named and
// typed as the archive schema's table describes it (archive_schema.h).
//
// Record: u32 magic, u32 payload bytes, u32 CRC-32 of the payload, payload. Payload: run id,
// run_uuid, u64 row (the first), u32 rows, u32 columns, then per column: name, u8 record type,
// u64 width (0: one value a step), u64 bytes, the bytes (its rows, one after another; or, in a
// record of several rows whose rows are all equal, that row once: a zero or constant column of
// a burst is written once, not once a step). Strings are u32 length + bytes; integers are the
// host's byte order (a journal never leaves the host that wrote it; another order fails the
// magic). Records of the earlier formats are still read: "LBJ2" (lbbench before 2026-11-24)
// writes every row, "LBJ1" (before 2026-11-23) has no rows field and one row.
// The run's end (its summary, verification and final status: the run attributes set since the
// last commit) is one record of the same form with row kEndRow and one row: a column per
// attribute, width 0, its value's bytes (text of any length, 8 bytes otherwise). It is the
// run's last record. A run the archive does not hold yet starts with its header record (row
// kHeaderRow, one row): a column per dataset of the run (its name holds a '/', e.g.
// "proc/busy"; width as above, no bytes), then a column per attribute set so far (a name
// without '/', as in the end record). Records of several runs follow one another, each run's
// together, as long as no commit empties the file.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "harness/archive/archive_schema.h"

namespace lbb {

std::string journal_path(const std::string& archive);

// One column of a record, as the journal's payload holds it.
struct JournalColumn {
  std::string name;  // dataset path under the run's group, e.g. "proc/busy"
  RecordType type;
  std::uint64_t width;  // values a step; 0: one value ([S] datasets)
  std::vector<unsigned char> bytes;
};

inline constexpr std::uint64_t kEndRow = ~std::uint64_t{0};
// The most that rows written once may stand for beyond the journal's own bytes: the writer
// writes them in full past it, and a reader refuses a journal that claims more (a few bytes
// must not make recovery write gigabytes).
inline constexpr std::uint64_t kMaxRepeatedBytes = std::uint64_t{64} << 20;
inline constexpr std::uint64_t kHeaderRow = kEndRow - 1;

struct JournalRecord {
  std::string run_id, run_uuid;
  std::uint64_t row = 0;   // the first; kEndRow / kHeaderRow: the run's end / header, see above
  std::uint32_t rows = 1;  // steps row, row + 1, ...; each column's bytes hold them in order
  std::vector<JournalColumn> columns;
  bool is_end() const { return row == kEndRow; }
  bool is_header() const { return row == kHeaderRow; }
};

// Builds one record's payload column by column, then appends it framed, in one write(2).
class JournalWriter {
 public:
  JournalWriter() = default;
  explicit JournalWriter(const std::string& archive);  // creates or empties the journal
  JournalWriter(const JournalWriter&) = delete;
  JournalWriter& operator=(const JournalWriter&) = delete;
  JournalWriter(JournalWriter&& o) noexcept;
  JournalWriter& operator=(JournalWriter&& o) noexcept;
  ~JournalWriter();  // removes the journal when it holds nothing (everything committed)

  // A record of `rows` steps from `row` on (header and end records: one).
  void begin(const std::string& run_id, const std::string& run_uuid, std::uint64_t row,
             std::uint32_t columns, std::uint32_t rows = 1);
  // `bytes` holds the record's rows one after another; equal rows are written once.
  void column(const std::string& name, RecordType type, std::uint64_t width, const void* data,
              std::size_t bytes);
  void append();  // throws h5::Error when the write fails
  void clear();   // after a commit: its records are in the archive
  // What the records appended since the last clear() hold, equal rows counted in full: the
  // bytes the writer keeps in memory until the next commit.
  std::uint64_t bytes() const { return bytes_ + repeated_; }

 private:
  void close() noexcept;
  void write(const std::vector<unsigned char>& bytes);
  std::string path_;
  int fd_ = -1;
  bool empty_ = true;
  std::uint64_t bytes_ = 0;             // appended to the file
  std::uint64_t repeated_ = 0;          // rows written once stand for these bytes more
  std::uint64_t pending_repeated_ = 0;  // the same, in the record being built
  std::uint32_t rows_ = 1;              // the record being built holds these rows
  std::vector<unsigned char> buffer_;
};

// The journal's whole records in order. Reading stops at the first record that is not whole
// (a record torn by a kill: its bytes are counted in torn_bytes) or not sound (a bad magic,
// checksum or layout: `problem` says which, at which byte). A length field never allocates
// more than the bytes the file really holds.
struct JournalScan {
  bool exists = false;
  std::vector<JournalRecord> records;
  std::uint64_t torn_bytes = 0;
  std::string problem;
};
JournalScan scan_journal(const std::string& journal);

}  // namespace lbb
