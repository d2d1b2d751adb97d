// A register-bank helper for TLM targets: 32- and 64-bit registers at fixed offsets with read
// and write callbacks, decoded from a generic payload (loosely timed, b_transport).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>

namespace drivevp {

/// Registers of one device. An access starts at a register's offset and either is exactly that
/// register's width (4 or 8 bytes) or is a burst over consecutive registers (each following
/// register starts where the previous one ends) whose widths add up to the access length; the
/// registers are then read or written in address order, as one bus transaction. Anything else
/// answers TLM_ADDRESS_ERROR_RESPONSE (no register at the offset) or TLM_BURST_ERROR_RESPONSE
/// (length does not end on a register boundary, or a gap). A write that touches a read-only
/// register answers TLM_COMMAND_ERROR_RESPONSE and writes nothing.
class RegisterBank {
 public:
  using Reader = std::function<std::uint64_t()>;
  using Writer = std::function<void(std::uint64_t value, tlm::tlm_generic_payload& trans)>;

  /// Adds a register. `width` is 4 or 8 bytes; a null writer makes it read-only; a null reader
  /// makes it write-only (reads return 0).
  void add(std::string name, std::uint64_t offset, unsigned width, Reader read, Writer write = nullptr) {
    regs_.push_back({std::move(name), offset, width, std::move(read), std::move(write)});
    std::sort(regs_.begin(), regs_.end(), [](const Reg& a, const Reg& b) { return a.offset < b.offset; });
  }

  /// Serves one access at `offset` (relative to the bank) whose annotated delay is `delay`
  /// (callbacks read it through access_delay()). Returns true if a register matched.
  bool access(tlm::tlm_generic_payload& trans, std::uint64_t offset, const sc_core::sc_time& delay) {
    delay_ = &delay;
    auto first = std::find_if(regs_.begin(), regs_.end(), [offset](const Reg& r) { return r.offset == offset; });
    if (first == regs_.end()) {
      trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
      return false;
    }
    // Find the registers the access covers and check the burst is contiguous.
    const std::uint64_t length = trans.get_data_length();
    std::uint64_t covered = 0;
    auto last = first;
    for (auto it = first; it != regs_.end() && covered < length; ++it) {
      if (it->offset != offset + covered) break;
      if (trans.is_write() && !it->write) {
        trans.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
        return true;
      }
      covered += it->width;
      last = it + 1;
    }
    if (covered != length) {
      trans.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
      return true;
    }
    unsigned char* data = trans.get_data_ptr();
    for (auto it = first; it != last; ++it) {
      if (trans.is_read()) {
        const std::uint64_t v = it->read ? it->read() : 0;
        std::memcpy(data, &v, it->width);  // little-endian host
      } else {
        std::uint64_t v = 0;
        std::memcpy(&v, data, it->width);
        it->write(v, trans);
      }
      data += it->width;
    }
    trans.set_response_status(tlm::TLM_OK_RESPONSE);
    return true;
  }

  /// Inside a read or write callback: the annotated delay of the access being served, so that a
  /// register can act at the access's time (loosely timed: sc_time_stamp() + delay).
  const sc_core::sc_time& access_delay() const { return *delay_; }

 private:
  struct Reg {
    std::string name;
    std::uint64_t offset;
    unsigned width;
    Reader read;
    Writer write;
  };
  std::vector<Reg> regs_;
  const sc_core::sc_time* delay_ = &sc_core::SC_ZERO_TIME;
};

}  // namespace drivevp
