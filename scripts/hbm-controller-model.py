#!/usr/bin/env python3
"""A cycle-by-cycle model of an HBM3 stack behind FR-FCFS controllers that schedule as Ramulator
2.1's HBM controller does, fed by an in-order front end, to attribute the differences in
docs/DRAM-VALIDATION.md.

It is not Ramulator and not part of Ridgeline's simulation: it is a small, slow (seconds to a
minute) reading of the scheduling logic, with the organisation and timings of
configs/hardware/hbm3-stack-ramulator.yaml in clock cycles (CK = 625 ps), so that one timing or
one controller rule can be switched and its effect on a stream measured.

Each channel's controller issues, each cycle, at most one column command and one row command
(HBM's separate column and row buses; its two pseudo-channels share them):
- the column command: a RD of the active buffer (requests whose ACT has issued, one a bank) if
  the oldest ready one can issue; else the read buffer's oldest ready RD to an open row;
- the row command: the read buffer's oldest ready ACT or PRE (never a PRE of a bank that an
  active-buffer request waits on); an ACT moves its request to the active buffer.
"Ready" is every timing met this cycle; among ready requests the oldest wins, and when none is
ready nothing issues (first ready, then first come). All-bank refresh every tREFI: once due, only
active-buffer reads issue; then every bank precharges and the channel refreshes for tRFC.

The front end sends the stream's 64 B accesses in order, each as two 32 B transactions to one
channel (the channel is taken from the address bits above 64 B), as many a cycle as the
channels' read buffers take: it stops at the first transaction whose buffer is full, so one full
channel holds back the others (Ramulator's trace front end, which waits while its target queue
is full).

Address order within a channel (a transaction is a 32 B burst), as Ramulator 2.1's mappers
place them:
  RoBaRaCoCh  column (32), pseudo-channel, stack ID, bank group, bank, row
  MOP4CLXOR   column bits 0-1, pseudo-channel, stack ID, bank group, bank, column bits 2-4, row;
              then pseudo-channel ^= column bit 0, stack ID ^= bit 1, bank group ^= bits 2-3,
              bank ^= bit 4

Usage: scripts/hbm-controller-model.py --mapping RoBaRaCoCh --pattern sequential [--tccd-r 3]
Prints the read bandwidth as a percentage of the peak (one burst a CK a channel).
"""
import argparse
import random

# HBM3_6400Mbps as in configs/hardware/hbm3-stack-ramulator.yaml, in CK of 625 ps.
T_RCD_RD, T_RP, T_RAS, T_RTP = 31, 26, 45, 9
T_CCD_S, T_CCD_L = 2, 4  # RD to RD: another bank group of the stack ID, the same bank group
T_RRD_S, T_RRD_L, T_FAW = 4, 5, 24
T_REFI, T_RFC = 6240, 416  # 3.9 us, 260 ns
ROW_BURSTS, PSEUDO_CHANNELS, STACK_IDS, BANK_GROUPS, BANKS = 32, 2, 2, 4, 4
CHANNEL_BURSTS = 1 << 24  # 512 MiB of 32 B bursts
NEVER = -(10**9)


def decode(n, mapping):
    """Burst index within the channel -> (pseudo-channel, stack ID, bank group, bank, row)."""
    if mapping == "RoBaRaCoCh":
        n //= ROW_BURSTS
        pc, n = n % PSEUDO_CHANNELS, n // PSEUDO_CHANNELS
        sid, n = n % STACK_IDS, n // STACK_IDS
        bg, n = n % BANK_GROUPS, n // BANK_GROUPS
        bank, row = n % BANKS, n // BANKS
        return pc, sid, bg, bank, row
    low, n = n % 4, n // 4
    pc, n = n % PSEUDO_CHANNELS, n // PSEUDO_CHANNELS
    group, n = n % (STACK_IDS * BANK_GROUPS), n // (STACK_IDS * BANK_GROUPS)  # stack ID lowest
    bank, n = n % BANKS, n // BANKS
    high, row = n % 8, n // 8
    column = low | high << 2
    pc ^= column & 1
    group ^= (column >> 1) & 7
    bank ^= (column >> 4) & 1
    return pc, group & 1, group >> 1, bank, row


class Bank:
    def __init__(self):
        self.open_row = None
        self.activated = NEVER
        self.precharged = NEVER
        self.last_read = NEVER


