#include "firmware/controller/disk_driver.h"

#include "tlm_bus/devices/disk_registers.h"
#include "tlm_bus/param_page.h"
#include "tlm_bus/sc/time.h"

namespace drivevp {

namespace {
// Device register addresses on the bus: block bases (address_map.h) + the disk's register map
// (tlm_bus/devices/disk_registers.h, docs/registers.md).
constexpr std::uint64_t kSpindleIndexTime = amap::kSpindle + disk_regs::spindle::kIndexTimePs;
constexpr std::uint64_t kActTargetCyl = amap::kActuator + disk_regs::actuator::kTargetCylinder;
constexpr std::uint64_t kActCylinder = amap::kActuator + disk_regs::actuator::kCylinder;
constexpr std::uint64_t kActIrqAck = amap::kActuator + disk_regs::actuator::kIrqAck;
constexpr std::uint64_t kChLbn = amap::kChannel + disk_regs::channel::kLbn;
constexpr std::uint64_t kChCount = amap::kChannel + disk_regs::channel::kCount;
constexpr std::uint64_t kChIrqAck = amap::kChannel + disk_regs::channel::kIrqAck;
}  // namespace

DiskMediaDriver::DiskMediaDriver(sc_core::sc_module_name name, ControllerServices& services, InterruptLine& seek_done,
                                 InterruptLine& transfer_done)
    : sc_module(name), services_(services), seek_done_(seek_done), transfer_done_(transfer_done) {
  SC_HAS_PROCESS(DiskMediaDriver);
  SC_METHOD(on_seek_done);
  sensitive << seek_done_.event();
  dont_initialize();
  SC_METHOD(on_transfer_done);
  sensitive << transfer_done_.event();
  dont_initialize();
}

MediaDriverFactory DiskMediaDriver::factory(InterruptLine& seek_done, InterruptLine& transfer_done) {
  return [&seek_done, &transfer_done](ControllerServices& services) -> std::unique_ptr<MediaDriver> {
    return std::make_unique<DiskMediaDriver>("media", services, seek_done, transfer_done);
  };
}

std::vector<std::string> DiskMediaDriver::state_names() const {
  return {"Idle", "Seeking", "Transferring", "Repositioning"};  // State, in value order
}

void DiskMediaDriver::set_state(State s) {
  state_ = s;
  services_.set_media_state(static_cast<std::uint8_t>(s));
}

void DiskMediaDriver::boot() {
  ParameterPage page;
  services_.bus_access(tlm::TLM_READ_COMMAND, amap::kParamPage, &page, sizeof page);
  // The index-time read also times one register access on the bus (the loosely-timed offset it
  // adds): the unit of the firmware's own command path, which the predictor must count.
  const sc_core::sc_time before = services_.offset();
  const Time index = Time{static_cast<std::int64_t>(services_.read_reg(kSpindleIndexTime, 8))};
  bus_access_time_ = to_time(services_.offset() - before);
  predictor_ = DiskPredictor(page, index);
  predictor_.set_command_path(command_path());
  head_ = {0, 0};
}

CommandPath DiskMediaDriver::command_path() const {
  // Mirrors start_command(), the controller's dma() and on_seek_done(): the bus accesses between
  // the decision (after the command overhead) and the actuator's seek start, and between the
  // seek-done interrupt and the channel's start. The actuator and the channel act at the
  // annotated time of the access that commands them, which includes that access's own latency.
  const Time a = bus_access_time_;
  // Write data DMA: through DMI, the latest grant's latency plus one transaction; before the
  // first grant or after a refusal, two transactions through the staging buffer. (The router
  // grants its own latency, one access: the sector buffer adds none, so the two agree.)
  const std::optional<Time> dmi = services_.dmi_write_latency();
  const Time dma = dmi ? *dmi + a : a + a;
  CommandPath path;
  path.read_to_seek = a;             // the seek burst
  path.write_to_seek = a + dma + a;  // COUNT write, data DMA, seek burst
  path.seek_to_transfer = a + a;     // IRQ_ACK read burst, LBN/COUNT/COMMAND burst
  return path;
}

void DiskMediaDriver::serve(std::vector<MediaResult>& batch) {
  if (batch.empty()) SC_REPORT_ERROR(name(), "a Serve decision with no command");
  batch_.swap(batch);
  batch.clear();
  index_ = 0;
  merged_ = contiguous_run();
  merged_blocks_ = 0;
  if (merged_)
    for (const MediaResult& r : batch_) merged_blocks_ += r.command.blocks;
  start_command();
}

bool DiskMediaDriver::contiguous_run() const {
  if (batch_.size() < 2) return false;
  std::uint64_t blocks = batch_[0].command.blocks;
  for (std::size_t i = 1; i < batch_.size(); ++i) {
    const Command& prev = batch_[i - 1].command;
    const Command& c = batch_[i].command;
    if (c.op != prev.op || c.lbn != prev.end_lbn()) return false;
    blocks += c.blocks;
  }
  return blocks <= UINT32_MAX;  // the channel's COUNT register
}

void DiskMediaDriver::start_command() {
  MediaResult& r = batch_[index_];
  const Command& c = r.command;
  const PhysicalAddress target = predictor_.geometry().locate(c.lbn);
  r.log.cylinder = target.cylinder;
  r.log.head = target.head;
  if (!c.is_read()) {  // write data into the channel's sector buffer (COUNT sizes it)
    if (merged_) {     // every command's data at its offset in the one transfer
      services_.write_reg(kChCount, merged_blocks_, 4);
      std::uint64_t offset = 0;
      for (const MediaResult& m : batch_) {
        services_.dma(m.command, false, std::size_t{m.command.blocks} * kBlockBytes, offset);
        offset += std::uint64_t{m.command.blocks} * kBlockBytes;
      }
    } else {
      services_.write_reg(kChCount, c.blocks, 4);
      services_.dma(c, false, std::size_t{c.blocks} * kBlockBytes);
    }
  }
  set_state(State::Seeking);
  // One burst: TARGET_CYLINDER, TARGET_HEAD, COMMAND = seek.
  disk_regs::SeekBurst seek{target.cylinder, target.head,
                            c.is_read() ? disk_regs::actuator::kCmdSeek : disk_regs::actuator::kCmdSeekWrite};
  services_.bus_access(tlm::TLM_WRITE_COMMAND, kActTargetCyl, &seek, sizeof seek, &c);
}

void DiskMediaDriver::next_or_finish() {
  if (++index_ < batch_.size()) {
    start_command();
    return;
  }
  set_state(State::Idle);
  finished_.swap(batch_);  // the buffers circulate: no allocation per access
  batch_.clear();
  services_.access_done(finished_);
}

void DiskMediaDriver::fail() {
  if (merged_) {  // the merged request fails as a whole
    for (MediaResult& m : batch_) m.status = amap::kStatusMediaError;
    index_ = batch_.size() - 1;
  } else {
    batch_[index_].status = amap::kStatusMediaError;
  }
  next_or_finish();
}

void DiskMediaDriver::reposition(const Decision& decision) {
  set_state(State::Repositioning);
  disk_regs::SeekBurst seek{decision.sweep_coordinate, head_.head, disk_regs::actuator::kCmdSeek};  // as for a Serve
  services_.bus_access(tlm::TLM_WRITE_COMMAND, kActTargetCyl, &seek, sizeof seek);
}

void DiskMediaDriver::on_seek_done() {
  if (!seek_done_.take()) return;
  services_.reset_offset();
  if (state_ == State::Repositioning) {
    services_.write_reg(kActIrqAck, 1, 4);
    head_.cylinder = static_cast<std::uint32_t>(services_.read_reg(kActCylinder, 4));
    set_state(State::Idle);
    services_.reposition_done();
    return;
  }
  if (state_ != State::Seeking) {  // not expected: acknowledge it so the line does not stay raised
    services_.write_reg(kActIrqAck, 1, 4);
    return;
  }
  // One burst from IRQ_ACK (read: status, then acknowledge), a reserved word, SEEK_START_PS,
  // SEEK_END_PS, SEEK_DISTANCE.
  disk_regs::SeekDoneBurst ack{};
  services_.bus_access(tlm::TLM_READ_COMMAND, kActIrqAck, &ack, sizeof ack);
  MediaResult& r = batch_[index_];
  if (ack.status & disk_regs::kStatusError) {
    fail();
    return;
  }
  r.log.seek_start_ps = static_cast<decltype(r.log.seek_start_ps)>(ack.seek_start_ps);
  r.log.seek_end_ps = static_cast<decltype(r.log.seek_end_ps)>(ack.seek_end_ps);
  r.log.seek_distance = ack.seek_distance;
  head_ = {r.log.cylinder, r.log.head};
  set_state(State::Transferring);
  // One burst: LBN, COUNT, COMMAND = read (1) or write (2).
  const Command& c = r.command;
  disk_regs::TransferBurst start{c.lbn, merged_ ? merged_blocks_ : c.blocks,
                                 c.is_read() ? disk_regs::channel::kCmdRead : disk_regs::channel::kCmdWrite};
  services_.bus_access(tlm::TLM_WRITE_COMMAND, kChLbn, &start, sizeof start, &c);
}

void DiskMediaDriver::on_transfer_done() {
  if (!transfer_done_.take()) return;
  services_.reset_offset();
  if (state_ != State::Transferring) {
    services_.write_reg(kChIrqAck, 1, 4);
    return;
  }
  // One burst from IRQ_ACK (read: status, then acknowledge), a reserved word, TRANSFER_START_PS,
  // TRANSFER_END_PS.
  disk_regs::TransferDoneBurst done{};
  services_.bus_access(tlm::TLM_READ_COMMAND, kChIrqAck, &done, sizeof done);
  MediaResult& r = batch_[index_];
  if (done.status & disk_regs::kStatusError) {
    fail();
    return;
  }
  r.log.transfer_start_ps = static_cast<decltype(r.log.transfer_start_ps)>(done.transfer_start_ps);
  r.log.transfer_end_ps = static_cast<decltype(r.log.transfer_end_ps)>(done.transfer_end_ps);
  if (merged_) {
    // The merged request: every command's data from its offset, every log the access's (each
    // command keeps its own cylinder and head); the heads end at the run's last block.
    const PhysicalAddress last = predictor_.geometry().locate(r.command.lbn + merged_blocks_ - 1);
    head_ = {last.cylinder, last.head};
    const amap::ServiceLog shared = r.log;
    std::uint64_t offset = 0;
    for (MediaResult& m : batch_) {
      const PhysicalAddress own = predictor_.geometry().locate(m.command.lbn);
      const std::int64_t predicted = m.log.predicted_positioning_ps;  // the decision's, first command only
      m.log = shared;
      m.log.predicted_positioning_ps = predicted;
      m.log.cylinder = own.cylinder;
      m.log.head = own.head;
      if (m.command.is_read()) services_.dma(m.command, true, std::size_t{m.command.blocks} * kBlockBytes, offset);
      offset += std::uint64_t{m.command.blocks} * kBlockBytes;
    }
    index_ = batch_.size() - 1;
    next_or_finish();
    return;
  }
  // The transfer may have crossed tracks: the heads are where the last block is.
  const Command& c = r.command;
  const PhysicalAddress last = predictor_.geometry().locate(c.lbn + c.blocks - 1);
  head_ = {last.cylinder, last.head};
  if (c.is_read()) services_.dma(c, true, std::size_t{c.blocks} * kBlockBytes);
  next_or_finish();
}

}  // namespace drivevp
