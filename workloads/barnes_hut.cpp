#include "workloads/barnes_hut.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <numeric>
#include <random>
#include <stdexcept>

#include "core/text.h"
#include "kernels/plummer.h"
#include "workloads/vector_module_states.h"

namespace lbb {

namespace {

// Module state: this header, then `count` records of 2 dims + 2 doubles each:
// position[dims], velocity[dims], mass, id. Between steps the velocity is the leapfrog
// half-step velocity v(t - dt/2); before step 0 it is v(0).
struct CellHeader {
  std::int32_t module;
  std::int32_t dims;
  std::int64_t count;
};

CellHeader& header_of(std::span<std::byte> state) {
  return *reinterpret_cast<CellHeader*>(state.data());
}

double* records_of(std::span<std::byte> state) {
  return reinterpret_cast<double*>(state.data() + sizeof(CellHeader));
}

std::size_t bytes_for(std::size_t bodies, int record_doubles) {
  return sizeof(CellHeader) + sizeof(double) * bodies * record_doubles;
}

// Bodies that share one tree walk (kernels::forces_of): at most this many, neighbours in the
// tree.
constexpr int kGroupSize = kernels::kTreeGroupSize;

int modules_of_params(const Params& p) {
  if (p.text("decomposition") == "curve") return static_cast<int>(p.integer("curve_modules"));
  if (p.text("decomposition") == "particles")
    return particle_modules(p.integer("particles"), p.integer("bodies_per_module"));
  int modules = 1;
  for (int d = 0; d < p.integer("dimensions"); ++d)
    modules *= static_cast<int>(p.integer("cells_per_side"));
  return modules;
}

}  // namespace

double barnes_hut_force_error_bound(double theta, int dims) {
  // Monopole cells: the error grows as theta^2 (the neglected quadrupole term). The constants
  // are twice the rms relative errors measured on Plummer clusters (0.05 theta^2 in the plane,
  // at most 0.01 theta^2 in space; docs/workloads.md).
  return (dims == 2 ? 0.1 : 0.02) * theta * theta;
}

WorkloadInfo BarnesHut::info() {
  WorkloadInfo info{
      "barnes_hut",
      "Barnes-Hut N-body simulation of a Plummer cluster, leapfrog steps; modules are cells of "
      "a fixed spatial grid whose bodies drift across cell boundaries (Franklin & Govindan 1995)",
      {
          int_param("particles", 20000, "bodies in the cluster", 2, 1 << 26),
          int_param("dimensions", 2, "2: quadtree in the plane, 3: octree", 2, 3),
          string_param("decomposition", "grid",
                       "grid: fixed cells of a regular grid; curve: groups of equal body count "
                       "at t = 0 along a Morton curve, fixed key ranges afterwards (adaptive "
                       "cells, fine enough to balance); particles: identical tasks as Franklin & "
                       "Govindan's, bodies_per_module bodies each, regrouped along the curve "
                       "every step",
                       {"grid", "curve", "particles"}),
          int_param("cells_per_side", 8, "grid: cells per dimension; modules = cells^dimensions", 1,
                    256),
          int_param("curve_modules", 256, "curve: modules (key ranges along the curve)", 1,
                    1 << 20),
          int_param("bodies_per_module", 64,
                    "particles: bodies in every module (the last ones may hold one fewer); 1 "
                    "makes every body a module",
                    1, 1 << 26),
          real_param("box", 2.5,
                     "half-width of the grid (standard units); bodies outside "
                     "belong to the nearest edge cell",
                     1e-3, 1e6),
          real_param("theta", 0.5, "opening parameter of the tree walk", 0.05, 1.15),
          real_param("eps", 0.05, "Plummer softening length", 1e-6, 10),
          real_param("dt", 0.01, "leapfrog time step", 1e-8, 1),
          real_param("drift", 0.5,
                     "bulk speed of the cluster along x, carrying it across the "
                     "fixed grid",
                     0, 100),
          int_param("leaf_size", 8, "most bodies in a tree leaf", 1, 1024),
          int_param("force_samples", 200,
                    "bodies whose tree force is checked against direct "
                    "summation at verification",
                    1, 1 << 20),
          real_param("energy_tolerance", 2e-3,
                     "largest relative drift of the total energy "
                     "accepted by verification",
                     0, 1),
          int_param("seed", 1, "seed of the Plummer model and of the sampled bodies", 0),
      },
      [](const Params& p) { return std::make_unique<BarnesHut>(p); },
      modules_of_params,
      nullptr,
      [](const Params& p, int) {
        // Fourteen records a body (its state and reference copy, the initial cells, the trees'
        // columns and cells, gathers, forces) and 512 bytes a module: one-step runs peaked at
        // 760 B a body in 3-D (grid, 200,000 bodies), 658 in 2-D (grid, 400,000) and 1,257 in
        // 3-D at one body a module (200,000 bodies; 1,280 at 500,000 in issue 39's audit),
        // less the process's own 22 MB. Four records, as estimated before, let 2^26 bodies at
        // one a module (about 90 GB) pass as 17 GB.
        const double record =
            sizeof(double) * (2.0 * static_cast<double>(p.integer("dimensions")) + 2);
        return 14 * record * static_cast<double>(p.integer("particles")) +
               512.0 * modules_of_params(p);
      },
  };
  info.communicates = [](const Params&) { return true; };  // grid cells, or the curve's chain
  info.has_coordinates = [](const Params&) { return true; };
  return info;
}

BarnesHut::BarnesHut(const Params& params)
    : dims_(static_cast<int>(params.integer("dimensions"))),
      cells_per_side_(static_cast<int>(params.integer("cells_per_side"))),
      curve_(params.text("decomposition") != "grid"),
      particles_(params.text("decomposition") == "particles"),
      box_(params.real("box")),
      theta_(params.real("theta")),
      eps_(params.real("eps")),
      dt_(params.real("dt")),
      leaf_size_(static_cast<int>(params.integer("leaf_size"))),
      force_samples_(static_cast<int>(params.integer("force_samples"))),
      energy_tolerance_(params.real("energy_tolerance")),
      seed_(static_cast<std::uint64_t>(params.integer("seed"))),
      sweep_(0) {
  if (dims_ != 2 && dims_ != 3) throw std::invalid_argument("dimensions must be 2 or 3");
  int modules = 1;
  for (int d = 0; d < dims_; ++d) modules *= cells_per_side_;
  const auto n = static_cast<std::size_t>(params.integer("particles"));
  std::vector<double> pos(n * dims_), vel(n * dims_), mass(n);
  kernels::plummer_model(dims_, seed_, pos, vel, mass);
  if (particles_) {
    modules = particle_modules(params.integer("particles"), params.integer("bodies_per_module"));
  } else if (curve_) {
    modules = static_cast<int>(params.integer("curve_modules"));
    split_curve(pos, modules);
  }

  // Virial equilibrium 2K = -W with the softened potential (for the 2-D projection, whose
  // potential is deeper than the sphere's), then the bulk drift.
  std::vector<std::int64_t> ids(n);
  for (std::size_t i = 0; i < n; ++i) ids[i] = static_cast<std::int64_t>(i);
  kernels::BodyTree tree;
  kernels::build_tree(dims_, pos, mass, ids, theta_, leaf_size_, tree);
  std::vector<kernels::Force> initial_forces(n);
  kernels::tree_forces(tree, eps_, kGroupSize, initial_forces);
  double kinetic = 0, potential = 0;
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t i = static_cast<std::size_t>(tree.order[k]);
    double v2 = 0;
    for (int d = 0; d < dims_; ++d) v2 += vel[i * dims_ + d] * vel[i * dims_ + d];
    kinetic += 0.5 * mass[i] * v2;
    potential += 0.5 * mass[i] * initial_forces[k].phi;
  }
  const double scale = kinetic > 0 ? std::sqrt(-potential / (2 * kinetic)) : 1.0;
  for (std::size_t i = 0; i < n; ++i) {
    for (int d = 0; d < dims_; ++d) vel[i * dims_ + d] *= scale;
    vel[i * dims_] += params.real("drift");
  }

