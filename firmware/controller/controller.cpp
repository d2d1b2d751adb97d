#include "firmware/controller/controller.h"

#include <sstream>

#include "tlm_bus/devices/disk_registers.h"
#include "tlm_bus/sc/command_extension.h"
#include "tlm_bus/sc/time.h"

namespace drivevp {

namespace reg {
// Device register addresses on the bus: block bases (address_map.h) + the device's register map
// (tlm_bus/devices/disk_registers.h, docs/registers.md).
constexpr std::uint64_t kSpindleIndexTime = amap::kSpindle + disk_regs::spindle::kIndexTimePs;
constexpr std::uint64_t kActTargetCyl = amap::kActuator + disk_regs::actuator::kTargetCylinder;
constexpr std::uint64_t kActCylinder = amap::kActuator + disk_regs::actuator::kCylinder;
constexpr std::uint64_t kActIrqAck = amap::kActuator + disk_regs::actuator::kIrqAck;
constexpr std::uint64_t kChLbn = amap::kChannel + disk_regs::channel::kLbn;
constexpr std::uint64_t kChCount = amap::kChannel + disk_regs::channel::kCount;
constexpr std::uint64_t kChIrqAck = amap::kChannel + disk_regs::channel::kIrqAck;
}  // namespace reg

Controller::Controller(sc_core::sc_module_name name, const ControllerParams& params,
                       std::unique_ptr<SchedulingPolicy> policy, InterruptLine& seek_done, InterruptLine& transfer_done,
                       Tracer* tracer)
    : sc_module(name),
      host_socket("host_socket"),
      bus("bus"),
      params_(params),
      policy_(std::move(policy)),
      seek_done_(seek_done),
      transfer_done_(transfer_done),
      data_address_(params.queue_depth, 0) {
  if (params_.queue_depth < 1 || params_.queue_depth > 65536)
    throw std::invalid_argument("firmware.queue_depth must be in [1, 65536]");
  host_socket.register_b_transport(this, &Controller::host_transport);
  bus.register_invalidate_direct_mem_ptr(this, &Controller::invalidate_dmi);
  regs_.add("VERSION", amap::kRegVersion, 4, [] { return std::uint64_t{1}; });
  regs_.add("QUEUE_SIZE", amap::kRegQueueSize, 4, [this] { return std::uint64_t{params_.queue_depth}; });
  regs_.add("SQ_TAIL", amap::kRegSqTail, 4, nullptr, [this](std::uint64_t v, tlm::tlm_generic_payload&) {
    sq_tail_ = static_cast<std::uint32_t>(v % (params_.queue_depth + 1));
  });
  regs_.add("CQ_HEAD", amap::kRegCqHead, 4, nullptr, [this](std::uint64_t v, tlm::tlm_generic_payload&) {
    cq_head_ = static_cast<std::uint32_t>(v % (params_.queue_depth + 1));
    completion_irq.lower(regs_.access_delay());
  });
  regs_.add("CAPACITY", amap::kRegCapacity, 8, [this] { return predictor_.capacity_blocks(); });

  SC_HAS_PROCESS(Controller);
  SC_METHOD(on_doorbell);
  sensitive << doorbell_event_;
  dont_initialize();
  SC_METHOD(on_seek_done);
  sensitive << seek_done_.event();
  dont_initialize();
  SC_METHOD(on_transfer_done);
  sensitive << transfer_done_.event();
  dont_initialize();
  SC_METHOD(on_wake);
  sensitive << wake_event_;
  dont_initialize();

  if (tracer) {
    const std::string p = basename();
    tracer->add(TraceGroup::Firmware, queue_depth_, p + ".queue_depth", WaveFormat::AnalogStep, 32);
    tracer->add(TraceGroup::Firmware, current_id_, p + ".current_id", WaveFormat::Decimal, 64);
    tracer->add(TraceGroup::Firmware, current_lbn_, p + ".current_lbn", WaveFormat::Decimal, 64);
    tracer->add(TraceGroup::Firmware, state_trace_, p + ".state", WaveFormat::Decimal, 8,
                {"Idle", "Seeking", "Transferring", "Repositioning"});  // State, in value order
    tracer->add(TraceGroup::Firmware, decisions_, p + ".decisions", WaveFormat::Decimal, 64);
    tracer->add(TraceGroup::Firmware, predicted_positioning_ms_, p + ".predicted_positioning_ms",
                WaveFormat::AnalogStep);
  }
}

void Controller::bus_access(tlm::tlm_command cmd, std::uint64_t address, void* data, std::size_t length,
                            const Command* command) {
  trans_.set_command(cmd);
  trans_.set_address(address);
  trans_.set_data_ptr(static_cast<unsigned char*>(data));
  trans_.set_data_length(static_cast<unsigned>(length));
  trans_.set_streaming_width(static_cast<unsigned>(length));
  trans_.set_byte_enable_ptr(nullptr);
  trans_.set_dmi_allowed(false);
  trans_.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  if (command) {
    extension_.command = *command;
    trans_.set_extension(&extension_);
  }
  bus->b_transport(trans_, offset_);
  if (command) trans_.clear_extension(&extension_);
  if (trans_.is_response_error()) {
    std::ostringstream os;
    os << "firmware bus access failed: " << (cmd == tlm::TLM_READ_COMMAND ? "read" : "write") << " 0x" << std::hex
       << address << ": " << trans_.get_response_string();
    SC_REPORT_ERROR(name(), os.str().c_str());
  }
}

std::uint64_t Controller::read_reg(std::uint64_t address, unsigned width) {
  std::uint64_t v = 0;
  bus_access(tlm::TLM_READ_COMMAND, address, &v, width);
  return v;
}

void Controller::write_reg(std::uint64_t address, std::uint64_t value, unsigned width, const Command* command) {
  bus_access(tlm::TLM_WRITE_COMMAND, address, &value, width, command);
}

void Controller::start_of_simulation() {
  // Boot: read the parameter page and the spindle's index time, build the predictor.
  offset_ = sc_core::SC_ZERO_TIME;
  ParameterPage page;
  bus_access(tlm::TLM_READ_COMMAND, amap::kParamPage, &page, sizeof page);
  // The index-time read also times one register access on the bus (the loosely-timed offset it
  // adds): the unit of the firmware's own command path, which the predictor must count.
  const sc_core::sc_time before = offset_;
  const Time index = Time{static_cast<std::int64_t>(read_reg(reg::kSpindleIndexTime, 8))};
  bus_access_time_ = to_time(offset_ - before);
  predictor_ = PositioningPredictor(page, index);
  predictor_.set_command_path(command_path());
  head_ = {0, 0};
}

CommandPath Controller::command_path() const {
  // Mirrors dispatch(), dma() and on_seek_done(): the bus accesses between the decision (after
  // the command overhead) and the actuator's seek start, and between the seek-done interrupt and
  // the channel's start. The actuator and the channel act at the annotated time of the access
  // that commands them, which includes that access's own latency.
  const Time a = bus_access_time_;
  // Write data DMA: through DMI, the latest grant's latency plus one transaction; before the
  // first grant or after a refusal, two transactions through the staging buffer. (The router
  // grants its own latency, one access: the sector buffer adds none, so the two agree.)
  const Time dma = dmi_write_latency_ ? *dmi_write_latency_ + a : a + a;
  CommandPath path;
  path.read_to_seek = a;             // the seek burst
  path.write_to_seek = a + dma + a;  // COUNT write, data DMA, seek burst
  path.seek_to_transfer = a + a;     // IRQ_ACK read burst, LBN/COUNT/COMMAND burst
  return path;
}

void Controller::host_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
  regs_.access(trans, trans.get_address(), delay);
  if (trans.get_address() == amap::kRegSqTail && trans.is_write()) doorbell_event_.notify(delay);
}

