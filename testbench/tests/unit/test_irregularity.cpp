// Unit tests of irregularity (paper 001 Definition 4.1; firmware/sfc/irregularity.h) against a
// brute-force O(n^2) count, and paper 001 §4.2's exhaustive experiment: eight levels with one
// request each, all 8! = 40320 service orders, relating irregularity to seek cost (§4.2.1),
// priority inversion (§4.2.2) and deadline losses (§4.2.3) as in Fig. 7.
#include <catch2/catch_approx.hpp>
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <numeric>
#include <random>
#include <stdexcept>
#include <vector>

#include "firmware/sfc/curves.h"
#include "firmware/sfc/irregularity.h"

namespace drivevp::sfc {
namespace {

std::uint64_t brute_force(const std::vector<std::uint32_t>& v) {
  std::uint64_t c = 0;
  for (std::size_t j = 0; j < v.size(); ++j)
    for (std::size_t i = 0; i < j; ++i)
      if (v[j] < v[i]) ++c;
  return c;
}

TEST_CASE("irregularity equals the brute-force pair count on random sequences", "[sfc][irregularity]") {
  std::mt19937 rng(42);
  for (int trial = 0; trial < 300; ++trial) {
    const std::size_t n = rng() % 400;
    const std::uint32_t range = 1 + rng() % (trial % 2 ? 8 : 100000);  // many ties, or few
    std::vector<std::uint32_t> v(n);
    for (auto& x : v) x = rng() % range;
    REQUIRE(irregularity(v) == brute_force(v));
  }
}

TEST_CASE("irregularity of sorted, reversed, constant and tiny sequences", "[sfc][irregularity]") {
  std::vector<std::uint32_t> v(1000);
  std::iota(v.begin(), v.end(), 0u);
  CHECK(irregularity(v) == 0);
  std::reverse(v.begin(), v.end());
  CHECK(irregularity(v) == 1000ull * 999 / 2);
  CHECK(irregularity(std::vector<std::uint32_t>(50, 7)) == 0);  // equal values are no irregularity
  CHECK(irregularity({}) == 0);
  CHECK(irregularity({3}) == 0);
  CHECK(irregularity({2, 1}) == 1);
}

TEST_CASE("per-dimension irregularity, mean, standard deviation and the ratio to FCFS", "[sfc][irregularity]") {
  // 2-D points (x, y) served in this order: x = 0 1 2 3 (sorted), y = 3 2 1 0 (reversed).
  const std::vector<std::uint32_t> pts = {0, 3, 1, 2, 2, 1, 3, 0};
  const IrregularityStats s = irregularity_stats(pts, 2);
  CHECK(s.per_dimension == std::vector<std::uint64_t>{0, 6});
  CHECK(s.mean == 3.0);
  CHECK(s.stddev == 3.0);  // population standard deviation of {0, 6}
  const IrregularityStats fcfs = summarize({4, 8});
  CHECK(irregularity_ratio(s, fcfs) == Catch::Approx(0.5));
  using Catch::Matchers::ContainsSubstring;
  CHECK_THROWS_WITH(irregularity_ratio(s, summarize({0, 0})), ContainsSubstring("FCFS"));
  CHECK_THROWS_WITH(irregularity_per_dimension(pts, 3), ContainsSubstring("dims = 3"));
  CHECK_THROWS_AS(irregularity_per_dimension(pts, 0), std::invalid_argument);
  CHECK_THROWS_AS(summarize({}), std::invalid_argument);
  // random 3-D sequences against the brute force, dimension by dimension
  std::mt19937 rng(5);
  std::vector<std::uint32_t> p(3 * 500);
  for (auto& x : p) x = rng() % 16;
  const auto per = irregularity_per_dimension(p, 3);
  for (unsigned k = 0; k < 3; ++k) {
    std::vector<std::uint32_t> col;
    for (std::size_t i = 0; i < 500; ++i) col.push_back(p[i * 3 + k]);
    CHECK(per[k] == brute_force(col));
  }
}

TEST_CASE("Sweep order on a 2-D grid: no irregularity in y, the x count by hand", "[sfc][irregularity]") {
  // 4 x 4 Sweep: y sorted; in x, every pair of points in different rows with x_i > x_j: per pair of
  // rows 6 pairs (the strictly-greater pairs of 0..3), C(4,2) = 6 pairs of rows -> 36.
  const Curve c(CurveKind::Sweep, 2, 4);
  std::vector<std::uint32_t> pts;
  for (Key p = 0; p <= c.last(); ++p)
    for (auto v : c.decode_checked(p)) pts.push_back(v);
  CHECK(irregularity_per_dimension(pts, 2) == std::vector<std::uint64_t>{36, 0});
}

// --- paper 001 §4.2: eight levels, one request each, all 8! orders ----------------------------

constexpr int kLevels = 8;
using Perm = std::array<int, kLevels>;  // served order of levels 1..8

/// §4.2.1: seek distance in units of Ts with the head starting at C1.
int seek_cost(const Perm& p) {
  int head = 1, cost = 0;
  for (int c : p) {
    cost += std::abs(c - head);
    head = c;
  }
  return cost;
}

/// §4.2.1's irregularity, "computed based on the shortest possible seek time from the current
/// location": at each step, the number of waiting requests strictly nearer to the head than the
/// one served (the 1-D irregularity of the order when priority = distance from the head).
int seek_irregularity(const Perm& p) {
  int head = 1, irr = 0;
  for (int i = 0; i < kLevels; ++i) {
    const int d = std::abs(p[i] - head);
    for (int j = i + 1; j < kLevels; ++j)
      if (std::abs(p[j] - head) < d) ++irr;
    head = p[i];
  }
  return irr;
}

/// §4.2.2: when the request of priority P_i is served, the number of waiting requests of higher
/// priority. P_1 is the highest priority (as in §4.2.3, where P_1 has the tightest deadline, and
/// as in §3, where the lower value is served first): "higher" = smaller index.
int priority_inversions(const Perm& p) {
  int inv = 0;
  for (int i = 0; i < kLevels; ++i)
    for (int j = i + 1; j < kLevels; ++j)
      if (p[j] < p[i]) ++inv;
  return inv;
}

/// The literal numeric reading of §4.2.2 ("P_j > P_i", P_8 the highest priority).
int priority_inversions_numeric(const Perm& p) {
  int inv = 0;
  for (int i = 0; i < kLevels; ++i)
    for (int j = i + 1; j < kLevels; ++j)
      if (p[j] > p[i]) ++inv;
  return inv;
}

/// §4.2.3: service a = 20 ms each, back to back from time 0; deadline b * P_i with b = 25 ms;
/// a request completing exactly at its deadline meets it.
int deadline_losses(const Perm& p) {
  constexpr int a = 20, b = 25;
  int losses = 0;
  for (int i = 0; i < kLevels; ++i)
    if (a * (i + 1) > b * p[i]) ++losses;
  return losses;
}

/// §4.2.3's lateness, for comparison: the summed tardiness max(0, completion - deadline) in ms.
int total_tardiness_ms(const Perm& p) {
  constexpr int a = 20, b = 25;
  int late = 0;
  for (int i = 0; i < kLevels; ++i) late += std::max(0, a * (i + 1) - b * p[i]);
  return late;
}

std::uint64_t irregularity_of(const Perm& p) { return irregularity(std::vector<std::uint32_t>(p.begin(), p.end())); }

double pearson(const std::vector<double>& x, const std::vector<double>& y) {
  const double n = static_cast<double>(x.size());
  const double mx = std::accumulate(x.begin(), x.end(), 0.0) / n, my = std::accumulate(y.begin(), y.end(), 0.0) / n;
  double sxy = 0, sxx = 0, syy = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    sxy += (x[i] - mx) * (y[i] - my);
    sxx += (x[i] - mx) * (x[i] - mx);
    syy += (y[i] - my) * (y[i] - my);
  }
  return sxy / std::sqrt(sxx * syy);
}

struct PerIrregularity {
  std::array<double, 29> sum{};
  std::array<int, 29> count{};
  void add(int irr, double v) {
    sum.at(static_cast<std::size_t>(irr)) += v;
    ++count.at(static_cast<std::size_t>(irr));
  }
  double mean(int irr) const { return sum[static_cast<std::size_t>(irr)] / count[static_cast<std::size_t>(irr)]; }
  std::vector<double> means() const {
    std::vector<double> m;
    for (int i = 0; i <= 28; ++i) m.push_back(mean(i));
    return m;
  }
};

TEST_CASE("paper 001 §4.2: all 8! orders of eight levels against seek, inversion and deadline loss",
          "[sfc][irregularity]") {
  Perm p{};
  std::iota(p.begin(), p.end(), 1);
  PerIrregularity seek, inversion, inversion_numeric, loss, tardiness;
  int orders = 0, min_seek = 1000, max_seek = 0;
  do {
    ++orders;
    const int si = seek_irregularity(p);
    const int sc = seek_cost(p);
    min_seek = std::min(min_seek, sc);
    max_seek = std::max(max_seek, sc);
    seek.add(si, sc);
    const auto irr = static_cast<int>(irregularity_of(p));
    REQUIRE(irr == priority_inversions(p));  // the inversion total is the irregularity itself
    REQUIRE(priority_inversions_numeric(p) == 28 - irr);
    inversion.add(irr, priority_inversions(p));
    inversion_numeric.add(irr, priority_inversions_numeric(p));
    loss.add(irr, deadline_losses(p));
    tardiness.add(irr, total_tardiness_ms(p));
  } while (std::next_permutation(p.begin(), p.end()));
  REQUIRE(orders == 40320);

  // Irregularity ranges over 0 .. 28, every value reached; 0 and 28 by exactly one order each.
  for (int i = 0; i <= 28; ++i) {
    INFO("I = " << i);
    CHECK(seek.count[static_cast<std::size_t>(i)] > 0);
    CHECK(inversion.count[static_cast<std::size_t>(i)] > 0);
  }
  CHECK(seek.count[0] == 1);
  CHECK(seek.count[28] == 1);
  CHECK(inversion.count[0] == 1);
  CHECK(inversion.count[28] == 1);
  // Inversion counts are Mahonian: 8! orders, symmetric, 1 7 27 ... per I (OEIS A008302, n = 8).
  CHECK(inversion.count[1] == 7);
  CHECK(inversion.count[2] == 27);
  CHECK(inversion.count[14] == 3836);

  // §4.2.1: the best order C1..C8 (I = 0) costs 7 Ts, the worst C8 C1 C7 C2 C6 C3 C5 C4 (I = 28)
  // costs 35 Ts; they are also the cheapest and dearest of all 40320.
  CHECK(seek_irregularity({1, 2, 3, 4, 5, 6, 7, 8}) == 0);
  CHECK(seek_cost({1, 2, 3, 4, 5, 6, 7, 8}) == 7);
  CHECK(seek_irregularity({8, 1, 7, 2, 6, 3, 5, 4}) == 28);
  CHECK(seek_cost({8, 1, 7, 2, 6, 3, 5, 4}) == 35);
  CHECK(seek.mean(0) == 7.0);
  CHECK(seek.mean(28) == 35.0);
  CHECK(min_seek == 7);
  CHECK(max_seek == 35);

  // §4.2.2: I = 0 (P1..P8) has no inversion, I = 28 (P8..P1) has 28; per I the mean is I.
  for (int i = 0; i <= 28; ++i) CHECK(inversion.mean(i) == static_cast<double>(i));
  // §4.2.3: I = 0 loses nothing (P_k completes at 20k <= 25k ms); I = 28 serves P_{9-k} k-th and
  // loses k = 6, 7, 8 (120 > 75, 140 > 50, 160 > 25 ms; k = 5: 100 ms = 100 ms is met).
  CHECK(loss.mean(0) == 0.0);
  CHECK(loss.mean(28) == 3.0);
  CHECK(deadline_losses({8, 7, 6, 5, 4, 3, 2, 1}) == 3);
  CHECK(tardiness.mean(0) == 0.0);
  CHECK(tardiness.mean(28) == 270.0);  // 45 + 90 + 135 ms at k = 6, 7, 8

  // Fig. 7: each measure grows almost linearly with irregularity.
  std::vector<double> irr_axis;
  for (int i = 0; i <= 28; ++i) irr_axis.push_back(i);
  const double r_seek = pearson(irr_axis, seek.means());
  const double r_loss = pearson(irr_axis, loss.means());
  const double r_inv = pearson(irr_axis, inversion.means());
  INFO("Pearson r: seek " << r_seek << ", inversion " << r_inv << ", deadline loss " << r_loss);
  CHECK(r_seek > 0.98);  // 0.987
  CHECK(r_inv == Catch::Approx(1.0));
  // The loss count rises steeply, saturates and dips near the end (mean 3.41 at I = 23, exactly 3
  // at I = 28): r = 0.841, not the near-linear Fig. 7c; the summed tardiness is linear (0.991).
  CHECK(r_loss > 0.83);
  CHECK(r_loss < 0.85);
  CHECK(pearson(irr_axis, tardiness.means()) > 0.99);
  // and the literal numeric reading of §4.2.2 would be perfectly anti-correlated, contrary to
  // Fig. 7b: hence P_1 is the highest priority (docs/models/sfc.md).
  CHECK(pearson(irr_axis, inversion_numeric.means()) == Catch::Approx(-1.0));
  // increasing-ish: the mean seek and deadline loss never fall by more than a small step
  const auto sm = seek.means(), lm = loss.means();
  for (int i = 1; i <= 28; ++i) {
    CHECK(sm[static_cast<std::size_t>(i)] >= sm[static_cast<std::size_t>(i - 1)] - 1.0);
    CHECK(lm[static_cast<std::size_t>(i)] >= lm[static_cast<std::size_t>(i - 1)] - 0.25);
  }
}

}  // namespace
}  // namespace drivevp::sfc
