// SectorQueue: the pending commands of the Linux-style policies (noop, deadline, anticipatory,
// CFQ, BFQ), kept at once in sector (LBN) order, in FIFO (enqueue) order and by end block, so
// that "the next request after the last one dispatched", "the oldest request" and "the queued
// requests contiguous with this one" (merging) are each O(log n). Plain C++, no SystemC.
//
// Order: sector order is by LBN, then enqueue sequence (so FIFO among requests on the same LBN);
// the FIFO is enqueue order. "Sector" here means the 512 B block of Command::lbn: the kernel's
// elevators sort by the start sector of a request, which on a device whose blocks are 512 B is
// the same number.
//
// Merging (take_chain): the kernel merges a new request into a queued one of the same direction
// when it starts where the queued one ends (back merge) or, where the elevator allows it, ends
// where the queued one starts (front merge), and the device then sees one larger request. The
// firmware's controller has no "one command for several" path, but it has a batch decision
// (Decision::serve_batch): several commands served in one media access and completed together,
// which on the disk are transferred one after another with no command overhead in between. A
// merged request is therefore modelled as a batch of the contiguous queued commands in LBN
// order. What this does not model: a merged request's single transfer (the disk driver programs
// each member's seek and transfer), the kernel's request-size limit (max_sectors_kb; a chain
// here is bounded only by what is queued), and the moment of merging (the kernel merges at
// arrival; here the chain is gathered when one of its members is dispatched, over what is
// queued then).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <utility>
#include <vector>

#include "firmware/policy.h"
#include "tlm_bus/command.h"

namespace drivevp {

class SectorQueue {
 public:
  /// A request's place: its LBN and its enqueue sequence number (unique per queue).
  using Key = std::pair<std::uint64_t, std::uint64_t>;
  struct Entry {
    Command command;
    Time queued{0};  ///< ctx.now at enqueue
  };
  using Map = std::map<Key, Entry>;
  using iterator = Map::iterator;

  /// Queues `c` at time `now`; returns its key.
  Key insert(const Command& c, Time now) {
    const Key k{c.lbn, seq_++};
    sorted_.emplace(k, Entry{c, now});
    fifo_.emplace(k.second, k);
    by_end_.emplace(std::make_pair(c.end_lbn(), k.second), k);
    return k;
  }
  bool empty() const { return sorted_.empty(); }
  std::size_t size() const { return sorted_.size(); }
  iterator end() { return sorted_.end(); }
  iterator find(const Key& k) { return sorted_.find(k); }

  /// The lowest request in sector order, or end().
  iterator lowest() { return sorted_.begin(); }
  /// The first request after `k` in sector order (k need not be queued), or end().
  iterator after(const Key& k) { return sorted_.upper_bound(k); }
  /// The first request starting at or after block `lbn`, or end().
  iterator at_or_after(std::uint64_t lbn) { return sorted_.lower_bound(Key{lbn, 0}); }
  /// The oldest request (FIFO head), or end().
  iterator oldest() { return fifo_.empty() ? sorted_.end() : sorted_.find(fifo_.begin()->second); }

  /// Removes the request at `it` (precondition: it != end()) and returns it.
  Command take(iterator it) {
    const Command c = it->second.command;
    const Key k = it->first;
    fifo_.erase(k.second);
    by_end_.erase(std::make_pair(c.end_lbn(), k.second));
    sorted_.erase(it);
    return c;
  }

  /// Removes the request at `it` and every queued request of the same op contiguous with it:
  /// repeatedly one starting where the chain ends (back merge) and, with `front`, one ending
  /// where the chain starts (front merge); the earliest queued first where several qualify.
  /// Returns them in LBN order (the request at `it` among them) and, in `last`, the key of the
  /// highest one.
  std::vector<Command> take_chain(iterator it, bool front, Key* last = nullptr) {
    const Op op = it->second.command.op;
    Key last_key = it->first;
    std::vector<Command> chain{take(it)};
    std::vector<Command> before;
    for (;;) {  // back merges
      const std::uint64_t e = chain.back().end_lbn();
      auto next = sorted_.lower_bound(Key{e, 0});
      while (next != sorted_.end() && next->first.first == e && next->second.command.op != op) ++next;
      if (next == sorted_.end() || next->first.first != e) break;
      last_key = next->first;
      chain.push_back(take(next));
    }
    for (std::uint64_t s = chain.front().lbn; front;) {  // front merges
      auto prev = by_end_.lower_bound(std::make_pair(s, std::uint64_t{0}));
      while (prev != by_end_.end() && prev->first.first == s && sorted_.at(prev->second).command.op != op) ++prev;
      if (prev == by_end_.end() || prev->first.first != s) break;
      before.push_back(take(sorted_.find(prev->second)));
      s = before.back().lbn;
    }
    if (last) *last = last_key;
    std::vector<Command> out(before.rbegin(), before.rend());
    out.insert(out.end(), chain.begin(), chain.end());
    return out;
  }

 private:
  Map sorted_;
  std::map<std::uint64_t, Key> fifo_;                              ///< seq -> key
  std::map<std::pair<std::uint64_t, std::uint64_t>, Key> by_end_;  ///< (end_lbn, seq) -> key
  std::uint64_t seq_ = 0;
};

/// The Serve decision for a merge chain (LBN order): the first command, the rest as its batch.
inline Decision serve_chain(std::vector<Command> chain) {
  const Command first = chain.front();
  chain.erase(chain.begin());
  return Decision::serve_batch(first, std::move(chain));
}

}  // namespace drivevp
