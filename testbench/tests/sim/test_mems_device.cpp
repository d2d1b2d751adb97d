// MemsDevice (hw_models/mems/sc/mems_device.h) driven directly over TLM by a small initiator in
// this file (no controller): registers and error responses, exact access times against the
// hw_models/mems functions, the done interrupt, data through the sector buffer, the startup delay,
// energy, and the parameter page. One simulation per TEST_CASE (ctest runs each in its own process).
#include <unistd.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <tlm_utils/simple_initiator_socket.h>
#include <catch2/catch_test_macros.hpp>
#include <systemc>

#include "hw_models/mems/mems_page.h"
#include "hw_models/mems/sc/mems_device.h"
#include "tlm_bus/sc/time.h"
#include "waveforms/tracer.h"

namespace {

using namespace drivevp;
namespace r = drivevp::mems_regs;

struct Host : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<Host> regs{"regs"};
  tlm_utils::simple_initiator_socket<Host> buf{"buf"};
  tlm_utils::simple_initiator_socket<Host> page{"page"};
  MemsDevice& dev;
  std::function<void(Host&)> script;
  bool finished = false;
  std::vector<Time> irqs;  ///< times the done interrupt fired

  Host(sc_core::sc_module_name n, MemsDevice& d, std::function<void(Host&)> s)
      : sc_module(n), dev(d), script(std::move(s)) {
    regs.bind(d.socket);
    buf.bind(d.buffer_socket);
    page.bind(d.param_socket);
    SC_HAS_PROCESS(Host);
    SC_THREAD(run);
    SC_METHOD(count_irq);
    sensitive << d.done_irq.event();
    dont_initialize();
  }
  void count_irq() { irqs.push_back(sim_now()); }
  void run() {
    script(*this);
    finished = true;
  }
  tlm::tlm_response_status access(tlm_utils::simple_initiator_socket<Host>& s, tlm::tlm_command cmd, std::uint64_t addr,
                                  void* data, unsigned len) {
    tlm::tlm_generic_payload t;
    t.set_command(cmd);
    t.set_address(addr);
    t.set_data_ptr(static_cast<unsigned char*>(data));
    t.set_data_length(len);
    t.set_streaming_width(len);
    t.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    s->b_transport(t, delay);
    return t.get_response_status();
  }
  std::uint64_t rd(std::uint64_t off, unsigned len) {
    std::uint64_t v = 0;
    REQUIRE(access(regs, tlm::TLM_READ_COMMAND, off, &v, len) == tlm::TLM_OK_RESPONSE);
    return v;
  }
  void wr(std::uint64_t off, std::uint64_t v, unsigned len) {
    REQUIRE(access(regs, tlm::TLM_WRITE_COMMAND, off, &v, len) == tlm::TLM_OK_RESPONSE);
  }
  /// One AccessBurst at LBN.
  void start(std::uint64_t lbn, std::uint32_t count, std::uint32_t cmd) {
    r::AccessBurst b{lbn, count, cmd};
    REQUIRE(access(regs, tlm::TLM_WRITE_COMMAND, r::kLbn, &b, sizeof b) == tlm::TLM_OK_RESPONSE);
  }
  /// Waits for the done interrupt; returns the done burst (read-to-clear) and the time it rose.
  r::AccessDoneBurst wait_done(Time* when = nullptr) {
    sc_core::wait(dev.done_irq.event());
    if (when) *when = sim_now();
    r::AccessDoneBurst d{};
    REQUIRE(access(regs, tlm::TLM_READ_COMMAND, r::kIrqAck, &d, sizeof d) == tlm::TLM_OK_RESPONSE);
    return d;
  }
  r::SledBurst sled() {
    r::SledBurst s{};
    REQUIRE(access(regs, tlm::TLM_READ_COMMAND, r::kSledXNm, &s, sizeof s) == tlm::TLM_OK_RESPONSE);
    return s;
  }
  void wait_until(Time t) {
    REQUIRE(t >= sim_now());
    sc_core::wait(to_sc(t - sim_now()));
  }
};

/// Elaborates one device and one host running `script`, simulates to the end.
void simulate(const mems::MemsParams& p, std::function<void(Host&)> script) {
  auto dev = std::make_unique<MemsDevice>("mems", p);
  auto host = std::make_unique<Host>("host", *dev, std::move(script));
  sc_core::sc_start();
  REQUIRE(host->finished);
}

bool same_params(const mems::MemsParams& a, const mems::MemsParams& b) {
  return a.preset == b.preset && a.sled_movement_x_nm == b.sled_movement_x_nm &&
         a.sled_movement_y_nm == b.sled_movement_y_nm && a.bit_length_nm == b.bit_length_nm &&
         a.tip_sector_bits == b.tip_sector_bits && a.servo_burst_bits == b.servo_burst_bits &&
         a.tip_sectors_per_block == b.tip_sectors_per_block && a.tips_total == b.tips_total &&
         a.tips_active == b.tips_active && a.sleds == b.sleds && a.bidirectional_access == b.bidirectional_access &&
         a.layout == b.layout && a.sled_acceleration_x == b.sled_acceleration_x &&
         a.sled_acceleration_y == b.sled_acceleration_y && a.tip_data_rate_bps == b.tip_data_rate_bps &&
         a.resonant_frequency_hz == b.resonant_frequency_hz && a.settling_time_constants == b.settling_time_constants &&
         a.spring_constant_factor == b.spring_constant_factor && a.command_overhead_ms == b.command_overhead_ms &&
         a.time_before_inactive_ms == b.time_before_inactive_ms && a.startup_delay_ms == b.startup_delay_ms &&
         a.sled_active_power_mw == b.sled_active_power_mw && a.sled_inactive_power_mw == b.sled_inactive_power_mw &&
         a.tip_access_power_mw == b.tip_access_power_mw;
}

}  // namespace

