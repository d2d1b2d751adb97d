// The host: submits the workload's commands through submission queues and a doorbell, takes
// completions on the completion interrupt, and hands each completed request to a sink.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>
#include <systemc>
#include <tlm>

#include "testbench/metrics/request_record.h"
#include "testbench/sim/checkers.h"
#include "testbench/source.h"
#include "testbench/workload/deadline.h"
#include "testbench/workload/qos.h"
#include "tlm_bus/sc/address_map.h"
#include "tlm_bus/sc/irq.h"
#include "waveforms/tracer.h"

namespace drivevp {

/// Host parameters (scenario keys workload.loop, workload.outstanding, run.check_data).
struct HostParams {
  bool closed_loop = false;       ///< closed loop: keep `outstanding` commands in flight, ignore arrival times
  std::uint32_t outstanding = 1;  ///< closed loop only, in [1, queue depth]
  bool check_data = true;  ///< fill write buffers with patterns and check read data (false: read data is not kept)
  /// Deadline of each submitted command (workload.deadline*): arrival + the rule's relative
  /// deadline, assigned at submission (testbench/workload/deadline.h).
  DeadlineRule deadline;
  /// QoS vector of each submitted command (workload.qos_*; testbench/workload/qos.h), drawn at
  /// submission.
  QosRule qos;
};

/// Receives every completed request, in completion order.
using RequestSink = std::function<void(const RequestRecord&)>;

/// The host side of the host interface, NVMe-like: a submission queue (Q entries) and a
/// completion queue (Q + 1 entries) in host memory, one data buffer per tag (tag < Q), a doorbell
/// write per batch of submissions and a CQ-head doorbell per batch of completions. Open loop:
/// each command is submitted at its arrival time when a tag is free; otherwise it waits in the
/// host (its arrival time stays the source's, so the wait counts in its response time). Closed
/// loop: `outstanding` commands are kept in flight, each submitted when one completes, or its
/// SourceRequest::think_time after the last completion when it has one (arrival = submission
/// time). Runs checkers (conservation, data integrity) on every completion and stops
/// the simulation when the source is exhausted and every command has completed.
class Host : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<Host> bus;  ///< to the controller's host interface
  tlm_utils::simple_target_socket<Host> memory;  ///< host memory, the controller's DMA target

  Host(sc_core::sc_module_name name, const HostParams& params, std::uint32_t queue_depth, WorkloadSource& source,
       RequestSink sink, InterruptLine& completion_irq, Tracer* tracer);

  const ConservationChecker& conservation() const { return conservation_; }
  /// At the end of the run: reports commands still in flight (ConservationChecker::finish).
  void finish_checks() { conservation_.finish(); }
  const DataIntegrityChecker& integrity() const { return integrity_; }
  std::uint64_t submitted() const { return next_id_; }
  std::uint64_t completed() const { return completed_; }
  std::uint64_t media_errors() const { return media_errors_; }
  /// Completions after their deadline (completion > Command::deadline), counted for the waveform.
  std::uint64_t deadline_misses() const { return deadline_misses_; }
  /// Width of host.deadline_miss's pulse at each miss (waveforms only): 1 µs, narrower than any
  /// modelled service time, so consecutive misses show as separate pulses.
  static constexpr Time kMissPulse{1'000'000};
  /// Completion time of the last request.
  Time last_completion() const { return last_completion_; }

 private:
  void start_of_simulation() override;
  void memory_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  /// DMI to the submission or the completion queue (each a fixed array: never moves), zero
  /// latency; refused for the data buffers (their accesses stay transactions: see
  /// memory_transport).
  bool memory_dmi(tlm::tlm_generic_payload& trans, tlm::tlm_dmi& dmi);
  void on_submit();
  void on_completion();
  /// The completion handler's work, at now + `delay` (the completion interrupt's time): delay 0
  /// from on_completion(), else served directly by the interrupt's raiser (InterruptLine::
  /// raise_direct, untraced runs).
  void serve_completions(const sc_core::sc_time& delay);
  /// sc_stop() at the running handler's time (handler_delay_ from now).
  void stop();
  void end_miss_pulse();
  void submit_ready(Time now);
  bool pull();
  void write_reg(std::uint64_t address, std::uint32_t value);

  HostParams params_;
  std::uint32_t queue_depth_;
  WorkloadSource& source_;
  RequestSink sink_;
  InterruptLine& completion_irq_;
  std::vector<amap::SubmissionEntry> sq_;
  std::vector<amap::CompletionEntry> cq_;
  std::vector<std::vector<std::uint8_t>> buffers_;  ///< by tag; run.check_data only (else empty)
  /// Without run.check_data: the size in bytes of each tag's data buffer (by tag; the largest
  /// request it held, as buffers_[tag].size() would be). No such buffer is ever written with
  /// data (write buffers are not filled, read data is not kept), so every one holds zeros: they
  /// all share `zeros_`, as large as the largest of them, and a run moves no bytes per tag.
  std::vector<std::size_t> buffer_bytes_;
  std::vector<std::uint8_t> zeros_;  ///< without run.check_data: every data buffer's bytes
  std::vector<Command> by_tag_;
  std::vector<Time> measured_by_tag_;  ///< SourceRequest::measured_service of each tag's command
  std::vector<std::uint32_t> free_tags_;
  std::uint32_t sq_tail_ = 0, cq_head_ = 0;
  SourceRequest next_{};
  bool have_next_ = false;
  bool source_done_ = false;
  std::uint64_t next_id_ = 0;
  std::uint64_t completed_ = 0;
  std::uint64_t media_errors_ = 0;
  Time last_completion_{0};
  ConservationChecker conservation_;
  DataIntegrityChecker integrity_;
  sc_core::sc_event submit_event_;
  /// Absolute simulated time for which submit_event_ is notified, -1 when it is not pending. A
  /// notification at or after it would be ignored by the kernel (sc_event::notify keeps the
  /// earlier of two timed notifications), so notify_submit() skips it without the call.
  Time submit_due_{-1};
  void notify_submit(Time at);
  sc_core::sc_event stop_event_;    ///< stops the simulation (a handler served ahead of its time)
  bool in_handler_ = false;         ///< one of this host's handlers is running
  sc_core::sc_time handler_delay_;  ///< the running handler's time, from now
  tlm::tlm_generic_payload trans_;
  sc_core::sc_time offset_;
  Traced<std::uint32_t> outstanding_{0};
  Traced<std::uint64_t> completions_{0};
  DeadlineAssigner deadlines_;
  QosAssigner qos_;
  Traced<std::uint64_t> deadline_misses_{0};
  Traced<bool> deadline_miss_{false};
  sc_core::sc_event miss_pulse_end_;
  bool miss_pulse_ = false;  ///< deadline_miss is traced
};

}  // namespace drivevp
