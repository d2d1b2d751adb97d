// Paper 000's Parallel Deadline Scheduling (Algorithm 1): the queues (parallel_deadline.h) and the
// policy `parallel_deadline`.
#include "firmware/policies/parallel_deadline.h"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>

#include "firmware/policies/policies.h"

namespace drivevp {
namespace pdl {

namespace {

/// Below this many entries a sort task sorts with std::sort instead of splitting further.
constexpr std::size_t kMinTaskSort = 4096;
/// At most this many unsorted entries are inserted one by one into a sorted queue (the policy's
/// case: a few arrivals between decisions); more are sorted and merged.
constexpr std::size_t kMaxInsert = 32;
/// Shifts of fewer entries are one memmove even in parallel mode: 65,536 entries (1 MiB, about
/// 50 us to move) against a fork/join of 5-50 us on the project's shared 2-core machine.
constexpr std::size_t kMinParallelShift = 65536;
/// Chunks of the searches: at least this many entries (the square root of the queue size above
/// 4096 entries: O(sqrt n) bound tests plus one O(sqrt n) scan per search).
constexpr std::size_t kMinChunk = 64;
/// Chunks per dynamic hand-out in the parallel searches.
constexpr int kChunksPerGrab = 4;

/// Sorts [first, last) with OpenMP tasks to `depth` levels of splitting (then std::sort), merging
/// the halves with std::inplace_merge. Called inside a parallel region's single construct (or with
/// depth 0 anywhere). The orders used are total, so the result equals std::sort's.
template <class E, class Less>
void task_sort(E* first, E* last, const Less& less, int depth) {
  const auto n = static_cast<std::size_t>(last - first);
  if (depth <= 0 || n < kMinTaskSort) {
    std::sort(first, last, less);
    return;
  }
  E* mid = first + n / 2;
#pragma omp task default(none) firstprivate(first, mid, depth) shared(less)
  task_sort(first, mid, less, depth - 1);
  task_sort(mid, last, less, depth - 1);
#pragma omp taskwait
  std::inplace_merge(first, mid, last, less);
}

/// Sorts the tail [sorted, n) of `base` and merges it into the sorted prefix.
template <class E, class Less>
void sort_tail(E* base, std::size_t sorted, std::size_t n, const Less& less, int depth) {
  if (sorted > 0 && n - sorted <= kMaxInsert) {
    for (std::size_t j = sorted; j < n; ++j) {  // insertion into the sorted prefix
      const E x = base[j];
      E* pos = std::upper_bound(base, base + j, x, less);
      std::memmove(static_cast<void*>(pos + 1), static_cast<const void*>(pos),
                   static_cast<std::size_t>(base + j - pos) * sizeof(E));
      *pos = x;
    }
    return;
  }
  task_sort(base + sorted, base + n, less, depth);
  if (sorted > 0) std::inplace_merge(base, base + sorted, base + n, less);
}

/// Task-splitting depth so that each of the two queues' sorts gets about threads / 2 threads.
int sort_depth(int threads) {
  int d = 0;
  while ((2 << d) < threads) ++d;
  return d;
}

}  // namespace

bool about_to_expire(Time deadline, Time now, Time quantum) {
  if (deadline == kNoDeadline) return false;
  if (deadline <= now) return true;
  // deadline > now: the difference is exact in uint64 whatever the signs.
  const auto left = static_cast<std::uint64_t>(deadline.count()) - static_cast<std::uint64_t>(now.count());
  return quantum.count() >= 0 && left <= static_cast<std::uint64_t>(quantum.count());
}

// ---- ParallelDeadlineQueue ---------------------------------------------------------------------

ParallelDeadlineQueue::ParallelDeadlineQueue(DeadlineOptions options) : options_(options) {
  if (options_.time_quantum < Time{0}) throw std::invalid_argument("parallel deadline: time_quantum must be >= 0");
  if (options_.threads < 0) throw std::invalid_argument("parallel deadline: threads must be >= 0");
}

bool ParallelDeadlineQueue::less1(const ByDeadline& a, const ByDeadline& b) const {
  if (a.deadline != b.deadline) return a.deadline < b.deadline;
  const Slot& x = slots_[a.slot];
  const Slot& y = slots_[b.slot];
  return std::tie(x.command.lbn, x.command.id, x.seq) < std::tie(y.command.lbn, y.command.id, y.seq);
}

bool ParallelDeadlineQueue::less2(const BySector& a, const BySector& b) const {
  if (a.sector != b.sector) return a.sector < b.sector;
  const Slot& x = slots_[a.slot];
  const Slot& y = slots_[b.slot];
  return std::tie(x.command.id, x.seq) < std::tie(y.command.id, y.seq);
}

int ParallelDeadlineQueue::threads() const { return options_.threads > 0 ? options_.threads : omp_get_max_threads(); }

void ParallelDeadlineQueue::add(const Command& command) {
  std::uint32_t slot;
  if (!free_.empty()) {
    slot = free_.back();
    free_.pop_back();
    slots_[slot] = Slot{command, seq_++};
  } else {
    if (slots_.size() >= std::numeric_limits<std::uint32_t>::max())
      throw std::length_error("parallel deadline: more than 2^32 - 1 queued requests");
    slot = static_cast<std::uint32_t>(slots_.size());
    slots_.push_back(Slot{command, seq_++});
  }
  q1_.push_back(ByDeadline{command.deadline.count(), slot});
  q2_.push_back(BySector{command.lbn, slot});
}

void ParallelDeadlineQueue::clear() {
  slots_.clear();
  free_.clear();
  q1_.clear();
  q2_.clear();
  head1_ = head2_ = sorted_ = 0;
}

void ParallelDeadlineQueue::reserve(std::size_t n) {
  slots_.reserve(n);
  free_.reserve(n);
  q1_.reserve(n);
  q2_.reserve(n);
}

void ParallelDeadlineQueue::sort() {
  sort_tails(parallel_at(size()) || size() - sorted_ >= options_.sort_parallel_threshold);
}

void ParallelDeadlineQueue::sort_tails(bool parallel) {
  const std::size_t n = size();
  if (sorted_ == n) return;
  // Entries removed from the front since the last sort go now (one O(n) move per sort).
  if (head1_ > 0) q1_.erase(q1_.begin(), q1_.begin() + static_cast<std::ptrdiff_t>(head1_));
  if (head2_ > 0) q2_.erase(q2_.begin(), q2_.begin() + static_cast<std::ptrdiff_t>(head2_));
  head1_ = head2_ = 0;
  const auto l1 = [this](const ByDeadline& a, const ByDeadline& b) { return less1(a, b); };
  const auto l2 = [this](const BySector& a, const BySector& b) { return less2(a, b); };
  ByDeadline* b1 = q1_.data();
  BySector* b2 = q2_.data();
  const std::size_t s = sorted_;
  if (parallel) {
    // Algorithm 1 step 2: "in parallel: parallel sort QUEUE1 ..., parallel sort QUEUE2".
    const int t = threads();
    const int depth = sort_depth(t);
#pragma omp parallel num_threads(t) default(none) shared(b1, b2, l1, l2, s, n, depth)
#pragma omp single
    {
#pragma omp task default(none) shared(b1, l1, s, n, depth)
      sort_tail(b1, s, n, l1, depth);
#pragma omp task default(none) shared(b2, l2, s, n, depth)
      sort_tail(b2, s, n, l2, depth);
#pragma omp taskwait
    }
  } else {
    sort_tail(b1, s, n, l1, 0);
    sort_tail(b2, s, n, l2, 0);
  }
  sorted_ = n;
}

std::size_t ParallelDeadlineQueue::chunk_size(std::size_t n) const {
  const auto root = static_cast<std::size_t>(std::sqrt(static_cast<double>(n)));
  return std::max(kMinChunk, root);
}

namespace {

/// Index of the entry of `slot` in the sorted run base[0, n) ordered by `less` (`key` is that
/// entry), searched over chunks of `c_size` entries; a chunk is scanned only if its first entry is
/// not after `key` and its last not before it (paper 000: "SearchAndRemove ... dividing entire
/// queue in smaller chunks", chunks handed to `threads` threads dynamically when `parallel`).
/// Throws std::logic_error naming `queue` if the slot is missing.
template <class Entry, class Less>
std::size_t find_in_chunks(const Entry* base, std::size_t n, const Entry& key, std::uint32_t slot, Less less,
                           std::size_t c_size, bool parallel, int threads, const char* queue) {
  const auto chunks = static_cast<std::int64_t>((n + c_size - 1) / c_size);
  const auto search = [&](std::int64_t c) -> std::size_t {
    const std::size_t a = static_cast<std::size_t>(c) * c_size;
    const std::size_t b = std::min(n, a + c_size);
    if (less(key, base[a]) || less(base[b - 1], key)) return SIZE_MAX;
    for (std::size_t j = a; j < b; ++j)
      if (base[j].slot == slot) return j;
    return SIZE_MAX;
  };
  std::size_t found = SIZE_MAX;
  if (parallel) {
#pragma omp parallel for schedule(dynamic, kChunksPerGrab) num_threads(threads) reduction(min : found)
    for (std::int64_t c = 0; c < chunks; ++c) found = std::min(found, search(c));
  } else {
    for (std::int64_t c = 0; c < chunks && found == SIZE_MAX; ++c) found = search(c);
  }
  if (found == SIZE_MAX) throw std::logic_error(std::string("parallel deadline: request missing from ") + queue);
  return found;
}

}  // namespace

std::size_t ParallelDeadlineQueue::find1(std::uint32_t slot, bool parallel) {
  const ByDeadline key{slots_[slot].command.deadline.count(), slot};
  const std::size_t n = q1_.size() - head1_;
  const auto less = [this](const ByDeadline& a, const ByDeadline& b) { return less1(a, b); };
  return head1_ + find_in_chunks(q1_.data() + head1_, n, key, slot, less, chunk_size(n), parallel,
                                 parallel ? threads() : 1, "QUEUE1");
}

std::size_t ParallelDeadlineQueue::find2(std::uint32_t slot, bool parallel) {
  const BySector key{slots_[slot].command.lbn, slot};
  const std::size_t n = q2_.size() - head2_;
  const auto less = [this](const BySector& a, const BySector& b) { return less2(a, b); };
  return head2_ + find_in_chunks(q2_.data() + head2_, n, key, slot, less, chunk_size(n), parallel,
                                 parallel ? threads() : 1, "QUEUE2");
}

std::size_t ParallelDeadlineQueue::nearest2(std::uint64_t p, bool parallel) {
  const BySector* base = q2_.data() + head2_;
  const std::size_t n = q2_.size() - head2_;
  const std::size_t c_size = chunk_size(n);
  const auto chunks = static_cast<std::int64_t>((n + c_size - 1) / c_size);
  // The chunk's first entry at its smallest distance to p (QUEUE2 is sorted by sector, id, order).
  const auto search = [&](std::int64_t c, std::uint64_t& dist, std::size_t& index) {
    const std::size_t a = static_cast<std::size_t>(c) * c_size;
    const std::size_t b = std::min(n, a + c_size);
    const std::uint64_t last = base[b - 1].sector;
    if (last <= p) {  // the whole chunk at or below p: its last sector, first entry of it
      std::size_t j = b - 1;
      while (j > a && base[j - 1].sector == last) --j;
      dist = p - last;
      index = j;
    } else if (base[a].sector >= p) {  // the whole chunk at or above p
      dist = base[a].sector - p;
      index = a;
    } else {  // p inside the chunk: linear search
      dist = UINT64_MAX;
      index = a;
      for (std::size_t j = a; j < b; ++j) {
        const std::uint64_t s = base[j].sector;
        const std::uint64_t d = s >= p ? s - p : p - s;
        if (d < dist) {
          dist = d;
          index = j;
        }
      }
    }
  };
  std::uint64_t best_dist = UINT64_MAX;
  std::size_t best = SIZE_MAX;
  if (parallel) {
    chunk_dist_.resize(static_cast<std::size_t>(chunks));
    chunk_index_.resize(static_cast<std::size_t>(chunks));
    std::uint64_t* dists = chunk_dist_.data();
    std::size_t* indices = chunk_index_.data();
#pragma omp parallel for schedule(dynamic, kChunksPerGrab) num_threads(threads())
    for (std::int64_t c = 0; c < chunks; ++c) search(c, dists[c], indices[c]);
    // Deterministic combination: the smallest (distance, index).
    for (std::int64_t c = 0; c < chunks; ++c)
      if (std::tie(dists[c], indices[c]) < std::tie(best_dist, best)) {
        best_dist = dists[c];
        best = indices[c];
      }
  } else {
    for (std::int64_t c = 0; c < chunks; ++c) {
      std::uint64_t d;
      std::size_t i;
      search(c, d, i);
      if (d < best_dist) {  // chunks in index order: the first smallest distance wins
        best_dist = d;
        best = i;
      }
    }
  }
  return head2_ + best;
}

template <class E>
void ParallelDeadlineQueue::shift(E* first, std::size_t n, bool right, bool parallel) {
  static_assert(std::is_trivially_copyable_v<E>);
  if (n == 0) return;
  if (!parallel || n < kMinParallelShift) {
    if (right)
      std::memmove(static_cast<void*>(first + 1), static_cast<const void*>(first), n * sizeof(E));
    else
      std::memmove(static_cast<void*>(first - 1), static_cast<const void*>(first), n * sizeof(E));
    return;
  }
  // In parallel chunks, one region: each chunk keeps its entry that crosses into the neighbouring
  // chunk, then shifts inside itself (reading and writing only its own entries); after the region
  // the kept entries are written across the chunk borders.
  const int t = threads();
  const std::size_t c_size = std::max<std::size_t>(kMinParallelShift / 4, n / (4 * static_cast<std::size_t>(t)));
  const auto chunks = static_cast<std::int64_t>((n + c_size - 1) / c_size);
  std::vector<E>* carry_vec;
  if constexpr (std::is_same_v<E, ByDeadline>)
    carry_vec = &carry1_;
  else
    carry_vec = &carry2_;
  carry_vec->resize(static_cast<std::size_t>(chunks));
  E* carry = carry_vec->data();
#pragma omp parallel for schedule(dynamic, 1) num_threads(t)
  for (std::int64_t c = 0; c < chunks; ++c) {
    const std::size_t a = static_cast<std::size_t>(c) * c_size, b = std::min(n, a + c_size);
    if (right) {
      carry[c] = first[b - 1];
      std::memmove(static_cast<void*>(first + a + 1), static_cast<const void*>(first + a), (b - a - 1) * sizeof(E));
    } else {
      carry[c] = first[a];
      std::memmove(static_cast<void*>(first + a), static_cast<const void*>(first + a + 1), (b - a - 1) * sizeof(E));
    }
  }
  for (std::int64_t c = 0; c < chunks; ++c) {
    const std::size_t a = static_cast<std::size_t>(c) * c_size, b = std::min(n, a + c_size);
    if (right)
      first[b] = carry[c];
    else
      *(first + a - 1) = carry[c];
  }
}

template <class E>
void ParallelDeadlineQueue::erase(std::vector<E>& v, std::size_t& head, std::size_t i, bool parallel) {
  // Shifts the shorter side: the entries before i one to the right (and the head moves on), or
  // the entries after i one to the left.
  const std::size_t before = i - head, after = v.size() - 1 - i;
  if (before < after) {
    shift(v.data() + head, before, true, parallel);
    ++head;
  } else {
    shift(v.data() + i + 1, after, false, parallel);
    v.pop_back();
  }
}

std::optional<Command> ParallelDeadlineQueue::next(Time now) {
  if (sorted_ != size()) sort();
  if (empty()) return std::nullopt;
  const bool parallel = parallel_at(size());
  const ByDeadline first = q1_[head1_];  // step 3.1: NEXT = first entry of QUEUE1
  std::uint32_t slot;
  if (about_to_expire(Time{first.deadline}, now, options_.time_quantum)) {
    slot = first.slot;  // 3.2: serve NEXT; remove QUEUE1's first entry; search it in QUEUE2, remove
    erase(q2_, head2_, find2(slot, parallel), parallel);
    ++head1_;
  } else {  // 3.3: NEXT = nearest sector in QUEUE2; search it in QUEUE1, remove it from both
    const std::size_t i2 = nearest2(previous_, parallel);
    slot = q2_[i2].slot;
    erase(q1_, head1_, find1(slot, parallel), parallel);
    erase(q2_, head2_, i2, parallel);
  }
  --sorted_;
  const Command c = slots_[slot].command;
  free_.push_back(slot);
  previous_ = c.lbn;
  if (empty()) {  // reuse the arrays from their start
    q1_.clear();
    q2_.clear();
    head1_ = head2_ = 0;
  }
  return c;
}

void ParallelDeadlineQueue::drain(Time start, Time service, std::vector<Command>& out) {
  sort();
  for (std::int64_t k = 0; !empty(); ++k) out.push_back(*next(start + service * k));
}

// ---- IndexedDeadlineQueue ----------------------------------------------------------------------

bool IndexedDeadlineQueue::Key1::operator<(const Key1& o) const {
  return std::tie(deadline, lbn, id, seq) < std::tie(o.deadline, o.lbn, o.id, o.seq);
}
bool IndexedDeadlineQueue::Key2::operator<(const Key2& o) const {
  return std::tie(lbn, id, seq) < std::tie(o.lbn, o.id, o.seq);
}

IndexedDeadlineQueue::IndexedDeadlineQueue(DeadlineOptions options) : options_(options) {
  if (options_.time_quantum < Time{0}) throw std::invalid_argument("parallel deadline: time_quantum must be >= 0");
}

void IndexedDeadlineQueue::add(const Command& command) {
  std::uint32_t slot;
  if (!free_.empty()) {
    slot = free_.back();
    free_.pop_back();
    slots_[slot] = command;
  } else {
    if (slots_.size() >= std::numeric_limits<std::uint32_t>::max())
      throw std::length_error("parallel deadline: more than 2^32 - 1 queued requests");
    slot = static_cast<std::uint32_t>(slots_.size());
    slots_.push_back(command);
  }
  const std::uint64_t seq = seq_++;
  by_deadline_.insert(Key1{command.deadline.count(), command.lbn, command.id, seq, slot});
  by_sector_.insert(Key2{command.lbn, command.id, seq, slot});
}

void IndexedDeadlineQueue::clear() {
  slots_.clear();
  free_.clear();
  by_deadline_.clear();
  by_sector_.clear();
}

std::optional<Command> IndexedDeadlineQueue::next(Time now) {
  if (by_deadline_.empty()) return std::nullopt;
  const auto first = by_deadline_.begin();
  std::uint32_t slot;
  if (about_to_expire(Time{first->deadline}, now, options_.time_quantum)) {
    slot = first->slot;
    by_sector_.erase(Key2{first->lbn, first->id, first->seq, slot});
    by_deadline_.erase(first);
  } else {
    // The nearest sector: the first entry at or above p, or the first entry of the highest sector
    // below p; at equal distance the lower sector.
    const std::uint64_t p = previous_;
    auto pick = by_sector_.lower_bound(Key2{p, 0, 0, 0});
    if (pick != by_sector_.begin()) {
      const std::uint64_t below = std::prev(pick)->lbn;
      if (pick == by_sector_.end() || p - below <= pick->lbn - p) pick = by_sector_.lower_bound(Key2{below, 0, 0, 0});
    }
    slot = pick->slot;
    const Command& c = slots_[slot];
    by_deadline_.erase(Key1{c.deadline.count(), c.lbn, c.id, pick->seq, slot});
    by_sector_.erase(pick);
  }
  const Command c = slots_[slot];
  free_.push_back(slot);
  previous_ = c.lbn;
  return c;
}

void IndexedDeadlineQueue::drain(Time start, Time service, std::vector<Command>& out) {
  for (std::int64_t k = 0; !empty(); ++k) out.push_back(*next(start + service * k));
}

}  // namespace pdl

// ---- the policy --------------------------------------------------------------------------------

namespace {

class ParallelDeadline final : public SchedulingPolicy {
 public:
  explicit ParallelDeadline(pdl::DeadlineOptions options) : queue_(options) {}
  std::string_view name() const override { return "Parallel Deadline"; }
  void enqueue(const Command& c, const SchedulingContext&) override { queue_.add(c); }
  Decision next(const SchedulingContext& ctx) override {
    const std::optional<Command> c = queue_.next(ctx.now);
    return c ? Decision::serve(*c) : Decision::idle();
  }
  std::size_t pending() const override { return queue_.size(); }

