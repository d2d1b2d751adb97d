#include "hw_models/mems/sc/mems_device.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <limits>
#include <string>

#include "hw_models/mems/mems_page.h"
#include "tlm_bus/copy_bytes.h"
#include "tlm_bus/sc/time.h"

namespace drivevp {

namespace {

// Idle from the meter's time to `at`: Idle up to the timeout, Inactive after (no startup counted).
void idle_to(mems::EnergyMeter& m, const mems::MemsParams& p, Time at) {
  if (at <= m.now()) return;
  const Time gap = at - m.now();
  m.advance(m.now() + std::min(gap, p.time_before_inactive()), mems::SledPowerState::Idle);
  if (gap > p.time_before_inactive()) m.advance(at, mems::SledPowerState::Inactive);
}

}  // namespace

const mems::MemsParams& MemsDevice::validated(const mems::MemsParams& p) {
  p.validate();
  return p;
}

MemsDevice::MemsDevice(sc_core::sc_module_name name, const mems::MemsParams& params, mems::SeekMethod method,
                       Tracer* tracer)
    : sc_module(name),
      socket("socket"),
      buffer_socket("buffer_socket"),
      param_socket("param_socket"),
      params_(validated(params)),
      seek_(params_, method),
      page_(mems::make_mems_page(params_, method)),
      meter_(params_) {
  namespace r = mems_regs;
  socket.register_b_transport(this, &MemsDevice::b_transport);
  buffer_socket.register_b_transport(this, &MemsDevice::buffer_transport);
  buffer_socket.register_get_direct_mem_ptr(this, &MemsDevice::get_direct_mem_ptr);
  param_socket.register_b_transport(this, &MemsDevice::param_transport);
  auto u64 = [](auto v) { return static_cast<std::uint64_t>(v); };
  auto i64 = [](std::int64_t v) { return static_cast<std::uint64_t>(v); };
  regs_.add(
      "LBN", r::kLbn, 8, [this] { return lbn_; }, [this](std::uint64_t v, tlm::tlm_generic_payload&) { lbn_ = v; });
  regs_.add(
      "COUNT", r::kCount, 4, [this, u64] { return u64(count_); },
      [this](std::uint64_t v, tlm::tlm_generic_payload&) {
        count_ = static_cast<std::uint32_t>(v);
        grow_buffer(count_);
      });
  regs_.add("COMMAND", r::kCommand, 4, nullptr, [this](std::uint64_t v, tlm::tlm_generic_payload&) {
    command(static_cast<std::uint32_t>(v), regs_.access_delay());
  });
  regs_.add("STATUS", r::kStatus, 4, [this] { return status(now_at()); });
  regs_.add(
      "IRQ_ACK", r::kIrqAck, 4,
      [this] {
        const std::uint64_t s = status(now_at());
        acknowledge();
        return s;
      },
      [this](std::uint64_t, tlm::tlm_generic_payload&) { acknowledge(); });
  regs_.add("ACCESS_START_PS", r::kAccessStartPs, 8, [this, u64] { return u64(access_start_.count()); });
  regs_.add("POSITIONING_END_PS", r::kPositioningEndPs, 8, [this, u64] { return u64(positioning_end_.count()); });
  regs_.add("ACCESS_END_PS", r::kAccessEndPs, 8, [this, u64] { return u64(access_end_.count()); });
  regs_.add("STARTUP_PS", r::kStartupPs, 8, [this, u64] { return u64(startup_.count()); });
  regs_.add("ROWS", r::kRows, 4, [this, u64] { return u64(rows_); });
  regs_.add("RUNS", r::kRuns, 4, [this, u64] { return u64(runs_); });
  regs_.add("SLED_X_NM", r::kSledXNm, 8, [this, i64] { return i64(sled_state(now_at()).x_nm); });
  regs_.add("SLED_Y_NM", r::kSledYNm, 8, [this, i64] { return i64(sled_state(now_at()).y_nm); });
  regs_.add("SLED_Y_DIRECTION", r::kSledYDirection, 4, [this] {
    return std::uint64_t{static_cast<std::uint32_t>(static_cast<std::int32_t>(sled_state(now_at()).y_direction))};
  });
  regs_.add("ACTIVE_TIPS", r::kActiveTips, 4, [this, u64] { return u64(active_tips(now_at())); });
  regs_.add("POWER_STATE", r::kPowerState, 4, [this, u64] { return u64(power_state(now_at())); });
  regs_.add("STARTUPS", r::kStartups, 4, [this, u64] {
    return u64(std::min<std::uint64_t>(meter_.startups(), std::numeric_limits<std::uint32_t>::max()));
  });
  regs_.add("ENERGY_NJ", r::kEnergyNj, 8,
            [this, u64] { return u64(std::llround(energy_at(now_at()).joules() * 1e9)); });
  auto target_reg = [this](const char* reg_name, std::uint64_t off, std::uint32_t mems_regs::TargetBurst::*field) {
    regs_.add(
        reg_name, off, 4, [this, field] { return std::uint64_t{target_.*field}; },
        [this, field](std::uint64_t v, tlm::tlm_generic_payload&) { target_.*field = static_cast<std::uint32_t>(v); });
  };
  target_reg("TARGET_SLED", r::kTargetSled, &mems_regs::TargetBurst::sled);
  target_reg("TARGET_CYLINDER", r::kTargetCylinder, &mems_regs::TargetBurst::cylinder);
  target_reg("TARGET_COLUMN", r::kTargetColumn, &mems_regs::TargetBurst::column);
  target_reg("TARGET_ROW", r::kTargetRow, &mems_regs::TargetBurst::row);
  target_reg("TARGET_CELL", r::kTargetCell, &mems_regs::TargetBurst::cell);
  regs_.add(
      "BATCH_COUNT", r::kBatchCount, 4, [this, u64] { return u64(batch_count_); },
      [this](std::uint64_t v, tlm::tlm_generic_payload&) {
        batch_count_ = static_cast<std::uint32_t>(v);
        grow_buffer_for_batch();
      });
  for (std::uint32_t i = 0; i < r::kMaxBatch; ++i) {
    const std::uint64_t at = r::kBatchTable + std::uint64_t{i} * sizeof(mems_regs::BatchEntry);
    const std::string n = "BATCH" + std::to_string(i);
    mems_regs::BatchEntry& e = batch_[i];
    regs_.add(
        n + "_LBN", at + offsetof(mems_regs::BatchEntry, lbn), 8, [&e] { return e.lbn; },
        [&e](std::uint64_t v, tlm::tlm_generic_payload&) { e.lbn = v; });
    regs_.add(
        n + "_COUNT", at + offsetof(mems_regs::BatchEntry, count), 4, [&e] { return std::uint64_t{e.count}; },
        [this, &e](std::uint64_t v, tlm::tlm_generic_payload&) {
          e.count = static_cast<std::uint32_t>(v);
          grow_buffer_for_batch();
        });
    regs_.add(
        n + "_OP", at + offsetof(mems_regs::BatchEntry, op), 4, [&e] { return std::uint64_t{e.op}; },
        [&e](std::uint64_t v, tlm::tlm_generic_payload&) { e.op = static_cast<std::uint32_t>(v); });
  }
  // The firmware's three bursts of every access (firmware/controller/mems_driver.cpp), each served
  // in one call doing what the registers above do in address order.
  regs_.add_burst(r::kLbn, sizeof(mems_regs::AccessBurst), false,
                  [this](unsigned char* data, tlm::tlm_generic_payload&) {
                    mems_regs::AccessBurst a;
                    std::memcpy(&a, data, sizeof a);
                    lbn_ = a.lbn;      // LBN
                    count_ = a.count;  // COUNT
                    grow_buffer(count_);
                    command(a.command, regs_.access_delay());  // COMMAND
                  });
  // The done burst (IRQ_ACK: STATUS, then acknowledge; the access's log) and the sled's position
  // (SLED_X_NM, SLED_Y_NM, SLED_Y_DIRECTION), each alone and the two together (adjacent).
  const auto done = [this](unsigned char* data) {
    mems_regs::AccessDoneBurst b;
    b.status = static_cast<std::uint32_t>(status(now_at()));
    acknowledge();
    b.access_start_ps = static_cast<std::uint64_t>(access_start_.count());
    b.positioning_end_ps = static_cast<std::uint64_t>(positioning_end_.count());
    b.access_end_ps = static_cast<std::uint64_t>(access_end_.count());
    b.startup_ps = static_cast<std::uint64_t>(startup_.count());
    b.rows = rows_;
    b.runs = runs_;
    std::memcpy(data, &b, sizeof b);
  };
  const auto sled = [this](unsigned char* data) {
    const mems::SledState s = sled_state(now_at());
    mems_regs::SledBurst b{};
    b.x_nm = s.x_nm;
    b.y_nm = s.y_nm;
    b.y_direction = static_cast<std::int32_t>(s.y_direction);
    std::memcpy(data, &b, offsetof(mems_regs::SledBurst, active_tips));
  };
  regs_.add_burst(r::kIrqAck, sizeof(mems_regs::AccessDoneBurst), true,
                  [done](unsigned char* data, tlm::tlm_generic_payload&) { done(data); });
  regs_.add_burst(r::kSledXNm, offsetof(mems_regs::SledBurst, active_tips), true,
                  [sled](unsigned char* data, tlm::tlm_generic_payload&) { sled(data); });
  regs_.add_burst(r::kIrqAck, sizeof(mems_regs::DoneSledBurst), true,
                  [done, sled](unsigned char* data, tlm::tlm_generic_payload&) {
                    done(data);
                    sled(data + offsetof(mems_regs::DoneSledBurst, x_nm));
                  });
  if (tracer && tracer->enabled(TraceGroup::Sled)) {
    const std::string p = std::string(basename()) + ".sled";
    const TraceGroup g = TraceGroup::Sled;
    tracer->add(g, wave_x_nm_, p + ".x_nm", WaveFormat::AnalogInterpolated);
    tracer->add(g, wave_y_nm_, p + ".y_nm", WaveFormat::AnalogInterpolated);
    tracer->add(g, wave_settling_, p + ".settling", WaveFormat::Binary, 1);
    tracer->add(g, wave_tips_, p + ".active_tips", WaveFormat::AnalogStep, 32);
    tracer->add(g, wave_transferring_, p + ".transferring", WaveFormat::Binary, 1);
    tracer->add(g, wave_power_, p + ".power_state", WaveFormat::Decimal, 8, {"Inactive", "Idle", "Active"});
    tracer->add(g, wave_startup_, p + ".startup", WaveFormat::Binary, 1);
    tracing_ = true;
    // Idle from time 0: inactive after the timeout unless a command comes first.
    waves_.push_back(
        {params_.time_before_inactive(), Wave::Power, static_cast<double>(mems::SledPowerState::Inactive)});
    SC_HAS_PROCESS(MemsDevice);
    SC_METHOD(trace_sled);  // runs once at time 0 (no dont_initialize) to schedule the first change
    sensitive << wave_event_;
  }
}

void MemsDevice::grow_buffer(std::uint64_t blocks) {
  if (buffer_.bytes.size() < blocks * kBlockBytes) {
    buffer_.bytes.resize(blocks * kBlockBytes);
    buffer_socket->invalidate_direct_mem_ptr(0, ~std::uint64_t{0});  // the buffer moved
  }
}

std::uint64_t MemsDevice::batch_blocks() const {
  std::uint64_t sum = 0;
  for (std::uint32_t i = 0; i < std::min(batch_count_, mems_regs::kMaxBatch); ++i) sum += batch_[i].count;
  return sum;
}

void MemsDevice::grow_buffer_for_batch() {
  // The entries' slots back to back; a batch of more blocks than the device holds is refused anyway.
  const std::uint64_t blocks = batch_blocks();
  if (blocks <= seek_.layout().capacity()) grow_buffer(blocks);
}

Time MemsDevice::now_at() const { return access_at_; }

void MemsDevice::b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
  access_at_ = sim_now() + to_time(delay);  // the registers serve the whole access at this time
  catch_up(access_at_);
  regs_.access(trans, trans.get_address(), delay);
}

