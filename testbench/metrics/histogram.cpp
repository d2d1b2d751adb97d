#include "testbench/metrics/histogram.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace drivevp {

LogLinearHistogram::LogLinearHistogram(int precision_bits)
    : precision_bits_(precision_bits), sub_count_(std::int64_t{1} << std::clamp(precision_bits, 1, 20)) {
  if (precision_bits < 1 || precision_bits > 20) {
    throw std::invalid_argument("LogLinearHistogram: precision_bits = " + std::to_string(precision_bits) +
                                " is out of range; allowed: [1, 20]");
  }
}

double LogLinearHistogram::relative_error_bound() const { return std::ldexp(1.0, -(precision_bits_ + 1)); }

double LogLinearHistogram::relative_bucket_width() const { return std::ldexp(1.0, -precision_bits_); }

std::size_t LogLinearHistogram::index_of(std::int64_t value) const {
  const auto v = static_cast<std::uint64_t>(std::max<std::int64_t>(value, 0));
  const auto s = static_cast<std::uint64_t>(sub_count_);
  if (v < 2 * s) return static_cast<std::size_t>(v);
  const int msb = 63 - __builtin_clzll(v);
  const int shift = msb - precision_bits_;
  return static_cast<std::size_t>(static_cast<std::uint64_t>(shift) * s + (v >> shift));
}

std::int64_t LogLinearHistogram::bucket_lower(std::size_t index) const {
  const auto s = static_cast<std::uint64_t>(sub_count_);
  const auto i = static_cast<std::uint64_t>(index);
  if (i < 2 * s) return static_cast<std::int64_t>(i);
  const std::uint64_t shift = i / s - 1;
  const std::uint64_t sub = i % s + s;
  return static_cast<std::int64_t>(sub << shift);
}

std::int64_t LogLinearHistogram::bucket_upper(std::size_t index) const {
  const auto s = static_cast<std::uint64_t>(sub_count_);
  const auto i = static_cast<std::uint64_t>(index);
  if (i < 2 * s) return static_cast<std::int64_t>(i + 1);
  const std::uint64_t shift = i / s - 1;
  const std::uint64_t upper = (i % s + s + 1) << shift;
  constexpr auto kMax = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
  return static_cast<std::int64_t>(std::min(upper, kMax));
}

void LogLinearHistogram::record(std::int64_t value, std::uint64_t n) {
  if (n == 0) return;
  value = std::max<std::int64_t>(value, 0);
  const std::size_t idx = index_of(value);
  if (idx >= counts_.size()) {
    // Grow to the end of the value's power of two, so growth happens at most once per octave.
    const auto s = static_cast<std::size_t>(sub_count_);
    counts_.resize((idx / s + 1) * s, 0);
  }
  counts_[idx] += n;
  if (total_ == 0) {
    min_ = value;
    max_ = value;
  } else {
    min_ = std::min(min_, value);
    max_ = std::max(max_, value);
  }
  total_ += n;
}

void LogLinearHistogram::merge(const LogLinearHistogram& other) {
  if (other.precision_bits_ != precision_bits_) {
    throw std::invalid_argument("LogLinearHistogram::merge: precision_bits differ (" + std::to_string(precision_bits_) +
                                " vs " + std::to_string(other.precision_bits_) + ")");
  }
  if (other.total_ == 0) return;
  if (other.counts_.size() > counts_.size()) counts_.resize(other.counts_.size(), 0);
  for (std::size_t i = 0; i < other.counts_.size(); ++i) counts_[i] += other.counts_[i];
  if (total_ == 0) {
    min_ = other.min_;
    max_ = other.max_;
  } else {
    min_ = std::min(min_, other.min_);
    max_ = std::max(max_, other.max_);
  }
  total_ += other.total_;
}

void LogLinearHistogram::clear() {
  counts_.clear();
  total_ = 0;
  min_ = 0;
  max_ = 0;
}

std::optional<std::int64_t> LogLinearHistogram::min() const {
  if (total_ == 0) return std::nullopt;
  return min_;
}

std::optional<std::int64_t> LogLinearHistogram::max() const {
  if (total_ == 0) return std::nullopt;
  return max_;
}

std::optional<double> LogLinearHistogram::value_at_quantile(double q) const {
  if (total_ == 0) return std::nullopt;
  if (!(q >= 0)) q = 0;  // also NaN
  if (q > 1) q = 1;
  const double r = q * static_cast<double>(total_);
  // ceil(q * n), forgiving the last-bit error of the product (0.95 * 100000 must give 95000).
  auto rank = static_cast<std::uint64_t>(std::ceil(r - r * 1e-12));
  rank = std::clamp<std::uint64_t>(rank, 1, total_);
  if (rank == 1) return static_cast<double>(min_);  // the extremes are known exactly
  if (rank == total_) return static_cast<double>(max_);
  std::uint64_t cumulative = 0;
  for (std::size_t i = 0; i < counts_.size(); ++i) {
    cumulative += counts_[i];
    if (cumulative >= rank) {
      const double lower = static_cast<double>(bucket_lower(i));
      const double upper_inclusive = static_cast<double>(bucket_upper(i)) - 1.0;
      const double mid = 0.5 * (lower + upper_inclusive);
      return std::clamp(mid, static_cast<double>(min_), static_cast<double>(max_));
    }
  }
  return static_cast<double>(max_);  // unreachable: the counts sum to total_
}

std::vector<HistogramBucket> LogLinearHistogram::buckets() const {
  std::vector<HistogramBucket> out;
  for (std::size_t i = 0; i < counts_.size(); ++i) {
    if (counts_[i] != 0) out.push_back(HistogramBucket{bucket_lower(i), bucket_upper(i), counts_[i]});
  }
  return out;
}

}  // namespace drivevp
