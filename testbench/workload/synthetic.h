// Synthetic workload generator: Poisson or fixed-rate arrivals, uniform or Zipf-distributed
// addresses, constant / uniform / exponential / normal / gamma request sizes, a read fraction.
// Plain C++: no SystemC.
//
// What it covers: the synthetic workloads of paper 002 §4 (exponential inter-arrivals,
// exponential sizes with mean 4 KB, uniform placement) and paper 003 §4 / Table 2 (Poisson
// D-request arrivals uniform over the disk, Normal D-request sizes, Gamma C-request sizes), plus a
// Zipf hot-spot address distribution. What it leaves out: correlated / sequential streams,
// bursty (ON/OFF, MMPP) arrivals, per-request deadlines and QoS vectors (continuous streams and
// periodic tasks have their own generators), and closed-loop pacing.
//
// Open or closed loop is the host's business: every generated request carries an arrival time;
// a closed-loop host ignores it and submits each request when a slot frees (testbench/source.h).
#pragma once

#include <cstdint>
#include <optional>
#include <random>
#include <string>

#include "testbench/source.h"
#include "tlm_bus/command.h"

namespace drivevp {

/// Inter-arrival process of a synthetic workload.
enum class ArrivalProcess {
  Poisson,  ///< exponential inter-arrival times with mean 1/rate (papers 002 §4, 003 §4)
  Fixed,    ///< constant inter-arrival time 1/rate
};

/// Distribution of a request's first LBN.
enum class AddressDistribution {
  Uniform,  ///< uniform over the aligned starts in [0, capacity_blocks - size]
  Zipf,     ///< Zipf over aligned extents, P(rank k) ∝ 1/k^zipf_theta, ranks scattered (see below)
};

/// Distribution of a request's length in blocks of kBlockBytes (512 B).
enum class SizeDistribution {
  Constant,     ///< always size_blocks
  Uniform,      ///< integer uniform on [size_min_blocks, size_max_blocks]
  Exponential,  ///< exponential with mean size_mean_blocks (paper 002 §4: mean 4 KB = 8 blocks)
  Normal,       ///< normal (size_mean_blocks, size_stddev_blocks) (paper 003 Table 2, D-requests)
  Gamma,        ///< gamma with mean size_mean_blocks, stddev size_stddev_blocks (003 Table 2, C)
};

/// Scenario spellings: "poisson", "fixed".
std::string to_string(ArrivalProcess a);
/// Scenario spellings: "uniform", "zipf".
std::string to_string(AddressDistribution a);
/// Scenario spellings: "constant", "uniform", "exponential", "normal", "gamma".
std::string to_string(SizeDistribution s);
/// Parses the scenario spelling; std::nullopt if unknown.
std::optional<ArrivalProcess> parse_arrival_process(const std::string& s);
std::optional<AddressDistribution> parse_address_distribution(const std::string& s);
std::optional<SizeDistribution> parse_size_distribution(const std::string& s);

/// Options of a synthetic workload (scenario keys under [workload]; a key equals its member).
/// Sizes and addresses are in blocks of kBlockBytes (512 B). Continuous sizes (exponential,
/// normal, gamma) are rounded to the nearest whole block and then clamped to [1, max_blocks]
/// (clamping, not resampling: the clamped tail mass lands on the bounds).
struct SyntheticOptions {
  std::uint64_t seed = 1;          ///< seeds std::mt19937_64; same options + seed, same sequence
  std::uint64_t requests = 10000;  ///< number of requests to generate, >= 1

  ArrivalProcess arrival = ArrivalProcess::Poisson;
  double rate_per_s = 100.0;  ///< mean arrival rate in requests per second, > 0 (finite)

  AddressDistribution address = AddressDistribution::Uniform;
  double zipf_theta = 0.99;            ///< Zipf exponent, > 0 (0.99 is the YCSB default); zipf only
  std::uint32_t alignment_blocks = 1;  ///< start LBNs are multiples of this, in [1, capacity_blocks]

  SizeDistribution size = SizeDistribution::Constant;
  std::uint32_t size_blocks = 8;       ///< constant: the size, in [1, max_blocks] (8 = 4 KB)
  std::uint32_t size_min_blocks = 1;   ///< uniform: lower bound, in [1, size_max_blocks]
  std::uint32_t size_max_blocks = 16;  ///< uniform: upper bound, in [size_min_blocks, max_blocks]
  double size_mean_blocks = 8.0;       ///< exponential / normal / gamma: mean, > 0
  double size_stddev_blocks = 0.0;     ///< normal: >= 0; gamma: > 0
  std::uint32_t max_blocks = 8192;     ///< upper clamp of every size (8192 = 4 MiB), in [1, capacity_blocks]

  double read_fraction = 1.0;                           ///< probability that a request is a read, in [0, 1]
  std::uint64_t capacity_blocks = 0;                    ///< device capacity in blocks, > 0 (every request fits in it)
  RequestClass request_class = RequestClass::Discrete;  ///< class stamped on every request
  /// Arrival times are used (open loop): an arrival beyond kMaxArrival (53.4 days) throws
  /// std::overflow_error instead of wrapping. A closed loop ignores arrival times and sets false.
  bool arrivals_used = true;

