#pragma once
// Folding a step journal (step_journal.h) into its archive: after a kill, what happened since the
// last commit is in <archive>.lbbench-journal: the runs started since (their header records),
// their finished steps, and the ends (summary, verification, final status) of those that ended.
// The next writer (`run`, `run --resume`, `merge`) and `lbbench recover` create each run the
// archive lacks from its header record, append its steps, and set its end; a run without a
// journaled end stays `partial`. A journal is folded whole or not at all: each run's records
// must be together, a header first and an end last; a run the archive holds must be `partial`
// (when steps are added) with the same run_uuid (a journal beside another archive fails here);
// a run it lacks must start with its header; every dataset must be the schema's, with the run's
// own types and widths, rows following on from the archive's. Only a torn last record (a kill
// inside its write) and records the archive already holds (a kill between a commit and the
// journal's truncation) are skipped.
#include <cstdint>
#include <string>
#include <vector>

namespace lbb {

// What folding does to one run whose records the journal holds.
struct JournalRun {
  std::string run_id;
  std::size_t first = 0, count = 0;  // its records, in the journal's order
  bool created = false;              // the archive lacks it: its header record creates it
  std::size_t pending_at = 0;        // its first record of a step the archive lacks
  std::uint64_t pending = 0;         // finished steps the archive lacks
  std::uint64_t committed = 0;       // records the archive already holds
  std::string ended;  // the run's status from its journaled end, when the archive lacks it
  // Folding it changes the archive: it creates the run, adds steps or ends it.
  bool changes() const { return created || pending > 0 || !ended.empty(); }
};

struct JournalReport {
  std::string journal;  // its path
  std::vector<JournalRun> runs;
  std::uint64_t torn_bytes = 0;
  std::string problem;            // non-empty: the journal is refused whole
  std::uint64_t pending() const;  // over all runs
  bool changes() const;           // folding would change the archive
};

// One line on what fold_journal did ("" when there was nothing to fold), for the commands.
std::string describe_recovery(const JournalReport& report);

// Read-only (`lbbench show`): what folding the journal beside `archive` would do.
JournalReport inspect_journal(const std::string& archive);

// The caller holds the archive's lock (archive_file.h). Appends the journal's pending steps to
// their run by one durable commit and removes the journal. When the journal is refused, throws
// h5::Error naming the problem, leaving the archive and the journal untouched.
JournalReport fold_journal(const std::string& archive);

}  // namespace lbb
