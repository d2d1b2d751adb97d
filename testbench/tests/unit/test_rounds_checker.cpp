// The rounds checker's explicit rounds (testbench/metrics/rounds_checker.h; paper 004's WRR-SCAN,
// whose rounds start where the firmware's round clock says): exact rounds.csv rows for a small
// hand-built run, and the errors. Plain C++: no SystemC.
#include <catch2/catch_test_macros.hpp>

#include <sstream>
#include <stdexcept>
#include <string>

#include "firmware/policy.h"
#include "testbench/metrics/rounds_checker.h"

namespace drivevp {
namespace {

constexpr Time ms(std::int64_t v) { return Time{v * 1'000'000'000}; }

Command job(std::uint64_t id, bool periodic, Time deadline = kNoDeadline) {
  Command c;
  c.id = id;
  c.cls = periodic ? RequestClass::RealTime : RequestClass::Aperiodic;
  c.stream = periodic ? 1 : 0;
  c.deadline = deadline;
  return c;
}

RequestRecord record(const Command& c, Time dispatch, Time completion) {
  RequestRecord r;
  r.command = c;
  r.dispatch = dispatch;
  r.seek_start = r.seek_end = r.transfer_start = r.transfer_end = dispatch;
  r.completion = completion;
  return r;
}

Decision serve(const Command& c, std::vector<Command> batch = {}) { return Decision::serve_batch(c, std::move(batch)); }

}  // namespace

TEST_CASE("rounds checker, explicit rounds: exact rows of a hand-built WRR-SCAN run", "[rounds][wrr]") {
  // R = 100 ms. The firmware's round 0 starts at 10 ms, round 1 at 64 ms; the run ends at 120 ms.
  // Round 0: #1 periodic (deadline 50) dispatched at 8 ms (2 ms of command overhead before the
  //   round clock's start), completed at 30; #2 (deadline 40) + #3 (deadline 200) periodic in one
  //   access dispatched at 30, completed at 45 (5 ms late: a hiccup) and 50; #4 aperiodic
  //   dispatched at 50, completed at 60.
  // Round 1: #5 aperiodic dispatched at 62 (before the round's start at 64), completed at 70; #6
  //   periodic (deadline 300) dispatched at 80, completed at 95.
  // Round 0: C = #1..#3 (3, 2 on time, 1 hiccup), D = #4; last C completion 50: C-period 40,
  //   window 64 - 10 = 54, D-period 14; busy in [10, 64): [10, 30] + [30, 50] (the batch's union)
  //   + [50, 60] + [62, 64] = 52, idle 2; slack 10 + 100 - 50 = 60.
  // Round 1: C = #6, D = #5; C-period 95 - 64 = 31, window 120 - 64 = 56, D-period 25; busy
  //   [64, 70] + [80, 95] = 21, idle 35; slack 64 + 100 - 95 = 69.
  RoundsChecker rc(ms(100), RoundsChecker::explicit_rounds);
  CHECK(rc.explicit_mode());
  const Command c1 = job(1, true, ms(50)), c2 = job(2, true, ms(40)), c3 = job(3, true, ms(200)), d4 = job(4, false),
                d5 = job(5, false), c6 = job(6, true, ms(300));
  rc.dispatched(serve(c1), 0, ms(10));
  rc.add(record(c1, ms(8), ms(30)));
  rc.dispatched(serve(c2, {c3}), 0, ms(10));
  rc.add(record(c2, ms(30), ms(45)));
  rc.add(record(c3, ms(30), ms(50)));
  rc.dispatched(serve(d4), 0, ms(10));
  rc.add(record(d4, ms(50), ms(60)));
  rc.dispatched(serve(d5), 1, ms(64));
  rc.add(record(d5, ms(62), ms(70)));
  rc.dispatched(serve(c6), 1, ms(64));
  rc.add(record(c6, ms(80), ms(95)));
  rc.end_run(ms(120));
  std::ostringstream os;
  rc.write_csv(os);
  CHECK(os.str() ==
        "round,start_ms,c_served,c_in_round,d_served,c_period_ms,d_period_ms,idle_ms,slack_ms,hiccups\n"
        "0,10.000000000,3,2,1,40.000000000,14.000000000,2.000000000,60.000000000,1\n"
        "1,64.000000000,1,1,1,31.000000000,25.000000000,35.000000000,69.000000000,0\n");
  CHECK(rc.hiccup_count() == 1);
  REQUIRE(rc.hiccups().size() == 1);
  CHECK(rc.hiccups()[0].id == 2);
  CHECK(rc.hiccups()[0].round == 0);
  CHECK(rc.hiccups()[0].lateness == ms(5));

  // A round without C-requests: C-period 0, slack R; without end_run() the last window ends at
  // the last completion (20 ms): D-period 20, all of it busy.
  RoundsChecker empty(ms(100), RoundsChecker::explicit_rounds);
  empty.dispatched(serve(d4), 0, ms(0));
  empty.add(record(d4, ms(0), ms(20)));
  std::ostringstream e;
  empty.write_csv(e);
  CHECK(e.str() ==
        "round,start_ms,c_served,c_in_round,d_served,c_period_ms,d_period_ms,idle_ms,slack_ms,hiccups\n"
        "0,0.000000000,0,0,1,0.000000000,20.000000000,0.000000000,100.000000000,0\n");
}

TEST_CASE("rounds checker, explicit rounds: errors", "[rounds][wrr]") {
  CHECK_THROWS_AS(RoundsChecker(Time{0}, RoundsChecker::explicit_rounds), std::invalid_argument);
  RoundsChecker fixed(ms(100), 2);
  CHECK_FALSE(fixed.explicit_mode());
  CHECK_THROWS_AS(fixed.dispatched(serve(job(1, true)), 0, Time{0}), std::logic_error);
  RoundsChecker rc(ms(100), RoundsChecker::explicit_rounds);
  rc.dispatched(serve(job(1, true)), 1, ms(5));
  CHECK_THROWS_AS(rc.dispatched(serve(job(2, true)), 0, ms(5)), std::logic_error);  // the round went back
  std::ostringstream os;
  rc.write_csv(os);
  CHECK(os.str().find("\n0,5.000000000,") != std::string::npos);  // a skipped round opens at the same start
}

}  // namespace drivevp
