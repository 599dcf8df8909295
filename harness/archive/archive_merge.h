#pragma once
// `lbbench merge`: runs from many archives (one per node or slice) into one.
#include <string>
#include <vector>

#include "harness/archive/journal_recovery.h"

namespace lbb {

struct MergeReport {
  int copied = 0;
  int invocations = 0;                  // /invocations groups copied
  std::vector<std::string> duplicates;  // one line per run seen twice, not copied again
  JournalReport journal;                // the output's step journal, folded first
};

// Copies every run of `inputs` into `output` (created when absent) under a new run id, with
// all its attributes (provenance and invocation included) and the attributes merged_from and
// source_run; copies their /invocations groups. A run already present (the same run_uuid, or
// for archives without one the same config, repetition, host and start) is reported, never
// copied twice nor overwritten. Every input is checked (check_archive_structure) before
// anything is written; the output is replaced atomically under its lock, after its step journal
// (left by a killed `run`) is folded into it. Throws h5::Error.
MergeReport merge_archives(const std::string& output, const std::vector<std::string>& inputs);

}  // namespace lbb
