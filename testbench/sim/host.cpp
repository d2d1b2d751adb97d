#include "testbench/sim/host.h"

#include "testbench/metrics/deadline_checker.h"

#include <algorithm>
#include <cstring>

#include "tlm_bus/sc/time.h"

#include "tlm_bus/copy_bytes.h"

namespace drivevp {

Host::Host(sc_core::sc_module_name name, const HostParams& params, std::uint32_t queue_depth, WorkloadSource& source,
           RequestSink sink, InterruptLine& completion_irq, Tracer* tracer)
    : sc_module(name),
      bus("bus"),
      memory("memory"),
      params_(params),
      queue_depth_(queue_depth),
      source_(source),
      sink_(std::move(sink)),
      completion_irq_(completion_irq),
      sq_(queue_depth + 1),
      cq_(queue_depth + 1),
      buffers_(params.check_data ? queue_depth : 0),
      buffer_bytes_(params.check_data ? 0 : queue_depth, 0),
      by_tag_(queue_depth),
      measured_by_tag_(queue_depth, Time{-1}),
      conservation_(queue_depth),
      deadlines_(params.deadline),
      qos_(params.qos) {
  if (params_.closed_loop && (params_.outstanding < 1 || params_.outstanding > queue_depth))
    throw std::invalid_argument("workload.outstanding must be in [1, firmware.queue_depth]");
  const std::uint32_t tags = params_.closed_loop ? params_.outstanding : queue_depth;
  for (std::uint32_t t = tags; t-- > 0;) free_tags_.push_back(t);  // pop_back gives tag 0 first
  memory.register_b_transport(this, &Host::memory_transport);
  memory.register_get_direct_mem_ptr(this, &Host::memory_dmi);
  SC_HAS_PROCESS(Host);
  SC_METHOD(on_submit);
  sensitive << submit_event_;
  dont_initialize();
  SC_METHOD(on_completion);
  sensitive << completion_irq_.event();
  dont_initialize();
  if (!tracer) {
    // Untraced, the controller may hand the completion interrupt over at once (it does when
    // nothing else is pending up to the interrupt's time); not from inside this host's handlers.
    completion_irq_.set_direct_handler([this](const sc_core::sc_time& delay) {
      if (in_handler_) return false;
      serve_completions(delay);
      return true;
    });
    SC_METHOD(stop);
    sensitive << stop_event_;
    dont_initialize();
  }
  if (tracer) {
    const std::string p = basename();
    tracer->add(TraceGroup::Host, outstanding_, p + ".outstanding", WaveFormat::AnalogStep, 32);
    tracer->add(TraceGroup::Host, completions_, p + ".completions", WaveFormat::Decimal, 64);
    // Only runs with deadlines trace them, so other runs' waveforms keep their signals.
    if (params_.deadline.enabled() && tracer->enabled(TraceGroup::Host)) {
      tracer->add(TraceGroup::Host, deadline_misses_, p + ".deadline_misses", WaveFormat::Decimal, 64);
      tracer->add(TraceGroup::Host, deadline_miss_, p + ".deadline_miss", WaveFormat::Binary, 1);
      SC_METHOD(end_miss_pulse);
      sensitive << miss_pulse_end_;
      dont_initialize();
      miss_pulse_ = true;
    }
  }
}

void Host::end_miss_pulse() { deadline_miss_ = false; }

void Host::start_of_simulation() { submit_event_.notify(sc_core::SC_ZERO_TIME); }

bool Host::pull() {
  if (have_next_) return true;
  if (source_done_) return false;
  if (!source_.next(next_)) {
    source_done_ = true;
    return false;
  }
  have_next_ = true;
  return true;
}

void Host::write_reg(std::uint64_t address, std::uint32_t value) {
  trans_.set_command(tlm::TLM_WRITE_COMMAND);
  trans_.set_address(address);
  trans_.set_data_ptr(reinterpret_cast<unsigned char*>(&value));
  trans_.set_data_length(4);
  trans_.set_streaming_width(4);
  trans_.set_byte_enable_ptr(nullptr);
  trans_.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  bus->b_transport(trans_, offset_);
  if (trans_.is_response_error()) SC_REPORT_ERROR(name(), "host: doorbell write failed");
}

void Host::submit_ready(Time now) {
  bool rang = false;
  while (!free_tags_.empty() && pull()) {
    Command c = next_.command;
    if (params_.closed_loop) {
      // A think time counts from the last completion (the first request's from time zero).
      const Time issue = last_completion_ + next_.think_time;
      if (issue > now) {
        notify_submit(issue);
        break;
      }
      c.arrival = now;
    } else if (c.arrival > now) {
      notify_submit(c.arrival);
      break;
    }
    have_next_ = false;
    if (params_.deadline.enabled()) deadlines_.assign(c);
    if (params_.qos.enabled()) qos_.assign(c);
    c.id = next_id_++;
    c.tag = free_tags_.back();
    free_tags_.pop_back();
    by_tag_[c.tag] = c;
    measured_by_tag_[c.tag] = next_.measured_service;
    const std::size_t bytes = std::size_t{c.blocks} * kBlockBytes;
    // The capacity grows geometrically so that a buffer is reallocated (copied and its pages
    // faulted in) a few times per run rather than at every larger request; the bytes the buffer
    // holds are those of resize() alone.
    auto grow = [bytes](std::vector<std::uint8_t>& buf) {
      if (buf.size() >= bytes) return;
      if (buf.capacity() < bytes) buf.reserve(std::max(bytes, 2 * buf.capacity()));
      buf.resize(bytes);
    };
    if (params_.check_data) {
      auto& buf = buffers_[c.tag];
      grow(buf);
      if (!c.is_read()) DataIntegrityChecker::fill_write(c, buf.data());
    } else {
      buffer_bytes_[c.tag] = std::max(buffer_bytes_[c.tag], bytes);
      grow(zeros_);
    }
    sq_[sq_tail_] = {c, amap::kHostMem + amap::kHostData + std::uint64_t{c.tag} * amap::kHostDataStride};
    sq_tail_ = (sq_tail_ + 1) % static_cast<std::uint32_t>(sq_.size());
    conservation_.submitted(c);
    rang = true;
  }
  if (rang) {
    outstanding_ = static_cast<std::uint32_t>(next_id_ - completed_);
    write_reg(amap::kHostIf + amap::kRegSqTail, sq_tail_);
  }
  if (source_done_ && completed_ == next_id_) {
    if (handler_delay_ == sc_core::SC_ZERO_TIME)
      sc_core::sc_stop();
    else
      stop_event_.notify(handler_delay_);  // the simulation ends at the handler's time
  }
}

void Host::stop() { sc_core::sc_stop(); }

void Host::notify_submit(Time at) {
  // The open loop asks for the same next arrival at its submission and again at every
  // completion before it: the kernel would ignore those (a pending timed notification at or
  // before the new one stays), so they are skipped here; an earlier one replaces it as notify()
  // would. `at` is later than now (the callers' branch), so the event fires at exactly `at`.
  if (submit_due_ >= Time{0} && submit_due_ <= at) return;
  submit_event_.notify(to_sc_in_run(at - sim_now()));
  submit_due_ = at;
}

void Host::on_submit() {
  submit_due_ = Time{-1};  // the timed notification has fired (or this is the start's delta one)
  in_handler_ = true;
  handler_delay_ = sc_core::SC_ZERO_TIME;
  offset_ = sc_core::SC_ZERO_TIME;
  submit_ready(sim_now());
  in_handler_ = false;
}

void Host::on_completion() {
  if (!completion_irq_.take()) return;
  serve_completions(sc_core::SC_ZERO_TIME);
}

void Host::serve_completions(const sc_core::sc_time& delay) {
  in_handler_ = true;
  handler_delay_ = delay;
  offset_ = delay;
  const Time now = sim_now() + to_time(delay);
  bool any = false;
  while (cq_[cq_head_].valid) {
    amap::CompletionEntry& e = cq_[cq_head_];
    e.valid = 0;
    cq_head_ = (cq_head_ + 1) % static_cast<std::uint32_t>(cq_.size());
    any = true;
    conservation_.completed(e.command_id, e.tag);
    const std::uint32_t tag = e.tag % queue_depth_;
    const Command& c = by_tag_[tag];
    RequestRecord r;
    r.command = c;
    r.measured_service = measured_by_tag_[tag];
    r.dispatch = Time{e.log.dispatch_ps};
    r.seek_start = Time{e.log.seek_start_ps};
    r.seek_end = Time{e.log.seek_end_ps};
    r.transfer_start = Time{e.log.transfer_start_ps};
    r.transfer_end = Time{e.log.transfer_end_ps};
    r.completion = now;
    r.cylinder = e.log.cylinder;
    r.head = e.log.head;
    r.seek_distance = e.log.seek_distance;
    r.predicted_positioning = Time{e.log.predicted_positioning_ps};
    if (e.status != amap::kStatusOk) {
      ++media_errors_;
      r.data_ok = false;
    } else if (params_.check_data) {
      if (c.is_read())
        r.data_ok = integrity_.read_completed(c, buffers_[tag].data());
      else
        integrity_.write_completed(c);
    }
    if (missed_deadline(r)) {
      deadline_misses_ = deadline_misses_ + 1;
      if (miss_pulse_) {
        deadline_miss_ = true;
        miss_pulse_end_.notify(delay + to_sc(kMissPulse));
      }
    }
    ++completed_;
    last_completion_ = now;
    completions_ = completed_;
    free_tags_.push_back(tag);
    sink_(r);
  }
  if (any) write_reg(amap::kHostIf + amap::kRegCqHead, cq_head_);
  outstanding_ = static_cast<std::uint32_t>(next_id_ - completed_);
  submit_ready(now);
  in_handler_ = false;
  handler_delay_ = sc_core::SC_ZERO_TIME;
}

void Host::memory_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time&) {
  const std::uint64_t off = trans.get_address();
  const std::uint64_t len = trans.get_data_length();
  std::uint8_t* base = nullptr;
  std::uint64_t rel = 0, size = 0;
  if (off >= amap::kHostData) {
    const std::uint64_t tag = (off - amap::kHostData) / amap::kHostDataStride;
    rel = (off - amap::kHostData) % amap::kHostDataStride;
    if (tag < buffers_.size()) {
      base = buffers_[tag].data();
      size = buffers_[tag].size();
    } else if (tag < buffer_bytes_.size() && buffer_bytes_[tag] > 0) {
      base = zeros_.data();  // every tag's buffer holds zeros (see buffer_bytes_)
      size = buffer_bytes_[tag];
    }
  } else if (off >= amap::kHostCq) {
    rel = off - amap::kHostCq;
    base = reinterpret_cast<std::uint8_t*>(cq_.data());
    size = cq_.size() * sizeof(amap::CompletionEntry);
  } else {
    rel = off - amap::kHostSq;
    base = reinterpret_cast<std::uint8_t*>(sq_.data());
    size = sq_.size() * sizeof(amap::SubmissionEntry);
  }
  if (!base || rel + len > size) {
    trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  if (trans.is_read())
    copy_bytes(trans.get_data_ptr(), base + rel, len);
  else if (params_.check_data || off < amap::kHostData)
    copy_bytes(base + rel, trans.get_data_ptr(), len);
  // else: read data DMAed into a data buffer that this host never looks at (run.check_data
  // false: no read is checked, nothing else reads host memory): the transaction is accepted
  // and timed as any other, the bytes are not kept.
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

bool Host::memory_dmi(tlm::tlm_generic_payload& trans, tlm::tlm_dmi& dmi) {
  const std::uint64_t off = trans.get_address();
  std::uint8_t* base = nullptr;
  std::uint64_t start = 0, size = 0;
  if (off >= amap::kHostData) return false;
  if (off >= amap::kHostCq) {
    base = reinterpret_cast<std::uint8_t*>(cq_.data());
    start = amap::kHostCq;
    size = cq_.size() * sizeof(amap::CompletionEntry);
  } else {
    base = reinterpret_cast<std::uint8_t*>(sq_.data());
    start = amap::kHostSq;
    size = sq_.size() * sizeof(amap::SubmissionEntry);
  }
  if (off - start >= size) return false;
  dmi.set_dmi_ptr(base);
  dmi.set_start_address(start);
  dmi.set_end_address(start + size - 1);
  dmi.allow_read_write();
  dmi.set_read_latency(sc_core::SC_ZERO_TIME);
  dmi.set_write_latency(sc_core::SC_ZERO_TIME);
  return true;
}

}  // namespace drivevp