SchedulingContext Controller::context(Time at) const {
  SchedulingContext ctx;
  ctx.now = at;
  ctx.head = head_;
  ctx.predictor = &predictor_;
  return ctx;
}

void Controller::fetch() {
  while (sq_head_ != sq_tail_ && held_ < params_.queue_depth) {
    amap::SubmissionEntry e;
    bus_access(tlm::TLM_READ_COMMAND, amap::kHostMem + amap::kHostSq + sq_head_ * sizeof e, &e, sizeof e);
    sq_head_ = (sq_head_ + 1) % (params_.queue_depth + 1);
    ++held_;
    data_address_[e.command.tag % params_.queue_depth] = e.data_address;
    const Command& c = e.command;
    if (c.blocks == 0 || c.lbn >= predictor_.capacity_blocks() || c.blocks > predictor_.capacity_blocks() - c.lbn) {
      // Rejected at once, never reaching the policy (whose queues locate every command).
      amap::ServiceLog log{};
      log.dispatch_ps = (sim_now() + to_time(offset_)).count();
      post_completion(c, log, amap::kStatusInvalidLba);
      continue;
    }
    policy_->enqueue(c, context(sim_now() + to_time(offset_)));
  }
  queue_depth_ = static_cast<std::uint32_t>(policy_->pending());
}

void Controller::on_doorbell() {
  offset_ = sc_core::SC_ZERO_TIME;
  fetch();
  dispatch();
}

void Controller::on_wake() {
  offset_ = sc_core::SC_ZERO_TIME;
  dispatch();
}

