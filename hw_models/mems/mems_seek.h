// Sled positioning and media access times of a MEMS-based storage device: bang-bang X and Y seeks
// with the suspension springs, X settle, Y turnarounds, positioning = max(X, Y) (002 eq. (1)),
// and the time of a request's media access. Rules: ../shared/reference/mems-model.md "Seek
// (positioning) time" (Griffin et al., SIGMETRICS 2000, §3; DiskSim 4.0 memsmodel). Derivations:
// docs/models/mems.md. Plain C++ (no SystemC).
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "hw_models/mems/mems_layout.h"
#include "hw_models/mems/mems_params.h"
#include "tlm_bus/command.h"

namespace drivevp::mems {

/// One axis' dynamics: actuator acceleration a (nm/s²) and spring stiffness ω² = a·k/(travel/2)
/// (1/s²), so that the spring adds -ω²·offset (towards the centre, magnitude a·k·|offset|/(travel/2),
/// mems-model.md "Seek").
struct Axis {
  double accel_nm_s2 = 0;
  double omega2 = 0;  ///< 0 = springs off
};
Axis axis_x(const MemsParams& p);
Axis axis_y(const MemsParams& p);

/// Time (s) of a bang-bang move along one axis, exact solution of x'' = ±a − ω²x:
/// from offset `from_nm` with speed `w0` (nm/s, >= 0, in the direction of the move) to `to_nm` with
/// speed `w1` (>= 0, same direction): full acceleration towards the target up to the switch point,
/// then full deceleration. In the move's direction p (p = ±x) the switch point is, in closed form
/// (the ω²p² terms of the two energy integrals cancel),
///   p_s = (p0+p1)/2 + (w1²−w0²)/(4a) + ω²(p1²−p0²)/(4a),
/// and each phase is a harmonic oscillation about ±a/ω² (= ±(travel/2)/k, outside the travel, so
/// the phase angle covers less than a quarter turn); its time is the angle swept in the phase plane
/// (q = p − centre, −w/ω) divided by ω. Springs off (ω = 0): each phase 2Δp/(w + w'), i.e.
/// (−w0 + √(w0² + 2a·Δp))/a. from == to gives 0. Throws std::invalid_argument when the move is
/// infeasible (switch point outside [from, to]: w1 too far above or below w0 for the distance).
double bang_bang_exact_s(const Axis& axis, double from_nm, double w0, double to_nm, double w1);

/// The same move as DiskSim's numerical scheme (mems-model.md "Springs on"), reconstructed from
/// that description (its source, mems_piecewise_seek.c, is not reachable): each half cut into 8
/// equal chunks, a chunk's acceleration the mean of the spring-adjusted acceleration at its ends,
/// speed and time stepped from the start forwards and from the end backwards to the switch point;
/// the switch point starts at the springs-off point and moves 9 times, by (5 % of the distance)·
/// (9−i)/9 at iteration i, towards the end when the forward side arrives slower than the backward
/// side and towards the start otherwise; the time of the iteration with the smallest speed mismatch
/// is returned. Springs off: the closed form, as DiskSim.
double bang_bang_chunked_s(const Axis& axis, double from_nm, double w0, double to_nm, double w1);

enum class SeekMethod : std::uint8_t { Exact = 0, DiskSimChunks = 1 };

/// Where the sled is between accesses: X at rest on an offset, Y at an offset moving at the
/// access velocity in y_direction (+1 / −1); DiskSim's coord_t {x_pos, y_pos, y_vel}.
struct SledState {
  std::int64_t x_nm = 0;
  std::int64_t y_nm = 0;
  int y_direction = +1;
  bool operator==(const SledState& o) const { return x_nm == o.x_nm && y_nm == o.y_nm && y_direction == o.y_direction; }
};

/// The parts of one positioning, each rounded to the nearest picosecond before they are summed.
struct Positioning {
  Time x_seek{0};
  Time settle{0};  ///< settle when X changes, else 0
  Time y_seek{0};
  Time turnarounds{0};
  int turnaround_count = 0;  ///< 0, 1 or 2
  /// The part of `turnarounds` spent at the start (before the Y seek), rounded to 1 ps and at most
  /// `turnarounds`; the rest is at the end. For waveforms only: total() does not use it.
  Time start_turnaround{0};
  /// max(x_seek + settle, y_seek + turnarounds) (002 eq. (1); mems-model.md).
  Time total() const { return std::max(x_seek + settle, y_seek + turnarounds); }
};

/// One sweep of a media access and the positioning that reaches it (MemsSeek::sweeps).
struct Sweep {
  SledState from;                     ///< the sled when the positioning starts
  Positioning positioning;            ///< from `from` to the first pass of the sweep (002 eq. (1))
  SledState start;                    ///< when the sweep starts: x, the first pass's servo start, direction
  SledState end;                      ///< when the sweep ends: x, the last pass's end, direction
  std::uint32_t rows = 0;             ///< rows swept (0 for a move without transfer)
  Time transfer{0};                   ///< rows · row_bits · bit_length / access velocity, rounded to 1 ps
  std::uint64_t tip_rows = 0;         ///< Σ over the rows of the tips transferring in the row
  std::uint32_t max_active_tips = 0;  ///< tips transferring at once (largest row)
};

/// What a request's media access costs (MemsSeek::access).
struct MediaAccess {
  Time positioning{0};                ///< first positioning
  Time transfer{0};                   ///< sum of the sweeps at access velocity
  Time repositioning{0};              ///< positionings between runs (column, cylinder or sled changes)
  std::uint32_t runs = 0;             ///< sweeps
  std::uint32_t rows = 0;             ///< rows swept
  std::uint64_t tip_rows = 0;         ///< Σ over rows swept of the tips transferring in the row
  double tip_seconds = 0;             ///< tip_rows × row time (row_bits · bit / v), for tip energy
  std::uint32_t max_active_tips = 0;  ///< tips transferring at once (largest row)
  SledState end;                      ///< where the sled is when the last sweep ends
  Time total() const { return positioning + transfer + repositioning; }
};

/// One request of a batch (MemsSeek::access_batch): `blocks` blocks from `lbn`.
struct BatchSpan {
  std::uint64_t lbn;
  std::uint32_t blocks;
};

/// Seek, settle, turnaround and access timing of one device.
class MemsSeek {
 public:
  /// Validates `params` (MemsParams::validate).
  explicit MemsSeek(const MemsParams& params, SeekMethod method = SeekMethod::Exact);

