// The cores of the MEMS scheduling policies of paper 002 (FCFS, SSTF, SPTF, P-SPTF, PA-SPTF,
// ZSPTF, ZSCAN-PSPTF, ZPSPTF), as plain C++ over a small interface of their own, before the
// firmware's policy interface becomes device-neutral (issue 8). No SystemC include.
//
// A MEMS-based storage device reads many regions at once: the sled stops at one relative (x, y)
// position and every active tip reads its own region there (002 §2.1, §3.1). A queue here
// therefore hands out a Batch: one (x, y) and the queued requests at that (x, y) in different
// regions, up to the number of regions one access can read. docs/models/mems-policies.md states
// every policy's rule, its equation and section, the zones, the tie-breaking and the cost.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "firmware/flat_map.h"
#include "tlm_bus/command.h"

namespace drivevp::mems_sched {

/// Exact integer type of the priority arithmetic (sums of arrival times, products with
/// positioning times). GCC/Clang extension.
__extension__ using Int128 = __int128;

/// One queued request as the scheduler sees it: where its first block lies on the media.
/// (x, y) is the relative position inside a region, shared by every region; `region` says which
/// region (the group of tips a block is striped over, 002 §4: 64 tips) holds it.
struct Request {
  std::uint64_t id = 0;      ///< unique among queued requests
  Time arrival{0};           ///< time the host submitted it (ps)
  std::uint32_t x = 0;       ///< X index (cylinder), < Geometry::x_positions
  std::uint32_t y = 0;       ///< Y index (row along Y), < Geometry::y_positions
  std::uint32_t region = 0;  ///< region (tip group) index; any value
  Op op = Op::Read;
};

/// Positioning time (ps, >= 0) from the current sled state to position (x, y): eq. (1) of 002,
/// max(seek_x + settle, seek_y), as the firmware's predictor computes it. Supplied by the caller
/// at every decision; queues call it at most once per distinct queued position per decision.
using Positioning = std::function<Time(std::uint32_t x, std::uint32_t y)>;

/// The sled's current position as (x, y) indices: used only by SSTF (distances) and by the zone
/// policies to find the zone their sweep starts from.
struct SledPosition {
  std::uint32_t x = 0;
  std::uint32_t y = 0;
};

/// A decision: the position to move to and the requests served together there.
struct Batch {
  std::uint32_t x = 0;
  std::uint32_t y = 0;
  /// positioning(x, y) at the decision (ps) when the policy computed it (the SPTF family); -1 when
  /// empty or when the policy chose without it (FCFS, SSTF: no positioning call is made).
  Time positioning{-1};
  std::vector<Request> requests;  ///< oldest first (arrival, then id), distinct regions
  bool empty() const { return requests.empty(); }
};

/// The media grid the queue schedules over and how many regions one access reads.
struct Geometry {
  std::uint32_t x_positions = 1;  ///< X indices 0 .. x_positions-1 (G1 2000 cylinders), >= 1
  std::uint32_t y_positions = 1;  ///< Y indices 0 .. y_positions-1 (G1 22 rows), >= 1
  /// Regions one access can read at once (active tips / tips per region; G1 640 / 64 = 10), >= 1.
  /// 1 gives a scheduler that serves one request per access.
  std::uint32_t max_regions_per_access = 1;
  /// Zones per region along X and Y for the zone policies (002 §4: 25 x 3; 25 along X because Y
  /// has only 22 rows on G1). 1 <= zones_x <= x_positions, 1 <= zones_y <= y_positions.
  std::uint32_t zones_x = 25;
  std::uint32_t zones_y = 3;
};

/// The queued requests indexed by position, with the per-position count N(x, y) and the sum of
/// arrival times maintained incrementally (O(1) expected per add and remove), and per zone the
/// list of occupied positions and the request count. Zone z of (x, y) is
/// zx * zones_y + zy with zx = x * zones_x / x_positions, zy = y * zones_y / y_positions
/// (integer division: zones of equal size +-1 index).
class PositionIndex {
 public:
  struct Slot {
    std::uint32_t x = 0;
    std::uint32_t y = 0;
    std::uint32_t zone = 0;
    std::uint32_t index_in_zone = 0;
    Int128 arrival_sum = 0;          ///< sum of the arrival times (ps) of the requests here
    std::vector<std::uint64_t> ids;  ///< the requests here, unordered; N(x, y) = ids.size()
  };

  PositionIndex(const Geometry& g, std::uint32_t zones_x, std::uint32_t zones_y);

  /// Adds `r`. Throws std::invalid_argument when its id is already queued or (x, y) is outside
  /// the geometry.
  void add(const Request& r);
  /// Removes request `id`; returns it, or nullopt when it is not queued.
  std::optional<Request> remove(std::uint64_t id);