  initial_.assign(modules, {});
  const int rec = record_doubles();
  const std::vector<int> module_of = modules_of(pos, ids);
  for (std::size_t i = 0; i < n; ++i) {
    auto& cell = initial_[module_of[i]];
    cell.insert(cell.end(), &pos[i * dims_], &pos[i * dims_] + dims_);
    cell.insert(cell.end(), &vel[i * dims_], &vel[i * dims_] + dims_);
    cell.push_back(mass[i]);
    cell.push_back(static_cast<double>(i));
  }
  if (curve_) set_group_centres();

  sweep_ = NbodySweep(modules);
  VectorModuleStates states(*this);
  rebuild_tree(sweep_, states);

  // Cost model: the cost of the grouped walk run_module does (walk_cost), counted on the tree of
  // t = 0: the same groups and lists as step 0's walk. Counting each body's own walk instead
  // predicted 2250 interactions per body where the groups sum 3395 (1e5 bodies, 3-D), and missed
  // the walks that a module's scattered bodies add.
  predicted_.assign(modules, 0.0);
  for (int m = 0; m < modules; ++m) {
    const auto count = static_cast<std::int64_t>(initial_[m].size() / rec);
    std::int64_t interactions = 0, cells_tested = 0;
    for (const kernels::Force& f : module_forces(sweep_, initial_[m].data(), count, cells_tested))
      interactions += f.interactions;
    predicted_[m] = walk_cost(interactions, cells_tested);
  }
}

