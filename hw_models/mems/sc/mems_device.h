// The MEMS-based storage device behind the TLM bus: register bank, sector buffer, parameter page,
// done interrupt, tickless sled, power states and energy, media in a BackingStore.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include <tlm_utils/simple_target_socket.h>
#include <systemc>
#include <tlm>

#include "hw_models/backing_store.h"
#include "hw_models/mems/mems_params.h"
#include "hw_models/mems/mems_power.h"
#include "hw_models/mems/mems_seek.h"
#include "hw_models/sector_buffer.h"
#include "tlm_bus/devices/mems_page.h"
#include "tlm_bus/devices/mems_registers.h"
#include "tlm_bus/sc/irq.h"
#include "tlm_bus/sc/register_bank.h"
#include "waveforms/tracer.h"

namespace drivevp {

/// A MEMS-based storage device (Griffin, Schlosser, Ganger, Nagle, SIGMETRICS 2000; DiskSim 4.0
/// memsmodel, as ../shared/reference/mems-model.md states it) as a TLM-2.0 target. The physics is
/// the plain C++ of hw_models/mems/ (mems_seek.h, mems_power.h); this module only keeps the state
/// and times it.
///
/// An access command (COMMAND = read / write, docs/registers.md "MEMS device") accepted at time
/// t0 (the COMMAND write's sc_time_stamp() + annotated delay):
///  1. startup: when the sled has been idle for at least "time before sled inactive" since its
///     last command ended (or since time 0), it first pays the startup delay
///     (mems::EnergyMeter::idle_until; mems-model.md "Power states");
///  2. then the blocks are cut into runs (MemsSeek::access): each run is a positioning from the
///     sled state (max(X seek + settle, Y seek + turnarounds), 002 eq. (1)) and a sweep at the
///     access velocity; the first positioning ends at POSITIONING_END_PS, the last sweep at
///     ACCESS_END_PS = t0 + startup + MemsSeek::access(sled, lbn, count).total(), exactly;
///  3. at ACCESS_END_PS the data moves between the sector buffer and the store (a read of a block
///     never written reads as BackingStore defines), STATUS shows done and the done interrupt rises.
/// The command overhead is not added here: the firmware applies it (it is on the parameter page),
/// as for the disk. A move command (kCmdMove) positions to the first block's pass without a transfer.
///
/// A batch (kCmdBatch, 002 §4): entries 0 .. BATCH_COUNT-1 of the batch table (each LBN, count,
/// read or write; registers read back what was written) served in one media access: startup as
/// above, then MemsSeek::access_batch from the sled state (one positioning and one sweep carry
/// every entry's first run on its own tips; the entries' later runs follow in table order), so
/// ACCESS_END_PS = t0 + startup + access_batch(sled, spans).total(); at its end each entry's data
/// moves between its slot of the sector buffer (byte offset 512 × the counts of the entries before
/// it) and the store, in table order, and the done interrupt rises once. Refused (as below) when
/// BATCH_COUNT is outside [1, kMaxBatch], with kCmdUseTarget, when an entry has count 0, an op
/// other than read or write or passes the capacity, when the counts sum beyond the capacity, or
/// when MemsSeek::batch_conflict gives a reason. Writing BATCH_COUNT or an entry's count grows the
/// sector buffer to the entries' blocks (as COUNT does).
///
/// Tickless: nothing wakes the model; the state (sled position and Y direction, busy, power state,
/// active tips, energy) is derived for any time from the last command (catch_up). Between commands
/// the sled is at the end state of its last sweep (DiskSim's coord_t; the drift of an idle sled is
/// not modelled, as in DiskSim). During a sweep Y moves at the access velocity, exactly (rounded to
/// the nm); during a startup or a positioning the registers show the state the positioning started
/// from (the trajectory is not sampled).
///
/// Energy (mems::EnergyMeter): Idle between commands up to the timeout, then Inactive; Active
/// from t0 to the access's end (startup included), plus the tips' access power for the tip-seconds
/// of the sweeps. Registers and energy_at() count the Active sled power up to the time asked and
/// the tip energy of a command when it completes.
///
/// Errors (STATUS error bit and an immediate done interrupt, nothing moves): a command while busy,
/// an unknown command code, COUNT 0 for a read or write, blocks beyond the capacity, TARGET_*
/// coordinates outside the layout, a batch that cannot be served together (above). The error bit stays until the next
/// command is accepted or a command in progress completes (STATUS describes the command that finished or was refused
/// last). commands_completed() and last_command_joules() are counters as of the last catch_up (any register access or
/// state accessor brings them up to date).
class MemsDevice : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<MemsDevice> socket;         ///< registers (mems_regs)
  tlm_utils::simple_target_socket<MemsDevice> buffer_socket;  ///< sector buffer (DMA, DMI-capable)
  tlm_utils::simple_target_socket<MemsDevice> param_socket;   ///< MemsParameterPage, read-only
  InterruptLine done_irq{"done_irq"};

  /// Throws std::invalid_argument if `params` fails MemsParams::validate(). With a `tracer`
  /// whose groups include TraceGroup::Sled the sled's signals are registered (see above).
  MemsDevice(sc_core::sc_module_name name, const mems::MemsParams& params,
             mems::SeekMethod method = mems::SeekMethod::Exact, Tracer* tracer = nullptr);

