#include "hw_models/disk/read_channel.h"

#include <algorithm>
#include <cstring>

#include "tlm_bus/sc/command_extension.h"
#include "tlm_bus/sc/time.h"

#include "tlm_bus/copy_bytes.h"

#include "tlm_bus/devices/disk_registers.h"

namespace drivevp {

ReadChannel::ReadChannel(sc_core::sc_module_name name, const DiskParams& params, Spindle& spindle, Actuator& actuator)
    : sc_module(name),
      socket("socket"),
      buffer_socket("buffer_socket"),
      params_(params),
      spindle_(spindle),
      actuator_(actuator),
      geometry_(params.geometry()),
      period_(params.rotation_period()) {
  socket.register_b_transport(this, &ReadChannel::b_transport);
  buffer_socket.register_b_transport(this, &ReadChannel::buffer_transport);
  buffer_socket.register_get_direct_mem_ptr(this, &ReadChannel::get_direct_mem_ptr);
  auto u64 = [](auto v) { return static_cast<std::uint64_t>(v); };
  regs_.add(
      "LBN", disk_regs::channel::kLbn, 8, [this] { return lbn_; },
      [this](std::uint64_t v, tlm::tlm_generic_payload&) { lbn_ = v; });
  regs_.add(
      "COUNT", disk_regs::channel::kCount, 4, [this, u64] { return u64(count_); },
      [this](std::uint64_t v, tlm::tlm_generic_payload&) {
        count_ = static_cast<std::uint32_t>(v);
        size_buffer();
      });
  regs_.add(
      "BUFFER_OFFSET", disk_regs::channel::kBufferOffset, 8, [this] { return buffer_offset_; },
      [this](std::uint64_t v, tlm::tlm_generic_payload&) {
        buffer_offset_ = v;
        size_buffer();
      });
  regs_.add(
      "MARK", disk_regs::channel::kMark, 4, [this, u64] { return u64(mark_); },
      [this](std::uint64_t v, tlm::tlm_generic_payload&) { mark_ = static_cast<std::uint32_t>(v); });
  regs_.add(
      "LEAD", disk_regs::channel::kLead, 4, [this, u64] { return u64(lead_); },
      [this](std::uint64_t v, tlm::tlm_generic_payload&) { lead_ = static_cast<std::uint32_t>(v); });
  regs_.add("LEAD_TAKEN", disk_regs::channel::kLeadTaken, 4, [this, u64] { return u64(lead_taken_); });
  regs_.add("BLOCKS_DONE", disk_regs::channel::kBlocksDone, 4, [this, u64] { return u64(blocks_done()); });
  regs_.add("COMMAND", disk_regs::channel::kCommand, 4, nullptr,
            [this](std::uint64_t v, tlm::tlm_generic_payload& trans) { command(v, trans); });
  regs_.add("EXTEND", disk_regs::channel::kExtend, 4, nullptr,
            [this](std::uint64_t v, tlm::tlm_generic_payload&) { extend(v, regs_.access_delay()); });
  regs_.add(
      "RING_BLOCKS", disk_regs::channel::kRingBlocks, 4, [this, u64] { return u64(ring_blocks_); },
      [this](std::uint64_t v, tlm::tlm_generic_payload&) {
        ring_blocks_ = static_cast<std::uint32_t>(v);
        size_buffer();
      });
  regs_.add(
      "RING_COUNT", disk_regs::channel::kRingCount, 4, [this, u64] { return u64(ring_count_); },
      [this](std::uint64_t v, tlm::tlm_generic_payload&) {
        ring_count_ = static_cast<std::uint32_t>(v);
        size_buffer();
      });
  regs_.add("STATUS", disk_regs::channel::kStatus, 4, [this] { return status(); });
  // IRQ_ACK: a write acknowledges; a read returns STATUS and acknowledges (read to clear), so
  // that one burst from 0x14 takes the status, the acknowledge and the transfer times together.
  regs_.add(
      "IRQ_ACK", disk_regs::channel::kIrqAck, 4,
      [this] {
        const std::uint64_t s = status();
        acknowledge();
        return s;
      },
      [this](std::uint64_t, tlm::tlm_generic_payload&) { acknowledge(); });
  regs_.add("SECTOR_UNDER_HEAD", disk_regs::channel::kSectorUnderHead, 4, [this] { return sector_under_head(); });
  regs_.add("TRANSFER_START_PS", disk_regs::channel::kTransferStartPs, 8,
            [this, u64] { return u64(plan_.transfer_start.count()); });
  regs_.add("TRANSFER_END_PS", disk_regs::channel::kTransferEndPs, 8,
            [this, u64] { return u64(plan_.transfer_end.count()); });
  // The firmware's bursts (firmware/controller/disk_driver.cpp), each served in one call doing
  // what the registers above do in address order (RegisterBank::add_burst).
  regs_.add_burst(disk_regs::channel::kLbn, sizeof(disk_regs::TransferBurst), false,
                  [this](unsigned char* data, tlm::tlm_generic_payload& trans) {
                    disk_regs::TransferBurst b;
                    std::memcpy(&b, data, sizeof b);
                    lbn_ = b.lbn;      // LBN
                    count_ = b.count;  // COUNT
                    size_buffer();
                    command(b.command, trans);  // COMMAND
                  });
  const auto done = [this](unsigned char* data) {  // IRQ_ACK (STATUS, then acknowledge), the times
    disk_regs::TransferDoneBurst b;
    b.status = static_cast<std::uint32_t>(status());
    acknowledge();
    b.transfer_start_ps = static_cast<std::uint64_t>(plan_.transfer_start.count());
    b.transfer_end_ps = static_cast<std::uint64_t>(plan_.transfer_end.count());
    std::memcpy(data, &b, sizeof b);
  };
  regs_.add_burst(disk_regs::channel::kIrqAck, sizeof(disk_regs::TransferDoneBurst), true,
                  [done](unsigned char* data, tlm::tlm_generic_payload&) { done(data); });
  regs_.add_burst(disk_regs::channel::kIrqAck, sizeof(disk_regs::TransferDoneBlocksBurst), true,
                  [this, done](unsigned char* data, tlm::tlm_generic_payload&) {
                    disk_regs::TransferDoneBlocksBurst b;
                    done(reinterpret_cast<unsigned char*>(&b.done));
                    b.sector_under_head = static_cast<std::uint32_t>(sector_under_head());
                    b.reserved = 0;
                    b.buffer_offset = buffer_offset_;
                    b.mark = mark_;
                    b.blocks_done = blocks_done();
                    std::memcpy(data, &b, sizeof b);
                  });
  regs_.add_burst(disk_regs::channel::kTransferStartPs, sizeof(disk_regs::TransferTimesBurst), true,
                  [this](unsigned char* data, tlm::tlm_generic_payload&) {
                    disk_regs::TransferTimesBurst b;
                    b.transfer_start_ps = static_cast<std::uint64_t>(plan_.transfer_start.count());
                    b.transfer_end_ps = static_cast<std::uint64_t>(plan_.transfer_end.count());
                    std::memcpy(data, &b, sizeof b);
                  });
  regs_.add_burst(disk_regs::channel::kBufferOffset, sizeof(disk_regs::BufferMarkBurst), false,
                  [this](unsigned char* data, tlm::tlm_generic_payload&) {
                    disk_regs::BufferMarkBurst b;
                    std::memcpy(&b, data, sizeof b);
                    buffer_offset_ = b.buffer_offset;  // BUFFER_OFFSET
                    size_buffer();
                    mark_ = b.mark;  // MARK
                  });
  SC_HAS_PROCESS(ReadChannel);
  SC_METHOD(on_done);
  sensitive << done_event_;
  dont_initialize();
}

ReadChannel::Plan ReadChannel::plan_runs(std::uint64_t lbn, std::uint64_t blocks, Time start, bool write) {
  runs_.clear();
  Plan p;
  p.transfer_end = media_pass(
      geometry_, lbn, blocks, start, spindle_.phase_origin(), period_,
      [this](std::uint32_t x) { return params_.seek_time(x); }, params_.settle(), params_.head_switch(),
      write ? params_.write_settle() : Time{0},
      [&](const PhysicalAddress& a, std::uint64_t index, std::uint64_t k, Time run_start) {
        runs_.push_back(Run{index, k, run_start, sectors_time(period_, a.slot, a.sectors_per_track), a.slot,
                            a.sectors_per_track, a.cylinder, a.head});
      });
  p.transfer_start = runs_.front().start;
  p.end_cylinder = runs_.back().cylinder;
  p.end_head = runs_.back().head;
  return p;
}

ReadChannel::Plan ReadChannel::plan_prefix(std::uint64_t blocks) const {
  // The run holding the last block: the first whose blocks reach past blocks - 1.
  auto r = std::upper_bound(runs_.begin(), runs_.end(), blocks - 1,
                            [](std::uint64_t i, const Run& run) { return i < run.index + run.blocks; });
  Plan p;
  p.transfer_start = runs_.front().start;
  p.transfer_end = run_boundary(*r, blocks - r->index);
  p.end_cylinder = r->cylinder;
  p.end_head = r->head;
  return p;
}

void ReadChannel::command(std::uint64_t v, tlm::tlm_generic_payload& trans) {
  // The firmware attaches the command being served: shown in waveforms as command_id.
  if (const auto* ext = trans.get_extension<CommandExtension>()) command_id_ = ext->command.id;
  if (v == disk_regs::channel::kCmdRead || v == disk_regs::channel::kCmdWrite)
    start(v == disk_regs::channel::kCmdWrite, regs_.access_delay());
  else if (v == disk_regs::channel::kCmdStop || v == disk_regs::channel::kCmdStopInSector)
    stop(regs_.access_delay(), v == disk_regs::channel::kCmdStopInSector);
}

std::uint64_t ReadChannel::sector_under_head() {
  // Angular slot under the head on the current cylinder's zone, at the access's time.
  const Time t = sim_now() + to_time(regs_.access_delay());
  actuator_.catch_up(t);
  const std::uint32_t spt = geometry_.sectors_per_track(actuator_.cylinder());
  // floor((t mod T) spt / T), in 64 bits when the product fits (mul_div; always on real tracks).
  const auto phase = static_cast<std::uint64_t>(t.count() % period_.count());
  return static_cast<std::uint64_t>(mul_div(phase, spt, static_cast<std::uint64_t>(period_.count())));
}

std::uint32_t ReadChannel::blocks_done() {
  // A read's blocks that have passed are in the buffer once the firmware has looked (catch-up on
  // access): the firmware may serve them before the transfer ends.
  const std::uint32_t passed = blocks_passed(sim_now() + to_time(regs_.access_delay()));
  deliver_passed(passed);
  return passed;
}

std::uint64_t ReadChannel::status() const {
  return (transferring_.get() ? disk_regs::kStatusBusy : 0u) | (done_pending_ ? disk_regs::kStatusDonePending : 0u) |
         (error_ ? disk_regs::kStatusError : 0u);
}

void ReadChannel::acknowledge() {
  done_pending_ = false;
  transfer_done_irq.lower(regs_.access_delay());
}

void ReadChannel::b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
  catch_up(sim_now() + to_time(delay));
  regs_.access(trans, trans.get_address(), delay);
}

