// Speed of paper 001's space-filling curves and irregularity (issue 11; docs/performance.md
// "Space-filling curves (paper 001)", docs/models/sfc.md). In process, no SystemC.
//
//   BM_SfcEncode/<curve>/<D>  encode 4,096 random points of [0, N)^D per iteration, N = 16 (Peano
//                             at N = 16 takes the compacted enclosing-27 path; peano27 is the
//                             plain base-3 curve at N = 27). Counter points_per_s = encoded
//                             points per second.
//   BM_SfcDecode/<curve>/<D>  the same for decode.
//   BM_Irregularity/<n>       irregularity_stats of a random 4-D sequence of n points (N = 16);
//                             points_per_s = n / time (four inversion counts of n values each).
//   BM_SfcDecision/<curve>/<n> the `sfc` policy (001 §3: conditional, SRP + ER, w = 50 %) with n
//                             requests of 4 x 16 random QoS levels queued: one iteration is a
//                             decision (next) and one arrival (enqueue), so the queue stays at n.
//                             Counter decisions_per_s.
// drivevp_bench's main() is in drivevp_bench.cpp; these register themselves.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <random>
#include <vector>

#include "firmware/policy.h"
#include "firmware/sfc/curves.h"
#include "firmware/sfc/irregularity.h"

namespace {

using namespace drivevp::sfc;

constexpr int kSfcReps = 3;
constexpr std::size_t kBatch = 4096;

std::vector<std::uint32_t> random_points(std::size_t n, unsigned dims, unsigned levels, unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<std::uint32_t> pts(n * dims);
  for (auto& v : pts) v = rng() % levels;
  return pts;
}

void BM_SfcEncode(benchmark::State& state, CurveKind kind, unsigned levels) {
  const auto dims = static_cast<unsigned>(state.range(0));
  const Curve curve(kind, dims, levels);
  const auto pts = random_points(kBatch, dims, curve.levels(), 1);
  for (auto _ : state) {
    Key acc = 0;
    for (std::size_t i = 0; i < kBatch; ++i) acc ^= curve.encode(&pts[i * dims]);
    benchmark::DoNotOptimize(acc);
  }
  state.counters["points_per_s"] =
      benchmark::Counter(static_cast<double>(state.iterations() * kBatch), benchmark::Counter::kIsRate);
}

void BM_SfcDecode(benchmark::State& state, CurveKind kind, unsigned levels) {
  const auto dims = static_cast<unsigned>(state.range(0));
  const Curve curve(kind, dims, levels);
  const auto pts = random_points(kBatch, dims, curve.levels(), 2);
  std::vector<Key> keys(kBatch);
  for (std::size_t i = 0; i < kBatch; ++i) keys[i] = curve.encode(&pts[i * dims]);
  std::vector<std::uint32_t> out(dims);
  for (auto _ : state) {
    for (std::size_t i = 0; i < kBatch; ++i) {
      curve.decode(keys[i], out.data());
      benchmark::DoNotOptimize(out.data());
    }
  }
  state.counters["points_per_s"] =
      benchmark::Counter(static_cast<double>(state.iterations() * kBatch), benchmark::Counter::kIsRate);
}

void BM_Irregularity(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const auto pts = random_points(n, 4, 16, 3);
  for (auto _ : state) benchmark::DoNotOptimize(irregularity_stats(pts, 4));
  state.counters["points_per_s"] =
      benchmark::Counter(static_cast<double>(state.iterations() * n), benchmark::Counter::kIsRate);
}

void BM_SfcDecision(benchmark::State& state, const char* curve, double curve_index) {
  (void)curve;
  const auto n = static_cast<std::uint64_t>(state.range(0));
  auto policy = drivevp::make_policy("sfc", {{"curve", curve_index}, {"qos_dims", 4}, {"levels", 16}});
  drivevp::SchedulingContext ctx;  // qos dimensions only: the predictor is not asked
  std::mt19937_64 rng(7);
  std::uint64_t id = 0;
  auto arrive = [&] {
    drivevp::Command c;
    c.id = id++;
    for (unsigned k = 0; k < 4; ++k) c.set_qos_level(k, static_cast<std::uint32_t>(rng() % 16));  // 4 of 16 levels
    policy->enqueue(c, ctx);
  };
  for (std::uint64_t i = 0; i < n; ++i) arrive();
  for (auto _ : state) {
    benchmark::DoNotOptimize(policy->next(ctx));
    arrive();
  }
  state.counters["decisions_per_s"] =
      benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK_CAPTURE(BM_SfcDecision, hilbert, "hilbert", 3)
    ->Arg(10'000)
    ->Repetitions(kSfcReps)
    ->ReportAggregatesOnly(true);
BENCHMARK_CAPTURE(BM_SfcDecision, diagonal, "diagonal", 6)
    ->Arg(10'000)
    ->Repetitions(kSfcReps)
    ->ReportAggregatesOnly(true);
BENCHMARK_CAPTURE(BM_SfcDecision, sweep, "sweep", 0)
    ->Arg(100)
    ->Arg(10'000)
    ->Repetitions(kSfcReps)
    ->ReportAggregatesOnly(true);

#define DRIVEVP_SFC_BENCH(fn, name, kind, levels) \
  BENCHMARK_CAPTURE(fn, name, kind, levels)->Arg(4)->Arg(12)->Repetitions(kSfcReps)->ReportAggregatesOnly(true)
DRIVEVP_SFC_BENCH(BM_SfcEncode, sweep, CurveKind::Sweep, 16);
DRIVEVP_SFC_BENCH(BM_SfcEncode, cscan, CurveKind::CScan, 16);
DRIVEVP_SFC_BENCH(BM_SfcEncode, peano, CurveKind::Peano, 16);
DRIVEVP_SFC_BENCH(BM_SfcEncode, peano27, CurveKind::Peano, 27);
DRIVEVP_SFC_BENCH(BM_SfcEncode, hilbert, CurveKind::Hilbert, 16);
DRIVEVP_SFC_BENCH(BM_SfcEncode, gray, CurveKind::Gray, 16);
DRIVEVP_SFC_BENCH(BM_SfcEncode, spiral, CurveKind::Spiral, 16);
DRIVEVP_SFC_BENCH(BM_SfcEncode, diagonal, CurveKind::Diagonal, 16);
DRIVEVP_SFC_BENCH(BM_SfcDecode, sweep, CurveKind::Sweep, 16);
DRIVEVP_SFC_BENCH(BM_SfcDecode, cscan, CurveKind::CScan, 16);
DRIVEVP_SFC_BENCH(BM_SfcDecode, peano, CurveKind::Peano, 16);
DRIVEVP_SFC_BENCH(BM_SfcDecode, peano27, CurveKind::Peano, 27);
DRIVEVP_SFC_BENCH(BM_SfcDecode, hilbert, CurveKind::Hilbert, 16);
DRIVEVP_SFC_BENCH(BM_SfcDecode, gray, CurveKind::Gray, 16);
DRIVEVP_SFC_BENCH(BM_SfcDecode, spiral, CurveKind::Spiral, 16);
DRIVEVP_SFC_BENCH(BM_SfcDecode, diagonal, CurveKind::Diagonal, 16);
BENCHMARK(BM_Irregularity)
    ->Arg(10'000)
    ->Arg(1'000'000)
    ->Repetitions(kSfcReps)
    ->ReportAggregatesOnly(true)
    ->Unit(benchmark::kMillisecond);

}  // namespace
