// The firmware's MEMS predictor, built at boot from the device's parameter page
// (tlm_bus/devices/mems_page.h): the startup delay, positioning and media access times of an
// access, computed with the same hw_models/mems functions as the device (MemsSeek::access,
// the power-state rule of EnergyMeter::idle_until), so that prediction and device agree to the
// picosecond; and where a block lies for the paper-002 policies (firmware/policies/mems/queue.h).
// Plain C++: no SystemC.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "firmware/predictor.h"
#include "hw_models/mems/mems_params.h"
#include "hw_models/mems/mems_seek.h"
#include "tlm_bus/command.h"
#include "tlm_bus/devices/mems_page.h"

namespace drivevp {

/// What the firmware knows of the sled: its state between accesses (the end of the last sweep,
/// as the device's SLED_* registers show it once the last command completed) and when the last
/// command ended (the sled idles from then; 0 before any command).
struct MemsSledView {
  mems::SledState state;
  Time idle_since{0};
};

/// A predicted access. Times in picoseconds from the command's acceptance at the device.
struct MemsPrediction {
  Time startup{0};        ///< startup delay, when the sled had gone inactive
  Time positioning{0};    ///< first positioning: max(X seek + settle, Y seek + turnarounds)
  Time transfer{0};       ///< sweeps at the access velocity
  Time repositioning{0};  ///< positionings between runs
  std::uint32_t rows = 0;
  std::uint32_t runs = 0;
  mems::SledState end;  ///< the sled after the access
  /// startup + positioning + transfer + repositioning: ACCESS_END_PS − ACCESS_START_PS.
  Time access() const { return startup + positioning + transfer + repositioning; }
  /// startup + positioning: POSITIONING_END_PS − ACCESS_START_PS.
  Time to_first_block() const { return startup + positioning; }
};

/// A block's place for the 002 policies (mems_sched::Request): x = X index (cylinder), y = Y index
/// (physical row along +Y), region = the tip group the block is striped over, unique per
/// (sled, column, cell): (sled · columns + column) · cells + cell. Blocks with equal (x, y) lie at
/// the same relative position in every region (002 §4; several sleds move together).
struct MemsLocation {
  std::uint32_t x = 0;
  std::uint32_t y = 0;
  std::uint32_t region = 0;
};

/// The sled's X and Y indices, as the 002 policies measure distances (mems_sched::SledPosition).
struct MemsIndices {
  std::uint32_t x = 0;  ///< cylinder, [0, cylinders)
  std::uint32_t y = 0;  ///< physical row, [0, rows per column)
};

/// The firmware's command path before the device accepts a command (measured by the MEMS media
/// driver at boot, as the disk's CommandPath): a read's access burst; a write's COUNT write, data
/// DMA and access burst. Zero when not set.
struct MemsCommandPath {
  Time read_to_command{0};
  Time write_to_command{0};
  Time to_command(Op op) const { return op == Op::Read ? read_to_command : write_to_command; }
};

/// As a Predictor (firmware/predictor.h): the media position is the MemsSledView (position_of /
/// sled_of: x_nm, y_nm, y direction, idle-since ps); the sweep coordinate is the X index
/// (cylinder), [0, cylinders); estimate() gives lead = the command path to the device and
/// positioning = startup (when the sled went inactive) + the first positioning of the block.
class MemsPredictor final : public Predictor {
 public:
  /// Throws std::invalid_argument on a malformed page (mems::mems_params_from_page).
  explicit MemsPredictor(const MemsParameterPage& page);
  /// From the parameters themselves (tests, benches). Throws std::invalid_argument as
  /// MemsParams::validate.
  explicit MemsPredictor(const mems::MemsParams& params, mems::SeekMethod method = mems::SeekMethod::Exact);

  static MediaPosition position_of(const MemsSledView& v) {
    return MediaPosition{{v.state.x_nm, v.state.y_nm, v.state.y_direction, v.idle_since.count()}};
  }
  static MemsSledView sled_of(const MediaPosition& p) {
    MemsSledView v;
    v.state = {p.words[0], p.words[1], static_cast<int>(p.words[2]) < 0 ? -1 : +1};
    v.idle_since = Time{p.words[3]};
    return v;
  }

