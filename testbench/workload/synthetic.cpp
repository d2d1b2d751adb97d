#include "testbench/workload/synthetic.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <utility>

#include <fmt/format.h>

namespace drivevp {

namespace {

constexpr double kPi = 3.14159265358979323846;

[[noreturn]] void out_of_range(const char* field, const std::string& value, const std::string& allowed) {
  throw std::invalid_argument(
      fmt::format("synthetic workload: {} = {} is out of range; allowed: {}", field, value, allowed));
}

std::string num(double v) { return fmt::format("{}", v); }

/// splitmix64 finaliser (Steele, Lea, Flood 2014): a strong 64-bit mixing function.
std::uint64_t mix64(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

/// The high 64 bits of a * b.
std::uint64_t mul_high(std::uint64_t a, std::uint64_t b) {
  return static_cast<std::uint64_t>((static_cast<unsigned __int128>(a) * b) >> 64);
}

/// log1p(x) / x, continuous at 0 (Hörmann & Derflinger helper, as in Apache Commons RNG).
double helper1(double x) {
  return std::abs(x) > 1e-8 ? std::log1p(x) / x : 1.0 - x * (0.5 - x * (1.0 / 3.0 - 0.25 * x));
}

/// expm1(x) / x, continuous at 0.
double helper2(double x) {
  return std::abs(x) > 1e-8 ? std::expm1(x) / x : 1.0 + x * 0.5 * (1.0 + x * (1.0 / 3.0) * (1.0 + 0.25 * x));
}

/// Largest multiple of `a` that is <= v.
std::uint64_t align_down(std::uint64_t v, std::uint64_t a) { return v - v % a; }

}  // namespace

// --- spellings ---------------------------------------------------------------------------------

std::string to_string(ArrivalProcess a) { return a == ArrivalProcess::Poisson ? "poisson" : "fixed"; }

std::string to_string(AddressDistribution a) { return a == AddressDistribution::Uniform ? "uniform" : "zipf"; }

std::string to_string(SizeDistribution s) {
  switch (s) {
    case SizeDistribution::Constant:
      return "constant";
    case SizeDistribution::Uniform:
      return "uniform";
    case SizeDistribution::Exponential:
      return "exponential";
    case SizeDistribution::Normal:
      return "normal";
    case SizeDistribution::Gamma:
      return "gamma";
  }
  return "?";
}

std::optional<ArrivalProcess> parse_arrival_process(const std::string& s) {
  if (s == "poisson") return ArrivalProcess::Poisson;
  if (s == "fixed") return ArrivalProcess::Fixed;
  return std::nullopt;
}

std::optional<AddressDistribution> parse_address_distribution(const std::string& s) {
  if (s == "uniform") return AddressDistribution::Uniform;
  if (s == "zipf") return AddressDistribution::Zipf;
  return std::nullopt;
}

std::optional<SizeDistribution> parse_size_distribution(const std::string& s) {
  for (auto d : {SizeDistribution::Constant, SizeDistribution::Uniform, SizeDistribution::Exponential,
                 SizeDistribution::Normal, SizeDistribution::Gamma}) {
    if (to_string(d) == s) return d;
  }
  return std::nullopt;
}

// --- options -----------------------------------------------------------------------------------

void SyntheticOptions::validate() const {
  if (requests < 1) out_of_range("requests", std::to_string(requests), ">= 1");
  if (!(rate_per_s > 0) || !std::isfinite(rate_per_s))
    out_of_range("rate_per_s", num(rate_per_s), "> 0 (requests per second)");
  if (!(zipf_theta > 0) || !std::isfinite(zipf_theta)) out_of_range("zipf_theta", num(zipf_theta), "> 0");
  if (capacity_blocks < 1) out_of_range("capacity_blocks", std::to_string(capacity_blocks), ">= 1 (blocks)");
  if (alignment_blocks < 1 || alignment_blocks > capacity_blocks)
    out_of_range("alignment_blocks", std::to_string(alignment_blocks),
                 fmt::format("[1, capacity_blocks = {}] (blocks)", capacity_blocks));
  if (max_blocks < 1 || max_blocks > capacity_blocks)
    out_of_range("max_blocks", std::to_string(max_blocks),
                 fmt::format("[1, capacity_blocks = {}] (blocks)", capacity_blocks));
  if (size_blocks < 1 || size_blocks > max_blocks)
    out_of_range("size_blocks", std::to_string(size_blocks), fmt::format("[1, max_blocks = {}] (blocks)", max_blocks));
  if (size_min_blocks < 1 || size_min_blocks > max_blocks)
    out_of_range("size_min_blocks", std::to_string(size_min_blocks),
                 fmt::format("[1, max_blocks = {}] (blocks)", max_blocks));
  if (size_max_blocks < size_min_blocks || size_max_blocks > max_blocks)
    out_of_range("size_max_blocks", std::to_string(size_max_blocks),
                 fmt::format("[size_min_blocks = {}, max_blocks = {}] (blocks)", size_min_blocks, max_blocks));
  if (!(size_mean_blocks > 0) || !std::isfinite(size_mean_blocks))
    out_of_range("size_mean_blocks", num(size_mean_blocks), "> 0 (blocks)");
  if (size == SizeDistribution::Gamma) {
    if (!(size_stddev_blocks > 0) || !std::isfinite(size_stddev_blocks))
      out_of_range("size_stddev_blocks", num(size_stddev_blocks), "> 0 (blocks) for size = \"gamma\"");
  } else if (!(size_stddev_blocks >= 0) || !std::isfinite(size_stddev_blocks)) {
    out_of_range("size_stddev_blocks", num(size_stddev_blocks), ">= 0 (blocks)");
  }
  if (!(read_fraction >= 0 && read_fraction <= 1)) out_of_range("read_fraction", num(read_fraction), "[0, 1]");
  const auto cls = static_cast<unsigned>(request_class);
  if (cls > static_cast<unsigned>(RequestClass::Aperiodic))
    out_of_range("request_class", std::to_string(cls), "discrete, continuous, real_time or aperiodic");
}

// --- Zipf rejection-inversion --------------------------------------------------------------------
//
// Hörmann & Derflinger 1996 for the monotone function h(x) = x^-theta on [1, n]: H(x) is an
// antiderivative of h, the sampler inverts H over the area (H(1.5) - 1, H(n + 0.5)] and accepts
// the rounded point k when it falls under the histogram of h; the constant s makes the
// acceptance test free for most draws. Same formulation as Apache Commons RNG's
// RejectionInversionZipfSampler.

ZipfSampler::ZipfSampler(std::uint64_t n, double theta) : n_(n), theta_(theta) {
  if (n < 1) throw std::invalid_argument("ZipfSampler: n = 0 is out of range; allowed: >= 1");
  if (!(theta > 0) || !std::isfinite(theta))
    throw std::invalid_argument(fmt::format("ZipfSampler: theta = {} is out of range; allowed: > 0", theta));
  h_integral_x1_ = h_integral(1.5) - 1.0;
  h_integral_n_ = h_integral(static_cast<double>(n_) + 0.5);
  s_ = 2.0 - h_integral_inverse(h_integral(2.5) - h(2.0));
}

double ZipfSampler::h(double x) const { return std::exp(-theta_ * std::log(x)); }

double ZipfSampler::h_integral(double x) const {
  const double log_x = std::log(x);
  return helper2((1.0 - theta_) * log_x) * log_x;
}

double ZipfSampler::h_integral_inverse(double x) const {
  double t = x * (1.0 - theta_);
  if (t < -1.0) t = -1.0;  // numerical safety: the true value is > -1
  return std::exp(helper1(t) * x);
}

std::uint64_t ZipfSampler::operator()(std::mt19937_64& engine) const {
  const double nd = static_cast<double>(n_);
  for (;;) {
    const double r = static_cast<double>(engine() >> 11) * 0x1.0p-53;       // [0, 1)
    const double u = h_integral_n_ + r * (h_integral_x1_ - h_integral_n_);  // (H(1.5)-1, H(n+0.5)]
    const double x = h_integral_inverse(u);
    double kd = std::floor(x + 0.5);
    if (kd < 1.0) kd = 1.0;
    if (kd > nd) kd = nd;
    if (kd - x <= s_ || u >= h_integral(kd + 0.5) - h(kd)) return static_cast<std::uint64_t>(kd);
  }
}

double ZipfSampler::pmf(std::uint64_t k) const {
  if (k < 1 || k > n_) return 0.0;
  double norm = 0.0;
  for (std::uint64_t i = n_; i >= 1; --i) norm += std::pow(static_cast<double>(i), -theta_);  // small terms first
  return std::pow(static_cast<double>(k), -theta_) / norm;
}

// --- extent permutation ------------------------------------------------------------------------

ExtentPermutation::ExtentPermutation(std::uint64_t n) : n_(n) {
  if (n < 1) throw std::invalid_argument("ExtentPermutation: n = 0 is out of range; allowed: >= 1");
  unsigned bits = 0;
  for (std::uint64_t v = n - 1; v != 0; v >>= 1) ++bits;
  bits = std::max(2u, bits + (bits & 1u));  // even, so the network is balanced
  half_bits_ = bits / 2;
  half_mask_ = half_bits_ >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << half_bits_) - 1;
}

std::uint64_t ExtentPermutation::feistel(std::uint64_t x) const {
  static constexpr std::uint64_t kKeys[4] = {0x243f6a8885a308d3ULL, 0x13198a2e03707344ULL, 0xa4093822299f31d0ULL,
                                             0x082efa98ec4e6c89ULL};  // digits of pi: fixed, not the seed
  std::uint64_t left = x >> half_bits_;
  std::uint64_t right = x & half_mask_;
  for (std::uint64_t key : kKeys) {
    const std::uint64_t f = mix64(right ^ key) & half_mask_;
    const std::uint64_t new_right = left ^ f;
    left = right;
    right = new_right;
  }
  return (left << half_bits_) | right;
}

std::uint64_t ExtentPermutation::operator()(std::uint64_t x) const {
  if (n_ == 1) return 0;
  // Cycle walking: the network permutes [0, 2^bits); iterating it from x < n reaches a value < n
  // again before returning to x, which keeps the restriction to [0, n) a bijection.
  std::uint64_t y = feistel(x);
  while (y >= n_) y = feistel(y);
  return y;
}

// --- source ------------------------------------------------------------------------------------

SyntheticSource::SyntheticSource(SyntheticOptions options)
    : options_(std::move(options)), engine_(options_.seed), interval_ps_(1e12 / options_.rate_per_s) {
  options_.validate();
  if (options_.address == AddressDistribution::Zipf) {
    zipf_extents_ = options_.capacity_blocks / options_.alignment_blocks;
    zipf_.emplace(zipf_extents_, options_.zipf_theta);
    permutation_.emplace(zipf_extents_);
  }
}

void SyntheticSource::reset() {
  engine_.seed(options_.seed);
  clock_ps_ = 0.0;
  generated_ = 0;
}

double SyntheticSource::uniform01() { return static_cast<double>(engine_() >> 11) * 0x1.0p-53; }

std::uint64_t SyntheticSource::uniform_below(std::uint64_t bound) {
  // Lemire, "Fast random integer generation in an interval", ACM TOMACS 2019: unbiased.
  unsigned __int128 m = static_cast<unsigned __int128>(engine_()) * bound;
  auto low = static_cast<std::uint64_t>(m);
  if (low < bound) {
    const std::uint64_t threshold = (0 - bound) % bound;
    while (low < threshold) {
      m = static_cast<unsigned __int128>(engine_()) * bound;
      low = static_cast<std::uint64_t>(m);
    }
  }
  return static_cast<std::uint64_t>(m >> 64);
}

double SyntheticSource::standard_normal() {
  // Box-Muller, one variate from two uniforms (no cached second variate: each call is self-contained).
  const double u1 = 1.0 - uniform01();  // (0, 1]
  const double u2 = uniform01();
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * kPi * u2);
}

