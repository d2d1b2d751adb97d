// MemsPredictor (firmware/mems_predictor.h), built from the device's parameter page, against the
// device's own math (hw_models/mems MemsSeek built from the preset): equal to the picosecond over
// random sled states and LBNs on G1-G3; the startup rule; locate() against the layout.
#include <cstdint>
#include <random>

#include <catch2/catch_test_macros.hpp>

#include "firmware/mems_predictor.h"
#include "hw_models/mems/mems_page.h"

using namespace drivevp;

TEST_CASE("MEMS predictor equals the device math over random sled states and LBNs", "[mems][predictor]") {
  for (const mems::MemsParams& p : {mems::mems_g1(), mems::mems_g2(), mems::mems_g3()}) {
    const MemsPredictor pred(mems::make_mems_page(p));
    const mems::MemsSeek dev(p);  // what MemsDevice computes
    const mems::MemsLayout& L = dev.layout();
    REQUIRE(pred.capacity_blocks() == L.capacity());
    std::mt19937_64 rng(42);
    std::uniform_int_distribution<std::uint64_t> any_lbn(0, L.capacity() - 1);
    std::uniform_int_distribution<std::int64_t> off(-50'000, 50'000);
    std::uniform_int_distribution<std::uint32_t> len(1, 80);
    for (int i = 0; i < 2000; ++i) {
      // Half the states where a sweep ended, half arbitrary offsets in the travel.
      mems::SledState s;
      if (i % 2 == 0) {
        s = dev.access({}, any_lbn(rng) % (L.capacity() - 100), len(rng)).end;
      } else {
        s = {off(rng), off(rng), (rng() & 1) ? +1 : -1};
      }
      const std::uint64_t lbn = any_lbn(rng);
      const std::uint32_t n = static_cast<std::uint32_t>(std::min<std::uint64_t>(len(rng), L.capacity() - lbn));
      const mems::MediaAccess m = dev.access(s, lbn, n);
      const MemsPrediction q = pred.predict({s, Time{0}}, Time{0}, lbn, i % 3 ? Op::Read : Op::Write, n);
      REQUIRE(q.startup == Time{0});
      REQUIRE(q.positioning == m.positioning);
      REQUIRE(q.transfer == m.transfer);
      REQUIRE(q.repositioning == m.repositioning);
      REQUIRE(q.access() == m.total());
      REQUIRE(q.end == m.end);
      REQUIRE(q.rows == m.rows);
      REQUIRE(q.runs == m.runs);
      REQUIRE(pred.positioning(s, lbn) == dev.access(s, lbn, 1).positioning);
    }
  }
}

TEST_CASE("MEMS predictor pays the startup delay after the idle timeout only", "[mems][predictor]") {
  const mems::MemsParams p = mems::mems_g1();
  const MemsPredictor pred(mems::make_mems_page(p));
  const MemsSledView v{{}, from_ms(7)};
  CHECK(pred.startup(v, from_ms(7)) == Time{0});
  CHECK(pred.startup(v, from_ms(107) - Time{1}) == Time{0});
  CHECK(pred.startup(v, from_ms(107)) == from_ms(0.5));
  const MemsPrediction q = pred.predict(v, from_ms(300), 1000, Op::Read, 3);
  CHECK(q.startup == from_ms(0.5));
  CHECK(q.access() == from_ms(0.5) + mems::MemsSeek(p).access({}, 1000, 3).total());
  CHECK(q.to_first_block() == from_ms(0.5) + q.positioning);
  CHECK_THROWS_AS(pred.startup(v, from_ms(6)), std::invalid_argument);
  CHECK(pred.command_overhead() == from_ms(0.3));
}

TEST_CASE("MEMS predictor locates blocks as (x, y, region) of the layout", "[mems][predictor]") {
  mems::MemsParams p = mems::mems_g2();
  p.sleds = 2;
  const MemsPredictor pred(mems::make_mems_page(p));
  const mems::MemsLayout L(p);
  CHECK(pred.regions() == 2u * 5u * 20u);
  CHECK(pred.regions_per_access() == 20u);
  std::mt19937_64 rng(7);
  for (int i = 0; i < 5000; ++i) {
    const std::uint64_t lbn = rng() % L.capacity();
    const mems::BlockPosition b = L.position(lbn);
    const MemsLocation loc = pred.locate(lbn);
    CHECK(loc.x == b.address.cylinder);
    CHECK(loc.y == b.physical_row);
    CHECK(loc.region == (b.address.sled * 5 + b.address.column) * 20 + b.address.cell);
    CHECK(loc.region < pred.regions());
    // The inverse: the block at that (x, y) in that region is this one.
    CHECK(L.lbn_at(b.address.sled, L.x_nm(loc.x), L.up_pass(loc.y).y_servo_nm, b.address.column, b.address.cell) ==
          lbn);
  }
  // Consecutive LBNs in a row share (x, y) in different regions.
  const MemsLocation a = pred.locate(0), c = pred.locate(1);
  CHECK((a.x == c.x && a.y == c.y && a.region + 1 == c.region));
  CHECK_THROWS_AS(pred.locate(L.capacity()), std::out_of_range);
  // The predictor remembers the last located LBN (positioning() then locate() of one dispatch):
  // a failed locate leaves it as it was, and a remembered LBN gives the layout's answer.
  const MemsLocation again = pred.locate(1);
  CHECK((again.x == c.x && again.y == c.y && again.region == c.region));
  CHECK_THROWS_AS(pred.locate(L.capacity()), std::out_of_range);
  const mems::SledState origin{0, 0, +1};
  const std::uint64_t far = L.capacity() - 1;
  CHECK(pred.positioning(origin, far) ==
        pred.seek()
            .position(origin, L.position(far).x_nm,
                      pred.seek().pass_for(L.position(far), pred.seek().direction(L.position(far).address)))
            .total());
  CHECK(pred.locate(far).x == L.position(far).address.cylinder);
}