double walk_cost(std::int64_t interactions, std::int64_t cells_tested) {
  constexpr double kInteractionsPerTest = 24;
  return static_cast<double>(interactions) +
         kInteractionsPerTest * static_cast<double>(cells_tested);
}

std::vector<double> BarnesHut::module_walk_costs() const {
  std::vector<double> out(module_count());
  for (int m = 0; m < module_count(); ++m)
    out[m] = walk_cost(sweep_.interactions[m], sweep_.cells_tested[m]);
  return out;
}

// Morton key of a position in the box: the bits of the quantised coordinates interleaved
// (Warren & Salmon 1993's space-filling curve order).
std::uint64_t BarnesHut::curve_key(const double* x) const {
  const int bits = 63 / dims_;
  const double cells = static_cast<double>(std::uint64_t{1} << bits);
  std::uint64_t key = 0;
  std::uint64_t q[3] = {0, 0, 0};
  for (int d = 0; d < dims_; ++d) {
    const double u = std::clamp((x[d] + box_) / (2 * box_), 0.0, 1.0) * cells;
    q[d] = std::min(static_cast<std::uint64_t>(u), (std::uint64_t{1} << bits) - 1);
  }
  for (int b = bits - 1; b >= 0; --b)
    for (int d = 0; d < dims_; ++d) key = (key << 1) | ((q[d] >> b) & 1);
  return key;
}

// Equal body counts per module at t = 0: the first key of every module after the first.
void BarnesHut::split_curve(std::span<const double> pos, int modules) {
  const std::size_t n = pos.size() / dims_;
  std::vector<std::uint64_t> sorted(n);
  for (std::size_t i = 0; i < n; ++i) sorted[i] = curve_key(&pos[i * dims_]);
  std::sort(sorted.begin(), sorted.end());
  curve_bounds_.clear();
  for (int g = 1; g < modules; ++g) curve_bounds_.push_back(sorted[g * n / modules]);
}

// The centre of every group's bodies at t = 0 (curve and particles); an empty range (equal
// keys) sits at the box centre.
void BarnesHut::set_group_centres() {
  const int rec = record_doubles();
  curve_centres_.assign(initial_.size() * dims_, 0.0);
  for (std::size_t m = 0; m < initial_.size(); ++m) {
    const std::size_t count = initial_[m].size() / rec;
    for (int d = 0; d < dims_; ++d) {
      double sum = 0;
      for (std::size_t i = 0; i < count; ++i) sum += initial_[m][i * rec + d];
      curve_centres_[m * dims_ + d] = count ? sum / static_cast<double>(count) : 0.0;
    }
  }
}

int particle_modules(std::int64_t bodies, std::int64_t per_module) {
  return static_cast<int>((bodies + per_module - 1) / per_module);
}

