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
/// Removed entries are squeezed out of the arrays once they are at least this many and at least
/// an eighth of the array (ParallelDeadlineQueue::compact).
constexpr std::size_t kMinCompact = 64;
constexpr std::size_t kCompactFraction = 8;
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
  const Slot& x = slots_[a.slot & ~kRemoved];
  const Slot& y = slots_[b.slot & ~kRemoved];
  return std::tie(x.command.lbn, x.command.id, x.seq) < std::tie(y.command.lbn, y.command.id, y.seq);
}

bool ParallelDeadlineQueue::less2(const BySector& a, const BySector& b) const {
  if (a.sector != b.sector) return a.sector < b.sector;
  const Slot& x = slots_[a.slot & ~kRemoved];
  const Slot& y = slots_[b.slot & ~kRemoved];
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
    if (slots_.size() >= kRemoved) throw std::length_error("parallel deadline: more than 2^31 - 1 queued requests");
    slot = static_cast<std::uint32_t>(slots_.size());
    slots_.push_back(Slot{command, seq_++});
  }
  pending_.push_back(slot);  // QUEUE1's and QUEUE2's entries are made by the next sort
}

void ParallelDeadlineQueue::clear() {
  slots_.clear();
  free_.clear();
  q1_.clear();
  q2_.clear();
  pending_.clear();
  head1_ = removed_ = 0;
}

void ParallelDeadlineQueue::reserve(std::size_t n) {
  slots_.reserve(n);
  free_.reserve(n);
  q1_.reserve(n);
  q2_.reserve(n);
  pending_.reserve(n);
}

void ParallelDeadlineQueue::sort() {
  sort_tails(parallel_at(size()) || pending_.size() >= options_.sort_parallel_threshold);
}

void ParallelDeadlineQueue::sort_tails(bool parallel) {
  if (pending_.empty()) return;
  // A merge (more than a few arrivals) passes over the whole array anyway: removed entries go
  // first. A few arrivals are inserted among them (they keep their keys, so the order holds).
  if (removed_ > 0 && pending_.size() > kMaxInsert) compact();
  const std::size_t s = q1_.size();
  // Each queue's task appends its entries of the arrivals (step 1's copy) and sorts them in.
  const auto queue1 = [this, s](int depth) {
    for (const std::uint32_t slot : pending_) q1_.push_back(ByDeadline{slots_[slot].command.deadline.count(), slot});
    sort_tail(
        q1_.data(), s, q1_.size(), [this](const ByDeadline& a, const ByDeadline& b) { return less1(a, b); }, depth);
  };
  const auto queue2 = [this, s](int depth) {
    for (const std::uint32_t slot : pending_) q2_.push_back(BySector{slots_[slot].command.lbn, slot});
    sort_tail(
        q2_.data(), s, q2_.size(), [this](const BySector& a, const BySector& b) { return less2(a, b); }, depth);
  };
  if (parallel) {
    // Algorithm 1 step 2: "in parallel: parallel sort QUEUE1 ..., parallel sort QUEUE2".
    const int t = threads();
    const int depth = sort_depth(t);
#pragma omp parallel num_threads(t) default(none) shared(queue1, queue2, depth)
#pragma omp single
    {
#pragma omp task default(none) shared(queue1, depth)
      queue1(depth);
#pragma omp task default(none) shared(queue2, depth)
      queue2(depth);
#pragma omp taskwait
    }
  } else {
    queue1(0);
    queue2(0);
  }
  pending_.clear();
  // An arrival may have been inserted among the removed entries before QUEUE1's first entry.
  head1_ = 0;
  while (head1_ < q1_.size() && (q1_[head1_].slot & kRemoved) != 0) ++head1_;
}

void ParallelDeadlineQueue::compact() {
  const auto removed1 = [](const ByDeadline& e) { return (e.slot & kRemoved) != 0; };
  const auto removed2 = [](const BySector& e) { return (e.slot & kRemoved) != 0; };
  // The removed requests' slots are free now (not before: removed entries' keys are still
  // compared, and their tie-breaks read the slot).
  for (const ByDeadline& e : q1_)
    if (removed1(e)) free_.push_back(e.slot & ~kRemoved);
  q1_.erase(std::remove_if(q1_.begin(), q1_.end(), removed1), q1_.end());
  q2_.erase(std::remove_if(q2_.begin(), q2_.end(), removed2), q2_.end());
  removed_ = 0;
  head1_ = 0;
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
  const std::size_t n = q1_.size() - head1_;  // QUEUE1's removed prefix is not searched
  const auto less = [this](const ByDeadline& a, const ByDeadline& b) { return less1(a, b); };
  return head1_ + find_in_chunks(q1_.data() + head1_, n, key, slot, less, chunk_size(n), parallel,
                                 parallel ? threads() : 1, "QUEUE1");
}

