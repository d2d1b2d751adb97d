// A log-linear histogram of non-negative integers (picoseconds, in our use) for percentiles and
// for plotting response-time histograms and CDFs. Plain C++.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

namespace drivevp {

/// One bucket: the values in [lower, upper) were counted `count` times.
struct HistogramBucket {
  std::int64_t lower = 0;  ///< inclusive
  std::int64_t upper = 0;  ///< exclusive (saturates at INT64_MAX for the very last bucket)
  std::uint64_t count = 0;
};

/// Log-linear ("HDR") histogram with precision p bits (S = 2^p sub-buckets per power of two).
///
/// Bucket layout: values in [0, 2S) each have their own bucket (width 1, exact). Above that, each
/// power-of-two range [2^m, 2^(m+1)), m >= p + 1, is split into S equal buckets of width
/// 2^(m-p). Index of value v: v if v < 2S, else shift*S + (v >> shift) with shift = m - p,
/// m = floor(log2 v). So a bucket's width is at most 2^-p of its lower edge: with the default
/// p = 10, buckets are at most 0.098% wide, and a reported quantile (the bucket's midpoint, clamped
/// to the observed min and max) is within relative_error_bound() = 2^-(p+1) (0.049%) of the exact
/// nearest-rank sample. Values up to INT64_MAX are accepted (about 10^15 ps = 1000 s needs 41
/// powers of two, i.e. 41 * S counters = 328 KiB at p = 10); counters are allocated lazily up to
/// the largest value seen, so memory depends on the value range, never on the number of samples.
///
/// Not thread-safe. Negative values are counted as 0.
class LogLinearHistogram {
 public:
  static constexpr int kDefaultPrecisionBits = 10;

  /// Throws std::invalid_argument unless 1 <= precision_bits <= 20.
  explicit LogLinearHistogram(int precision_bits = kDefaultPrecisionBits);

  /// Counts `value` `n` times. Negative values are counted as 0.
  void record(std::int64_t value, std::uint64_t n = 1);
  /// Adds the counts of `other`; throws std::invalid_argument if its precision differs.
  void merge(const LogLinearHistogram& other);
  void clear();

  int precision_bits() const { return precision_bits_; }
  /// Upper bound of |reported quantile - exact nearest-rank sample| / exact sample: 2^-(p+1).
  double relative_error_bound() const;
  /// Upper bound of (bucket width / bucket lower edge): 2^-p.
  double relative_bucket_width() const;

  std::uint64_t count() const { return total_; }
  /// Smallest and largest recorded values (exact); std::nullopt when empty.
  std::optional<std::int64_t> min() const;
  std::optional<std::int64_t> max() const;

  /// The value at quantile q in [0, 1] (clamped) by the nearest-rank rule: the ceil(q * count)-th
  /// smallest sample (the smallest for q = 0), approximated by its bucket's midpoint and clamped to
  /// [min(), max()]; the smallest and the largest sample are returned exactly. std::nullopt when
  /// empty.
  std::optional<double> value_at_quantile(double q) const;

  /// The non-empty buckets in increasing order.
  std::vector<HistogramBucket> buckets() const;

  /// Bucket index of a non-negative value, and the [lower, upper) edges of a bucket index.
  std::size_t index_of(std::int64_t value) const;
  std::int64_t bucket_lower(std::size_t index) const;
  std::int64_t bucket_upper(std::size_t index) const;

 private:
  int precision_bits_;
  std::int64_t sub_count_;  ///< S = 2^p
  std::vector<std::uint64_t> counts_;
  std::uint64_t total_ = 0;
  std::int64_t min_ = 0;
  std::int64_t max_ = 0;
};

}  // namespace drivevp