  const MemsLayout& layout() const { return layout_; }
  double access_velocity_nm_s() const { return v_; }
  SeekMethod method() const { return method_; }

  /// X seek (s), at rest at both ends; 0 when from == to. Settle not included.
  double x_seek_s(std::int64_t from_nm, std::int64_t to_nm) const;
  /// One Y turnaround at offset y_nm, reversing from `direction` to −direction:
  /// 2v / (a + ω²·direction·y) s (mems-model.md; the springs help when moving away from the centre).
  double turnaround_s(std::int64_t y_nm, int direction) const;
  /// Y seek from (y0, dir0) to (y1, dir1) at the access velocity v: the move runs in the direction
  /// s of y1 − y0 (dir0 when equal), from speed v to speed v; a turnaround at y0 when dir0 ≠ s,
  /// another at y1 when dir1 ≠ s. Returns the seek part; the turnarounds (both, s) and their
  /// number through the out-params, and the one at y0 alone (0 when none) through the last.
  double y_seek_s(std::int64_t y0, int dir0, std::int64_t y1, int dir1, double* turnaround_s_out, int* turnarounds_out,
                  double* start_turnaround_s_out = nullptr) const;
  /// Positioning from `from` to the start of a pass at x_nm (mems-model.md; 002 eq. (1)).
  Positioning position(const SledState& from, std::int64_t x_nm, const AccessPass& pass) const;
  /// The pass a block is read with when the sled arrives in `direction`: the up pass for +1,
  /// the down pass for −1 (only +1 without bidirectional access).
  AccessPass pass_for(const BlockPosition& b, int direction) const;
  /// Sweep direction of the run that starts at block `a`: −1 (down) on a reversed column with
  /// bidirectional access, else +1 (always +1 for LayoutOrder::AlongY).
  int direction(const BlockAddress& a) const {
    return params_.bidirectional_access && layout_.reversed(a.cylinder, a.column) ? -1 : +1;
  }
  /// Time of one row at the access velocity, s: row_bits · bit_length / v (G1 225 µs).
  double row_seconds() const { return row_s_; }

