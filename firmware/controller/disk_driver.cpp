#include "firmware/controller/disk_driver.h"

#include <algorithm>
#include <utility>

#include "tlm_bus/devices/disk_registers.h"
#include "tlm_bus/param_page.h"
#include "tlm_bus/sc/time.h"

namespace drivevp {

namespace {
// Device register addresses on the bus: block bases (address_map.h) + the disk's register map
// (tlm_bus/devices/disk_registers.h, docs/registers.md).
constexpr std::uint64_t kSpindleIndexTime = amap::kSpindle + disk_regs::spindle::kIndexTimePs;
constexpr std::uint64_t kActTargetCyl = amap::kActuator + disk_regs::actuator::kTargetCylinder;
constexpr std::uint64_t kActCylinder = amap::kActuator + disk_regs::actuator::kCylinder;
constexpr std::uint64_t kActIrqAck = amap::kActuator + disk_regs::actuator::kIrqAck;
constexpr std::uint64_t kChLbn = amap::kChannel + disk_regs::channel::kLbn;
constexpr std::uint64_t kChCount = amap::kChannel + disk_regs::channel::kCount;
constexpr std::uint64_t kChIrqAck = amap::kChannel + disk_regs::channel::kIrqAck;
// The feature path's (buffer cache, host interface): docs/registers.md "Read channel".
constexpr std::uint64_t kChBufferOffset = amap::kChannel + disk_regs::channel::kBufferOffset;
constexpr std::uint64_t kChBlocksDone = amap::kChannel + disk_regs::channel::kBlocksDone;
constexpr std::uint64_t kChLead = amap::kChannel + disk_regs::channel::kLead;
constexpr std::uint64_t kChLeadTaken = amap::kChannel + disk_regs::channel::kLeadTaken;
constexpr std::uint64_t kChCommand = amap::kChannel + disk_regs::channel::kCommand;
constexpr std::uint64_t kChExtend = amap::kChannel + disk_regs::channel::kExtend;
constexpr std::uint64_t kChRingBlocks = amap::kChannel + disk_regs::channel::kRingBlocks;
constexpr std::uint64_t kChTransferStart = amap::kChannel + disk_regs::channel::kTransferStartPs;
}  // namespace

DiskMediaDriver::DiskMediaDriver(sc_core::sc_module_name name, ControllerServices& services, InterruptLine& seek_done,
                                 InterruptLine& transfer_done, const DriveFeatures& features)
    : sc_module(name), services_(services), seek_done_(seek_done), transfer_done_(transfer_done) {
  features_ = features;
  if (features_.cache.enabled) cache_.emplace(features_.cache);
  if (features_.cache.fast_write_level > 2)
    throw std::invalid_argument("device.cache.fast_write_level must be in [0, 2]");
  if (features_.cache.fast_write_level > 0 && !cache_)
    throw std::invalid_argument("device.cache.fast_write_level above 0 needs device.cache.enabled = true");
  SC_HAS_PROCESS(DiskMediaDriver);
  SC_METHOD(on_timer);
  sensitive << timer_;
  dont_initialize();
  SC_METHOD(on_ahead_timer);
  sensitive << ahead_timer_;
  dont_initialize();
  SC_METHOD(on_seek_done);
  sensitive << seek_done_.event();
  dont_initialize();
  SC_METHOD(on_transfer_done);
  sensitive << transfer_done_.event();
  dont_initialize();
}

MediaDriverFactory DiskMediaDriver::factory(InterruptLine& seek_done, InterruptLine& transfer_done,
                                            const DriveFeatures& features) {
  return [&seek_done, &transfer_done, features](ControllerServices& services) -> std::unique_ptr<MediaDriver> {
    return std::make_unique<DiskMediaDriver>("media", services, seek_done, transfer_done, features);
  };
}

std::vector<std::string> DiskMediaDriver::state_names() const {
  return {"Idle",       "Seeking",     "Transferring", "Repositioning",
          "Delivering", "Prefetching", "Flushing"};  // State, in value order
}

void DiskMediaDriver::set_state(State s) {
  state_ = s;
  services_.set_media_state(static_cast<std::uint8_t>(s));
}

void DiskMediaDriver::boot() {
  ParameterPage page;
  services_.bus_access(tlm::TLM_READ_COMMAND, amap::kParamPage, &page, sizeof page);
  // The index-time read also times one register access on the bus (the loosely-timed offset it
  // adds): the unit of the firmware's own command path, which the predictor must count.
  const sc_core::sc_time before = services_.offset();
  const Time index = Time{static_cast<std::int64_t>(services_.read_reg(kSpindleIndexTime, 8))};
  bus_access_time_ = to_time(services_.offset() - before);
  predictor_ = DiskPredictor(page, index);
  predictor_.set_command_path(command_path());
  head_ = {0, 0};
  if (cache_) {
    cache_->set_layout(&layout_);
    // Each segment's region is a ring in the buffer (one burst: RING_BLOCKS, RING_COUNT).
    std::uint32_t ring[2] = {static_cast<std::uint32_t>(cache_->region_blocks()), cache_->ring_count()};
    services_.bus_access(tlm::TLM_WRITE_COMMAND, kChRingBlocks, ring, sizeof ring);
  }
}

std::uint64_t DiskMediaDriver::GeometryLayout::run_end(std::uint64_t lbn, bool per_track) const {
  const DiskGeometry& g = predictor_->geometry();
  const std::uint64_t capacity = g.capacity_blocks();
  const PhysicalAddress first = predictor_->locate(lbn);
  std::uint64_t x = lbn;
  while (x < capacity) {
    x += g.run_blocks(x, capacity - x);
    if (x >= capacity) break;
    const PhysicalAddress next = predictor_->locate(x);
    if (next.cylinder != first.cylinder || (per_track && next.head != first.head)) break;
  }
  return std::min(x, capacity);
}

bool DiskMediaDriver::GeometryLayout::same_track(std::uint64_t a, std::uint64_t b) const {
  const PhysicalAddress pa = predictor_->locate(a);
  const PhysicalAddress pb = predictor_->locate(b);
  return pa.cylinder == pb.cylinder && pa.head == pb.head;
}

std::uint32_t DiskMediaDriver::GeometryLayout::max_track_blocks() const {
  std::uint32_t most = 0;
  for (const Zone& z : predictor_->geometry().zones()) most = std::max(most, z.sectors_per_track);
  return most;
}

CommandPath DiskMediaDriver::command_path() const {
  // Mirrors start_command(), the controller's dma() and on_seek_done(): the bus accesses between
  // the decision (after the command overhead) and the actuator's seek start, and between the
  // seek-done interrupt and the channel's start. The actuator and the channel act at the
  // annotated time of the access that commands them, which includes that access's own latency.
  const Time a = bus_access_time_;
  // Write data DMA: through DMI, the latest grant's latency plus one transaction; before the
  // first grant or after a refusal, two transactions through the staging buffer. (The router
  // grants its own latency, one access: the sector buffer adds none, so the two agree.)
  const std::optional<Time> dmi = services_.dmi_write_latency();
  const Time dma = dmi ? *dmi + a : a + a;
  CommandPath path;
  path.read_to_seek = a;             // the seek burst
  path.write_to_seek = a + dma + a;  // COUNT write, data DMA, seek burst
  path.seek_to_transfer = a + a;     // IRQ_ACK read burst, LBN/COUNT/COMMAND burst
  return path;
}

void DiskMediaDriver::serve(std::vector<MediaResult>& batch) {
  if (batch.empty()) SC_REPORT_ERROR(name(), "a Serve decision with no command");
  batch_.swap(batch);
  batch.clear();
  index_ = 0;
  if (features_.active()) {  // one command at a time through the cache and the interface
    merged_ = false;
    if (ahead_ != Ahead::None && stop_ahead_for(&batch_[0].command)) {             // finish_background starts it
      if (ahead_from_miss_) resume_at_ = sim_now() + to_time(services_.offset());  // its overhead's end
      return;
    }
    start_feature();
    return;
  }
  merged_ = contiguous_run();
  merged_blocks_ = 0;
  if (merged_)
    for (const MediaResult& r : batch_) merged_blocks_ += r.command.blocks;
  start_command();
}

bool DiskMediaDriver::contiguous_run() const {
  if (batch_.size() < 2) return false;
  std::uint64_t blocks = batch_[0].command.blocks;
  for (std::size_t i = 1; i < batch_.size(); ++i) {
    const Command& prev = batch_[i - 1].command;
    const Command& c = batch_[i].command;
    if (c.op != prev.op || c.lbn != prev.end_lbn()) return false;
    blocks += c.blocks;
  }
  return blocks <= UINT32_MAX;  // the channel's COUNT register
}

void DiskMediaDriver::start_command() {
  MediaResult& r = batch_[index_];
  const Command& c = r.command;
  const PhysicalAddress target = predictor_.locate(c.lbn);
  r.log.cylinder = target.cylinder;
  r.log.head = target.head;
  if (!c.is_read()) {  // write data into the channel's sector buffer (COUNT sizes it)
    if (merged_) {     // every command's data at its offset in the one transfer
      services_.write_reg(kChCount, merged_blocks_, 4);
      std::uint64_t offset = 0;
      for (const MediaResult& m : batch_) {
        services_.dma(m.command, false, std::size_t{m.command.blocks} * kBlockBytes, offset);
        offset += std::uint64_t{m.command.blocks} * kBlockBytes;
      }
    } else {
      services_.write_reg(kChCount, c.blocks, 4);
      services_.dma(c, false, std::size_t{c.blocks} * kBlockBytes);
    }
  }
  set_state(State::Seeking);
  // One burst: TARGET_CYLINDER, TARGET_HEAD, COMMAND = seek.
  disk_regs::SeekBurst seek{target.cylinder, target.head,
                            c.is_read() ? disk_regs::actuator::kCmdSeek : disk_regs::actuator::kCmdSeekWrite};
  services_.bus_access(tlm::TLM_WRITE_COMMAND, kActTargetCyl, &seek, sizeof seek, &c);
}

void DiskMediaDriver::next_or_finish() {
  if (++index_ < batch_.size()) {
    start_command();
    return;
  }
  set_state(State::Idle);
  finished_.swap(batch_);  // the buffers circulate: no allocation per access
  batch_.clear();
  services_.access_done(finished_);
}

void DiskMediaDriver::fail() {
  if (merged_) {  // the merged request fails as a whole
    for (MediaResult& m : batch_) m.status = amap::kStatusMediaError;
    index_ = batch_.size() - 1;
  } else {
    batch_[index_].status = amap::kStatusMediaError;
  }
  next_or_finish();
}

bool DiskMediaDriver::stop_ahead_for(const Command* c) {
  if (ahead_ == Ahead::Pending || ahead_ == Ahead::Awaiting) {  // not seeking nor reading: dropped
    ahead_timer_.cancel();
    ahead_wake_ = AheadWake::None;
    ahead_ = Ahead::None;
    set_state(State::Idle);
    return false;
  }
  // A full hit is served from the buffer while the read-ahead goes on (DiskSim 4.0
  // disk_buffer_stopable_access, disk_buffer_attempt_access_swap: the read-ahead continues for a
  // hit on its segment).
  if (c && c->is_read() && cache_->full_hit(c->lbn, c->blocks)) return false;
  if (c && joining_) return false;  // it joins the pass (command_overhead())
  yield_background();
  return true;
}

void DiskMediaDriver::reposition(const Decision& decision) {
  if (ahead_ != Ahead::None && stop_ahead_for(nullptr)) {
    reposition_waiting_ = decision;
    return;
  }
  set_state(State::Repositioning);
  disk_regs::SeekBurst seek{decision.sweep_coordinate, head_.head, disk_regs::actuator::kCmdSeek};  // as for a Serve
  services_.bus_access(tlm::TLM_WRITE_COMMAND, kActTargetCyl, &seek, sizeof seek);
}

void DiskMediaDriver::on_seek_done() {
  if (!seek_done_.take()) return;
  services_.reset_offset();
  if (ahead_ == Ahead::Seeking) {  // a hit's read-ahead (the hit may still be delivering)
    ahead_seek_done();
    return;
  }
  if (features_.active() && (state_ == State::Seeking || state_ == State::Flushing)) {
    feature_seek_done();
    return;
  }
  if (state_ == State::Repositioning) {
    services_.write_reg(kActIrqAck, 1, 4);
    head_.cylinder = static_cast<std::uint32_t>(services_.read_reg(kActCylinder, 4));
    set_state(State::Idle);
    services_.reposition_done();
    return;
  }
  if (state_ != State::Seeking) {  // not expected: acknowledge it so the line does not stay raised
    services_.write_reg(kActIrqAck, 1, 4);
    return;
  }
  // One burst from IRQ_ACK (read: status, then acknowledge), a reserved word, SEEK_START_PS,
  // SEEK_END_PS, SEEK_DISTANCE.
  disk_regs::SeekDoneBurst ack{};
  services_.bus_access(tlm::TLM_READ_COMMAND, kActIrqAck, &ack, sizeof ack);
  MediaResult& r = batch_[index_];
  if (ack.status & disk_regs::kStatusError) {
    fail();
    return;
  }
  r.log.seek_start_ps = static_cast<decltype(r.log.seek_start_ps)>(ack.seek_start_ps);
  r.log.seek_end_ps = static_cast<decltype(r.log.seek_end_ps)>(ack.seek_end_ps);
  r.log.seek_distance = ack.seek_distance;
  head_ = {r.log.cylinder, r.log.head};
  set_state(State::Transferring);
  // One burst: LBN, COUNT, COMMAND = read (1) or write (2).
  const Command& c = r.command;
  disk_regs::TransferBurst start{c.lbn, merged_ ? merged_blocks_ : c.blocks,
                                 c.is_read() ? disk_regs::channel::kCmdRead : disk_regs::channel::kCmdWrite};
  services_.bus_access(tlm::TLM_WRITE_COMMAND, kChLbn, &start, sizeof start, &c);
}

void DiskMediaDriver::on_transfer_done() {
  if (!transfer_done_.take()) return;
  services_.reset_offset();
  transfer_done_at_ = sim_now();
  if (ahead_ == Ahead::Reading) {  // a hit's read-ahead (the hit may still be delivering)
    ahead_transfer_done();
    return;
  }
  if (features_.active() &&
      (state_ == State::Transferring || state_ == State::Prefetching || state_ == State::Flushing)) {
    feature_transfer_done();
    return;
  }
  if (state_ != State::Transferring) {
    services_.write_reg(kChIrqAck, 1, 4);
    return;
  }
  // One burst from IRQ_ACK (read: status, then acknowledge), a reserved word, TRANSFER_START_PS,
  // TRANSFER_END_PS.
  disk_regs::TransferDoneBurst done{};
  services_.bus_access(tlm::TLM_READ_COMMAND, kChIrqAck, &done, sizeof done);
  MediaResult& r = batch_[index_];
  if (done.status & disk_regs::kStatusError) {
    fail();
    return;
  }
  r.log.transfer_start_ps = static_cast<decltype(r.log.transfer_start_ps)>(done.transfer_start_ps);
  r.log.transfer_end_ps = static_cast<decltype(r.log.transfer_end_ps)>(done.transfer_end_ps);
  if (merged_) {
    // The merged request: every command's data from its offset, every log the access's (each
    // command keeps its own cylinder and head); the heads end at the run's last block.
    const PhysicalAddress last = predictor_.locate(r.command.lbn + merged_blocks_ - 1);
    head_ = {last.cylinder, last.head};
    const amap::ServiceLog shared = r.log;
    std::uint64_t offset = 0;
    for (MediaResult& m : batch_) {
      const PhysicalAddress own = predictor_.locate(m.command.lbn);
      const std::int64_t predicted = m.log.predicted_positioning_ps;  // the decision's, first command only
      m.log = shared;
      m.log.predicted_positioning_ps = predicted;
      m.log.cylinder = own.cylinder;
      m.log.head = own.head;
      if (m.command.is_read()) services_.dma(m.command, true, std::size_t{m.command.blocks} * kBlockBytes, offset);
      offset += std::uint64_t{m.command.blocks} * kBlockBytes;
    }
    index_ = batch_.size() - 1;
    next_or_finish();
    return;
  }
  // The transfer may have crossed tracks: the heads are where the last block is.
  const Command& c = r.command;
  const PhysicalAddress last = predictor_.locate(c.lbn + c.blocks - 1);
  head_ = {last.cylinder, last.head};
  if (c.is_read()) services_.dma(c, true, std::size_t{c.blocks} * kBlockBytes);
  next_or_finish();
}

// ---- Feature path: host interface, segmented cache, selected overheads, write-back -------------

bool DiskMediaDriver::write_back(const Command& c) const {
  const std::uint32_t level = features_.cache.fast_write_level;
  if (!cache_ || level == 0 || c.blocks > features_.cache.segment_blocks) return false;
  if (!dirty_ || level == 2) return true;
  // Limited: only a write that appends to the pending data within one segment.
  return c.lbn == dirty_->lbn + dirty_->blocks && dirty_->blocks + c.blocks <= features_.cache.segment_blocks;
}

bool DiskMediaDriver::extra_disconnect(const Command& c) const {
  return features_.interface.extra_write_disconnect && !c.is_read() && !write_back(c) && previous_op_ == Op::Write &&
         c.lbn != previous_end_;
}

Time DiskMediaDriver::command_overhead(const Command& first) {
  joining_ = false;
  arrived_at_ = sim_now() + to_time(services_.offset());
  if (ahead_ == Ahead::Reading && state_ == State::Prefetching && !stop_requested_ && batch_.empty()) {
    // A read-ahead (a miss's or a hit's) is reading when the command arrives (DiskSim 4.0
    // disk_read_arrive, disk_buffer_stopable_access): the blocks it has read count as in the segment
    // (BLOCKS_DONE, which also puts them in the buffer). A full hit on the segment is served while
    // the read-ahead goes on (disk_buffer_attempt_access_swap), and so is a read joining it; any
    // other command stops a miss's read-ahead now, its overhead running meanwhile. Both accesses
    // are part of the command overhead's firmware time.
    const sc_core::sc_time local = services_.offset();
    if (stops_whatever_read(first)) {
      // The command stops the miss's read-ahead whatever it has read: an untraced run does not
      // read BLOCKS_DONE. Its count would only be the segment's until the stopped read's done
      // interrupt reports the final one (filled() keeps the latest), and the blocks it would put
      // in the buffer early the channel puts there at the read's end. The STOP is written at the
      // arrival, as after the read (whose time the overhead covers: the offset is restored).
      yield_background();
      services_.offset() = local;
      return command_overhead_after_arrival(first);
    }
    const std::uint32_t blocks = static_cast<std::uint32_t>(services_.read_reg(kChBlocksDone, 4));
    cache_->filled(ahead_plan_, blocks);
    services_.offset() = local;
    if (first.is_read() && !cache_->full_hit(first.lbn, first.blocks) && !dirty_) {
      // A read whose first block the segment holds is merged with the running access
      // (disk_buffer_stopable_access returns TRUE for a read on the segment starting in [start,
      // end]; disk_buffer_select_read_segment only matches it below the end): it joins the pass
      // when the pass reads the rest once the read has raised the segment's read-ahead target
      // (start_join() extends the pass to it).
      const SegmentedCache::Lookup l = cache_->lookup(first.lbn, first.blocks);
      joining_ = l.segment == ahead_plan_.segment && l.hit_blocks > 0 &&
                 first.end_lbn() <=
                     cache_->raised_pass_end(ahead_plan_, first.lbn, first.blocks, predictor_.capacity_blocks());
    }
    // A miss's read-ahead stops at the command's arrival; a hit's when the command is served
    // (stop_ahead_for()).
    if (ahead_from_miss_ && !(first.is_read() && (joining_ || cache_->full_hit(first.lbn, first.blocks)))) {
      yield_background();
      services_.offset() = local;
    }
  }
  return command_overhead_after_arrival(first);
}

bool DiskMediaDriver::stops_whatever_read(const Command& first) const {
  // A write, or a read neither a full hit elsewhere nor able to hit the read-ahead's segment
  // however far it has read (so neither a full hit there nor a join): command_overhead() stops
  // the read-ahead for it with any BLOCKS_DONE.
  return !services_.transactions_observed() && ahead_from_miss_ &&
         (!first.is_read() ||
          (!cache_->may_hold(ahead_plan_, first.lbn) && !cache_->full_hit(first.lbn, first.blocks)));
}

Time DiskMediaDriver::command_overhead_after_arrival(const Command& first) {
  const InterfaceParams& bus = features_.interface;
  // DiskSim counts a read's media activity (a hit's read-ahead too) from a read miss's overhead
  // (disk_read_arrive's overhead_done).
  miss_overhead_ = features_.overheads.enabled ? features_.overheads.select(Op::Read, false, previous_op_)
                                               : predictor_.command_overhead();
  if (extra_disconnect(first))  // the media side waits for the extra disconnect's command part
    return spent_overhead_ = from_ms(bus.extra_disconnect_command_ms + bus.extra_disconnect_seek_delta_ms);
  if (!features_.overheads.enabled) return spent_overhead_ = predictor_.command_overhead();
  // A read joining the running read-ahead is a hit to DiskSim (its hittype is not BUFFER_NOMATCH).
  const bool hit =
      first.is_read() ? joining_ || (cache_ && cache_->full_hit(first.lbn, first.blocks)) : write_back(first);
  return spent_overhead_ = features_.overheads.select(first.op, hit, previous_op_);
}

void DiskMediaDriver::start_feature() {
  MediaResult& r = batch_[index_];
  const Command& c = r.command;
  if (index_ > 0) services_.offset() += to_sc_in_run(command_overhead(c));  // the first one: the controller's
  // The overhead began when the command arrived, or when it first waited for a read-ahead to stop
  // (the controller then spends only what is left of it).
  overhead_start_ = yielded_at_ ? *yielded_at_ : sim_now() + to_time(services_.offset()) - spent_overhead_;
  yielded_at_.reset();
  extra_ = extra_disconnect(c);  // decided before the previous command changes, as the overhead was
  previous_op_ = c.op;
  previous_end_ = c.lbn + c.blocks;
  const PhysicalAddress target = predictor_.locate(c.lbn);
  r.log.cylinder = target.cylinder;
  r.log.head = target.head;
  command_time_ = sim_now() + to_time(services_.offset());
  taking_back_ = !c.is_read() && write_back(c);  // decided once, as the overhead was
  if (c.is_read())
    start_read();
  else
    start_write();
}

void DiskMediaDriver::seek_to(std::uint64_t lbn, const Command* c) {
  const PhysicalAddress target = predictor_.locate(lbn);
  const bool write = flushing_ || (c && !c->is_read());  // a media write: a flush or a write command
  const Time least = from_ms(features_.overheads.minimum_seek_delay_ms);
  if (least > Time{0} && write) {  // a media write's seek lasts at least this
    const Time seek = predictor_.seek_time(head_, target.cylinder, target.head, Op::Write);
    if (seek < least) services_.offset() += to_sc_in_run(least - seek);
  }
  set_state(flushing_ ? State::Flushing : State::Seeking);
  // A media write's seek is commanded as one (the actuator adds the drive's write settle).
  disk_regs::SeekBurst seek{target.cylinder, target.head,
                            write ? disk_regs::actuator::kCmdSeekWrite : disk_regs::actuator::kCmdSeek};
  services_.bus_access(tlm::TLM_WRITE_COMMAND, kActTargetCyl, &seek, sizeof seek, c);
}

void DiskMediaDriver::wake_at(Wake what, Time at) {
  wake_ = what;
  const Time local = sim_now() + to_time(services_.offset());  // not before the handler's own accesses
  timer_.notify(to_sc_in_run((at > local ? at : local) - sim_now()));
}

void DiskMediaDriver::start_read() {
  MediaResult& r = batch_[index_];
  const Command& c = r.command;
  joined_ = false;
  if (std::exchange(joining_, false) && ahead_ == Ahead::Reading) {
    start_join();
    return;
  }
  const bool hit = cache_ && cache_->full_hit(c.lbn, c.blocks);
  lead_armed_ = false;  // no lead blocks unless this read's miss sets LEAD
  lead_ = 0;
  if (!hit && dirty_) {  // the media read waits for the write-back data to reach the media
    continue_after_flush_ = true;
    start_flush();
    return;
  }
  read_ = cache_ ? cache_->plan_read(c.lbn, c.blocks, predictor_.capacity_blocks())
                 : SegmentedCache::ReadPlan{-1, 0, 0, c.lbn, c.blocks, c.blocks};
  buffer_block_ = read_.buffer_block;
  if (read_.media_blocks == 0) {  // full hit: from the buffer over the interface, no media
    r.log.seek_start_ps = r.log.seek_end_ps = command_time_.count();
    r.log.transfer_start_ps = r.log.transfer_end_ps = command_time_.count();
    r.log.seek_distance = 0;
    set_state(State::Delivering);
    const Time deliver = command_time_ + from_ms(features_.interface.data_prep_ms) +
                         features_.interface.sector_time(Op::Read) * c.blocks;
    if (!start_hit_read_ahead(deliver)) wake_at(Wake::Deliver, deliver);
    return;
  }
  media_done_ = false;
  stop_requested_ = false;
  // One burst: BUFFER_OFFSET (where the media read goes), MARK (its blocks the command needs
  // early, when read-ahead follows them).
  const std::uint64_t offset =
      cache_ ? cache_->ring_advance(read_.buffer_block, read_.hit_blocks) : read_.buffer_block + read_.hit_blocks;
  const std::uint32_t mark = read_.media_blocks > read_.requested_media_blocks ? read_.requested_media_blocks : 0;
  write_buffer_mark(offset, mark, &c);
  // CacheParams::read_any_free_blocks: a miss into its empty segment may start with the blocks of
  // its first track before it (DiskSim's disk_buffer_seekdone): the channel's LEAD, at most the
  // blocks before it on the track.
  if (cache_ && features_.cache.read_any_free_blocks && read_.segment >= 0 && read_.hit_blocks == 0) {
    const std::uint32_t before = predictor_.locate(read_.media_lbn).sector;
    if (before > 0) {
      services_.write_reg(kChLead, before, 4);
      lead_armed_ = true;
    }
  }
  seek_to(read_.media_lbn, &c);
}

void DiskMediaDriver::start_join() {
  MediaResult& r = batch_[index_];
  const Command& c = r.command;
  joined_ = true;
  raise_ahead(c);  // the pass reads the rest
  read_ = cache_->join(ahead_plan_, c.lbn, c.blocks, predictor_.capacity_blocks());
  buffer_block_ = read_.buffer_block;
  // DiskSim's minreadaheadblkno is raised by the read too.
  const std::uint64_t keep_end = c.end_lbn() + features_.cache.min_read_ahead;
  if (keep_end > ahead_plan_.media_lbn)
    ahead_keep_ = std::max(ahead_keep_, static_cast<std::uint32_t>(std::min<std::uint64_t>(
                                            keep_end - ahead_plan_.media_lbn, ahead_plan_.media_blocks)));
  r.log.seek_start_ps = r.log.seek_end_ps = command_time_.count();  // no media access of its own
  r.log.transfer_start_ps = r.log.transfer_end_ps = command_time_.count();
  r.log.seek_distance = 0;
  set_state(State::Delivering);
  // Each block crosses once it is in the buffer: those before the pass's first block and those the
  // pass had read by the command's time at once, the others once they have passed under the head
  // (the pass's own block ends), paced as a miss's data phase (program_transfer()).
  std::vector<Time> ready(c.blocks, Time{0});
  if (c.end_lbn() > ahead_plan_.media_lbn) {
    const std::uint64_t from = std::max(c.lbn, ahead_plan_.media_lbn);
    predictor_.block_ends(ahead_plan_.media_lbn, c.end_lbn() - ahead_plan_.media_lbn, media_start_,
                          [&](std::uint64_t j, Time end) {
                            const std::uint64_t x = ahead_plan_.media_lbn + j;
                            if (x >= from) ready[x - c.lbn] = end;
                          });
  }
  wake_at(Wake::Deliver,
          data_phase_end(ready, 0, command_time_ + from_ms(features_.interface.data_prep_ms), false, c.blocks));
}

Time DiskMediaDriver::data_phase_end(const std::vector<Time>& ready, std::size_t first, Time e, bool reconnect_first,
                                     std::uint32_t request_blocks) const {
  const InterfaceParams& bus = features_.interface;
  const Time b = bus.sector_time(Op::Read);
  const std::size_t water = features_.cache.read_watermark(request_blocks);
  const auto refill = [&](std::size_t i) { return ready[std::min(i + water - 1, ready.size() - 1)]; };
  const Time prep = from_ms(bus.data_prep_ms);  // before each data phase
  const Time other_reselect = from_ms(bus.other_reselect_ms) + prep;
  for (std::size_t i = first; i < ready.size(); ++i) {
    if (i == first && reconnect_first)
      e = std::max(e, refill(i) + from_ms(bus.first_reselect_ms) + prep);  // reconnects
    else if (ready[i] > e)
      e = bus.hold_bus_read ? ready[i] : refill(i) + other_reselect;  // waits, or disconnects
    e += b;
  }
  return e;
}

void DiskMediaDriver::write_buffer_mark(std::uint64_t offset, std::uint32_t mark, const Command* c) {
  // The registers already hold these values (only this driver writes them): an untraced run spends
  // the write's bus access time on the offset and leaves the registers as they are. The channel
  // acts on neither write (BUFFER_OFFSET sizes the buffer, which already holds offset + COUNT
  // blocks), and it is idle here: every transfer before this command has ended and its done
  // interrupt has been taken, so no catch-up is left for the access to run. Traced runs keep the
  // transaction (the router's waveform counters show it).
  if (!services_.transactions_observed() && written_offset_ == offset && written_mark_ == mark) {
    services_.offset() += to_sc_in_run(bus_access_time_);
    return;
  }
  // One burst: BUFFER_OFFSET, MARK.
  std::uint32_t words[3] = {static_cast<std::uint32_t>(offset), static_cast<std::uint32_t>(offset >> 32), mark};
  services_.bus_access(tlm::TLM_WRITE_COMMAND, kChBufferOffset, words, sizeof words, c);
  written_offset_ = offset;
  written_mark_ = mark;
}

void DiskMediaDriver::raise_ahead(const Command& c) {
  const std::uint64_t end = cache_->raise_target(ahead_plan_, c.lbn, c.blocks, predictor_.capacity_blocks());
  if (end <= ahead_plan_.media_lbn + ahead_plan_.media_blocks) return;
  ahead_plan_.media_blocks = static_cast<std::uint32_t>(end - ahead_plan_.media_lbn);
  // A read-ahead still seeking is programmed with the raised count; a running pass goes on to
  // the raised target (EXTEND; its interrupt moves to the new end).
  if (ahead_ == Ahead::Reading) services_.write_reg(kChExtend, ahead_plan_.media_blocks, 4, &c);
}

bool DiskMediaDriver::start_hit_read_ahead(Time deliver) {
  const Command& c = batch_[index_].command;
  // A hit on the segment of a read-ahead seeking or reading raises its target (DiskSim raises the
  // segment's maxreadaheadblkno for every read it serves, disk_buffer_attempt_access_swap; the
  // access goes on to it). One pending or waiting for its first block was dropped (serve()).
  if (cache_ && (ahead_ == Ahead::Reading || ahead_ == Ahead::Seeking) && !stop_requested_ &&
      read_.segment == ahead_plan_.segment)
    raise_ahead(c);
  if (!cache_ || ahead_ != Ahead::None) return false;  // a read-ahead already runs: it goes on
  ahead_plan_ = cache_->plan_hit_read_ahead(read_, c.lbn, c.blocks, predictor_.capacity_blocks());
  if (ahead_plan_.media_blocks == 0 || dirty_) return false;  // write-back data holds the heads
  // Modes 1 and 2 read ahead only where the heads are (DiskSim's disk_initiate_seek refuses a
  // background read's seek off the track / cylinder).
  const std::uint32_t mode = features_.cache.continuous_read;
  const PhysicalAddress from = predictor_.locate(ahead_plan_.media_lbn);
  if ((mode == 1 || mode == 2) && (from.cylinder != head_.cylinder || (mode == 1 && from.head != head_.head)))
    return false;
  // DiskSim's minimum read-ahead counts past the hit's end (minreadaheadblkno).
  const std::uint64_t keep_end = c.end_lbn() + features_.cache.min_read_ahead;
  ahead_keep_ = keep_end > ahead_plan_.media_lbn ? static_cast<std::uint32_t>(std::min<std::uint64_t>(
                                                       keep_end - ahead_plan_.media_lbn, ahead_plan_.media_blocks))
                                                 : 0;
  stop_requested_ = false;
  ahead_from_miss_ = false;
  // The seek starts once a read miss's overhead has passed since the hit arrived (DiskSim's
  // overhead_done), in parallel with the hit's own overhead and data phase.
  const Time at = std::max(overhead_start_ + miss_overhead_, sim_now());
  if (at <= sim_now() + to_time(services_.offset())) {
    seek_ahead(at);
  } else {
    ahead_ = Ahead::Pending;
    ahead_wake_at(AheadWake::Seek, at);
  }
  wake_at(Wake::Deliver, deliver);
  return true;
}

void DiskMediaDriver::seek_ahead(Time at) {
  ahead_ = Ahead::Seeking;
  const sc_core::sc_time local = services_.offset();
  services_.offset() = to_sc_in_run(at - sim_now());
  // One burst: BUFFER_OFFSET, MARK 0 (all of it read-ahead); then the seek burst.
  write_buffer_mark(ahead_plan_.buffer_block, 0, nullptr);
  const PhysicalAddress target = predictor_.locate(ahead_plan_.media_lbn);
  disk_regs::SeekBurst seek{target.cylinder, target.head, disk_regs::actuator::kCmdSeek};
  services_.bus_access(tlm::TLM_WRITE_COMMAND, kActTargetCyl, &seek, sizeof seek);
  services_.offset() = local;  // a parallel path: the hit's own timing is the same with or without it
}

void DiskMediaDriver::ahead_seek_done() {
  disk_regs::SeekDoneBurst ack{};
  services_.bus_access(tlm::TLM_READ_COMMAND, kActIrqAck, &ack, sizeof ack);
  const bool ok = !(ack.status & disk_regs::kStatusError);
  if (ok) {
    const PhysicalAddress target = predictor_.locate(ahead_plan_.media_lbn);
    head_ = {target.cylinder, target.head};
  }
  if (!ok || stop_requested_) {  // a waiting command stops it before its first sector
    ahead_ = Ahead::None;
    if (state_ == State::Prefetching) {
      // The waiting command asked for the stop at its overhead's end (yielded_at_). DiskSim stops
      // the read-ahead at the command's arrival, cancelling its seek (disk_buffer_stopable_access
      // sets disk_seek_stoptime to the seek's end) and delaying the command's seek by the rest of
      // its overhead plus the rest of that seek (disk_check_hda): the command starts that long
      // after its overhead's end. A Reposition waits for the seek's end only.
      Time start = yielded_at_ ? *yielded_at_ : Time{0};
      const Time seek_end{static_cast<std::int64_t>(ack.seek_end_ps)};
      // (Only for a decision's first command, dispatched while the read-ahead ran: arrived_at_.)
      if (yielded_at_ && ok && !reposition_waiting_ && !batch_.empty() && index_ == 0 && seek_end > arrived_at_)
        start += seek_end - arrived_at_;
      if (start > sim_now() + to_time(services_.offset())) services_.offset() = to_sc_in_run(start - sim_now());
      finish_background();
    }
    return;
  }
  // The channel is programmed just before the first sector comes under the head, so that a
  // command arriving during the rotational wait drops the read-ahead at once (DiskSim with "Stop
  // prefetch in sector" stops it whatever the pending event but a seek, disk_buffer_stopable_access).
  const Time now = sim_now() + to_time(services_.offset());
  const Time first = predictor_.next_pass(ahead_plan_.media_lbn, now + bus_access_time_);
  const Time program = first - bus_access_time_ * 4;
  if (program > now) {
    ahead_ = Ahead::Awaiting;
    ahead_wake_at(AheadWake::Program, program);
    return;
  }
  program_ahead();
}

void DiskMediaDriver::program_ahead() {
  ahead_ = Ahead::Reading;
  disk_regs::TransferBurst start{ahead_plan_.media_lbn, ahead_plan_.media_blocks, disk_regs::channel::kCmdRead};
  services_.bus_access(tlm::TLM_WRITE_COMMAND, kChLbn, &start, sizeof start);
  std::uint64_t times[2] = {0, 0};  // TRANSFER_START_PS, TRANSFER_END_PS
  services_.bus_access(tlm::TLM_READ_COMMAND, kChTransferStart, times, sizeof times);
  media_start_ = Time{static_cast<std::int64_t>(times[0])};
}

void DiskMediaDriver::ahead_wake_at(AheadWake what, Time at) {
  ahead_wake_ = what;
  const Time local = sim_now() + to_time(services_.offset());
  ahead_timer_.notify(to_sc_in_run((at > local ? at : local) - sim_now()));
}

void DiskMediaDriver::on_ahead_timer() {
  const AheadWake what = std::exchange(ahead_wake_, AheadWake::None);
  services_.reset_offset();
  switch (what) {
    case AheadWake::None:
      return;
    case AheadWake::Seek:
      seek_ahead(sim_now());
      return;
    case AheadWake::Program:
      program_ahead();
      return;
    case AheadWake::Abandon:  // a waiting command drops the read-ahead before its seek or first sector
      ahead_ = Ahead::None;
      if (state_ == State::Prefetching) finish_background();
      return;
  }
}

std::optional<std::uint32_t> DiskMediaDriver::read_done_and_blocks() {
  // One burst from IRQ_ACK (read: status, then acknowledge) and the transfer times; then, unless
  // the channel reports an error, BLOCKS_DONE. When the transactions are not observed the two are
  // read as one burst (to BLOCKS_DONE) and the second read's bus access time is spent on the
  // offset: the same values (the transfer has ended at its interrupt, so BLOCKS_DONE reads the
  // transfer's count and puts nothing more in the buffer one bus access later) and the same times.
  if (!services_.transactions_observed()) {
    disk_regs::TransferDoneBlocksBurst both{};
    services_.bus_access(tlm::TLM_READ_COMMAND, kChIrqAck, &both, sizeof both);
    if (both.done.status & disk_regs::kStatusError) return std::nullopt;
    services_.offset() += to_sc_in_run(bus_access_time_);
    return both.blocks_done;
  }
  disk_regs::TransferDoneBurst done{};
  services_.bus_access(tlm::TLM_READ_COMMAND, kChIrqAck, &done, sizeof done);
  if (done.status & disk_regs::kStatusError) return std::nullopt;
  return static_cast<std::uint32_t>(services_.read_reg(kChBlocksDone, 4));
}

void DiskMediaDriver::ahead_transfer_done() {
  if (const std::optional<std::uint32_t> done = read_done_and_blocks()) {
    const std::uint32_t blocks = *done;
    head_ = track_after(ahead_plan_.media_lbn, blocks, ahead_plan_.media_blocks);
    cache_->filled(ahead_plan_, blocks);
  }
  ahead_ = Ahead::None;
  ahead_from_miss_ = false;
  if (state_ == State::Prefetching) finish_background();  // else the hit's data phase is still on
}

void DiskMediaDriver::start_write() {
  MediaResult& r = batch_[index_];
  const Command& c = r.command;
  const bool back = taking_back_;
  if (dirty_ &&
      !(back && c.lbn == dirty_->lbn + dirty_->blocks && dirty_->blocks + c.blocks <= features_.cache.segment_blocks)) {
    continue_after_flush_ = true;  // the pending data goes to the media first
    start_flush();
    return;
  }
  if (dirty_) {  // appends to the pending write-back data: same segment, after it
    buffer_block_ = dirty_->buffer_block + dirty_->blocks;
    cache_->extend_write(c.lbn, c.blocks);
  } else {
    const SegmentedCache::WritePlan w = cache_ ? cache_->plan_write(c.lbn, c.blocks) : SegmentedCache::WritePlan{-1, 0};
    buffer_block_ = w.buffer_block;
  }
  // The data crosses the interface into the buffer (COUNT and BUFFER_OFFSET size it).
  services_.write_reg(kChBufferOffset, buffer_block_, 8);
  written_offset_ = buffer_block_;
  services_.write_reg(kChCount, c.blocks, 4);
  services_.dma(c, false, std::size_t{c.blocks} * kBlockBytes, buffer_block_ * kBlockBytes);
  const InterfaceParams& bus = features_.interface;
  // With the extra disconnect, the data phase follows the disconnect, the inter-disconnect delay
  // and the reconnection; the command time is the media side's (command + seek delta).
  const Time extra = extra_ ? from_ms(bus.extra_disconnect_overhead_ms + bus.extra_disconnect_inter_delay_ms +
                                      bus.first_reselect_ms - bus.extra_disconnect_seek_delta_ms)
                            : Time{0};
  data_in_ = command_time_ + extra + from_ms(bus.data_prep_ms) + bus.sector_time(Op::Write) * c.blocks;
  if (back) {
    if (dirty_)
      dirty_->blocks += c.blocks;
    else
      dirty_ = Dirty{c.lbn, c.blocks, buffer_block_};
    r.log.seek_start_ps = r.log.seek_end_ps = command_time_.count();
    r.log.transfer_start_ps = r.log.transfer_end_ps = command_time_.count();
    r.log.seek_distance = 0;
    set_state(State::Delivering);
    wake_at(Wake::Deliver, data_in_);
    return;
  }
  seek_to(c.lbn, &c);
}

void DiskMediaDriver::start_flush() {
  flushing_ = true;
  services_.write_reg(kChBufferOffset, dirty_->buffer_block, 8);
  written_offset_ = dirty_->buffer_block;
  services_.write_reg(kChCount, dirty_->blocks, 4);
  data_in_ = Time{0};  // already in the buffer
  seek_to(dirty_->lbn, nullptr);
}

void DiskMediaDriver::feature_seek_done() {
  disk_regs::SeekDoneBurst ack{};
  services_.bus_access(tlm::TLM_READ_COMMAND, kActIrqAck, &ack, sizeof ack);
  if (ack.status & disk_regs::kStatusError) {
    if (flushing_) SC_REPORT_ERROR(name(), "write-back flush: the actuator reported an error");
    batch_[index_].status = amap::kStatusMediaError;
    complete_feature(State::Idle);
    return;
  }
  const std::uint64_t lbn = flushing_                          ? dirty_->lbn
                            : batch_[index_].command.is_read() ? read_.media_lbn
                                                               : batch_[index_].command.lbn;
  const PhysicalAddress target = predictor_.locate(lbn);
  head_ = {target.cylinder, target.head};
  if (!flushing_) {
    MediaResult& r = batch_[index_];
    r.log.seek_start_ps = static_cast<decltype(r.log.seek_start_ps)>(ack.seek_start_ps);
    r.log.seek_end_ps = static_cast<decltype(r.log.seek_end_ps)>(ack.seek_end_ps);
    r.log.seek_distance = ack.seek_distance;
  }
  const Time now = sim_now() + to_time(services_.offset());
  if (!flushing_ && !batch_[index_].command.is_read() && data_in_ > now) {
    set_state(State::Transferring);
    if (features_.interface.write_media_overlap) {  // the first pass on which the data stays ahead
      const Time at = overlapped_write_start(batch_[index_].command, now);
      if (at <= now) {
        program_transfer();
        return;
      }
      wake_at(Wake::ProgramWrite, at);
      return;
    }
    wake_at(Wake::ProgramWrite, data_in_);  // the media write waits for the data
    return;
  }
  program_transfer();
}

Time DiskMediaDriver::overlapped_write_start(const Command& c, Time now) const {
  // Block i of the write is in the buffer at data_in_ - (blocks - 1 - i) sector times.
  const Time b = features_.interface.sector_time(Op::Write);
  const auto in = [&](std::uint64_t i) { return data_in_ - b * static_cast<std::int64_t>(c.blocks - 1 - i); };
  const Time period = predictor_.rotation_period();
  const Time first = predictor_.next_pass(c.lbn, now + bus_access_time_);  // the channel starts after its burst
  Time pass = first;
  // No block is written before the drive's fill (InterfaceParams::write_fill_blocks) is in; the
  // first block then passes and the head comes back a revolution later.
  const std::uint64_t fill = std::min<std::uint64_t>(features_.interface.write_fill_blocks(c.blocks), c.blocks);
  while (pass < data_in_) {
    bool ahead = pass >= in(fill - 1);  // each block's data in by the time the block before it has passed
    predictor_.block_ends(c.lbn, c.blocks - 1, pass,
                          [&](std::uint64_t i, Time end) { ahead = ahead && end >= in(i + 1); });
    if (ahead) break;
    pass += period;
  }
  // Programmed within the revolution before the pass, the channel starts on it.
  return pass == first ? now : pass - period / 2;
}

void DiskMediaDriver::program_transfer() {
  if (flushing_) {
    set_state(State::Flushing);
    disk_regs::TransferBurst start{dirty_->lbn, dirty_->blocks, disk_regs::channel::kCmdWrite};
    services_.bus_access(tlm::TLM_WRITE_COMMAND, kChLbn, &start, sizeof start);
    return;
  }
  set_state(State::Transferring);
  const Command& c = batch_[index_].command;
  if (!c.is_read()) {
    disk_regs::TransferBurst start{c.lbn, c.blocks, disk_regs::channel::kCmdWrite};
    services_.bus_access(tlm::TLM_WRITE_COMMAND, kChLbn, &start, sizeof start, &c);
    return;
  }
  disk_regs::TransferBurst start{read_.media_lbn, read_.media_blocks, disk_regs::channel::kCmdRead};
  services_.bus_access(tlm::TLM_WRITE_COMMAND, kChLbn, &start, sizeof start, &c);
  // When the first sector comes under the head; from it, when each block is in the buffer.
  if (!lead_armed_ && !services_.transactions_observed()) {
    // Untraced, without LEAD: TRANSFER_START_PS is the first block's next pass under the head from
    // the burst's access time (the channel's rotational wait, ReadChannel::start; the heads are on
    // its track after the seek), which the predictor computes with the same rule, period and
    // phase. The read's bus access time is spent instead of reading it.
    media_start_ = predictor_.next_pass(read_.media_lbn, sim_now() + to_time(services_.offset()));
    services_.offset() += to_sc_in_run(bus_access_time_);
  } else {
    std::uint64_t times[2] = {0, 0};  // TRANSFER_START_PS, TRANSFER_END_PS
    services_.bus_access(tlm::TLM_READ_COMMAND, kChTransferStart, times, sizeof times);
    media_start_ = Time{static_cast<std::int64_t>(times[0])};
  }
  if (lead_armed_) {  // the read starts LEAD_TAKEN blocks before the request: the segment does too
    lead_armed_ = false;
    lead_ = static_cast<std::uint32_t>(services_.read_reg(kChLeadTaken, 4));
    cache_->lead_in(read_, lead_);
    buffer_block_ = read_.buffer_block;
  }
  // The data phase: the hit blocks from the command's time, then each media block once it has
  // passed under the head, one interface sector time each.
  // A (re)connection waits for the read watermark: that many blocks in the buffer, or the rest.
  const InterfaceParams& bus = features_.interface;
  const Time b = bus.sector_time(Op::Read);
  ready_.clear();
  predictor_.block_ends(read_.media_lbn, read_.requested_media_blocks, media_start_,
                        [&](std::uint64_t, Time ready) { ready_.push_back(ready); });
  // The request's blocks, after any lead blocks; without hit blocks it reconnects after the seek.
  const Time e = data_phase_end(ready_, lead_, command_time_ + from_ms(bus.data_prep_ms) + b * read_.hit_blocks,
                                read_.hit_blocks == 0, c.blocks);
  const Time requested_end = ready_.empty() ? Time{0} : ready_.back();
  MediaResult& r = batch_[index_];
  // The request's media transfer: from its own first block (after any lead blocks) to its last.
  r.log.transfer_start_ps =
      (lead_ > 0 ? predictor_.next_pass(read_.media_lbn + lead_, media_start_) : media_start_).count();
  r.log.transfer_end_ps = requested_end.count();
  if (deliver_inline(e)) return;
  wake_at(Wake::Deliver, e);
}

bool DiskMediaDriver::deliver_inline(Time e) {
  // The data phase's timer would fire at `at` and run on_timer() with a zero offset. Run it here
  // with the offset at - now instead when that cannot change what happens: an untraced run (the
  // waveforms would show the state changes early), no firmware timer pending, nothing else
  // scheduled up to and including `at` (no interrupt, arrival or doorbell comes first or at the
  // same time), and, once this command completes, nothing to dispatch (the firmware holds only
  // this command and no submission waits): the completion then dispatches nothing, and every time
  // the handler derives comes from the offset (the channel's BLOCKS_DONE, the DMA, the completion
  // overhead and entry, the completion interrupt). Saves one timed event and one process
  // activation per media read, as Controller::ring does for the doorbell.
  const Time local = sim_now() + to_time(services_.offset());
  const Time at = e > local ? e : local;
  if (services_.transactions_observed() || wake_ != Wake::None || index_ + 1 != batch_.size() ||
      !services_.holds_only(batch_.size()))
    return false;
  const sc_core::sc_time delay = to_sc_in_run(at - sim_now());
  if (!(sc_core::sc_time_to_pending_activity() > delay)) return false;
  services_.offset() = delay;
  deliver();
  return true;
}

void DiskMediaDriver::feature_transfer_done() {
  // A read, or a read-ahead whose command has completed already (its batch is gone): only the
  // segment is left.
  if (!flushing_ && (state_ == State::Prefetching || batch_[index_].command.is_read())) {
    const std::optional<std::uint32_t> blocks = read_done_and_blocks();
    if (!blocks) {
      transfer_failed();
      return;
    }
    head_ = track_after(read_.media_lbn, *blocks, read_.media_blocks);
    if (cache_) cache_->filled(read_, *blocks);
    media_done_ = true;
    if (state_ == State::Prefetching) finish_background();
    return;  // else the data phase's timer completes the command
  }
  disk_regs::TransferDoneBurst done{};
  services_.bus_access(tlm::TLM_READ_COMMAND, kChIrqAck, &done, sizeof done);
  if (flushing_) {
    if (done.status & disk_regs::kStatusError)
      SC_REPORT_ERROR(name(), "write-back flush: the channel reported an error");
    const PhysicalAddress last = predictor_.locate(dirty_->lbn + dirty_->blocks - 1);
    head_ = {last.cylinder, last.head};
    dirty_.reset();
    flushing_ = false;
    if (continue_after_flush_) {  // the command that waited for the flush
      continue_after_flush_ = false;
      command_time_ = sim_now() + to_time(services_.offset());
      if (batch_[index_].command.is_read())
        start_read();
      else
        start_write();
      return;
    }
    set_state(State::Idle);
    services_.reposition_done();
    return;
  }
  if (done.status & disk_regs::kStatusError) {
    transfer_failed();
    return;
  }
  // A write-through write is on the media.
  MediaResult& r = batch_[index_];
  r.log.transfer_start_ps = static_cast<decltype(r.log.transfer_start_ps)>(done.transfer_start_ps);
  r.log.transfer_end_ps = static_cast<decltype(r.log.transfer_end_ps)>(done.transfer_end_ps);
  const PhysicalAddress last = predictor_.locate(r.command.lbn + r.command.blocks - 1);
  head_ = {last.cylinder, last.head};
  const InterfaceParams& bus = features_.interface;
  if (bus.write_reconnect) {  // reconnects once the disconnect after the data has ended
    const Time now = sim_now() + to_time(services_.offset());
    const Time free = data_in_ + from_ms(extra_ ? bus.extra_disconnect_second_ms : bus.write_disconnect_ms);
    const Time reselect = from_ms(extra_ ? bus.other_reselect_ms : bus.first_reselect_ms);
    services_.offset() += to_sc_in_run((free > now ? free - now : Time{0}) + reselect);
  }
  complete_feature(State::Idle);
}

void DiskMediaDriver::transfer_failed() {
  if (state_ == State::Prefetching) {  // the read-ahead is lost, the command already completed
    finish_background();
    return;
  }
  timer_.cancel();
  wake_ = Wake::None;
  batch_[index_].status = amap::kStatusMediaError;
  complete_feature(State::Idle);
}

void DiskMediaDriver::on_timer() {
  const Wake what = wake_;
  wake_ = Wake::None;
  services_.reset_offset();
  switch (what) {
    case Wake::None:
      return;
    case Wake::ProgramWrite:
      program_transfer();
      return;
    case Wake::Stop:  // once the minimum read-ahead has passed: at once (DiskSim's prefetch swap at
                      // that block's end, disk_buffer_request_complete)
      services_.write_reg(kChCommand, disk_regs::channel::kCmdStopInSector, 4);
      return;
    case Wake::Deliver:
      deliver();
      return;
  }
}

void DiskMediaDriver::deliver() {
  const Command& c = batch_[index_].command;
  if (!c.is_read()) {  // write-back: the data is in the buffer
    complete_feature(State::Idle);
    return;
  }
  State after = State::Idle;
  if (ahead_ != Ahead::None) after = State::Prefetching;  // the hit's read-ahead goes on after the completion
  if (joined_ && ahead_ == Ahead::Reading) {
    // A read that joined the pass: its blocks have passed; reading BLOCKS_DONE puts them in the
    // buffer (catch-up on access) and in the segment.
    const std::uint32_t blocks = static_cast<std::uint32_t>(services_.read_reg(kChBlocksDone, 4));
    cache_->filled(ahead_plan_, blocks);
  }
  joined_ = false;
  if (read_.media_blocks > 0) {
    // The channel brings the marked blocks into the buffer as they pass (catch-up on access).
    const std::uint32_t blocks = static_cast<std::uint32_t>(services_.read_reg(kChBlocksDone, 4));
    if (blocks < read_.media_blocks) {
      after = State::Prefetching;  // the read-ahead goes on after the completion
      if (cache_) {
        // From now on it runs as a background read-ahead: a command arriving is dispatched at once
        // and a full hit on its segment (with the blocks read so far) is served while it goes on.
        ahead_ = Ahead::Reading;
        ahead_from_miss_ = true;
        ahead_plan_ = read_;
        ahead_keep_ = std::min(read_.media_blocks, read_.requested_media_blocks + features_.cache.min_read_ahead);
      }
    } else {  // the media read has ended: acknowledge it here, whether or not its handler ran
      services_.write_reg(kChIrqAck, 1, 4);
      head_ = track_of_last(read_.media_lbn, blocks);
      if (cache_) cache_->filled(read_, blocks);
      media_done_ = true;
    }
  }
  // The blocks may wrap around the segment's ring: then two DMA transfers.
  const std::uint64_t first = cache_ ? cache_->contiguous_blocks(buffer_block_, c.blocks) : c.blocks;
  services_.dma(c, true, first * kBlockBytes, buffer_block_ * kBlockBytes);
  if (first < c.blocks) {
    const std::uint64_t ring_start = buffer_block_ + first - cache_->region_blocks();
    services_.dma(c, true, (c.blocks - first) * kBlockBytes, ring_start * kBlockBytes, first * kBlockBytes);
  }
  complete_feature(after);
}

void DiskMediaDriver::complete_feature(State after) {
  const Command& c = batch_[index_].command;
  const InterfaceParams& bus = features_.interface;
  services_.offset() += to_sc_in_run(from_ms(c.is_read() ? bus.read_completion_ms : bus.write_completion_ms));
  if (++index_ < batch_.size()) {
    if (after == State::Prefetching) {  // the next command of the batch stops the read-ahead
      set_state(after);
      yield_background();
      return;
    }
    start_feature();
    return;
  }
  set_state(after);
  finished_.swap(batch_);
  batch_.clear();
  services_.access_done(finished_);
}

HeadPosition DiskMediaDriver::track_of_last(std::uint64_t lbn, std::uint64_t blocks) const {
  if (blocks > 0) {
    const PhysicalAddress first = predictor_.locate(lbn);  // memoised: located for the seek
    if (predictor_.geometry().run_blocks(lbn, blocks, first) == blocks) return {first.cylinder, first.head};
  }
  const PhysicalAddress last = predictor_.locate(lbn + blocks - 1);
  return {last.cylinder, last.head};
}

HeadPosition DiskMediaDriver::track_after(std::uint64_t lbn, std::uint64_t blocks, std::uint64_t planned) const {
  if (blocks >= planned) return track_of_last(lbn, blocks);
  const PhysicalAddress next = predictor_.locate(lbn + blocks);  // a stop leaves the heads on its track
  return {next.cylinder, next.head};
}

void DiskMediaDriver::yield_background() {
  if (state_ == State::Flushing && batch_.empty()) {  // an idle flush goes on; the overhead runs meanwhile
    if (!yielded_at_) yielded_at_ = sim_now() + to_time(services_.offset());
    return;
  }
  if (state_ != State::Prefetching || stop_requested_) return;
  stop_requested_ = true;
  yielded_at_ = sim_now() + to_time(services_.offset());
  if (ahead_ == Ahead::Pending || ahead_ == Ahead::Awaiting) {  // a hit's read-ahead not yet seeking or reading
    ahead_wake_at(AheadWake::Abandon, *yielded_at_);
    return;
  }
  if (ahead_ == Ahead::Seeking) return;  // its seek ends, then it stops (ahead_seek_done)
  // The minimum read-ahead is read whatever arrives: stop once it has passed.
  // A hit's read-ahead keeps its own minimum. A read's pass is program_transfer()'s (same first
  // block, same start): its first ready_.size() block ends are in ready_ already; past them only
  // the last one is computed.
  // A miss's read-ahead keeps its plan in ahead_plan_ once its command completed (read_ may since
  // be a hit's); ready_ holds its requested blocks' ends.
  const bool ahead = ahead_ == Ahead::Reading;
  const SegmentedCache::ReadPlan& bg = ahead ? ahead_plan_ : read_;
  const std::uint32_t keep =
      ahead ? ahead_keep_ : std::min(read_.media_blocks, read_.requested_media_blocks + features_.cache.min_read_ahead);
  const bool miss = !ahead || ahead_from_miss_;  // its pass is program_transfer()'s
  const Time earliest = keep == 0                       ? Time{0}
                        : miss && keep <= ready_.size() ? ready_[keep - 1]
                                                        : predictor_.pass_end(bg.media_lbn, keep, media_start_);
  const Time now = sim_now() + to_time(services_.offset());
  if (earliest > now) {  // at the minimum's last block no switch has begun (DiskSim stops it at once)
    wake_at(Wake::Stop, earliest);
    return;
  }
  // Stopped at the command's arrival: the stop's own wait (a track switch ending, or the block or
  // rotational wait under the heads) delays the command's seek on top of its overhead.
  services_.write_reg(kChCommand, stop_command(), 4);
  stop_at_ = sim_now() + to_time(services_.offset());  // when the stop reached the channel
}

std::uint32_t DiskMediaDriver::stop_command() const {
  return features_.cache.stop_prefetch_in_sector ? disk_regs::channel::kCmdStopInSector : disk_regs::channel::kCmdStop;
}

void DiskMediaDriver::finish_background() {
  const std::optional<Time> stop_at = std::exchange(stop_at_, std::nullopt);
  timer_.cancel();
  wake_ = Wake::None;
  ahead_timer_.cancel();
  ahead_wake_ = AheadWake::None;
  ahead_ = Ahead::None;
  ahead_from_miss_ = false;
  if (reposition_waiting_) {
    resume_at_.reset();  // a Reposition waited for a hit's read-ahead to stop
    const Decision d = *std::exchange(reposition_waiting_, std::nullopt);
    set_state(State::Idle);
    reposition(d);
    return;
  }
  if (index_ < batch_.size()) {  // a command waited for the read-ahead (a later one of the same batch)
    set_state(State::Idle);
    // A command that stopped a miss's read-ahead at its arrival starts once its overhead is spent.
    // DiskSim 4.0 disk_check_hda: the seek waits for what is left of the overhead *plus* what is
    // left of the stopped read-ahead's track switch or sector (disk_seek_stoptime), both counted
    // from the command's arrival, where the stop was asked for.
    const Time local = sim_now() + to_time(services_.offset());
    if (resume_at_) {
      Time start = *resume_at_;
      if (stop_at && transfer_done_at_ > *stop_at) start += transfer_done_at_ - *stop_at;
      if (start > local) services_.offset() += to_sc_in_run(start - local);
    }
    resume_at_.reset();
    start_feature();
    return;
  }
  set_state(State::Idle);
  services_.reposition_done();
}

void DiskMediaDriver::on_idle() {
  if (state_ != State::Idle || !dirty_) return;
  batch_.clear();
  index_ = 0;
  start_flush();
}

}  // namespace drivevp
