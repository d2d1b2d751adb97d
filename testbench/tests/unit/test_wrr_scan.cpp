// Unit tests of WRR-SCAN (paper 004): the admission tests (eqs. 7, 8, 10) at their boundaries, the
// weights (eqs. 2, 3, 9), the policies' service order on hand-built job sets, and the rate_tasks
// workload's jobs (release times, deadlines, placement, alignment). Plain C++: no SystemC.
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_floating_point.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include <unistd.h>

#include "firmware/disk_predictor.h"
#include "firmware/policy.h"
#include "firmware/rounds/round_manager.h"
#include "firmware/rounds/round_status.h"
#include "firmware/rounds/wrr_admission.h"
#include "firmware/rounds/wrr_scan.h"
#include "small_disk.h"
#include "testbench/workload/rate_tasks.h"

namespace drivevp {
namespace {

using namespace testdisk;
using Catch::Matchers::WithinAbs;

// ---- admission tests -----------------------------------------------------------------------------

// 004 Table 2: t_s = 15.7 ms, t_r = 23 ms, C = 4096 B, V = 2.8 MB/s, so C/V = 4096 / 2.8e6 s.
constexpr double kCV = 4096.0 / 2.8e6 * 1e3;  // 1.462857... ms

std::vector<wrr::TaskDemand> same_tasks(std::size_t n, double period_ms, std::uint32_t blocks) {
  return std::vector<wrr::TaskDemand>(n, wrr::TaskDemand{period_ms, blocks});
}

TEST_CASE("WRR-SCAN weights: q_i = floor(P_i/R) - 1, x_i = ceil(b_i/q_i); CA: q_i + 1 (eqs. 2, 3, 9)", "[wrr]") {
  // R fixed at 1000 ms, P = 5000 ms: floor(5) = 5 full rounds; q = 4 (R, C), q' = 5 (CA).
  // b = 14: x = ceil(14/4) = 4 (R, C), ceil(14/5) = 3 (CA). P = 2500: q = 1, q' = 2, x = 14, 7.
  const std::vector<wrr::TaskDemand> tasks{{5000, 14}, {2500, 14}};
  const wrr::Plan r = wrr::plan(wrr::Variant::R, tasks, 1, {}, 1000);
  CHECK(r.services == std::vector<std::uint32_t>{4, 1});
  CHECK(r.weight_blocks == std::vector<std::uint32_t>{4, 14});
  const wrr::Plan ca = wrr::plan(wrr::Variant::CA, tasks, 1, {}, 1000);
  CHECK(ca.services == std::vector<std::uint32_t>{5, 2});
  CHECK(ca.weight_blocks == std::vector<std::uint32_t>{3, 7});
  // Without a given R: the largest allowed, min P_i / 2 (R, C: eq. 6) or min P_i (CA, §3.3).
  CHECK(wrr::plan(wrr::Variant::C, tasks, 1).round_ms == 1250);
  CHECK(wrr::plan(wrr::Variant::CA, tasks, 1).round_ms == 2500);
}

TEST_CASE("WRR-SCAN-R admission, eq. (7): a set that just passes and one that just fails", "[wrr][admission]") {
  // One task, P = 1000 ms: R = 500 ms, q = 1, x = b. Eq. (7): 15.7 + (23 + C/V)(b + x_a) <= 500
  // with x_a = 1: b + 1 <= 484.3 / 24.4629 = 19.797, so b = 18 passes and b = 19 fails.
  const double per_block = 23 + kCV;
  const wrr::Plan pass = wrr::plan(wrr::Variant::R, same_tasks(1, 1000, 18), 1);
  CHECK(pass.admitted);
  CHECK(pass.reason.empty());
  CHECK_THAT(pass.lower_bound_ms, WithinAbs(15.7 + per_block * 19, 1e-9));
  const wrr::Plan fail = wrr::plan(wrr::Variant::R, same_tasks(1, 1000, 19), 1);
  CHECK_FALSE(fail.admitted);
  CHECK_THAT(fail.lower_bound_ms, WithinAbs(15.7 + per_block * 20, 1e-9));  // 504.957 ms
  CHECK(fail.reason ==
        "eq. (7) lower bound fails: t_s + (t_r + C/V)·(Σ⌈b_i/q_i⌉ + x_a) = 15.7 + 24.4629·(19 + 1) = 504.957 ms "
        "exceeds R = 500 ms by 4.95714 ms");
  // The upper bound R <= P_i/2 (eq. 6) with R given.
  const wrr::Plan upper = wrr::plan(wrr::Variant::R, same_tasks(1, 1000, 1), 1, {}, 600);
  CHECK_FALSE(upper.admitted);
  CHECK(upper.reason == "eq. (7) upper bound fails: R = 600 ms exceeds P_i/2 = 500 ms of task 1 by 100 ms");
}

TEST_CASE("WRR-SCAN-C admission, eq. (8): n tasks that just pass, n + 1 that just fail", "[wrr][admission]") {
  // n tasks with P = 1000 ms, b = 4: R = 500, q = 1, x = 4, x_a = 1.
  // Eq. (8): 15.7 + 23(n + 1) + C/V (4n + 1) <= 500  <=>  n <= (500 - 15.7 - 23 - C/V) / (23 + 4 C/V) = 15.94.
  const double limit = (500 - 15.7 - 23 - kCV) / (23 + 4 * kCV);
  REQUIRE(std::floor(limit) == 15);
  CHECK(wrr::plan(wrr::Variant::C, same_tasks(15, 1000, 4), 1).admitted);
  const wrr::Plan fail = wrr::plan(wrr::Variant::C, same_tasks(16, 1000, 4), 1);
  CHECK_FALSE(fail.admitted);
  CHECK_THAT(fail.lower_bound_ms, WithinAbs(15.7 + 23 * 17 + kCV * 65, 1e-9));
  CHECK(fail.reason.rfind("eq. (8) lower bound fails: t_s + t_r·(n + x_a) + (C/V)·(Σ⌈b_i/q_i⌉ + x_a) = 15.7 + "
                          "23·(16 + 1) + 1.46286·(64 + 1) = 501.786 ms exceeds R = 500 ms by 1.78571 ms",
                          0) == 0);
  // Eq. (7) for the same sets admits far fewer: 15.7 + 24.4629 (4n + 1) <= 500 -> n <= 4.7.
  CHECK(wrr::max_admitted_prefix(wrr::Variant::R, same_tasks(20, 1000, 4), 1) == 4);
  CHECK(wrr::max_admitted_prefix(wrr::Variant::C, same_tasks(20, 1000, 4), 1) == 15);
}

TEST_CASE("WRR-SCAN-CA admission, eq. (10): R <= P_i doubles the round", "[wrr][admission]") {
  // P = 1000, b = 4: R = 1000, q' = 1, x = 4. 15.7 + 23(n + 1) + C/V (4n + 1) <= 1000 -> n <= 33.27.
  const double limit = (1000 - 15.7 - 23 - kCV) / (23 + 4 * kCV);
  REQUIRE(std::floor(limit) == 33);
  CHECK(wrr::plan(wrr::Variant::CA, same_tasks(33, 1000, 4), 1).admitted);
  const wrr::Plan fail = wrr::plan(wrr::Variant::CA, same_tasks(34, 1000, 4), 1);
  CHECK_FALSE(fail.admitted);
  CHECK(fail.reason.rfind("eq. (10) lower bound fails: t_s + t_r·(n + x_a) + (C/V)·(Σ⌈b_i/(q_i+1)⌉ + x_a)", 0) == 0);
  // Online admission skips a task that does not fit and takes later ones that do.
  std::vector<wrr::TaskDemand> tasks = same_tasks(33, 1000, 4);
  tasks.insert(tasks.begin() + 10, wrr::TaskDemand{1000, 4000});  // alone it breaks eq. (10)
  const std::vector<std::size_t> admitted = wrr::admit_online(wrr::Variant::CA, tasks, 1);
  CHECK(admitted.size() == 33);
  CHECK(std::find(admitted.begin(), admitted.end(), std::size_t{10}) == admitted.end());
}

TEST_CASE("WRR-SCAN admission: bad input is an error", "[wrr][admission]") {
  CHECK_THROWS_AS(wrr::plan(wrr::Variant::R, {}, 1), std::invalid_argument);
  CHECK_THROWS_AS(wrr::plan(wrr::Variant::R, same_tasks(1, 0, 1), 1), std::invalid_argument);
  CHECK_THROWS_AS(wrr::plan(wrr::Variant::R, same_tasks(1, 10, 0), 1), std::invalid_argument);
  wrr::DiskBounds b;
  b.block_bytes = 1000;
  CHECK_THROWS_AS(wrr::plan(wrr::Variant::R, same_tasks(1, 10, 1), 1, b), std::invalid_argument);
}

// ---- the policy ----------------------------------------------------------------------------------

std::uint64_t lbn_of(std::uint32_t cylinder, std::uint32_t sector = 0) {
  return std::uint64_t{cylinder} * kHeads * kSpt + sector;
}

Command job_block(std::uint64_t id, std::uint32_t task, std::uint64_t lbn, std::uint32_t blocks = 1) {
  Command c;
  c.id = id;
  c.lbn = lbn;
  c.blocks = blocks;
  c.cls = task == 0 ? RequestClass::Aperiodic : RequestClass::RealTime;
  c.stream = task;
  c.deadline = task == 0 ? kNoDeadline : ms(1000);
  return c;
}

SchedulingContext at(std::uint32_t cylinder, Time now = Time{0}) {
  SchedulingContext ctx;
  ctx.now = now;
  ctx.position = DiskPredictor::position_of({cylinder, 0});
  ctx.predictor = &predictor();
  return ctx;
}

/// Serves until idle with time standing still; returns the served ids in order, and each
/// decision's ids as one group (a batch is one group).
std::vector<std::vector<std::uint64_t>> drain(SchedulingPolicy& p, std::uint32_t cylinder) {
  std::vector<std::vector<std::uint64_t>> out;
  SchedulingContext ctx = at(cylinder);
  for (int guard = 0; guard < 1000; ++guard) {
    const Decision d = p.next(ctx);
    if (d.kind == Decision::Kind::Idle) return out;
    REQUIRE(d.kind == Decision::Kind::Serve);
    std::vector<std::uint64_t> ids{d.command.id};
    for (const Command& c : d.batch) ids.push_back(c.id);
    out.push_back(ids);
    const Command& last = d.batch.empty() ? d.command : d.batch.back();
    ctx.position = DiskPredictor::position_of({predictor().sweep_coordinate(last.lbn), 0});
  }
  FAIL("the policy never went idle");
  return out;
}

WrrRoundPlan small_plan(std::map<std::uint32_t, std::uint32_t> weights, std::uint32_t x_a = 1) {
  WrrRoundPlan plan;
  plan.round = ms(100);
  plan.block_sectors = 1;
  plan.aperiodic_blocks = x_a;
  plan.weight_blocks = std::move(weights);
  return plan;
}

TEST_CASE("WRR-SCAN serves each task at most its weight per round, each round one SCAN sweep", "[wrr][policy]") {
  // x_1 = 2, x_2 = 1, x_a = 1; the head at cylinder 50, time standing still (no round expires).
  // Task 1: #1 @60, #2 @70, #3 @30. Task 2: #4 @55, #5 @80. Aperiodic: #6 @65, #7 @40.
  // Round 1 sweeps up from 50: 55 (#4, task 2 uses its 1), 60 (#1, task 1: 1 of 2), 65 (#6, the
  //   server's 1), 70 (#2, task 1: 2 of 2); #5 @80 is ahead but task 2's budget is spent: the round's
  //   work is done; with reclamation round 2 starts at once.
  // Round 2 sweeps down from 70: 40 (#7), 30 (#3); #5 @80 is behind: done.
  // Round 3 sweeps up from 30: 80 (#5).
  for (wrr::Variant v : {wrr::Variant::R, wrr::Variant::C, wrr::Variant::CA}) {
    auto p = make_wrr_scan(v, true);
    p->configure(small_plan({{1, 2}, {2, 1}}));
    const SchedulingContext ctx = at(50);
    for (const auto& [id, task, cyl] : std::vector<std::tuple<std::uint64_t, std::uint32_t, std::uint32_t>>{
             {1, 1, 60}, {2, 1, 70}, {3, 1, 30}, {4, 2, 55}, {5, 2, 80}, {6, 0, 65}, {7, 0, 40}})
      p->enqueue(job_block(id, task, lbn_of(cyl)), ctx);
    CHECK(p->pending() == 7);
    CHECK(drain(*p, 50) == std::vector<std::vector<std::uint64_t>>{{4}, {1}, {6}, {2}, {7}, {3}, {5}});
    CHECK(p->rounds() == 3);
    CHECK(p->pending() == 0);
  }
}

TEST_CASE("WRR-SCAN serves a task's contiguous blocks in one access, within its weight", "[wrr][policy]") {
  // Task 1, x_1 = 3: five contiguous one-sector blocks at cylinder 10 (LBN 200..204), the head at 0.
  // Round 1 (up): 200 with 201 and 202 in the same access (3 sectors). Round 2 (down, from
  // cylinder 10, which counts as ahead): the highest eligible, 204, and its contiguous
  // predecessor 203: one access starting at 203.
  auto p = make_wrr_scan(wrr::Variant::C, true);
  p->configure(small_plan({{1, 3}}));
  for (std::uint64_t i = 0; i < 5; ++i) p->enqueue(job_block(i, 1, 200 + i), at(0));
  CHECK(drain(*p, 0) == std::vector<std::vector<std::uint64_t>>{{0, 1, 2}, {3, 4}});
}

TEST_CASE("WRR-SCAN without reclamation waits for the round boundary", "[wrr][policy]") {
  // x_1 = 1, R = 100 ms: #1 @60 in round 1; at 10 ms #2 @70 is ahead but the budget is spent: wait
  // until 100 ms. Round 2 at 100 ms sweeps down from 60: nothing eligible below, so it reverses
  // at once and serves #2 @70.
  auto p = make_wrr_scan(wrr::Variant::R, false);
  p->configure(small_plan({{1, 1}}));
  p->enqueue(job_block(1, 1, lbn_of(60)), at(50));
  p->enqueue(job_block(2, 1, lbn_of(70)), at(50));
  Decision d = p->next(at(50, ms(0)));
  REQUIRE(d.kind == Decision::Kind::Serve);
  CHECK(d.command.id == 1);
  d = p->next(at(60, ms(10)));
  REQUIRE(d.kind == Decision::Kind::WaitUntil);
  CHECK(d.wake_at == ms(100));
  d = p->next(at(60, ms(100)));
  REQUIRE(d.kind == Decision::Kind::Serve);
  CHECK(d.command.id == 2);
  CHECK(p->rounds() == 2);
  // A round also ends when R has passed with work left: budgets are fresh in round 3.
  p->enqueue(job_block(3, 1, lbn_of(80)), at(70));
  d = p->next(at(70, ms(250)));
  REQUIRE(d.kind == Decision::Kind::Serve);
  CHECK(d.command.id == 3);
  CHECK(p->rounds() == 3);
}

TEST_CASE("WRR-SCAN: an oversized command uses the whole budget; unconfigured it is LOOK", "[wrr][policy]") {
  auto p = make_wrr_scan(wrr::Variant::R, true);
  p->configure(small_plan({{1, 1}}));
  p->enqueue(job_block(1, 1, lbn_of(60), 3), at(50));  // 3 sectors > x_1 = 1
  p->enqueue(job_block(2, 1, lbn_of(70)), at(50));
  // Round 1: #1 (budget untouched, so served, spending it all); #2 waits for round 2 (down from
  // 60: nothing below, reverse, #2 @70).
  CHECK(drain(*p, 50) == std::vector<std::vector<std::uint64_t>>{{1}, {2}});
  CHECK(p->rounds() == 2);
  auto look = make_wrr_scan(wrr::Variant::C, true);
  for (const auto& [id, cyl] : std::vector<std::pair<std::uint64_t, std::uint32_t>>{{1, 60}, {2, 30}, {3, 70}})
    look->enqueue(job_block(id, 1, lbn_of(cyl)), at(50));
  CHECK(drain(*look, 50) == std::vector<std::vector<std::uint64_t>>{{1}, {3}, {2}});
  CHECK(look->name() == "WRR-SCAN-C");
  CHECK(make_policy("wrr_scan_ca")->name() == "WRR-SCAN-CA");
  CHECK_THROWS_AS(p->configure(small_plan({{1, 0}})), std::invalid_argument);
}

// ---- the round clock and WRR-SCAN's slack ---------------------------------------------------------

TEST_CASE("round manager: the round clock starts rounds where the firmware says", "[wrr][rounds]") {
  RoundManager rm(ms(100), ms(5));
  CHECK_FALSE(rm.started());
  CHECK(rm.rounds_begun() == 0);
  CHECK(rm.over(Time{0}));  // no round yet: time to begin one
  CHECK_THROWS_AS(rm.current_round(), std::logic_error);
  rm.begin_round(ms(7));
  CHECK(rm.started());
  CHECK(rm.current_round() == 0);
  CHECK(rm.current_start() == ms(7));
  CHECK(rm.current_end() == ms(107));
  CHECK_FALSE(rm.over(ms(107) - Time{1}));
  CHECK(rm.over(ms(107)));
  CHECK(rm.fits_current(ms(102)));  // the guard: 107 - 5
  CHECK_FALSE(rm.fits_current(ms(102) + Time{1}));
  CHECK(rm.slack(ms(40)) == ms(67));
  CHECK(rm.slack(ms(110)) == ms(-3));
  rm.begin_round(ms(50));  // early: a reclaimed round
  CHECK(rm.current_round() == 1);
  CHECK(rm.rounds_begun() == 2);
  CHECK(rm.current_end() == ms(150));
  CHECK_THROWS_AS(rm.begin_round(ms(49)), std::invalid_argument);
  // The fixed-round interface does not see the clock.
  CHECK(rm.round_at(ms(150)) == 1);
  RoundManager unbounded(RoundManager::kUnbounded, Time{0});
  unbounded.begin_round(ms(1));
  CHECK(unbounded.current_end() == RoundManager::kUnbounded);
  CHECK_FALSE(unbounded.over(Time::max() - Time{1}));
  CHECK(unbounded.fits_current(Time::max() - Time{1}));
  CHECK_THROWS_AS(unbounded.slack(ms(1)), std::logic_error);
  CHECK(RoundManager::predicts(predictor()));
}

TEST_CASE("WRR-SCAN's slack and C-period plan: the rest of its sweep", "[wrr][rounds]") {
  // R = 100 ms, x_1 = 3, x_a = 1; the head at cylinder 50 at 2 ms. Task 1: #1 @60, #2 and #3
  // contiguous @70 (sectors 0, 1); aperiodic #4 @65, #5 @66 (the server's one block goes to #4).
  // Decision 1 at 2 ms serves #1 and the round then sweeps on: #4, then #2 + #3 in one access
  // (the 2 blocks left of x_1); #5 waits for the next round. Its slack: 102 ms less the predicted
  // finish of #1, #4, (#2 + #3) from the head at 50 at 2 ms.
  auto p = make_wrr_scan(wrr::Variant::C, true);
  p->configure(small_plan({{1, 3}}));
  const std::vector<Command> cs{job_block(1, 1, lbn_of(60)), job_block(2, 1, lbn_of(70)),
                                job_block(3, 1, lbn_of(70, 1)), job_block(4, 0, lbn_of(65)),
                                job_block(5, 0, lbn_of(66))};
  SchedulingContext ctx = at(50, ms(2));
  for (const Command& c : cs) p->enqueue(c, ctx);
  const auto* status = dynamic_cast<const RoundStatusSource*>(p.get());
  REQUIRE(status);
  const Command access_23 = job_block(2, 1, lbn_of(70), 2);  // #2 + #3 as one access

  // Advances the clock and the heads over `served` (as predicted), then takes the next decision,
  // which must serve `id`, and its status.
  Decision d;
  auto decide = [&](const Command* served, std::uint64_t id) {
    if (served) {
      const RoundManager::Step step = RoundManager::predict(predictor(), ctx.position, ctx.now, *served);
      ctx.now = step.finish;
      ctx.position = step.end;
    }
    d = p->next(ctx);
    REQUIRE(d.kind == Decision::Kind::Serve);
    REQUIRE(d.command.id == id);
    const std::optional<RoundStatus> st = status->round_status(ctx, d);
    REQUIRE(st);
    REQUIRE(st->has_slack);
    return *st;
  };

  RoundStatus s = decide(nullptr, 1);
  CHECK(s.round == 0);
  CHECK(s.pending_c == 2);  // #2, #3
  CHECK(s.slack == ms(102) - RoundManager::finish_of(ctx, &cs[0], {cs[3], access_23}));
  CHECK(s.slack > Time{0});
  REQUIRE(s.has_c_planned);
  CHECK(s.c_planned);  // the rest (#4, #2 + #3) holds periodic commands: the C-period goes on

  // Decision 2 at #1's predicted finish, the head at its end: #4; the rest is #2 + #3.
  s = decide(&cs[0], 4);
  CHECK(s.slack == ms(102) - RoundManager::finish_of(ctx, &cs[3], {access_23}));
  CHECK(s.c_planned);  // an aperiodic access inside the C-period: #2 + #3 still to come

  // Decision 3 serves #2 + #3 in one access and predicts it alone.
  s = decide(&cs[3], 2);
  REQUIRE(d.batch.size() == 1);
  CHECK(s.pending_c == 0);
  CHECK(s.slack == ms(102) - RoundManager::predict(predictor(), ctx.position, ctx.now, access_23).finish);
  CHECK_FALSE(s.c_planned);  // the round's last periodic access: D once it completes (#5 is next round's)

  // Round 2 begins at once (reclamation) for #5: its end is R after that decision.
  const Time round2 = ctx.now + ms(1);
  d = p->next(at(70, round2));
  REQUIRE(d.kind == Decision::Kind::Serve);
  CHECK(d.command.id == 5);
  s = *status->round_status(at(70, round2), d);
  CHECK(s.round == 1);
  CHECK(s.slack == round2 + ms(100) - RoundManager::predict(predictor(), at(70).position, round2, cs[4]).finish);
  CHECK(s.has_c_planned);
  CHECK_FALSE(s.c_planned);

  // Unconfigured (unbounded LOOK rounds): no slack.
  auto look = make_wrr_scan(wrr::Variant::C, true);
  look->enqueue(cs[0], at(50));
  const Decision l = look->next(at(50));
  const RoundStatus ls = *dynamic_cast<const RoundStatusSource&>(*look).round_status(at(50), l);
  CHECK_FALSE(ls.has_slack);
  CHECK(ls.has_c_planned);  // the plan needs no predictions: any predictor's sweep coordinates
  CHECK_FALSE(ls.c_planned);
}

// ---- the rate_tasks workload ---------------------------------------------------------------------

RateTasksOptions one_task(double release_ms, double period_ms, std::uint32_t blocks) {
  RateTasksOptions o;
  o.tasks = {RateTaskSpec{7, release_ms, period_ms, blocks}};
  o.aperiodic_mean_ms = 0;
  o.duration_s = 2.5;
  o.capacity_blocks = 1'000'000;
  return o;
}

std::vector<Command> all(RateTasksSource& s) {
  std::vector<Command> out;
  SourceRequest r;
  while (s.next(r)) out.push_back(r.command);
  return out;
}

TEST_CASE("rate_tasks: jobs S_i,k = S_i + (k-1) P_i with deadline S_i,k + P_i, b_i blocks each (004 §2)",
          "[wrr][workload]") {
  // S = 100 ms, P = 1000 ms, b = 3 blocks of 4096 B (8 sectors), 2.5 s: jobs at 100, 1100, 2100.
  RateTasksSource s(one_task(100, 1000, 3));
  const std::vector<Command> c = all(s);
  REQUIRE(c.size() == 9);
  const std::uint64_t start = c[0].lbn;
  for (std::size_t i = 0; i < 9; ++i) {
    const std::int64_t k = static_cast<std::int64_t>(i / 3);
    CHECK(c[i].arrival == ms(100 + 1000 * k));
    CHECK(c[i].deadline == ms(1100 + 1000 * k));
    CHECK(c[i].cls == RequestClass::RealTime);
    CHECK(c[i].stream == 7);
    CHECK(c[i].blocks == 8);
    CHECK(c[i].lbn == start + 8 * i);  // contiguous: job k continues job k-1's file
    CHECK(c[i].is_read());
  }
  CHECK(start % 8 == 0);
  // One command per job: 3 commands of 24 sectors.
  RateTasksOptions o = one_task(100, 1000, 3);
  o.per_block = false;
  RateTasksSource j(o);
  const std::vector<Command> jobs = all(j);
  REQUIRE(jobs.size() == 3);
  CHECK(jobs[1].blocks == 24);
  CHECK(jobs[1].lbn == jobs[0].lbn + 24);
}

TEST_CASE("rate_tasks: release-time alignment keeps the deadline (004 §3.3)", "[wrr][workload]") {
  // R = 400 ms: releases 100 -> 0, 1100 -> 800, 2100 -> 2000; deadlines 1100, 2100, 3100.
  RateTasksOptions o = one_task(100, 1000, 1);
  o.align_round_ms = 400;
  RateTasksSource s(o);
  const std::vector<Command> c = all(s);
  REQUIRE(c.size() == 3);
  CHECK(c[0].arrival == ms(0));
  CHECK(c[1].arrival == ms(800));
  CHECK(c[2].arrival == ms(2000));
  CHECK(c[2].deadline == ms(3100));
  CHECK(rate_job(o.tasks[0], 2, ms(1100)).release == ms(1100));  // on a boundary: unchanged
}

TEST_CASE("rate_tasks: aperiodic requests, random placement, determinism", "[wrr][workload]") {
  RateTasksOptions o = one_task(0, 500, 2);
  o.placement = TaskPlacement::Random;
  o.aperiodic_mean_ms = 35;
  o.seed = 5;
  RateTasksSource a(o), b(o);
  const std::vector<Command> ca = all(a), cb = all(b);
  REQUIRE(ca.size() == cb.size());
  std::size_t aperiodic = 0;
  for (std::size_t i = 0; i < ca.size(); ++i) {
    CHECK((ca[i].lbn == cb[i].lbn && ca[i].arrival == cb[i].arrival));
    if (i > 0) CHECK(ca[i].arrival >= ca[i - 1].arrival);
    CHECK(ca[i].lbn % 8 == 0);
    if (ca[i].cls == RequestClass::Aperiodic) {
      ++aperiodic;
      CHECK(ca[i].deadline == kNoDeadline);
      CHECK(ca[i].stream == 0);
    }
  }
  CHECK(ca.size() - aperiodic == 10);  // 5 jobs of 2 blocks
  CHECK(aperiodic > 40);               // mean 2500 / 35 = 71
  CHECK(aperiodic < 110);
}

TEST_CASE("rate_tasks: generated sets and task files", "[wrr][workload]") {
  RateTaskGeneration g;
  g.count = 50;
  const std::vector<RateTaskSpec> t = generate_rate_tasks(g);
  REQUIRE(t.size() == 50);
  CHECK(generate_rate_tasks(g)[17].period_ms == t[17].period_ms);
  for (const RateTaskSpec& s : t) {
    CHECK(s.release_ms < s.period_ms);
    CHECK(s.buffer_blocks >= 1);
  }
  // A per-process file in the system's temporary directory (TMPDIR), not a fixed machine path.
  const std::string path =
      (std::filesystem::temp_directory_path() / ("drivevp-wrr-tasks-" + std::to_string(::getpid()) + ".toml")).string();
  auto write = [&](const std::string& text) { std::ofstream(path) << text; };
  write(
      "[[task]]\nbuffer_bytes = 12288\nrate_bytes_per_s = 12288\nrelease_ms = 5\n[[task]]\nid = 9\n"
      "buffer_bytes = 4096\nperiod_ms = 250\n");
  const std::vector<RateTaskSpec> f = read_rate_tasks(path, 4096);
  REQUIRE(f.size() == 2);
  CHECK(f[0].period_ms == 1000);  // P = B / L
  CHECK(f[0].buffer_blocks == 3);
  CHECK(f[0].id == 1);
  CHECK(f[1].id == 9);
  auto error = [&](const std::string& text) {
    write(text);
    try {
      read_rate_tasks(path, 4096);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what()).substr(path.size());
    }
    return std::string("<no error>");
  };
  CHECK(error("[[task]]\nbuffer_bytes = 4000\nperiod_ms = 10\n") ==
        ":2:16: task.buffer_bytes: expected a multiple of C = 4096 B, found 4000");
  CHECK(error("[[task]]\nbuffer_bytes = 4096\nperiod_ms = 10\nrate_bytes_per_s = 5\n") ==
        ":1:1: task: expected exactly one of period_ms or rate_bytes_per_s, found both");
  CHECK(error("[[task]]\nbuffer_bytes = 4096\nperod_ms = 10\n") ==
        ":3:1: expected a task key (id, release_ms, period_ms, rate_bytes_per_s, buffer_bytes), found 'task.perod_ms'");
  CHECK(error("[[task]]\nbuffer_bytes = 4096\nperiod_ms = -1\n") ==
        ":3:13: task.period_ms: expected a number > 0, found -1");
  // The same list as CSV (004's task parameters as columns; header row required), and its errors.
  const std::string csv =
      (std::filesystem::temp_directory_path() / ("drivevp-wrr-tasks-" + std::to_string(::getpid()) + ".csv")).string();
  std::ofstream(csv) << "id,buffer_bytes,rate_bytes_per_s,period_ms,release_ms\n,12288,12288,,5\n9,4096,,250,\n";
  const std::vector<RateTaskSpec> from_csv = read_rate_tasks(csv, 4096);
  REQUIRE(from_csv.size() == 2);
  for (std::size_t i = 0; i < 2; ++i) {
    CHECK(from_csv[i].id == f[i].id);
    CHECK(from_csv[i].period_ms == f[i].period_ms);
    CHECK(from_csv[i].buffer_blocks == f[i].buffer_blocks);
    CHECK(from_csv[i].release_ms == f[i].release_ms);
  }
  auto csv_error = [&](const std::string& text) {
    std::ofstream(csv) << text;
    try {
      read_rate_tasks(csv, 4096);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what()).substr(csv.size());
    }
    return std::string("<no error>");
  };
  CHECK(csv_error("buffer_bytes,period_ms\n4096,ten\n") == ":2:6: task.period_ms: expected a number > 0, found 'ten'");
  CHECK(csv_error("buffer_bytes,period_ms\n4096,\n") ==
        ":2:1: task: expected exactly one of period_ms or rate_bytes_per_s, found neither");
  CHECK(csv_error("buffer_bytes,perod_ms\n4096,10\n") ==
        ":1:14: expected a header row of task columns (id, release_ms, period_ms, rate_bytes_per_s, buffer_bytes), "
        "found 'perod_ms'");
  std::filesystem::remove(csv);
}

}  // namespace
}  // namespace drivevp
