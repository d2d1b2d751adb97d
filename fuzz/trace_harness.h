// The body of the per-format trace harnesses (fuzz_trace_<format>.cpp): the input is one trace
// file of a forced format, opened through the public open_trace() API and consumed to the end.
#pragma once

#include <cstddef>
#include <cstdint>

#include "testbench/trace/trace_reader.h"

namespace drivevp::fuzz {

/// Replays `data` as a trace of `format` under one option set chosen from a hash of the input (so
/// that an input always meets the same one): the defaults of a strict replay, or a variant with
/// a device filter, a window, skip/max, time_scale, capacity policies wrap/scale on small disks,
/// lenient mode, or the input split in two files merged.
/// TraceError and std::invalid_argument are the API's documented errors; anything else escapes
/// (libFuzzer reports it), as do violations of the source's guarantees (non-decreasing arrivals,
/// 1 <= blocks, requests inside the capacity, counters consistent with what was yielded).
void fuzz_trace(TraceFormat format, const std::uint8_t* data, std::size_t size);

}  // namespace drivevp::fuzz