class Channel:
    """One channel's controller and banks."""

    def __init__(self, buffer_depth, t_ccd_r, refresh):
        self.buffer_depth = buffer_depth
        self.t_ccd_r = t_ccd_r
        self.refresh = refresh
        self.banks = {}
        self.last_read_group = {}  # (pc, sid, bg) -> cycle of the last RD
        self.last_read_stack = {}  # (pc, sid) -> cycle of the last RD
        self.last_act_channel = {}  # pc -> cycle of the last ACT
        self.last_act_group = {}  # (pc, sid, bg) -> cycle of the last ACT
        self.act_window = {pc: [] for pc in range(PSEUDO_CHANNELS)}
        self.read_buffer, self.active_buffer = [], []  # [arrival order, address]
        self.reads = 0
        self.refresh_due, self.refresh_end = T_REFI, NEVER

    def full(self):
        return len(self.read_buffer) >= self.buffer_depth

    def bank_of(self, a):
        return self.banks.setdefault(a[:4], Bank())

    def command(self, a):
        b = self.bank_of(a)
        return "RD" if b.open_row == a[4] else "ACT" if b.open_row is None else "PRE"

    def ready(self, a, cmd, t):
        pc, sid, bg, _, _ = a
        b = self.bank_of(a)
        if cmd == "RD":
            return (t >= b.activated + T_RCD_RD and
                    t >= self.last_read_group.get((pc, sid, bg), NEVER) + T_CCD_L and
                    t >= self.last_read_stack.get((pc, sid), NEVER) + T_CCD_S and
                    t >= self.last_read_stack.get((pc, 1 - sid), NEVER) + self.t_ccd_r)
        if cmd == "ACT":
            window = self.act_window[pc]
            return (t >= b.precharged + T_RP and
                    t >= self.last_act_channel.get(pc, NEVER) + T_RRD_S and
                    t >= self.last_act_group.get((pc, sid, bg), NEVER) + T_RRD_L and
                    (len(window) < 4 or t >= window[-4] + T_FAW))
        return t >= b.activated + T_RAS and t >= b.last_read + T_RTP  # PRE

    def oldest_ready(self, candidates, t):
        """First ready, then first come: None unless the pick can issue now."""
        ready_ones = [c for c in candidates if self.ready(c[0][1], c[1], t)]
        return min(ready_ones, key=lambda c: c[0][0]) if ready_ones else None

    def tick(self, t):
        refreshing = self.refresh and t >= self.refresh_due
        if refreshing and not self.active_buffer:
            start = t
            for b in self.banks.values():
                if b.open_row is not None:
                    start = max(start, b.activated + T_RAS, b.last_read + T_RTP)
            self.refresh_end = start + 1 + T_RFC
            for b in self.banks.values():
                b.open_row, b.precharged = None, self.refresh_end - T_RP
            self.refresh_due += T_REFI
        if t < self.refresh_end:
            return
        # The column command: the active buffer first, then (not while refreshing) the reads.
        buffers = (self.active_buffer,) if refreshing else (self.active_buffer, self.read_buffer)
        for buffer in buffers:
            pick = self.oldest_ready([(r, "RD") for r in buffer if self.command(r[1]) == "RD"], t)
            if pick:
                pc, sid, bg, _, _ = a = pick[0][1]
                self.last_read_group[(pc, sid, bg)] = self.last_read_stack[(pc, sid)] = t
                self.bank_of(a).last_read = t
                buffer.remove(pick[0])
                self.reads += 1
                break
        if refreshing:
            return
        # The row command.
        waiting = {r[1][:4] for r in self.active_buffer}
        candidates = [(r, self.command(r[1])) for r in self.read_buffer]
        candidates = [c for c in candidates
                      if c[1] == "ACT" or (c[1] == "PRE" and c[0][1][:4] not in waiting)]
        pick = self.oldest_ready(candidates, t)
        if pick:
            request, cmd = pick
            pc, sid, bg, _, row = a = request[1]
            b = self.bank_of(a)
            if cmd == "ACT":
                b.open_row, b.activated = row, t
                self.last_act_channel[pc] = self.last_act_group[(pc, sid, bg)] = t
                self.act_window[pc].append(t)
                self.read_buffer.remove(request)
                self.active_buffer.append(request)
            else:
                b.open_row, b.precharged = None, t


def simulate(mapping, pattern, channels, buffer_depth, t_ccd_r, refresh, cycles, warmup, seed):
    rng = random.Random(seed)
    stack = [Channel(buffer_depth, t_ccd_r, refresh) for _ in range(channels)]
    span = channels * CHANNEL_BURSTS // 2  # 64 B accesses in the stack
    access, half, arrivals = 0, 0, 0
    channel = burst = None  # the access being sent
    reads_at_warmup = 0
    for t in range(cycles):
        if t == warmup:
            reads_at_warmup = sum(c.reads for c in stack)
        # The front end: in order, as many transactions as the buffers take.
        while True:
            if channel is None:
                a = access if pattern == "sequential" else rng.randrange(span)
                channel, burst = a % channels, a // channels * 2
                access += 1
            if stack[channel].full():
                break
            stack[channel].read_buffer.append([arrivals, decode(burst + half, mapping)])
            arrivals += 1
            half ^= 1
            if half == 0:
                channel = None
        for c in stack:
            c.tick(t)
    reads = sum(c.reads for c in stack) - reads_at_warmup
    return 100.0 * reads / (channels * (cycles - warmup))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mapping", choices=["RoBaRaCoCh", "MOP4CLXOR"], required=True)
    parser.add_argument("--pattern", choices=["sequential", "random"], default="sequential")
    parser.add_argument("--channels", type=int, default=16)
    parser.add_argument("--queue-depth", type=int, default=64, help="read buffer entries")
    parser.add_argument("--tccd-r", type=int, default=3,
                        help="CK between RDs to the two stack IDs of a pseudo-channel (HBM3's "
                        "nCCDR: 3 in Ramulator 2.1's HBM3_6400Mbps; 2 = tCCD_S, as if absent)")
    parser.add_argument("--no-refresh", action="store_true")
    parser.add_argument("--cycles", type=int, default=12000)
    parser.add_argument("--warmup", type=int, default=5000, help="cycles not counted")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    share = simulate(args.mapping, args.pattern, args.channels, args.queue_depth, args.tccd_r,
                     not args.no_refresh, args.cycles, args.warmup, args.seed)
    print("%s %s, %d channels, read buffer %d, tCCD_R %d CK%s: %.1f %% of peak" %
          (args.mapping, args.pattern, args.channels, args.queue_depth, args.tccd_r,
           "" if not args.no_refresh else ", no refresh", share))


if __name__ == "__main__":
    main()
