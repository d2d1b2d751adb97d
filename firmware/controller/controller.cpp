#include "firmware/controller/controller.h"

#include <algorithm>
#include <cstring>
#include <sstream>
#include <utility>

#include "tlm_bus/sc/command_extension.h"
#include "tlm_bus/sc/time.h"

namespace drivevp {

Controller::Controller(sc_core::sc_module_name name, const ControllerParams& params,
                       std::unique_ptr<SchedulingPolicy> policy, const MediaDriverFactory& make_driver, Tracer* tracer)
    : sc_module(name),
      host_socket("host_socket"),
      bus("bus"),
      params_(params),
      policy_(std::move(policy)),
      data_address_(params.queue_depth, 0) {
  if (params_.queue_depth < 1 || params_.queue_depth > 65536)
    throw std::invalid_argument("firmware.queue_depth must be in [1, 65536]");
  if (!policy_) throw std::invalid_argument("Controller: no scheduling policy");
  driver_ = make_driver(*this);  // a child module: built while this one is under construction
  if (!driver_) throw std::invalid_argument("Controller: the media driver factory built no driver");
  inline_doorbell_ = tracer == nullptr && driver_->serves_doorbell_inline();
  queue_dmi_ = tracer == nullptr;
  traced_ = tracer != nullptr;
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
  regs_.add("CAPACITY", amap::kRegCapacity, 8, [this] { return driver_->predictor().capacity_blocks(); });

  SC_HAS_PROCESS(Controller);
  SC_METHOD(on_doorbell);
  sensitive << doorbell_event_;
  dont_initialize();
  SC_METHOD(on_wake);
  sensitive << wake_event_;
  dont_initialize();

  if (tracer) {
    const std::string p = basename();
    tracer->add(TraceGroup::Firmware, queue_depth_, p + ".queue_depth", WaveFormat::AnalogStep, 32);
    tracer->add(TraceGroup::Firmware, current_id_, p + ".current_id", WaveFormat::Decimal, 64);
    tracer->add(TraceGroup::Firmware, current_lbn_, p + ".current_lbn", WaveFormat::Decimal, 64);
    tracer->add(TraceGroup::Firmware, state_trace_, p + ".state", WaveFormat::Decimal, 8, driver_->state_names());
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
  // Boot: the driver reads the device's parameter page and builds its predictor.
  offset_ = sc_core::SC_ZERO_TIME;
  driver_->boot();
}

void Controller::host_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
  regs_.access(trans, trans.get_address(), delay);
  if (trans.get_address() == amap::kRegSqTail && trans.is_write()) ring(delay);
}

void Controller::ring(const sc_core::sc_time& delay) {
  // The doorbell's handler would run `delay` from now with a zero offset. Run it here with the
  // offset `delay` instead: every bus access, device command and notification then carries the
  // same annotated (absolute) time, and the outputs are the same, provided nothing else runs
  // in between. So only when no other activity is pending up to and including now + delay
  // (another process at the same time could be ordered before the handler), nothing observes
  // the simulated time during the handler (no tracer; no dispatch observer) and the driver
  // times everything from the offset. Saves one timed event and one process activation per
  // doorbell (docs/performance.md, "MEMS G1 speed against DiskSim 4.0").
  if (inline_doorbell_ && !in_handler_ && !dispatch_observer_ && sc_core::sc_time_to_pending_activity() > delay) {
    in_handler_ = true;
    offset_ = delay;
    fetch();
    dispatch();
    in_handler_ = false;
    deliver_completion();
    return;
  }
  doorbell_event_.notify(delay);
}

SchedulingContext Controller::context(Time at) const {
  SchedulingContext ctx;
  ctx.now = at;
  ctx.position = driver_->position();
  ctx.predictor = &driver_->predictor();
  return ctx;
}

void Controller::fetch() {
  while (sq_head_ != sq_tail_ && held_ < params_.queue_depth) {
    amap::SubmissionEntry e;
    const std::uint64_t at = amap::kHostMem + amap::kHostSq + sq_head_ * sizeof e;
    if (const std::uint8_t* p = host_queue(sq_dmi_, sq_dmi_valid_, at, sizeof e)) {
      offset_ += sq_dmi_.get_read_latency();  // the router's latency, as the transaction's
      std::memcpy(&e, p, sizeof e);
    } else {
      bus_access(tlm::TLM_READ_COMMAND, at, &e, sizeof e);
    }
    sq_head_ = (sq_head_ + 1) % (params_.queue_depth + 1);
    ++held_;
    data_address_[e.command.tag % params_.queue_depth] = e.data_address;
    const Command& c = e.command;
    const std::uint64_t capacity = driver_->predictor().capacity_blocks();
    if (c.blocks == 0 || c.lbn >= capacity || c.blocks > capacity - c.lbn) {
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
  deliver_completion();
}

void Controller::on_wake() {
  offset_ = sc_core::SC_ZERO_TIME;
  dispatch();
  deliver_completion();
}

void Controller::dispatch() {
  if (driver_->busy()) {
    if (policy_->pending() > 0) {
      if (!background_wait_ && driver_->background_stops()) background_wait_ = sim_now() + to_time(offset_);
      driver_->yield_background();  // e.g. a read-ahead stops for it
    }
    return;
  }
  const Time start = sim_now() + to_time(offset_);
  const std::optional<Time> waited = std::exchange(background_wait_, std::nullopt);
  const SchedulingContext ctx = context(start + driver_->predictor().command_overhead());
  const Decision d = policy_->next(ctx);
  queue_depth_ = static_cast<std::uint32_t>(policy_->pending());
  switch (d.kind) {
    case Decision::Kind::Idle:
      driver_->on_idle();
      return;
    case Decision::Kind::WaitUntil:
      wake_event_.notify(to_sc(d.wake_at - sim_now()));
      return;
    case Decision::Kind::Reposition:
      driver_->reposition(d);
      return;
    case Decision::Kind::Serve:
      break;
  }
  // One media access: the decision's command first, then its batch, each with its own log.
  std::vector<MediaResult>& access = access_;  // reused (MediaDriver::serve swaps buffers)
  access.assign(1 + d.batch.size(), MediaResult{});
  access[0].command = d.command;
  for (std::size_t i = 0; i < d.batch.size(); ++i) access[i + 1].command = d.batch[i];
  for (MediaResult& r : access) r.log.dispatch_ps = start.count();
  access[0].log.predicted_positioning_ps = d.predicted_positioning.count();
  decisions_ = decisions_.get() + 1;
  current_id_ = d.command.id;
  current_lbn_ = d.command.lbn;
  if (d.predicted_positioning >= Time{0}) predicted_positioning_ms_ = to_ms(d.predicted_positioning);
  if (dispatch_observer_) dispatch_observer_(d, start, ctx);
  Time overhead = driver_->command_overhead(d.command);
  if (waited) overhead = std::max(Time{0}, overhead - (start - *waited));  // it ran while the read-ahead stopped
  offset_ += to_sc_in_run(overhead);
  driver_->serve(access);
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
    driver_->dma_path_changed();  // the predictor's write path follows the grant
    if (!dmi_valid_) return nullptr;
  }
  return dmi_.get_dmi_ptr() + (amap::kChannelBuffer - dmi_.get_start_address());
}

std::uint8_t* Controller::host_queue(tlm::tlm_dmi& dmi, bool& valid, std::uint64_t address, std::size_t bytes) {
  if (!queue_dmi_) return nullptr;
  const std::uint64_t last = address + bytes - 1;
  if (!valid || dmi.get_start_address() > address || dmi.get_end_address() < last) {
    tlm::tlm_generic_payload t;
    t.set_command(tlm::TLM_READ_COMMAND);
    t.set_address(address);
    t.set_data_length(static_cast<unsigned>(bytes));
    valid = bus->get_direct_mem_ptr(t, dmi) && dmi.is_read_write_allowed() && dmi.get_start_address() <= address &&
            dmi.get_end_address() >= last;
    if (!valid) {
      queue_dmi_ = false;  // not granted: the queues go over the bus from now on
      return nullptr;
    }
  }
  return dmi.get_dmi_ptr() + (address - dmi.get_start_address());
}

void Controller::invalidate_dmi(sc_dt::uint64 start, sc_dt::uint64 end) {
  if (start <= dmi_.get_end_address() && end >= dmi_.get_start_address()) dmi_valid_ = false;
  if (start <= sq_dmi_.get_end_address() && end >= sq_dmi_.get_start_address()) sq_dmi_valid_ = false;
  if (start <= cq_dmi_.get_end_address() && end >= cq_dmi_.get_start_address()) cq_dmi_valid_ = false;
}

void Controller::dma(const Command& command, bool to_host, std::size_t bytes, std::uint64_t buffer_offset,
                     std::uint64_t host_offset) {
  const std::uint64_t host = data_address_[command.tag % params_.queue_depth] + host_offset;
  if (std::uint8_t* base = channel_buffer(buffer_offset + bytes)) {
    std::uint8_t* buffer = base + buffer_offset;
    // The sector buffer is reached directly (DMI, with its latency); one bus transaction moves
    // the data between it and host memory.
    offset_ += to_host ? dmi_.get_read_latency() : dmi_.get_write_latency();
    bus_access(to_host ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND, host, buffer, bytes, &command);
    return;
  }
  // No DMI: through a staging buffer, two transactions.
  if (staging_.size() < bytes) staging_.resize(bytes);
  if (to_host) {
    bus_access(tlm::TLM_READ_COMMAND, amap::kChannelBuffer + buffer_offset, staging_.data(), bytes, &command);
    bus_access(tlm::TLM_WRITE_COMMAND, host, staging_.data(), bytes, &command);
  } else {
    bus_access(tlm::TLM_READ_COMMAND, host, staging_.data(), bytes, &command);
    bus_access(tlm::TLM_WRITE_COMMAND, amap::kChannelBuffer + buffer_offset, staging_.data(), bytes, &command);
  }
}

void Controller::access_done(const std::vector<MediaResult>& results) {
  bool all_ok = true;
  for (const MediaResult& r : results) {
    post_completion(r.command, r.log, r.status);
    all_ok = all_ok && r.status == amap::kStatusOk;
  }
  // After a media error the firmware does not look for new submissions until the next doorbell.
  if (all_ok) fetch();
  dispatch();
  deliver_completion();  // the driver's handler ends with access_done
}

void Controller::reposition_done() {
  dispatch();
  deliver_completion();
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
  const std::uint64_t at = amap::kHostMem + amap::kHostCq + cq_tail_ * sizeof c;
  if (std::uint8_t* p = host_queue(cq_dmi_, cq_dmi_valid_, at, sizeof c)) {
    offset_ += cq_dmi_.get_write_latency();  // the router's latency, as the transaction's
    std::memcpy(p, &c, sizeof c);
  } else {
    bus_access(tlm::TLM_WRITE_COMMAND, at, &c, sizeof c);
  }
  cq_tail_ = (cq_tail_ + 1) % cq_size;
  --held_;
  ++completed_;
  if (status != amap::kStatusInvalidLba) policy_->on_complete(command, context(sim_now() + to_time(offset_)));
  if (inline_doorbell_ && completion_irq.has_direct_handler()) {
    // Held back to the handler's end: the host's handler must not run before this one has
    // finished (it may ring the doorbell). Several completions: the line rises at the first.
    if (!completion_due_ || offset_ < *completion_due_) completion_due_ = offset_;
    return;
  }
  completion_irq.raise(offset_);
}

void Controller::deliver_completion() {
  // The host's completion handler would run at now + due with a zero offset, after this handler.
  // Run it here with the offset `due` instead when nothing else is pending up to and including
  // that time (as for the doorbell, ring()): it sees the same state and times everything the
  // same. Saves one timed event and one process activation per completion.
  if (!completion_due_) return;
  const sc_core::sc_time due = *completion_due_;
  completion_due_.reset();
  if (sc_core::sc_time_to_pending_activity() > due)
    completion_irq.raise_direct(due);
  else
    completion_irq.raise(due);
}

}  // namespace drivevp