  const mems::MemsParams& params() const { return params_; }
  const mems::MemsSeek& seek() const { return seek_; }
  const MemsCommandPath& command_path() const { return path_; }
  /// Each part >= 0 (std::invalid_argument otherwise).
  void set_command_path(const MemsCommandPath& path);

  // Predictor
  std::string_view device_kind() const override { return "mems"; }
  std::uint64_t capacity_blocks() const override { return seek_.layout().capacity(); }
  Time command_overhead() const override { return params_.command_overhead(); }
  std::uint32_t sweep_extent() const override { return seek_.layout().cylinders(); }
  /// The X index (cylinder) of `lbn`. Throws std::out_of_range for lbn >= capacity_blocks().
  std::uint32_t sweep_coordinate(std::uint64_t lbn) const override { return locate(lbn).x; }
  /// The X index of the sled's X offset (nearest cylinder, clamped to [0, cylinders)).
  std::uint32_t sweep_coordinate(const MediaPosition& p) const override { return indices(sled_of(p).state).x; }
  /// lead = command_path().to_command(op); positioning = startup(sled, start + lead) +
  /// positioning(sled, lbn). Throws std::out_of_range beyond the capacity.
  PositioningEstimate estimate(const MediaPosition& from, Time start, std::uint64_t lbn, Op op) const override;

  /// The sled's (x, y) indices: the cylinder nearest to x_nm and the physical row whose bits span
  /// y_nm (clamped to the layout).
  MemsIndices indices(const mems::SledState& s) const;
  /// Positioning (no startup) from `from` to the first pass over physical row `y` of cylinder `x`
  /// that an access there can start with: the up pass, or the shorter of the up and down passes
  /// when the layout streams in both directions (mems-model.md "Layout"). The 002 policies'
  /// time_position(x, y) (002 eq. (1)).
  Time positioning_to(const mems::SledState& from, std::uint32_t x, std::uint32_t y) const;
  /// Why the device cannot serve `spans` in one access (mems::MemsSeek::batch_conflict: first
  /// sweeps at different positions or directions, shared or too many tips), or nullopt when it can.
  std::optional<std::string> batch_conflict(const std::vector<mems::BatchSpan>& spans) const {
    return seek_.batch_conflict(spans);
  }
  /// Regions (tip groups of tip_sectors_per_block tips) in the device: sleds · columns · cells.
  std::uint32_t regions() const;
  /// Regions one access reads at once: active tips / tip sectors per block (G1 10).
  std::uint32_t regions_per_access() const { return seek_.layout().cells_per_row(); }

  /// The startup delay an access accepted at `start` pays: the delay when start − idle_since is at
  /// least "time before sled inactive", else 0 (mems-model.md "Power states").
  Time startup(const MemsSledView& sled, Time start) const;
  /// Prediction of an access of `blocks` blocks from `lbn` accepted at `start`, the sled as `sled`
  /// says. `op` does not change the timing (reads and writes sweep alike). Throws std::out_of_range
  /// when the blocks pass the capacity, std::invalid_argument for 0 blocks or start < idle_since.
  MemsPrediction predict(const MemsSledView& sled, Time start, std::uint64_t lbn, Op op,
                         std::uint32_t blocks = 1) const;
  /// Positioning only (no startup) from `from` to the first pass of `lbn`, as the device's first
  /// positioning of an access of that block.
  Time positioning(const mems::SledState& from, std::uint64_t lbn) const;
  /// Where `lbn` lies. Throws std::out_of_range for lbn >= capacity_blocks().
  MemsLocation locate(std::uint64_t lbn) const;

 private:
  /// seek_.layout().locate(lbn), remembered for the last LBN: a dispatch's estimate
  /// (positioning()) and the driver's locate() then ask for the same block one after the other.
  const mems::BlockAddress& address(std::uint64_t lbn) const;
  mems::MemsParams params_;
  mems::MemsSeek seek_;
  MemsCommandPath path_;
  mutable bool last_valid_ = false;  ///< last_lbn_ / last_address_ hold a located block
  mutable std::uint64_t last_lbn_ = 0;
  mutable mems::BlockAddress last_address_{};
};

}  // namespace drivevp
