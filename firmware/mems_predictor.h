// The firmware's MEMS predictor, built at boot from the device's parameter page
// (tlm_bus/devices/mems_page.h): the startup delay, positioning and media access times of an
// access, computed with the same hw_models/mems functions as the device (MemsSeek::access,
// the power-state rule of EnergyMeter::idle_until), so that prediction and device agree to the
// picosecond; and where a block lies for the paper-002 policies (firmware/policies/mems/queue.h).
// Plain C++: no SystemC.
#pragma once

#include <cstdint>

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

class MemsPredictor {
 public:
  /// Throws std::invalid_argument on a malformed page (mems::mems_params_from_page).
  explicit MemsPredictor(const MemsParameterPage& page);

  const mems::MemsParams& params() const { return params_; }
  const mems::MemsSeek& seek() const { return seek_; }
  std::uint64_t capacity_blocks() const { return seek_.layout().capacity(); }
  Time command_overhead() const { return params_.command_overhead(); }
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
  mems::MemsParams params_;
  mems::MemsSeek seek_;
};

}  // namespace drivevp