std::vector<int> BarnesHut::modules_of(std::span<const double> pos,
                                       std::span<const std::int64_t> ids) const {
  const std::size_t n = ids.size();
  std::vector<int> out(n);
  if (!particles_) {
    for (std::size_t i = 0; i < n; ++i) out[i] = cell_of(&pos[i * dims_]);
    return out;
  }
  // Franklin & Govindan's identical tasks: the bodies in curve order (ties by id), cut into
  // module_count() runs of equal length within one; module m holds ranks [m n / M, (m+1) n / M).
  std::vector<std::pair<std::uint64_t, std::int64_t>> order(n);
  std::vector<std::size_t> index(n);
  for (std::size_t i = 0; i < n; ++i) order[i] = {curve_key(&pos[i * dims_]), ids[i]};
  std::iota(index.begin(), index.end(), std::size_t{0});
  std::sort(index.begin(), index.end(),
            [&](std::size_t a, std::size_t b) { return order[a] < order[b]; });
  const auto modules = static_cast<std::size_t>(module_count());
  std::size_t m = 0;
  for (std::size_t r = 0; r < n; ++r) {
    while ((m + 1) * n / modules <= r) ++m;
    out[index[r]] = static_cast<int>(m);
  }
  return out;
}

int BarnesHut::cell_of(const double* x) const {
  if (curve_ && !particles_) {
    const std::uint64_t key = curve_key(x);
    return static_cast<int>(std::upper_bound(curve_bounds_.begin(), curve_bounds_.end(), key) -
                            curve_bounds_.begin());
  }
  int cell = 0, stride = 1;
  for (int d = 0; d < dims_; ++d) {
    const double u = (x[d] + box_) / (2 * box_) * cells_per_side_;
    const int k = u >= 1 ? (u < cells_per_side_ ? static_cast<int>(u) : cells_per_side_ - 1) : 0;
    cell += k * stride;
    stride *= cells_per_side_;
  }
  return cell;
}

std::optional<ModuleGraph> BarnesHut::communication() const {
  if (curve_) return ModuleGraph::chain(module_count());
  const std::vector<int> extents(dims_, cells_per_side_);
  return ModuleGraph::grid(extents);
}

std::vector<double> BarnesHut::module_coords() const {
  if (curve_) return curve_centres_;  // the group's centre at t = 0
  std::vector<double> c;
  const double width = 2 * box_ / cells_per_side_;
  for (int m = 0; m < module_count(); ++m) {
    int rest = m;
    for (int d = 0; d < dims_; ++d) {
      c.push_back(-box_ + (rest % cells_per_side_ + 0.5) * width);
      rest /= cells_per_side_;
    }
  }
  return c;
}

std::size_t BarnesHut::state_bytes(int module) const {
  return sizeof(CellHeader) + sizeof(double) * initial_[module].size();
}

void BarnesHut::init_state(int module, std::span<std::byte> state) const {
  header_of(state) = {module, dims_,
                      static_cast<std::int64_t>(initial_[module].size() / record_doubles())};
  if (!initial_[module].empty())  // an empty cell's data() may be null, which memcpy must not get
    std::memcpy(records_of(state), initial_[module].data(),
                sizeof(double) * initial_[module].size());
}

void BarnesHut::step_module(NbodySweep& sweep, int module, int step,
                            std::span<std::byte> state) const {
  const CellHeader& h = header_of(state);
  if (h.module != module || h.dims != dims_)
    throw std::runtime_error("barnes_hut: state of module " + std::to_string(module) +
                             " has a bad header");
  const int rec = record_doubles();
  double* r = records_of(state);
  const std::vector<kernels::Force> forces =
      module_forces(sweep, r, h.count, sweep.cells_tested[module]);
  double kinetic = 0, potential = 0;
  std::int64_t interactions = 0;
  for (std::int64_t i = 0; i < h.count; ++i, r += rec) {
    double* x = r;
    double* v = r + dims_;
    const double m = r[2 * dims_];
    const kernels::Force& f = forces[i];
    interactions += f.interactions;
    // Leapfrog (kick-drift-kick merged): v(t) = v(t - dt/2) + a dt/2 synchronises the velocity
    // for the energy; v(t + dt/2) = v(t) + a dt/2; x(t + dt) = x(t) + v(t + dt/2) dt.
    double v2 = 0;
    for (int d = 0; d < dims_; ++d) {
      const double v_now = step == 0 ? v[d] : v[d] + 0.5 * dt_ * f.acc[d];
      v2 += v_now * v_now;
      v[d] = v_now + 0.5 * dt_ * f.acc[d];
      x[d] += v[d] * dt_;
    }
    kinetic += 0.5 * m * v2;
    potential += 0.5 * m * f.phi;
  }
  sweep.kinetic[module] = kinetic;
  sweep.potential[module] = potential;
  sweep.interactions[module] = interactions;
}