  const mems::MemsParams& params() const { return params_; }
  const mems::MemsSeek& seek() const { return seek_; }
  const MemsParameterPage& parameter_page() const { return page_; }
  /// The media contents (set its mode before the simulation starts).
  BackingStore& store() { return store_; }
  const BackingStore& store() const { return store_; }

  /// Brings the state up to time `at`: a command whose end is due has completed.
  void catch_up(Time at);
  /// Sled state at time `at` (see the class comment for positions during a command).
  mems::SledState sled_state(Time at);
  /// End of the last completed command (0 before any): the sled idles from then.
  Time idle_since(Time at);
  bool busy(Time at);
  /// Power state at time `at`.
  mems::SledPowerState power_state(Time at);
  /// Tips transferring at time `at` (a sweep's largest row; 0 outside sweeps).
  std::uint32_t active_tips(Time at);
  /// The energy meter as it stands at time `at` (>= the last command's start): joules in total,
  /// per state and for the tips, time per state, startups; for summary.json.
  mems::EnergyMeter energy_at(Time at);
  /// Energy of the last completed command (Active: startup, positioning, sweeps, tips), J.
  double last_command_joules() const { return last_command_joules_; }
  std::uint64_t commands_completed() const { return completed_; }

 private:
  static const mems::MemsParams& validated(const mems::MemsParams& p);
  /// One sweep of the command in progress, timed.
  struct Segment {
    Time pos_start{0}, pos_end{0}, sweep_end{0};
    mems::Sweep sweep;  ///< states (from, start, end), positioning parts, rows, tips
  };
  void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  void buffer_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  void param_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  bool get_direct_mem_ptr(tlm::tlm_generic_payload& trans, tlm::tlm_dmi& dmi);
  void command(std::uint32_t value, const sc_core::sc_time& delay);
  void refuse(const sc_core::sc_time& delay);
  void grow_buffer(std::uint64_t blocks);  ///< to `blocks` blocks if smaller (never shrinks)
  std::uint64_t batch_blocks() const;      ///< Σ counts of table entries [0, min(BATCH_COUNT, kMaxBatch))
  void grow_buffer_for_batch();
  /// Accepts command `op` at t0: startup (EnergyMeter::idle_until), then `sweeps` timed from
  /// t0 + startup: segments_, rows_, runs_, tip_seconds_ (MemsSeek::summarize), the done interrupt.
  void start(Time t0, std::uint32_t op, const std::vector<mems::Sweep>& sweeps);
  std::uint64_t status(Time at);
  void acknowledge();
  const Segment* segment_at(Time at) const;
  Time now_at() const;  ///< sc_time_stamp() + the register access's annotated delay (access_at_)

  mems::MemsParams params_;
  mems::MemsSeek seek_;
  MemsParameterPage page_;
  BackingStore store_;
  SectorBuffer buffer_;  ///< the sector buffer's bytes and bus paths (hw_models/sector_buffer.h)
  std::uint64_t lbn_ = 0;
  std::uint32_t count_ = 0;
  mems_regs::TargetBurst target_{};
  std::uint32_t batch_count_ = 0;
  std::array<mems_regs::BatchEntry, mems_regs::kMaxBatch> batch_{};  ///< the batch table as written
  // The command in progress or last completed.
  bool busy_ = false;
  bool done_pending_ = false;
  bool error_ = false;
  std::uint32_t op_ = 0;
  std::uint64_t cmd_lbn_ = 0;
  std::uint32_t cmd_count_ = 0;
  std::vector<mems_regs::BatchEntry> cmd_batch_;  ///< the entries of the batch in progress
  Time access_start_{0}, startup_{0}, positioning_end_{0}, access_end_{0};
  std::uint32_t rows_ = 0, runs_ = 0;
  double tip_seconds_ = 0;
  std::vector<Segment> segments_;
  std::vector<mems::Sweep> sweeps_;  ///< scratch: the sweeps of the command being accepted
  mems::SledState sled_;             ///< at the end of the last completed command
  Time idle_since_{0};
  mems::EnergyMeter meter_;  ///< committed up to access_start_ while busy, to idle_since_ after
  double last_command_joules_ = 0;
  std::uint64_t completed_ = 0;
  RegisterBank regs_;
  Time access_at_{0};  ///< the time of the register access being served (b_transport)

  // --- waveforms (only with a tracer tracing TraceGroup::Sled) ---
  enum class Wave : std::uint8_t { X, Y, Settling, Transferring, Tips, Power, Startup };
  struct WaveChange {
    Time at;
    Wave signal;
    double value;
  };
  /// Lists the value changes of the command just accepted (segments_, from t0) and wakes the method.
  void trace_command(Time t0);
  /// The SC_METHOD: writes the changes due now, sleeps until the next one.
  void trace_sled();
  void apply(const WaveChange& c);
  bool tracing_ = false;
  std::vector<WaveChange> waves_;  ///< pending changes from waves_next_, in time order
  std::size_t waves_next_ = 0;
  sc_core::sc_event wave_event_;
  Traced<double> wave_x_nm_{0.0};
  Traced<double> wave_y_nm_{0.0};
  Traced<bool> wave_settling_{false};
  Traced<bool> wave_transferring_{false};
  Traced<std::uint32_t> wave_tips_{0};
  Traced<std::uint8_t> wave_power_{static_cast<std::uint8_t>(mems::SledPowerState::Idle)};
  Traced<bool> wave_startup_{false};
};

}  // namespace drivevp