bool ReadChannel::get_direct_mem_ptr(tlm::tlm_generic_payload&, tlm::tlm_dmi& dmi) {
  catch_up(sim_now());
  return buffer_.grant_dmi(dmi);
}

void ReadChannel::buffer_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
  catch_up(sim_now() + to_time(delay));
  buffer_.transport(trans);
}

void ReadChannel::start(bool is_write, const sc_core::sc_time& delay) {
  const Time begin = sim_now() + to_time(delay);
  actuator_.catch_up(begin);
  bool ok = !transferring_ && count_ > 0 && lbn_ < geometry_.capacity_blocks() &&
            count_ <= geometry_.capacity_blocks() - lbn_ && !actuator_.busy();
  const std::uint32_t lead = lead_;
  lead_ = 0;  // one command's
  lead_taken_ = 0;
  Plan planned;
  if (ok && !is_write && lead > 0) {  // the pass starts at the first of the lead blocks or LBN under the head
    lead_taken_ = lead_in(lead, begin);
    lbn_ -= lead_taken_;
    count_ += lead_taken_;
    if (mark_ > 0) mark_ += lead_taken_;
    size_buffer();
  }
  if (ok) {
    planned = plan_runs(lbn_, count_, begin, is_write);
    const Run& first = runs_.front();
    ok = first.cylinder == actuator_.cylinder() && first.head == actuator_.head();  // heads must be on track
  }
  if (!ok) {
    error_ = true;
    done_pending_ = true;
    transfer_done_irq.raise(delay);
    return;
  }
  error_ = false;
  op_write_ = is_write;
  begin_ = begin;
  plan_ = planned;
  mark_copied_ = is_write || mark_ == 0 || mark_ >= count_;
  filled_ = 0;
  if (!mark_copied_) mark_end_ = plan_prefix(mark_).transfer_end;
  transferring_ = true;
  current_lbn_ = lbn_;
  // Tickless: the interrupt is due at the transfer's end and the data moves when the channel is
  // next looked at (catch_up). Only a traced run also wakes the model then.
  actuator_.follow_transfer(plan_.transfer_end, plan_.end_cylinder, plan_.end_head);
  const sc_core::sc_time due = to_sc_in_run(plan_.transfer_end - sim_now());
  transfer_done_irq.raise(due);
  if (transferring_.live()) done_event_.notify(due);
}

