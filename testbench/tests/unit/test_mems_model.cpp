// The MEMS device core (hw_models/mems): presets, layout, seek, settle, turnarounds, positioning,
// media access, power. Closed forms and the numerical reference are derived here, independently
// of the model's code (docs/models/mems.md).
#include <catch2/catch_test_macros.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "hw_models/mems/mems_layout.h"
#include "hw_models/mems/mems_page.h"
#include "hw_models/mems/mems_params.h"
#include "hw_models/mems/mems_power.h"
#include "hw_models/mems/mems_seek.h"

using namespace drivevp;
using namespace drivevp::mems;

namespace {

constexpr double kPi = 3.14159265358979323846;

std::vector<MemsParams> presets() { return {mems_g1(), mems_g2(), mems_g3()}; }

// |a - b| <= 1 ps: the model rounds each part to the nearest picosecond; a closed form evaluated
// in another order may land on the other side of a half picosecond.
bool within_1ps(Time a, double b_s) { return std::abs(static_cast<double>(a.count()) - b_s * 1e12) <= 1.0; }

// Independent numerical reference for a bang-bang move under p'' = u·a − ω²p (p along the move):
// RK4 with small fixed steps; phase 1 (u = +1) for a switch time tau, phase 2 (u = −1) until the
// speed falls to w1 (the crossing step found by bisecting the step length); tau bisected until the
// move ends on p1. Returns the total time in seconds.
struct Rk4Seek {
  double a, om2;
  struct S {
    double p, w;
  };
  S step(S s, double u, double h) const {
    auto f = [&](S x) { return S{x.w, u * a - om2 * x.p}; };
    const S k1 = f(s);
    const S k2 = f({s.p + h / 2 * k1.p, s.w + h / 2 * k1.w});
    const S k3 = f({s.p + h / 2 * k2.p, s.w + h / 2 * k2.w});
    const S k4 = f({s.p + h * k3.p, s.w + h * k3.w});
    return {s.p + h / 6 * (k1.p + 2 * k2.p + 2 * k3.p + k4.p), s.w + h / 6 * (k1.w + 2 * k2.w + 2 * k3.w + k4.w)};
  }
  // End position and phase-2 time after switching at tau.
  std::pair<double, double> shoot(double p0, double w0, double w1, double tau, double h) const {
    S s{p0, w0};
    const int n1 = std::max(1, static_cast<int>(std::ceil(tau / h)));
    for (int i = 0; i < n1; ++i) s = step(s, +1, tau / n1);
    double t2 = 0;
    for (int guard = 0; guard < 10'000'000; ++guard) {
      const S next = step(s, -1, h);
      if (next.w > w1) {
        s = next;
        t2 += h;
        continue;
      }
      double lo = 0, hi = h;  // the speed reaches w1 inside this step
      for (int i = 0; i < 80; ++i) {
        const double mid = 0.5 * (lo + hi);
        (step(s, -1, mid).w > w1 ? lo : hi) = mid;
      }
      return {step(s, -1, lo).p, t2 + lo};
    }
    return {s.p, t2};
  }
  double time(double from, double w0, double to, double w1) const {
    const double sgn = to >= from ? 1 : -1;
    const double p0 = sgn * from, p1 = sgn * to;
    const double h = 1e-7;  // 100 ns steps: ω·h < 1e-3 for every preset
    double lo = 0, hi = 1e-6;
    while (shoot(p0, w0, w1, hi, h).first < p1) hi *= 2;
    for (int i = 0; i < 100 && hi - lo > 1e-16; ++i) {
      const double mid = 0.5 * (lo + hi);
      (shoot(p0, w0, w1, mid, h).first < p1 ? lo : hi) = mid;
    }
    const double tau = 0.5 * (lo + hi);
    return tau + shoot(p0, w0, w1, tau, h).second;
  }
};

}  // namespace

