#!/usr/bin/env python3
"""A cycle-by-cycle model of one HBM3 channel behind an FR-FCFS controller that schedules as
Ramulator 2.1's HBM controller does, to attribute the differences in docs/DRAM-VALIDATION.md.

It is not Ramulator and not part of Ridgeline's simulation: it is a small, slow (a few seconds)
reading of the scheduling logic, with the organisation and timings of
configs/hardware/hbm3-stack-ramulator.yaml in clock cycles (CK = 625 ps), so that one timing or
one controller rule can be switched and its effect on a stream measured. Each cycle it issues at
most one column command and one row command for the channel (HBM's separate column and row
buses; its two pseudo-channels share them):
- the column command: a RD of the active buffer (requests whose ACT has issued, one a bank) if
  the oldest ready one can issue; else the read buffer's oldest ready RD to an open row;
- the row command: the read buffer's oldest ready ACT or PRE (never a PRE of a bank that an
  active-buffer request waits on); an ACT moves its request to the active buffer.
"Ready" is every timing met this cycle; among ready requests the oldest wins, and when none is
ready nothing issues (first ready, then first come). The front end fills the read buffer in
order each cycle (it never waits on another channel: the streams here load every channel
alike). All-bank refresh every tREFI: once due, only active-buffer reads issue; then every bank
precharges and the channel refreshes for tRFC.

Address order within a channel (a transaction is a 32 B burst; a 64 B access is two consecutive
transactions of one channel), as Ramulator 2.1's mappers place them:
  RoBaRaCoCh  column (32), pseudo-channel, stack ID, bank group, bank, row
  MOP4CLXOR   column bits 0-1, pseudo-channel, stack ID, bank group, bank, column bits 2-4, row;
              then pseudo-channel ^= column bit 0, stack ID ^= bit 1, bank group ^= bits 2-3,
              bank ^= bit 4

Usage: scripts/hbm-controller-model.py --mapping RoBaRaCoCh --pattern sequential [--tccd-r 3]
Prints the read bandwidth as a percentage of the channel's peak (one burst a CK).
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


def simulate(mapping, pattern, queue_depth, t_ccd_r, refresh, cycles, warmup, seed):
    rng = random.Random(seed)
    banks = {}
    last_read_group = {}  # (pc, sid, bg) -> cycle of the last RD
    last_read_stack = {}  # (pc, sid) -> cycle of the last RD
    last_act_channel = {}  # pc -> cycle of the last ACT
    last_act_group = {}  # (pc, sid, bg) -> cycle of the last ACT
    act_window = {pc: [] for pc in range(PSEUDO_CHANNELS)}
    read_buffer, active_buffer = [], []  # [arrival order, address]
    next_burst, random_access = 0, {}
    reads = reads_at_warmup = 0
    refresh_due, refresh_end = T_REFI, NEVER

    def bank_of(a):
        return banks.setdefault(a[:4], Bank())

    def burst(i):
        if pattern == "sequential":
            return i
        if i // 2 not in random_access:  # a 64 B access: two bursts of one channel
            random_access[i // 2] = rng.randrange(CHANNEL_BURSTS // 2)
        return random_access[i // 2] * 2 + i % 2

    def command(a):
        b = bank_of(a)
        return "RD" if b.open_row == a[4] else "ACT" if b.open_row is None else "PRE"

    def ready(a, cmd, t):
        pc, sid, bg, _, _ = a
        b = bank_of(a)
        if cmd == "RD":
            return (t >= b.activated + T_RCD_RD and
                    t >= last_read_group.get((pc, sid, bg), NEVER) + T_CCD_L and
                    t >= last_read_stack.get((pc, sid), NEVER) + T_CCD_S and
                    t >= last_read_stack.get((pc, 1 - sid), NEVER) + t_ccd_r)
        if cmd == "ACT":
            window = act_window[pc]
            return (t >= b.precharged + T_RP and t >= last_act_channel.get(pc, NEVER) + T_RRD_S and
                    t >= last_act_group.get((pc, sid, bg), NEVER) + T_RRD_L and
                    (len(window) < 4 or t >= window[-4] + T_FAW))
        return t >= b.activated + T_RAS and t >= b.last_read + T_RTP  # PRE

    def oldest_ready(candidates, t):
        """First ready, then first come: None unless the pick can issue now."""
        if not candidates:
            return None
        ready_ones = [c for c in candidates if ready(c[0][1], c[1], t)]
        return min(ready_ones, key=lambda c: c[0][0]) if ready_ones else None

    for t in range(cycles):
        if t == warmup:
            reads_at_warmup = reads
        refreshing = refresh and t >= refresh_due
        if refreshing and not active_buffer:
            start = t
            for b in banks.values():
                if b.open_row is not None:
                    start = max(start, b.activated + T_RAS, b.last_read + T_RTP)
            refresh_end = start + 1 + T_RFC
            for b in banks.values():
                b.open_row, b.precharged = None, refresh_end - T_RP
            refresh_due += T_REFI
        while len(read_buffer) < queue_depth:
            read_buffer.append([next_burst, decode(burst(next_burst), mapping)])
            next_burst += 1
        if t < refresh_end:
            continue
        # The column command: the active buffer first, then (not while refreshing) the reads.
        for buffer in (active_buffer,) if refreshing else (active_buffer, read_buffer):
            pick = oldest_ready([(r, "RD") for r in buffer if command(r[1]) == "RD"], t)
            if pick:
                pc, sid, bg, _, _ = a = pick[0][1]
                last_read_group[(pc, sid, bg)] = last_read_stack[(pc, sid)] = t
                bank_of(a).last_read = t
                buffer.remove(pick[0])
                reads += 1
                break
        if refreshing:
            continue
        # The row command.
        waiting = {r[1][:4] for r in active_buffer}
        candidates = [(r, command(r[1])) for r in read_buffer]
        candidates = [c for c in candidates
                      if c[1] == "ACT" or (c[1] == "PRE" and c[0][1][:4] not in waiting)]
        pick = oldest_ready(candidates, t)
        if pick:
            request, cmd = pick
            pc, sid, bg, _, row = a = request[1]
            b = bank_of(a)
            if cmd == "ACT":
                b.open_row, b.activated = row, t
                last_act_channel[pc] = last_act_group[(pc, sid, bg)] = t
                act_window[pc].append(t)
                read_buffer.remove(request)
                active_buffer.append(request)
            else:
                b.open_row, b.precharged = None, t
    return 100.0 * (reads - reads_at_warmup) / (cycles - warmup)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mapping", choices=["RoBaRaCoCh", "MOP4CLXOR"], required=True)
    parser.add_argument("--pattern", choices=["sequential", "random"], default="sequential")
    parser.add_argument("--queue-depth", type=int, default=64, help="read buffer entries")
    parser.add_argument("--tccd-r", type=int, default=3,
                        help="CK between RDs to the two stack IDs of a pseudo-channel (HBM3's "
                        "nCCDR: 3 in Ramulator 2.1's HBM3_6400Mbps; 2 = tCCD_S, as if absent)")
    parser.add_argument("--no-refresh", action="store_true")
    parser.add_argument("--cycles", type=int, default=40000)
    parser.add_argument("--warmup", type=int, default=5000, help="cycles not counted")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    share = simulate(args.mapping, args.pattern, args.queue_depth, args.tccd_r,
                     not args.no_refresh, args.cycles, args.warmup, args.seed)
    print("%s %s, read buffer %d, tCCD_R %d CK%s: %.1f %% of peak" %
          (args.mapping, args.pattern, args.queue_depth, args.tccd_r,
           "" if not args.no_refresh else ", no refresh", share))


if __name__ == "__main__":
    main()
