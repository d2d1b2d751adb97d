// CylinderQueue: the pending commands of a seek-ordered policy (SSTF, SCAN, LOOK, C-SCAN, C-LOOK),
// sorted by cylinder, so that "the nearest request at or beyond cylinder c" is an O(log n) query
// even with tens of thousands of requests queued (open-loop overload). Plain C++, no SystemC.
//
// Order: by cylinder, then by command id (ids are assigned in submission order, so this is FIFO
// among requests on the same cylinder), then by enqueue sequence (only matters if a caller
// reuses an id). "First request on cylinder k" below always means the earliest of that cylinder.
//
// What it does not do: it does not compute cylinders (the policy maps the LBN once, at enqueue,
// through Predictor::sweep_coordinate: the disk's cylinder, the MEMS sled's X) and it does not avoid allocation:
// std::map allocates one node per queued command.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <map>
#include <tuple>

#include "firmware/policy.h"
#include "tlm_bus/command.h"

namespace drivevp {

class CylinderQueue {
 public:
  struct Key {
    std::uint32_t cylinder = 0;
    std::uint64_t id = 0;
    std::uint64_t seq = 0;
    bool operator<(const Key& o) const { return std::tie(cylinder, id, seq) < std::tie(o.cylinder, o.id, o.seq); }
  };
  using Map = std::map<Key, Command>;
  using iterator = Map::iterator;

  /// Queues `command`, which lives on `cylinder`.
  void insert(const Command& command, std::uint32_t cylinder) {
    map_.emplace(Key{cylinder, command.id, seq_++}, command);
  }
  bool empty() const { return map_.empty(); }
  std::size_t size() const { return map_.size(); }
  iterator end() { return map_.end(); }

  /// The first request on the lowest pending cylinder, or end() when empty.
  iterator lowest() { return map_.begin(); }

  /// The first request on the lowest pending cylinder >= `c`, or end() if none.
  iterator at_or_above(std::uint32_t c) { return map_.lower_bound(Key{c, 0, 0}); }

  /// The first request on the highest pending cylinder <= `c`, or end() if none.
  iterator at_or_below(std::uint32_t c) {
    auto it = map_.upper_bound(Key{c, kMaxU64, kMaxU64});
    if (it == map_.begin()) return map_.end();
    --it;
    return map_.lower_bound(Key{it->first.cylinder, 0, 0});
  }

  /// The first request on the pending cylinder nearest to `c` (smallest |cylinder - c|); between
  /// two cylinders at the same distance, the one whose first request has the earlier id.
  /// end() when empty.
  iterator nearest(std::uint32_t c) {
    const iterator above = at_or_above(c);
    const iterator below = c > 0 ? at_or_below(c - 1) : map_.end();
    if (above == map_.end()) return below;
    if (below == map_.end()) return above;
    const std::uint32_t up = above->first.cylinder - c;
    const std::uint32_t down = c - below->first.cylinder;
    if (up != down) return up < down ? above : below;
    return std::tie(below->first.id, below->first.seq) < std::tie(above->first.id, above->first.seq) ? below : above;
  }

  /// The cylinder of the request at `it` (precondition: it != end()).
  static std::uint32_t cylinder(iterator it) { return it->first.cylinder; }

  /// Removes the request at `it` (precondition: it != end()) and returns it.
  Command take(iterator it) {
    const Command c = it->second;
    map_.erase(it);
    return c;
  }

 private:
  static constexpr std::uint64_t kMaxU64 = std::numeric_limits<std::uint64_t>::max();
  Map map_;
  std::uint64_t seq_ = 0;
};

}  // namespace drivevp
