// The seven space-filling curves of paper 001 Fig. 1. Definitions, sources and the reasoning for
// every choice the paper leaves open: docs/models/sfc.md.
#include "firmware/sfc/curves.h"

#include <algorithm>
#include <array>
#include <stdexcept>

namespace drivevp::sfc {
namespace {

const std::array<std::string_view, 7> kNames = {"sweep", "cscan", "peano", "hilbert", "gray", "spiral", "diagonal"};

bool is_power_of(unsigned n, unsigned base, unsigned* exponent) {
  unsigned e = 0;
  while (n > 1 && n % base == 0) {
    n /= base;
    ++e;
  }
  *exponent = e;
  return n == 1;
}

Key ipow(Key base, unsigned exp) {
  Key r = 1;
  for (unsigned i = 0; i < exp; ++i) r *= base;
  return r;
}

}  // namespace

const std::vector<CurveKind>& all_curve_kinds() {
  static const std::vector<CurveKind> kinds = {CurveKind::Sweep,   CurveKind::CScan, CurveKind::Peano,
                                               CurveKind::Hilbert, CurveKind::Gray,  CurveKind::Spiral,
                                               CurveKind::Diagonal};
  return kinds;
}

std::string_view curve_name(CurveKind kind) { return kNames.at(static_cast<std::size_t>(kind)); }

CurveKind curve_from_name(std::string_view name) {
  for (std::size_t i = 0; i < kNames.size(); ++i)
    if (kNames[i] == name) return static_cast<CurveKind>(i);
  throw std::invalid_argument("unknown space-filling curve '" + std::string(name) +
                              "' (expected sweep, cscan, peano, hilbert, gray, spiral or diagonal)");
}

Curve::Curve(CurveKind kind, unsigned dims, unsigned levels) : kind_(kind), dims_(dims), levels_(levels) {
  const std::string who = std::string(curve_name(kind)) + " curve: ";
  if (dims < 1 || dims > kMaxDims)
    throw std::invalid_argument(who + "dimensions D = " + std::to_string(dims) + " out of range [1, 16]");
  if (levels < 2 || levels > kMaxLevels)
    throw std::invalid_argument(who + "levels N = " + std::to_string(levels) + " out of range [2, 256]");
  if (kind == CurveKind::Hilbert || kind == CurveKind::Gray) {
    if (!is_power_of(levels, 2, &bits_))
      throw std::invalid_argument(who + "levels N = " + std::to_string(levels) + " is not a power of two");
  }
  if (kind == CurveKind::Peano) {
    // Peano's construction is base 3: with N not a power of three the curve of the smallest
    // enclosing 3^k grid is used and its positions are compacted to ranks among the N^D points.
    peano_exact_ = is_power_of(levels, 3, &bits_);
    if (!peano_exact_) {
      bits_ = 0;
      for (unsigned m = 1; m < levels; m *= 3) ++bits_;
    }
  }
  pow_.resize(dims);
  for (unsigned k = 0; k < dims; ++k) pow_[k] = ipow(levels, k);
  last_ = pow_[dims - 1] * levels - 1;  // wraps to 2^128 - 1 correctly when N^D = 2^128
  if (kind == CurveKind::Diagonal) {
    // cum_[d][s] = #points of [0, N)^d with coordinate sum < s; modular (wrapping) arithmetic is
    // exact here because every value used is < 2^128 except cum_[D][D(N-1)+1] = N^D itself.
    stride_ = static_cast<std::size_t>(dims) * (levels - 1) + 2;
    cum_.assign((dims + 1) * stride_, 0);
    for (std::size_t s = 1; s < stride_; ++s) cum_[s] = 1;  // d = 0: one point, sum 0
    for (unsigned d = 1; d <= dims; ++d) {
      Key acc = 0;
      for (std::size_t s = 0; s + 1 < stride_; ++s) {
        // with_sum(d, s) = sum over v in [0, N) of with_sum(d-1, s-v) = below(d-1, s+1) - below(d-1, s-N+1)
        acc += below_sum(d - 1, static_cast<long>(s) + 1) -
               below_sum(d - 1, static_cast<long>(s) - static_cast<long>(levels) + 1);
        cum_[d * stride_ + s + 1] = acc;
      }
    }
  }
}

Key Curve::below_sum(unsigned d, long sum) const {
  const long max = static_cast<long>(d) * (levels_ - 1) + 1;
  if (sum <= 0) return 0;
  if (sum > max) sum = max;
  return cum_[d * stride_ + static_cast<std::size_t>(sum)];
}

Key Curve::with_sum(unsigned d, long sum) const { return below_sum(d, sum + 1) - below_sum(d, sum); }

Key Curve::encode(const std::uint32_t* u) const {
  switch (kind_) {
    case CurveKind::Sweep:
      return encode_sweep(u);
    case CurveKind::CScan:
      return encode_cscan(u);
    case CurveKind::Peano:
      return encode_peano(u);
    case CurveKind::Hilbert:
      return encode_hilbert(u);
    case CurveKind::Gray:
      return encode_gray(u);
    case CurveKind::Spiral:
      return encode_spiral(u);
    case CurveKind::Diagonal:
      return encode_diagonal(u);
  }
  return 0;
}

void Curve::decode(Key pos, std::uint32_t* u) const {
  switch (kind_) {
    case CurveKind::Sweep:
      return decode_sweep(pos, u);
    case CurveKind::CScan:
      return decode_cscan(pos, u);
    case CurveKind::Peano:
      return decode_peano(pos, u);
    case CurveKind::Hilbert:
      return decode_hilbert(pos, u);
    case CurveKind::Gray:
      return decode_gray(pos, u);
    case CurveKind::Spiral:
      return decode_spiral(pos, u);
    case CurveKind::Diagonal:
      return decode_diagonal(pos, u);
  }
}

Key Curve::encode_checked(const std::vector<std::uint32_t>& point) const {
  if (point.size() != dims_)
    throw std::invalid_argument(std::string(curve_name(kind_)) + " curve: point has " + std::to_string(point.size()) +
                                " coordinates, expected D = " + std::to_string(dims_));
  for (unsigned k = 0; k < dims_; ++k)
    if (point[k] >= levels_)
      throw std::invalid_argument(std::string(curve_name(kind_)) + " curve: coordinate " + std::to_string(k) + " = " +
                                  std::to_string(point[k]) + " out of range [0, " + std::to_string(levels_ - 1) + "]");
  return encode(point.data());
}

std::vector<std::uint32_t> Curve::decode_checked(Key pos) const {
  if (pos > last_)
    throw std::invalid_argument(std::string(curve_name(kind_)) + " curve: position beyond the last, N^D - 1");
  std::vector<std::uint32_t> point(dims_);
  decode(pos, point.data());
  return point;
}

// --- Sweep: row-major raster, every row in the same direction; dimension D-1 most significant.
Key Curve::encode_sweep(const std::uint32_t* u) const {
  Key pos = 0;
  for (unsigned k = dims_; k-- > 0;) pos = pos * levels_ + u[k];
  return pos;
}

void Curve::decode_sweep(Key pos, std::uint32_t* u) const {
  for (unsigned k = 0; k < dims_; ++k) {
    u[k] = static_cast<std::uint32_t>(pos % levels_);
    pos /= levels_;
  }
}

// --- C-Scan: boustrophedon (reflected mixed-radix N-ary Gray order). Digit t_k = u_k, reversed
// (N-1-u_k) when the sum of the higher coordinates u_{k+1..D-1} is odd.
Key Curve::encode_cscan(const std::uint32_t* u) const {
  Key pos = 0;
  unsigned odd = 0;
  for (unsigned k = dims_; k-- > 0;) {
    const std::uint32_t t = odd ? levels_ - 1 - u[k] : u[k];
    pos = pos * levels_ + t;
    odd ^= u[k] & 1u;
  }
  return pos;
}

void Curve::decode_cscan(Key pos, std::uint32_t* u) const {
  std::array<std::uint32_t, kMaxDims> t{};
  for (unsigned k = 0; k < dims_; ++k) {
    t[k] = static_cast<std::uint32_t>(pos % levels_);
    pos /= levels_;
  }
  unsigned odd = 0;
  for (unsigned k = dims_; k-- > 0;) {
    u[k] = odd ? levels_ - 1 - t[k] : t[k];
    odd ^= u[k] & 1u;
  }
}

// --- Peano (1890), D dimensions: the position's base-3 digits s_1 s_2 ... (m = log3 N levels of
// D digits, dimension 0 first within a level) give the coordinates' base-3 digits; a digit of
// dimension k is reflected (2 - s) when the sum of the preceding position digits that belong to
// the other dimensions is odd. Reflection keeps a digit's parity, so the parities can be taken
// from the coordinates' digits when encoding.
Key Curve::encode_peano(const std::uint32_t* u) const {
  if (!peano_exact_) return encode_peano_compact(u);
  const std::uint32_t top = levels_ / 3;  // 3^(m-1)
  unsigned total = 0;
  std::array<unsigned, kMaxDims> par{};
  Key pos = 0;
  for (std::uint32_t p = top; p > 0; p /= 3) {
    for (unsigned k = 0; k < dims_; ++k) {
      const std::uint32_t c = (u[k] / p) % 3;
      const std::uint32_t s = ((total ^ par[k]) & 1u) ? 2 - c : c;
      pos = pos * 3 + s;
      par[k] ^= c & 1u;
      total ^= c & 1u;
    }
  }
  return pos;
}

void Curve::decode_peano(Key pos, std::uint32_t* u) const {
  if (!peano_exact_) return decode_peano_compact(pos, u);
  const unsigned n = bits_ * dims_;
  std::array<std::uint8_t, 5 * kMaxDims> digit{};
  for (unsigned i = n; i-- > 0;) {
    digit[i] = static_cast<std::uint8_t>(pos % 3);
    pos /= 3;
  }
  std::fill(u, u + dims_, 0u);
  unsigned total = 0;
  std::array<unsigned, kMaxDims> par{};
  for (unsigned i = 0; i < n; ++i) {
    const unsigned k = i % dims_;
    const std::uint32_t s = digit[i];
    const std::uint32_t c = ((total ^ par[k]) & 1u) ? 2 - s : s;
    u[k] = u[k] * 3 + c;
    par[k] ^= c & 1u;
    total ^= c & 1u;
  }
}

// Peano with N not a power of three: the curve of the enclosing grid [0, 3^k)^D, k = ceil(log3 N),
// restricted to [0, N)^D; a point's position is the number of points of [0, N)^D that the
// enclosing curve visits before it. Walking the position digits as above, every smaller digit s'
// at a step stands for a block of the enclosing grid whose coordinates are free below the fixed
// prefix: its in-grid points are the product over the dimensions of the in-grid values of each
// coordinate's prefix interval. O(D k) per point (prefix products to the left, suffix products
// to the right of the current dimension).
namespace {

/// In-grid values of a coordinate whose base-3 prefix is `prefix` with `span` values below it.
std::uint32_t values_in(std::uint32_t prefix, std::uint32_t span, std::uint32_t n) {
  const std::uint64_t lo = static_cast<std::uint64_t>(prefix) * span;
  if (lo >= n) return 0;
  return static_cast<std::uint32_t>(std::min<std::uint64_t>(span, n - lo));
}

}  // namespace

Key Curve::encode_peano_compact(const std::uint32_t* u) const {
  std::array<std::uint32_t, kMaxDims> pre{}, cnt{};
  std::array<Key, kMaxDims + 1> suf{};
  std::array<unsigned, kMaxDims> par{};
  std::fill(cnt.begin(), cnt.begin() + dims_, levels_);
  unsigned total = 0;
  std::uint32_t span = 1;
  for (unsigned l = 1; l < bits_; ++l) span *= 3;
  Key rank = 0;
  for (; span > 0; span /= 3) {
    suf[dims_] = 1;
    for (unsigned j = dims_; j-- > 0;) suf[j] = suf[j + 1] * cnt[j];
    Key left = 1;
    for (unsigned d = 0; d < dims_; ++d) {
      const std::uint32_t c = (u[d] / span) % 3;
      const bool flip = (total ^ par[d]) & 1u;
      const std::uint32_t s = flip ? 2 - c : c;
      for (std::uint32_t sp = 0; sp < s; ++sp) {
        const std::uint32_t cp = flip ? 2 - sp : sp;
        rank += left * values_in(pre[d] * 3 + cp, span, levels_) * suf[d + 1];
      }
      pre[d] = pre[d] * 3 + c;
      cnt[d] = values_in(pre[d], span, levels_);
      left *= cnt[d];
      par[d] ^= c & 1u;
      total ^= c & 1u;
    }
  }
  return rank;
}

void Curve::decode_peano_compact(Key pos, std::uint32_t* u) const {
  std::array<std::uint32_t, kMaxDims> pre{}, cnt{};
  std::array<Key, kMaxDims + 1> suf{};
  std::array<unsigned, kMaxDims> par{};
  std::fill(cnt.begin(), cnt.begin() + dims_, levels_);
  unsigned total = 0;
  std::uint32_t span = 1;
  for (unsigned l = 1; l < bits_; ++l) span *= 3;
  for (; span > 0; span /= 3) {
    suf[dims_] = 1;
    for (unsigned j = dims_; j-- > 0;) suf[j] = suf[j + 1] * cnt[j];
    Key left = 1;
    for (unsigned d = 0; d < dims_; ++d) {
      const bool flip = (total ^ par[d]) & 1u;
      std::uint32_t c = 0;
      for (std::uint32_t sp = 0; sp < 3; ++sp) {
        c = flip ? 2 - sp : sp;
        const Key block = left * values_in(pre[d] * 3 + c, span, levels_) * suf[d + 1];
        if (pos < block) break;
        pos -= block;
      }
      pre[d] = pre[d] * 3 + c;
      cnt[d] = values_in(pre[d], span, levels_);
      left *= cnt[d];
      par[d] ^= c & 1u;
      total ^= c & 1u;
    }
  }
  for (unsigned d = 0; d < dims_; ++d) u[d] = pre[d];
}

// --- bit interleaving for Hilbert (transposed index) and Gray: level b-1 first; within a level
// the coordinate with the highest index is the most significant bit.
Key Curve::interleave(const std::uint32_t* c) const {
  Key w = 0;
  for (unsigned b = bits_; b-- > 0;)
    for (unsigned k = dims_; k-- > 0;) w = (w << 1) | ((c[k] >> b) & 1u);
  return w;
}

void Curve::deinterleave(Key w, std::uint32_t* c) const {
  std::fill(c, c + dims_, 0u);
  for (unsigned b = 0; b < bits_; ++b)
    for (unsigned k = 0; k < dims_; ++k) {
      c[k] |= static_cast<std::uint32_t>(w & 1u) << b;
      w >>= 1;
    }
}

// --- Hilbert: Skilling (2004), "Programming the Hilbert curve", AIP Conf. Proc. 707: the axes
// are turned into the "transposed" Hilbert index in place (undo the excess rotations level by
// level, then Gray-encode across the dimensions); the index's bits are then read level by level.
// Skilling's X[0] is the most significant dimension within a level; we feed X[i] = u[D-1-i] so
// that the interleave() convention (highest dimension most significant) holds.
Key Curve::encode_hilbert(const std::uint32_t* u) const {
  std::array<std::uint32_t, kMaxDims> x{};
  const unsigned n = dims_;
  for (unsigned i = 0; i < n; ++i) x[i] = u[n - 1 - i];
  const std::uint32_t m = 1u << (bits_ - 1);
  for (std::uint32_t q = m; q > 1; q >>= 1) {
    const std::uint32_t p = q - 1;
    for (unsigned i = 0; i < n; ++i) {
      if (x[i] & q) {
        x[0] ^= p;  // invert
      } else {      // exchange the low bits of x[0] and x[i]
        const std::uint32_t t = (x[0] ^ x[i]) & p;
        x[0] ^= t;
        x[i] ^= t;
      }
    }
  }
  for (unsigned i = 1; i < n; ++i) x[i] ^= x[i - 1];  // Gray encode
  std::uint32_t t = 0;
  for (std::uint32_t q = m; q > 1; q >>= 1)
    if (x[n - 1] & q) t ^= q - 1;
  for (unsigned i = 0; i < n; ++i) x[i] ^= t;
  std::array<std::uint32_t, kMaxDims> c{};
  for (unsigned i = 0; i < n; ++i) c[n - 1 - i] = x[i];
  return interleave(c.data());
}

void Curve::decode_hilbert(Key pos, std::uint32_t* u) const {
  std::array<std::uint32_t, kMaxDims> c{};
  deinterleave(pos, c.data());
  const unsigned n = dims_;
  std::array<std::uint32_t, kMaxDims> x{};
  for (unsigned i = 0; i < n; ++i) x[i] = c[n - 1 - i];
  const std::uint32_t big = 2u << (bits_ - 1);
  std::uint32_t t = x[n - 1] >> 1;  // Gray decode by H ^ (H / 2)
  for (unsigned i = n - 1; i > 0; --i) x[i] ^= x[i - 1];
  x[0] ^= t;
  for (std::uint32_t q = 2; q != big; q <<= 1) {  // undo the excess work
    const std::uint32_t p = q - 1;
    for (unsigned i = n; i-- > 0;) {
      if (x[i] & q) {
        x[0] ^= p;
      } else {
        t = (x[0] ^ x[i]) & p;
        x[0] ^= t;
        x[i] ^= t;
      }
    }
  }
  for (unsigned i = 0; i < n; ++i) u[n - 1 - i] = x[i];
}

// --- Gray: Faloutsos (1986), "Multiattribute hashing using Gray codes": the interleaved word is
// read as a binary-reflected Gray code and the position is its rank (the inverse Gray code).
Key Curve::encode_gray(const std::uint32_t* u) const {
  Key w = interleave(u);
  for (unsigned s = 1; s < 128; s <<= 1) w ^= w >> s;
  return w;
}

void Curve::decode_gray(Key pos, std::uint32_t* u) const { deinterleave(pos ^ (pos >> 1), u); }

// --- Spiral: layers by Chebyshev distance from the boundary, l = min_k min(u_k, N-1-u_k),
// outside in; layer l is the surface of the cube of side s = N - 2l at offset l. In 2-D a layer
// is walked as a ring (bottom row left to right, right column up, top row right to left, left
// column down: counter-clockwise with y up); in any other D in the raster (Sweep) order of the
// layer's points.
Key Curve::shell_rank(const std::uint32_t* v, std::uint32_t s) const {
  if (s == 1) return 0;
  if (dims_ == 2) {
    const std::uint32_t x = v[0], y = v[1];
    if (y == 0) return x;
    if (x == s - 1) return (s - 1) + y;
    if (y == s - 1) return 2 * (s - 1) + (s - 1 - x);
    return 3 * (s - 1) + (s - 1 - y);
  }
  std::array<Key, kMaxDims> block{}, inner{};
  block[0] = 1;
  inner[0] = 1;
  for (unsigned k = 1; k < dims_; ++k) {
    block[k] = block[k - 1] * s;
    inner[k] = inner[k - 1] * (s - 2);
  }
  Key r = 0;
  bool inside = true;  // every higher coordinate is interior (1 .. s-2)
  for (unsigned k = dims_; k-- > 0;) {
    const std::uint32_t x = v[k];
    r += block[k] * x;
    if (inside) {
      const std::uint32_t interior_below = x == 0 ? 0 : std::min(x - 1, s - 2);
      r -= inner[k] * interior_below;
      inside = x >= 1 && x <= s - 2;
    }
  }
  return r;
}

void Curve::shell_unrank(Key r, std::uint32_t s, std::uint32_t* v) const {
  if (s == 1) {
    std::fill(v, v + dims_, 0u);
    return;
  }
  if (dims_ == 2) {
    const auto q = static_cast<std::uint32_t>(r);
    const std::uint32_t e = s - 1;
    if (q < e) {
      v[0] = q, v[1] = 0;
    } else if (q < 2 * e) {
      v[0] = e, v[1] = q - e;
    } else if (q < 3 * e) {
      v[0] = e - (q - 2 * e), v[1] = e;
    } else {
      v[0] = 0, v[1] = e - (q - 3 * e);
    }
    return;
  }
  std::array<Key, kMaxDims> block{}, inner{};
  block[0] = 1;
  inner[0] = 1;
  for (unsigned k = 1; k < dims_; ++k) {
    block[k] = block[k - 1] * s;
    inner[k] = inner[k - 1] * (s - 2);
  }
  bool inside = true;
  for (unsigned k = dims_; k-- > 0;) {
    if (!inside) {
      v[k] = static_cast<std::uint32_t>(r / block[k]);
      r %= block[k];
      continue;
    }
    if (r < block[k]) {
      v[k] = 0;
      inside = false;
      continue;
    }
    r -= block[k];
    const Key mid = block[k] - inner[k];
    if (r < mid * (s - 2)) {
      v[k] = 1 + static_cast<std::uint32_t>(r / mid);
      r %= mid;
    } else {
      r -= mid * (s - 2);
      v[k] = s - 1;
      inside = false;
    }
  }
}

Key Curve::encode_spiral(const std::uint32_t* u) const {
  std::uint32_t layer = levels_;
  for (unsigned k = 0; k < dims_; ++k) layer = std::min({layer, u[k], levels_ - 1 - u[k]});
  const std::uint32_t s = levels_ - 2 * layer;
  std::array<std::uint32_t, kMaxDims> v{};
  for (unsigned k = 0; k < dims_; ++k) v[k] = u[k] - layer;
  // points in the outer layers: N^D - s^D (modular: N^D may wrap to 0)
  return (last_ + 1) - ipow(s, dims_) + shell_rank(v.data(), s);
}

void Curve::decode_spiral(Key pos, std::uint32_t* u) const {
  // largest layer l whose first position, N^D - (N-2l)^D, is <= pos (modular arithmetic: N^D
  // may wrap to 0, the differences are exact)
  std::uint32_t lo = 0, hi = (levels_ - 1) / 2;
  while (lo < hi) {
    const std::uint32_t mid = (lo + hi + 1) / 2;
    if ((last_ + 1) - ipow(levels_ - 2 * mid, dims_) <= pos) {
      lo = mid;
    } else {
      hi = mid - 1;
    }
  }
  const std::uint32_t s = levels_ - 2 * lo;
  const Key start = (last_ + 1) - ipow(s, dims_);
  shell_unrank(pos - start, s, u);
  for (unsigned k = 0; k < dims_; ++k) u[k] += lo;
}

// --- Diagonal: by coordinate sum S, then within the diagonal by u_{D-1} (ascending when S is odd,
// descending when even: the Cantor zig-zag), then recursively by u_{D-2} within the remaining
// sum, and so on; u_0 is then determined.
Key Curve::encode_diagonal(const std::uint32_t* u) const {
  long rem = 0;
  for (unsigned k = 0; k < dims_; ++k) rem += u[k];
  Key pos = below_sum(dims_, rem);
  for (unsigned k = dims_ - 1; k >= 1; --k) {
    const long v = u[k];
    if (rem & 1) {
      pos += below_sum(k, rem + 1) - below_sum(k, rem - v + 1);
    } else {
      pos += below_sum(k, rem - v) - below_sum(k, rem - static_cast<long>(levels_) + 1);
    }
    rem -= v;
  }
  return pos;
}

void Curve::decode_diagonal(Key pos, std::uint32_t* u) const {
  long lo = 0, hi = static_cast<long>(dims_) * (levels_ - 1);
  while (lo < hi) {  // largest S with below_sum(D, S) <= pos
    const long mid = (lo + hi + 1) / 2;
    if (below_sum(dims_, mid) <= pos) {
      lo = mid;
    } else {
      hi = mid - 1;
    }
  }
  long rem = lo;
  Key r = pos - below_sum(dims_, rem);
  const long top = static_cast<long>(levels_) - 1;
  for (unsigned k = dims_ - 1; k >= 1; --k) {
    const long vmin = std::max(0L, rem - static_cast<long>(k) * top);
    const long vmax = std::min(top, rem);
    const bool asc = rem & 1;
    long v = asc ? vmin : vmax;
    for (;;) {
      const Key block = with_sum(k, rem - v);
      if (r < block) break;
      r -= block;
      v += asc ? 1 : -1;
    }
    u[k] = static_cast<std::uint32_t>(v);
    rem -= v;
  }
  u[0] = static_cast<std::uint32_t>(rem);
}

}  // namespace drivevp::sfc