std::size_t ParallelDeadlineQueue::find2(std::uint32_t slot, bool parallel) {
  const BySector key{slots_[slot].command.lbn, slot};
  const std::size_t n = q2_.size();
  const auto less = [this](const BySector& a, const BySector& b) { return less2(a, b); };
  return find_in_chunks(q2_.data(), n, key, slot, less, chunk_size(n), parallel, parallel ? threads() : 1, "QUEUE2");
}

std::size_t ParallelDeadlineQueue::nearest2(std::uint64_t p, bool parallel) {
  const BySector* base = q2_.data();
  const std::size_t n = q2_.size();
  const std::size_t c_size = chunk_size(n);
  const auto chunks = static_cast<std::int64_t>((n + c_size - 1) / c_size);
  const auto live = [base](std::size_t j) { return (base[j].slot & kRemoved) == 0; };
  // The chunk's first entry not removed at its smallest distance to p (QUEUE2 is sorted by sector,
  // id, order); distance UINT64_MAX when every entry of the chunk is removed.
  const auto search = [&](std::int64_t c, std::uint64_t& dist, std::size_t& index) {
    const std::size_t a = static_cast<std::size_t>(c) * c_size;
    const std::size_t b = std::min(n, a + c_size);
    dist = UINT64_MAX;
    index = SIZE_MAX;
    if (base[b - 1].sector <= p) {  // the whole chunk at or below p: its last sector's first entry
      std::size_t j = b;
      while (j > a && !live(j - 1)) --j;
      if (j == a) return;
      const std::uint64_t last = base[--j].sector;
      for (std::size_t k = j; k > a && base[k - 1].sector == last;)
        if (live(--k)) j = k;
      dist = p - last;
      index = j;
    } else if (base[a].sector >= p) {  // the whole chunk at or above p: its first entry
      std::size_t j = a;
      while (j < b && !live(j)) ++j;
      if (j == b) return;
      dist = base[j].sector - p;
      index = j;
    } else {  // p inside the chunk: linear search
      for (std::size_t j = a; j < b; ++j) {
        if (!live(j)) continue;
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
  if (best == SIZE_MAX) throw std::logic_error("parallel deadline: QUEUE2 holds no request");
  return best;
}

void ParallelDeadlineQueue::remove1(std::size_t i) {
  q1_[i].slot |= kRemoved;
  while (head1_ < q1_.size() && (q1_[head1_].slot & kRemoved) != 0) ++head1_;
}

void ParallelDeadlineQueue::remove2(std::size_t i) { q2_[i].slot |= kRemoved; }

std::optional<Command> ParallelDeadlineQueue::next(Time now) {
  if (!pending_.empty()) sort();
  if (empty()) return std::nullopt;
  const bool parallel = parallel_at(size());
  const ByDeadline first = q1_[head1_];  // step 3.1: NEXT = first entry of QUEUE1
  std::uint32_t slot;
  if (about_to_expire(Time{first.deadline}, now, options_.time_quantum)) {
    slot = first.slot;  // 3.2: serve NEXT; remove QUEUE1's first entry; search it in QUEUE2, remove
    remove2(find2(slot, parallel));
    remove1(head1_);
  } else {  // 3.3: NEXT = nearest sector in QUEUE2; search it in QUEUE1, remove it from both
    const std::size_t i2 = nearest2(previous_, parallel);
    slot = q2_[i2].slot;
    remove1(find1(slot, parallel));
    remove2(i2);
  }
  ++removed_;
  const Command c = slots_[slot].command;
  previous_ = c.lbn;
  if (empty()) {  // reuse the arrays from their start
    q1_.clear();
    q2_.clear();
    head1_ = removed_ = 0;
    free_.clear();
    slots_.clear();
  } else if (removed_ >= kMinCompact && removed_ * kCompactFraction >= q1_.size()) {
    compact();
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
