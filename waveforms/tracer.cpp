#include "waveforms/tracer.h"

#include <algorithm>

#include "sysc/tracing/sc_tracing_ids.h"

namespace drivevp {

const char* to_string(TraceGroup g) {
  switch (g) {
    case TraceGroup::Mechanics:
      return "mechanics";
    case TraceGroup::Firmware:
      return "firmware";
    case TraceGroup::Bus:
      return "bus";
    case TraceGroup::Host:
      return "host";
    case TraceGroup::Sled:
      return "sled";
    case TraceGroup::Rounds:
      return "rounds";
  }
  return "?";
}

Tracer::Tracer(sc_core::sc_module_name name, Options options) : sc_module(name), options_(std::move(options)) {
  // set_time_unit reports "tracing timescale unit set" as an info; it is not news here.
  sc_core::sc_report_handler::set_actions(sc_core::SC_ID_TRACING_TIMESCALE_UNIT_, sc_core::SC_INFO,
                                          sc_core::SC_DO_NOTHING);
  file_ = sc_core::sc_create_vcd_trace_file(options_.vcd_path_base.c_str());
  file_->set_time_unit(1, sc_core::SC_PS);
  SC_HAS_PROCESS(Tracer);
  SC_METHOD(window);
  sensitive << window_event_;
  dont_initialize();
  window_event_.notify(options_.start);
}

Tracer::~Tracer() { close(); }

bool Tracer::enabled(TraceGroup g) const {
  return std::find(options_.groups.begin(), options_.groups.end(), g) != options_.groups.end();
}

void Tracer::window() {
  if (!live_) {
    live_ = true;
    for (auto& s : syncs_) s();
    if (options_.stop > options_.start) window_event_.notify(options_.stop - options_.start);
  } else {
    // The window ends: the traced copies freeze, and closing the file now makes the VCD's last
    // timestamp the window's end (SystemC writes the close time), so viewers show the window.
    live_ = false;
    close();
  }
}

void Tracer::close() {
  if (file_) {
    closed_at_ = sc_core::sc_time_stamp();
    sc_core::sc_close_vcd_trace_file(file_);
    file_ = nullptr;
  }
}

}  // namespace drivevp