void MemsDevice::param_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time&) {
  const std::uint64_t off = trans.get_address();
  const std::uint64_t len = trans.get_data_length();
  if (!trans.is_read() || off > sizeof(MemsParameterPage) || len > sizeof(MemsParameterPage) - off) {
    trans.set_response_status(trans.is_read() ? tlm::TLM_ADDRESS_ERROR_RESPONSE : tlm::TLM_COMMAND_ERROR_RESPONSE);
    return;
  }
  std::memcpy(trans.get_data_ptr(), reinterpret_cast<const std::uint8_t*>(&page_) + off, len);
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

bool MemsDevice::get_direct_mem_ptr(tlm::tlm_generic_payload&, tlm::tlm_dmi& dmi) {
  catch_up(sim_now());
  return buffer_.grant_dmi(dmi);
}

void MemsDevice::buffer_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
  catch_up(sim_now() + to_time(delay));
  buffer_.transport(trans);
}

void MemsDevice::refuse(const sc_core::sc_time& delay) {
  error_ = true;
  done_pending_ = true;
  done_irq.raise(delay);
}

void MemsDevice::command(std::uint32_t value, const sc_core::sc_time& delay) {
  namespace r = mems_regs;
  const Time t0 = sim_now() + to_time(delay);
  catch_up(t0);
  const std::uint32_t op = value & 0xFFu;
  const bool use_target = (value & r::kCmdUseTarget) != 0;
  if (busy_ || (value & ~(0xFFu | r::kCmdUseTarget)) != 0 ||
      (op != r::kCmdRead && op != r::kCmdWrite && op != r::kCmdMove && op != r::kCmdBatch))
    return refuse(delay);
  const mems::MemsLayout& L = seek_.layout();
  if (op == r::kCmdBatch) {
    if (use_target || batch_count_ < 1 || batch_count_ > r::kMaxBatch) return refuse(delay);
    std::vector<mems::BatchSpan> spans;
    std::uint64_t blocks = 0;
    for (std::uint32_t i = 0; i < batch_count_; ++i) {
      const mems_regs::BatchEntry& e = batch_[i];
      if (e.count == 0 || (e.op != r::kCmdRead && e.op != r::kCmdWrite) || e.lbn >= L.capacity() ||
          e.count > L.capacity() - e.lbn)
        return refuse(delay);
      spans.push_back({e.lbn, e.count});
      blocks += e.count;
    }
    if (blocks > L.capacity() || seek_.batch_conflict(spans)) return refuse(delay);
    grow_buffer(blocks);
    cmd_batch_.assign(batch_.begin(), batch_.begin() + batch_count_);
    sweeps_ = seek_.batch_sweeps(sled_, spans);
    return start(t0, op, sweeps_);
  }
  std::uint64_t lbn = lbn_;
  if (use_target) {
    const mems_regs::TargetBurst& g = target_;
    if (g.sled >= L.sleds() || g.cylinder >= L.cylinders() || g.column >= L.columns_per_cylinder() ||
        g.row >= L.rows_per_column() || g.cell >= L.cells_per_row())
      return refuse(delay);
    // TARGET_ROW is the physical row; the row reversal is its own inverse.
    lbn = L.lbn({g.sled, g.cylinder, g.column, L.physical_row(g.cylinder, g.column, g.row), g.cell});
  }
  const std::uint32_t count = op == r::kCmdMove ? 1 : count_;
  if (count == 0 || lbn >= L.capacity() || count > L.capacity() - lbn) return refuse(delay);
  lbn_ = lbn;
  cmd_lbn_ = lbn;
  cmd_count_ = count;
  if (op == r::kCmdMove) {
    // Position to the first block's pass, no transfer: one sweep of 0 rows.
    const mems::BlockPosition b = L.position(lbn);
    const int dir = seek_.direction(b.address);
    const mems::AccessPass pass = dir > 0 ? b.up : b.down;
    sweeps_.clear();
    mems::Sweep& m = sweeps_.emplace_back();
    m.from = sled_;
    m.positioning = seek_.position(sled_, b.x_nm, pass);
    m.start = m.end = {b.x_nm, pass.y_servo_nm, dir};
  } else {
    seek_.sweeps(sled_, lbn, count, sweeps_);
  }
  start(t0, op, sweeps_);
}

