#include "testbench/metrics/demerit.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <fmt/format.h>
#include <fmt/ostream.h>

namespace drivevp {

namespace {
/// The bucket edges in µs (../shared/drives/disksim-valid/statdefs, "Trace access time").
const std::vector<std::uint64_t>& edges() {
  static const std::vector<std::uint64_t> e = [] {
    std::vector<std::uint64_t> v(ServiceTimeDistribution::kBuckets);
    std::uint64_t x = 0;
    for (auto& edge : v) {
      edge = x;
      x += 1 + x / 100;
    }
    return v;
  }();
  return e;
}

/// x at which the piecewise-linear CDF first reaches q (0 < q <= 1).
double quantile(const std::vector<std::array<double, 2>>& cdf, double q) {
  std::size_t i = 1;
  while (i + 1 < cdf.size() && cdf[i][1] < q) ++i;
  const auto& a = cdf[i - 1];
  const auto& b = cdf[i];
  if (b[1] <= a[1]) return b[0];
  return a[0] + (q - a[1]) / (b[1] - a[1]) * (b[0] - a[0]);
}
}  // namespace

ServiceTimeDistribution::ServiceTimeDistribution() : buckets_(kBuckets, 0) {}

std::uint64_t ServiceTimeDistribution::edge_us(std::size_t k) { return edges().at(k); }

void ServiceTimeDistribution::add(Time t) {
  if (t < Time{0}) throw std::invalid_argument("ServiceTimeDistribution::add: a negative time");
  const std::uint64_t us = static_cast<std::uint64_t>(t.count()) / 1'000'000;
  const auto& e = edges();
  // The first edge above u; the bucket after the edge below it.
  auto it = std::upper_bound(e.begin(), e.end() - 1, us);
  std::size_t k = static_cast<std::size_t>(it - e.begin());
  if (k >= kBuckets) k = kBuckets - 1;
  ++buckets_[k];
  ++count_;
  sum_ms_ += static_cast<long double>(t.count()) / 1e9L;
}

double ServiceTimeDistribution::mean_ms() const {
  return count_ == 0 ? 0.0 : static_cast<double>(sum_ms_ / static_cast<long double>(count_));
}

std::vector<std::array<double, 2>> ServiceTimeDistribution::cdf() const {
  std::vector<std::array<double, 2>> out;
  if (count_ == 0) return out;
  std::uint64_t below = 0;
  for (std::size_t k = 0; k < kBuckets; ++k) {
    below += buckets_[k];
    const double fraction = static_cast<double>(below) / static_cast<double>(count_);
    out.push_back({static_cast<double>(edge_us(k)) / 1000.0, fraction});
    if (below == count_) break;
  }
  return out;
}

double demerit_ms(const ServiceTimeDistribution& simulated, const ServiceTimeDistribution& measured) {
  if (simulated.count() == 0 || measured.count() == 0)
    throw std::invalid_argument("demerit_ms: a distribution without samples");
  const auto a = simulated.cdf();
  const auto b = measured.cdf();
  constexpr int kQuantiles = 10000;
  long double squares = 0;
  for (int k = 1; k <= kQuantiles; ++k) {
    const double q = static_cast<double>(k) / kQuantiles;
    const double d = quantile(a, q) - quantile(b, q);
    squares += static_cast<long double>(d) * d;
  }
  return std::sqrt(static_cast<double>(squares / kQuantiles));
}

void write_cdf_csv(std::ostream& out, const ServiceTimeDistribution& simulated,
                   const ServiceTimeDistribution& measured) {
  const auto a = simulated.cdf();
  const auto b = measured.cdf();
  out << "edge_ms,simulated_fraction,measured_fraction\n";
  const std::size_t n = std::max(a.size(), b.size());
  auto at = [](const std::vector<std::array<double, 2>>& c, std::size_t k) { return k < c.size() ? c[k][1] : 1.0; };
  for (std::size_t k = 0; k < n; ++k) {
    const std::uint64_t e = ServiceTimeDistribution::edge_us(k);
    fmt::print(out, "{}.{:03},{:.6f},{:.6f}\n", e / 1000, e % 1000, at(a, k), at(b, k));
  }
}

}  // namespace drivevp