  std::size_t size() const { return entries_.size(); }
  std::uint32_t zone_count() const { return zones_x_ * zones_y_; }
  std::uint32_t zone_of(std::uint32_t x, std::uint32_t y) const;
  /// Requests queued in zone z.
  std::size_t zone_size(std::uint32_t z) const { return zone_requests_[z]; }
  /// Slot indices of the occupied positions of zone z (unordered).
  const std::vector<std::uint32_t>& zone_slots(std::uint32_t z) const { return zone_slots_[z]; }
  const Slot& slot(std::uint32_t s) const { return slots_[s]; }
  /// Slot index of (x, y), or nullopt when no request is queued there.
  std::optional<std::uint32_t> find(std::uint32_t x, std::uint32_t y) const;
  const Request& request(std::uint64_t id) const { return entries_.at(id).request; }
  /// The requests at slot `s` (oldest first: arrival, then id), one per region, at most `limit`.
  std::vector<Request> gather(std::uint32_t s, std::uint32_t limit) const;
  /// The same into `out` (cleared first; its capacity is reused).
  void gather(std::uint32_t s, std::uint32_t limit, std::vector<Request>& out) const;

 private:
  struct Entry {
    Request request;
    std::uint32_t slot = 0;
    std::uint32_t index_in_slot = 0;
  };
  static std::uint64_t key(std::uint32_t x, std::uint32_t y) { return (std::uint64_t{x} << 32) | y; }
  Geometry g_;
  std::uint32_t zones_x_;
  std::uint32_t zones_y_;
  FlatMap<Entry> entries_;          ///< by request id
  FlatMap<std::uint32_t> slot_of_;  ///< key(x, y) -> slot index
  std::vector<Slot> slots_;
  std::vector<std::uint32_t> free_slots_;
  std::vector<std::vector<std::uint32_t>> zone_slots_;
  std::vector<std::size_t> zone_requests_;
};

/// The queue of one policy. enqueue/remove are O(1) expected (FCFS: O(log n)); choose() is
/// O(P) positioning calls for P distinct queued positions (O(P/Z) inside a zone) plus
/// O(k log k) for the k requests at the chosen position.
class Queue {
 public:
  virtual ~Queue() = default;
  /// The policy's name as in 002 (e.g. "PA-SPTF").
  virtual std::string_view name() const = 0;

  /// Queues `r`. Throws std::invalid_argument for a duplicate id or (x, y) outside the geometry.
  void enqueue(const Request& r);
  /// Removes request `id` without serving it (e.g. an aborted command); false when not queued.
  bool remove(std::uint64_t id);
  /// Chooses the next position and removes and returns the requests served there (empty Batch
  /// when the queue is empty). `now` (ps) must not precede the arrival of any request enqueued so
  /// far (std::invalid_argument otherwise); `positioning` must return times in [0, 1 h]
  /// (std::invalid_argument otherwise).
  Batch choose(Time now, const Positioning& positioning, SledPosition sled);
  /// The same into `out` (its request vector's capacity is reused).
  void choose(Time now, const Positioning& positioning, SledPosition sled, Batch& out);

  std::size_t size() const { return index_.size(); }
  /// N(x, y): requests queued at (x, y) over all regions (maintained incrementally).
  std::size_t count_at(std::uint32_t x, std::uint32_t y) const;
  /// Sum over the requests queued at (x, y) of their arrival times (ps), maintained incrementally.
  Int128 arrival_sum_at(std::uint32_t x, std::uint32_t y) const;
  /// Σ W(x, y) of 002 eq. (3) at `now`: N(x, y) * now - arrival_sum_at(x, y) (ps).
  Int128 waiting_sum_at(std::uint32_t x, std::uint32_t y, Time now) const;
  const Geometry& geometry() const { return g_; }

 protected:
  /// `zones_x`/`zones_y` 1 for the policies without zones.
  Queue(const Geometry& g, std::uint32_t zones_x, std::uint32_t zones_y);
  /// The chosen slot and, when computed, its positioning time (else -1). Called with a
  /// non-empty queue.
  struct Pick {
    std::uint32_t slot = 0;
    Time positioning{-1};
  };
  virtual Pick pick(Time now, const Positioning& positioning, SledPosition sled) = 0;
  virtual void on_add(const Request&) {}
  virtual void on_remove(const Request&) {}

  Geometry g_;
  PositionIndex index_;

 private:
  Time latest_arrival_{0};
};

/// Positioning time at (x, y), validated to [0, 1 h]; throws std::invalid_argument otherwise.
Time checked_positioning(const Positioning& positioning, std::uint32_t x, std::uint32_t y);

/// Policy keys, in 002's order: "fcfs", "sstf", "sptf", "psptf", "pasptf", "zsptf",
/// "zscan_psptf", "zpsptf".
const std::vector<std::string>& queue_keys();
/// Builds the queue of policy `key` (see queue_keys()). Throws std::invalid_argument for an
/// unknown key or an invalid geometry (each bound named).
std::unique_ptr<Queue> make_queue(std::string_view key, const Geometry& g);

}  // namespace drivevp::mems_sched