  /// Throws std::invalid_argument naming the first offending field and its allowed range, e.g.
  /// "synthetic workload: rate_per_s = 0 is out of range; allowed: > 0 (requests per second)".
  void validate() const;
};

/// Zipf sampler over ranks 1..n with P(k) = k^-theta / H(n, theta), by rejection-inversion
/// (W. Hörmann, G. Derflinger, "Rejection-inversion to generate variates from monotone discrete
/// distributions", ACM TOMACS 6(3), 1996). O(1) expected time and O(1) memory per sample for any
/// n (up to 2^53 exactly representable), any theta > 0; measured uniforms per sample: 1.000 to
/// 1.017 for theta in [0.1, 3] and n from 10 to 2^40.
class ZipfSampler {
 public:
  /// Throws std::invalid_argument unless n >= 1 and theta > 0 (finite).
  ZipfSampler(std::uint64_t n, double theta);
  /// Draws a rank in [1, n]; consumes one or more doubles from `engine`.
  std::uint64_t operator()(std::mt19937_64& engine) const;
  /// The exact probability of rank k (O(n): for tests and small n).
  double pmf(std::uint64_t k) const;
  std::uint64_t n() const { return n_; }
  double theta() const { return theta_; }

 private:
  double h(double x) const;
  double h_integral(double x) const;
  double h_integral_inverse(double x) const;

  std::uint64_t n_;
  double theta_;
  double h_integral_x1_;
  double h_integral_n_;
  double s_;
};

/// A fixed bijection of [0, n): a 4-round balanced Feistel network on the smallest even number of
/// bits that covers n, with cycle walking to stay inside [0, n). The round keys are constants, so
/// the permutation depends only on n (not on the seed): a Zipf workload's hot extents are the same
/// for every seed, and runs with different seeds differ only in sampling. Expected cost O(1)
/// (fewer than 4 network evaluations on average).
class ExtentPermutation {
 public:
  /// Throws std::invalid_argument unless n >= 1.
  explicit ExtentPermutation(std::uint64_t n);
  /// The image of x in [0, n).
  std::uint64_t operator()(std::uint64_t x) const;
  std::uint64_t n() const { return n_; }

 private:
  std::uint64_t feistel(std::uint64_t x) const;

  std::uint64_t n_;
  unsigned half_bits_;
  std::uint64_t half_mask_;
};

/// Generates `options.requests` requests in non-decreasing arrival order.
///
/// Arrivals: a renewal process starting at time 0; request i (from 0) arrives at the sum of i+1
/// inter-arrival times (fixed: exactly round((i+1) * 1e12 / rate_per_s) ps; Poisson: the running
/// sum of exponential draws, kept in double and rounded to the picosecond, so no rounding drift).
///
/// Addresses: uniform picks an aligned start in [0, capacity_blocks - size]. Zipf draws a rank in
/// [1, E], E = floor(capacity_blocks / alignment_blocks) extents of alignment_blocks blocks; rank
/// k maps to extent ExtentPermutation(E)(k - 1), whose first block is the start LBN; a request that
/// would run past the capacity is moved down to the last aligned start where it fits.
///
/// Determinism: one std::mt19937_64 seeded with `seed`; for every request the draws happen in the
/// order inter-arrival, address, size, read/write (the fixed process and constant size consume no
/// draws). The uniforms are built from the engine's raw 64-bit output and the normal, gamma and
/// exponential variates by our own code (Box-Muller, Marsaglia-Tsang, inversion), not by
/// std::*_distribution, whose algorithms differ between standard libraries; so the sequence is the
/// same on every platform.
class SyntheticSource final : public WorkloadSource {
 public:
  /// Validates `options` (throws std::invalid_argument, see SyntheticOptions::validate()).
  explicit SyntheticSource(SyntheticOptions options);

  bool next(SourceRequest& out) override;
  /// e.g. "synthetic: 1000 requests, poisson arrivals at 100 req/s, zipf(theta=0.99) addresses
  /// over 1000000 blocks aligned to 8, constant 8-block sizes, 70% reads, seed 1".
  std::string describe() const override;

  const SyntheticOptions& options() const { return options_; }
  /// Number of requests yielded so far.
  std::uint64_t generated() const { return generated_; }
  /// Restarts the sequence from the beginning (same seed, same requests).
  void reset();

 private:
  double uniform01();                                ///< [0, 1) with 53 random bits
  std::uint64_t uniform_below(std::uint64_t bound);  ///< [0, bound), unbiased; bound >= 1
  double standard_normal();
  double standard_gamma(double shape);
  Time next_arrival();
  std::uint32_t next_size();

  SyntheticOptions options_;
  std::mt19937_64 engine_;
  std::optional<ZipfSampler> zipf_;
  std::optional<ExtentPermutation> permutation_;
  std::uint64_t zipf_extents_ = 0;
  double interval_ps_;     ///< mean inter-arrival time in ps
  double clock_ps_ = 0.0;  ///< Poisson: running arrival time in ps
  std::uint64_t generated_ = 0;
};

}  // namespace drivevp