double SyntheticSource::standard_gamma(double shape) {
  // Marsaglia & Tsang, "A simple method for generating gamma variables", ACM TOMS 26(3), 2000.
  if (shape < 1.0) {
    const double g = standard_gamma(shape + 1.0);
    return g * std::pow(1.0 - uniform01(), 1.0 / shape);
  }
  const double d = shape - 1.0 / 3.0;
  const double c = 1.0 / std::sqrt(9.0 * d);
  for (;;) {
    double x = 0;
    double v = 0;
    do {
      x = standard_normal();
      v = 1.0 + c * x;
    } while (v <= 0.0);
    v = v * v * v;
    const double u = 1.0 - uniform01();  // (0, 1]
    if (u < 1.0 - 0.0331 * x * x * x * x) return d * v;
    if (std::log(u) < 0.5 * x * x + d * (1.0 - v + std::log(v))) return d * v;
  }
}

Time SyntheticSource::next_arrival() {
  if (options_.arrival == ArrivalProcess::Fixed) {
    clock_ps_ = static_cast<double>(generated_ + 1) * interval_ps_;
  } else {
    clock_ps_ += -std::log(1.0 - uniform01()) * interval_ps_;
  }
  // The scenario keeps the expected last arrival within half of kMaxArrival; this guard stops a
  // run whose random draws still pass the limit, before a time could wrap.
  if (!(clock_ps_ <= static_cast<double>(kMaxArrival.count()))) {
    if (!options_.arrivals_used) return kMaxArrival;  // closed loop: the host stamps its own time
    throw std::overflow_error(fmt::format(
        "workload.rate_per_s: request {} would arrive after the simulated-time limit of {} s; raise the rate or "
        "lower run.requests",
        generated_, kMaxArrival.count() / 1'000'000'000'000));
  }
  return Time{std::llround(clock_ps_)};
}

