// Running time of paper 000's Parallel Deadline Scheduling (firmware/policies/parallel_deadline.h)
// as in 000's Table 1 and Figs. 2-5 (issue 9; docs/performance.md "Parallel deadline scheduling").
// In-process, no SystemC. OpenMP threads: OMP_NUM_THREADS (the parallel version's regions use
// omp_get_max_threads() threads; counter `threads`).
//
// The input (fixed seed 2000, the same for every version): n requests with LBNs uniform over the
// HP 97560's 2,684,016 blocks, ids 0..n-1, deadlines uniform in whole ms over [0, n * 12 ms] (so
// requests expire all through a drain). Decision k is made at now = k * 12 ms (12 ms per served
// request), the time quantum is 25 ms (the policy's default), the previous sector starts at 0.
//
// Versions (second argument): 0 serial (parallel_threshold = SIZE_MAX: no OpenMP region),
// 1 parallel (parallel_threshold = 0: every sort and search in OpenMP regions),
// 2 indexed (IndexedDeadlineQueue: std::set by deadline and by sector).
//
//  * BM_DeadlineDrain/n/version: the whole of Algorithm 1 as the paper times it: step 1 (copy the
//    n requests into QUEUE1 and QUEUE2), step 2 (sort both), step 3 until both queues are empty
//    (n decisions), the served commands written to a preallocated vector. Nothing else.
//  * BM_DeadlineSortDecide/n/version: steps 1 and 2 and the first 100 decisions of step 3 (queues
//    of 10^4 to 10^6, where a full drain is O(n^2)).
//  * BM_DeadlineSteady/n/version: the policy's steady state at depth n, to find the parallel
//    threshold: per iteration one request is added and one decision made (the queue stays at n).
#include <benchmark/benchmark.h>
#include <omp.h>

#include <cstdint>
#include <random>
#include <type_traits>
#include <vector>

#include "firmware/policies/parallel_deadline.h"

namespace {

using namespace drivevp;
using pdl::DeadlineOptions;

constexpr std::uint64_t kBlocks = 1962ull * 19 * 72;  // HP 97560
constexpr std::int64_t kServiceMs = 12;
constexpr std::size_t kDecisions = 100;

Time ms(std::int64_t v) { return Time{v * 1'000'000'000}; }

std::vector<Command> requests(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<std::uint64_t> lbn(0, kBlocks - 1);
  std::uniform_int_distribution<std::int64_t> dl(0, static_cast<std::int64_t>(n) * kServiceMs);
  std::vector<Command> v(n);
  for (std::size_t i = 0; i < n; ++i) {
    v[i].id = i;
    v[i].lbn = lbn(rng);
    v[i].deadline = ms(dl(rng));
  }
  return v;
}

DeadlineOptions options(std::int64_t version) {
  DeadlineOptions o;  // quantum 25 ms, threads from OpenMP
  if (version == 0) o.parallel_threshold = o.sort_parallel_threshold = SIZE_MAX;
  if (version == 1) o.parallel_threshold = 0;
  // version 3: the defaults (parallel regions only where they pay off: the sort from
  // kDefaultSortParallelThreshold, searches from kDefaultParallelThreshold)
  return o;
}

void label(benchmark::State& state, std::int64_t version) {
  static const char* const names[] = {"serial", "parallel", "indexed", "tuned"};
  state.SetLabel(names[version]);
  state.counters["threads"] = version == 1 || version == 3 ? omp_get_max_threads() : 1;
}

template <class Queue>
void drain_all(Queue& q, const std::vector<Command>& in, std::vector<Command>& out) {
  out.clear();
  q.clear();
  q.set_previous_sector(0);
  for (const Command& c : in) q.add(c);   // step 1
  q.drain(Time{0}, ms(kServiceMs), out);  // steps 2 and 3
}

void BM_DeadlineDrain(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const std::int64_t version = state.range(1);
  const std::vector<Command> in = requests(n, 2000);
  std::vector<Command> out;
  out.reserve(n);
  pdl::ParallelDeadlineQueue array(options(version));
  array.reserve(n);
  pdl::IndexedDeadlineQueue indexed(options(version));
  for (auto _ : state) {
    if (version == 2)
      drain_all(indexed, in, out);
    else
      drain_all(array, in, out);
    benchmark::DoNotOptimize(out.data());
  }
  label(state, version);
}

void BM_DeadlineSortDecide(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const std::int64_t version = state.range(1);
  const std::vector<Command> in = requests(n, 2000);
  pdl::ParallelDeadlineQueue array(options(version));
  array.reserve(n);
  pdl::IndexedDeadlineQueue indexed(options(version));
  std::uint64_t sum = 0;
  const auto run = [&](auto& q) {
    q.clear();
    q.set_previous_sector(0);
    for (const Command& c : in) q.add(c);                                                           // step 1
    if constexpr (std::is_same_v<std::decay_t<decltype(q)>, pdl::ParallelDeadlineQueue>) q.sort();  // step 2
    for (std::size_t k = 0; k < kDecisions; ++k) sum += q.next(ms(kServiceMs) * static_cast<std::int64_t>(k))->id;
  };
  for (auto _ : state) {
    if (version == 2)
      run(indexed);
    else
      run(array);
  }
  benchmark::DoNotOptimize(sum);
  label(state, version);
}

void BM_DeadlineSteady(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const std::int64_t version = state.range(1);
  const std::vector<Command> in = requests(n, 2000);
  const std::vector<Command> more = requests(1 << 16, 2001);
  pdl::ParallelDeadlineQueue array(options(version));
  pdl::IndexedDeadlineQueue indexed(options(version));
  for (const Command& c : in) {
    array.add(c);
    indexed.add(c);
  }
  array.sort();
  std::size_t i = 0;
  std::int64_t k = 0;
  std::uint64_t sum = 0;
  for (auto _ : state) {
    Command c = more[i++ & 0xffff];
    c.id = n + static_cast<std::uint64_t>(k);
    c.deadline += ms(kServiceMs) * k;  // deadlines stay ahead of the clock as in a drain
    const Time now = ms(kServiceMs) * k++;
    if (version == 2) {
      indexed.add(c);
      sum += indexed.next(now)->id;
    } else {
      array.add(c);
      sum += array.next(now)->id;
    }
  }
  benchmark::DoNotOptimize(sum);
  label(state, version);
}

void drain_args(benchmark::internal::Benchmark* b) {
  for (std::int64_t n : {100, 500, 1000, 1500, 2000, 5000, 10000})
    for (std::int64_t v : {0, 1, 2}) b->Args({n, v});
}
void large_args(benchmark::internal::Benchmark* b) {
  for (std::int64_t n : {10000, 100000, 1000000})
    for (std::int64_t v : {0, 1, 2, 3}) b->Args({n, v});
}
void steady_args(benchmark::internal::Benchmark* b) {
  for (std::int64_t n : {4096, 16384, 65536, 262144, 1048576})
    for (std::int64_t v : {0, 1}) b->Args({n, v});
}

BENCHMARK(BM_DeadlineDrain)->Apply(drain_args)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_DeadlineSortDecide)->Apply(large_args)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_DeadlineSteady)->Apply(steady_args)->Unit(benchmark::kMicrosecond);

}  // namespace