TEST_CASE("sim: MEMS device registers answer reads, writes and every error", "[sim][mems][registers]") {
  simulate(mems::mems_g1(), [](Host& h) {
    const std::uint64_t cap = h.dev.seek().layout().capacity();
    // Read/write registers keep what is written; a burst writes LBN and COUNT together.
    h.wr(r::kLbn, 1234, 8);
    CHECK(h.rd(r::kLbn, 8) == 1234);
    r::TargetBurst tb{0, 7, 3, 5, 9};
    REQUIRE(h.access(h.regs, tlm::TLM_WRITE_COMMAND, r::kTargetSled, &tb, sizeof tb) == tlm::TLM_OK_RESPONSE);
    CHECK(h.rd(r::kTargetCylinder, 4) == 7);
    CHECK(h.rd(r::kTargetCell, 4) == 9);
    CHECK(h.rd(r::kStatus, 4) == 0);
    CHECK(h.rd(r::kPowerState, 4) == r::kPowerIdle);
    // Sled at rest in the centre at time 0, moving +Y.
    const r::SledBurst s = h.sled();
    CHECK(s.x_nm == 0);
    CHECK(s.y_nm == 0);
    CHECK(s.y_direction == 1);
    CHECK(s.active_tips == 0);
    std::uint64_t v = 0;
    // No register at 0x04 (inside LBN), a write to a read-only register, a length splitting LBN.
    CHECK(h.access(h.regs, tlm::TLM_READ_COMMAND, 0x04, &v, 4) == tlm::TLM_ADDRESS_ERROR_RESPONSE);
    CHECK(h.access(h.regs, tlm::TLM_WRITE_COMMAND, r::kStatus, &v, 4) == tlm::TLM_COMMAND_ERROR_RESPONSE);
    CHECK(h.access(h.regs, tlm::TLM_WRITE_COMMAND, r::kEnergyNj, &v, 8) == tlm::TLM_COMMAND_ERROR_RESPONSE);
    CHECK(h.access(h.regs, tlm::TLM_READ_COMMAND, r::kLbn, &v, 4) == tlm::TLM_BURST_ERROR_RESPONSE);
    // The parameter page is read-only and ends where the struct ends; the buffer is COUNT blocks.
    CHECK(h.access(h.page, tlm::TLM_WRITE_COMMAND, 0, &v, 4) == tlm::TLM_COMMAND_ERROR_RESPONSE);
    CHECK(h.access(h.page, tlm::TLM_READ_COMMAND, sizeof(MemsParameterPage) - 4, &v, 8) ==
          tlm::TLM_ADDRESS_ERROR_RESPONSE);
    CHECK(h.access(h.buf, tlm::TLM_READ_COMMAND, 0, &v, 8) == tlm::TLM_ADDRESS_ERROR_RESPONSE);
    // Refused commands: each raises the done interrupt at once with the error bit, nothing moves.
    const auto refused = [&](std::uint64_t lbn, std::uint32_t count, std::uint32_t cmd) {
      const Time t = sim_now();
      h.start(lbn, count, cmd);
      Time when{-1};
      const r::AccessDoneBurst d = h.wait_done(&when);
      CHECK(when == t);
      CHECK(d.status == (r::kStatusError | r::kStatusDonePending));
      CHECK(h.rd(r::kStatus, 4) == r::kStatusError);
      CHECK(h.dev.commands_completed() == 0);
    };
    refused(0, 0, r::kCmdRead);               // 0 blocks
    refused(cap - 1, 2, r::kCmdRead);         // passes the capacity
    refused(cap, 1, r::kCmdWrite);            // beyond the capacity
    refused(0, 1, 7);                         // unknown command
    refused(0, 1, r::kCmdRead | (1u << 12));  // unknown flag
    tb = {0, 2000, 0, 0, 0};                  // cylinder out of range (G1 has 2000)
    REQUIRE(h.access(h.regs, tlm::TLM_WRITE_COMMAND, r::kTargetSled, &tb, sizeof tb) == tlm::TLM_OK_RESPONSE);
    refused(0, 1, r::kCmdRead | r::kCmdUseTarget);
    // A command while busy is refused; the first one still completes on time.
    h.start(0, 1, r::kCmdRead);
    CHECK((h.rd(r::kStatus, 4) & r::kStatusBusy) != 0);
    const Time end{static_cast<std::int64_t>(h.rd(r::kAccessEndPs, 8))};
    h.start(5, 1, r::kCmdRead);
    CHECK(h.rd(r::kIrqAck, 4) == (r::kStatusBusy | r::kStatusError | r::kStatusDonePending));
    h.wait_until(end - Time{1});
    CHECK(h.rd(r::kStatus, 4) == (r::kStatusBusy | r::kStatusError | r::kStatusTransferring));
    CHECK(h.dev.commands_completed() == 0);
    h.wait_until(end);
    // The accepted command completes; its completion clears the refusal's error bit.
    CHECK(h.rd(r::kIrqAck, 4) == r::kStatusDonePending);
    CHECK(h.dev.commands_completed() == 1);
    CHECK(h.rd(r::kStatus, 4) == 0);
  });
}