std::uint32_t ReadChannel::lead_in(std::uint32_t lead, Time begin) const {
  // DiskSim 4.0 disksim_diskctlr.c disk_buffer_seekdone ("Read any free blocks"): the read starts
  // with the first sector to come under the head, reading the track's blocks before LBN into the
  // buffer. Of LBN and the up to `lead` blocks before it on its track, the one with the shortest
  // rotational wait from `begin` starts the pass.
  const PhysicalAddress at = geometry_.locate(lbn_);
  Time best = rotational_wait(begin, spindle_.phase_origin(), period_, at.slot, at.sectors_per_track);
  std::uint32_t taken = 0;
  const std::uint64_t most = std::min<std::uint64_t>(lead, lbn_);
  for (std::uint32_t k = 1; k <= most; ++k) {
    const PhysicalAddress a = geometry_.locate(lbn_ - k);
    if (a.cylinder != at.cylinder || a.head != at.head) break;  // the track's first block has been passed
    const Time w = rotational_wait(begin, spindle_.phase_origin(), period_, a.slot, a.sectors_per_track);
    if (w < best) {
      best = w;
      taken = k;
    }
  }
  return taken;
}

std::pair<std::uint64_t, std::uint64_t> ReadChannel::ring_of(std::uint64_t b) const {
  if (ring_blocks_ == 0 || b >= std::uint64_t{ring_blocks_} * ring_count_) return {b, 0};
  return {b - b % ring_blocks_, ring_blocks_};
}