std::vector<kernels::Force> BarnesHut::module_forces(const NbodySweep& sweep, const double* r,
                                                     std::int64_t count,
                                                     std::int64_t& cells_tested) const {
  // The module's bodies in tree order: kernels::forces_of groups them down the tree.
  const int rec = record_doubles();
  std::vector<std::pair<std::int32_t, std::int32_t>> order(count);  // (tree index, record)
  for (std::int64_t i = 0; i < count; ++i) {
    const double id = r[i * rec + 2 * dims_ + 1];
    if (!(id >= 0 && id < static_cast<double>(sweep.tree_index.size())))
      throw std::runtime_error("barnes_hut: a body id is not in the tree");
    order[i] = {sweep.tree_index[static_cast<std::size_t>(id)], static_cast<std::int32_t>(i)};
  }
  std::sort(order.begin(), order.end());
  std::vector<std::int32_t> bodies(count);
  for (std::int64_t i = 0; i < count; ++i) bodies[i] = order[i].first;
  std::vector<kernels::Force> sorted(count), forces(count);
  thread_local kernels::GroupWalk walk;  // a module runs on one thread at a time
  kernels::forces_of(sweep.tree, bodies, eps_, kGroupSize, walk, sorted);
  cells_tested = walk.cells_tested;
  for (std::int64_t i = 0; i < count; ++i) forces[order[i].second] = sorted[i];
  return forces;
}

void BarnesHut::run_module(int module, int step, int /*phase*/, std::span<std::byte> state) {
  step_module(sweep_, module, step, state);
}

// Where every body of the states belongs now, per module in storage order.
BarnesHut::BodyColumns BarnesHut::gather(ModuleStates& states) const {
  const int rec = record_doubles();
  BodyColumns b;
  for (int m = 0; m < module_count(); ++m) {
    std::span<std::byte> s = states.state(m);
    const double* r = records_of(s);
    for (std::int64_t i = 0; i < header_of(s).count; ++i, r += rec) {
      b.pos.insert(b.pos.end(), r, r + dims_);
      b.mass.push_back(r[2 * dims_]);
      b.ids.push_back(static_cast<std::int64_t>(r[2 * dims_ + 1]));
    }
  }
  return b;
}

std::vector<std::vector<int>> BarnesHut::targets(ModuleStates& states) const {
  const BodyColumns b = gather(states);
  const std::vector<int> flat = modules_of(b.pos, b.ids);
  std::vector<std::vector<int>> out(module_count());
  std::size_t next = 0;
  for (int m = 0; m < module_count(); ++m)
    for (std::int64_t i = 0; i < header_of(states.state(m)).count; ++i)
      out[m].push_back(flat[next++]);
  return out;
}