std::uint32_t SyntheticSource::next_size() {
  const SyntheticOptions& o = options_;
  double blocks = 0;
  switch (o.size) {
    case SizeDistribution::Constant:
      return o.size_blocks;
    case SizeDistribution::Uniform:
      return o.size_min_blocks +
             static_cast<std::uint32_t>(uniform_below(std::uint64_t{o.size_max_blocks} - o.size_min_blocks + 1));
    case SizeDistribution::Exponential:
      blocks = -std::log(1.0 - uniform01()) * o.size_mean_blocks;
      break;
    case SizeDistribution::Normal:
      blocks = o.size_mean_blocks + o.size_stddev_blocks * standard_normal();
      break;
    case SizeDistribution::Gamma: {
      const double shape = (o.size_mean_blocks / o.size_stddev_blocks) * (o.size_mean_blocks / o.size_stddev_blocks);
      const double scale = o.size_stddev_blocks * o.size_stddev_blocks / o.size_mean_blocks;
      blocks = standard_gamma(shape) * scale;
      break;
    }
  }
  const double rounded = std::round(blocks);
  if (!(rounded >= 1.0)) return 1;
  if (rounded >= static_cast<double>(o.max_blocks)) return o.max_blocks;
  return static_cast<std::uint32_t>(rounded);
}

