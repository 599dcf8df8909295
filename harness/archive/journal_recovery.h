#pragma once
// Folding a step journal (step_journal.h) into its archive: after a kill, the interrupted
// run's finished steps since the last commit are in <archive>.lbbench-journal, and its end
// (summary, verification, final status) when it had ended; the next writer (`run`, `run
// --resume`, `merge`) and `lbbench recover` append them to that run, which stays `partial`
// unless its end was journaled. A journal is folded whole or not at all: every record must name
// the same run,
// which the archive holds as `partial` with the same run_uuid (a journal beside another archive
// fails here), with the run's own datasets, types and widths, rows following on from the
// archive's. Only a torn last record (a kill inside its write) and records the archive already
// holds (a kill between a commit and the journal's truncation) are skipped.
#include <cstdint>
#include <string>

namespace lbb {

struct JournalReport {
  std::string journal;  // its path
  std::string run_id;
  std::uint64_t pending = 0;    // finished steps the archive lacks
  std::uint64_t committed = 0;  // records the archive already holds
  std::uint64_t torn_bytes = 0;
  std::string ended;    // the run's status from its journaled end, when the archive lacks it
  std::string problem;  // non-empty: the journal is refused whole
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
