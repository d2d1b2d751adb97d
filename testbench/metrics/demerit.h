// The demerit figure: how far a simulated service-time distribution is from one measured on a
// real drive (Ruemmler & Wilkes, "An introduction to disk drive modeling", IEEE Computer 1994;
// computed as DiskSim 4.0 computes it, ../shared/drives/README.md, "The demerit"). Plain C++.
#pragma once

#include <array>
#include <cstdint>
#include <ostream>
#include <vector>

#include "tlm_bus/command.h"

namespace drivevp {

/// A service-time distribution in DiskSim's "Trace access time" buckets (its `statdefs`: 1,750
/// buckets, scale 1000 per ms, "Start 0 step 1 grow 1"): bucket edges in whole microseconds
/// e_0 = 0, e_{k+1} = e_k + 1 + floor(e_k / 100) (1 % geometric growth from 1 µs; e_1749 is
/// about 1.5·10^5 s). A time t is truncated to whole microseconds u = floor(t / 1 µs); bucket
/// k >= 1 counts the u in [e_{k-1}, e_k) and the last bucket also every u >= e_1748. Memory is
/// the 1,750 counters, whatever the number of samples.
class ServiceTimeDistribution {
 public:
  static constexpr std::size_t kBuckets = 1750;
  ServiceTimeDistribution();
  /// Adds one time; a negative time throws std::invalid_argument.
  void add(Time t);
  std::uint64_t count() const { return count_; }
  /// Mean of the added times, milliseconds (exact, not from the buckets); 0 when empty.
  double mean_ms() const;
  /// Bucket edge e_k in microseconds, k in [0, kBuckets).
  static std::uint64_t edge_us(std::size_t k);
  /// The cumulative distribution as DiskSim prints it: point k = (e_k in ms, fraction of the
  /// times below e_k), for k = 0 up to and including the first point whose fraction reaches 1.
  /// Empty when no time was added.
  std::vector<std::array<double, 2>> cdf() const;

 private:
  std::vector<std::uint64_t> buckets_;
  std::uint64_t count_ = 0;
  long double sum_ms_ = 0;
};

/// The demerit of `simulated` against `measured`, milliseconds: both cumulative distributions
/// (ServiceTimeDistribution::cdf, linear between the points) are read at the quantiles
/// q = k / 10,000, k = 1 .. 10,000, and the demerit is the root mean square of the horizontal
/// distances x_sim(q) - x_meas(q). Symmetric; 0 for identical distributions; a distribution shifted
/// by d (bucket resolution permitting: 1 % of the time) has demerit d. Throws
/// std::invalid_argument if either is empty.
double demerit_ms(const ServiceTimeDistribution& simulated, const ServiceTimeDistribution& measured);

/// Writes both cumulative distributions as CSV, header `edge_ms,simulated_fraction,measured_fraction`,
/// one row per bucket edge k = 0 .. up to the first edge where both reach 1 (fractions of the times
/// below edge k, printed with 6 decimals; the edges exactly, in ms). For plots
/// (reports/plot_validation.py) and for users who compare with DiskSim's printed distribution.
void write_cdf_csv(std::ostream& out, const ServiceTimeDistribution& simulated,
                   const ServiceTimeDistribution& measured);

}  // namespace drivevp