TEST_CASE("mems: presets: every parameters.md value and the derived settle times", "[mems][params]") {
  const MemsParams g1 = mems_g1(), g2 = mems_g2(), g3 = mems_g3();
  for (const MemsParams& p : presets()) {
    CHECK(p.tips_total == 6400);
    CHECK(p.sled_movement_x_nm == 100'000);
    CHECK(p.sled_movement_y_nm == 100'000);
    CHECK(p.tip_sector_bits == 80);
    CHECK(p.servo_burst_bits == 10);
    CHECK(p.tip_sectors_per_block == 64);
    CHECK(p.spring_constant_factor == 0.75);
    CHECK(p.time_before_inactive_ms == 100);
    CHECK(p.startup_delay_ms == 0.5);
    CHECK(p.sleds == 1);
    CHECK_NOTHROW(p.validate());
  }
  CHECK(g1.tips_active == 640);
  CHECK(g2.tips_active == 1280);
  CHECK(g3.tips_active == 3200);
  CHECK(g1.bit_length_nm == 50);
  CHECK(g2.bit_length_nm == 40);
  CHECK(g3.bit_length_nm == 30);
  CHECK(g1.tip_data_rate_bps == 400'000);
  CHECK(g2.tip_data_rate_bps == 700'000);
  CHECK(g3.tip_data_rate_bps == 1'000'000);
  CHECK(g1.sled_acceleration_x == 688.8);
  CHECK(g2.sled_acceleration_y == 803.6);
  CHECK(g3.sled_acceleration_x == 1033.2);
  CHECK(g1.accel_x_nm_s2() == 688.8e9);
  CHECK(g1.resonant_frequency_hz == 739);
  CHECK(g3.resonant_frequency_hz == 1108);
  CHECK(g1.settling_time_constants == 2);
  CHECK(g2.settling_time_constants == 1);
  CHECK(g1.command_overhead() == Time{300'000'000});
  CHECK(g2.command_overhead() == Time{200'000'000});
  CHECK(g3.command_overhead() == Time{100'000'000});
  CHECK(g1.access_velocity_nm_s() == 2e7);  // mems-model.md: 400,000 bit/s × 50 nm
  // parameters.md "derived settle time": 0.43 / 0.215 / 0.144 ms.
  CHECK(g1.settle() == from_s(2 / (2 * kPi * 739)));
  CHECK(std::abs(to_ms(g1.settle()) - 0.43) < 0.001);
  CHECK(std::abs(to_ms(g2.settle()) - 0.215) < 0.001);
  CHECK(std::abs(to_ms(g3.settle()) - 0.144) < 0.001);
  CHECK(mems_preset("mems_g2").tips_active == 1280);
  CHECK_THROWS_AS(mems_preset("mems_g4"), std::invalid_argument);
  CHECK(mems_preset_names() == std::vector<std::string>{"mems_g1", "mems_g2", "mems_g3"});
}

TEST_CASE("mems: validate names the key, the range and the value", "[mems][params]") {
  auto message = [](MemsParams p) {
    try {
      p.validate();
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  MemsParams p = mems_g1();
  p.spring_constant_factor = 1.0;
  CHECK(message(p) == "device.spring_constant_factor must be in [0, 1) (got 1)");
  p = mems_g1();
  p.tips_active = 32;
  CHECK(message(p) == "device.tips_active must be in [64, 6400] (got 32)");
  p = mems_g1();
  p.sleds = 10;
  CHECK(message(p) == "device.sleds must be in [1, 9] (got 10)");
  p = mems_g1();
  p.sled_acceleration_x = -1;
  CHECK(message(p) == "device.sled_acceleration_x must be in (0, 1000000] m/s^2 (got -1)");
  p = mems_g1();
  p.resonant_frequency_hz = std::nan("");
  CHECK(message(p).rfind("device.resonant_frequency_hz must be in (0, 1e9] Hz (got ", 0) == 0);
  p = mems_g1();
  p.sled_movement_y_nm = 4000;  // 80 bits < one row (10 + 80 + 10)
  CHECK(message(p) ==
        "device.sled_movement_y_nm must be at least (2 x servo_burst_bits + tip_sector_bits) x "
        "bit_length_nm = 5000 nm (one row) (got 4000)");
  CHECK_THROWS_AS(MemsLayout(p), std::invalid_argument);
}

TEST_CASE("mems: layout counts and exact capacities of G1-G3", "[mems][layout]") {
  struct Want {
    std::uint32_t cylinders, rows, columns, cells;
    std::uint64_t per_cylinder, capacity;
  };
  const Want want[] = {
      {2000, 22, 10, 10, 2200, 4'400'000}, {2500, 27, 5, 20, 2700, 6'750'000}, {3333, 36, 2, 50, 3600, 11'998'800}};
  const auto ps = presets();
  for (std::size_t i = 0; i < ps.size(); ++i) {
    const MemsLayout L(ps[i]);
    CHECK(L.cylinders() == want[i].cylinders);
    CHECK(L.rows_per_column() == want[i].rows);
    CHECK(L.columns_per_cylinder() == want[i].columns);
    CHECK(L.cells_per_row() == want[i].cells);
    CHECK(L.blocks_per_cylinder() == want[i].per_cylinder);
    CHECK(L.capacity() == want[i].capacity);
    CHECK(L.row_bits() == 90);
  }
  MemsParams two = mems_g1();
  two.sleds = 3;
  CHECK(MemsLayout(two).capacity() == 3 * 4'400'000ull);
}

TEST_CASE("mems: layout round-trips every LBN of every preset", "[mems][layout]") {
  for (MemsParams p : presets()) {
    for (std::uint32_t sleds : {1u, 2u}) {
      p.sleds = sleds;
      const MemsLayout L(p);
      const std::int64_t half_x = p.sled_movement_x_nm / 2, half_y = p.sled_movement_y_nm / 2;
      const std::int64_t row_nm = std::int64_t{L.row_bits()} * p.bit_length_nm;
      std::uint64_t bad = 0;
      for (std::uint64_t lbn = 0; lbn < L.capacity(); ++lbn) {
        const BlockPosition b = L.position(lbn);
        if (L.lbn(b.address) != lbn) ++bad;
        if (L.lbn_at(b.address.sled, b.x_nm, b.up.y_servo_nm, b.address.column, b.address.cell) != lbn) ++bad;
        if (b.x_nm < -half_x || b.x_nm >= half_x) ++bad;
        if (b.up.y_servo_nm < -half_y || b.down.y_servo_nm > half_y) ++bad;
        // Up pass: servo then sector, upwards; down pass: the next servo burst, then the sector downwards.
        if (b.up.y_end_nm - b.up.y_servo_nm != row_nm || b.up.y_data_nm - b.up.y_servo_nm != 10 * p.bit_length_nm)
          ++bad;
        if (b.down.y_servo_nm != b.up.y_end_nm + 10 * p.bit_length_nm || b.down.y_end_nm != b.up.y_data_nm) ++bad;
        if (b.first_tip + p.tip_sectors_per_block > p.tips_total) ++bad;
      }
      INFO(p.preset << " sleds " << sleds);
      CHECK(bad == 0);
      CHECK_THROWS_AS(L.locate(L.capacity()), std::out_of_range);
      CHECK_THROWS_AS(L.lbn_at(0, 25, 0, 0, 0), std::out_of_range);  // not on a cylinder
    }
  }
}

TEST_CASE("mems: layout: consecutive LBNs are adjacent along Y within a column", "[mems][layout]") {
  for (const MemsParams& p : presets()) {
    const MemsLayout L(p);
    const std::int64_t row_nm = std::int64_t{L.row_bits()} * p.bit_length_nm;
    std::uint64_t same_row = 0, next_row = 0, new_column = 0, bad = 0;
    const std::uint64_t n = std::min<std::uint64_t>(L.capacity(), 3 * L.blocks_per_cylinder());
    for (std::uint64_t lbn = 0; lbn + 1 < n; ++lbn) {
      const BlockPosition a = L.position(lbn), b = L.position(lbn + 1);
      if (a.address.cylinder != b.address.cylinder || a.address.column != b.address.column) {
        ++new_column;
        continue;
      }
      if (a.x_nm != b.x_nm) ++bad;
      if (a.up.y_servo_nm == b.up.y_servo_nm) {
        ++same_row;
        if (b.first_tip != a.first_tip + p.tip_sectors_per_block) ++bad;
      } else {
        ++next_row;
        const std::int64_t step = L.reversed(a.address.cylinder, a.address.column) ? -row_nm : row_nm;
        if (b.up.y_servo_nm - a.up.y_servo_nm != step) ++bad;
      }
    }
    INFO(p.preset);
    CHECK(bad == 0);
    CHECK(same_row == 3 * L.columns_per_cylinder() * L.rows_per_column() * (L.cells_per_row() - 1));
    CHECK(next_row == 3 * L.columns_per_cylinder() * (L.rows_per_column() - 1));
    CHECK(new_column == 3 * L.columns_per_cylinder() - 1);
  }
}

TEST_CASE("mems: layout reverses rows on alternate columns, flipping on odd cylinders when columns are odd",
          "[mems][layout]") {
  const MemsLayout g1(mems_g1());  // 10 columns: column parity only
  CHECK(g1.position(0).physical_row == 0);
  CHECK(g1.position(220).address.column == 1);
  CHECK(g1.position(220).physical_row == 21);  // column 1, logical row 0 at the top
  CHECK(g1.position(219).physical_row == 21);  // column 0 ends at the top: the sweep turns round
  CHECK(!g1.reversed(1, 0));
  CHECK(g1.reversed(1, 9));
  const MemsLayout g2(mems_g2());  // 5 columns: the alternation flips on odd cylinders
  CHECK(!g2.reversed(0, 0));
  CHECK(g2.reversed(0, 1));
  CHECK(!g2.reversed(0, 4));  // last column of cylinder 0 ends at the top ...
  CHECK(g2.reversed(1, 0));   // ... and cylinder 1 starts there, downwards
  CHECK(g2.position(2700).physical_row == 26);
  CHECK(g2.position(2699).physical_row == 26);
  // Coordinates: the middle cylinder at x = 0; column of 22·90 + 10 = 1990 bits centred.
  CHECK(g1.x_nm(1000) == 0);
  CHECK(g1.x_nm(0) == -50'000);
  CHECK(g1.up_pass(0).y_servo_nm == -995 * 50);
  CHECK(g1.down_pass(21).y_servo_nm == 995 * 50);
}

TEST_CASE("mems: seek with springs off matches the closed forms", "[mems][seek]") {
  for (MemsParams p : presets()) {
    p.spring_constant_factor = 0;
    const MemsSeek S(p);
    const double a = p.accel_x_nm_s2(), v = p.access_velocity_nm_s();
    for (std::int64_t d : {1, 50, 999, 12'345, 50'000, 99'950}) {
      const std::int64_t from = -50'000, to = from + d;
      // X from rest to rest: two halves of d/2 from rest, 2·√((d/2)·2/a) = 2·√(d/a).
      const double x_want = 2 * std::sqrt(static_cast<double>(d) / a);
      CHECK(std::abs(S.x_seek_s(from, to) - x_want) <= 1e-12 * x_want);
      CHECK(std::abs(S.x_seek_s(to, from) - x_want) <= 1e-12 * x_want);
      // Y from v to v: each half (−v + √(v² + 2a·d/2))/a.
      const double y_want = 2 * (-v + std::sqrt(v * v + a * static_cast<double>(d))) / a;
      CHECK(std::abs(S.y_seek_s(from, +1, to, +1, nullptr, nullptr) - y_want) <= 1e-9 * y_want);
      CHECK(std::abs(S.y_seek_s(to, -1, from, -1, nullptr, nullptr) - y_want) <= 1e-9 * y_want);
    }
    CHECK(S.x_seek_s(123, 123) == 0);
    CHECK(S.y_seek_s(123, +1, 123, +1, nullptr, nullptr) == 0);
    // The chunked scheme is the closed form with springs off.
    CHECK(bang_bang_chunked_s(axis_x(p), -3000, 0, 4000, 0) == bang_bang_exact_s(axis_x(p), -3000, 0, 4000, 0));
  }
}

TEST_CASE("mems: seek with springs on matches an independent RK4 integration to 1e-6", "[mems][seek]") {
  for (const MemsParams& p : presets()) {
    const Axis ax = axis_x(p);
    CHECK(ax.omega2 == p.accel_x_nm_s2() * 0.75 / 50'000);
    const Rk4Seek rk{ax.accel_nm_s2, ax.omega2};
    const double v = p.access_velocity_nm_s();
    struct Move {
      double from, to;
    };
    const Move moves[] = {{-50'000, 49'950},  {-50'000, 0},     {0, 50'000},      {49'000, -20'000},
                          {-30'000, -29'950}, {10'000, 10'050}, {45'000, 50'000}, {-1'000, 1'000}};
    for (const Move& m : moves) {
      INFO(p.preset << " " << m.from << " -> " << m.to);
      const double x_ref = rk.time(m.from, 0, m.to, 0);
      CHECK(std::abs(bang_bang_exact_s(ax, m.from, 0, m.to, 0) - x_ref) <= 1e-6 * x_ref);
      const double y_ref = rk.time(m.from, v, m.to, v);
      CHECK(std::abs(bang_bang_exact_s(axis_y(p), m.from, v, m.to, v) - y_ref) <= 1e-6 * y_ref);
    }
  }
  // The springs help a move towards the centre and hurt one away from it, but a full stroke gains.
  const MemsParams g1 = mems_g1();
  MemsParams off = g1;
  off.spring_constant_factor = 0;
  CHECK(bang_bang_exact_s(axis_x(g1), -50'000, 0, 49'950, 0) < bang_bang_exact_s(axis_x(off), -50'000, 0, 49'950, 0));
  CHECK(bang_bang_exact_s(axis_x(g1), 40'000, 0, 50'000, 0) > bang_bang_exact_s(axis_x(off), 40'000, 0, 50'000, 0));
  CHECK(bang_bang_exact_s(axis_x(g1), -50'000, 0, -40'000, 0) ==
        bang_bang_exact_s(axis_x(g1), 50'000, 0, 40'000, 0));                            // mirror symmetry
  CHECK_THROWS_AS(bang_bang_exact_s(axis_x(g1), 0, 0, 10, 2e7), std::invalid_argument);  // too short to reach v
}

TEST_CASE("mems: exact and DiskSim-chunked seeks differ by a bounded amount", "[mems][seek]") {
  for (const MemsParams& p : presets()) {
    const Axis ax = axis_x(p), ay = axis_y(p);
    const double v = p.access_velocity_nm_s();
    double max_x = 0, sum_x = 0, max_y = 0, sum_y = 0;
    int n = 0;
    for (int i = -50'000; i <= 50'000; i += 2'500) {
      for (int j = -50'000; j <= 50'000; j += 2'500) {
        if (i == j) continue;
        const double ex = bang_bang_exact_s(ax, i, 0, j, 0), cx = bang_bang_chunked_s(ax, i, 0, j, 0);
        const double ey = bang_bang_exact_s(ay, i, v, j, v), cy = bang_bang_chunked_s(ay, i, v, j, v);
        max_x = std::max(max_x, std::abs(cx - ex) / ex);
        max_y = std::max(max_y, std::abs(cy - ey) / ey);
        sum_x += std::abs(cx - ex) / ex;
        sum_y += std::abs(cy - ey) / ey;
        ++n;
      }
    }
    INFO(p.preset << " X max " << max_x << " mean " << sum_x / n << "; Y max " << max_y << " mean " << sum_y / n);
    CHECK(max_x < 0.02);
    CHECK(sum_x / n < 0.005);
    CHECK(max_y < 0.02);
    CHECK(sum_y / n < 0.005);
    CHECK(max_x > 0);  // they do differ: the chunks are an approximation
  }
}

TEST_CASE("mems: settle on X moves only; positioning = max(X + settle, Y + turnarounds)", "[mems][seek]") {
  const MemsParams p = mems_g1();
  const MemsSeek S(p);
  const MemsLayout& L = S.layout();
  const Time settle = from_s(2 / (2 * kPi * 739));
  // Same cylinder: no X seek, no settle; Y only.
  const SledState at{L.x_nm(1000), L.up_pass(3).y_servo_nm, +1};
  Positioning y_only = S.position(at, L.x_nm(1000), L.up_pass(10));
  CHECK(y_only.x_seek == Time{0});
  CHECK(y_only.settle == Time{0});
  CHECK(y_only.turnaround_count == 0);
  CHECK(within_1ps(y_only.y_seek, S.y_seek_s(at.y_nm, +1, L.up_pass(10).y_servo_nm, +1, nullptr, nullptr)));
  CHECK(y_only.total() == y_only.y_seek);
  // One cylinder over: X seek + settle dominates a short Y move.
  Positioning x_short = S.position(at, L.x_nm(1001), L.up_pass(4));
  CHECK(x_short.settle == settle);
  CHECK(within_1ps(x_short.x_seek, S.x_seek_s(0, 50)));
  CHECK(x_short.total() == x_short.x_seek + x_short.settle);
  CHECK(x_short.total() > x_short.y_seek + x_short.turnarounds);
  // A full Y stroke against the direction with a one-cylinder X move: Y dominates.
  const SledState top{L.x_nm(1000), L.down_pass(21).y_servo_nm, -1};
  Positioning y_long = S.position(top, L.x_nm(1001), L.down_pass(0));
  CHECK(y_long.settle == settle);
  CHECK(y_long.total() == y_long.y_seek + y_long.turnarounds);
  CHECK(y_long.total() > y_long.x_seek + y_long.settle);
  CHECK(y_long.total() == std::max(y_long.x_seek + y_long.settle, y_long.y_seek + y_long.turnarounds));
}

TEST_CASE("mems: Y turnarounds: zero, one or two, 2v / (a ± spring)", "[mems][seek]") {
  const MemsParams p = mems_g1();
  const MemsSeek S(p);
  const double a = p.accel_y_nm_s2(), om2 = a * 0.75 / 50'000, v = 2e7;
  double turn = -1;
  int n = -1;
  S.y_seek_s(-1000, +1, 2000, +1, &turn, &n);
  CHECK(n == 0);
  CHECK(turn == 0);
  S.y_seek_s(-1000, -1, 2000, +1, &turn, &n);  // must first reverse at -1000 (moving -Y: spring helps)
  CHECK(n == 1);
  CHECK(turn == 2 * v / (a + om2 * -1 * -1000.0));
  S.y_seek_s(-1000, +1, 2000, -1, &turn, &n);  // arrives moving +Y, must leave moving -Y at 2000
  CHECK(n == 1);
  CHECK(turn == 2 * v / (a + om2 * 2000.0));
  S.y_seek_s(-1000, -1, 2000, -1, &turn, &n);
  CHECK(n == 2);
  CHECK(turn == 2 * v / (a + om2 * 1000.0) + 2 * v / (a + om2 * 2000.0));
  const double seek = S.y_seek_s(5000, +1, 5000, -1, &turn, &n);  // same place, reverse only
  CHECK(seek == 0);
  CHECK(n == 1);
  CHECK(turn == 2 * v / (a + om2 * 5000.0));
  CHECK(S.turnaround_s(40'000, -1) > S.turnaround_s(40'000, +1));  // the spring hurts when moving in
  MemsParams off = p;
  off.spring_constant_factor = 0;
  CHECK(MemsSeek(off).turnaround_s(40'000, -1) == 2 * v / a);
}

TEST_CASE("mems: media access: rows at the access velocity, repositioning between columns", "[mems][access]") {
  const MemsParams p = mems_g1();
  const MemsSeek S(p);
  const MemsLayout& L = S.layout();
  const Time row = from_s(90 * 50 / 2e7);  // 225 µs per row
  CHECK(row == Time{225'000'000});
  // Sled already at block 0's up pass on its cylinder: no positioning, one row.
  const SledState at0{L.x_nm(0), L.up_pass(0).y_servo_nm, +1};
  MediaAccess one = S.access(at0, 0, 1);
  CHECK(one.positioning == Time{0});
  CHECK(one.transfer == row);
  CHECK(one.runs == 1);
  CHECK(one.rows == 1);
  CHECK(one.max_active_tips == 64);
  CHECK(one.tip_seconds == 64 * 225e-6);
  CHECK(one.end == SledState{L.x_nm(0), L.up_pass(0).y_end_nm, +1});
  // 25 blocks from 0: rows 0..2 (10 + 10 + 5 blocks), one sweep of 3 rows.
  MediaAccess three = S.access(at0, 0, 25);
  CHECK(three.transfer == from_s(3 * 90 * 50 / 2e7));
  CHECK(three.rows == 3);
  CHECK(three.max_active_tips == 640);
  CHECK(std::abs(three.tip_seconds - 25 * 64 * 225e-6) < 1e-15);
  // Blocks 215..224: the last row of column 0 (up) and the first of column 1 (reversed, down):
  // the second run starts at the down pass of the top row, 10 servo bits above where the first
  // ended, moving the other way: one turnaround.
  const SledState at215{L.x_nm(0), L.up_pass(21).y_servo_nm, +1};
  MediaAccess cross = S.access(at215, 215, 10);
  CHECK(cross.runs == 2);
  CHECK(cross.rows == 2);
  const Positioning rep = S.position({L.x_nm(0), L.up_pass(21).y_end_nm, +1}, L.x_nm(0), L.down_pass(21));
  CHECK(rep.turnaround_count == 1);
  CHECK(cross.repositioning == rep.total());
  CHECK(cross.end == SledState{L.x_nm(0), L.down_pass(21).y_end_nm, -1});
  CHECK(cross.total() == cross.positioning + cross.transfer + cross.repositioning);
  // Without bidirectional access every sweep runs +Y.
  MemsParams uni = p;
  uni.bidirectional_access = false;
  CHECK(MemsSeek(uni).access(at215, 215, 10).end.y_direction == +1);
  CHECK_THROWS_AS(S.access(at0, L.capacity() - 1, 2), std::out_of_range);
  CHECK_THROWS_AS(S.access(at0, 0, 0), std::invalid_argument);
}

TEST_CASE("mems: power: idle, inactive after the timeout, startup delay, energy", "[mems][power]") {
  MemsParams p = mems_g1();
  p.sled_active_power_mw = 100;
  p.sled_inactive_power_mw = 5;
  p.tip_access_power_mw = 1;
  CHECK(sled_power_w(p, SledPowerState::Active, 640) == (100 + 640.0) * 1e-3);
  CHECK(sled_power_w(p, SledPowerState::Idle, 640) == 0.1);
  CHECK(sled_power_w(p, SledPowerState::Inactive) == 0.005);
  EnergyMeter m(p);
  m.advance(from_ms(2), SledPowerState::Active, 64);  // 2 ms serving, 64 tips
  CHECK(std::abs(m.joules() - 0.002 * (0.1 + 0.064)) < 1e-15);
  CHECK(m.idle_until(from_ms(50)) == Time{0});  // 48 ms gap < 100 ms: stays active
  CHECK(m.time_in(SledPowerState::Idle) == from_ms(48));
  CHECK(m.idle_until(from_ms(300)) == from_ms(0.5));  // 250 ms gap: inactive after 100 ms
  CHECK(m.time_in(SledPowerState::Idle) == from_ms(148));
  CHECK(m.time_in(SledPowerState::Inactive) == from_ms(150));
  CHECK(m.startups() == 1);
  CHECK(m.idle_until(from_ms(400)) == from_ms(0.5));  // exactly the timeout: inactive at that instant
  m.advance(from_ms(400.5), SledPowerState::Active);  // the startup
  m.add_tip_seconds(0.01);
  const double want = 0.002 * 0.164 + 0.148 * 0.1 + 0.150 * 0.005 + 0.1 * 0.1 + 0.0005 * 0.1 + 0.01 * 1e-3;
  CHECK(std::abs(m.joules() - want) < 1e-12);
  CHECK(std::abs(m.tip_joules() - (0.002 * 0.064 + 0.01 * 1e-3)) < 1e-15);
  CHECK(std::abs(m.joules_in(SledPowerState::Inactive) - 0.150 * 0.005) < 1e-15);
  CHECK_THROWS_AS(m.advance(from_ms(1), SledPowerState::Idle), std::invalid_argument);
}

// --- LayoutOrder::AlongY (002 §4) ---------------------------------------------------------------

namespace {

MemsParams along_y(MemsParams p) {
  p.layout = LayoutOrder::AlongY;
  return p;
}

}  // namespace

TEST_CASE("mems: layout order: names, validation, and the default is DiskSim's streaming layout", "[mems][layout]") {
  CHECK(mems_g1().layout == LayoutOrder::Streaming);
  CHECK(std::string(to_string(LayoutOrder::Streaming)) == "streaming");
  CHECK(std::string(to_string(LayoutOrder::AlongY)) == "along_y");
  CHECK(layout_order_from_string("along_y") == LayoutOrder::AlongY);
  CHECK(layout_order_from_string("streaming") == LayoutOrder::Streaming);
  try {
    layout_order_from_string("zigzag");
    FAIL("no error");
  } catch (const std::invalid_argument& e) {
    CHECK(std::string(e.what()) == "device.layout must be streaming or along_y (got 'zigzag')");
  }
  MemsParams p = mems_g1();
  p.layout = static_cast<LayoutOrder>(2);
  try {
    p.validate();
    FAIL("no error");
  } catch (const std::invalid_argument& e) {
    CHECK(std::string(e.what()) == "device.layout must be streaming (0) or along_y (1) (got 2)");
  }
  // The counts do not depend on the order.
  for (const MemsParams& q : presets()) {
    const MemsLayout s(q), a(along_y(q));
    CHECK(a.capacity() == s.capacity());
    CHECK(a.rows_per_column() == s.rows_per_column());
    CHECK(a.order() == LayoutOrder::AlongY);
  }
}

TEST_CASE("mems: along-Y layout round-trips every LBN of G1-G3 both ways", "[mems][layout]") {
  for (const MemsParams& base : presets()) {
    for (std::uint32_t sleds : {1u, 2u}) {
      if (sleds == 2 && base.preset != "mems_g1") continue;
      MemsParams p = along_y(base);
      p.sleds = sleds;
      const MemsLayout L(p);
      const std::uint64_t rows = L.rows_per_column(), per_column = L.blocks_per_column();
      std::uint64_t bad = 0;
      for (std::uint64_t lbn = 0; lbn < L.capacity(); ++lbn) {
        const BlockPosition b = L.position(lbn);
        const BlockAddress& a = b.address;
        // The order, written out: sled, cylinder, column, cell, row (rows fastest).
        const std::uint64_t in_column = lbn % per_column;
        if (a.row != in_column % rows || a.cell != in_column / rows) ++bad;
        if (a.column != (lbn / per_column) % L.columns_per_cylinder()) ++bad;
        if (a.cylinder != (lbn / L.blocks_per_cylinder()) % L.cylinders() || a.sled != lbn / L.blocks_per_sled()) ++bad;
        if (b.physical_row != a.row || L.reversed(a.cylinder, a.column)) ++bad;  // no reversal
        if (L.lbn(a) != lbn) ++bad;
        if (L.lbn_at(a.sled, b.x_nm, b.up.y_servo_nm, a.column, a.cell) != lbn) ++bad;
        if (b.first_tip != a.column * p.tips_active + a.cell * p.tip_sectors_per_block) ++bad;
        if (L.run_blocks(a) != rows - a.row) ++bad;
      }
      INFO(p.preset << " sleds " << sleds);
      CHECK(bad == 0);
      CHECK_THROWS_AS(L.locate(L.capacity()), std::out_of_range);
    }
  }
}

TEST_CASE("mems: along-Y layout: consecutive LBNs step exactly one row along +Y within a (column, cell)",
          "[mems][layout]") {
  for (const MemsParams& base : presets()) {
    const MemsParams p = along_y(base);
    const MemsLayout L(p);
    const std::int64_t row_nm = std::int64_t{L.row_bits()} * p.bit_length_nm;
    std::uint64_t next_row = 0, new_cell = 0, new_column = 0, bad = 0;
    const std::uint64_t n = 3 * L.blocks_per_cylinder();
    for (std::uint64_t lbn = 0; lbn + 1 < n; ++lbn) {
      const BlockPosition a = L.position(lbn), b = L.position(lbn + 1);
      if (a.address.cylinder != b.address.cylinder || a.address.column != b.address.column) {
        ++new_column;
        continue;
      }
      if (a.address.cell != b.address.cell) {
        // A new cell of the same column starts again at the bottom row, on the next 64 tips.
        ++new_cell;
        if (a.physical_row != L.rows_per_column() - 1 || b.physical_row != 0) ++bad;
        if (b.first_tip != a.first_tip + p.tip_sectors_per_block) ++bad;
        continue;
      }
      ++next_row;
      if (a.x_nm != b.x_nm || a.first_tip != b.first_tip) ++bad;
      if (b.physical_row != a.physical_row + 1) ++bad;
      if (b.up.y_servo_nm - a.up.y_servo_nm != row_nm || b.up.y_servo_nm != a.up.y_end_nm) ++bad;
    }
    INFO(p.preset);
    CHECK(bad == 0);
    CHECK(next_row == 3 * L.columns_per_cylinder() * L.cells_per_row() * (L.rows_per_column() - 1));
    CHECK(new_cell == 3 * L.columns_per_cylinder() * (L.cells_per_row() - 1));
    CHECK(new_column == 3 * L.columns_per_cylinder() - 1);
  }
  // G1 by hand: LBN 0..21 are rows 0..21 of cell 0 (tips 0-63); LBN 22 is row 0 of cell 1.
  const MemsLayout g1(along_y(mems_g1()));
  CHECK(g1.locate(21) == BlockAddress{0, 0, 0, 21, 0});
  CHECK(g1.locate(22) == BlockAddress{0, 0, 0, 0, 1});
  CHECK(g1.locate(220) == BlockAddress{0, 0, 1, 0, 0});
  CHECK(g1.position(22).first_tip == 64);
  CHECK(g1.position(220).first_tip == 640);
}

TEST_CASE("mems: along-Y access of a multi-row request against a hand computation", "[mems][access]") {
  // Springs off so that every part has a closed form: Y seek from v to v over d is
  // 2(−v + √(v² + a·d))/a (two halves), a turnaround 2v/a, X from rest to rest 2√(d/a).
  MemsParams p = along_y(mems_g1());
  p.spring_constant_factor = 0;
  const MemsSeek S(p);
  const MemsLayout& L = S.layout();
  const double a = p.accel_y_nm_s2(), v = 2e7;
  const double row_s = 90 * 50 / 2e7;  // 225 µs
  auto y_seek = [&](double d) { return 2 * (-v + std::sqrt(v * v + a * d)) / a; };
  // Cylinder 7, column 1, cell 2, rows 3..7: LBN = 7·2200 + 1·220 + 2·22 + 3.
  const std::uint64_t lbn = 7 * 2200 + 220 + 2 * 22 + 3;
  REQUIRE(L.locate(lbn) == BlockAddress{0, 7, 1, 3, 2});
  // The sled on cylinder 7, 1000 nm below row 3's servo burst, moving +Y: Y only, no turnaround.
  const std::int64_t y3 = (3 * 90 - 995) * 50;  // up pass of row 3: y(bit 270), column of 1990 bits
  REQUIRE(L.up_pass(3).y_servo_nm == y3);
  const SledState from{L.x_nm(7), y3 - 1000, +1};
  const MediaAccess m = S.access(from, lbn, 5);
  CHECK(m.runs == 1);
  CHECK(m.rows == 5);
  CHECK(within_1ps(m.positioning, y_seek(1000)));
  CHECK(m.transfer == from_s(5 * row_s));
  CHECK(m.transfer == Time{1'125'000'000});
  CHECK(m.repositioning == Time{0});
  CHECK(m.tip_rows == 5 * 64);
  CHECK(m.max_active_tips == 64);
  CHECK(m.tip_seconds == 5 * 64 * row_s);
  CHECK(m.end == SledState{L.x_nm(7), (7 * 90 + 90 - 995) * 50, +1});
  // Rows 20, 21 of cell 2, then rows 0..2 of cell 3: two runs; the second starts at the bottom
  // (row 0's up pass) while the sled leaves the top moving +Y: reverse at the top, seek down,
  // reverse again at row 0: two turnarounds, one Y seek of (21·90 + 90 − 0)·50 nm.
  const std::uint64_t lbn20 = 7 * 2200 + 220 + 2 * 22 + 20;
  const SledState at20{L.x_nm(7), L.up_pass(20).y_servo_nm, +1};
  const MediaAccess two = S.access(at20, lbn20, 5);
  CHECK(two.runs == 2);
  CHECK(two.rows == 5);
  CHECK(two.positioning == Time{0});
  CHECK(two.transfer == from_s(2 * row_s) + from_s(3 * row_s));
  const double d = (22 * 90) * 50.0;  // from the end of row 21 (bit 1980) to row 0's servo (bit 0)
  REQUIRE(L.up_pass(21).y_end_nm - L.up_pass(0).y_servo_nm == static_cast<std::int64_t>(d));
  const Positioning rep = S.position({L.x_nm(7), L.up_pass(21).y_end_nm, +1}, L.x_nm(7), L.up_pass(0));
  CHECK(rep.turnaround_count == 2);
  CHECK(rep.turnarounds == from_s(2 * (2 * v / a)));
  CHECK(rep.start_turnaround == from_s(2 * v / a));
  CHECK(within_1ps(rep.y_seek, y_seek(d)));
  CHECK(two.repositioning == rep.total());
  CHECK(two.end == SledState{L.x_nm(7), L.up_pass(2).y_end_nm, +1});
  // Bidirectional access does not change the direction: AlongY never reverses rows.
  MemsParams uni = p;
  uni.bidirectional_access = false;
  CHECK(MemsSeek(uni).access(at20, lbn20, 5).total() == two.total());
  // The sweeps give the same terms.
  const std::vector<Sweep> sw = S.sweeps(at20, lbn20, 5);
  REQUIRE(sw.size() == 2);
  CHECK(sw[0].rows == 2);
  CHECK(sw[1].from == sw[0].end);
  CHECK(sw[1].start == SledState{L.x_nm(7), L.up_pass(0).y_servo_nm, +1});
  const MediaAccess sum = S.summarize(sw);
  CHECK(sum.total() == two.total());
  CHECK(sum.tip_seconds == two.tip_seconds);
  CHECK(sum.end == two.end);
}

TEST_CASE("mems: the parameter page carries the layout order", "[mems][layout][page]") {
  const MemsParameterPage s = make_mems_page(mems_g2());
  CHECK(s.layout == 0);
  CHECK(mems_params_from_page(s).layout == LayoutOrder::Streaming);
  MemsParameterPage a = make_mems_page(along_y(mems_g2()));
  CHECK(a.layout == 1);
  CHECK(mems_params_from_page(a).layout == LayoutOrder::AlongY);
  CHECK(sizeof(MemsParameterPage) == 200);
  a.layout = 2;
  try {
    mems_params_from_page(a);
    FAIL("no error");
  } catch (const std::invalid_argument& e) {
    CHECK(std::string(e.what()) == "MEMS parameter page: layout must be 0 (streaming) or 1 (along_y) (found 2)");
  }
}

// --- batches: several requests in one media access (002 §2.1, §4) ------------------------------

namespace {

std::string conflict_of(const MemsSeek& S, const std::vector<BatchSpan>& spans) {
  const auto why = S.batch_conflict(spans);
  return why ? *why : std::string("none");
}

}  // namespace

TEST_CASE("mems: batch: k spans at one (x, y) in distinct regions take the longest first run + one positioning",
          "[mems][batch]") {
  // Springs off: X from rest to rest over d is 2√(d/a), a Y seek from v to v over d is
  // 2(−v + √(v² + a·d))/a, settle = 2 / (2π · 739 Hz); a row takes 90 · 50 nm / 2e7 nm/s = 225 µs.
  for (const LayoutOrder order : {LayoutOrder::AlongY, LayoutOrder::Streaming}) {
    MemsParams p = mems_g1();
    p.layout = order;
    p.spring_constant_factor = 0;
    const MemsSeek S(p);
    const MemsLayout& L = S.layout();
    const double a = p.accel_x_nm_s2(), v = 2e7, row_s = 225e-6;
    const std::uint32_t cyl = 300, column = 4, row = 5;  // column 4: forward in the streaming layout too
    const SledState from{L.x_nm(310), L.up_pass(row).y_servo_nm - 20'000, +1};
    const double x_s = 2 * std::sqrt(500 / a);  // 10 cylinders of 50 nm
    const double y_s = 2 * (-v + std::sqrt(v * v + a * 20'000)) / a;
    const double settle_s = 2 / (2 * kPi * 739);
    const Time positioning = std::max(from_s(x_s) + from_s(settle_s), from_s(y_s));
    for (std::uint32_t k = 1; k <= L.cells_per_row(); ++k) {  // regions per access: 10 on G1
      std::vector<BatchSpan> spans;
      std::uint32_t longest = 0;
      for (std::uint32_t c = 0; c < k; ++c) {
        // AlongY: 1..4 blocks up the rows of cell c; streaming: one block per region (cell c).
        const std::uint32_t blocks = order == LayoutOrder::AlongY ? 1 + (c * 7 + k) % 4 : 1;
        spans.push_back({L.lbn({0, cyl, column, row, c}), blocks});
        longest = std::max(longest, blocks);
      }
      INFO(to_string(order) << " k = " << k);
      REQUIRE(conflict_of(S, spans) == "none");
      const MediaAccess m = S.access_batch(from, spans);
      CHECK(m.runs == 1);
      CHECK(m.rows == longest);
      CHECK(m.positioning == positioning);
      CHECK(m.transfer == from_s(longest * row_s));
      CHECK(m.repositioning == Time{0});
      CHECK(m.total() == positioning + from_s(longest * row_s));
      CHECK(std::abs(static_cast<double>(m.total().count()) -
                     (std::max(x_s + settle_s, y_s) + longest * row_s) * 1e12) <= 2.0);
      std::uint64_t blocks = 0;
      for (const BatchSpan& s : spans) blocks += s.blocks;
      CHECK(m.tip_rows == blocks * 64);
      CHECK(m.tip_seconds == static_cast<double>(blocks * 64) * row_s);
      CHECK(m.max_active_tips == 64 * k);  // every span in the first row
      CHECK(m.end == SledState{L.x_nm(cyl), L.up_pass(row + longest - 1).y_end_nm, +1});
      // Served one after another instead: k positionings.
      if (k > 1) {
        Time serial{0};
        SledState s = from;
        for (const BatchSpan& q : spans) {
          const MediaAccess one = S.access(s, q.lbn, q.blocks);
          serial += one.total();
          s = one.end;
        }
        CHECK(serial > m.total());
      }
    }
  }
}

TEST_CASE("mems: batch of one span is exactly access(); later runs follow in span order", "[mems][batch]") {
  for (const LayoutOrder order : {LayoutOrder::Streaming, LayoutOrder::AlongY}) {
    for (MemsParams p : presets()) {
      p.layout = order;
      const MemsSeek S(p);
      const MemsLayout& L = S.layout();
      std::uint64_t seed = 12345;
      auto next = [&seed] { return seed = seed * 6364136223846793005ull + 1442695040888963407ull; };
      for (int i = 0; i < 300; ++i) {
        const std::uint64_t lbn = next() % (L.capacity() - 200);
        const auto n = static_cast<std::uint32_t>(1 + next() % 120);
        const SledState from{static_cast<std::int64_t>(next() % 100'001) - 50'000,
                             static_cast<std::int64_t>(next() % 99'001) - 49'500, (next() & 1) ? +1 : -1};
        const MediaAccess want = S.access(from, lbn, n);
        const MediaAccess got = S.access_batch(from, {{lbn, n}});
        INFO(p.preset << " " << to_string(order) << " lbn " << lbn << " n " << n);
        REQUIRE(got.positioning == want.positioning);
        REQUIRE(got.transfer == want.transfer);
        REQUIRE(got.repositioning == want.repositioning);
        REQUIRE(got.runs == want.runs);
        REQUIRE(got.rows == want.rows);
        REQUIRE(got.tip_rows == want.tip_rows);
        REQUIRE(got.tip_seconds == want.tip_seconds);
        REQUIRE(got.max_active_tips == want.max_active_tips);
        REQUIRE(got.end == want.end);
      }
    }
  }
  // Three spans at one (x, y), two of them longer than their first run: the common sweep, then
  // span 0's rest, then span 2's rest, each as access() from where the sled is.
  const MemsParams p = along_y(mems_g2());
  const MemsSeek S(p);
  const MemsLayout& L = S.layout();
  const std::uint32_t rows = L.rows_per_column();  // 27
  const std::vector<BatchSpan> spans = {
      {L.lbn({0, 40, 2, 20, 3}), 10}, {L.lbn({0, 40, 2, 20, 11}), 2}, {L.lbn({0, 40, 2, 20, 19}), 7 + 30}};
  const SledState from{0, 0, -1};
  const MediaAccess m = S.access_batch(from, spans);
  const Positioning first = S.position(from, L.x_nm(40), L.up_pass(20));
  const std::uint32_t common = rows - 20;  // 7 rows: spans 0 and 2 run to the top, span 1 takes 2
  const SledState top{L.x_nm(40), L.up_pass(rows - 1).y_end_nm, +1};
  const MediaAccess rest0 = S.access(top, spans[0].lbn + common, 10 - common);
  const MediaAccess rest2 = S.access(rest0.end, spans[2].lbn + common, 30);
  CHECK(m.positioning == first.total());
  CHECK(m.transfer == from_s(common * S.row_seconds()) + rest0.transfer + rest2.transfer);
  CHECK(m.repositioning == rest0.total() - rest0.transfer + rest2.total() - rest2.transfer);
  CHECK(m.runs == 1 + rest0.runs + rest2.runs);
  CHECK(m.rows == common + rest0.rows + rest2.rows);
  CHECK(m.tip_rows == (common + 2 + common) * 64 + rest0.tip_rows + rest2.tip_rows);
  CHECK(m.max_active_tips == 3 * 64);
  CHECK(m.end == rest2.end);
  const std::vector<Sweep> sw = S.batch_sweeps(from, spans);
  REQUIRE(sw.size() == m.runs);
  CHECK(sw[0].rows == common);
  CHECK(sw[0].start == SledState{L.x_nm(40), L.up_pass(20).y_servo_nm, +1});
  CHECK(sw[0].end == top);
  CHECK(sw[1].from == top);
  CHECK(S.summarize(sw).total() == m.total());
}

TEST_CASE("mems: batch conflicts are refused with the reason", "[mems][batch]") {
  const MemsParams ay = along_y(mems_g1());
  const MemsSeek A(ay);
  const MemsLayout& LA = A.layout();
  const std::uint64_t r5c0 = LA.lbn({0, 300, 4, 5, 0}), r5c1 = LA.lbn({0, 300, 4, 5, 1});
  const std::uint64_t r6c1 = LA.lbn({0, 300, 4, 6, 1});
  const std::string s0 = "span 0 (LBN " + std::to_string(r5c0) + ")";
  // Different row.
  CHECK(conflict_of(A, {{r5c0, 1}, {r6c1, 1}}) == "span 1 (LBN " + std::to_string(r6c1) +
                                                      ") starts its first sweep at physical row 6, " + s0 +
                                                      " at physical row 5");
  // Different cylinder.
  const std::uint64_t other_cyl = LA.lbn({0, 301, 4, 5, 1});
  CHECK(conflict_of(A, {{r5c0, 1}, {other_cyl, 1}}) == "span 1 (LBN " + std::to_string(other_cyl) +
                                                           ") starts its first sweep at cylinder 301, " + s0 +
                                                           " at cylinder 300");
  // Same tips: the same cell twice (the same block, or another block of the same cell).
  CHECK(conflict_of(A, {{r5c0, 3}, {r5c1, 1}, {r5c0, 1}}) ==
        "spans 0 and 2 (LBNs " + std::to_string(r5c0) + " and " + std::to_string(r5c0) +
            ") both use the tips of sled 0, column 4, cell 0 in physical row 5");
  // Too many tips: the ten cells of column 4 and one cell of column 6 in the same row.
  std::vector<BatchSpan> eleven;
  for (std::uint32_t c = 0; c < 10; ++c) eleven.push_back({LA.lbn({0, 300, 4, 5, c}), 1});
  CHECK(conflict_of(A, eleven) == "none");
  eleven.push_back({LA.lbn({0, 300, 6, 5, 0}), 1});
  CHECK(conflict_of(A, eleven) == "physical row 5 needs 704 tips, more than the 640 active tips");
  // Several sleds move together; their tips are distinct, the active-tip limit counts them all.
  MemsParams two = ay;
  two.sleds = 2;
  const MemsSeek T(two);
  const MemsLayout& LT = T.layout();
  CHECK(conflict_of(T, {{LT.lbn({0, 300, 4, 5, 0}), 2}, {LT.lbn({1, 300, 4, 5, 0}), 2}}) == "none");
  std::vector<BatchSpan> both;
  for (std::uint32_t c = 0; c < 10; ++c) both.push_back({LT.lbn({0, 300, 4, 5, c}), 1});
  both.push_back({LT.lbn({1, 300, 4, 5, 0}), 1});
  CHECK(conflict_of(T, both) == "physical row 5 needs 704 tips, more than the 640 active tips");
  // Streaming: a column's neighbour is reversed, so the same physical row sweeps the other way.
  const MemsSeek St(mems_g1());
  const MemsLayout& LS = St.layout();
  const std::uint64_t fwd = LS.lbn({0, 300, 4, 5, 0});
  const std::uint64_t rev = LS.lbn({0, 300, 5, LS.physical_row(300, 5, 5), 1});  // physical row 5 of column 5
  REQUIRE(LS.position(rev).physical_row == 5);
  CHECK(conflict_of(St, {{fwd, 1}, {rev, 1}}) ==
        "span 1 (LBN " + std::to_string(rev) + ") sweeps -Y, span 0 (LBN " + std::to_string(fwd) + ") sweeps +Y");
  // Streaming, same row: 15 blocks from cell 0 fill row 5 and half of row 6; a block at cell 3 of
  // row 5 overlaps; one at cell 3 of row 6 starts elsewhere; in another column it is fine.
  const std::uint64_t cell3 = LS.lbn({0, 300, 4, 5, 3});
  CHECK(conflict_of(St, {{fwd, 15}, {cell3, 1}}) ==
        "spans 0 and 1 (LBNs " + std::to_string(fwd) + " and " + std::to_string(cell3) +
            ") both use the tips of sled 0, column 4, cell 3 in physical row 5");
  CHECK(conflict_of(St, {{fwd, 3}, {cell3, 7}}) == "none");  // cells 0-2 and 3-9
  // Input errors.
  CHECK(conflict_of(A, {}) == "the batch has no spans");
  CHECK(conflict_of(A, {{r5c0, 1}, {r5c1, 0}}) == "span 1 (LBN " + std::to_string(r5c1) + ") has 0 blocks");
  CHECK(conflict_of(A, {{r5c0, 1}, {LA.capacity() - 1, 2}}) ==
        "span 1 (LBN 4399999) with 2 blocks passes the capacity of 4400000 blocks");
  // access_batch: std::out_of_range beyond the capacity, std::invalid_argument with the reason.
  CHECK_THROWS_AS(A.access_batch({}, {{r5c0, 1}, {LA.capacity() - 1, 2}}), std::out_of_range);
  try {
    A.access_batch({}, {{r5c0, 1}, {r6c1, 1}});
    FAIL("no error");
  } catch (const std::invalid_argument& e) {
    CHECK(std::string(e.what()) == "MEMS batch refused: " + conflict_of(A, {{r5c0, 1}, {r6c1, 1}}));
  }
  CHECK_THROWS_AS(A.access_batch({}, {}), std::invalid_argument);
}