void ReadChannel::move_blocks(std::uint64_t first, std::uint64_t n, bool to_store) {
  const auto [ring, size] = ring_of(buffer_offset_);
  while (n > 0) {
    // Buffer block of transfer block `first`, and the blocks from it to the ring's end.
    std::uint64_t at = buffer_offset_ + first;
    std::uint64_t run = n;
    if (size > 0) {
      at = ring + (buffer_offset_ - ring + first) % size;
      run = std::min(n, ring + size - at);
    }
    std::uint8_t* data = buffer_.bytes.data() + at * kBlockBytes;
    if (to_store)
      store_.write(lbn_ + first, run, data);
    else
      store_.read(lbn_ + first, run, data);
    first += run;
    n -= run;
  }
}

void ReadChannel::size_buffer() {
  const auto [ring, size] = ring_of(buffer_offset_);
  const std::uint64_t end = size > 0 ? ring + size : buffer_offset_ + count_;
  const std::uint64_t bytes = std::max<std::uint64_t>(end, std::uint64_t{ring_blocks_} * ring_count_) * kBlockBytes;
  if (buffer_.bytes.size() < bytes) {
    buffer_.bytes.resize(bytes);
    buffer_socket->invalidate_direct_mem_ptr(0, ~std::uint64_t{0});  // the buffer moved
  }
}

std::uint32_t ReadChannel::blocks_passed(Time at) const {
  if (!transferring_) return count_;
  if (at >= plan_.transfer_end) return count_;
  // Track by track (media_pass): on a run of k blocks from slot a starting at run_start, block j
  // has passed when floor((a + j + 1) T / spt) <= X = at - run_start + floor(a T / spt), i.e. for
  // slots s = a + j + 1 <= floor(((X + 1) spt - 1) / T): one division per track, not per block.
  // A run that starts after `at` has none passed, nor have the ones after it.
  std::uint64_t passed = 0;
  for (const Run& r : runs_) {
    if (r.start > at) break;
    const std::int64_t x = (at - r.start + r.base).count();
    if (x < 0) continue;
    const auto x1 = static_cast<std::uint64_t>(x) + 1;
    const auto T = static_cast<std::uint64_t>(period_.count());
    std::uint64_t m = 0;  // (x + 1) spt, in 64 bits when it fits
    const std::uint64_t last_slot =
        __builtin_mul_overflow(x1, std::uint64_t{r.sectors_per_track}, &m)
            ? static_cast<std::uint64_t>((static_cast<unsigned __int128>(x1) * r.sectors_per_track - 1) / T)
            : (m - 1) / T;
    if (last_slot > r.slot) passed = r.index + std::min<std::uint64_t>(last_slot - r.slot, r.blocks);
  }
  return static_cast<std::uint32_t>(passed);
}

