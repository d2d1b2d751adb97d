// Decision cost of the paper-002 MEMS policies at deep queues (issue 8 "Speed";
// docs/performance.md "MEMS scheduling decisions"). In-process: no simulation, no SystemC
// elaboration. A queue of N requests (N = 1,000 and 10,000) uniformly over the G1 grid (2,000 X
// positions x 22 Y rows, 100 regions, 10 regions per access: 640 active tips / 64 tips per
// block), each decision timed with the real G1 positioning model (hw_models/mems/mems_seek.h:
// exact spring seek, settle, turnarounds, 002 eq. 1) as its cost function; after every decision
// the served requests are replaced by as many new ones, so the depth stays N. Counters:
// decisions_per_s, and distinct positions per decision (what the cost grows with).
#include <benchmark/benchmark.h>

#include <cstdint>
#include <memory>
#include <random>
#include <string>

#include "firmware/policies/mems/queue.h"
#include "hw_models/mems/mems_seek.h"

namespace {

using namespace drivevp;

void BM_MemsDecision(benchmark::State& state, const char* policy) {
  const auto depth = static_cast<std::size_t>(state.range(0));
  const mems::MemsParams params = mems::mems_g1();
  const mems::MemsSeek seek(params);
  const mems::MemsLayout& layout = seek.layout();
  mems_sched::Geometry g;
  g.x_positions = layout.cylinders();
  g.y_positions = layout.rows_per_column();
  g.max_regions_per_access = 10;
  auto queue = mems_sched::make_queue(policy, g);
  std::mt19937_64 rng(20021);
  std::uniform_int_distribution<std::uint32_t> ux(0, g.x_positions - 1), uy(0, g.y_positions - 1), ur(0, 99);
  std::uint64_t next_id = 0;
  Time now{0};
  auto add = [&] {
    mems_sched::Request r;
    r.id = next_id++;
    r.arrival = now;
    r.x = ux(rng);
    r.y = uy(rng);
    r.region = ur(rng);
    queue->enqueue(r);
    now += Time{1'000'000};  // 1 us apart
  };
  for (std::size_t i = 0; i < depth; ++i) add();
  mems::SledState sled;
  std::uint64_t positions = 0, decisions = 0;
  for (auto _ : state) {
    const auto positioning = [&](std::uint32_t x, std::uint32_t y) {
      ++positions;
      return seek.position(sled, layout.x_nm(x), layout.up_pass(y)).total();
    };
    const mems_sched::Batch b = queue->choose(now, positioning, {0, 0});
    benchmark::DoNotOptimize(b.positioning);
    ++decisions;
    state.PauseTiming();
    for (std::size_t i = 0; i < b.requests.size(); ++i) add();
    state.ResumeTiming();
  }
  state.counters["decisions_per_s"] = benchmark::Counter(static_cast<double>(decisions), benchmark::Counter::kIsRate);
  state.counters["positions_per_decision"] = static_cast<double>(positions) / static_cast<double>(decisions);
}

BENCHMARK_CAPTURE(BM_MemsDecision, PSPTF, "psptf")->Arg(1000)->Arg(10000)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_MemsDecision, PASPTF, "pasptf")->Arg(1000)->Arg(10000)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_MemsDecision, SPTF, "sptf")->Arg(1000)->Arg(10000)->Unit(benchmark::kMicrosecond);

}  // namespace
