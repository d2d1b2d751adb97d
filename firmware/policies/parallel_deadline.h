// Paper 000's Parallel Deadline Scheduling (P. Patel et al., "Parallel Deadline Scheduling
// Algorithm", Algorithm 1 and its text, paper lines 240-300) as two reusable queues: the paper's
// array-based algorithm with OpenMP (ParallelDeadlineQueue) and an indexed alternative with
// balanced trees (IndexedDeadlineQueue) that gives the identical service order. The policy
// `parallel_deadline` (parallel_deadline.cpp) and the benchmark bench/deadline_bench.cpp use them.
// Plain C++ and OpenMP, no SystemC.
//
// The algorithm (Algorithm 1; "sector" is the command's first LBN, "previous sector" the LBN of
// the last request served, 0 before the first):
//   1. the requests are copied into QUEUE1 and QUEUE2                           (add)
//   2. in parallel: QUEUE1 is sorted by deadline, QUEUE2 by sector               (sort)
//   3. while the queues are not empty                                           (next, drain)
//      NEXT = first entry of QUEUE1;
//      if NEXT is about to expire: serve it, remove the first entry of QUEUE1, search NEXT in
//        QUEUE2 and remove it;
//      else: NEXT = the request in QUEUE2 whose sector is nearest to the previous sector; serve
//        it, search NEXT in QUEUE1 and remove it, remove it from QUEUE2.
//
// Rules the paper leaves open, fixed here (identically in every mode and in both classes):
//   * about to expire: deadline - now <= time_quantum (000 lines 289-291: the quantum is "equivalent
//     or greater than the time required to serve one disk request"); a request without a deadline
//     (kNoDeadline) never expires and sorts after every deadline.
//   * QUEUE1 order: deadline, then lower LBN, then lower command id, then enqueue order.
//   * nearest: smallest |LBN - previous|; at equal distance the lower LBN (the one below the
//     previous sector), then the lower command id, then enqueue order. This is QUEUE2's order, so
//     "nearest" is the first entry of QUEUE2 at the smallest distance.
//
// ParallelDeadlineQueue keeps both queues as sorted arrays, as the paper does. Its searches run
// over chunks of the array (000 lines 310-315: "dividing entire queue in smaller chunks of requests
// ... assigned to the cores available dynamically"): each chunk is first tested against its first
// and last entry (the queue is sorted, step 2) and scanned linearly only if it can hold the request
// sought; the per-chunk results are combined by the smallest (distance, index), so the result does
// not depend on the chunking or the thread count. Removal marks the entry removed in place (it
// keeps its key, so the arrays stay sorted and the chunk tests stay valid; searches skip it), and
// the removed entries are squeezed out together once they are an eighth of the array, or before
// a sort that merges more than a few arrivals: O(1) per removal plus an O(n) pass every n / 8
// removals, where moving half the array per removal made the decisions, not the sort, the cost
// that does not divide between threads. When the queue holds at least `parallel_threshold`
// requests, the chunk searches run as `omp parallel for schedule(dynamic)`; step 2's sort runs as
// two OpenMP tasks (one per queue, each a task-parallel merge sort when more than two threads are
// available) at that size or from `sort_parallel_threshold` unsorted entries; below them the same
// code runs serially. Serial and parallel give the same order.
//
// What it does not do: no request merging, no read/write batches, no anticipation (Linux's
// deadline elevator does those; paper 000 does not); a served request's own service time is not
// known here (the caller says what `now` is at each decision).
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <set>
#include <vector>

#include "tlm_bus/command.h"

