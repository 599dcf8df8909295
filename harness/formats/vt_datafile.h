#pragma once
// DARMA vt's LB data files (`LBDatafile`, one JSON file per rank; vt's docs/md/node-lb-data.md
// and scripts/LBDatafile_schema.py describe it): `phases`, each with an `id`, its `tasks` (entity
// {id or seq_id, home, migratable, type}, node, resource, time) and its `communications` (type,
// from, to, messages, bytes). lbbench maps a step (each phase of it) to a phase, a module to a
// task, its owner to the node and its cost to the time; the workload's communication graph
// becomes SendRecv edges with the bytes that cross them (Workload::exchanged_bytes).
#include <string>
#include <utility>
#include <vector>

#include "harness/formats/trace.h"

namespace lbb {

// One rank's file into `out`, plain or brotli-compressed (vt's default); a TraceError names the
// file and the JSON path of what is wrong.
void read_vt_file(const std::string& path, TraceBuilder& out);

// One LBDatafile per rank of the trace, named data.<rank>.json, as (name, text) pairs: trace step
// k is vt phase k (a run's step s of F phases, each balanced on its own, is vt phases s F to
// s F + F - 1: each phase has its own assignment, and vt gives a task one node per phase).
// Everything an import read comes back as it was: entities (id or seq_id, home, collection_id,
// index, migratable), subphases, communications (messages and bytes, in the receiver's file),
// shared_node, and times as recorded on their nodes with the recording's speeds in the
// metadata's attributes (`speeds`), and where its rank was under external load the level L of
// each task's rank in that phase (`external_load`, so an import takes the load-free time x speed
// / (1 + L)). A module's state bytes while it ran, its centre, where it
// began the phase when an in-step balancer moved it, and (first phase) its neighbours go in its
// task's attributes (`state_bytes`, the last phase's `state_bytes_after`, `coords`, `start_node`,
// `neighbours`); edges only where bytes cross; the module structure and F in the metadata's
// attributes
// (`structure`, `phases_per_step`), a rank's busy time of a phase in the phase's user_defined
// (`busy`), where lbbench's import reads them back; other tools ignore them.
std::vector<std::pair<std::string, std::string>> vt_files(const Trace& trace);

}  // namespace lbb
