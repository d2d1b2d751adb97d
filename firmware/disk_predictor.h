// The disk's positioning-time predictor, built at boot from the parameter page the drive
// publishes (ARCHITECTURE.md "How a request travels"); the disk's implementation of the firmware's
// Predictor interface (firmware/predictor.h). Plain C++: no SystemC.
#pragma once

#include <cstdint>
#include <vector>

#include "firmware/predictor.h"
#include "tlm_bus/command.h"
#include "tlm_bus/param_page.h"

namespace drivevp {

/// Where the disk's heads are: the cylinder the arm is over and the active head.
struct HeadPosition {
  std::uint32_t cylinder = 0;
  std::uint32_t head = 0;
};

/// The firmware's own command path around a seek: the bus time between the moment a policy
/// decides (`SchedulingContext::now`: dispatch + command overhead) and the seek starting, and
/// between the seek ending and the read channel starting to wait for the first sector. The
/// controller's media driver measures it at boot (DiskMediaDriver::boot, docs/models/firmware.md
/// "Predictor"); a predictor built without it (all zero) predicts as if the firmware issued its
/// commands in no time.
struct CommandPath {
  Time read_to_seek{0};      ///< a read: the actuator's seek burst
  Time write_to_seek{0};     ///< a write: COUNT write, data DMA into the sector buffer, seek burst
  Time seek_to_transfer{0};  ///< seek-done IRQ_ACK burst and the channel's LBN/COUNT/COMMAND burst
  /// The path before the seek for an operation.
  Time to_seek(Op op) const { return op == Op::Read ? read_to_seek : write_to_seek; }
};

/// A predicted positioning for one request. All times in picoseconds.
struct Prediction {
  PhysicalAddress target;  ///< where the request's first block lives
  Time lead{0};            ///< command path from the prediction's start to the seek's start
  Time seek{0};            ///< seek + settle, or head switch, or 0
  /// From the seek's end until the first block's leading edge is under the head: the command
  /// path to the channel (CommandPath::seek_to_transfer) plus the rotational wait after it; what
  /// requests.csv measures as rotational_latency_ms (transfer_start - seek_end).
  Time rotation{0};
  /// seek + rotation: what requests.csv measures as seek_ms + rotational_latency_ms
  /// (transfer_start - seek_start).
  Time positioning() const { return seek + rotation; }
  /// lead + seek + rotation: from the prediction's start until the first block is under the head.
  Time access() const { return lead + seek + rotation; }
};

/// Predicts seek and rotational latency from the firmware's own tables: the sampled seek table of
/// the parameter page (linear interpolation between samples, so it may differ from the true
/// curve between samples), settle, head switch, the spindle phase read at boot, and the
/// firmware's own command path (CommandPath), so that a sector that passes while the firmware is
/// still issuing its commands is predicted a revolution away, as it really is.
///
/// Seek rule (shared with the actuator model, docs/models/disk.md): distance 0 on the same head
/// costs 0; distance 0 with a head change costs head_switch; distance d >= 1 costs
/// max(seek(d) + settle, head_switch) (the head switch overlaps the arm move).
///
/// As a Predictor: the media position is HeadPosition (position_of / head_of); the sweep
/// coordinate is the cylinder, [0, cylinders); estimate() is predict()'s lead and positioning.
class DiskPredictor final : public Predictor {
 public:
  DiskPredictor() = default;
  /// `phase_origin`: a time at which the spindle was at phase 0 (index), read from the spindle.
  /// Throws std::invalid_argument on a malformed page.
  DiskPredictor(const ParameterPage& page, Time phase_origin);

  /// The opaque position of the heads at (cylinder, head), and back.
  static MediaPosition position_of(HeadPosition h) { return MediaPosition{{h.cylinder, h.head, 0, 0}}; }
  static HeadPosition head_of(const MediaPosition& p) {
    return {static_cast<std::uint32_t>(p.words[0]), static_cast<std::uint32_t>(p.words[1])};
  }

  const DiskGeometry& geometry() const { return geometry_; }
  Time rotation_period() const { return rotation_period_; }
  const CommandPath& command_path() const { return command_path_; }
  /// Sets the command path (each part >= 0; throws std::invalid_argument otherwise).
  void set_command_path(const CommandPath& path);

  // Predictor
  std::string_view device_kind() const override { return "disk"; }
  std::uint64_t capacity_blocks() const override { return geometry_.capacity_blocks(); }
  Time command_overhead() const override { return command_overhead_; }
  std::uint32_t sweep_extent() const override { return geometry_.cylinders(); }
  /// The cylinder of `lbn`. Throws std::out_of_range if lbn >= capacity_blocks().
  std::uint32_t sweep_coordinate(std::uint64_t lbn) const override { return locate(lbn).cylinder; }
  std::uint32_t sweep_coordinate(const MediaPosition& p) const override { return head_of(p).cylinder; }
  /// predict(head_of(from), start, lbn, op): lead = Prediction::lead, positioning =
  /// Prediction::positioning() (seek + rotation).
  PositioningEstimate estimate(const MediaPosition& from, Time start, std::uint64_t lbn, Op op) const override {
    const Prediction p = predict(head_of(from), start, lbn, op);
    return {p.lead, p.positioning()};
  }