 private:
  pdl::ParallelDeadlineQueue queue_;
};

}  // namespace

PolicyInfo describe_parallel_deadline() {
  PolicyInfo info{
      "parallel_deadline",
      "Parallel Deadline",
      "paper 000's Parallel Deadline Scheduling (Algorithm 1): the earliest deadline if it expires within "
      "the time quantum, else the nearest LBN to the last served; OpenMP above a queue size",
      {PolicyParameter::number("time_quantum_ms", pdl::kDefaultTimeQuantumMs, 0, 1e6, "ms",
                               "a request whose deadline is at most this far ahead is served first (paper 000 "
                               "Algorithm 1 step 3.2: at least one request's service time; default: one random 4 KB "
                               "access on the HP 97560, 24.2 ms, rounded up)"),
       PolicyParameter::integer("parallel_threshold", static_cast<double>(pdl::kDefaultParallelThreshold), 0, 1e9,
                                "requests",
                                "queue size from which the sort and searches run as OpenMP parallel regions (0: "
                                "always); default: the crossover measured on the project's 2-core machine "
                                "(docs/performance.md)"),
       PolicyParameter::integer("sort_parallel_threshold", static_cast<double>(pdl::kDefaultSortParallelThreshold), 0,
                                1e9, "requests",
                                "unsorted requests (arrivals since the last decision) from which Algorithm 1 step 2 "
                                "sorts both queues in parallel; default: the crossover measured on the project's "
                                "2-core machine (docs/performance.md)"),
       PolicyParameter::integer("threads", 0, 0, 1024, "threads",
                                "OpenMP threads of a parallel region; 0: OpenMP's default (OMP_NUM_THREADS)")},
      [](const PolicyParams& params, std::string_view) -> std::unique_ptr<SchedulingPolicy> {
        pdl::DeadlineOptions o;
        o.time_quantum = from_ms(params.at("time_quantum_ms"));
        o.parallel_threshold = static_cast<std::size_t>(params.at("parallel_threshold"));
        o.sort_parallel_threshold = static_cast<std::size_t>(params.at("sort_parallel_threshold"));
        o.threads = static_cast<int>(params.at("threads"));
        return std::make_unique<ParallelDeadline>(o);
      }};
  return info;
}

}  // namespace drivevp