bool SyntheticSource::next(SourceRequest& out) {
  if (generated_ >= options_.requests) return false;
  const SyntheticOptions& o = options_;

  // 1. inter-arrival
  const Time arrival = next_arrival();
  // 2. address: one raw draw (uniform) or one Zipf rank; mapped to an LBN once the size is known
  std::uint64_t address_draw = 0;
  if (o.address == AddressDistribution::Uniform) {
    address_draw = engine_();
  } else {
    address_draw = (*zipf_)(engine_);
  }
  // 3. size
  const std::uint32_t blocks = next_size();
  // 4. read / write
  const bool read = uniform01() < o.read_fraction;

  const std::uint64_t align = o.alignment_blocks;
  const std::uint64_t last_start = align_down(o.capacity_blocks - blocks, align);  // last aligned start that fits
  std::uint64_t lbn = 0;
  if (o.address == AddressDistribution::Uniform) {
    // Multiply-shift maps the 64-bit draw onto the slots; the bias is below slots / 2^64.
    lbn = mul_high(address_draw, last_start / align + 1) * align;
  } else {
    lbn = std::min((*permutation_)(address_draw - 1) * align, last_start);
  }

  out = SourceRequest{};
  out.command.lbn = lbn;
  out.command.blocks = blocks;
  out.command.op = read ? Op::Read : Op::Write;
  out.command.cls = o.request_class;
  out.command.arrival = arrival;
  out.origin_line = 0;
  ++generated_;
  return true;
}

std::string SyntheticSource::describe() const {
  const SyntheticOptions& o = options_;
  std::string addresses = o.address == AddressDistribution::Zipf ? fmt::format("zipf(theta={}) addresses", o.zipf_theta)
                                                                 : std::string("uniform addresses");
  std::string sizes;
  switch (o.size) {
    case SizeDistribution::Constant:
      sizes = fmt::format("constant {}-block sizes", o.size_blocks);
      break;
    case SizeDistribution::Uniform:
      sizes = fmt::format("uniform sizes in [{}, {}] blocks", o.size_min_blocks, o.size_max_blocks);
      break;
    case SizeDistribution::Exponential:
      sizes = fmt::format("exponential sizes (mean {} blocks, max {})", o.size_mean_blocks, o.max_blocks);
      break;
    case SizeDistribution::Normal:
    case SizeDistribution::Gamma:
      sizes = fmt::format("{} sizes (mean {}, stddev {} blocks, max {})", to_string(o.size), o.size_mean_blocks,
                          o.size_stddev_blocks, o.max_blocks);
      break;
  }
  return fmt::format(
      "synthetic: {} requests, {} arrivals at {} req/s, {} over {} blocks aligned to {}, {}, {}% reads, "
      "seed {}",
      o.requests, to_string(o.arrival), o.rate_per_s, addresses, o.capacity_blocks, o.alignment_blocks, sizes,
      o.read_fraction * 100.0, o.seed);
}

}  // namespace drivevp