TEST_CASE("sim: MEMS access times equal the hw_models/mems functions to the picosecond", "[sim][mems][timing]") {
  const mems::MemsParams p = mems::mems_g1();
  simulate(p, [&](Host& h) {
    const mems::MemsSeek seek(p);
    const mems::MemsLayout& L = seek.layout();
    mems::SledState sled;  // centre, +Y
    struct Req {
      std::uint64_t lbn;
      std::uint32_t count;
      Time gap;
    };
    // Single blocks far apart, a run inside one column, runs across columns and a cylinder.
    const std::vector<Req> reqs = {{1'234'567, 1, Time{0}},
                                   {4'399'999, 1, from_ms(1)},
                                   {17, 8, from_ms(0.25)},
                                   {2'190, 40, Time{123'456}},
                                   {L.blocks_per_cylinder() * 999 + 5, 300, from_ms(2)},
                                   {0, 1, Time{0}}};
    for (const Req& q : reqs) {
      h.wait_until(sim_now() + q.gap);
      const Time t0 = sim_now();
      const mems::MediaAccess m = seek.access(sled, q.lbn, q.count);
      h.start(q.lbn, q.count, r::kCmdRead);
      CHECK(h.rd(r::kPowerState, 4) == r::kPowerActive);
      Time irq{-1};
      const r::AccessDoneBurst d = h.wait_done(&irq);
      CHECK(d.status == r::kStatusDonePending);
      CHECK(Time{static_cast<std::int64_t>(d.access_start_ps)} == t0);
      CHECK(d.startup_ps == 0);
      CHECK(Time{static_cast<std::int64_t>(d.positioning_end_ps)} == t0 + m.positioning);
      CHECK(Time{static_cast<std::int64_t>(d.access_end_ps)} == t0 + m.total());
      CHECK(irq == t0 + m.total());
      CHECK(d.rows == m.rows);
      CHECK(d.runs == m.runs);
      const r::SledBurst s = h.sled();
      CHECK(s.x_nm == m.end.x_nm);
      CHECK(s.y_nm == m.end.y_nm);
      CHECK(s.y_direction == m.end.y_direction);
      sled = m.end;
    }
    // Mid-sweep: Y moves at the access velocity from the pass start, tips transfer.
    {
      const std::uint64_t lbn = 3 * L.blocks_per_column();  // a full column: 22 rows
      const mems::MediaAccess m = seek.access(sled, lbn, static_cast<std::uint32_t>(L.blocks_per_column()));
      REQUIRE(m.runs == 1);
      const Time t0 = sim_now();
      h.start(lbn, static_cast<std::uint32_t>(L.blocks_per_column()), r::kCmdRead);
      const Time mid = t0 + m.positioning + Time{100'000'000};  // 100 µs into the sweep
      h.wait_until(mid);
      const r::SledBurst s = h.sled();
      const std::int64_t sweep = std::int64_t{m.rows} * L.row_bits() * L.bit_length_nm();
      const std::int64_t y_start = m.end.y_nm - m.end.y_direction * sweep;
      CHECK(s.x_nm == m.end.x_nm);
      CHECK(s.y_nm == y_start + m.end.y_direction * 2000);  // 2e7 nm/s x 100 µs
      CHECK(s.active_tips == 640);
      CHECK((h.rd(r::kStatus, 4) & r::kStatusTransferring) != 0);
      h.wait_done();
      sled = m.end;
    }
    // A move, then an access of the same block, positions once; the target registers address it.
    {
      const std::uint64_t lbn = 777'777;
      const mems::BlockAddress a = L.locate(lbn);
      r::TargetBurst tb{a.sled, a.cylinder, a.column, L.physical_row(a.cylinder, a.column, a.row), a.cell};
      REQUIRE(h.access(h.regs, tlm::TLM_WRITE_COMMAND, r::kTargetSled, &tb, sizeof tb) == tlm::TLM_OK_RESPONSE);
      const Time t0 = sim_now();
      const mems::MediaAccess full = seek.access(sled, lbn, 1);
      h.wr(r::kCommand, r::kCmdMove | r::kCmdUseTarget, 4);
      const r::AccessDoneBurst d = h.wait_done();
      CHECK(h.rd(r::kLbn, 8) == lbn);
      CHECK(Time{static_cast<std::int64_t>(d.access_end_ps)} == t0 + full.positioning);
      CHECK(d.rows == 0);
      const Time t1 = sim_now();
      h.start(lbn, 1, r::kCmdRead);
      const r::AccessDoneBurst d2 = h.wait_done();
      CHECK(Time{static_cast<std::int64_t>(d2.positioning_end_ps)} == t1);
      CHECK(Time{static_cast<std::int64_t>(d2.access_end_ps)} == t1 + full.transfer);
    }
  });
}

TEST_CASE("sim: MEMS data written through the sector buffer reads back", "[sim][mems][data]") {
  simulate(mems::mems_g2(), [](Host& h) {
    const std::uint32_t n = 25;  // crosses a row and a column boundary of G2 (20 cells per row)
    const std::uint64_t lbn = 540 - 7;
    std::vector<std::uint8_t> out(n * kBlockBytes), in(n * kBlockBytes);
    for (std::size_t i = 0; i < out.size(); ++i) out[i] = static_cast<std::uint8_t>(i * 131 + 7);
    h.wr(r::kCount, n, 4);
    REQUIRE(h.access(h.buf, tlm::TLM_WRITE_COMMAND, 0, out.data(), static_cast<unsigned>(out.size())) ==
            tlm::TLM_OK_RESPONSE);
    h.start(lbn, n, r::kCmdWrite);
    h.wait_done();
    // Clobber the buffer, read back: the written bytes.
    std::vector<std::uint8_t> zero(n * kBlockBytes, 0);
    REQUIRE(h.access(h.buf, tlm::TLM_WRITE_COMMAND, 0, zero.data(), static_cast<unsigned>(zero.size())) ==
            tlm::TLM_OK_RESPONSE);
    h.start(lbn, n, r::kCmdRead);
    h.wait_done();
    REQUIRE(h.access(h.buf, tlm::TLM_READ_COMMAND, 0, in.data(), static_cast<unsigned>(in.size())) ==
            tlm::TLM_OK_RESPONSE);
    CHECK(in == out);
    // Blocks never written read as the store's unwritten pattern (the LBN in every word), and a
    // read overlapping written and unwritten blocks gets both.
    h.start(lbn + n - 2, 4, r::kCmdRead);
    h.wait_done();
    REQUIRE(h.access(h.buf, tlm::TLM_READ_COMMAND, 0, in.data(), 4 * kBlockBytes) == tlm::TLM_OK_RESPONSE);
    CHECK(std::memcmp(in.data(), out.data() + (n - 2) * kBlockBytes, 2 * kBlockBytes) == 0);
    for (std::uint64_t b = 2; b < 4; ++b)
      for (std::size_t w = 0; w < kBlockBytes / 8; ++w) {
        std::uint64_t word = 0;
        std::memcpy(&word, in.data() + b * kBlockBytes + w * 8, 8);
        CHECK(word == BackingStore::unwritten_word(lbn + n - 2 + b));
      }
  });
}

