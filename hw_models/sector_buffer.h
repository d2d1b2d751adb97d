// A device's sector buffer as a bus target: the memory the firmware DMAs a command's data
// through (docs/registers.md "Sector buffer"), shared by every device model (the disk's read
// channel, the MEMS device). The owner sizes it and catches its own state up before each access.
#pragma once

#include <tlm>

#include <cstdint>
#include <vector>

#include "tlm_bus/copy_bytes.h"

namespace drivevp {

/// The bytes of a sector buffer and its two bus paths.
struct SectorBuffer {
  std::vector<std::uint8_t> bytes;

  /// A DMI grant over the whole buffer (read/write, zero latency): false while it is empty.
  bool grant_dmi(tlm::tlm_dmi& dmi) {
    if (bytes.empty()) return false;
    dmi.set_dmi_ptr(bytes.data());
    dmi.set_start_address(0);
    dmi.set_end_address(bytes.size() - 1);
    dmi.allow_read_write();
    dmi.set_read_latency(sc_core::SC_ZERO_TIME);
    dmi.set_write_latency(sc_core::SC_ZERO_TIME);
    return true;
  }

  /// A read or write of [address, address + length): TLM_ADDRESS_ERROR_RESPONSE when any byte
  /// lies outside the buffer (checked without overflow), else the copy and TLM_OK_RESPONSE.
  void transport(tlm::tlm_generic_payload& trans) {
    const std::uint64_t off = trans.get_address();
    const std::uint64_t len = trans.get_data_length();
    if (off > bytes.size() || len > bytes.size() - off) {
      trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
      return;
    }
    if (trans.is_read())
      copy_bytes(trans.get_data_ptr(), bytes.data() + off, len);
    else
      copy_bytes(bytes.data() + off, trans.get_data_ptr(), len);
    trans.set_response_status(tlm::TLM_OK_RESPONSE);
  }
};

}  // namespace drivevp
