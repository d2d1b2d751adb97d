// RegisterBank (tlm_bus/sc/register_bank.h): single accesses, bursts over consecutive registers,
// reserved words in read bursts, and every error response.
#include <array>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <vector>

#include <catch2/catch_test_macros.hpp>

#include "tlm_bus/sc/register_bank.h"

namespace {

using drivevp::RegisterBank;

struct Bank {
  RegisterBank regs;
  std::uint64_t a = 0x11111111, b = 0x2222222233333333ull, d = 0x44444444;
  std::vector<std::uint64_t> writes;  // values written, in order
  Bank() {
    regs.add(
        "A", 0x00, 4, [this] { return a; },
        [this](std::uint64_t v, tlm::tlm_generic_payload&) {
          a = v;
          writes.push_back(v);
        });
    regs.add(
        "B", 0x04, 8, [this] { return b; },
        [this](std::uint64_t v, tlm::tlm_generic_payload&) {
          b = v;
          writes.push_back(v);
        });
    // 0x0C is reserved.
    regs.add("D", 0x10, 4, [this] { return d; });  // read-only
  }
  tlm::tlm_response_status access(tlm::tlm_command cmd, std::uint64_t offset, void* data, unsigned length) {
    tlm::tlm_generic_payload t;
    t.set_command(cmd);
    t.set_address(offset);
    t.set_data_ptr(static_cast<unsigned char*>(data));
    t.set_data_length(length);
    regs.access(t, offset, sc_core::SC_ZERO_TIME);
    return t.get_response_status();
  }
};

}  // namespace

TEST_CASE("sim: Register bank serves single accesses and bursts in address order", "[sim][bus][registers]") {
  Bank bank;
  std::uint64_t v = 0;
  CHECK(bank.access(tlm::TLM_READ_COMMAND, 0x04, &v, 8) == tlm::TLM_OK_RESPONSE);
  CHECK(v == 0x2222222233333333ull);
  // A read burst from A over B, the reserved word at 0x0C (reads 0) and D: 20 bytes.
  std::array<unsigned char, 20> burst{};
  burst.fill(0xFF);
  REQUIRE(bank.access(tlm::TLM_READ_COMMAND, 0x00, burst.data(), 20) == tlm::TLM_OK_RESPONSE);
  std::uint32_t w[5];
  std::memcpy(w, burst.data(), 20);
  CHECK(w[0] == 0x11111111u);
  CHECK(w[1] == 0x33333333u);
  CHECK(w[2] == 0x22222222u);
  CHECK(w[3] == 0u);
  CHECK(w[4] == 0x44444444u);
  // A write burst A, B: both written, in address order, as one access.
  unsigned char out[12];
  const std::uint32_t na = 7;
  const std::uint64_t nb = 9;
  std::memcpy(out, &na, 4);
  std::memcpy(out + 4, &nb, 8);
  REQUIRE(bank.access(tlm::TLM_WRITE_COMMAND, 0x00, out, 12) == tlm::TLM_OK_RESPONSE);
  CHECK(bank.writes == std::vector<std::uint64_t>{7, 9});
}

TEST_CASE("sim: Register bank answers each malformed access with its error", "[sim][bus][registers]") {
  Bank bank;
  unsigned char buf[32] = {};
  // No register at the start offset.
  CHECK(bank.access(tlm::TLM_READ_COMMAND, 0x0C, buf, 4) == tlm::TLM_ADDRESS_ERROR_RESPONSE);
  CHECK(bank.access(tlm::TLM_READ_COMMAND, 0x02, buf, 4) == tlm::TLM_ADDRESS_ERROR_RESPONSE);
  // A length that splits B.
  CHECK(bank.access(tlm::TLM_READ_COMMAND, 0x00, buf, 8) == tlm::TLM_BURST_ERROR_RESPONSE);
  // A read burst that ends inside a reserved word (between registers or after the last one).
  CHECK(bank.access(tlm::TLM_READ_COMMAND, 0x00, buf, 14) == tlm::TLM_BURST_ERROR_RESPONSE);
  CHECK(bank.access(tlm::TLM_READ_COMMAND, 0x10, buf, 6) == tlm::TLM_BURST_ERROR_RESPONSE);
  // Whole reserved words after the last register read as 0.
  std::memset(buf, 0xFF, sizeof buf);
  CHECK(bank.access(tlm::TLM_READ_COMMAND, 0x10, buf, 8) == tlm::TLM_OK_RESPONSE);
  CHECK((buf[4] | buf[5] | buf[6] | buf[7]) == 0);
  // A write burst over the reserved word, and a write to the read-only D: nothing written.
  CHECK(bank.access(tlm::TLM_WRITE_COMMAND, 0x00, buf, 20) == tlm::TLM_BURST_ERROR_RESPONSE);
  CHECK(bank.access(tlm::TLM_WRITE_COMMAND, 0x10, buf, 4) == tlm::TLM_COMMAND_ERROR_RESPONSE);
  CHECK(bank.writes.empty());
}

TEST_CASE("sim: Register bank serves an added burst in one call and refuses an invalid one", "[sim][bus][registers]") {
  Bank bank;
  int calls = 0;
  bank.regs.add_burst(0x00, 12, false, [&](unsigned char* data, tlm::tlm_generic_payload&) {
    ++calls;
    std::uint32_t a = 0;
    std::uint64_t b = 0;
    std::memcpy(&a, data, 4);
    std::memcpy(&b, data + 4, 8);
    bank.a = a;
    bank.b = b;
  });
  unsigned char out[12];
  const std::uint32_t na = 5;
  const std::uint64_t nb = 6;
  std::memcpy(out, &na, 4);
  std::memcpy(out + 4, &nb, 8);
  REQUIRE(bank.access(tlm::TLM_WRITE_COMMAND, 0x00, out, 12) == tlm::TLM_OK_RESPONSE);
  CHECK(calls == 1);
  CHECK(bank.a == 5);
  CHECK(bank.b == 6);
  CHECK(bank.writes.empty());  // the registers' writers were not called
  // Other accesses still go register by register: the same burst as a read, a single register.
  unsigned char in[12] = {};
  REQUIRE(bank.access(tlm::TLM_READ_COMMAND, 0x00, in, 12) == tlm::TLM_OK_RESPONSE);
  CHECK(calls == 1);
  REQUIRE(bank.access(tlm::TLM_WRITE_COMMAND, 0x00, out, 4) == tlm::TLM_OK_RESPONSE);
  CHECK(bank.writes == std::vector<std::uint64_t>{5});
  // Not valid over the registers: a split register, a write over a reserved word or a read-only
  // register, no register at the start, a single register.
  auto none = [](unsigned char*, tlm::tlm_generic_payload&) {};
  CHECK_THROWS_AS(bank.regs.add_burst(0x00, 8, true, none), std::logic_error);
  CHECK_THROWS_AS(bank.regs.add_burst(0x00, 20, false, none), std::logic_error);
  CHECK_THROWS_AS(bank.regs.add_burst(0x10, 8, false, none), std::logic_error);
  CHECK_THROWS_AS(bank.regs.add_burst(0x0C, 8, true, none), std::logic_error);
  CHECK_THROWS_AS(bank.regs.add_burst(0x04, 8, true, none), std::logic_error);
  CHECK_NOTHROW(bank.regs.add_burst(0x00, 20, true, none));  // a read over the reserved word is valid
}
