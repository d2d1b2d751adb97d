// The media store's representations (hw_models/backing_store.h): the compact store keeps exactly
// the bytes last written at a few bytes per block, payload mode keeps the bytes themselves,
// discard mode keeps nothing; the integrity checker (testbench/sim/checkers.h) still catches a
// corrupted block with the compact store; runs give the same requests.csv in every mode; and
// the store's footprint is bounded by the capacity, not by the number of requests.
#include <catch2/catch_test_macros.hpp>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <systemc>

#include "hw_models/backing_store.h"
#include "sim_test_util.h"
#include "testbench/sim/checkers.h"
#include "tlm_bus/block_map.h"
#include "tlm_bus/data_pattern.h"

namespace drivevp {
namespace {

using namespace simtest;

std::vector<std::uint8_t> pattern_blocks(std::uint64_t id, std::uint64_t lbn, std::uint64_t blocks) {
  std::vector<std::uint8_t> data(blocks * kBlockBytes);
  for (std::uint64_t b = 0; b < blocks; ++b)
    pattern::fill_block(data.data() + b * kBlockBytes, pattern::written_word(id, lbn + b));
  return data;
}

std::vector<std::uint8_t> concat(std::vector<std::uint8_t> a, const std::vector<std::uint8_t>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

std::vector<std::uint8_t> read_back(const BackingStore& store, std::uint64_t lbn, std::uint64_t blocks) {
  std::vector<std::uint8_t> data(blocks * kBlockBytes);
  store.read(lbn, blocks, data.data());
  return data;
}

TEST_CASE("sim: The data pattern's writer_of inverts written_word", "[sim][store]") {
  std::mt19937_64 rng(11);
  for (int i = 0; i < 100000; ++i) {
    const std::uint64_t id = rng(), lbn = rng() >> (i % 64);
    REQUIRE(pattern::writer_of(pattern::written_word(id, lbn), lbn) == id);
    const std::uint64_t w = rng();
    REQUIRE(pattern::written_word(pattern::writer_of(w, lbn), lbn) == w);
  }
  // Writes to one block by different commands never carry the same data.
  CHECK(pattern::written_word(0, 7) != pattern::written_word(1, 7));
  CHECK(pattern::written_word(5, 100) == 0x51cb8b479860467cull);  // pinned: the host's data must not change
}

TEST_CASE("sim: BlockMap allocates a page on the first nonzero value and widens it for large values", "[sim][store]") {
  BlockMap m;
  m.set(5, 0);  // 0 is every entry's initial value: nothing to allocate
  CHECK(m.pages() == 0);
  CHECK(m.get(123456789) == 0);
  m.set(4095, 7);
  m.set(4096, 0xFFFFFFFFull);  // the largest 4-byte entry
  CHECK(m.pages() == 2);
  CHECK(m.wide_pages() == 0);
  CHECK(m.entry_bytes() == 2 * 4096 * 4);
  m.set(0, 0x100000000ull);  // page 0 becomes wide and keeps its entries
  CHECK(m.wide_pages() == 1);
  CHECK(m.entry_bytes() == 4096 * 8 + 4096 * 4);
  CHECK(m.get(0) == 0x100000000ull);
  CHECK(m.get(4095) == 7);
  CHECK(m.get(4096) == 0xFFFFFFFFull);
  CHECK(m.get(1) == 0);
  for (std::uint64_t i = 0; i < 1000000; ++i) m.set(i % 8192, i + 1);  // many sets, same pages
  CHECK(m.pages() == 2);
  CHECK(m.get(8191) == 999424);  // the last set of LBN 8191: i = 999423
}

TEST_CASE("sim: The compact store reads back exactly what payload mode does", "[sim][store]") {
  BackingStore compact;  // the default mode
  BackingStore payload(BackingStore::Mode::Payload);
  REQUIRE(compact.mode() == BackingStore::Mode::Compact);
  auto write_both = [&](std::uint64_t lbn, const std::vector<std::uint8_t>& data) {
    compact.write(lbn, data.size() / kBlockBytes, data.data());
    payload.write(lbn, data.size() / kBlockBytes, data.data());
  };
  std::mt19937_64 rng(5);
  std::vector<std::uint8_t> noise(3 * kBlockBytes);
  for (auto& byte : noise) byte = static_cast<std::uint8_t>(rng());
  std::vector<std::uint8_t> zeros(2 * kBlockBytes, 0);
  std::vector<std::uint8_t> unwritten(kBlockBytes);
  pattern::fill_block(unwritten.data(), pattern::unwritten_word(20000));
  std::vector<std::uint8_t> one_bit = pattern_blocks(9, 30000, 1);
  one_bit[100] ^= 0x10;

  write_both(100, pattern_blocks(5, 100, 16));                  // the host's pattern: ids
  write_both(4090, pattern_blocks(6, 4090, 12));                // crosses into the second page
  write_both(9000, pattern_blocks(0x1'0000'0000ull, 9000, 2));  // an id beyond 4 bytes: page 2 widens
  write_both(10000, noise);                                     // not a pattern: kept raw
  write_both(10001, pattern_blocks(7, 10001, 1));               // raw block rewritten with a pattern
  write_both(12000, zeros);                                     // uniform, but not the host's pattern
  write_both(20000, unwritten);                                 // the unwritten pattern, written
  write_both(30000, one_bit);                                   // a pattern with one bit flipped: raw
  write_both(104, pattern_blocks(8, 104, 2));                   // rewrite inside the first run
  for (std::uint64_t lbn : {0ull, 96ull, 4088ull, 8190ull, 9998ull, 11999ull, 19999ull, 29998ull}) {
    INFO("LBN " << lbn);
    CHECK(read_back(compact, lbn, 24) == read_back(payload, lbn, 24));
  }
  CHECK(read_back(compact, 104, 2) == pattern_blocks(8, 104, 2));
  CHECK(
      read_back(compact, 10000, 3) ==
      concat(concat(std::vector<std::uint8_t>(noise.begin(), noise.begin() + kBlockBytes), pattern_blocks(7, 10001, 1)),
             std::vector<std::uint8_t>(noise.begin() + 2 * kBlockBytes, noise.end())));
  CHECK(read_back(compact, 30000, 1) == one_bit);

  // Exactly what each holds: compact pages 0, 1 (LBN 4096-4101), 2 (9000-9001 wide, 10000-12001)
  // and 7 (30000); the unwritten pattern written at 20000 is entry 0, which allocates nothing;
  // raw blocks 10000, 10002 and 30000 (10001 went back to a pattern). Zeros decode to ids far
  // beyond 4 bytes, which page 2 holds anyway.
  const BackingStore::Footprint c = compact.footprint();
  CHECK(c.id_pages == 4);
  CHECK(c.wide_id_pages == 1);
  CHECK(c.raw_blocks == 3);
  CHECK(c.payload_pages == 0);
  CHECK(c.bytes == 3 * 4096 * 4 + 4096 * 8 + 3 * 512);
  const BackingStore::Footprint p = payload.footprint();
  CHECK(p.id_pages == 0);
  CHECK(p.raw_blocks == 0);
  // 4 KiB pages: 96-103, 104-111, 112-119, 4088-4095, 4096-4103, 9000-9007, 10000-10007,
  // 12000-12007, 20000-20007, 30000-30007.
  CHECK(p.payload_pages == 10);
  CHECK(p.bytes == 10 * (8 * 512 + 1));
}

TEST_CASE("sim: The discard store keeps nothing and produces no read data", "[sim][store]") {
  BackingStore store(BackingStore::Mode::Discard);
  const std::vector<std::uint8_t> data = pattern_blocks(3, 500, 8);
  store.write(500, 8, data.data());
  // A read leaves the destination's bytes as they were (no one looks at them).
  std::vector<std::uint8_t> out(8 * kBlockBytes, 0xA5);
  store.read(500, 8, out.data());
  CHECK(out == std::vector<std::uint8_t>(8 * kBlockBytes, 0xA5));
  CHECK(store.footprint().bytes == 0);
  // The mode is fixed once data went in.
  CHECK_THROWS_AS(store.set_mode(BackingStore::Mode::Compact), std::logic_error);
  BackingStore fresh;
  fresh.set_mode(BackingStore::Mode::Payload);
  CHECK(fresh.mode() == BackingStore::Mode::Payload);
}

Command at(double s, Op op, std::uint64_t lbn, std::uint32_t blocks) {
  Command c;
  c.arrival = from_s(s);
  c.op = op;
  c.lbn = lbn;
  c.blocks = blocks;
  return c;
}

/// Writes LBN 1000-1007 (command 0) at 0 s, reads them back at 1, 2, 3 and 4 s (commands 1-4),
/// and changes the media between the requests: at 0.5 s one bit of block 1003 flips; at 1.5 s
/// block 1003 is repaired and block 1005 holds the data of a write that never reached it
/// (command 7's); at 2.5 s block 1005 is repaired and block 1006 is back to its unwritten
/// pattern (a lost write); at 3.5 s block 1006 is repaired. The checker must report reads 1, 2
/// and 3 exactly and pass read 4.
void corrupted_blocks_are_reported(bool store_payload) {
  TempDir dir("corrupt");
  // The scenario gives the device, the policy and the host; the requests come from the list.
  write_text(dir / "scenario.toml", synthetic_scenario("fcfs", "loop = \"open\"\n", ""));
  const std::vector<std::string> overrides{fmt::format("run.store_payload={}", store_payload)};
  const Scenario sc = load_scenario((dir / "scenario.toml").string(), overrides);
  ListSource source({at(0, Op::Write, 1000, 8), at(1, Op::Read, 1000, 8), at(2, Op::Read, 1000, 8),
                     at(3, Op::Read, 1000, 8), at(4, Op::Read, 1000, 8)});
  std::vector<RequestRecord> done;
  Platform platform(
      sc, source, [&done](const RequestRecord& r) { done.push_back(r); }, nullptr);
  BackingStore& media = platform.store();
  REQUIRE(media.mode() == (store_payload ? BackingStore::Mode::Payload : BackingStore::Mode::Compact));
  auto put = [&media](std::uint64_t lbn, std::uint64_t word, int flip_byte = -1) {
    std::vector<std::uint8_t> block(kBlockBytes);
    pattern::fill_block(block.data(), word);
    if (flip_byte >= 0) block[static_cast<std::size_t>(flip_byte)] ^= 0x01;
    media.write(lbn, 1, block.data());
  };
  sc_core::sc_start(0.5, sc_core::SC_SEC);
  REQUIRE(done.size() == 1);                             // the write completed
  put(1003, pattern::written_word(0, 1003), 8 * 3 + 2);  // word 3 of block 1003
  sc_core::sc_start(1.0, sc_core::SC_SEC);
  put(1003, pattern::written_word(0, 1003));
  put(1005, pattern::written_word(7, 1005));
  sc_core::sc_start(1.0, sc_core::SC_SEC);
  put(1005, pattern::written_word(0, 1005));
  put(1006, pattern::unwritten_word(1006));
  sc_core::sc_start(1.0, sc_core::SC_SEC);
  put(1006, pattern::written_word(0, 1006));
  sc_core::sc_start();  // the host stops the simulation after the last completion

  REQUIRE(done.size() == 5);
  for (std::size_t i = 0; i < done.size(); ++i) {
    INFO("request " << i);
    CHECK(done[i].command.id == i);
    CHECK(done[i].data_ok == (i == 0 || i == 4));
  }
  const Violations& v = platform.host.integrity().violations();
  REQUIRE(v.count() == 3);
  const std::uint64_t w3 = pattern::written_word(0, 1003), w5 = pattern::written_word(0, 1005),
                      w6 = pattern::written_word(0, 1006);
  CHECK(v.messages()[0] == fmt::format("read 1 block 1003: word 3 is {:#018x}, expected {:#018x} (written by 0)",
                                       w3 ^ (std::uint64_t{1} << 16), w3));
  CHECK(v.messages()[1] == fmt::format("read 2 block 1005: word 0 is {:#018x}, expected {:#018x} (written by 0)",
                                       pattern::written_word(7, 1005), w5));
  CHECK(v.messages()[2] ==
        fmt::format("read 3 block 1006: word 0 is {:#018x}, expected {:#018x} (written by 0)", 1006, w6));
  const BackingStore::Footprint f = media.footprint();
  if (store_payload) {
    CHECK(f.payload_pages == 1);  // LBN 1000-1007
    CHECK(f.id_pages == 0);
  } else {
    CHECK(f.id_pages == 1);
    CHECK(f.raw_blocks == 0);  // the flipped bit was repaired
    CHECK(f.bytes == 4096 * 4);
  }
}

TEST_CASE("sim: The compact store lets the checker catch corrupted, stale and lost blocks", "[sim][store][integrity]") {
  corrupted_blocks_are_reported(false);
}

TEST_CASE("sim: The payload store lets the checker catch corrupted, stale and lost blocks", "[sim][store][integrity]") {
  corrupted_blocks_are_reported(true);
}

TEST_CASE("sim: Compact, payload and discard stores give the same requests.csv", "[sim][store][determinism]") {
  TempDir dir("store-modes");
  const fs::path scenario = dir / "scenario.toml";
  // The integrity test's workload, shorter: a 27,360-block disk, Zipf addresses, 1-16 blocks,
  // half writes, 32 outstanding under SPTF, data checked.
  write_text(scenario,
             synthetic_scenario("sptf",
                                "loop = \"closed\"\noutstanding = 32\naddress = \"zipf\"\nzipf_theta = 0.99\n"
                                "size = \"uniform\"\nsize_min_blocks = 1\nsize_max_blocks = 16\nread_fraction = 0.5\n",
                                "seed = 3\nrequests = 20000\ncheck_data = true\n"));
  auto run = [&](const std::string& out, const std::string& set) {
    const CommandResult r = run_drivevp(dir.path(), {"run", scenario.string(), "--out", (dir / out).string(), "--set",
                                                     "device.cylinders=20", "--set", set});
    INFO(r.err);
    REQUIRE(r.status == 0);
    return nlohmann::json::parse(read_text(dir / out / "summary.json"));
  };
  nlohmann::json compact = run("compact", "run.store_payload=false");
  nlohmann::json payload = run("payload", "run.store_payload=true");
  nlohmann::json discard = run("discard", "run.check_data=false");
  const std::string csv = read_text(dir / "compact" / "requests.csv");
  CHECK(csv.size() > 20000 * 100);
  CHECK(read_text(dir / "payload" / "requests.csv") == csv);
  CHECK(read_text(dir / "discard" / "requests.csv") == csv);  // data_ok is 1 when nothing is checked

  CHECK(compact["checks"]["passed"].get<bool>());
  CHECK(payload["checks"]["passed"].get<bool>());
  CHECK(compact["checks"]["data_integrity"]["violations"].get<std::uint64_t>() == 0);
  // 27,360 blocks: 7 pages of 4,096 4-byte ids in the store and in the checker.
  const nlohmann::json& cm = compact["memory"];
  CHECK(cm["media_store"]["mode"] == "compact");
  CHECK(cm["media_store"]["id_pages"].get<std::uint64_t>() == 7);
  CHECK(cm["media_store"]["wide_id_pages"].get<std::uint64_t>() == 0);
  CHECK(cm["media_store"]["raw_blocks"].get<std::uint64_t>() == 0);
  CHECK(cm["media_store"]["bytes"].get<std::uint64_t>() == 7 * 4096 * 4);
  CHECK(cm["integrity_checker"]["pages"].get<std::uint64_t>() == 7);
  CHECK(cm["integrity_checker"]["bytes"].get<std::uint64_t>() == 7 * 4096 * 4);
  const nlohmann::json& pm = payload["memory"];
  CHECK(pm["media_store"]["mode"] == "payload");
  CHECK(pm["media_store"]["id_pages"].get<std::uint64_t>() == 0);
  const std::uint64_t payload_pages = pm["media_store"]["payload_pages"].get<std::uint64_t>();
  CHECK(payload_pages > 1000);
  CHECK(payload_pages <= 27360 / 8);
  CHECK(pm["media_store"]["bytes"].get<std::uint64_t>() == payload_pages * (8 * 512 + 1));
  const nlohmann::json& dm = discard["memory"];
  CHECK(dm["media_store"]["mode"] == "discard");
  CHECK(dm["media_store"]["bytes"].get<std::uint64_t>() == 0);
  CHECK(dm["integrity_checker"]["pages"].get<std::uint64_t>() == 0);
  CHECK(discard["checks"]["data_checked"] == false);
  // Apart from the memory report, the summaries agree.
  compact.erase("memory");
  payload.erase("memory");
  CHECK(compact.dump() == payload.dump());
}

}  // namespace
}  // namespace drivevp