// Moves every body into the module it belongs to now; `moved`: the bytes each (from, to) pair
// handed over. Returns the bodies moved.
int BarnesHut::redistribute(ModuleStates& states, std::vector<ModuleTransfer>& moved) const {
  const int rec = record_doubles();
  const int modules = module_count();
  const std::vector<std::vector<int>> target_of = targets(states);
  // Movers in (source module, position) order, so arrivals are appended deterministically.
  std::vector<std::pair<int, std::size_t>> movers;  // (target, offset in `moving`)
  std::vector<double> moving;
  std::map<std::pair<int, int>, double> crossed;  // (from, to): bytes
  for (int m = 0; m < modules; ++m) {
    std::span<std::byte> s = states.state(m);
    CellHeader& h = header_of(s);
    double* r = records_of(s);
    std::int64_t kept = 0;
    for (std::int64_t i = 0; i < h.count; ++i) {
      const double* body = r + i * rec;
      const int target = target_of[m][i];
      if (target == m) {
        if (kept != i) std::memmove(r + kept * rec, body, sizeof(double) * rec);
        ++kept;
      } else {
        movers.emplace_back(target, moving.size());
        crossed[{m, target}] += static_cast<double>(sizeof(double) * rec);
        moving.insert(moving.end(), body, body + rec);
      }
    }
    h.count = kept;
  }
  moved.clear();
  for (const auto& [pair, bytes] : crossed) moved.push_back({pair.first, pair.second, bytes});
  std::stable_sort(movers.begin(), movers.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::int64_t> arrivals(modules, 0);
  for (const auto& [target, offset] : movers) ++arrivals[target];
  std::size_t next = 0;
  for (int m = 0; m < modules; ++m) {
    const std::int64_t kept = header_of(states.state(m)).count;
    const std::int64_t total = kept + arrivals[m];
    if (states.state(m).size() != bytes_for(total, rec)) states.resize(m, bytes_for(total, rec));
    std::span<std::byte> s = states.state(m);
    double* r = records_of(s) + kept * rec;
    for (std::int64_t a = 0; a < arrivals[m]; ++a, ++next, r += rec)
      std::memcpy(r, moving.data() + movers[next].second, sizeof(double) * rec);
    header_of(s).count = total;
  }
  return static_cast<int>(movers.size());
}

void BarnesHut::rebuild_tree(NbodySweep& sweep, ModuleStates& states) const {
  const BodyColumns b = gather(states);
  kernels::build_tree(dims_, b.pos, b.mass, b.ids, theta_, leaf_size_, sweep.tree);
  sweep.tree_index.assign(b.ids.size(), -1);
  for (int k = 0; k < sweep.tree.bodies(); ++k) {
    const std::int64_t id = sweep.tree.id[k];
    if (id < 0 || id >= static_cast<std::int64_t>(b.ids.size()) || sweep.tree_index[id] >= 0)
      throw std::runtime_error("barnes_hut: body ids are not 0 .. N-1, each once");
    sweep.tree_index[id] = k;
  }
}

void BarnesHut::end_step(NbodySweep& sweep, ModuleStates& states) const {
  double energy = 0, interactions = 0;
  for (int m = 0; m < module_count(); ++m) {
    energy += sweep.kinetic[m] + sweep.potential[m];
    interactions += static_cast<double>(sweep.interactions[m]);
  }
  sweep.energy.push_back(energy);
  sweep.total_interactions.push_back(interactions);
  sweep.crossings.push_back(redistribute(states, sweep.transfers));
  rebuild_tree(sweep, states);
}

bool BarnesHut::phase_outputs(int module, int, int, std::vector<std::span<std::byte>>& out) {
  out.push_back(std::as_writable_bytes(std::span(&sweep_.kinetic[module], 1)));
  out.push_back(std::as_writable_bytes(std::span(&sweep_.potential[module], 1)));
  out.push_back(std::as_writable_bytes(std::span(&sweep_.interactions[module], 1)));
  out.push_back(std::as_writable_bytes(std::span(&sweep_.cells_tested[module], 1)));
  return true;
}

void BarnesHut::finish_step(int /*step*/, ModuleStates& states) {
  end_step(sweep_, states);
}

std::vector<StepMetric> BarnesHut::step_metrics() const {
  return {
      {"energy", "total energy (kinetic + tree potential) at the start of the step"},
      {"crossings", "bodies that moved to another module (cell) at the end of the step"},
      {"interactions", "tree interactions (cells accepted + bodies summed) in the step"},
  };
}

std::vector<double> BarnesHut::step_metric_values(int step) const {
  return {sweep_.energy.at(step), sweep_.crossings.at(step), sweep_.total_interactions.at(step)};
}

std::vector<double> BarnesHut::gather_bodies(ModuleStates& states) const {
  const int rec = record_doubles();
  std::vector<double> all;
  for (int m = 0; m < module_count(); ++m) {
    std::span<std::byte> s = states.state(m);
    if (s.size() < sizeof(CellHeader))
      throw std::runtime_error("state of module " + std::to_string(m) + " is too short");
    const CellHeader& h = header_of(s);
    if (h.module != m || h.dims != dims_ || h.count < 0 || s.size() != bytes_for(h.count, rec))
      throw std::runtime_error("state of module " + std::to_string(m) + " has a bad header");
  }
  const std::vector<std::vector<int>> target_of = targets(states);
  for (int m = 0; m < module_count(); ++m) {
    std::span<std::byte> s = states.state(m);
    const double* r = records_of(s);
    for (std::int64_t i = 0; i < header_of(s).count; ++i, r += rec) {
      if (target_of[m][i] != m)
        throw std::runtime_error("a body of module " + std::to_string(m) + " lies outside it");
      all.insert(all.end(), r, r + rec);
    }
  }
  const std::size_t n = all.size() / rec;
  std::vector<std::size_t> order(n);
  for (std::size_t i = 0; i < n; ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return all[a * rec + rec - 1] < all[b * rec + rec - 1];
  });
  std::vector<double> sorted(all.size());
  for (std::size_t i = 0; i < n; ++i)
    std::memcpy(&sorted[i * rec], &all[order[i] * rec], sizeof(double) * rec);
  return sorted;
}

