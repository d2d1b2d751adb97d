#include "firmware/controller/mems_driver.h"

#include <cstddef>

#include "tlm_bus/devices/mems_page.h"
#include "tlm_bus/devices/mems_registers.h"
#include "tlm_bus/param_page.h"
#include "tlm_bus/sc/address_map.h"
#include "tlm_bus/sc/time.h"

namespace drivevp {

namespace {
// Register addresses on the bus: the device's block base (address_map.h) + its register map.
constexpr std::uint64_t kLbn = amap::kMems + mems_regs::kLbn;
constexpr std::uint64_t kCount = amap::kMems + mems_regs::kCount;
constexpr std::uint64_t kCommand = amap::kMems + mems_regs::kCommand;
constexpr std::uint64_t kIrqAck = amap::kMems + mems_regs::kIrqAck;
constexpr std::uint64_t kSled = amap::kMems + mems_regs::kSledXNm;
constexpr std::uint64_t kTarget = amap::kMems + mems_regs::kTargetSled;
constexpr std::uint64_t kBatchCount = amap::kMems + mems_regs::kBatchCount;
constexpr std::uint64_t kBatchTable = amap::kMems + mems_regs::kBatchTable;
constexpr std::uint64_t kPowerState = amap::kMems + mems_regs::kPowerState;
}  // namespace

MemsMediaDriver::MemsMediaDriver(sc_core::sc_module_name name, ControllerServices& services, InterruptLine& done)
    : sc_module(name), services_(services), done_(done), predictor_(mems::mems_g1()) {
  SC_HAS_PROCESS(MemsMediaDriver);
  SC_METHOD(on_done);
  sensitive << done_.event();
  dont_initialize();
}

MediaDriverFactory MemsMediaDriver::factory(InterruptLine& done) {
  return [&done](ControllerServices& services) -> std::unique_ptr<MediaDriver> {
    return std::make_unique<MemsMediaDriver>("media", services, done);
  };
}

std::vector<std::string> MemsMediaDriver::state_names() const {
  return {"Idle", "Accessing", "Repositioning"};  // State, in value order
}

void MemsMediaDriver::set_state(State s) {
  state_ = s;
  services_.set_media_state(static_cast<std::uint8_t>(s));
}

void MemsMediaDriver::boot() {
  MemsParameterPage page;
  services_.bus_access(tlm::TLM_READ_COMMAND, amap::kParamPage, &page, sizeof page);
  if (page.header.magic != ParameterPageHeader::kMagic || page.header.kind != DeviceKind::Mems)
    SC_REPORT_ERROR(name(), "the device's parameter page is not a MEMS page (wrong magic or device kind)");
  // One register read times a bus access (the loosely-timed offset it adds): the unit of the
  // firmware's command path.
  const sc_core::sc_time before = services_.offset();
  (void)services_.read_reg(kPowerState, 4);
  bus_access_time_ = to_time(services_.offset() - before);
  try {
    predictor_ = MemsPredictor(page);
  } catch (const std::invalid_argument& e) {
    SC_REPORT_ERROR(name(), e.what());
  }
  predictor_.set_command_path(command_path());
  read_sled();
  sled_.idle_since = Time{0};
}

MemsCommandPath MemsMediaDriver::command_path() const {
  // Mirrors serve(): a read's access burst; a write's COUNT write, data DMA (through DMI: the
  // grant's latency plus one transaction; else two through the staging buffer) and access burst.
  // The device accepts the command at the annotated time of the burst, its own latency included.
  const Time a = bus_access_time_;
  const std::optional<Time> dmi = services_.dmi_write_latency();
  const Time dma = dmi ? *dmi + a : a + a;
  return {a, a + dma + a};
}

void MemsMediaDriver::read_sled() {
  // The position registers only (SLED_X_NM, SLED_Y_NM, SLED_Y_DIRECTION: the first 20 B of the
  // sled burst); the tips, power state and energy registers are not needed here.
  mems_regs::SledBurst s{};
  services_.bus_access(tlm::TLM_READ_COMMAND, kSled, &s, offsetof(mems_regs::SledBurst, active_tips));
  sled_.state = {s.x_nm, s.y_nm, s.y_direction < 0 ? -1 : +1};
}

void MemsMediaDriver::serve(std::vector<MediaResult>& batch) {
  if (batch.empty()) SC_REPORT_ERROR(name(), "a Serve decision with no command");
  if (batch.size() > mems_regs::kMaxBatch)
    SC_REPORT_ERROR(name(), "a batch decision of more commands than the device's batch table holds");
  batch_.swap(batch);
  batch.clear();
  offsets_.assign(batch_.size(), 0);
  std::uint64_t blocks = 0;
  const std::uint32_t from_x = predictor_.indices(sled_.state).x;
  for (std::size_t i = 0; i < batch_.size(); ++i) {
    MediaResult& r = batch_[i];
    const MemsLocation loc = predictor_.locate(r.command.lbn);
    r.log.cylinder = loc.x;
    r.log.head = loc.y;
    r.log.seek_distance = loc.x > from_x ? loc.x - from_x : from_x - loc.x;
    offsets_[i] = blocks * kBlockBytes;
    blocks += r.command.blocks;
  }
  set_state(State::Accessing);
  if (batch_.size() == 1) {
    const Command& c = batch_[0].command;
    if (!c.is_read()) {  // write data into the sector buffer (COUNT sizes it)
      services_.write_reg(kCount, c.blocks, 4);
      services_.dma(c, false, std::size_t{c.blocks} * kBlockBytes);
    }
    mems_regs::AccessBurst access{c.lbn, c.blocks, c.is_read() ? mems_regs::kCmdRead : mems_regs::kCmdWrite};
    services_.bus_access(tlm::TLM_WRITE_COMMAND, kLbn, &access, sizeof access, &c);
    return;
  }
  std::vector<mems_regs::BatchEntry> table(batch_.size());
  for (std::size_t i = 0; i < batch_.size(); ++i) {
    const Command& c = batch_[i].command;
    table[i] = {c.lbn, c.blocks, c.is_read() ? mems_regs::kCmdRead : mems_regs::kCmdWrite};
  }
  services_.bus_access(tlm::TLM_WRITE_COMMAND, kBatchTable, table.data(), table.size() * sizeof table[0]);
  services_.write_reg(kBatchCount, table.size(), 4);
  services_.write_reg(kCount, blocks, 4);
  for (std::size_t i = 0; i < batch_.size(); ++i) {
    const Command& c = batch_[i].command;
    if (!c.is_read()) services_.dma(c, false, std::size_t{c.blocks} * kBlockBytes, offsets_[i]);
  }
  services_.write_reg(kCommand, mems_regs::kCmdBatch, 4, &batch_[0].command);
}

void MemsMediaDriver::reposition(const Decision& decision) {
  set_state(State::Repositioning);
  const MemsIndices at = predictor_.indices(sled_.state);
  mems_regs::TargetBurst target{0, decision.sweep_coordinate, 0, at.y, 0};
  services_.bus_access(tlm::TLM_WRITE_COMMAND, kTarget, &target, sizeof target);
  services_.write_reg(kCommand, mems_regs::kCmdMove | mems_regs::kCmdUseTarget, 4);
}

void MemsMediaDriver::on_done() {
  if (!done_.take()) return;
  services_.reset_offset();
  // One burst from IRQ_ACK (read: status, then acknowledge) and the access's log; then, unless
  // the device reports an error, the sled's position (read_sled()). When the transactions are not
  // observed the two adjacent bursts are read as one and the second read's bus access time is
  // spent on the offset: the same values (the device is idle after its done interrupt, so the
  // sled's registers read the same one bus access later) and the same times.
  mems_regs::DoneSledBurst both{};
  const bool merged = !services_.transactions_observed();
  if (merged)
    services_.bus_access(tlm::TLM_READ_COMMAND, kIrqAck, &both, sizeof both);
  else
    services_.bus_access(tlm::TLM_READ_COMMAND, kIrqAck, &both.done, sizeof both.done);
  const mems_regs::AccessDoneBurst& ack = both.done;
  if (state_ == State::Idle) return;  // not expected: acknowledged above
  const bool error = (ack.status & mems_regs::kStatusError) != 0;
  if (!error) {
    if (merged) {
      services_.offset() += to_sc_in_run(bus_access_time_);
      sled_.state = {both.x_nm, both.y_nm, both.y_direction < 0 ? -1 : +1};
    } else {
      read_sled();
    }
    sled_.idle_since = Time{static_cast<std::int64_t>(ack.access_end_ps)};
  }
  if (state_ == State::Repositioning) {
    set_state(State::Idle);
    services_.reposition_done();
    return;
  }
  for (std::size_t i = 0; i < batch_.size(); ++i) {
    MediaResult& r = batch_[i];
    if (error) {
      r.status = amap::kStatusMediaError;
      continue;
    }
    r.log.seek_start_ps = static_cast<std::int64_t>(ack.access_start_ps);
    r.log.seek_end_ps = static_cast<std::int64_t>(ack.positioning_end_ps);
    r.log.transfer_start_ps = static_cast<std::int64_t>(ack.positioning_end_ps);
    r.log.transfer_end_ps = static_cast<std::int64_t>(ack.access_end_ps);
    if (r.command.is_read()) services_.dma(r.command, true, std::size_t{r.command.blocks} * kBlockBytes, offsets_[i]);
  }
  set_state(State::Idle);
  finished_.swap(batch_);  // the buffers circulate: no allocation per access
  batch_.clear();
  services_.access_done(finished_);
}

}  // namespace drivevp
