#include "hw_models/mems/mems_seek.h"

#include <array>
#include <functional>

#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>

namespace drivevp::mems {

namespace {

// Angle swept (rad) by the phase point of x'' = −ω²(x − centre) from (qa, wa) to (qb, wb), where
// q = p − centre, w = p' >= 0, in the phase plane (q, −w/ω) (counterclockwise as time runs).
// dp = qb − qa and dw2 = wb² − wa² are passed separately so that the cross product loses no digits
// when |q| is much larger than dp: wa·qb − qa·wb = wa·dp − qa·(wb − wa), wb − wa = dw2/(wa + wb).
double phase_angle(double omega, double qa, double wa, double dp, double dw2, double wb) {
  if (wa + wb == 0) return 0;
  const double cross = (wa * dp - qa * dw2 / (wa + wb)) / omega;
  const double dot = qa * (qa + dp) + wa * wb / (omega * omega);
  return std::atan2(cross, dot);
}

[[noreturn]] void infeasible(double from, double w0, double to, double w1) {
  throw std::invalid_argument("MEMS bang-bang move from " + std::to_string(from) + " nm at " + std::to_string(w0) +
                              " nm/s to " + std::to_string(to) + " nm at " + std::to_string(w1) +
                              " nm/s is infeasible (switch point outside the move)");
}

}  // namespace

Axis axis_x(const MemsParams& p) {
  const double a = p.accel_x_nm_s2();
  return {a, a * p.spring_constant_factor / (0.5 * p.sled_movement_x_nm)};
}

Axis axis_y(const MemsParams& p) {
  const double a = p.accel_y_nm_s2();
  return {a, a * p.spring_constant_factor / (0.5 * p.sled_movement_y_nm)};
}

double bang_bang_exact_s(const Axis& axis, double from, double w0, double to, double w1) {
  if (from == to && w0 == w1) return 0;
  const double s = to >= from ? 1.0 : -1.0;
  const double p0 = s * from, p1 = s * to, d = p1 - p0;
  const double a = axis.accel_nm_s2, om2 = axis.omega2;
  // Switch point: equal speed from the accelerating phase (w² = w0² + 2a(p−p0) − ω²(p²−p0²)) and
  // the decelerating phase (w² = w1² + 2a(p1−p) + ω²(p1²−p²)); the ω²p² terms cancel.
  double ps = 0.5 * (p0 + p1) + (w1 * w1 - w0 * w0) / (4 * a) + om2 * d * (p1 + p0) / (4 * a);
  const double tol = 1e-9 * std::max(1.0, std::abs(p0) + std::abs(p1));
  if (ps < p0 - tol || ps > p1 + tol) infeasible(from, w0, to, w1);
  ps = std::clamp(ps, p0, p1);
  const double d1 = ps - p0, d2 = p1 - ps;
  const double dw2_1 = d1 * (2 * a - om2 * (ps + p0));  // ws² − w0²
  const double ws = std::sqrt(std::max(0.0, w0 * w0 + dw2_1));
  if (om2 == 0) {
    const double t1 = d1 == 0 ? 0 : 2 * d1 / (w0 + ws);
    const double t2 = d2 == 0 ? 0 : 2 * d2 / (ws + w1);
    return t1 + t2;
  }
  const double om = std::sqrt(om2);
  const double centre1 = a / om2, centre2 = -a / om2;
  const double dw2_2 = -d2 * (2 * a + om2 * (p1 + ps));  // w1² − ws²
  const double t1 = phase_angle(om, p0 - centre1, w0, d1, dw2_1, ws) / om;
  const double t2 = phase_angle(om, ps - centre2, ws, d2, dw2_2, w1) / om;
  return t1 + t2;
}

double bang_bang_chunked_s(const Axis& axis, double from, double w0, double to, double w1) {
  const double a = axis.accel_nm_s2, om2 = axis.omega2;
  if (om2 == 0) return bang_bang_exact_s(axis, from, w0, to, w1);
  if (from == to && w0 == w1) return 0;
  const double s = to >= from ? 1.0 : -1.0;
  const double p0 = s * from, p1 = s * to, d = p1 - p0;
  constexpr int kChunks = 8, kIterations = 9;
  struct Half {
    double t, w;
  };
  // Forward from p0 to ps under a − ω²p; backward from p1 to ps under the deceleration a + ω²p.
  auto forward = [&](double ps) {
    const double h = (ps - p0) / kChunks;
    Half r{0, w0};
    for (int i = 0; i < kChunks; ++i) {
      const double pa = p0 + i * h, pb = pa + h;
      const double acc = a - 0.5 * om2 * (pa + pb);
      const double wn = std::sqrt(std::max(0.0, r.w * r.w + 2 * acc * h));
      if (r.w + wn > 0) r.t += 2 * h / (r.w + wn);
      r.w = wn;
    }
    return r;
  };
  auto backward = [&](double ps) {
    const double h = (p1 - ps) / kChunks;
    Half r{0, w1};
    for (int i = 0; i < kChunks; ++i) {
      const double pb = p1 - i * h, pa = pb - h;
      const double acc = a + 0.5 * om2 * (pa + pb);
      const double wn = std::sqrt(std::max(0.0, r.w * r.w + 2 * acc * h));
      if (r.w + wn > 0) r.t += 2 * h / (r.w + wn);
      r.w = wn;
    }
    return r;
  };
  double ps = std::clamp(0.5 * (p0 + p1) + (w1 * w1 - w0 * w0) / (4 * a), p0, p1);
  double best_t = 0, best_mismatch = std::numeric_limits<double>::infinity();
  for (int i = 0; i < kIterations; ++i) {
    const Half f = forward(ps), b = backward(ps);
    const double mismatch = std::abs(f.w - b.w);
    if (mismatch < best_mismatch) {
      best_mismatch = mismatch;
      best_t = f.t + b.t;
    }
    const double step = 0.05 * d * (kIterations - i) / kIterations;
    ps = std::clamp(f.w < b.w ? ps + step : ps - step, p0, p1);
  }
  return best_t;
}

MemsSeek::MemsSeek(const MemsParams& params, SeekMethod method)
    : params_(params),
      layout_(params),
      method_(method),
      ax_(axis_x(params)),
      ay_(axis_y(params)),
      v_(params.access_velocity_nm_s()),
      row_s_(layout_.row_bits() * static_cast<double>(layout_.bit_length_nm()) / v_),
      settle_(params.settle()) {}

double MemsSeek::bang_bang_s(const Axis& axis, double from, double w0, double to, double w1) const {
  // The firmware's predictor and the device compute the same move one after the other (the
  // prediction at dispatch, the access when the command arrives): a small per-thread memo of
  // recent moves, keyed on every input (axis constants and method included, so two MemsSeek with
  // equal parameters share entries and results are bit-identical to a fresh computation).
  struct Memo {
    double accel = -1, omega2 = 0, from = 0, w0 = 0, to = 0, w1 = 0, seconds = 0;
    SeekMethod method = SeekMethod::Exact;
  };
  constexpr std::size_t kSlots = 16;
  thread_local std::array<Memo, kSlots> memo{};
  // The slot from the inputs' bit patterns (a multiplicative mix; any slot choice gives the same
  // results, only the hit rate depends on it).
  const auto bits = [](double v) {
    std::uint64_t u;
    std::memcpy(&u, &v, sizeof u);
    return u;
  };
  const std::uint64_t h = (bits(from) * 0x9E3779B97F4A7C15ull) ^ (bits(to) * 0xC2B2AE3D27D4EB4Full) ^
                          (bits(w0) * 0x165667B19E3779F9ull) ^ std::uint64_t{axis.omega2 != 0};
  const std::size_t slot = static_cast<std::size_t>((h ^ (h >> 29) ^ (h >> 47)) % kSlots);
  Memo& m = memo[slot];
  if (m.accel == axis.accel_nm_s2 && m.omega2 == axis.omega2 && m.from == from && m.to == to && m.w0 == w0 &&
      m.w1 == w1 && m.method == method_)
    return m.seconds;
  const double s = method_ == SeekMethod::Exact ? bang_bang_exact_s(axis, from, w0, to, w1)
                                                : bang_bang_chunked_s(axis, from, w0, to, w1);
  m = Memo{axis.accel_nm_s2, axis.omega2, from, w0, to, w1, s, method_};
  return s;
}

double MemsSeek::x_seek_s(std::int64_t from_nm, std::int64_t to_nm) const {
  if (from_nm == to_nm) return 0;
  return bang_bang_s(ax_, static_cast<double>(from_nm), 0, static_cast<double>(to_nm), 0);
}

double MemsSeek::turnaround_s(std::int64_t y_nm, int direction) const {
  return 2 * v_ / (ay_.accel_nm_s2 + ay_.omega2 * direction * static_cast<double>(y_nm));
}

double MemsSeek::y_seek_s(std::int64_t y0, int dir0, std::int64_t y1, int dir1, double* turn_s, int* turns,
                          double* start_turn_s) const {
  const int s = y1 > y0 ? +1 : (y1 < y0 ? -1 : dir0);
  double t_turn = 0;
  int n = 0;
  if (dir0 != s) {
    t_turn += turnaround_s(y0, dir0);
    ++n;
  }
  if (start_turn_s) *start_turn_s = t_turn;
  if (dir1 != s) {
    t_turn += turnaround_s(y1, s);
    ++n;
  }
  if (turn_s) *turn_s = t_turn;
  if (turns) *turns = n;
  if (y0 == y1) return 0;
  return bang_bang_s(ay_, static_cast<double>(y0), v_, static_cast<double>(y1), v_);
}

Positioning MemsSeek::position(const SledState& from, std::int64_t x_nm, const AccessPass& pass) const {
  // The device positions exactly as the firmware's predictor did just before (the decision's
  // estimate, then the command): a per-thread memo of the last positioning, keyed on every input
  // and on every constant it depends on (so two MemsSeek with equal parameters share it and the
  // result is bit-identical to a fresh computation).
  struct Last {
    double ax_a = 0, ax_w = 0, ay_a = 0, ay_w = 0, v = 0;  // ax_a 0: empty
    Time settle{0};
    SeekMethod method = SeekMethod::Exact;
    SledState from;
    std::int64_t x_nm = 0, y_servo_nm = 0;
    int direction = 0;
    Positioning result;
  };
  thread_local Last last;
  if (last.x_nm == x_nm && last.y_servo_nm == pass.y_servo_nm && last.from == from &&
      last.direction == pass.direction && last.ax_a == ax_.accel_nm_s2 && last.ax_w == ax_.omega2 &&
      last.ay_a == ay_.accel_nm_s2 && last.ay_w == ay_.omega2 && last.v == v_ && last.settle == settle_ &&
      last.method == method_)
    return last.result;
  const Positioning p = compute_position(from, x_nm, pass);
  last =
      Last{ax_.accel_nm_s2, ax_.omega2, ay_.accel_nm_s2, ay_.omega2, v_, settle_, method_, from, x_nm, pass.y_servo_nm,
           pass.direction,  p};
  return p;
}

Positioning MemsSeek::compute_position(const SledState& from, std::int64_t x_nm, const AccessPass& pass) const {
  Positioning p;
  if (from.x_nm != x_nm) {
    p.x_seek = from_s(x_seek_s(from.x_nm, x_nm));
    p.settle = settle_;
  }
  double turn = 0, start_turn = 0;
  p.y_seek = from_s(
      y_seek_s(from.y_nm, from.y_direction, pass.y_servo_nm, pass.direction, &turn, &p.turnaround_count, &start_turn));
  p.turnarounds = from_s(turn);
  if (start_turn > 0) p.start_turnaround = std::min(p.turnarounds, from_s(start_turn));
  return p;
}

AccessPass MemsSeek::pass_for(const BlockPosition& b, int direction) const {
  return direction < 0 && params_.bidirectional_access ? b.down : b.up;
}

void MemsSeek::check_range(std::uint64_t lbn, std::uint64_t blocks) const {
  if (blocks == 0) throw std::invalid_argument("MEMS media access of 0 blocks");
  const std::uint64_t cap = layout_.capacity();
  if (lbn >= cap || blocks > cap - lbn)
    throw std::out_of_range("MEMS access of " + std::to_string(blocks) + " blocks from LBN " + std::to_string(lbn) +
                            " passes the capacity of " + std::to_string(cap) + " blocks");
}

Sweep MemsSeek::run_sweep(const SledState& from, const BlockAddress& a, std::uint64_t blocks) const {
  const MemsLayout& L = layout_;
  // The run's last block, lbn + blocks - 1, as L.locate() would give it: the run lies inside a's
  // sweep (blocks <= run_blocks(a)), so only the position inside that sweep advances (Streaming:
  // row·cells + cell; AlongY: the row), without locate()'s divisions down from the sled.
  BlockAddress z = a;
  if (L.order() == LayoutOrder::Streaming) {
    const std::uint32_t cells = L.cells_per_row();
    const std::uint64_t in_column = std::uint64_t{a.row} * cells + a.cell + (blocks - 1);  // < blocks per column
    if (in_column <= 0xFFFF'FFFFu) {  // 32-bit division where it fits, as locate()
      z.row = static_cast<std::uint32_t>(in_column) / cells;
      z.cell = static_cast<std::uint32_t>(in_column) % cells;
    } else {
      z.row = static_cast<std::uint32_t>(in_column / cells);
      z.cell = static_cast<std::uint32_t>(in_column % cells);
    }
  } else {
    z.row = a.row + static_cast<std::uint32_t>(blocks - 1);
  }
  const std::uint32_t pa = L.physical_row(a.cylinder, a.column, a.row);
  const std::uint32_t pz = L.physical_row(z.cylinder, z.column, z.row);
  const std::uint32_t lo = std::min(pa, pz), hi = std::max(pa, pz);
  const int dir = direction(a);
  const AccessPass start = dir > 0 ? L.up_pass(lo) : L.down_pass(hi);
  const AccessPass end = dir > 0 ? L.up_pass(hi) : L.down_pass(lo);
  const std::int64_t x = L.x_nm(a.cylinder);
  Sweep s;
  s.from = from;
  s.positioning = position(from, x, start);
  s.start = {x, start.y_servo_nm, dir};
  s.end = {x, end.y_end_nm, dir};
  s.rows = hi - lo + 1;
  s.transfer = from_s(s.rows * row_s_);
  if (L.order() == LayoutOrder::AlongY) {  // one cell: the same tips in every row
    s.tip_rows = std::uint64_t{s.rows} * L.tip_sectors_per_block();
    s.max_active_tips = L.tip_sectors_per_block();
  } else {
    for (std::uint32_t r = a.row; r <= z.row; ++r) {
      const std::uint32_t first = r == a.row ? a.cell : 0;
      const std::uint32_t last = r == z.row ? z.cell : L.cells_per_row() - 1;
      const std::uint32_t tips = (last - first + 1) * L.tip_sectors_per_block();
      s.tip_rows += tips;
      s.max_active_tips = std::max(s.max_active_tips, tips);
    }
  }
  return s;
}

void MemsSeek::add(MediaAccess& m, const Sweep& s) {
  (m.runs == 0 ? m.positioning : m.repositioning) += s.positioning.total();
  m.transfer += s.transfer;
  m.rows += s.rows;
  m.tip_rows += s.tip_rows;
  m.max_active_tips = std::max(m.max_active_tips, s.max_active_tips);
  ++m.runs;
  m.end = s.end;
}

MediaAccess MemsSeek::access(const SledState& from, std::uint64_t lbn, std::uint32_t blocks) const {
  check_range(lbn, blocks);
  MediaAccess m;
  SledState state = from;
  std::uint64_t cur = lbn, remaining = blocks;
  while (remaining > 0) {
    const BlockAddress a = layout_.locate(cur);
    const std::uint64_t run = std::min<std::uint64_t>(remaining, layout_.run_blocks(a));
    const Sweep s = run_sweep(state, a, run);
    add(m, s);
    state = s.end;
    cur += run;
    remaining -= run;
  }
  m.tip_seconds = static_cast<double>(m.tip_rows) * row_s_;
  return m;
}

std::vector<Sweep> MemsSeek::sweeps(const SledState& from, std::uint64_t lbn, std::uint32_t blocks) const {
  std::vector<Sweep> out;
  sweeps(from, lbn, blocks, out);
  return out;
}

void MemsSeek::sweeps(const SledState& from, std::uint64_t lbn, std::uint32_t blocks, std::vector<Sweep>& out) const {
  check_range(lbn, blocks);
  out.clear();
  SledState state = from;
  std::uint64_t cur = lbn, remaining = blocks;
  while (remaining > 0) {
    const BlockAddress a = layout_.locate(cur);
    const std::uint64_t run = std::min<std::uint64_t>(remaining, layout_.run_blocks(a));
    out.push_back(run_sweep(state, a, run));
    state = out.back().end;
    cur += run;
    remaining -= run;
  }
}

MediaAccess MemsSeek::summarize(const std::vector<Sweep>& sweeps) const {
  MediaAccess m;
  for (const Sweep& s : sweeps) add(m, s);
  m.tip_seconds = static_cast<double>(m.tip_rows) * row_s_;
  return m;
}

namespace {

// A span's first run as batch_conflict and batch_sweeps see it.
struct FirstRun {
  BlockAddress a, z;
  std::uint64_t blocks = 0;     ///< blocks of the first run
  std::uint32_t start_row = 0;  ///< the physical row the sweep starts at
  std::uint32_t rows = 0;
  int dir = +1;
};

std::string span_name(std::size_t i, std::uint64_t lbn) {
  return "span " + std::to_string(i) + " (LBN " + std::to_string(lbn) + ")";
}

std::uint32_t row_at(const FirstRun& f, std::uint32_t k) {
  return static_cast<std::uint32_t>(static_cast<std::int64_t>(f.start_row) + f.dir * std::int64_t{k});
}

// The spans' first runs; the reason when a span has no blocks or passes the capacity.
std::optional<std::string> first_runs(const MemsSeek& S, const std::vector<BatchSpan>& spans,
                                      std::vector<FirstRun>& runs) {
  const MemsLayout& L = S.layout();
  if (spans.empty()) return std::string("the batch has no spans");
  const std::uint64_t cap = L.capacity();
  runs.assign(spans.size(), {});
  for (std::size_t i = 0; i < spans.size(); ++i) {
    const BatchSpan& sp = spans[i];
    if (sp.blocks == 0) return span_name(i, sp.lbn) + " has 0 blocks";
    if (sp.lbn >= cap || sp.blocks > cap - sp.lbn)
      return span_name(i, sp.lbn) + " with " + std::to_string(sp.blocks) + " blocks passes the capacity of " +
             std::to_string(cap) + " blocks";
    FirstRun& f = runs[i];
    f.a = L.locate(sp.lbn);
    f.blocks = std::min<std::uint64_t>(sp.blocks, L.run_blocks(f.a));
    f.z = L.locate(sp.lbn + f.blocks - 1);
    const std::uint32_t pa = L.physical_row(f.a.cylinder, f.a.column, f.a.row);
    const std::uint32_t pz = L.physical_row(f.z.cylinder, f.z.column, f.z.row);
    f.dir = S.direction(f.a);
    f.start_row = f.dir > 0 ? std::min(pa, pz) : std::max(pa, pz);
    f.rows = (pa > pz ? pa - pz : pz - pa) + 1;
  }
  return std::nullopt;
}

// The common start, disjoint tips and the active-tip limit per row; fills the tips per sweep row.
std::optional<std::string> shared_sweep(const MemsSeek& S, std::uint32_t tips_active,
                                        const std::vector<BatchSpan>& spans, const std::vector<FirstRun>& runs,
                                        std::vector<std::uint32_t>& row_tips) {
  const MemsLayout& L = S.layout();
  const FirstRun& f0 = runs[0];
  const std::string first = span_name(0, spans[0].lbn);
  std::uint32_t max_rows = 0;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const FirstRun& f = runs[i];
    max_rows = std::max(max_rows, f.rows);
    if (i == 0) continue;
    if (f.a.cylinder != f0.a.cylinder)
      return span_name(i, spans[i].lbn) + " starts its first sweep at cylinder " + std::to_string(f.a.cylinder) + ", " +
             first + " at cylinder " + std::to_string(f0.a.cylinder);
    if (f.start_row != f0.start_row)
      return span_name(i, spans[i].lbn) + " starts its first sweep at physical row " + std::to_string(f.start_row) +
             ", " + first + " at physical row " + std::to_string(f0.start_row);
    if (f.dir != f0.dir)
      return span_name(i, spans[i].lbn) + " sweeps " + (f.dir > 0 ? "+Y" : "-Y") + ", " + first + " sweeps " +
             (f0.dir > 0 ? "+Y" : "-Y");
  }
  // Cells [first, last] of its (sled, column) that a first run uses in sweep row k (k < rows).
  const auto cells = [&L](const FirstRun& f, std::uint32_t k) {
    if (L.order() == LayoutOrder::AlongY) return std::pair<std::uint32_t, std::uint32_t>{f.a.cell, f.a.cell};
    const std::uint32_t r = L.physical_row(f.a.cylinder, f.a.column, row_at(f, k));  // its own inverse
    return std::pair<std::uint32_t, std::uint32_t>{r == f.a.row ? f.a.cell : 0,
                                                   r == f.z.row ? f.z.cell : L.cells_per_row() - 1};
  };
  row_tips.assign(max_rows, 0);
  for (std::uint32_t k = 0; k < max_rows; ++k) {
    std::uint64_t tips = 0;
    for (std::size_t i = 0; i < runs.size(); ++i) {
      if (k >= runs[i].rows) continue;
      const auto [fi, li] = cells(runs[i], k);
      tips += std::uint64_t{li - fi + 1} * L.tip_sectors_per_block();
      for (std::size_t j = 0; j < i; ++j) {
        if (k >= runs[j].rows || runs[j].a.sled != runs[i].a.sled || runs[j].a.column != runs[i].a.column) continue;
        const auto [fj, lj] = cells(runs[j], k);
        if (fi <= lj && fj <= li)
          return "spans " + std::to_string(j) + " and " + std::to_string(i) + " (LBNs " + std::to_string(spans[j].lbn) +
                 " and " + std::to_string(spans[i].lbn) + ") both use the tips of sled " +
                 std::to_string(runs[i].a.sled) + ", column " + std::to_string(runs[i].a.column) + ", cell " +
                 std::to_string(std::max(fi, fj)) + " in physical row " + std::to_string(row_at(f0, k));
      }
    }
    if (tips > tips_active)
      return "physical row " + std::to_string(row_at(f0, k)) + " needs " + std::to_string(tips) +
             " tips, more than the " + std::to_string(tips_active) + " active tips";
    row_tips[k] = static_cast<std::uint32_t>(tips);
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> MemsSeek::batch_conflict(const std::vector<BatchSpan>& spans) const {
  std::vector<FirstRun> runs;
  if (auto why = first_runs(*this, spans, runs)) return why;
  std::vector<std::uint32_t> row_tips;
  return shared_sweep(*this, params_.tips_active, spans, runs, row_tips);
}

std::vector<Sweep> MemsSeek::batch_sweeps(const SledState& from, const std::vector<BatchSpan>& spans) const {
  for (const BatchSpan& sp : spans)
    if (sp.blocks > 0) check_range(sp.lbn, sp.blocks);  // std::out_of_range before any other reason
  std::vector<FirstRun> runs;
  std::vector<std::uint32_t> row_tips;
  auto why = first_runs(*this, spans, runs);
  if (!why) why = shared_sweep(*this, params_.tips_active, spans, runs, row_tips);
  if (why) throw std::invalid_argument("MEMS batch refused: " + *why);
  const MemsLayout& L = layout_;
  // The common first sweep carries every span's first run (same cylinder, start row, direction).
  const FirstRun& f0 = runs[0];
  const auto rows = static_cast<std::uint32_t>(row_tips.size());
  const std::uint32_t last_row = row_at(f0, rows - 1);
  const AccessPass start = f0.dir > 0 ? L.up_pass(f0.start_row) : L.down_pass(f0.start_row);
  const AccessPass end = f0.dir > 0 ? L.up_pass(last_row) : L.down_pass(last_row);
  const std::int64_t x = L.x_nm(f0.a.cylinder);
  std::vector<Sweep> out(1);
  Sweep& s = out[0];
  s.from = from;
  s.positioning = position(from, x, start);
  s.start = {x, start.y_servo_nm, f0.dir};
  s.end = {x, end.y_end_nm, f0.dir};
  s.rows = rows;
  s.transfer = from_s(s.rows * row_s_);
  for (const std::uint32_t t : row_tips) {
    s.tip_rows += t;
    s.max_active_tips = std::max(s.max_active_tips, t);
  }
  // Then each span's blocks beyond its first run, in span order, from where the sled is.
  SledState state = s.end;
  for (std::size_t i = 0; i < spans.size(); ++i) {
    std::uint64_t cur = spans[i].lbn + runs[i].blocks, remaining = spans[i].blocks - runs[i].blocks;
    while (remaining > 0) {
      const BlockAddress a = L.locate(cur);
      const std::uint64_t run = std::min<std::uint64_t>(remaining, L.run_blocks(a));
      out.push_back(run_sweep(state, a, run));
      state = out.back().end;
      cur += run;
      remaining -= run;
    }
  }
  return out;
}

MediaAccess MemsSeek::access_batch(const SledState& from, const std::vector<BatchSpan>& spans) const {
  return summarize(batch_sweeps(from, spans));
}

}  // namespace drivevp::mems