  /// Media access for `blocks` blocks from `lbn`, the sled starting at `from`. The blocks are cut
  /// into runs at MemsLayout::run_blocks (Streaming: the rest of a (sled, cylinder, column);
  /// AlongY: the rest of a (column, cell)'s rows); a run sweeps its physical rows [lo, hi] in one
  /// pass at the access velocity: (hi−lo+1)·row_bits·bit / v, rounded to 1 ps, in direction()
  /// (+Y when not reversed, −Y when reversed; always +Y without bidirectional access or in
  /// AlongY); the first run is reached by position(), each later run by position() from where the
  /// last ended. Tips per row: 64 × the run's blocks in the row (Streaming), 64 (AlongY).
  /// Throws std::out_of_range when the blocks pass the capacity, std::invalid_argument for 0 blocks.
  MediaAccess access(const SledState& from, std::uint64_t lbn, std::uint32_t blocks) const;
  /// The sweeps of access(from, lbn, blocks), one per run, in order (each with its positioning's
  /// parts, start and end states); summarize() of them equals access(). Same errors as access().
  std::vector<Sweep> sweeps(const SledState& from, std::uint64_t lbn, std::uint32_t blocks) const;
  /// The same sweeps written into `out` (cleared first; its capacity is reused). Same errors.
  void sweeps(const SledState& from, std::uint64_t lbn, std::uint32_t blocks, std::vector<Sweep>& out) const;

  /// Why `spans` cannot be served in one media access, or nothing when they can (never throws).
  /// Rule (002 §2.1, §4: the regions' tips at the same relative (x, y) are read concurrently, up
  /// to the active-tip limit; docs/models/mems.md "Batches"): every span has blocks >= 1 inside
  /// the capacity; every span's FIRST run (its blocks up to MemsLayout::run_blocks, as access()
  /// cuts runs) starts at the same cylinder and the same physical row and sweeps in the same
  /// direction; in every physical row those first runs sweep, the tips they use are disjoint
  /// (distinct (sled, column, cell)) and their number, summed over the spans (all sleds), is at
  /// most tips_active. The reason names the spans (index and LBN), the rows and the counts.
  std::optional<std::string> batch_conflict(const std::vector<BatchSpan>& spans) const;
  /// Media access serving `spans` together (a batch, 002 §4): one positioning from `from` to the
  /// common start, one sweep over the most rows among the spans' first runs (the first sweep
  /// carries every span's first run on its own tips: tip_rows summed over the spans, max_active_tips
  /// the largest per-row sum), then each span's blocks beyond its first run, in span order, as
  /// access() from where the sled is (repositioning + transfer). One span gives exactly
  /// access(from, lbn, blocks). Throws std::out_of_range when a span passes the capacity,
  /// std::invalid_argument with batch_conflict()'s reason otherwise.
  MediaAccess access_batch(const SledState& from, const std::vector<BatchSpan>& spans) const;
  /// The sweeps of access_batch(from, spans): the common first sweep, then the later runs.
  std::vector<Sweep> batch_sweeps(const SledState& from, const std::vector<BatchSpan>& spans) const;
  /// Totals of a sequence of sweeps: the first positioning, the rest as repositioning, transfers,
  /// rows, runs (= sweeps), tip_rows and tip_seconds = tip_rows × row_seconds(), the largest
  /// max_active_tips and the last sweep's end (no sweeps: all zero).
  MediaAccess summarize(const std::vector<Sweep>& sweeps) const;

 private:
  double bang_bang_s(const Axis& axis, double from, double w0, double to, double w1) const;
  /// position() without its memo of the last positioning.
  Positioning compute_position(const SledState& from, std::int64_t x_nm, const AccessPass& pass) const;
  /// One run: `blocks` (<= run_blocks(a)) from the block at `a`, reached from `from`.
  Sweep run_sweep(const SledState& from, const BlockAddress& a, std::uint64_t blocks) const;
  static void add(MediaAccess& m, const Sweep& s);
  void check_range(std::uint64_t lbn, std::uint64_t blocks) const;
  MemsParams params_;
  MemsLayout layout_;
  SeekMethod method_;
  Axis ax_, ay_;
  double v_;
  double row_s_;
  Time settle_;
};

}  // namespace drivevp::mems