TEST_CASE("sim: MEMS startup delay after the idle timeout, and not before", "[sim][mems][power]") {
  const mems::MemsParams p = mems::mems_g1();
  simulate(p, [&](Host& h) {
    const mems::MemsSeek seek(p);
    const Time timeout = p.time_before_inactive();
    REQUIRE(timeout == from_ms(100));
    mems::SledState sled;
    auto access = [&](std::uint64_t lbn, Time expected_startup) {
      const Time t0 = sim_now();
      const mems::MediaAccess m = seek.access(sled, lbn, 2);
      h.start(lbn, 2, r::kCmdRead);
      CHECK(((h.rd(r::kStatus, 4) & r::kStatusStartup) != 0) == (expected_startup > Time{0}));
      Time irq{-1};
      const r::AccessDoneBurst d = h.wait_done(&irq);
      CHECK(Time{static_cast<std::int64_t>(d.startup_ps)} == expected_startup);
      CHECK(Time{static_cast<std::int64_t>(d.positioning_end_ps)} == t0 + expected_startup + m.positioning);
      CHECK(irq == t0 + expected_startup + m.total());
      sled = m.end;
    };
    access(100, Time{0});  // time 0: no startup
    // Idle 1 ps less than the timeout: still idle, no startup.
    h.wait_until(sim_now() + timeout - Time{1});
    CHECK(h.rd(r::kPowerState, 4) == r::kPowerIdle);
    access(200'000, Time{0});
    // Idle exactly the timeout: inactive, the next access pays 0.5 ms first.
    h.wait_until(sim_now() + timeout);
    CHECK(h.rd(r::kPowerState, 4) == r::kPowerInactive);
    access(3'000'000, from_ms(0.5));
    h.wait_until(sim_now() + from_ms(250));
    access(5, from_ms(0.5));
    CHECK(h.rd(r::kStartups, 4) == 2);
  });
}

TEST_CASE("sim: MEMS energy of a scripted sequence", "[sim][mems][power]") {
  mems::MemsParams p = mems::mems_g3();
  p.sled_active_power_mw = 100;
  p.sled_inactive_power_mw = 10;
  p.tip_access_power_mw = 0.5;
  simulate(p, [&](Host& h) {
    const mems::MemsSeek seek(p);
    // At 1 ms: 70 blocks from 1000 (sled at the centre); idle 40 ms; 5 blocks at 9,000,000;
    // idle 300 ms (100 idle, 200 inactive); startup, then 1 block at 42; finally 10 ms idle.
    const Time a0 = from_ms(1);
    const mems::MediaAccess m0 = seek.access({}, 1000, 70);
    const Time a1 = a0 + m0.total() + from_ms(40);
    const mems::MediaAccess m1 = seek.access(m0.end, 9'000'000, 5);
    const Time a2 = a1 + m1.total() + from_ms(300);
    const Time su = p.startup_delay();
    const mems::MediaAccess m2 = seek.access(m1.end, 42, 1);
    const Time end2 = a2 + su + m2.total();
    const Time stop = end2 + from_ms(10);
    h.wait_until(a0);
    h.start(1000, 70, r::kCmdRead);
    h.wait_done();
    h.wait_until(a1);
    h.start(9'000'000, 5, r::kCmdRead);
    h.wait_done();
    h.wait_until(a2);
    h.start(42, 1, r::kCmdRead);
    Time irq{-1};
    h.wait_done(&irq);
    REQUIRE(irq == end2);
    h.wait_until(stop);
    const mems::EnergyMeter e = h.dev.energy_at(stop);
    const Time active = m0.total() + m1.total() + su + m2.total();
    const Time idle = a0 + from_ms(40) + from_ms(100) + from_ms(10);
    const Time inactive = from_ms(200);
    CHECK(e.time_in(mems::SledPowerState::Active) == active);
    CHECK(e.time_in(mems::SledPowerState::Idle) == idle);
    CHECK(e.time_in(mems::SledPowerState::Inactive) == inactive);
    CHECK(e.startups() == 1);
    const double tip_j = (m0.tip_seconds + m1.tip_seconds + m2.tip_seconds) * 0.5e-3;
    const double expected = 0.1 * to_s(active) + 0.1 * to_s(idle) + 0.01 * to_s(inactive) + tip_j;
    CHECK(std::abs(e.tip_joules() - tip_j) <= 1e-12 * tip_j);
    CHECK(std::abs(e.joules() - expected) <= 1e-12 * expected);
    CHECK(h.rd(r::kEnergyNj, 8) == static_cast<std::uint64_t>(std::llround(e.joules() * 1e9)));
    CHECK(std::abs(h.dev.last_command_joules() - (0.1 * to_s(su + m2.total()) + m2.tip_seconds * 0.5e-3)) <= 1e-15);
  });
}

TEST_CASE("sim: MEMS parameter page round trip for G1, G2, G3", "[sim][mems][page]") {
  // A malformed page is refused before anything is built from it. Checked before sc_start():
  // after SystemC's coroutine switches, AddressSanitizer misreads an exception's unwinding
  // (testbench/sim/sanitizer_stack.h).
  const MemsParameterPage good = mems::make_mems_page(mems::mems_g1());
  MemsParameterPage bad = good;
  bad.header.magic ^= 1;
  CHECK_THROWS_AS(mems::mems_params_from_page(bad), std::invalid_argument);
  bad = good;
  bad.header.version = 1;
  CHECK_THROWS_AS(mems::mems_params_from_page(bad), std::invalid_argument);
  bad = good;
  bad.header.kind = DeviceKind::Disk;
  CHECK_THROWS_AS(mems::mems_params_from_page(bad), std::invalid_argument);
  bad = good;
  bad.capacity_blocks += 1;
  CHECK_THROWS_AS(mems::mems_params_from_page(bad), std::invalid_argument);
  bad = good;
  bad.spring_constant_factor = 1.5;
  CHECK_THROWS_AS(mems::mems_params_from_page(bad), std::invalid_argument);
  std::vector<mems::MemsParams> presets = {mems::mems_g1(), mems::mems_g2(), mems::mems_g3()};
  std::vector<std::unique_ptr<MemsDevice>> devs;
  for (const auto& p : presets) devs.push_back(std::make_unique<MemsDevice>(p.preset.c_str(), p));
  std::vector<MemsParameterPage> pages(3);
  std::vector<std::unique_ptr<Host>> hosts;
  for (std::size_t i = 0; i < 3; ++i)
    hosts.push_back(std::make_unique<Host>(("host" + std::to_string(i)).c_str(), *devs[i], [&pages, i](Host& h) {
      REQUIRE(h.access(h.page, tlm::TLM_READ_COMMAND, 0, &pages[i], sizeof(MemsParameterPage)) == tlm::TLM_OK_RESPONSE);
    }));
  sc_core::sc_start();
  const std::uint64_t caps[3] = {4'400'000, 6'750'000, 11'998'800};
  for (std::size_t i = 0; i < 3; ++i) {
    CHECK(hosts[i]->finished);
    const MemsParameterPage& g = pages[i];
    CHECK(g.header.kind == DeviceKind::Mems);
    CHECK(g.header.page_bytes == sizeof(MemsParameterPage));
    CHECK(g.capacity_blocks == caps[i]);
    CHECK(same_params(mems::mems_params_from_page(g), presets[i]));
    CHECK(mems::seek_method_from_page(g) == mems::SeekMethod::Exact);
  }
}

TEST_CASE("sim: a MEMS batch at one (x, y) across k regions completes in one access", "[sim][mems][batch]") {
  // G1 in 002's along-Y layout, springs off so the time has a closed form: X from rest to rest
  // over d is 2√(d/a), a Y seek from v to v over d is 2(−v + √(v² + a·d))/a, settle 2/(2π·739 Hz),
  // a row 90 · 50 nm / 2e7 nm/s = 225 µs.
  mems::MemsParams p = mems::mems_g1();
  p.layout = mems::LayoutOrder::AlongY;
  p.spring_constant_factor = 0;
  p.sled_active_power_mw = 100;
  p.tip_access_power_mw = 1;
  simulate(p, [&](Host& h) {
    const mems::MemsSeek seek(p);
    const mems::MemsLayout& L = seek.layout();
    // k = 7 regions (cells) of column 3 on cylinder 1234, all starting at row 4, 1..5 rows each.
    const std::uint32_t cells[] = {9, 0, 5, 2, 7, 1, 3};
    const std::uint32_t counts[] = {3, 1, 5, 2, 4, 1, 2};
    const std::uint32_t k = 7, longest = 5, blocks = 18;
    std::vector<r::BatchEntry> table;
    std::vector<mems::BatchSpan> spans;
    for (std::uint32_t i = 0; i < k; ++i) {
      const std::uint64_t lbn = L.lbn({0, 1234, 3, 4, cells[i]});
      table.push_back({lbn, counts[i], r::kCmdWrite});
      spans.push_back({lbn, counts[i]});
    }
    const mems::SledState centre{};
    const mems::MediaAccess m = seek.access_batch(centre, spans);
    // The closed form: from the centre (x 0, y 0, +Y) to cylinder 1234 (x = 234·50 nm) and row 4's
    // up pass (y = (4·90 − 995)·50 nm): X + settle dominates.
    const double a = 688.8e9, v = 2e7, row_s = 225e-6;
    const double x_s = 2 * std::sqrt(234 * 50 / a), settle_s = 2 / (2 * 3.14159265358979323846 * 739);
    const double dy = std::abs((4 * 90 - 995) * 50.0);
    const double y_s = 2 * (-v + std::sqrt(v * v + a * dy)) / a + 2 * v / a;  // and one turnaround (−Y)
    REQUIRE(L.up_pass(4).y_servo_nm == (4 * 90 - 995) * 50);
    CHECK(m.positioning == std::max(from_s(x_s) + from_s(settle_s), from_s(y_s)));
    CHECK(m.transfer == from_s(longest * row_s));
    CHECK(m.runs == 1);
    CHECK(m.rows == longest);
    CHECK(std::abs(static_cast<double>(m.total().count()) - (std::max(x_s + settle_s, y_s) + longest * row_s) * 1e12) <=
          2.0);

    // The table reads back what was written; the buffer grows to the entries' blocks.
    h.wr(r::kBatchCount, k, 4);
    REQUIRE(h.access(h.regs, tlm::TLM_WRITE_COMMAND, r::kBatchTable, table.data(),
                     static_cast<unsigned>(k * sizeof(r::BatchEntry))) == tlm::TLM_OK_RESPONSE);
    CHECK(h.rd(r::kBatchCount, 4) == k);
    std::vector<r::BatchEntry> back(k);
    REQUIRE(h.access(h.regs, tlm::TLM_READ_COMMAND, r::kBatchTable, back.data(),
                     static_cast<unsigned>(k * sizeof(r::BatchEntry))) == tlm::TLM_OK_RESPONSE);
    for (std::uint32_t i = 0; i < k; ++i) {
      CHECK(back[i].lbn == table[i].lbn);
      CHECK(back[i].count == table[i].count);
      CHECK(back[i].op == r::kCmdWrite);
    }
    CHECK(h.rd(r::kBatchTable + 16 * 6 + 8, 4) == 2);  // entry 6's count alone
    std::vector<std::uint8_t> out(blocks * kBlockBytes), in(blocks * kBlockBytes);
    for (std::size_t i = 0; i < out.size(); ++i) out[i] = static_cast<std::uint8_t>(i * 37 + i / 512);
    REQUIRE(h.access(h.buf, tlm::TLM_WRITE_COMMAND, 0, out.data(), static_cast<unsigned>(out.size())) ==
            tlm::TLM_OK_RESPONSE);

    // Write batch: one access, one interrupt, at t0 + access_batch's total.
    const std::size_t irqs_before = h.irqs.size();
    const Time t0 = sim_now();
    h.wr(r::kCommand, r::kCmdBatch, 4);
    h.wait_until(t0 + m.positioning + Time{1});
    CHECK(h.rd(r::kActiveTips, 4) == 64 * k);  // every entry's tips in the first row
    CHECK((h.rd(r::kStatus, 4) & r::kStatusTransferring) != 0);
    h.wait_until(t0 + m.positioning + from_s(3 * row_s) + Time{1});
    CHECK(h.sled().y_nm == L.up_pass(7).y_servo_nm);  // the sweep is in its fourth row
    Time irq{-1};
    const r::AccessDoneBurst d = h.wait_done(&irq);
    CHECK(d.status == r::kStatusDonePending);
    CHECK(Time{static_cast<std::int64_t>(d.access_start_ps)} == t0);
    CHECK(Time{static_cast<std::int64_t>(d.positioning_end_ps)} == t0 + m.positioning);
    CHECK(d.access_end_ps - d.access_start_ps == static_cast<std::uint64_t>(m.total().count()));
    CHECK(irq == t0 + m.total());
    CHECK(d.startup_ps == 0);
    CHECK(d.rows == longest);
    CHECK(d.runs == 1);
    CHECK(h.dev.commands_completed() == 1);
    CHECK(std::abs(h.dev.last_command_joules() - (0.1 * to_s(m.total()) + m.tip_seconds * 1e-3)) <= 1e-15);
    CHECK(m.tip_seconds == blocks * 64 * row_s);
    const r::SledBurst sled = h.sled();
    CHECK(sled.x_nm == m.end.x_nm);
    CHECK(sled.y_nm == L.up_pass(4 + longest - 1).y_end_nm);

    // Each entry's slot went to its own blocks: single reads give the slots back.
    mems::SledState at = m.end;
    std::uint64_t slot = 0;
    for (std::uint32_t i = 0; i < k; ++i) {
      const Time t1 = sim_now();
      const mems::MediaAccess one = seek.access(at, table[i].lbn, counts[i]);
      h.start(table[i].lbn, counts[i], r::kCmdRead);
      Time when{-1};
      h.wait_done(&when);
      CHECK(when == t1 + one.total());
      at = one.end;
      REQUIRE(h.access(h.buf, tlm::TLM_READ_COMMAND, 0, in.data(), counts[i] * kBlockBytes) == tlm::TLM_OK_RESPONSE);
      CHECK(std::memcmp(in.data(), out.data() + slot * kBlockBytes, counts[i] * kBlockBytes) == 0);
      slot += counts[i];
    }

    // Read batch of the same entries (ops rewritten to read): the slots come back in table order.
    for (std::uint32_t i = 0; i < k; ++i) h.wr(r::kBatchTable + 16 * i + 12, r::kCmdRead, 4);
    std::vector<std::uint8_t> zero(out.size(), 0);
    REQUIRE(h.access(h.buf, tlm::TLM_WRITE_COMMAND, 0, zero.data(), static_cast<unsigned>(zero.size())) ==
            tlm::TLM_OK_RESPONSE);
    const mems::MediaAccess m2 = seek.access_batch(at, spans);
    const Time t2 = sim_now();
    h.wr(r::kCommand, r::kCmdBatch, 4);
    Time irq2{-1};
    const r::AccessDoneBurst d2 = h.wait_done(&irq2);
    CHECK(irq2 == t2 + m2.total());
    CHECK(d2.access_end_ps - d2.access_start_ps == static_cast<std::uint64_t>(m2.total().count()));
    REQUIRE(h.access(h.buf, tlm::TLM_READ_COMMAND, 0, in.data(), static_cast<unsigned>(in.size())) ==
            tlm::TLM_OK_RESPONSE);
    CHECK(in == out);
    h.wait_until(sim_now() + from_ms(1));
    CHECK(h.irqs.size() - irqs_before == 2 + k);  // one per batch, one per single read

    // Refused batches: the error bit and an immediate interrupt, nothing moves.
    const auto refused = [&](const char* what) {
      INFO(what);
      const Time t = sim_now();
      const std::size_t before = h.irqs.size();
      const std::uint64_t completed = h.dev.commands_completed();
      const r::SledBurst s0 = h.sled();
      h.wr(r::kCommand, r::kCmdBatch, 4);
      Time when{-1};
      const r::AccessDoneBurst e = h.wait_done(&when);
      CHECK(when == t);
      CHECK(e.status == (r::kStatusError | r::kStatusDonePending));
      CHECK(h.irqs.size() == before + 1);
      CHECK(h.dev.commands_completed() == completed);
      CHECK(h.sled().y_nm == s0.y_nm);
    };
    h.wr(r::kBatchCount, 0, 4);
    refused("BATCH_COUNT 0");
    h.wr(r::kBatchCount, r::kMaxBatch + 1, 4);
    refused("BATCH_COUNT 65");
    h.wr(r::kBatchCount, k, 4);
    h.wr(r::kBatchTable + 16 * 2 + 12, r::kCmdMove, 4);
    refused("an entry's op is not read or write");
    h.wr(r::kBatchTable + 16 * 2 + 12, r::kCmdRead, 4);
    h.wr(r::kBatchTable + 16 * 5 + 8, 0, 4);
    refused("an entry of 0 blocks");
    h.wr(r::kBatchTable + 16 * 5 + 8, 1, 4);
    h.wr(r::kBatchTable + 16 * 3, L.capacity() - 1, 8);
    refused("an entry past the capacity");
    h.wr(r::kBatchTable + 16 * 3, L.lbn({0, 1234, 3, 5, cells[3]}), 8);  // row 5, the others row 4
    REQUIRE(seek.batch_conflict({spans[0], {L.lbn({0, 1234, 3, 5, cells[3]}), 2}}).has_value());
    refused("an entry starting at another row");
    h.wr(r::kBatchTable + 16 * 3, table[0].lbn, 8);  // the same tips as entry 0
    refused("two entries on the same tips");
    h.wr(r::kBatchTable + 16 * 3, table[3].lbn, 8);
    h.wr(r::kCommand, r::kCmdBatch | r::kCmdUseTarget, 4);
    CHECK(h.wait_done().status == (r::kStatusError | r::kStatusDonePending));
    // Restored, the batch is accepted again.
    const Time t3 = sim_now();
    const mems::MediaAccess m3 = seek.access_batch(m2.end, spans);
    h.wr(r::kCommand, r::kCmdBatch, 4);
    Time irq3{-1};
    const r::AccessDoneBurst d3 = h.wait_done(&irq3);
    CHECK(d3.status == r::kStatusDonePending);
    CHECK(irq3 == t3 + m3.total());
  });
}

namespace {

/// A VCD's value changes per signal (full dotted name): (time in the file's unit, value text).
std::map<std::string, std::vector<std::pair<std::int64_t, std::string>>> read_vcd(const std::string& path) {
  std::ifstream f(path);
  REQUIRE(f);
  std::map<std::string, std::string> names;  // id -> full name
  std::vector<std::string> scope;
  std::map<std::string, std::vector<std::pair<std::int64_t, std::string>>> out;
  std::string tok;
  std::int64_t now = 0;
  bool body = false;
  while (f >> tok) {
    if (!body) {
      if (tok == "$scope") {
        std::string kind, name;
        f >> kind >> name;
        scope.push_back(name);
      } else if (tok == "$upscope") {
        scope.pop_back();
      } else if (tok == "$var") {
        std::string kind, width, id, name;
        f >> kind >> width >> id >> name;
        std::string full;
        for (const auto& sc : scope)
          if (sc != "SystemC") full += sc + ".";  // SystemC's VCD writer puts everything in a "SystemC" scope
        names[id] = full + name;
      } else if (tok == "$enddefinitions") {
        body = true;
      }
      continue;
    }
    if (tok[0] == '#') {
      now = std::stoll(tok.substr(1));
    } else if (tok[0] == 'r' || tok[0] == 'b') {
      std::string id;
      f >> id;
      if (names.count(id)) out[names[id]].push_back({now, tok.substr(1)});
    } else if ((tok[0] == '0' || tok[0] == '1') && names.count(tok.substr(1))) {
      out[names[tok.substr(1)]].push_back({now, tok.substr(0, 1)});
    }
  }
  return out;
}

std::int64_t bits(const std::string& b) { return std::stoll(b, nullptr, 2); }

}  // namespace

TEST_CASE("sim: MEMS sled waveforms: exact X and Y at every segment boundary", "[sim][mems][waves]") {
  const mems::MemsParams p = mems::mems_g1();
  const mems::MemsSeek seek(p);
  const mems::MemsLayout& L = seek.layout();
  const auto dir = std::filesystem::temp_directory_path() / ("drivevp-mems-waves-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string base = (dir / "waves").string();

  // The script: a read far from the centre at 1 ms; at once 15 blocks across a column boundary (two
  // sweeps, the second after a turnaround); 150 ms idle (inactive at 100 ms); a move (startup first).
  const std::uint64_t lbn_a = 1'234'567, lbn_b = 2200 * 700 + 220 * 3 - 5, lbn_c = 3'000'000;
  const Time t1 = from_ms(1);
  const std::vector<mems::Sweep> s1 = seek.sweeps({}, lbn_a, 1);
  const Time end1 = t1 + seek.summarize(s1).total();
  const std::vector<mems::Sweep> s2 = seek.sweeps(s1.back().end, lbn_b, 15);
  REQUIRE(s2.size() == 2);
  const Time end2 = end1 + seek.summarize(s2).total();
  const Time t3 = end2 + from_ms(150), su = p.startup_delay();
  const mems::BlockPosition bc = L.position(lbn_c);
  const mems::AccessPass pass_c = seek.direction(bc.address) > 0 ? bc.up : bc.down;
  mems::Sweep move;
  move.from = s2.back().end;
  move.positioning = seek.position(move.from, bc.x_nm, pass_c);
  move.start = move.end = {bc.x_nm, pass_c.y_servo_nm, seek.direction(bc.address)};
  const Time end3 = t3 + su + move.positioning.total();

  std::vector<Time> irqs;
  {
    Tracer tracer("tracer", {base, {TraceGroup::Sled}});
    MemsDevice dev("mems", p, mems::SeekMethod::Exact, &tracer);
    Host host("host", dev, [&](Host& h) {
      h.wait_until(t1);
      h.start(lbn_a, 1, r::kCmdRead);
      Time when{-1};
      h.wait_done(&when);
      irqs.push_back(when);
      h.start(lbn_b, 15, r::kCmdRead);
      h.wait_done(&when);
      irqs.push_back(when);
      h.wait_until(t3);
      h.wr(r::kLbn, lbn_c, 8);
      h.wr(r::kCommand, r::kCmdMove, 4);
      h.wait_done(&when);
      irqs.push_back(when);
      // SystemC's VCD writer records a time step's values when simulated time moves past it.
      h.wait_until(when + p.time_before_inactive() + Time{1});
    });
    sc_core::sc_start();
    REQUIRE(host.finished);
    tracer.close();
  }
  // The same times as without a tracer (the untraced tests check these against MemsSeek too).
  REQUIRE(irqs == std::vector<Time>{end1, end2, end3});

  const auto vcd = read_vcd(base + ".vcd");
  if (!std::getenv("KEEP_VCD")) std::filesystem::remove_all(dir);
  const auto changes = [&](const std::string& name) {
    INFO(name);
    REQUIRE(vcd.count(name) == 1);
    std::vector<std::pair<std::int64_t, std::string>> c;
    for (const auto& e : vcd.at(name))
      if (e.first > 0) c.push_back(e);  // time 0: the initial values
    return c;
  };

  // Expected X and Y from the spec of the waveform: X ramps from the positioning's start to the
  // X seek's end; Y holds through the start turnaround, ramps over the Y seek, holds (end
  // turnaround, waiting for X), then sweeps linearly; a ramp that starts where the value already
  // is starts one ulp towards its end ("~" below). Exact values elsewhere.
  struct Want {
    Time at;
    double value;
    bool approx;
  };
  std::vector<Want> want_x, want_y;
  // Two changes at one instant are one VCD entry; a ramp's start that coincides with the end of the
  // previous move needs no ulp (the value changes there anyway): keep the exact one.
  const auto push = [](std::vector<Want>& v, Want w) {
    if (!v.empty() && v.back().at == w.at) {
      if (v.back().approx) v.back() = w;
      return;
    }
    v.push_back(w);
  };
  std::vector<std::pair<Time, int>> want_settling, want_transfer, want_tips;
  const auto segment = [&](Time ps, const mems::Sweep& w) {
    const mems::Positioning& q = w.positioning;
    const Time pe = ps + q.total(), se = pe + w.transfer;
    if (w.start.x_nm != w.from.x_nm) {
      push(want_x, {ps, double(w.from.x_nm), true});
      push(want_x, {ps + q.x_seek, double(w.start.x_nm), false});
      want_settling.push_back({ps + q.x_seek, 1});
      want_settling.push_back({ps + q.x_seek + q.settle, 0});
    }
    const Time y_arrives = ps + q.start_turnaround + q.y_seek;
    if (w.start.y_nm != w.from.y_nm) {
      push(want_y, {ps + q.start_turnaround, double(w.from.y_nm), true});
      push(want_y, {y_arrives, double(w.start.y_nm), false});
    }
    if (w.rows > 0) {
      if (w.start.y_nm == w.from.y_nm || y_arrives < pe) push(want_y, {pe, double(w.start.y_nm), true});
      push(want_y, {se, double(w.end.y_nm), false});
      want_transfer.push_back({pe, 1});
      want_transfer.push_back({se, 0});
      want_tips.push_back({pe, static_cast<int>(w.max_active_tips)});
      want_tips.push_back({se, 0});
    }
    return se;
  };
  Time t = t1;
  for (const mems::Sweep& w : s1) t = segment(t, w);
  for (const mems::Sweep& w : s2) t = segment(t, w);
  segment(t3 + su, move);
  // The segments of this script exercise every case: X and Y moves, a Y seek that ends before
  // an X-dominated positioning, a turnaround at the end of a Y seek (the second sweep).
  CHECK(s2[1].positioning.turnaround_count == 1);
  CHECK(s2[1].start.x_nm == s2[1].from.x_nm);
  CHECK(s1[0].positioning.x_seek + s1[0].positioning.settle >
        s1[0].positioning.start_turnaround + s1[0].positioning.y_seek);

  const auto check_ramp = [&](const std::string& name, const std::vector<Want>& want) {
    const auto got = changes(name);
    INFO(name);
    REQUIRE(got.size() == want.size());
    for (std::size_t i = 0; i < want.size(); ++i) {
      INFO("change " << i << " at " << got[i].first << " ps: " << got[i].second);
      CHECK(got[i].first == want[i].at.count());
      const double v = std::strtod(got[i].second.c_str(), nullptr);
      if (want[i].approx)
        CHECK(std::abs(v - want[i].value) <= 1e-9 * std::max(1.0, std::abs(want[i].value)));
      else
        CHECK(v == want[i].value);
    }
  };
  check_ramp("mems.sled.x_nm", want_x);
  check_ramp("mems.sled.y_nm", want_y);
  const auto check_steps = [&](const std::string& name, const std::vector<std::pair<Time, int>>& want) {
    const auto got = changes(name);
    INFO(name);
    REQUIRE(got.size() == want.size());
    for (std::size_t i = 0; i < want.size(); ++i) {
      CHECK(got[i].first == want[i].first.count());
      CHECK((got[i].second.size() == 1 ? std::stoll(got[i].second) : bits(got[i].second)) == want[i].second);
    }
  };
  check_steps("mems.sled.settling", want_settling);
  check_steps("mems.sled.transferring", want_transfer);
  check_steps("mems.sled.active_tips", want_tips);
  check_steps("mems.sled.startup", {{t3, 1}, {t3 + su, 0}});
  // Power: Active while serving (the second command follows the first at once: no Idle between),
  // Idle after, Inactive 100 ms later; the move starts from Inactive.
  const int inactive = 0, idle = 1, active = 2;
  check_steps("mems.sled.power_state", {{t1, active},
                                        {end2, idle},
                                        {end2 + from_ms(100), inactive},
                                        {t3, active},
                                        {end3, idle},
                                        {end3 + from_ms(100), inactive}});
}