namespace drivevp::pdl {

/// Default time quantum: one random 4 KB access on the HP 97560 (the project's shared
/// reference/parameters.md: controller overhead 2.2 ms + mean seek 12.84 ms + half a revolution 7.50 ms +
/// 8 of 72 sectors 1.67 ms = 24.2 ms), rounded up to 25 ms, since paper 000 (lines 289-291) asks
/// for a quantum "equivalent or greater than the time required to serve one disk request".
inline constexpr double kDefaultTimeQuantumMs = 25.0;

/// Default queue size from which ParallelDeadlineQueue runs OpenMP parallel regions: 2^20, the
/// crossover measured on the project's 2-core machine, shared with other builds (bench/
/// deadline_bench.cpp BM_DeadlineSteady, docs/performance.md "Parallel deadline scheduling": one
/// arrival and one decision at a steady depth; 2 threads faster than serial from about 10^6 queued
/// requests with OMP_WAIT_POLICY=passive, at no depth up to 10^6 with OpenMP's default wait).
/// Below it the regions' fork/join costs more than the chunks they share out.
inline constexpr std::size_t kDefaultParallelThreshold = std::size_t{1} << 20;
/// Default DeadlineOptions::sort_parallel_threshold: step 2 sorts at least this many unsorted
/// entries per queue in parallel. A parallel region costs about 100 us here (a sleeping thread's
/// wake-up, OMP_WAIT_POLICY=passive), sorting 16,384 entries twice about 2 ms: the crossover
/// measured on the project's 2-core machine is between 4,096 and 16,384 (docs/performance.md).
inline constexpr std::size_t kDefaultSortParallelThreshold = std::size_t{1} << 14;

/// Options of both queues.
struct DeadlineOptions {
  /// A request whose deadline is at most this far after `now` is "about to expire" (Algorithm 1
  /// step 3.2). >= 0.
  Time time_quantum = from_ms(kDefaultTimeQuantumMs);
  /// Parallel regions run when the queue holds at least this many requests; 0 = always,
  /// SIZE_MAX = never (the serial algorithm). ParallelDeadlineQueue only.
  std::size_t parallel_threshold = kDefaultParallelThreshold;
  /// Step 2 sorts the unsorted entries (all of them on the first sort, the arrivals since the
  /// last sort later) in parallel when there are at least this many, or when the queue is at or
  /// above parallel_threshold; SIZE_MAX = only then. ParallelDeadlineQueue only.
  std::size_t sort_parallel_threshold = kDefaultSortParallelThreshold;
  /// OpenMP threads of a parallel region; 0 = OpenMP's default (OMP_NUM_THREADS, else the cores).
  /// ParallelDeadlineQueue only.
  int threads = 0;
};

/// Whether a request with `deadline` is about to expire at `now` under `quantum`: deadline - now
/// <= quantum; never for kNoDeadline. (Computed without overflow for any deadline.)
bool about_to_expire(Time deadline, Time now, Time quantum);

/// Paper 000's Algorithm 1 on two sorted arrays, serial below and OpenMP-parallel at or above
/// DeadlineOptions::parallel_threshold queued requests.
class ParallelDeadlineQueue {
 public:
  explicit ParallelDeadlineQueue(DeadlineOptions options = {});

  /// Step 1: copies `command`; its QUEUE1 and QUEUE2 entries are made by the next sort() or
  /// next(), each queue's in that queue's sort task. Amortized O(1); command ids need not be
  /// unique (enqueue order breaks ties). Throws std::length_error beyond 2^31 - 1 requests.
  void add(const Command& command);
  /// Step 2: sorts both queues (in parallel at or above the threshold). Entries added since the
  /// last sort are sorted and merged in; next() calls it when needed.
  void sort();
  /// One pass of step 3 at time `now`: the request served next, removed from both queues;
  /// nullopt when empty. Updates the previous sector to its LBN.
  std::optional<Command> next(Time now);
  /// Steps 2 and 3 until empty: appends the service order to `out`; the k-th decision (from 0) is
  /// made at `start + k * service` (a fixed service time per request; Time{0}: all at `start`).
  void drain(Time start, Time service, std::vector<Command>& out);

