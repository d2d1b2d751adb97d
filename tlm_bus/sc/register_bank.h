// A register-bank helper for TLM targets: 32- and 64-bit registers at fixed offsets with read
// and write callbacks, decoded from a generic payload (loosely timed, b_transport).
#pragma once

#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>

namespace drivevp {

/// Registers of one device. Accesses must be naturally aligned and exactly the register's width
/// (4 or 8 bytes); anything else answers TLM_ADDRESS_ERROR_RESPONSE (unmapped offset) or
/// TLM_BURST_ERROR_RESPONSE (wrong width). Writes to a read-only register answer
/// TLM_COMMAND_ERROR_RESPONSE.
class RegisterBank {
 public:
  using Reader = std::function<std::uint64_t()>;
  using Writer = std::function<void(std::uint64_t value, tlm::tlm_generic_payload& trans)>;

  /// Adds a register. `width` is 4 or 8 bytes; a null writer makes it read-only; a null reader
  /// makes it write-only (reads return 0).
  void add(std::string name, std::uint64_t offset, unsigned width, Reader read, Writer write = nullptr) {
    regs_.push_back({std::move(name), offset, width, std::move(read), std::move(write)});
  }

  /// Serves one access at `offset` (relative to the bank) whose annotated delay is `delay`
  /// (callbacks read it through access_delay()). Returns true if a register matched.
  bool access(tlm::tlm_generic_payload& trans, std::uint64_t offset, const sc_core::sc_time& delay) {
    delay_ = &delay;
    for (const Reg& r : regs_) {
      if (r.offset != offset) continue;
      if (trans.get_data_length() != r.width) {
        trans.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
        return true;
      }
      if (trans.is_read()) {
        const std::uint64_t v = r.read ? r.read() : 0;
        std::memcpy(trans.get_data_ptr(), &v, r.width);  // little-endian host
      } else {
        if (!r.write) {
          trans.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
          return true;
        }
        std::uint64_t v = 0;
        std::memcpy(&v, trans.get_data_ptr(), r.width);
        r.write(v, trans);
      }
      trans.set_response_status(tlm::TLM_OK_RESPONSE);
      return true;
    }
    trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return false;
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
