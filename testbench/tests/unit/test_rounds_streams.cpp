// The round workload's stream list (workload.streams_path, testbench/workload/rounds.h): per-stream
// constant fragment sizes and start blocks, read from TOML, and the errors naming file and line.
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include <unistd.h>

#include "testbench/workload/rounds.h"

using namespace drivevp;
using Catch::Matchers::EndsWith;

namespace {
std::string write(const std::string& name, const std::string& text) {
  const auto dir = std::filesystem::temp_directory_path() / ("drivevp_streams_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto path = (dir / name).string();
  std::ofstream(path) << text;
  return path;
}

std::string error_of(const std::string& name, const std::string& text) {
  try {
    (void)read_stream_list(write(name, text));
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "no error";
}
}  // namespace

TEST_CASE("stream list: constant sizes and start blocks override the workload's, per stream", "[rounds][workload]") {
  const std::string path = write("s.toml",
                                 "[[stream]]\nfragment_bytes = 65536\nstart_block = 1000\n\n"
                                 "[[stream]]\n\n"
                                 "[[stream]]\nfragment_bytes = 262144\nstart_block = 99000\n");
  RoundsOptions o;
  o.stream_specs = read_stream_list(path);
  REQUIRE(o.stream_specs.size() == 3);
  CHECK(o.stream_specs[0].fragment_bytes == 65536);
  CHECK(o.stream_specs[0].start_block == 1000u);
  CHECK(o.stream_specs[1].fragment_bytes == 0);
  CHECK_FALSE(o.stream_specs[1].start_block.has_value());
  o.streams = 3;
  o.rounds = 3;
  o.lambda_d = 0;
  o.capacity_blocks = 100000;
  RoundsSource src(o);
  std::map<std::uint32_t, std::vector<Command>> by_stream;
  SourceRequest r;
  while (src.next(r)) by_stream[r.command.stream].push_back(r.command);
  REQUIRE(by_stream.size() == 3);
  // Stream 1: 65,536 B = 128 blocks from block 1000, back to back, one per round.
  const auto& s1 = by_stream[1];
  REQUIRE(s1.size() == 3);
  for (std::size_t k = 0; k < 3; ++k) {
    CHECK(s1[k].blocks == 128);
    CHECK(s1[k].lbn == 1000 + 128 * k);
  }
  // Stream 3: 512 blocks from block 99,000; the second fragment would pass the capacity of
  // 100,000 blocks (99,512 + 512), so it wraps to block 0 and the third follows it.
  const auto& s3 = by_stream[3];
  REQUIRE(s3.size() == 3);
  CHECK(s3[0].lbn == 99000);
  CHECK(s3[1].lbn == 0);
  CHECK(s3[2].lbn == 512);
  for (const Command& c : s3) CHECK(c.blocks == 512);
  // Stream 2 keeps the workload's drawn sizes and placement: the same as without a list.
  RoundsOptions plain = o;
  plain.stream_specs.clear();
  RoundsSource reference(plain);
  std::vector<Command> s2;
  while (reference.next(r))
    if (r.command.stream == 2) s2.push_back(r.command);
  REQUIRE(s2.size() == 3);
  for (std::size_t k = 0; k < 3; ++k) {
    CHECK(by_stream[2][k].lbn == s2[k].lbn);
    CHECK(by_stream[2][k].blocks == s2[k].blocks);
  }
}

TEST_CASE("stream list: errors name the file, the line, what was expected and what was found", "[rounds][workload]") {
  CHECK_THAT(error_of("e1.toml", "[[stream]]\nfragment_bytes = 100\n"),
             EndsWith("e1.toml:2:18: stream.fragment_bytes: expected an integer in [512, 4194304], found 100"));
  CHECK_THAT(error_of("e2.toml", "[[stream]]\nstart_block = -5\n"),
             EndsWith("e2.toml:2:15: stream.start_block: expected an integer >= 0, found -5"));
  CHECK_THAT(error_of("e3.toml", "[[stream]]\nrate = 5\n"),
             EndsWith("e3.toml:2:1: expected a stream key (fragment_bytes, start_block), found 'stream.rate'"));
  CHECK_THAT(error_of("e4.toml", "streams = 3\n"),
             EndsWith("e4.toml:1:1: expected only [[stream]] tables, found key 'streams'"));
  CHECK_THAT(error_of("e5.toml", "# nothing\n"), EndsWith("e5.toml: expected [[stream]] tables, found none"));
  CHECK_THAT(error_of("e6.toml", "[[stream]\n"), Catch::Matchers::ContainsSubstring("e6.toml:1:10: expected TOML"));
  CHECK_THAT(error_of("e7.toml", "[[stream]]\nfragment_bytes = 65536.5\n"),
             EndsWith("e7.toml:2:18: stream.fragment_bytes: expected an integer in [512, 4194304], found 65536.5"));
  RoundsOptions o;
  o.streams = 1;
  o.capacity_blocks = 100000;
  o.stream_specs = {StreamSpec{0, 100000}};
  try {
    o.validate();
    FAIL("no error");
  } catch (const std::invalid_argument& e) {
    CHECK(std::string(e.what()) ==
          "rounds workload: stream 1: start_block: expected a block below the capacity of 100000 blocks, found 100000");
  }
  o.streams = 2;
  o.stream_specs[0].start_block = 5;
  CHECK_THROWS_WITH(o.validate(), "rounds workload: the stream list has 1 streams, workload.streams says 2");
}

TEST_CASE("stream list: a CSV file with a header row gives the same streams as the TOML one", "[rounds][workload]") {
  // The TOML list of the first test case as CSV: columns in another order, an empty field leaves
  // the key unset, a comment and a blank line are skipped, CRLF line ends are accepted.
  const std::vector<StreamSpec> toml =
      read_stream_list(write("same.toml",
                             "[[stream]]\nfragment_bytes = 65536\nstart_block = 1000\n\n[[stream]]\n\n"
                             "[[stream]]\nfragment_bytes = 262144\nstart_block = 99000\n"));
  const std::vector<StreamSpec> csv =
      read_stream_list(write("same.csv", "start_block,fragment_bytes\r\n# stream 1\n1000, 65536\n,\n\n99000,262144\n"));
  REQUIRE(csv.size() == 3);
  REQUIRE(toml.size() == 3);
  for (std::size_t i = 0; i < 3; ++i) {
    CHECK(csv[i].fragment_bytes == toml[i].fragment_bytes);
    CHECK(csv[i].start_block == toml[i].start_block);
  }
  CHECK_FALSE(csv[1].start_block.has_value());
  CHECK(csv[1].fragment_bytes == 0);
  // The extension is matched without regard to case; a header with one column is enough.
  CHECK(read_stream_list(write("upper.CSV", "fragment_bytes\n4096\n")).at(0).fragment_bytes == 4096);
}

TEST_CASE("stream list: CSV errors name the file, line, column, what was expected and what was found",
          "[rounds][workload]") {
  // Line 3, the second field starts at column 6.
  CHECK_THAT(error_of("c1.csv", "start_block,fragment_bytes\n0,4096\n1000,100\n"),
             EndsWith("c1.csv:3:6: stream.fragment_bytes: expected an integer in [512, 4194304], found '100'"));
  CHECK_THAT(error_of("c2.csv", "start_block\nminus\n"),
             EndsWith("c2.csv:2:1: stream.start_block: expected an integer >= 0, found 'minus'"));
  CHECK_THAT(
      error_of("c3.csv", "fragment_bytes,rate\n4096,5\n"),
      EndsWith("c3.csv:1:16: expected a header row of stream columns (fragment_bytes, start_block), found 'rate'"));
  CHECK_THAT(error_of("c4.csv", "fragment_bytes,fragment_bytes\n4096,4096\n"),
             EndsWith("c4.csv:1:16: expected each column once, found 'fragment_bytes' again"));
  CHECK_THAT(error_of("c5.csv", "fragment_bytes,start_block\n4096\n"),
             EndsWith("c5.csv:2:1: expected 2 comma-separated fields (as the header), found 1"));
  CHECK_THAT(error_of("c6.csv", "fragment_bytes,start_block\n4096,1,2,3\n"),
             EndsWith("c6.csv:2:1: expected 2 comma-separated fields (as the header), found more than 2"));
  CHECK_THAT(error_of("c7.csv", "# only a comment\n"), EndsWith("c7.csv: expected a CSV header row, found none"));
  CHECK_THAT(error_of("c8.csv", "fragment_bytes\n"), EndsWith("c8.csv: expected stream rows, found none"));
  // A header that names no key at all (a data row where the header should be).
  CHECK_THAT(
      error_of("c9.csv", "4096,0\n"),
      EndsWith("c9.csv:1:1: expected a header row of stream columns (fragment_bytes, start_block), found '4096'"));
}
