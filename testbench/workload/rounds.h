// The mixed-media round workload of paper 003 (§1.2, §3.1, Table 2): N continuous streams, each
// needing one fragment (a C-request) per round, and discrete D-requests arriving as a Poisson
// process. Plain C++: no SystemC.
//
// Timing: round r (r = 0, 1, ..., rounds - 1) is [r * T, (r + 1) * T), T = round_ms. The N
// C-requests of round r arrive together at r * T (the streams' next blocks are known before hand,
// 003 §1.2) with Command::deadline = (r + 1) * T, the round's end, RequestClass::Continuous and
// Command::stream = stream index + 1 (1..N). D-requests arrive at rate lambda_d per round
// (lambda_d / T per second), RequestClass::Discrete, no deadline, until the last round ends.
// The round of a C-request is deadline / T - 1 (round_of_deadline()).
//
// Sizes (003 Table 2): C-fragments Gamma(mean 200,000 B, sd 100,000 B) or a constant size;
// D-requests Normal(mean 70,000 B, sd 20,000 B); bytes are converted to 512 B blocks and rounded
// (SyntheticSource's rules: clamped to [1, 8192] blocks).
// Placement of the C-fragments (003 §1: fragments are spread over the disks "in a striped (i.e.,
// round-robin) or random manner"; on the one disk simulated, 003 §2.1 takes the requested
// C-fragments "randomly distributed over the disk's surface"):
//  * random: every fragment starts at a uniform random block (the paper's experiments);
//  * striped: the disk is cut into N equal regions, stream s owns region s and stores its
//    fragments back to back in it (as one disk of a round-robin striped array holds every D-th
//    fragment of a stream contiguously), starting at a uniform random offset and wrapping to the
//    region's start when a fragment would run past its end.
// D-requests start at a uniform random block (003 §3.1: "uniformly distributed over the disk").
//
// Draws: C-requests and D-requests come from two SyntheticSource generators
// (testbench/workload/synthetic.h) seeded with `seed` xor fixed salts, so the D-request sequence
// does not depend on N or on the fragment sizes; same options, same requests.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "testbench/source.h"
#include "testbench/workload/synthetic.h"

namespace drivevp {

/// Placement of the continuous streams' fragments (see the file comment).
enum class FragmentPlacement { Random, Striped };
/// Distribution of the fragment sizes.
enum class FragmentSize { Gamma, Constant };

/// Scenario spellings "random", "striped"; "gamma", "constant".
std::string to_string(FragmentPlacement p);
std::string to_string(FragmentSize s);

/// One stream of a stream list (workload.streams_path, read_stream_list()): what it overrides of
/// the workload's per-stream defaults.
struct StreamSpec {
  /// Every fragment of the stream has this many bytes (rounded to 512 B blocks like drawn sizes);
  /// 0: drawn from the workload's fragment-size distribution. [512, 4194304] when set.
  std::uint32_t fragment_bytes = 0;
  /// The stream's fragments lie back to back from this block (wrapping to block 0 when a fragment
  /// would run past the capacity), whatever workload.placement says; unset: workload.placement.
  std::optional<std::uint64_t> start_block;
};

/// Reads a stream list (testbench/workload/list_file.h): a TOML file of `[[stream]]` tables, or a
/// CSV file (".csv") with a header row, with the optional keys / columns `fragment_bytes` (integer,
/// [512, 4194304]) and `start_block` (integer >= 0), one entry per stream, in stream order (stream
/// k = entry k, numbered from 1), at most 10000. Throws std::invalid_argument
/// "<path>:<line>:<column>: expected ..., found ..." for a syntax error, an unknown key, a value out
/// of range, or a file with no entry (start_block is checked against the capacity by
/// RoundsOptions::validate()).
std::vector<StreamSpec> read_stream_list(const std::string& path);

/// Options of a round workload (scenario keys workload.*; docs/user-guide.md).
struct RoundsOptions {
  std::uint32_t streams = 25;  ///< N, continuous streams (C-requests per round), [0, 10000]; 003 §3.3: 25
  double round_ms = 1000.0;    ///< T, round length in ms, (0, 3.6e6]; 003 §3.3: 1 s
  std::uint64_t rounds = 100;  ///< rounds to simulate, [1, 1e7]; 003 §3.1: 40,000
  double lambda_d = 20.0;      ///< D-requests per round (Poisson mean), [0, 1e6]; 003 Figs. 1-7: up to 65
  FragmentSize fragment_size = FragmentSize::Gamma;
  double fragment_mean_bytes = 200000.0;  ///< C mean (or the constant size), bytes, [512, 4 MiB]; 003 Table 2
  double fragment_sd_bytes = 100000.0;    ///< C standard deviation (gamma), bytes, (0, 4 MiB]; 003 Table 2
  FragmentPlacement placement = FragmentPlacement::Random;
  double d_mean_bytes = 70000.0;  ///< D mean, bytes, [512, 4 MiB]; 003 Table 2
  double d_sd_bytes = 20000.0;    ///< D standard deviation, bytes, [0, 4 MiB]; 003 Table 2
  double read_fraction = 1.0;     ///< probability that a request is a read, [0, 1] (a media server reads)
  /// Per-stream overrides from a stream list (workload.streams_path); empty: none. When set it has
  /// exactly `streams` entries.
  std::vector<StreamSpec> stream_specs;
  std::uint64_t seed = 1;
  std::uint64_t capacity_blocks = 0;  ///< device capacity in blocks, > 0

  /// Throws std::invalid_argument naming the first offending field, its allowed range and value.
  void validate() const;
  /// T in picoseconds.
  Time round_length() const { return from_ms(round_ms); }
};

/// The round (0-based) whose end is `deadline` for rounds of length `round_length`.
inline std::uint64_t round_of_deadline(Time deadline, Time round_length) {
  return static_cast<std::uint64_t>(deadline.count() / round_length.count()) - 1;
}

/// Yields the C- and D-requests of `options.rounds` rounds in arrival order (C-requests of a
/// round before any D-request arriving at the same instant, streams in order).
class RoundsSource final : public WorkloadSource {
 public:
  /// Validates `options` (std::invalid_argument).
  explicit RoundsSource(RoundsOptions options);
  bool next(SourceRequest& out) override;
  /// e.g. "rounds: 25 streams x 100 rounds of 1000 ms, gamma fragments (mean 200000 B, sd 100000 B)
  /// placed random, D-requests Poisson 20/round normal (mean 70000 B, sd 20000 B), seed 1".
  std::string describe() const override;
  const RoundsOptions& options() const { return options_; }

 private:
  bool next_continuous(SourceRequest& out);
  RoundsOptions options_;
  SyntheticSource fragments_;                ///< sizes (and random placement) of the C-requests
  std::optional<SyntheticSource> discrete_;  ///< the D-requests; none when lambda_d = 0
  std::optional<SourceRequest> pending_d_;
  std::uint64_t round_ = 0;                 ///< round of the next C-request
  std::uint32_t stream_ = 0;                ///< stream of the next C-request
  std::vector<std::uint64_t> stripe_next_;  ///< striped: next start block of each stream
};

}  // namespace drivevp