void MemsDevice::start(Time t0, std::uint32_t op, const std::vector<mems::Sweep>& sweeps) {
  error_ = false;
  op_ = op;
  access_start_ = t0;
  startup_ = meter_.idle_until(t0);
  segments_.clear();
  // The sum of the sweeps' terms equals MemsSeek::access(sled, lbn, count).total() exactly (the
  // same per-run terms, summed in integer picoseconds).
  const mems::MediaAccess m = seek_.summarize(sweeps);
  rows_ = m.rows;
  runs_ = m.runs;
  tip_seconds_ = m.tip_seconds;
  Time t = t0 + startup_;
  for (const mems::Sweep& w : sweeps) {
    const Time pos_end = t + w.positioning.total();
    segments_.push_back({t, pos_end, pos_end + w.transfer, w});
    t = pos_end + w.transfer;
  }
  positioning_end_ = segments_.front().pos_end;
  access_end_ = t;
  busy_ = true;
  done_irq.raise(to_sc_in_run(access_end_ - sim_now()));
  if (tracing_) trace_command(t0);
}

void MemsDevice::trace_command(Time t0) {
  // Changes not yet written that lie after t0 belong to the idle future this command replaces
  // (the Inactive step); earlier ones (the last command's end) are still to be written.
  waves_.erase(waves_.begin(), waves_.begin() + static_cast<std::ptrdiff_t>(waves_next_));
  waves_next_ = 0;
  waves_.erase(std::remove_if(waves_.begin(), waves_.end(), [t0](const WaveChange& c) { return c.at > t0; }),
               waves_.end());
  std::vector<WaveChange> add;
  const auto put = [&add](Time at, Wave w, double v) { add.push_back({at, w, v}); };
  put(t0, Wave::Power, static_cast<double>(mems::SledPowerState::Active));
  if (startup_ > Time{0}) {
    put(t0, Wave::Startup, 1);
    put(t0 + startup_, Wave::Startup, 0);
  }
  // X and Y as piecewise-linear vertices (time, exact value); written below where they change.
  std::vector<std::pair<Time, double>> xs, ys;
  for (const Segment& g : segments_) {
    const mems::Sweep& w = g.sweep;
    const mems::Positioning& p = w.positioning;
    const auto x0 = static_cast<double>(w.from.x_nm), x1 = static_cast<double>(w.start.x_nm);
    const auto y0 = static_cast<double>(w.from.y_nm), y1 = static_cast<double>(w.start.y_nm);
    xs.push_back({g.pos_start, x0});
    xs.push_back({g.pos_start + p.x_seek, x1});
    ys.push_back({g.pos_start, y0});
    ys.push_back({g.pos_start + p.start_turnaround, y0});
    ys.push_back({g.pos_start + p.start_turnaround + p.y_seek, y1});
    ys.push_back({g.pos_end, y1});
    ys.push_back({g.sweep_end, static_cast<double>(w.end.y_nm)});
    if (p.settle > Time{0}) {
      put(g.pos_start + p.x_seek, Wave::Settling, 1);
      put(g.pos_start + p.x_seek + p.settle, Wave::Settling, 0);
    }
    if (g.sweep_end > g.pos_end) {
      put(g.pos_end, Wave::Transferring, 1);
      put(g.pos_end, Wave::Tips, w.max_active_tips);
      put(g.sweep_end, Wave::Transferring, 0);
      put(g.sweep_end, Wave::Tips, 0);
    }
  }
  // A vertex whose value is already shown records no change in a VCD: when a ramp starts there,
  // write the value one ulp towards the next vertex so that the ramp starts on time.
  const auto ramp = [&put](std::vector<std::pair<Time, double>> v, Wave w, double shown) {
    // Vertices at the same time carry the same value (the motion is continuous): keep one.
    v.erase(std::unique(v.begin(), v.end(), [](const auto& a, const auto& b) { return a.first == b.first; }), v.end());
    for (std::size_t i = 0; i < v.size(); ++i) {
      const auto [at, value] = v[i];
      if (value != shown) {
        put(at, w, value);
        shown = value;
      } else if (i + 1 < v.size() && v[i + 1].second != value) {
        shown = std::nextafter(value, v[i + 1].second);
        put(at, w, shown);
      }
    }
  };
  ramp(xs, Wave::X, static_cast<double>(segments_.front().sweep.from.x_nm));
  ramp(ys, Wave::Y, static_cast<double>(segments_.front().sweep.from.y_nm));
  put(access_end_, Wave::Power, static_cast<double>(mems::SledPowerState::Idle));
  put(access_end_ + params_.time_before_inactive(), Wave::Power, static_cast<double>(mems::SledPowerState::Inactive));
  std::stable_sort(add.begin(), add.end(), [](const WaveChange& a, const WaveChange& b) { return a.at < b.at; });
  waves_.insert(waves_.end(), add.begin(), add.end());
  wave_event_.notify(to_sc(std::max(Time{0}, waves_.front().at - sim_now())));
}

