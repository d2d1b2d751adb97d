// The MEMS scheduling policies of paper 002, one class each (queue.h for the interface,
// docs/models/mems-policies.md for the rules). Each .cpp names its source.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string_view>
#include <utility>

#include "firmware/node_pool.h"
#include "firmware/policies/mems/queue.h"

namespace drivevp::mems_sched {

/// FCFS (002 §2.2): the oldest queued request (arrival, then id) decides the position.
class FcfsQueue final : public Queue {
 public:
  explicit FcfsQueue(const Geometry& g) : Queue(g, 1, 1) {}
  std::string_view name() const override { return "FCFS"; }

 protected:
  Pick pick(Time now, const Positioning& positioning, SledPosition sled) override;
  void on_add(const Request& r) override { order_.emplace(r.arrival, r.id); }
  void on_remove(const Request& r) override { order_.erase({r.arrival, r.id}); }

 private:
  std::set<std::pair<Time, std::uint64_t>, std::less<std::pair<Time, std::uint64_t>>,
           NodePool<std::pair<Time, std::uint64_t>>>
      order_;  ///< (arrival, id) of the queued requests; nodes recycled
};

/// SSTF (002 §2.2 with Griffin et al.'s mapping: seek -> X movement, rotation -> Y movement):
/// the position with the smallest |x - sled.x|, then the smallest |y - sled.y|, then smaller x,
/// then smaller y.
class SstfQueue final : public Queue {
 public:
  explicit SstfQueue(const Geometry& g) : Queue(g, 1, 1) {}
  std::string_view name() const override { return "SSTF"; }

 protected:
  Pick pick(Time now, const Positioning& positioning, SledPosition sled) override;
};

/// SPTF (002 §2.2): the position with the shortest positioning time (eq. 1).
class SptfQueue final : public Queue {
 public:
  explicit SptfQueue(const Geometry& g) : Queue(g, 1, 1) {}
  std::string_view name() const override { return "SPTF"; }

 protected:
  Pick pick(Time now, const Positioning& positioning, SledPosition sled) override;
};

/// P-SPTF (002 §3.1, eq. 2): the position with the largest N(x, y) / time_position(x, y).
class PSptfQueue final : public Queue {
 public:
  explicit PSptfQueue(const Geometry& g) : Queue(g, 1, 1) {}
  std::string_view name() const override { return "P-SPTF"; }

 protected:
  Pick pick(Time now, const Positioning& positioning, SledPosition sled) override;
};

/// PA-SPTF (002 §3.2, eq. 3): the position with the largest Σ W(x, y) / time_position(x, y).
class PaSptfQueue final : public Queue {
 public:
  explicit PaSptfQueue(const Geometry& g) : Queue(g, 1, 1) {}
  std::string_view name() const override { return "PA-SPTF"; }

 protected:
  Pick pick(Time now, const Positioning& positioning, SledPosition sled) override;
};

/// The zone engine of ZSPTF, ZSCAN-PSPTF and ZPSPTF (002 §3.2, §3.3): it serves the current zone
/// until it has no queued request, then chooses the next zone by `Inter`; inside the zone it
/// chooses positions by `Intra`. Before the first choice the current zone is the sled's.
class ZoneQueue : public Queue {
 public:
  enum class Inter { CScan, Scan, PSptf };
  enum class Intra { Sptf, PSptf };
  /// The zone being served (nullopt before the first choice).
  std::optional<std::uint32_t> current_zone() const { return current_; }
  /// SCAN's direction over zone indices: +1 or -1.
  int direction() const { return direction_; }
  /// Zone index of (x, y) (queue.h, PositionIndex).
  std::uint32_t zone_of(std::uint32_t x, std::uint32_t y) const { return index_.zone_of(x, y); }

 protected:
  ZoneQueue(const Geometry& g, Inter inter, Intra intra)
      : Queue(g, g.zones_x, g.zones_y), inter_(inter), intra_(intra) {}
  Pick pick(Time now, const Positioning& positioning, SledPosition sled) override;

 private:
  std::uint32_t next_zone(Time now, const Positioning& positioning, SledPosition sled);
  Inter inter_;
  Intra intra_;
  std::optional<std::uint32_t> current_;
  int direction_ = +1;
};

/// ZSPTF (Hong et al.; 002 §2.2, §3.2): zones in C-SCAN order, SPTF inside.
class ZsptfQueue final : public ZoneQueue {
 public:
  explicit ZsptfQueue(const Geometry& g);
  std::string_view name() const override { return "ZSPTF"; }
};

/// ZSCAN-PSPTF (002 §3.3): zones in SCAN order, P-SPTF inside.
class ZscanPsptfQueue final : public ZoneQueue {
 public:
  explicit ZscanPsptfQueue(const Geometry& g);
  std::string_view name() const override { return "ZSCAN-PSPTF"; }
};

/// ZPSPTF (002 §3.3): zones by P-SPTF (N(zone) / shortest positioning time to a queued position
/// of the zone), P-SPTF inside.
class ZpsptfQueue final : public ZoneQueue {
 public:
  explicit ZpsptfQueue(const Geometry& g);
  std::string_view name() const override { return "ZPSPTF"; }
};

}  // namespace drivevp::mems_sched