void Controller::dispatch() {
  if (state_ != State::Idle) return;
  const Time start = sim_now() + to_time(offset_);
  const Decision d = policy_->next(context(start + predictor_.command_overhead()));
  queue_depth_ = static_cast<std::uint32_t>(policy_->pending());
  switch (d.kind) {
    case Decision::Kind::Idle:
      return;
    case Decision::Kind::WaitUntil:
      wake_event_.notify(to_sc(d.wake_at - sim_now()));
      return;
    case Decision::Kind::Reposition:
      state_ = State::Repositioning;
      state_trace_ = static_cast<std::uint8_t>(state_);
      {
        disk_regs::SeekBurst seek{d.cylinder, head_.head, disk_regs::actuator::kCmdSeek};  // as for a Serve
        bus_access(tlm::TLM_WRITE_COMMAND, reg::kActTargetCyl, &seek, sizeof seek);
      }
      return;
    case Decision::Kind::Serve:
      break;
  }
  current_ = d.command;
  decisions_ = decisions_.get() + 1;
  current_id_ = current_.id;
  current_lbn_ = current_.lbn;
  log_ = amap::ServiceLog{};
  log_.dispatch_ps = start.count();
  log_.predicted_positioning_ps = d.predicted_positioning.count();
  if (d.predicted_positioning >= Time{0}) predicted_positioning_ms_ = to_ms(d.predicted_positioning);
  offset_ += to_sc(predictor_.command_overhead());
  const PhysicalAddress target = predictor_.geometry().locate(current_.lbn);
  log_.cylinder = target.cylinder;
  log_.head = target.head;
  if (!current_.is_read()) {  // write data into the channel's sector buffer (COUNT sizes it)
    write_reg(reg::kChCount, current_.blocks, 4);
    dma(false, std::size_t{current_.blocks} * kBlockBytes);
  }
  state_ = State::Seeking;
  state_trace_ = static_cast<std::uint8_t>(state_);
  // One burst: TARGET_CYLINDER, TARGET_HEAD, COMMAND = seek.
  disk_regs::SeekBurst seek{target.cylinder, target.head, disk_regs::actuator::kCmdSeek};
  bus_access(tlm::TLM_WRITE_COMMAND, reg::kActTargetCyl, &seek, sizeof seek, &current_);
}

std::uint8_t* Controller::channel_buffer(std::size_t bytes) {
  const std::uint64_t last = amap::kChannelBuffer + bytes - 1;
  if (!dmi_valid_ || dmi_.get_start_address() > amap::kChannelBuffer || dmi_.get_end_address() < last) {
    tlm::tlm_generic_payload t;
    t.set_command(tlm::TLM_READ_COMMAND);
    t.set_address(amap::kChannelBuffer);
    t.set_data_length(static_cast<unsigned>(bytes));
    dmi_valid_ = bus->get_direct_mem_ptr(t, dmi_) && dmi_.is_read_write_allowed() &&
                 dmi_.get_start_address() <= amap::kChannelBuffer && dmi_.get_end_address() >= last;
    if (dmi_valid_)
      dmi_write_latency_ = to_time(dmi_.get_write_latency());
    else
      dmi_write_latency_.reset();
    predictor_.set_command_path(command_path());  // the write path follows the grant
    if (!dmi_valid_) return nullptr;
  }
  return dmi_.get_dmi_ptr() + (amap::kChannelBuffer - dmi_.get_start_address());
}

void Controller::invalidate_dmi(sc_dt::uint64 start, sc_dt::uint64 end) {
  if (start <= dmi_.get_end_address() && end >= dmi_.get_start_address()) dmi_valid_ = false;
}

void Controller::dma(bool to_host, std::size_t bytes) {
  const std::uint64_t host = data_address_[current_.tag % params_.queue_depth];
  if (std::uint8_t* buffer = channel_buffer(bytes)) {
    // The sector buffer is reached directly (DMI, with its latency); one bus transaction moves
    // the data between it and host memory.
    offset_ += to_host ? dmi_.get_read_latency() : dmi_.get_write_latency();
    bus_access(to_host ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND, host, buffer, bytes, &current_);
    return;
  }
  // No DMI: through a staging buffer, two transactions.
  if (staging_.size() < bytes) staging_.resize(bytes);
  if (to_host) {
    bus_access(tlm::TLM_READ_COMMAND, amap::kChannelBuffer, staging_.data(), bytes, &current_);
    bus_access(tlm::TLM_WRITE_COMMAND, host, staging_.data(), bytes, &current_);
  } else {
    bus_access(tlm::TLM_READ_COMMAND, host, staging_.data(), bytes, &current_);
    bus_access(tlm::TLM_WRITE_COMMAND, amap::kChannelBuffer, staging_.data(), bytes, &current_);
  }
}

