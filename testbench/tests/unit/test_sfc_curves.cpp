// Unit tests of the seven space-filling curves of paper 001 Fig. 1 (firmware/sfc/curves.h):
// exhaustive bijection checks on small grids, the 2-D orders written out literally (derived by
// hand from each curve's definition in docs/models/sfc.md), continuity where the curve has it,
// 128-bit positions, and the range errors. Convention: a point is (x, y, ...) = (u[0], u[1], ...),
// y grows upwards, every curve starts at the origin (0, 0).
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "firmware/sfc/curves.h"

namespace drivevp::sfc {
namespace {

using Order = std::vector<std::pair<std::uint32_t, std::uint32_t>>;

/// The 2-D order of `kind` on an n x n grid, decoded position by position.
Order order_2d(CurveKind kind, unsigned n) {
  const Curve c(kind, 2, n);
  Order o;
  for (unsigned p = 0; p < n * n; ++p) {
    const auto pt = c.decode_checked(p);
    o.emplace_back(pt[0], pt[1]);
    REQUIRE(c.encode_checked(pt) == p);
  }
  return o;
}

/// "(x,y) (x,y) ..." so that a failing comparison prints both orders.
std::string str(const Order& o) {
  std::string s;
  for (const auto& [x, y] : o) s += "(" + std::to_string(x) + "," + std::to_string(y) + ") ";
  return s;
}

bool valid_levels(CurveKind kind, unsigned n) {
  if (kind == CurveKind::Hilbert || kind == CurveKind::Gray) return (n & (n - 1)) == 0;
  return true;
}

/// Every point of [0, n)^d encodes to a distinct position in 0 .. n^d - 1 and decodes back; every
/// position decodes to a point that encodes back to it.
void check_bijection(CurveKind kind, unsigned d, unsigned n) {
  const Curve c(kind, d, n);
  std::uint64_t total = 1;
  for (unsigned k = 0; k < d; ++k) total *= n;
  REQUIRE(c.last() == total - 1);
  std::vector<std::uint8_t> seen(total, 0);
  std::vector<std::uint32_t> u(d, 0), back(d);
  for (std::uint64_t i = 0; i < total; ++i) {
    std::uint64_t r = i;
    for (unsigned k = 0; k < d; ++k) {
      u[k] = static_cast<std::uint32_t>(r % n);
      r /= n;
    }
    const Key pos = c.encode(u.data());
    REQUIRE(pos < total);
    const auto p = static_cast<std::uint64_t>(pos);
    REQUIRE(seen[p] == 0);
    seen[p] = 1;
    c.decode(pos, back.data());
    REQUIRE(back == u);
  }
}

/// Consecutive positions are grid neighbours (one coordinate changes by one).
void check_unit_steps(CurveKind kind, unsigned d, unsigned n) {
  const Curve c(kind, d, n);
  auto prev = c.decode_checked(0);
  for (Key p = 1; p <= c.last(); ++p) {
    const auto cur = c.decode_checked(p);
    unsigned diff = 0;
    for (unsigned k = 0; k < d; ++k)
      diff += static_cast<unsigned>(std::abs(static_cast<int>(cur[k]) - static_cast<int>(prev[k])));
    INFO(curve_name(kind) << " D=" << d << " N=" << n << " position " << static_cast<std::uint64_t>(p));
    REQUIRE(diff == 1);
    prev = cur;
  }
}

TEST_CASE("every curve is a bijection on every grid with D <= 4 and N <= 16", "[sfc][curves]") {
  for (CurveKind kind : all_curve_kinds()) {
    for (unsigned d = 1; d <= 4; ++d) {
      for (unsigned n = 2; n <= 16; ++n) {
        if (!valid_levels(kind, n)) continue;
        INFO(curve_name(kind) << " D=" << d << " N=" << n);
        check_bijection(kind, d, n);
      }
    }
  }
}

TEST_CASE("Peano is a bijection with N = 27 and 81 (D = 2, 3) and at D = 16, N = 243", "[sfc][curves]") {
  const Curve big(CurveKind::Peano, 16, 243);
  for (Key p : {Key{0}, Key{12345}, big.last()}) CHECK(big.encode_checked(big.decode_checked(p)) == p);
  check_bijection(CurveKind::Peano, 2, 27);
  check_bijection(CurveKind::Peano, 3, 27);
  check_bijection(CurveKind::Peano, 2, 81);
}

TEST_CASE("2-D 4x4 orders as drawn in paper 001 Fig. 1", "[sfc][curves]") {
  // Sweep (Fig. 1a): every row left to right, rows bottom to top.
  CHECK(str(order_2d(CurveKind::Sweep, 4)) == str(Order{{0, 0},
                                                        {1, 0},
                                                        {2, 0},
                                                        {3, 0},
                                                        {0, 1},
                                                        {1, 1},
                                                        {2, 1},
                                                        {3, 1},
                                                        {0, 2},
                                                        {1, 2},
                                                        {2, 2},
                                                        {3, 2},
                                                        {0, 3},
                                                        {1, 3},
                                                        {2, 3},
                                                        {3, 3}}));
  // C-Scan (Fig. 1b): boustrophedon, even rows left to right, odd rows right to left.
  CHECK(str(order_2d(CurveKind::CScan, 4)) == str(Order{{0, 0},
                                                        {1, 0},
                                                        {2, 0},
                                                        {3, 0},
                                                        {3, 1},
                                                        {2, 1},
                                                        {1, 1},
                                                        {0, 1},
                                                        {0, 2},
                                                        {1, 2},
                                                        {2, 2},
                                                        {3, 2},
                                                        {3, 3},
                                                        {2, 3},
                                                        {1, 3},
                                                        {0, 3}}));
  // Hilbert (Fig. 1e): quadrants lower-left, lower-right, upper-right, upper-left (the first move
  // is along x, as for Gray); the lower-left quadrant transposed (its first move is up), the
  // upper-left one anti-transposed, ending at (0, 3).
  CHECK(str(order_2d(CurveKind::Hilbert, 4)) == str(Order{{0, 0},
                                                          {0, 1},
                                                          {1, 1},
                                                          {1, 0},
                                                          {2, 0},
                                                          {3, 0},
                                                          {3, 1},
                                                          {2, 1},
                                                          {2, 2},
                                                          {3, 2},
                                                          {3, 3},
                                                          {2, 3},
                                                          {1, 3},
                                                          {1, 2},
                                                          {0, 2},
                                                          {0, 3}}));
  // Gray (Fig. 1d): interleaved word y1 x1 y0 x0 stepping through the reflected Gray code
  // 0000 0001 0011 0010 0110 0111 0101 0100 1100 1101 1111 1110 1010 1011 1001 1000.
  CHECK(str(order_2d(CurveKind::Gray, 4)) == str(Order{{0, 0},
                                                       {1, 0},
                                                       {1, 1},
                                                       {0, 1},
                                                       {2, 1},
                                                       {3, 1},
                                                       {3, 0},
                                                       {2, 0},
                                                       {2, 2},
                                                       {3, 2},
                                                       {3, 3},
                                                       {2, 3},
                                                       {0, 3},
                                                       {1, 3},
                                                       {1, 2},
                                                       {0, 2}}));
  // Spiral (Fig. 1f): outer ring from (0, 0) counter-clockwise (right, up, left, down), then the
  // inner 2 x 2 ring from (1, 1).
  CHECK(str(order_2d(CurveKind::Spiral, 4)) == str(Order{{0, 0},
                                                         {1, 0},
                                                         {2, 0},
                                                         {3, 0},
                                                         {3, 1},
                                                         {3, 2},
                                                         {3, 3},
                                                         {2, 3},
                                                         {1, 3},
                                                         {0, 3},
                                                         {0, 2},
                                                         {0, 1},
                                                         {1, 1},
                                                         {2, 1},
                                                         {2, 2},
                                                         {1, 2}}));
  // Diagonal (Fig. 1g): anti-diagonals x + y = S; y ascending when S is odd, descending when even.
  CHECK(str(order_2d(CurveKind::Diagonal, 4)) == str(Order{{0, 0},
                                                           {1, 0},
                                                           {0, 1},
                                                           {0, 2},
                                                           {1, 1},
                                                           {2, 0},
                                                           {3, 0},
                                                           {2, 1},
                                                           {1, 2},
                                                           {0, 3},
                                                           {1, 3},
                                                           {2, 2},
                                                           {3, 1},
                                                           {3, 2},
                                                           {2, 3},
                                                           {3, 3}}));
}

TEST_CASE("Peano's 2-D 3x3 and the start of its 9x9 order (Peano 1890)", "[sfc][curves]") {
  // Level 1: x digit first, y digit reflected when the x digit is odd: up, down, up.
  CHECK(str(order_2d(CurveKind::Peano, 3)) ==
        str(Order{{0, 0}, {0, 1}, {0, 2}, {1, 2}, {1, 1}, {1, 0}, {2, 0}, {2, 1}, {2, 2}}));
  // 9x9, first 3x3 block (digits t1 = 0, t2 = 0): x = 0.t1 k^t2(t3), y = 0.k^t1(t2) k^(t1+t3)(t4):
  // the block is the 3x3 pattern; the second block (t2 = 1) sits above it with x reflected.
  const Order o = order_2d(CurveKind::Peano, 9);
  const Order first18(o.begin(), o.begin() + 18);
  CHECK(str(first18) == str(Order{{0, 0},
                                  {0, 1},
                                  {0, 2},
                                  {1, 2},
                                  {1, 1},
                                  {1, 0},
                                  {2, 0},
                                  {2, 1},
                                  {2, 2},
                                  {2, 3},
                                  {2, 4},
                                  {2, 5},
                                  {1, 5},
                                  {1, 4},
                                  {1, 3},
                                  {0, 3},
                                  {0, 4},
                                  {0, 5}}));
}

TEST_CASE("Peano with N not a power of three is the enclosing 3^k curve restricted to the grid", "[sfc][curves]") {
  for (unsigned d = 1; d <= 3; ++d) {
    for (unsigned n : {2u, 4u, 5u, 8u, 10u, 16u}) {
      unsigned m = 1;
      while (m < n) m *= 3;
      const Curve enclosing(CurveKind::Peano, d, m), compact(CurveKind::Peano, d, n);
      INFO("D=" << d << " N=" << n << " enclosing " << m);
      Key next = 0;
      for (Key p = 0; p <= enclosing.last(); ++p) {
        const auto pt = enclosing.decode_checked(p);
        bool in = true;
        for (auto v : pt) in = in && v < n;
        if (!in) continue;
        REQUIRE(compact.decode_checked(next) == pt);
        REQUIRE(compact.encode_checked(pt) == next);
        ++next;
      }
      REQUIRE(next == compact.last() + 1);
    }
  }
  // 2-D 4 x 4 by hand: the 9 x 9 Peano order (see the 9 x 9 test) keeping x, y < 4.
  CHECK(str(order_2d(CurveKind::Peano, 4)) == str(Order{{0, 0},
                                                        {0, 1},
                                                        {0, 2},
                                                        {1, 2},
                                                        {1, 1},
                                                        {1, 0},
                                                        {2, 0},
                                                        {2, 1},
                                                        {2, 2},
                                                        {2, 3},
                                                        {1, 3},
                                                        {0, 3},
                                                        {3, 3},
                                                        {3, 2},
                                                        {3, 1},
                                                        {3, 0}}));
}

TEST_CASE("C-Scan, Peano, Hilbert and 2-D Spiral move one grid step at a time", "[sfc][curves]") {
  for (unsigned d = 1; d <= 4; ++d) {
    for (unsigned n : {2u, 4u, 8u}) {
      check_unit_steps(CurveKind::CScan, d, n);
      check_unit_steps(CurveKind::Hilbert, d, n);
    }
    check_unit_steps(CurveKind::CScan, d, 5);
    check_unit_steps(CurveKind::Peano, d, 3);
    check_unit_steps(CurveKind::Peano, d, 9);
  }
  for (unsigned n = 2; n <= 16; ++n) check_unit_steps(CurveKind::Spiral, 2, n);
}

TEST_CASE("Sweep and C-Scan keep the last dimension sorted; Diagonal keeps the coordinate sum sorted",
          "[sfc][curves]") {
  for (unsigned d = 1; d <= 4; ++d) {
    const Curve sweep(CurveKind::Sweep, d, 5), cscan(CurveKind::CScan, d, 5), diag(CurveKind::Diagonal, d, 5);
    std::uint32_t last_s = 0, last_c = 0, last_sum = 0;
    for (Key p = 0; p <= sweep.last(); ++p) {
      const auto a = sweep.decode_checked(p), b = cscan.decode_checked(p), g = diag.decode_checked(p);
      REQUIRE(a[d - 1] >= last_s);
      REQUIRE(b[d - 1] >= last_c);
      std::uint32_t sum = 0;
      for (auto v : g) sum += v;
      REQUIRE(sum >= last_sum);
      last_s = a[d - 1], last_c = b[d - 1], last_sum = sum;
    }
  }
}

TEST_CASE("128-bit positions: D = 16, N = 256 round-trips at the extremes and at random", "[sfc][curves]") {
  std::mt19937_64 rng(11);
  for (CurveKind kind : all_curve_kinds()) {
    const unsigned n = 256;
    const Curve c(kind, 16, n);
    CHECK(c.last() == ~Key{0});  // 256^16 - 1 = 2^128 - 1
    std::vector<std::uint32_t> u(16), back(16);
    for (int t = 0; t < 2000; ++t) {
      for (auto& v : u) v = static_cast<std::uint32_t>(rng() % n);
      if (t == 0) std::fill(u.begin(), u.end(), 0u);
      if (t == 1) std::fill(u.begin(), u.end(), n - 1);
      const Key p = c.encode(u.data());
      REQUIRE(p <= c.last());
      c.decode(p, back.data());
      INFO(curve_name(kind) << " trial " << t);
      REQUIRE(back == u);
    }
    // the first and last positions decode and encode back
    for (Key p : {Key{0}, Key{1}, c.last() - 1, c.last()}) REQUIRE(c.encode_checked(c.decode_checked(p)) == p);
  }
}

TEST_CASE("out-of-range D, N, coordinates and names are refused naming the value", "[sfc][curves]") {
  using Catch::Matchers::ContainsSubstring;
  CHECK_THROWS_WITH(Curve(CurveKind::Sweep, 0, 4), ContainsSubstring("D = 0"));
  CHECK_THROWS_WITH(Curve(CurveKind::Sweep, 17, 4), ContainsSubstring("D = 17"));
  CHECK_THROWS_WITH(Curve(CurveKind::Sweep, 2, 1), ContainsSubstring("N = 1"));
  CHECK_THROWS_WITH(Curve(CurveKind::Sweep, 2, 257), ContainsSubstring("N = 257"));
  CHECK_THROWS_WITH(Curve(CurveKind::Hilbert, 2, 12), ContainsSubstring("N = 12 is not a power of two"));
  CHECK_THROWS_WITH(Curve(CurveKind::Gray, 2, 3), ContainsSubstring("N = 3 is not a power of two"));
  CHECK_THROWS_WITH(Curve(CurveKind::Peano, 2, 257), ContainsSubstring("N = 257"));
  const Curve c(CurveKind::Diagonal, 3, 10);
  CHECK_THROWS_WITH(c.encode_checked({1, 2}), ContainsSubstring("expected D = 3"));
  CHECK_THROWS_WITH(c.encode_checked({1, 10, 2}), ContainsSubstring("coordinate 1 = 10"));
  CHECK_THROWS_AS(c.decode_checked(1000), std::invalid_argument);
  CHECK_THROWS_WITH(curve_from_name("zorder"), ContainsSubstring("'zorder'"));
  for (CurveKind kind : all_curve_kinds()) CHECK(curve_from_name(curve_name(kind)) == kind);
}

}  // namespace
}  // namespace drivevp::sfc