void MemsDevice::trace_sled() {
  const Time now = sim_now();
  while (waves_next_ < waves_.size() && waves_[waves_next_].at <= now) apply(waves_[waves_next_++]);
  if (waves_next_ < waves_.size()) wave_event_.notify(to_sc(waves_[waves_next_].at - now));
}

void MemsDevice::apply(const WaveChange& c) {
  switch (c.signal) {
    case Wave::X:
      wave_x_nm_ = c.value;
      break;
    case Wave::Y:
      wave_y_nm_ = c.value;
      break;
    case Wave::Settling:
      wave_settling_ = c.value != 0;
      break;
    case Wave::Transferring:
      wave_transferring_ = c.value != 0;
      break;
    case Wave::Tips:
      wave_tips_ = static_cast<std::uint32_t>(c.value);
      break;
    case Wave::Power:
      wave_power_ = static_cast<std::uint8_t>(c.value);
      break;
    case Wave::Startup:
      wave_startup_ = c.value != 0;
      break;
  }
}

void MemsDevice::catch_up(Time at) {
  if (!busy_ || at < access_end_) return;
  namespace r = mems_regs;
  if (op_ == r::kCmdWrite) {
    store_.write(cmd_lbn_, cmd_count_, buffer_.bytes.data());
  } else if (op_ == r::kCmdRead) {
    store_.read(cmd_lbn_, cmd_count_, buffer_.bytes.data());
  } else if (op_ == r::kCmdBatch) {
    // Each entry's data in its slot, the slots back to back in table order; moved in table order.
    std::uint8_t* slot = buffer_.bytes.data();
    for (const mems_regs::BatchEntry& e : cmd_batch_) {
      if (e.op == r::kCmdWrite)
        store_.write(e.lbn, e.count, slot);
      else
        store_.read(e.lbn, e.count, slot);
      slot += std::uint64_t{e.count} * kBlockBytes;
    }
  }
  const double active_before = meter_.joules_in(mems::SledPowerState::Active);
  meter_.advance(access_end_, mems::SledPowerState::Active);
  meter_.add_tip_seconds(tip_seconds_);
  last_command_joules_ = meter_.joules_in(mems::SledPowerState::Active) - active_before;
  sled_ = segments_.back().sweep.end;
  idle_since_ = access_end_;
  busy_ = false;
  done_pending_ = true;
  error_ = false;  // STATUS describes the command that finished last (a refusal while busy is past)
  ++completed_;
}