  /// geometry().locate(lbn), memoised: the last address computed for each of kLocateCacheEntries
  /// direct-mapped slots is kept, so a policy that compares the same queued requests at every
  /// decision maps each LBN once (the values are the geometry's, bit for bit). Throws
  /// std::out_of_range if lbn >= capacity_blocks() (nothing is cached then).
  PhysicalAddress locate(std::uint64_t lbn) const {
    LocateEntry& e = locate_cache_[(lbn * 0x9E3779B97F4A7C15ULL) >> (64 - kLocateCacheBits)];
    if (e.lbn != lbn) {
      e.address = geometry_.locate(lbn);
      e.lbn = lbn;
    }
    return e.address;
  }
  /// Seek time from `from` to (cylinder, head) for `op`, per the seek rule above (a write adds
  /// the page's write settle to a non-zero result).
  Time seek_time(HeadPosition from, std::uint32_t cylinder, std::uint32_t head, Op op = Op::Read) const;
  /// Prediction::rotation for a seek towards `target` that ends at `seek_end` (ps):
  /// seek_to_transfer + rotational_wait(seek_end + seek_to_transfer). predict() uses it, so a
  /// caller that keeps a request's address and seek (e.g. OPT's search) predicts the same times.
  Time rotation_after_seek(Time seek_end, const PhysicalAddress& target) const {
    const Time channel_start = seek_end + command_path_.seek_to_transfer;
    return command_path_.seek_to_transfer +
           rotational_wait(channel_start, phase_origin_, rotation_period_, target.slot, target.sectors_per_track);
  }
  /// Full prediction for an `op` whose command path starts at time `start` (ps) towards block
  /// `lbn`: lead = command_path().to_seek(op); the seek starts at start + lead; rotation =
  /// seek_to_transfer + rotational_wait(start + lead + seek + seek_to_transfer).
  /// Throws std::out_of_range if lbn >= capacity_blocks().
  Prediction predict(HeadPosition from, Time start, std::uint64_t lbn, Op op) const;

 private:
  /// The seek table's value at distance d: seek_by_distance_[d] for the disk's distances
  /// (d < cylinders, tabulated once at construction with the same SeekTable, so bit-identical),
  /// the table itself beyond.
  auto seek_fn() const {
    return [this](std::uint32_t d) { return d < seek_by_distance_.size() ? seek_by_distance_[d] : seek_table_(d); };
  }

 public:
  /// The media pass of `blocks` blocks from `lbn` whose first block's sector is under the head at
  /// `start`, as a read (media_pass, tlm_bus/param_page.h, with the firmware's seek table, settle, head switch
  /// and spindle phase): calls on_block(index in the pass, time the block has passed under the
  /// head) for each block in order. What the read channel does, so that the firmware knows when
  /// each block of a read is in the buffer (the host interface's pacing, docs/models/cache.md).
  /// The pass's first block is mapped through the locate() memo (the driver has located it for
  /// the seek); the others through the geometry, as media_pass does (the same addresses).
  template <class OnBlock>
  void block_ends(std::uint64_t lbn, std::uint64_t blocks, Time start, OnBlock&& on_block) const {
    pass(lbn, blocks, start, block_ends_of_runs(rotation_period_, on_block));
  }
  /// When the last of the `blocks` blocks of that pass has passed under the head: block_ends()'s
  /// last time (the pass's end), without the per-block times.
  Time pass_end(std::uint64_t lbn, std::uint64_t blocks, Time start) const {
    return pass(lbn, blocks, start, [](const PhysicalAddress&, std::uint64_t, std::uint64_t, Time) {});
  }

  /// When the first sector of `lbn` is next under the head from `start` (the heads on its track):
  /// start + rotational_wait() (tlm_bus/param_page.h). Throws std::out_of_range past the capacity.
  Time next_pass(std::uint64_t lbn, Time start) const {
    const PhysicalAddress a = locate(lbn);
    return start + rotational_wait(start, phase_origin_, rotation_period_, a.slot, a.sectors_per_track);
  }

 private:
  /// media_pass() as the firmware predicts it (a read), its first block located through the memo.
  template <class OnTrack>
  Time pass(std::uint64_t lbn, std::uint64_t blocks, Time start, OnTrack&& on_track) const {
    const auto locate_run = [this, lbn](std::uint64_t x) { return x == lbn ? locate(x) : geometry_.locate(x); };
    return media_pass_located(geometry_, locate_run, lbn, blocks, start, phase_origin_, rotation_period_, seek_fn(),
                              settle_, head_switch_, Time{0}, on_track);
  }

 public:
  /// Slots of the locate() memo (a power of two).
  static constexpr unsigned kLocateCacheBits = 13;
  static constexpr std::size_t kLocateCacheEntries = std::size_t{1} << kLocateCacheBits;

 private:
  struct LocateEntry {
    std::uint64_t lbn = UINT64_MAX;  ///< no LBN reaches UINT64_MAX (capacity < 2^64): empty slot
    PhysicalAddress address;
  };

  DiskGeometry geometry_;
  SeekTable seek_table_;
  std::vector<Time> seek_by_distance_;  ///< seek_table_(d) for d in [0, cylinders)
  mutable std::vector<LocateEntry> locate_cache_ = std::vector<LocateEntry>(kLocateCacheEntries);
  Time rotation_period_{0};
  Time head_switch_{0};
  Time settle_{0};
  Time write_settle_{0};
  Time command_overhead_{0};
  Time phase_origin_{0};
  CommandPath command_path_;
};

}  // namespace drivevp