// The serial replay of a Barnes-Hut run and the checks that read only it.
struct NbodyReference : SerialReference {
  using SerialReference::SerialReference;
  std::vector<double> bodies;  // every body's record after the steps, ordered by id
  std::vector<double> energy;  // per step
  double drift = 0;            // relative energy drift over the steps
  // Tree forces against direct summation on sampled bodies of the final state.
  int samples = 0;
  double force_rms = 0, force_worst = 0;
  double interactions_per_body = 0, tree_cells = 0;
};

std::shared_ptr<const SerialReference> BarnesHut::reference(int steps_run) const {
  auto ref = std::make_shared<NbodyReference>(steps_run);
  // 1. The same simulation from the same initial states in private buffers.
  VectorModuleStates ref_states(*this);
  NbodySweep sweep(module_count());
  rebuild_tree(sweep, ref_states);
  for (int s = 0; s < steps_run; ++s) {
    for (int m = 0; m < module_count(); ++m) step_module(sweep, m, s, ref_states.state(m));
    end_step(sweep, ref_states);
  }
  ref->bodies = gather_bodies(ref_states);
  ref->energy = sweep.energy;
  // 2. Energy conservation of the replay.
  for (double e : ref->energy) ref->drift = std::max(ref->drift, std::abs(e - ref->energy[0]));
  if (!ref->energy.empty()) ref->drift /= std::abs(ref->energy[0]);
  const std::size_t n = ref->bodies.size() / record_doubles();
  double walked = 0;
  for (double i : sweep.total_interactions) walked += i;
  ref->interactions_per_body = steps_run && n ? walked / steps_run / n : 0.0;
  sample_forces(*ref);
  return ref;
}