  std::size_t size() const { return q1_.size() + pending_.size() - removed_; }
  bool empty() const { return size() == 0; }
  /// LBN of the last request served (0 before the first, or what set_previous_sector() set).
  std::uint64_t previous_sector() const { return previous_; }
  void set_previous_sector(std::uint64_t lbn) { previous_ = lbn; }
  /// Drops every queued request (keeps the capacity, the options and the previous sector).
  void clear();
  /// Reserves room for `n` requests (no allocation in add() until then).
  void reserve(std::size_t n);
  const DeadlineOptions& options() const { return options_; }
  /// Whether a queue of `n` requests runs parallel regions.
  bool parallel_at(std::size_t n) const { return n >= options_.parallel_threshold; }

  /// QUEUE1's entry: the deadline (ps) and the request's slot.
  struct ByDeadline {
    std::int64_t deadline;
    std::uint32_t slot;
  };
  /// QUEUE2's entry: the sector (LBN) and the request's slot.
  struct BySector {
    std::uint64_t sector;
    std::uint32_t slot;
  };

 private:
  struct Slot {
    Command command;
    std::uint64_t seq;  ///< enqueue order (ties)
  };
  bool less1(const ByDeadline& a, const ByDeadline& b) const;
  bool less2(const BySector& a, const BySector& b) const;
  int threads() const;
  void sort_tails(bool parallel);
  std::size_t chunk_size(std::size_t n) const;
  std::size_t find1(std::uint32_t slot, bool parallel);
  std::size_t find2(std::uint32_t slot, bool parallel);
  std::size_t nearest2(std::uint64_t sector, bool parallel);
  void remove1(std::size_t i);
  void remove2(std::size_t i);
  void compact();
  /// Marks a removed entry (slot | kRemoved); removed entries keep their keys.
  static constexpr std::uint32_t kRemoved = std::uint32_t{1} << 31;

  DeadlineOptions options_;
  std::vector<Slot> slots_;
  std::vector<std::uint32_t> free_;
  std::vector<ByDeadline> q1_;          ///< QUEUE1, sorted; entries before head1_ removed
  std::vector<BySector> q2_;            ///< QUEUE2, sorted
  std::vector<std::uint32_t> pending_;  ///< slots added since the last sort (in neither queue yet)
  std::size_t head1_ = 0;               ///< QUEUE1's first entry not removed (when any)
  std::size_t removed_ = 0;             ///< entries marked removed, in each queue
  std::uint64_t seq_ = 0;
  std::uint64_t previous_ = 0;
  // Per-chunk scratch of the parallel searches (kept to avoid allocation per decision).
  std::vector<std::uint64_t> chunk_dist_;
  std::vector<std::size_t> chunk_index_;
};

/// The same algorithm and order with balanced trees (std::set keyed by QUEUE1's and QUEUE2's
/// orders): O(log n) per add and per decision, no linear search, no parallel regions. Allocates
/// one tree node per request per queue.
class IndexedDeadlineQueue {
 public:
  explicit IndexedDeadlineQueue(DeadlineOptions options = {});
  void add(const Command& command);
  std::optional<Command> next(Time now);
  void drain(Time start, Time service, std::vector<Command>& out);
  std::size_t size() const { return by_deadline_.size(); }
  bool empty() const { return by_deadline_.empty(); }
  std::uint64_t previous_sector() const { return previous_; }
  void set_previous_sector(std::uint64_t lbn) { previous_ = lbn; }
  void clear();

 private:
  struct Key1 {
    std::int64_t deadline;
    std::uint64_t lbn, id, seq;
    std::uint32_t slot;
    bool operator<(const Key1& o) const;
  };
  struct Key2 {
    std::uint64_t lbn, id, seq;
    std::uint32_t slot;
    bool operator<(const Key2& o) const;
  };
  DeadlineOptions options_;
  std::vector<Command> slots_;
  std::vector<std::uint32_t> free_;
  std::set<Key1> by_deadline_;
  std::set<Key2> by_sector_;
  std::uint64_t seq_ = 0;
  std::uint64_t previous_ = 0;
};

}  // namespace drivevp::pdl