void ReadChannel::stop(const sc_core::sc_time& delay, bool in_sector) {
  const Time at = sim_now() + to_time(delay);
  catch_up(at);
  if (!transferring_ || op_write_) return;
  // DiskSim 4.0 disk_buffer_stopable_access: the pending event of the read is removed (the block
  // under the head is not read); with "Stop prefetch in sector" the heads stop at once, else at that
  // event's time (the block's end, or the first block's start after a rotational wait); a pending
  // seek or head switch is always completed (disk_seek_stoptime).
  const std::uint32_t k = blocks_passed(at);
  if (k >= count_) return;
  // The run holding block k, the first not wholly passed.
  const auto r = std::upper_bound(runs_.begin(), runs_.end(), std::uint64_t{k},
                                  [](std::uint64_t i, const Run& run) { return i < run.index + run.blocks; });
  const std::uint64_t j = k - r->index;
  const Time block_start = run_boundary(*r, j);
  Time end = at;
  if (at > block_start) {  // in block k
    if (!in_sector) end = run_boundary(*r, j + 1);
  } else if (j == 0 && r != runs_.begin()) {  // between run r - 1's last block and run r's first
    const Run& p = *(r - 1);
    const Time prev_end = run_boundary(p, p.blocks);
    const std::uint32_t d = r->cylinder > p.cylinder ? r->cylinder - p.cylinder : p.cylinder - r->cylinder;
    const Time on_track = prev_end + positioning_seek(
                                         d, r->head != p.head, [this](std::uint32_t x) { return params_.seek_time(x); },
                                         params_.settle(), params_.head_switch());
    if (at > prev_end && at < on_track)
      end = on_track;  // the head switch or seek ends first
    else if (at > prev_end && !in_sector)
      end = block_start;  // the rotational wait ends
  } else if (at < block_start && !in_sector) {
    end = block_start;  // the rotational wait before the pass's first block, or across a slip or spare
  }
  count_ = k;
  plan_.transfer_end = end;
  plan_.end_cylinder = r->cylinder;
  plan_.end_head = r->head;
  if (mark_ > count_) mark_copied_ = true;  // the marked blocks past the stop are never read
  actuator_.follow_transfer(plan_.transfer_end, plan_.end_cylinder, plan_.end_head);
  const sc_core::sc_time due = to_sc_in_run(plan_.transfer_end - sim_now());
  transfer_done_irq.raise(due);  // no later than the pending one: it replaces it
  if (transferring_.live()) done_event_.notify(due);
}

void ReadChannel::extend(std::uint64_t blocks, const sc_core::sc_time& delay) {
  catch_up(sim_now() + to_time(delay));
  if (!transferring_ || op_write_ || blocks <= count_ || blocks > UINT32_MAX ||
      blocks > geometry_.capacity_blocks() - lbn_)
    return;
  // The same pass, longer: planned from the same start, its first count_ blocks keep their times.
  count_ = static_cast<std::uint32_t>(blocks);
  size_buffer();
  plan_ = plan_runs(lbn_, count_, begin_, false);
  actuator_.follow_transfer(plan_.transfer_end, plan_.end_cylinder, plan_.end_head);
  const sc_core::sc_time due = to_sc_in_run(plan_.transfer_end - sim_now());
  transfer_done_irq.reschedule(due);  // later than the pending raise: that one is cancelled
  if (transferring_.live()) {
    done_event_.cancel();
    done_event_.notify(due);
  }
}

void ReadChannel::deliver_passed(std::uint32_t passed) {
  if (!transferring_ || op_write_ || passed <= filled_) return;
  move_blocks(filled_, passed - filled_, false);
  filled_ = passed;
  if (filled_ >= mark_) mark_copied_ = true;
}

void ReadChannel::catch_up(Time at) {
  if (!transferring_) return;
  if (!mark_copied_ && at >= mark_end_) {  // the marked blocks are in the buffer early
    move_blocks(filled_, mark_ - std::min<std::uint64_t>(filled_, mark_), false);
    mark_copied_ = true;
    filled_ = std::max<std::uint64_t>(filled_, mark_);
  }
  if (at < plan_.transfer_end) return;
  if (op_write_)
    move_blocks(0, count_, true);
  else if (filled_ < count_)  // the rest of the blocks read (a stop has cut off those not reached)
    move_blocks(filled_, count_ - filled_, false);
  transferring_ = false;
  done_pending_ = true;
}

void ReadChannel::on_done() {
  catch_up(sim_now());
  actuator_.catch_up(sim_now());  // traced runs: the heads' track changes on time in the waveform
}

void ReadChannel::trace(Tracer& tracer, const std::string& prefix) {
  tracer.add(TraceGroup::Mechanics, transferring_, prefix + ".transferring", WaveFormat::Binary, 1);
  tracer.add(TraceGroup::Mechanics, current_lbn_, prefix + ".lbn", WaveFormat::Decimal, 64);
  tracer.add(TraceGroup::Mechanics, command_id_, prefix + ".command_id", WaveFormat::Decimal, 64);
}

}  // namespace drivevp