// 3. Tree forces against direct summation on sampled bodies of the replay's final state.
void BarnesHut::sample_forces(NbodyReference& ref) const {
  const int rec = record_doubles();
  const std::vector<double>& expected = ref.bodies;
  const std::size_t n = expected.size() / rec;
  std::vector<double> pos(n * dims_), mass(n);
  std::vector<std::int64_t> ids(n);
  for (std::size_t i = 0; i < n; ++i) {
    std::memcpy(&pos[i * dims_], &expected[i * rec], sizeof(double) * dims_);
    mass[i] = expected[i * rec + 2 * dims_];
    ids[i] = static_cast<std::int64_t>(expected[i * rec + 2 * dims_ + 1]);
  }
  kernels::BodyTree tree;
  kernels::build_tree(dims_, pos, mass, ids, theta_, leaf_size_, tree);
  std::vector<int> tree_index(n);
  for (std::size_t k = 0; k < n; ++k) tree_index[tree.order[k]] = static_cast<int>(k);
  // The forces the steps use: the bodies walk the tree in groups.
  std::vector<kernels::Force> grouped(n);
  kernels::tree_forces(tree, eps_, kGroupSize, grouped);
  std::mt19937_64 rng(seed_ ^ 0x5bd1e995u);
  std::uniform_int_distribution<std::size_t> pick(0, n - 1);
  double sum_sq = 0, worst = 0;
  const int samples = static_cast<int>(std::min<std::size_t>(force_samples_, n));
  for (int k = 0; k < samples; ++k) {
    const std::size_t i = pick(rng);
    const kernels::Force& t = grouped[tree_index[i]];
    const kernels::Force d = kernels::direct_force(tree, &pos[i * dims_], tree_index[i], eps_);
    double err2 = 0, ref2 = 0;
    for (int c = 0; c < dims_; ++c) {
      err2 += (t.acc[c] - d.acc[c]) * (t.acc[c] - d.acc[c]);
      ref2 += d.acc[c] * d.acc[c];
    }
    const double rel = std::sqrt(err2 / std::max(ref2, 1e-300));
    sum_sq += rel * rel;
    worst = std::max(worst, rel);
  }
  ref.samples = samples;
  ref.force_rms = samples ? std::sqrt(sum_sq / samples) : 0.0;
  ref.force_worst = worst;
  ref.tree_cells = static_cast<double>(tree.cells.size());
}

Verification BarnesHut::verify_against(ModuleStates& states, int steps_run,
                                       const SerialReference& reference) {
  const auto& ref = reference_as<NbodyReference>(reference, steps_run);
  const std::vector<double>& expected = ref.bodies;
  Verification v;
  v.tolerance = 1e-12;
  std::vector<double> got;
  try {
    got = gather_bodies(states);
  } catch (const std::exception& e) {
    v.detail = e.what();
    return v;
  }
  // Relative to the extent of the system, position and velocity errors alike.
  double diff = 0, extent = 0;
  const bool same_bodies = got.size() == expected.size();
  if (same_bodies)
    for (std::size_t i = 0; i < got.size(); ++i) {
      diff = std::max(diff, std::abs(got[i] - expected[i]));
      extent = std::max(extent, std::abs(expected[i]));
      v.checksum += got[i];
      v.reference_checksum += expected[i];
    }
  v.error = same_bodies ? diff / std::max(extent, 1e-300) : INFINITY;
  if (!std::isfinite(v.error)) v.error = INFINITY;

  double history_error = 0;
  const bool history_complete = sweep_.energy.size() == static_cast<std::size_t>(steps_run);
  if (history_complete)
    for (int s = 0; s < steps_run; ++s)
      history_error = std::max(
          history_error, std::abs(sweep_.energy[s] - ref.energy[s]) / std::abs(ref.energy[s]));
  const bool history_ok = history_complete && history_error <= 1e-12;
  const bool energy_ok = ref.drift <= energy_tolerance_;
  const double bound = barnes_hut_force_error_bound(theta_, dims_);
  const bool force_ok = ref.force_rms <= bound;

  v.passed = v.error <= v.tolerance && history_ok && energy_ok && force_ok;
  v.detail = "bodies vs serial replay: rel. error " + format_number(v.error) + "; energy " +
             (history_ok ? "history matches" : "history differs") + ", drift " +
             format_number(ref.drift) + (energy_ok ? " <= " : " > ") +
             format_number(energy_tolerance_) + "; force vs direct on " +
             std::to_string(ref.samples) + " bodies: rms " + format_number(ref.force_rms) +
             (force_ok ? " <= " : " > ") + format_number(bound) + ", max " +
             format_number(ref.force_worst) + " (theta " + format_number(theta_) + ")";
  attributes_ = {
      {"force_rms_error", ref.force_rms},
      {"force_max_error", ref.force_worst},
      {"force_error_bound", bound},
      {"energy_drift", ref.drift},
      {"energy_drift_bound", energy_tolerance_},
      {"interactions_per_body", ref.interactions_per_body},
      {"tree_cells", ref.tree_cells},
  };
  return v;
}

}  // namespace lbb
