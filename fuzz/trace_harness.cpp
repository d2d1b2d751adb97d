#include "fuzz/trace_harness.h"

#include <stdexcept>

#include "fuzz/fuzz_input.h"

namespace drivevp::fuzz {
namespace {

/// FNV-1a of the input: picks the option variant, so that each input always meets the same one.
std::uint64_t hash(const std::uint8_t* data, std::size_t size) {
  std::uint64_t h = 1469598103934665603ULL;
  for (std::size_t i = 0; i < size; ++i) h = (h ^ data[i]) * 1099511628211ULL;
  return h;
}

void replay(const TraceOptions& o) {
  TraceStats stats;
  try {
    const auto source = open_trace(o, &stats);
    SourceRequest r;
    std::uint64_t yielded = 0;
    Time previous{0};
    while (source->next(r)) {
      ++yielded;
      const Command& c = r.command;
      if (c.arrival < Time{0}) invariant_failed("arrival before the start of the run");
      if (c.arrival < previous) invariant_failed("arrivals out of order");
      previous = c.arrival;
      if (c.blocks == 0) invariant_failed("a request of zero blocks");
      if (c.blocks > kMaxCommandBlocks) invariant_failed("a request above the firmware's largest transfer");
      if (c.arrival > kMaxArrival) invariant_failed("an arrival beyond the simulated-time limit");
      if (c.lbn >= o.capacity_blocks || c.blocks > o.capacity_blocks - c.lbn)
        invariant_failed("a request beyond the capacity");
      if (r.origin_line == 0 || r.origin_line > stats.lines) invariant_failed("origin line outside the file");
    }
    if (source->next(r)) invariant_failed("next() yielded after returning false");
    if (stats.requests != yielded) invariant_failed("stats.requests differs from the requests yielded");
    if (o.max_requests != 0 && yielded > o.max_requests) invariant_failed("more than max_requests");
    if (yielded > stats.trace_requests) invariant_failed("more requests than the trace holds");
    (void)source->describe();
  } catch (const TraceError&) {
  } catch (const std::invalid_argument&) {
  }
}

}  // namespace

void fuzz_trace(TraceFormat format, const std::uint8_t* data, std::size_t size) {
  static InputFile file;
  TraceOptions o;
  o.paths = {file.write(data, size)};
  o.format = format;
  const std::uint64_t h = hash(data, size);
  switch (h % 8) {
    case 0:
    case 1:  // the defaults of a strict replay: capacity policy 'error', all devices, no window
      o.capacity_blocks = std::uint64_t{1} << 40;
      break;
    case 2:  // wrap onto a tiny disk, one device
      o.capacity = CapacityPolicy::Wrap;
      o.capacity_blocks = 1000;
      o.device = 0;
      break;
    case 3:  // scale onto the HP 97560's capacity, slowed down, windowed
      o.capacity = CapacityPolicy::Scale;
      o.capacity_blocks = 2'576'000;
      o.time_scale = 0.001;
      o.start_s = 0.0005;
      o.stop_s = 1000;
      break;
    case 4:  // sped up, skip and limit, capacity error on a small disk
      o.capacity_blocks = 4096;
      o.time_scale = 1000;
      o.skip_requests = 1;
      o.max_requests = 3;
      o.device = 1;
      break;
    case 6:  // times stretched a billionfold: most inputs must be refused (simulated-time limit)
      o.capacity = CapacityPolicy::Wrap;
      o.capacity_blocks = 2'576'000;
      o.time_scale = 1e-9;
      break;
    case 7:  // a window at the far end of the trace clock (106 days), slowed down
      o.capacity_blocks = std::uint64_t{1} << 40;
      o.start_s = 9'000'000;
      o.stop_s = 9'223'371;
      o.time_scale = 1e-6;
      break;
    default:  // wrap onto a one-block disk
      o.capacity = CapacityPolicy::Wrap;
      o.capacity_blocks = 1;
      o.time_scale = 3.5;
      break;
  }
  o.lenient = ((h >> 8) & 1) != 0;
  if (((h >> 9) & 15) == 0) {
    // Two logs of the same format merged (only fio accepts several paths; the others refuse).
    static InputFile second;
    const std::size_t half = size / 2;
    o.paths = {file.write(data, half), second.write(data + half, size - half)};
  }
  replay(o);
}

}  // namespace drivevp::fuzz