const MemsDevice::Segment* MemsDevice::segment_at(Time at) const {
  if (!busy_ || at >= access_end_) return nullptr;
  for (const Segment& s : segments_)
    if (at < s.sweep_end) return &s;
  return nullptr;
}

mems::SledState MemsDevice::sled_state(Time at) {
  catch_up(at);
  if (!busy_) return sled_;
  const Segment* s = segment_at(at);
  if (!s || at < s->pos_end) return s ? s->sweep.from : sled_;
  // Sweeping at the access velocity from the sweep's start towards its end, rounded to the nm.
  const mems::SledState& a = s->sweep.start;
  const double moved = seek_.access_velocity_nm_s() * to_s(at - s->pos_end);
  const std::int64_t span = s->sweep.end.y_nm - a.y_nm;
  const std::int64_t step = std::min<std::int64_t>(std::llround(moved), span < 0 ? -span : span);
  return {a.x_nm, a.y_nm + a.y_direction * step, a.y_direction};
}

Time MemsDevice::idle_since(Time at) {
  catch_up(at);
  return idle_since_;
}

bool MemsDevice::busy(Time at) {
  catch_up(at);
  return busy_;
}

mems::SledPowerState MemsDevice::power_state(Time at) {
  catch_up(at);
  if (busy_ && at >= access_start_) return mems::SledPowerState::Active;
  return at - idle_since_ >= params_.time_before_inactive() ? mems::SledPowerState::Inactive
                                                            : mems::SledPowerState::Idle;
}

std::uint32_t MemsDevice::active_tips(Time at) {
  catch_up(at);
  const Segment* s = segment_at(at);
  return s && at >= s->pos_end ? s->sweep.max_active_tips : 0;
}

mems::EnergyMeter MemsDevice::energy_at(Time at) {
  catch_up(at);
  mems::EnergyMeter m = meter_;
  if (busy_) {
    if (at > m.now()) m.advance(std::min(at, access_end_), mems::SledPowerState::Active);
  } else {
    idle_to(m, params_, at);
  }
  return m;
}

std::uint64_t MemsDevice::status(Time at) {
  namespace r = mems_regs;
  catch_up(at);
  std::uint64_t s =
      (busy_ ? r::kStatusBusy : 0u) | (done_pending_ ? r::kStatusDonePending : 0u) | (error_ ? r::kStatusError : 0u);
  if (busy_ && at >= access_start_ && at < access_start_ + startup_) s |= r::kStatusStartup;
  if (active_tips(at) > 0) s |= r::kStatusTransferring;
  return s;
}

void MemsDevice::acknowledge() {
  done_pending_ = false;
  done_irq.lower(regs_.access_delay());
}

}  // namespace drivevp
