// The seven space-filling curves of paper 001 (Aref et al., "Scalable QoS-Aware Disk-Scheduling",
// Fig. 1): Sweep, C-Scan, Peano, Hilbert, Gray, Spiral and Diagonal, in D dimensions with N levels
// (grid points 0..N-1) in each. Each curve is an exact bijection between the N^D grid points and
// the curve positions 0..N^D-1, with encode (point -> position) and decode (position -> point).
// Plain C++: no SystemC include (ARCHITECTURE.md, firmware layer). The SFC scheduler policy of
// issue 11 will sort requests by `Curve::encode` of their QoS parameters (001 §3).
//
// Conventions (docs/models/sfc.md has the definitions, the sources and drawings of every curve):
// - A point is D coordinates `u[0..D-1]`, each in [0, N). Dimension 0 is "x" (horizontal in the
//   2-D drawings), dimension 1 is "y" (vertical, growing upwards); the last dimension D-1 is the
//   one Sweep and C-Scan keep sorted (001's "vertical dimension"). Every curve starts at the
//   origin (0, ..., 0); Spiral starts there (an outer corner) and ends in the centre.
// - Positions are `Key`, an unsigned 128-bit integer: N^D reaches 256^16 = 2^128, so the last
//   position N^D - 1 always fits while N^D itself may not (hence `last()`, not `size()`).
// - Ranges: D in [1, 16]; N in [2, 256]. Hilbert and Gray need N a power of two
//   (std::invalid_argument otherwise). Peano is base 3: for N a power of three (3, 9, 27, 81,
//   243) it is Peano's curve itself; for any other N it is the Peano curve of the smallest
//   enclosing 3^k grid restricted to [0, N)^D, positions compacted to ranks 0 .. N^D - 1 (still a
//   bijection and the same order, but consecutive positions are no longer always neighbours).
//   Sweep, C-Scan, Spiral and Diagonal take any N.
// - Cost: encode is O(D log N) for Peano, Hilbert and Gray (a constant number of word
//   operations per digit level, O(D) for fixed N as in 001 §5.2.1 / ref. [20]) and O(D) for the
//   others; decode is O(D log N) except Diagonal (O(D N)).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace drivevp::sfc {

/// A curve position: 0 .. N^D - 1, up to 2^128 - 1 (D = 16, N = 256).
using Key = unsigned __int128;

/// The curves of 001 Fig. 1, in the figure's order.
enum class CurveKind { Sweep, CScan, Peano, Hilbert, Gray, Spiral, Diagonal };

/// All seven kinds, in Fig. 1's order.
const std::vector<CurveKind>& all_curve_kinds();
/// Lower-case name: "sweep", "cscan", "peano", "hilbert", "gray", "spiral", "diagonal".
std::string_view curve_name(CurveKind kind);
/// Inverse of curve_name; throws std::invalid_argument naming the unknown name.
CurveKind curve_from_name(std::string_view name);

/// Largest number of dimensions (001 §5.2.1 goes to 12).
inline constexpr unsigned kMaxDims = 16;
/// Largest number of levels per dimension (001 Fig. 9b goes to 256).
inline constexpr unsigned kMaxLevels = 256;

/// One space-filling curve over the grid [0, N)^D. Immutable after construction; encode and
/// decode are const and thread-safe.
class Curve {
 public:
  /// `dims` = D in [1, 16]; `levels` = N in [2, 256], a power of two for Hilbert and Gray.
  /// Throws std::invalid_argument naming the value otherwise.
  Curve(CurveKind kind, unsigned dims, unsigned levels);

  CurveKind kind() const { return kind_; }
  unsigned dims() const { return dims_; }
  unsigned levels() const { return levels_; }
  /// The last position, N^D - 1 (N^D itself overflows Key at D = 16, N = 256).
  Key last() const { return last_; }

  /// Position of `point` (D coordinates, each in [0, N)) on the curve. The caller guarantees the
  /// ranges (no check on this hot path; `encode_checked` checks).
  Key encode(const std::uint32_t* point) const;
  /// Writes the D coordinates of position `pos` (in [0, N^D - 1]) to `point`.
  void decode(Key pos, std::uint32_t* point) const;

  /// encode with checks: throws std::invalid_argument if `point` does not have D coordinates or
  /// a coordinate is >= N (naming the dimension and value).
  Key encode_checked(const std::vector<std::uint32_t>& point) const;
  /// decode into a new vector; throws std::invalid_argument if `pos` > last().
  std::vector<std::uint32_t> decode_checked(Key pos) const;

 private:
  Key encode_sweep(const std::uint32_t* u) const;
  Key encode_cscan(const std::uint32_t* u) const;
  Key encode_peano(const std::uint32_t* u) const;
  Key encode_hilbert(const std::uint32_t* u) const;
  Key encode_gray(const std::uint32_t* u) const;
  Key encode_spiral(const std::uint32_t* u) const;
  Key encode_diagonal(const std::uint32_t* u) const;
  void decode_sweep(Key pos, std::uint32_t* u) const;
  void decode_cscan(Key pos, std::uint32_t* u) const;
  void decode_peano(Key pos, std::uint32_t* u) const;
  Key encode_peano_compact(const std::uint32_t* u) const;
  void decode_peano_compact(Key pos, std::uint32_t* u) const;
  void decode_hilbert(Key pos, std::uint32_t* u) const;
  void decode_gray(Key pos, std::uint32_t* u) const;
  void decode_spiral(Key pos, std::uint32_t* u) const;
  void decode_diagonal(Key pos, std::uint32_t* u) const;
  /// Interleaves the low `bits_` bits of the coordinates: bit level b-1 first, within a level
  /// dimension D-1 first (most significant). Used by Hilbert (transposed index) and Gray.
  Key interleave(const std::uint32_t* c) const;
  void deinterleave(Key word, std::uint32_t* c) const;
  /// Number of points of the cube [0, s)^d in the shell of Chebyshev layer 0 (Spiral).
  Key shell_rank(const std::uint32_t* v, std::uint32_t s) const;
  void shell_unrank(Key r, std::uint32_t s, std::uint32_t* v) const;
  /// Diagonal: number of points of [0, N)^d whose coordinates sum to less than `sum`.
  Key below_sum(unsigned d, long sum) const;
  Key with_sum(unsigned d, long sum) const;

  CurveKind kind_;
  unsigned dims_;
  unsigned levels_;
  unsigned bits_ = 0;        ///< log2 N (Hilbert, Gray) or ceil(log3 N) (Peano)
  bool peano_exact_ = true;  ///< Peano: N is a power of three (else compacted, see curves.cpp)
  Key last_ = 0;
  std::vector<Key> pow_;  ///< pow_[k] = N^k, k = 0..D-1
  /// Diagonal: cum_[d * stride_ + s] = number of points of [0, N)^d with coordinate sum < s,
  /// s = 0 .. d (N-1) + 1 (then constant); d = 0..D.
  std::vector<Key> cum_;
  std::size_t stride_ = 0;
};

}  // namespace drivevp::sfc
