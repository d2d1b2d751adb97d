// The Linux elevators of issue 9 in the whole platform (HP 97560, the controller, the disk's
// media driver): a noop merge chain is one media access of contiguous commands in LBN order,
// one seek and one transfer, completed together, with the data intact; the anticipatory elevator idles the disk with a
// request queued (WaitUntil) and then serves the anticipated stream's read. The service orders
// themselves are unit-tested in unit/test_deadline_policies.cpp.
#include <catch2/catch_test_macros.hpp>

#include <cstdint>
#include <vector>

#include <systemc>

#include "sim_test_util.h"

namespace drivevp {
namespace {

using namespace simtest;

constexpr Time kMs{1'000'000'000};

Command at(Time t, Op op, std::uint64_t lbn, std::uint32_t blocks, std::uint32_t stream = 0) {
  Command c = command_at(t, op, lbn, blocks);
  c.stream = stream;
  return c;
}

TEST_CASE("sim: noop serves a back-merge chain as one media access in LBN order", "[sim][policy][noop]") {
  TempDir dir("noop-merge");
  write_text(dir / "scenario.toml", synthetic_scenario("noop", "loop = \"open\"\n", "check_data = true\n"));
  const Scenario sc = load_scenario((dir / "scenario.toml").string(), {});
  const std::uint64_t far = sc.device.geometry().capacity_blocks() - 100;
  // 0 (far away) keeps the disk busy while the writes 1 (5000..5007), 2 (5016..5023) and 3
  // (5008..5015) arrive: the oldest, 1, is served with its chain 3, 2 (LBN order). The same for
  // 4 and the reads 5 (5000), 6 (5016), 7 (5008) of what the writes wrote: 5 with 7, 6.
  ListSource source({at(Time{0}, Op::Read, far, 4), at(kMs, Op::Write, 5000, 8), at(kMs, Op::Write, 5016, 8),
                     at(kMs, Op::Write, 5008, 8), at(1000 * kMs, Op::Read, far, 4), at(1001 * kMs, Op::Read, 5000, 8),
                     at(1001 * kMs, Op::Read, 5016, 8), at(1001 * kMs, Op::Read, 5008, 8)});
  std::vector<RequestRecord> done;
  Platform platform(
      sc, source, [&done](const RequestRecord& r) { done.push_back(r); }, nullptr);
  sc_core::sc_start();

  REQUIRE(done.size() == 8);
  std::vector<RequestRecord> by_id(8);
  for (const RequestRecord& r : done) by_id.at(r.command.id) = r;
  // The chain is the block layer's merged request: one seek to 5000 and one transfer of its 24
  // blocks, which lie on one track (72 sectors per track: 5000..5023 is track 69, sectors
  // 32..55), so the transfer takes 24/72 of a revolution (to the picosecond's rounding).
  const Time period = sc.device.rotation_period();
  for (const std::vector<std::uint64_t>& chain : {std::vector<std::uint64_t>{1, 3, 2}, {5, 7, 6}}) {
    const RequestRecord& first = by_id[chain[0]];
    INFO("chain from " << chain[0]);
    const Time transfer = first.transfer_end - first.transfer_start;
    CHECK(transfer >= period * 24 / 72 - Time{1});
    CHECK(transfer <= period * 24 / 72 + Time{1});
    for (std::size_t k = 1; k < chain.size(); ++k) {
      const RequestRecord& prev = by_id[chain[k - 1]];
      const RequestRecord& r = by_id[chain[k]];
      INFO("member " << chain[k]);
      CHECK(r.command.lbn == prev.command.end_lbn());  // contiguous, in LBN order
      CHECK(r.dispatch == first.dispatch);             // one decision
      CHECK(r.seek_start == first.seek_start);         // one seek
      CHECK(r.seek_end == first.seek_end);
      CHECK(r.transfer_start == first.transfer_start);  // one transfer
      CHECK(r.transfer_end == first.transfer_end);
      CHECK(r.completion == first.completion);  // completed together
    }
  }
  for (const RequestRecord& r : done) CHECK(r.data_ok);  // the reads return what the chain wrote
  CHECK(platform.host.integrity().violations().count() == 0);
}

TEST_CASE("sim: anticipatory idles the disk for the anticipated stream's next read", "[sim][policy][anticipatory]") {
  TempDir dir("antic");
  write_text(dir / "scenario.toml", synthetic_scenario("anticipatory", "loop = \"open\"\n", "check_data = true\n"));
  // A long anticipation (100 ms) so that the arrival at 60 ms falls inside it whatever the
  // first read's service time (under 45 ms on the HP 97560).
  const Scenario sc = load_scenario((dir / "scenario.toml").string(), {"firmware.antic_expire_ms=100"});
  // 0: stream 1 at LBN 1000; 1: stream 2 at LBN 200000 (queued at once); 2: stream 1 at LBN
  // 1008, arriving at 60 ms.
  ListSource source(
      {at(Time{0}, Op::Read, 1000, 8, 1), at(Time{0}, Op::Read, 200000, 8, 2), at(60 * kMs, Op::Read, 1008, 8, 1)});
  std::vector<RequestRecord> done;
  Platform platform(
      sc, source, [&done](const RequestRecord& r) { done.push_back(r); }, nullptr);
  sc_core::sc_start();

  REQUIRE(done.size() == 3);
  std::vector<RequestRecord> by_id(3);
  for (const RequestRecord& r : done) by_id.at(r.command.id) = r;
  CHECK(by_id[0].completion < 60 * kMs);
  // 1 waited, the disk idle, from 0's completion until 2 arrived and was served first.
  CHECK(by_id[2].dispatch >= 60 * kMs);
  CHECK(by_id[2].dispatch < 61 * kMs);
  CHECK(by_id[1].dispatch > by_id[2].dispatch);
  // And 1 is served only when the anticipation after 2 ran out, 100 ms after 2 completed (the
  // firmware sees the completion a bus access or two before the host does).
  CHECK(by_id[1].dispatch >= by_id[2].completion + 99 * kMs);
}

}  // namespace
}  // namespace drivevp
