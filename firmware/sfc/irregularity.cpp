// Irregularity (paper 001 Definition 4.1) by merge-sort inversion counting.
#include "firmware/sfc/irregularity.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace drivevp::sfc {
namespace {

/// Bottom-up merge sort of `a` counting the pairs i < j with a[j] < a[i]: when the right run's
/// head is strictly smaller than the left run's head, it jumps every remaining left element.
std::uint64_t count_inversions(std::vector<std::uint32_t>& a) {
  const std::size_t n = a.size();
  std::vector<std::uint32_t> buf(n);
  std::uint64_t inv = 0;
  for (std::size_t width = 1; width < n; width *= 2) {
    for (std::size_t lo = 0; lo < n; lo += 2 * width) {
      const std::size_t mid = std::min(lo + width, n), hi = std::min(lo + 2 * width, n);
      std::size_t i = lo, j = mid, o = lo;
      while (i < mid && j < hi) {
        if (a[j] < a[i]) {
          inv += mid - i;
          buf[o++] = a[j++];
        } else {
          buf[o++] = a[i++];
        }
      }
      while (i < mid) buf[o++] = a[i++];
      while (j < hi) buf[o++] = a[j++];
    }
    a.swap(buf);
  }
  return inv;
}

}  // namespace

std::uint64_t irregularity(const std::vector<std::uint32_t>& values) {
  std::vector<std::uint32_t> a = values;
  return count_inversions(a);
}

std::vector<std::uint64_t> irregularity_per_dimension(const std::vector<std::uint32_t>& points, unsigned dims) {
  if (dims == 0) throw std::invalid_argument("irregularity: dims = 0, expected at least 1");
  if (points.size() % dims != 0)
    throw std::invalid_argument("irregularity: " + std::to_string(points.size()) +
                                " coordinates is not a whole number of points of dims = " + std::to_string(dims));
  const std::size_t n = points.size() / dims;
  std::vector<std::uint64_t> out(dims);
  std::vector<std::uint32_t> col(n);
  for (unsigned k = 0; k < dims; ++k) {
    for (std::size_t i = 0; i < n; ++i) col[i] = points[i * dims + k];
    out[k] = count_inversions(col);
  }
  return out;
}

IrregularityStats summarize(std::vector<std::uint64_t> per_dimension) {
  if (per_dimension.empty()) throw std::invalid_argument("irregularity: no dimensions to summarize");
  IrregularityStats s;
  s.per_dimension = std::move(per_dimension);
  double sum = 0;
  for (auto v : s.per_dimension) sum += static_cast<double>(v);
  s.mean = sum / static_cast<double>(s.per_dimension.size());
  double sq = 0;
  for (auto v : s.per_dimension) sq += (static_cast<double>(v) - s.mean) * (static_cast<double>(v) - s.mean);
  s.stddev = std::sqrt(sq / static_cast<double>(s.per_dimension.size()));
  return s;
}

IrregularityStats irregularity_stats(const std::vector<std::uint32_t>& points, unsigned dims) {
  return summarize(irregularity_per_dimension(points, dims));
}

double irregularity_ratio(const IrregularityStats& order, const IrregularityStats& fcfs) {
  if (fcfs.mean == 0)
    throw std::invalid_argument("irregularity_ratio: the FCFS order's mean irregularity is 0, the ratio is undefined");
  return order.mean / fcfs.mean;
}

}  // namespace drivevp::sfc
