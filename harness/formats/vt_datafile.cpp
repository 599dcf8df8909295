#include "harness/formats/vt_datafile.h"

#include <brotli/decode.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <limits>
#include <memory>
#include <span>
#include <sstream>

#include "core/text.h"

namespace lbb {

namespace {

using json = nlohmann::json;

// ModuleStructure by name, as the export writes it in the metadata's attributes.
constexpr std::pair<ModuleStructure, const char*> kStructures[] = {
    {ModuleStructure::kChain, "chain"},
    {ModuleStructure::kSpatial, "spatial"},
    {ModuleStructure::kIndependent, "independent"}};

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw TraceError(path + ": cannot open");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// vt's default: the JSON brotli-compressed. Inflated with the output capped, so that a small
// file inflating past the cap (a compression bomb) is refused.
std::string inflate_brotli(const std::string& in, const std::string& path) {
  const std::unique_ptr<BrotliDecoderState, decltype(&BrotliDecoderDestroyInstance)> state(
      BrotliDecoderCreateInstance(nullptr, nullptr, nullptr), &BrotliDecoderDestroyInstance);
  if (!state) throw TraceError(path + ": no memory to inflate it");
  std::string out;
  const auto* next_in = reinterpret_cast<const std::uint8_t*>(in.data());
  std::size_t avail_in = in.size();
  BrotliDecoderResult result = BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT;
  std::uint8_t buffer[1 << 16];
  while (result == BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT) {
    std::uint8_t* next_out = buffer;
    std::size_t avail_out = sizeof buffer;
    result = BrotliDecoderDecompressStream(state.get(), &avail_in, &next_in, &avail_out, &next_out,
                                           nullptr);
    out.append(reinterpret_cast<const char*>(buffer), sizeof buffer - avail_out);
    if (out.size() > kTraceMaxFileBytes)
      throw TraceError(path + ": inflates to more than the " + std::to_string(kTraceMaxFileBytes) +
                       " bytes a trace file may have");
  }
  if (result != BROTLI_DECODER_RESULT_SUCCESS)
    throw TraceError(path + ": neither JSON nor brotli-compressed JSON");
  return out;
}

bool starts_an_object(const std::string& text) {
  const std::size_t first = text.find_first_not_of(" \t\r\n");
  return first != std::string::npos && text[first] == '{';
}

// The deepest nesting of '[' and '{' outside strings, in one pass. nlohmann's parser with a
// callback (the earlier cap) was quadratic in an array's objects (its end_object walks the
// parent's elements): 80k tasks took 5 s, 1M did not end.
int nesting_depth(const std::string& text) {
  int depth = 0, deepest = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      deepest = std::max(deepest, ++depth);
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return deepest;
}

// Parsed once the nesting is known to be capped, so a file of a million '[' is refused early.
json parse_json(const std::string& path) {
  std::string text = read_text(path);
  if (!starts_an_object(text)) text = inflate_brotli(text, path);
  if (!starts_an_object(text)) throw TraceError(path + ": not a JSON object");
  if (nesting_depth(text) > kTraceMaxDepth)
    throw TraceError(path + ": JSON nested deeper than " + std::to_string(kTraceMaxDepth) +
                     " levels");
  try {
    return json::parse(text);
  } catch (const json::exception& e) {
    throw TraceError(path + ": not valid JSON: " + e.what());
  }
}

// A member the format requires, `where` naming its JSON path in messages.
const json& member(const json& object, const char* key, const std::string& where) {
  if (!object.is_object()) throw TraceError(where + ": expected an object");
  const auto it = object.find(key);
  if (it == object.end()) throw TraceError(where + ": missing '" + key + "'");
  return *it;
}

std::int64_t integer(const json& v, const std::string& where) {
  if (v.is_number_unsigned() && v.get<std::uint64_t>() > std::numeric_limits<std::int64_t>::max())
    throw TraceError(where + ": integer out of range");
  if (!v.is_number_integer()) throw TraceError(where + ": expected an integer");
  return v.get<std::int64_t>();
}

double number(const json& v, const std::string& where) {
  if (!v.is_number()) throw TraceError(where + ": expected a number");
  return v.get<double>();
}

const json& array(const json& v, const std::string& where) {
  if (!v.is_array()) throw TraceError(where + ": expected an array");
  return v;
}

// An entity's id: `id` (vt's bit-encoded one) or else `seq_id`; -1 for a non-object entity.
std::int64_t entity_id(const json& entity, const std::string& where) {
  if (!entity.is_object()) throw TraceError(where + ": expected an object");
  if (const auto type = entity.find("type"); type != entity.end() && *type != "object") return -1;
  if (const auto id = entity.find("id"); id != entity.end()) return integer(*id, where + ".id");
  if (const auto id = entity.find("seq_id"); id != entity.end())
    return integer(*id, where + ".seq_id");
  throw TraceError(where + ": an entity needs an 'id' or a 'seq_id'");
}

// The entity's fields besides its id, as vt writes them.
TraceEntity read_entity(const json& e, const std::string& where) {
  TraceEntity out;
  out.seq_id = !e.contains("id");
  if (const auto h = e.find("home"); h != e.end()) out.home = integer(*h, where + ".home");
  if (const auto c = e.find("collection_id"); c != e.end())
    out.collection_id = integer(*c, where + ".collection_id");
  if (out.collection_id < -1) throw TraceError(where + ".collection_id: a negative id");
  if (const auto i = e.find("index"); i != e.end())
    for (const json& k : array(*i, where + ".index")) {
      if (out.index.size() >= 8) throw TraceError(where + ".index: more than 8 dimensions");
      out.index.push_back(integer(k, where + ".index"));
    }
  if (const auto m = e.find("migratable"); m != e.end()) {
    if (!m->is_boolean()) throw TraceError(where + ".migratable: expected true or false");
    out.migratable = m->get<bool>();
  }
  return out;
}

std::vector<TraceSubphase> read_subphases(const json& list, const std::string& where) {
  std::vector<TraceSubphase> out;
  for (std::size_t k = 0; k < array(list, where).size(); ++k) {
    const std::string w = where + "[" + std::to_string(k) + "]";
    if (out.size() >= 1024) throw TraceError(w + ": more than 1024 subphases");
    const std::string at = w + ".time";
    out.push_back({integer(member(list[k], "id", w), w + ".id"),
                   trace_seconds(number(member(list[k], "time", w), at), at)});
  }
  return out;
}

void read_task(const json& task, std::int64_t phase, const std::string& where, TraceBuilder& out) {
  const json& e = member(task, "entity", where);
  const std::int64_t id = entity_id(e, where + ".entity");
  if (id < 0) throw TraceError(where + ".entity: a task's entity must be an object");
  out.entity(id, read_entity(e, where + ".entity"));
  const std::int64_t node = integer(member(task, "node", where), where + ".node");
  if (node < 0) throw TraceError(where + ".node: a negative rank");
  const std::string at_time = where + ".time";
  out.task(phase, id, trace_seconds(number(member(task, "time", where), at_time), at_time), node,
           where);
  if (const auto sp = task.find("subphases"); sp != task.end())
    out.subphases(phase, id, read_subphases(*sp, where + ".subphases"), where);
  const auto a = task.find("attributes");
  if (a == task.end() || !a->is_object()) return;
  if (const auto b = a->find("state_bytes"); b != a->end()) {
    const std::string at = where + ".attributes.state_bytes";
    double after = -1;
    if (const auto e = a->find("state_bytes_after"); e != a->end())
      after = number(*e, where + ".attributes.state_bytes_after");
    out.bytes(phase, id, number(*b, at), at, after);
  }
  if (const auto l = a->find("external_load"); l != a->end()) {
    const std::string at = where + ".attributes.external_load";
    out.load(phase, id, number(*l, at), at);
  }
  if (const auto n = a->find("start_node"); n != a->end())
    out.start(phase, id, integer(*n, where + ".attributes.start_node"),
              where + ".attributes.start_node");
  if (const auto n = a->find("neighbours"); n != a->end())
    for (const json& x : array(*n, where + ".attributes.neighbours"))
      out.declared_link(id, integer(x, where + ".attributes.neighbours"),
                        where + ".attributes.neighbours");
  if (const auto c = a->find("coords"); c != a->end()) {
    std::vector<double> centre;
    for (const json& x : array(*c, where + ".attributes.coords"))
      if (centre.size() <= 3) centre.push_back(number(x, where + ".attributes.coords"));
    out.coords(id, std::move(centre), where);
  }
}

void read_phase(const json& phase, const std::string& where, std::int64_t rank, TraceBuilder& out) {
  const std::int64_t id = integer(member(phase, "id", where), where + ".id");
  const json& tasks = array(member(phase, "tasks", where), where + ".tasks");
  for (std::size_t k = 0; k < tasks.size(); ++k)
    read_task(tasks[k], id, where + ".tasks[" + std::to_string(k) + "]", out);
  if (const auto c = phase.find("communications"); c != phase.end()) {
    const std::string at = where + ".communications";
    for (std::size_t k = 0; k < array(*c, at).size(); ++k) {
      const std::string w = at + "[" + std::to_string(k) + "]";
      const std::int64_t from = entity_id(member((*c)[k], "from", w), w + ".from");
      const std::int64_t to = entity_id(member((*c)[k], "to", w), w + ".to");
      double bytes = 0;
      if (const auto b = (*c)[k].find("bytes"); b != (*c)[k].end())
        bytes = trace_bytes(number(*b, w + ".bytes"), w + ".bytes");
      std::int64_t messages = 1;
      if (const auto n = (*c)[k].find("messages"); n != (*c)[k].end())
        messages = integer(*n, w + ".messages");
      if (from >= 0 && to >= 0) out.message(id, from, to, messages, bytes, w);
    }
  }
  if (const auto u = phase.find("user_defined"); rank >= 0 && u != phase.end() && u->is_object())
    if (const auto b = u->find("busy"); b != u->end())
      out.busy(id, rank, number(*b, where + ".user_defined.busy"), where);
}

// What lbbench's export writes in the metadata's attributes: the module structure and the
// phases per step.
void read_attributes(const json& metadata, const std::string& path, TraceBuilder& out) {
  const auto a = metadata.find("attributes");
  if (a == metadata.end() || !a->is_object()) return;
  if (const auto s = a->find("structure"); s != a->end())
    for (const auto& [structure, name] : kStructures)
      if (*s == name) out.structure(structure);
  if (const auto f = a->find("phases_per_step"); f != a->end()) {
    const std::string where = path + ": metadata.attributes.phases_per_step";
    out.phases_per_step(integer(*f, where), where);
  }
  if (const auto v = a->find("speeds"); v != a->end()) {
    const std::string where = path + ": metadata.attributes.speeds";
    std::vector<double> speeds;
    for (const json& x : array(*v, where)) {
      if (static_cast<std::int64_t>(speeds.size()) >= kTraceMaxRanks)
        throw TraceError(where + ": more speeds than ranks may be");
      speeds.push_back(number(x, where));
    }
    out.speeds(std::move(speeds), where);
  }
}

// vt's metadata.shared_node: the ranks that share the file's rank's node.
void read_shared_node(const json& metadata, std::int64_t rank, const std::string& path,
                      TraceBuilder& out) {
  const auto n = metadata.find("shared_node");
  if (n == metadata.end()) return;
  const std::string where = path + ": metadata.shared_node";
  if (rank < 0) throw TraceError(where + ": given without the metadata's rank");
  TraceSharedNode node;
  node.id = integer(member(*n, "id", where), where + ".id");
  node.size = integer(member(*n, "size", where), where + ".size");
  node.rank = integer(member(*n, "rank", where), where + ".rank");
  node.num_nodes = integer(member(*n, "num_nodes", where), where + ".num_nodes");
  out.shared_node(rank, node);
}

// vt's `type` (at the root and in the metadata), where given, must be "LBDatafile": another
// JSON object with `phases` is some other file.
void check_type(const json& object, const std::string& where) {
  const auto t = object.find("type");
  if (t != object.end() && *t != "LBDatafile")
    throw TraceError(where + ": '" + printable(t->dump().substr(0, 60)) +
                     "' is not an LBDatafile (vt's type is \"LBDatafile\")");
}

}  // namespace

void read_vt_file(const std::string& path, TraceBuilder& out) {
  const json root = parse_json(path);
  check_type(root, path + ": type");
  std::int64_t rank = -1;  // the file's own rank, where its metadata says
  if (const auto m = root.find("metadata"); m != root.end() && m->is_object()) {
    check_type(*m, path + ": metadata.type");
    if (const auto r = m->find("rank"); r != m->end()) rank = integer(*r, path + ": metadata.rank");
    read_attributes(*m, path, out);
    read_shared_node(*m, rank, path, out);
  }
  const json& phases = array(member(root, "phases", path), path + ": phases");
  for (std::size_t k = 0; k < phases.size(); ++k)
    read_phase(phases[k], path + ": phases[" + std::to_string(k) + "]", rank, out);
}

namespace {

json entity(const Trace& t, int m) {
  const TraceEntity& e = t.entity.empty() ? TraceEntity{} : t.entity[m];
  json j = {{"type", "object"},
            {e.seq_id ? "seq_id" : "id", t.task_id[m]},
            {"home", e.home >= 0 ? e.home : t.owner[m]},  // else where it was in the first phase
            {"migratable", e.migratable}};
  if (e.collection_id >= 0) j["collection_id"] = e.collection_id;
  if (!e.index.empty()) j["index"] = e.index;
  return j;
}

json task_of(const Trace& t, int s, int m) {
  const std::size_t cell = static_cast<std::size_t>(s) * t.modules + m;
  json task = {{"entity", entity(t, m)},
               {"node", t.owner[cell]},
               {"resource", "cpu"},
               {"time", t.cost[cell]}};
  if (const auto sp = t.subphases.find(cell); sp != t.subphases.end()) {
    task["subphases"] = json::array();
    for (const TraceSubphase& p : sp->second)
      task["subphases"].push_back({{"id", p.id}, {"time", p.time}});
  }
  const auto size = [&](int step) {  // its bytes at trace step `step`'s end (-1: the start)
    return step < 0 || t.step_bytes.empty() ? t.bytes[m]
                                            : t.step_bytes[std::size_t(step) * t.modules + m];
  };
  if (size(s - 1) > 0) task["attributes"]["state_bytes"] = size(s - 1);  // while it ran
  if (s + 1 == t.steps && size(s) != size(s - 1))  // else the next phase's says it
    task["attributes"]["state_bytes_after"] = size(s);
  if (!t.load.empty() && t.load[cell] > 0) task["attributes"]["external_load"] = t.load[cell];
  if (!t.start_owner.empty() && t.start_owner[cell] != t.owner[cell])
    task["attributes"]["start_node"] = t.start_owner[cell];
  if (s == 0 && !t.neighbours.empty() && !t.neighbours[m].empty()) {
    json& n = task["attributes"]["neighbours"] = json::array();
    for (int k : t.neighbours[m]) n.push_back(t.task_id[k]);
  }
  if (t.dimensions > 0)
    task["attributes"]["coords"] = std::vector<double>(t.coords.begin() + m * t.dimensions,
                                                       t.coords.begin() + (m + 1) * t.dimensions);
  return task;
}

// Rank r's phase s: its tasks, and the communications into them (each in its receiver's file).
json phase_of(const Trace& t, int s, int rank, std::span<const TraceMessage> messages) {
  json tasks = json::array(), communications = json::array();
  for (int m = 0; m < t.modules; ++m)
    if (t.owner[static_cast<std::size_t>(s) * t.modules + m] == rank)
      tasks.push_back(task_of(t, s, m));
  for (const TraceMessage& c : messages)
    if (t.owner[static_cast<std::size_t>(s) * t.modules + c.to] == rank)
      communications.push_back({{"type", "SendRecv"},
                                {"from", entity(t, c.from)},
                                {"to", entity(t, c.to)},
                                {"messages", c.messages},
                                {"bytes", c.bytes}});
  json phase = {{"id", s}, {"tasks", std::move(tasks)}};
  if (!communications.empty()) phase["communications"] = std::move(communications);
  if (!t.busy.empty())
    phase["user_defined"] = {{"busy", t.busy[static_cast<std::size_t>(s) * t.ranks + rank]}};
  return phase;
}

json metadata_of(const Trace& t, int rank) {
  const char* name = "independent";
  for (const auto& [structure, n] : kStructures)
    if (structure == t.structure) name = n;
  json attributes = {{"structure", name}, {"phases_per_step", t.phases_per_step}};
  if (!t.speeds.empty()) attributes["speeds"] = t.speeds;
  json metadata = {{"type", "LBDatafile"}, {"rank", rank}, {"attributes", attributes}};
  if (const auto n = t.shared_node.find(rank); n != t.shared_node.end())
    metadata["shared_node"] = {{"id", n->second.id},
                               {"size", n->second.size},
                               {"rank", n->second.rank},
                               {"num_nodes", n->second.num_nodes}};
  return metadata;
}

}  // namespace

std::vector<std::pair<std::string, std::string>> vt_files(const Trace& trace) {
  std::vector<std::pair<std::string, std::string>> files;
  // The messages of trace step s are messages[first[s], first[s + 1]) (they are in step order).
  std::vector<std::size_t> first(trace.steps + 1, trace.messages.size());
  for (std::size_t k = trace.messages.size(); k-- > 0;) first[trace.messages[k].step] = k;
  for (int s = trace.steps - 1; s >= 0; --s) first[s] = std::min(first[s], first[s + 1]);
  for (int r = 0; r < trace.ranks; ++r) {
    json phases = json::array();
    for (int s = 0; s < trace.steps; ++s)
      phases.push_back(phase_of(
          trace, s, r, std::span(trace.messages).subspan(first[s], first[s + 1] - first[s])));
    const json file = {
        {"type", "LBDatafile"}, {"metadata", metadata_of(trace, r)}, {"phases", std::move(phases)}};
    files.emplace_back("data." + std::to_string(r) + ".json", file.dump(1) + "\n");
  }
  return files;
}

}  // namespace lbb
