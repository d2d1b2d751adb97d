// Helpers shared by the trace readers: field splitting and locale-free number parsing.
#include <algorithm>
#include <charconv>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>

#include "testbench/trace/trace_reader.h"

namespace drivevp::trace_detail {
namespace {

__extension__ typedef __int128 i128;

constexpr std::int64_t kPsPerS = 1'000'000'000'000;

bool is_blank(char c) { return c == ' ' || c == '\t'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }

i128 pow10(int e) {
  i128 v = 1;
  for (int i = 0; i < e; ++i) v *= 10;
  return v;
}

}  // namespace

bool fail(Failure& failure, std::string_view expected, std::string_view found) {
  failure.expected.assign(expected.data(), expected.size());
  failure.found = found;
  return false;
}

std::string_view trim(std::string_view s) {
  std::size_t b = 0;
  while (b < s.size() && is_blank(s[b])) ++b;
  std::size_t e = s.size();
  while (e > b && is_blank(s[e - 1])) --e;
  return s.substr(b, e - b);
}

bool is_comment_or_blank(std::string_view line) {
  const std::string_view t = trim(line);
  return t.empty() || t.front() == '#';
}

std::size_t split_blanks(std::string_view line, std::string_view* out, std::size_t max) {
  std::size_t n = 0;
  std::size_t i = 0;
  const std::size_t size = line.size();
  while (true) {
    while (i < size && is_blank(line[i])) ++i;
    if (i == size) return n;
    const std::size_t b = i;
    while (i < size && !is_blank(line[i])) ++i;
    if (n == max) return max + 1;
    out[n++] = line.substr(b, i - b);
  }
}

std::size_t split_commas(std::string_view line, std::string_view* out, std::size_t max) {
  std::size_t n = 0;
  std::size_t b = 0;
  while (true) {
    const std::size_t comma = line.find(',', b);
    const std::size_t e = comma == std::string_view::npos ? line.size() : comma;
    if (n == max) return max + 1;
    out[n++] = trim(line.substr(b, e - b));
    if (comma == std::string_view::npos) return n;
    b = comma + 1;
  }
}

bool parse_u64(std::string_view s, std::uint64_t& v) {
  if (s.empty() || s.front() == '+' || s.front() == '-') return false;
  const auto r = std::from_chars(s.data(), s.data() + s.size(), v, 10);
  return r.ec == std::errc{} && r.ptr == s.data() + s.size();
}

bool parse_i64(std::string_view s, std::int64_t& v) {
  if (s.empty() || s.front() == '+') return false;
  const auto r = std::from_chars(s.data(), s.data() + s.size(), v, 10);
  return r.ec == std::errc{} && r.ptr == s.data() + s.size();
}

bool parse_u32(std::string_view s, std::uint32_t& v) {
  if (s.empty() || s.front() == '+' || s.front() == '-') return false;
  const auto r = std::from_chars(s.data(), s.data() + s.size(), v, 10);
  return r.ec == std::errc{} && r.ptr == s.data() + s.size();
}

bool parse_hex(std::string_view s, std::uint64_t& v) {
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) s.remove_prefix(2);
  if (s.empty() || s.front() == '+' || s.front() == '-') return false;
  const auto r = std::from_chars(s.data(), s.data() + s.size(), v, 16);
  return r.ec == std::errc{} && r.ptr == s.data() + s.size();
}

bool parse_decimal_time(std::string_view s, int shift_to_ps, TraceClock& t) {
  // Exact decimal fixed point: mantissa digits as an integer, then one power-of-ten shift with
  // round-half-up. No binary floating point, so "13.191135" ms is exactly 13191135000 ps.
  i128 mantissa = 0;
  int significant = 0;
  int frac_digits = 0;
  bool any_digit = false;
  std::size_t i = 0;
  const std::size_t n = s.size();
  for (; i < n && is_digit(s[i]); ++i) {
    any_digit = true;
    if (significant > 0 || s[i] != '0') ++significant;
    mantissa = mantissa * 10 + (s[i] - '0');
    if (significant > 30) return false;
  }
  if (i < n && s[i] == '.') {
    for (++i; i < n && is_digit(s[i]); ++i) {
      any_digit = true;
      if (significant > 0 || s[i] != '0') ++significant;
      if (significant > 30) continue;  // digits beyond 30 significant ones cannot matter
      mantissa = mantissa * 10 + (s[i] - '0');
      ++frac_digits;
    }
  }
  if (!any_digit) return false;
  int exponent = 0;
  if (i < n && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < n && s[i] == '+') ++i;
    const auto r = std::from_chars(s.data() + i, s.data() + n, exponent, 10);
    if (r.ec != std::errc{} || r.ptr != s.data() + n) return false;
    i = n;
  }
  if (i != n) return false;
  const long long e = static_cast<long long>(shift_to_ps) + exponent - frac_digits;
  i128 ps = 0;
  if (e >= 0) {
    if (mantissa != 0) {
      if (e > 36) return false;
      const i128 limit = pow10(36);
      const i128 f = pow10(static_cast<int>(e));
      if (mantissa > limit / f) return false;
      ps = mantissa * f;
    }
  } else if (e >= -36) {
    const i128 d = pow10(static_cast<int>(-e));
    ps = (mantissa + d / 2) / d;
  }
  const i128 secs = ps / kPsPerS;
  if (secs > std::numeric_limits<std::int64_t>::max()) return false;
  t.s = static_cast<std::int64_t>(secs);
  t.ps = static_cast<std::int64_t>(ps % kPsPerS);
  return true;
}