void Controller::on_seek_done() {
  if (!seek_done_.take()) return;
  offset_ = sc_core::SC_ZERO_TIME;
  if (state_ == State::Repositioning) {
    write_reg(reg::kActIrqAck, 1, 4);
    head_.cylinder = static_cast<std::uint32_t>(read_reg(reg::kActCylinder, 4));
    state_ = State::Idle;
    state_trace_ = static_cast<std::uint8_t>(state_);
    dispatch();
    return;
  }
  if (state_ != State::Seeking) {  // not expected: acknowledge it so the line does not stay raised
    write_reg(reg::kActIrqAck, 1, 4);
    return;
  }
  // One burst from IRQ_ACK (read: status, then acknowledge), a reserved word, SEEK_START_PS,
  // SEEK_END_PS, SEEK_DISTANCE.
  disk_regs::SeekDoneBurst ack{};
  bus_access(tlm::TLM_READ_COMMAND, reg::kActIrqAck, &ack, sizeof ack);
  if (ack.status & disk_regs::kStatusError) {
    finish_current(amap::kStatusMediaError);
    dispatch();
    return;
  }
  log_.seek_start_ps = static_cast<decltype(log_.seek_start_ps)>(ack.seek_start_ps);
  log_.seek_end_ps = static_cast<decltype(log_.seek_end_ps)>(ack.seek_end_ps);
  log_.seek_distance = ack.seek_distance;
  head_ = {log_.cylinder, log_.head};
  state_ = State::Transferring;
  state_trace_ = static_cast<std::uint8_t>(state_);
  // One burst: LBN, COUNT, COMMAND = read (1) or write (2).
  disk_regs::TransferBurst start{current_.lbn, current_.blocks,
                                 current_.is_read() ? disk_regs::channel::kCmdRead : disk_regs::channel::kCmdWrite};
  bus_access(tlm::TLM_WRITE_COMMAND, reg::kChLbn, &start, sizeof start, &current_);
}

void Controller::on_transfer_done() {
  if (!transfer_done_.take()) return;
  offset_ = sc_core::SC_ZERO_TIME;
  if (state_ != State::Transferring) {
    write_reg(reg::kChIrqAck, 1, 4);
    return;
  }
  // One burst from IRQ_ACK (read: status, then acknowledge), a reserved word, TRANSFER_START_PS,
  // TRANSFER_END_PS.
  disk_regs::TransferDoneBurst done{};
  bus_access(tlm::TLM_READ_COMMAND, reg::kChIrqAck, &done, sizeof done);
  if (done.status & disk_regs::kStatusError) {
    finish_current(amap::kStatusMediaError);
    dispatch();
    return;
  }
  log_.transfer_start_ps = static_cast<decltype(log_.transfer_start_ps)>(done.transfer_start_ps);
  log_.transfer_end_ps = static_cast<decltype(log_.transfer_end_ps)>(done.transfer_end_ps);
  // The transfer may have crossed tracks: the heads are where the last block is.
  const PhysicalAddress last = predictor_.geometry().locate(current_.lbn + current_.blocks - 1);
  head_ = {last.cylinder, last.head};
  if (current_.is_read()) dma(true, std::size_t{current_.blocks} * kBlockBytes);
  finish_current(amap::kStatusOk);
  fetch();
  dispatch();
}

void Controller::finish_current(std::uint32_t status) {
  state_ = State::Idle;
  state_trace_ = static_cast<std::uint8_t>(state_);
  post_completion(current_, log_, status);
}

void Controller::post_completion(const Command& command, const amap::ServiceLog& log, std::uint32_t status) {
  if (status != amap::kStatusOk) ++media_errors_;
  amap::CompletionEntry c;
  c.command_id = command.id;
  c.tag = command.tag;
  c.status = status;
  c.valid = 1;
  c.sq_head = sq_head_;
  c.log = log;
  const std::uint32_t cq_size = params_.queue_depth + 1;  // one more than the commands in flight
  if ((cq_tail_ + 1) % cq_size == cq_head_)
    SC_REPORT_ERROR(name(), "completion queue overflow: the host did not consume completions");
  bus_access(tlm::TLM_WRITE_COMMAND, amap::kHostMem + amap::kHostCq + cq_tail_ * sizeof c, &c, sizeof c);
  cq_tail_ = (cq_tail_ + 1) % cq_size;
  --held_;
  ++completed_;
  if (status != amap::kStatusInvalidLba) policy_->on_complete(command, context(sim_now() + to_time(offset_)));
  completion_irq.raise(offset_);
}

}  // namespace drivevp
