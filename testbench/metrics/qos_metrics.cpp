#include "testbench/metrics/qos_metrics.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "firmware/sfc/irregularity.h"
#include "testbench/metrics/deadline_checker.h"

namespace drivevp {

QosSpace::QosSpace(sfc::CurveKind curve, unsigned dims, unsigned levels, unsigned vector_dims)
    : curve_(curve, dims, levels), vector_dims_(std::max(dims, std::min(vector_dims, kMaxQosDims))) {}

void QosSpace::point(const Command& c, std::uint32_t* p) const {
  for (unsigned k = 0; k < curve_.dims(); ++k) p[k] = std::min(c.qos_level(k), curve_.levels() - 1);
}

sfc::Key QosSpace::position(const Command& c) const {
  std::uint32_t p[sfc::kMaxDims];
  point(c, p);
  return curve_.encode(p);
}

char* put_key(char* out, sfc::Key k) {
  char digits[40];
  int n = 0;
  do {
    digits[n++] = static_cast<char>('0' + static_cast<int>(k % 10));
    k /= 10;
  } while (k != 0);
  while (n > 0) *out++ = digits[--n];
  return out;
}

void QosMetrics::add(const RequestRecord& r) {
  rows_.push_back({r.command.id, r.command.qos, r.command.arrival, r.dispatch, space_.position(r.command)});
  if (r.command.deadline != kNoDeadline) {
    ++with_deadline_;
    if (missed_deadline(r)) ++losses_;
  }
}

namespace {

nlohmann::json stats_json(const sfc::IrregularityStats& s) {
  return {{"per_dimension", s.per_dimension}, {"mean", s.mean}, {"stddev", s.stddev}};
}

/// Priority inversions: for each request r in dispatch order, the requests that arrived at or
/// before r's dispatch, are not yet dispatched and have a lower position than r. Fenwick tree over
/// the position ranks; O(n log n).
template <class Row>
std::uint64_t priority_inversions(const std::vector<Row>& rows, const std::vector<std::size_t>& by_dispatch) {
  const std::size_t n = rows.size();
  std::vector<sfc::Key> ranks(n);
  for (std::size_t i = 0; i < n; ++i) ranks[i] = rows[i].position;
  std::sort(ranks.begin(), ranks.end());
  ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
  auto rank_of = [&](std::size_t i) {
    return static_cast<std::size_t>(std::lower_bound(ranks.begin(), ranks.end(), rows[i].position) - ranks.begin());
  };
  std::vector<std::int64_t> tree(ranks.size() + 1, 0);
  auto update = [&](std::size_t r, std::int64_t v) {
    for (std::size_t i = r + 1; i < tree.size(); i += i & (~i + 1)) tree[i] += v;
  };
  auto below = [&](std::size_t r) {  // count of ranks < r
    std::int64_t s = 0;
    for (std::size_t i = r; i > 0; i -= i & (~i + 1)) s += tree[i];
    return s;
  };
  std::vector<std::size_t> by_arrival(n);
  for (std::size_t i = 0; i < n; ++i) by_arrival[i] = i;
  std::sort(by_arrival.begin(), by_arrival.end(), [&](std::size_t a, std::size_t b) {
    return rows[a].arrival != rows[b].arrival ? rows[a].arrival < rows[b].arrival : rows[a].id < rows[b].id;
  });
  std::vector<char> done(n, 0), present(n, 0);
  std::size_t next_arrival = 0;
  std::uint64_t inversions = 0;
  for (std::size_t i : by_dispatch) {
    while (next_arrival < n && rows[by_arrival[next_arrival]].arrival <= rows[i].dispatch) {
      const std::size_t j = by_arrival[next_arrival++];
      if (!done[j]) {
        update(rank_of(j), 1);
        present[j] = 1;
      }
    }
    if (present[i]) update(rank_of(i), -1);
    present[i] = 0;
    done[i] = 1;
    inversions += static_cast<std::uint64_t>(below(rank_of(i)));
  }
  return inversions;
}

/// Irregularity restricted to the pairs the scheduler ordered: requests i and j wait together iff
/// the later arrival came at or before the earlier dispatch. Per dimension k, `served` counts the
/// pairs whose later-dispatched request has the strictly lower level (Definition 4.1 on those
/// pairs), `fcfs` the pairs whose later-arrived one has (the FCFS order of the same pairs). One
/// sweep over the arrivals and dispatches in time order (arrivals first at equal times), with a
/// Fenwick tree over the N levels per dimension holding the waiting requests: O(n D log N).
struct QueueCounts {
  std::vector<std::uint64_t> served, fcfs;
  std::uint64_t pairs = 0;
};
template <class Row>
QueueCounts queue_irregularity(const std::vector<Row>& rows, const std::vector<std::size_t>& by_dispatch,
                               const QosSpace& space) {
  const std::size_t n = rows.size();
  const unsigned d = space.dims(), levels = space.levels();
  std::vector<std::uint32_t> pts(n * d);
  Command c;
  for (std::size_t i = 0; i < n; ++i) {
    c.qos = rows[i].qos;
    space.point(c, &pts[i * d]);
  }
  std::vector<std::vector<std::int64_t>> tree(d, std::vector<std::int64_t>(levels + 1, 0));
  auto update = [&](unsigned k, std::uint32_t level, std::int64_t v) {
    for (std::size_t i = level + 1; i <= levels; i += i & (~i + 1)) tree[k][i] += v;
  };
  auto below = [&](unsigned k, std::uint32_t level) {  // waiting requests with a level < `level`
    std::int64_t s = 0;
    for (std::size_t i = level; i > 0; i -= i & (~i + 1)) s += tree[k][i];
    return static_cast<std::uint64_t>(s);
  };
  std::vector<std::size_t> by_arrival(n);
  for (std::size_t i = 0; i < n; ++i) by_arrival[i] = i;
  std::sort(by_arrival.begin(), by_arrival.end(), [&](std::size_t a, std::size_t b) {
    return rows[a].arrival != rows[b].arrival ? rows[a].arrival < rows[b].arrival : rows[a].id < rows[b].id;
  });
  QueueCounts q;
  q.served.assign(d, 0);
  q.fcfs.assign(d, 0);
  std::uint64_t waiting = 0;
  std::size_t ai = 0;
  for (std::size_t di : by_dispatch) {
    while (ai < n && rows[by_arrival[ai]].arrival <= rows[di].dispatch) {
      const std::size_t b = by_arrival[ai++];
      // FCFS: b arrives after every waiting request; each with a higher level is an irregularity.
      for (unsigned k = 0; k < d; ++k) {
        q.fcfs[k] += waiting - below(k, pts[b * d + k] + 1);
        update(k, pts[b * d + k], 1);
      }
      ++waiting;
    }
    // Served: di goes first; every waiting request with a lower level is an irregularity.
    for (unsigned k = 0; k < d; ++k) update(k, pts[di * d + k], -1);
    --waiting;
    q.pairs += waiting;
    for (unsigned k = 0; k < d; ++k) q.served[k] += below(k, pts[di * d + k]);
  }
  return q;
}

}  // namespace

nlohmann::json QosMetrics::to_json() const {
  if (rows_.empty()) throw std::logic_error("QosMetrics: no request measured");
  const std::size_t n = rows_.size();
  const unsigned d = space_.dims();
  std::vector<std::size_t> by_dispatch(n), by_id(n);
  for (std::size_t i = 0; i < n; ++i) by_dispatch[i] = by_id[i] = i;
  std::sort(by_dispatch.begin(), by_dispatch.end(), [&](std::size_t a, std::size_t b) {
    return rows_[a].dispatch != rows_[b].dispatch ? rows_[a].dispatch < rows_[b].dispatch : rows_[a].id < rows_[b].id;
  });
  std::sort(by_id.begin(), by_id.end(), [&](std::size_t a, std::size_t b) { return rows_[a].id < rows_[b].id; });
  auto points = [&](const std::vector<std::size_t>& order) {
    std::vector<std::uint32_t> p(n * d);
    Command c;
    for (std::size_t i = 0; i < n; ++i) {
      c.qos = rows_[order[i]].qos;
      space_.point(c, &p[i * d]);
    }
    return p;
  };
  const sfc::IrregularityStats served = sfc::irregularity_stats(points(by_dispatch), d);
  const sfc::IrregularityStats fcfs = sfc::irregularity_stats(points(by_id), d);
  double sum = 0, sq = 0;
  for (const Row& r : rows_) sum += to_ms(r.dispatch - r.arrival);
  const double mean = sum / static_cast<double>(n);
  for (const Row& r : rows_) sq += (to_ms(r.dispatch - r.arrival) - mean) * (to_ms(r.dispatch - r.arrival) - mean);
  nlohmann::json j;
  j["curve"] = std::string(sfc::curve_name(space_.curve().kind()));
  j["dims"] = d;
  j["levels"] = space_.levels();
  j["requests"] = n;
  j["irregularity"] = stats_json(served);
  j["fcfs_irregularity"] = stats_json(fcfs);
  j["irregularity_ratio"] = fcfs.mean > 0 ? nlohmann::json(served.mean / fcfs.mean) : nlohmann::json(nullptr);
  const QueueCounts qc = queue_irregularity(rows_, by_dispatch, space_);
  const sfc::IrregularityStats queue = sfc::summarize(qc.served), queue_fcfs = sfc::summarize(qc.fcfs);
  j["waiting_pairs"] = qc.pairs;
  j["queue_irregularity"] = stats_json(queue);
  j["fcfs_queue_irregularity"] = stats_json(queue_fcfs);
  j["queue_irregularity_ratio"] =
      queue_fcfs.mean > 0 ? nlohmann::json(queue.mean / queue_fcfs.mean) : nlohmann::json(nullptr);
  // Per dimension as a ratio to FCFS's (over the pairs that waited together), and the mean and
  // spread of those ratios (001 Fig. 10a's fairness); null when a dimension's FCFS count is 0.
  std::vector<double> ratios;
  for (unsigned k = 0; k < d; ++k)
    if (qc.fcfs[k] > 0) ratios.push_back(static_cast<double>(qc.served[k]) / static_cast<double>(qc.fcfs[k]));
  if (ratios.size() == d) {
    double rs = 0, rq = 0;
    for (double r : ratios) rs += r;
    const double rm = rs / d;
    for (double r : ratios) rq += (r - rm) * (r - rm);
    j["ratio"] = {{"per_dimension", ratios}, {"mean", rm}, {"stddev", std::sqrt(rq / d)}};
  } else {
    j["ratio"] = nullptr;
  }
  j["waiting_mean_ms"] = mean;
  j["waiting_stddev_ms"] = std::sqrt(sq / static_cast<double>(n));
  j["priority_inversions"] = priority_inversions(rows_, by_dispatch);
  j["deadlines"] = with_deadline_;
  j["deadline_losses"] = losses_;
  return j;
}

}  // namespace drivevp