bool parse_tick_time(std::string_view s, std::int64_t ps_per_tick, TraceClock& t) {
  std::uint64_t ticks = 0;
  if (!parse_u64(s, ticks)) return false;
  const i128 ps = static_cast<i128>(ticks) * ps_per_tick;
  t.s = static_cast<std::int64_t>(ps / kPsPerS);
  t.ps = static_cast<std::int64_t>(ps % kPsPerS);
  return true;
}

bool parse_byte_size(std::string_view s, std::int64_t& v, Failure& failure) {
  if (!parse_i64(s, v)) return fail(failure, "a size in bytes (a positive integer)", s);
  if (v <= 0) return fail(failure, "a positive size in bytes", s);
  return true;
}

bool parse_block_count(std::string_view s, std::uint32_t& v, Failure& failure) {
  std::int64_t c = 0;
  if (!parse_i64(s, c)) return fail(failure, "a block count (a positive integer)", s);
  if (c <= 0) return fail(failure, "a positive block count", s);
  if (c > kMaxCommandBlocks) {
    return fail(failure, "a block count of at most 65536 (32 MiB, the firmware's largest transfer)", s);
  }
  v = static_cast<std::uint32_t>(c);
  return true;
}

bool bytes_to_blocks(std::uint64_t offset, std::int64_t size, std::string_view found, Record& out, Failure& failure) {
  if (size <= 0) return fail(failure, "a positive size in bytes", found);
  const auto usize = static_cast<std::uint64_t>(size);
  if (offset > std::numeric_limits<std::uint64_t>::max() - usize) {
    return fail(failure, "a byte range below 2^64", found);
  }
  const std::uint64_t first = offset / kBlockBytes;
  const std::uint64_t end_byte = offset + usize;
  const std::uint64_t end = end_byte / kBlockBytes + (end_byte % kBlockBytes != 0 ? 1 : 0);
  const std::uint64_t count = end - first;
  if (count > kMaxCommandBlocks) {
    return fail(failure, "a request of at most 65536 blocks (32 MiB, the firmware's largest transfer)", found);
  }
  out.lbn = first;
  out.blocks = static_cast<std::uint32_t>(count);
  return true;
}

}  // namespace drivevp::trace_detail

namespace drivevp {

std::string printable_text(std::string_view s, std::size_t max_bytes) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(std::min(s.size(), max_bytes) + 8);
  std::size_t i = 0;
  while (i < s.size()) {
    const auto c = static_cast<unsigned char>(s[i]);
    // Length of a valid UTF-8 sequence starting here (RFC 3629: no overlongs, no surrogates,
    // nothing above U+10FFFF); 0 when the byte does not start one.
    std::size_t len = 0;
    if (c < 0x80) {
      len = 1;
    } else if (c >= 0xC2 && c <= 0xF4) {
      const std::size_t want = c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
      if (i + want <= s.size()) {
        len = want;
        for (std::size_t k = 1; k < want; ++k)
          if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) len = 0;
        const auto c1 = want > 1 && len ? static_cast<unsigned char>(s[i + 1]) : 0x80;
        if ((c == 0xE0 && c1 < 0xA0) || (c == 0xED && c1 > 0x9F) || (c == 0xF0 && c1 < 0x90) ||
            (c == 0xF4 && c1 > 0x8F))
          len = 0;
      }
    }
    if (i + std::max<std::size_t>(len, 1) > max_bytes) {
      out += "...";
      return out;
    }
    const bool control = len == 1 && ((c < 0x20 && c != '\t') || c == 0x7F);
    if (len == 0 || control) {
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 0xF];
      ++i;
    } else {
      out.append(s.data() + i, len);
      i += len;
    }
  }
  return out;
}

}  // namespace drivevp
