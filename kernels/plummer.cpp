#include "kernels/plummer.h"

#include <cmath>
#include <numbers>
#include <random>
#include <stdexcept>

namespace lbb::kernels {

namespace {

// A point on the sphere of radius r, uniformly distributed in direction.
void isotropic(double r, std::mt19937_64& rng, double out[3]) {
  std::uniform_real_distribution<double> u(0.0, 1.0);
  const double z = (1.0 - 2.0 * u(rng)) * r;
  const double rho = std::sqrt(std::max(0.0, r * r - z * z));
  const double phi = 2.0 * std::numbers::pi * u(rng);
  out[0] = rho * std::cos(phi);
  out[1] = rho * std::sin(phi);
  out[2] = z;
}

}  // namespace

void plummer_model(int dims, std::uint64_t seed, std::span<double> pos, std::span<double> vel,
                   std::span<double> mass) {
  if (dims != 2 && dims != 3) throw std::invalid_argument("plummer_model: dims must be 2 or 3");
  const std::size_t n = mass.size();
  if (pos.size() != n * dims || vel.size() != n * dims)
    throw std::invalid_argument("plummer_model: pos/vel must hold dims values per body");
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  // Aarseth, Henon & Wielen 1974: length scale 3 pi / 16 gives E = -1/4 for G = M = 1.
  const double length = 3.0 * std::numbers::pi / 16.0;
  const double speed = 1.0 / std::sqrt(length);
  double com[3] = {0, 0, 0}, cov[3] = {0, 0, 0};
  for (std::size_t i = 0; i < n; ++i) {
    // Radius from the inverted cumulative mass M(r) = r^3 / (1 + r^2)^{3/2}; the outermost
    // 0.1 % of the mass is cut off, as is customary, to avoid a few far outliers.
    double m_frac;
    do m_frac = u(rng);
    while (m_frac <= 0.0 || m_frac > 0.999);
    const double r = 1.0 / std::sqrt(std::pow(m_frac, -2.0 / 3.0) - 1.0);
    // Speed by rejection from g(q) = q^2 (1 - q^2)^{7/2}, q = v / v_escape (max g < 0.1).
    double q, g;
    do {
      q = u(rng);
      g = q * q * std::pow(1.0 - q * q, 3.5);
    } while (0.1 * u(rng) >= g);
    const double v = q * std::sqrt(2.0) * std::pow(1.0 + r * r, -0.25);
    double x[3], w[3];
    isotropic(r * length, rng, x);
    isotropic(v * speed, rng, w);
    mass[i] = 1.0 / static_cast<double>(n);
    for (int d = 0; d < dims; ++d) {
      pos[i * dims + d] = x[d];
      vel[i * dims + d] = w[d];
      com[d] += x[d] * mass[i];
      cov[d] += w[d] * mass[i];
    }
  }
  for (std::size_t i = 0; i < n; ++i)
    for (int d = 0; d < dims; ++d) {
      pos[i * dims + d] -= com[d];
      vel[i * dims + d] -= cov[d];
    }
}

}  // namespace lbb::kernels
