#!/usr/bin/env python3
"""Writes a memory-access trace for `kind: memory_trace`: one access a line, `LD 0x<addr>` or
`ST 0x<addr>`.

Patterns (all deterministic for a given --seed):
  sequential  consecutive accesses of --access-bytes from --base
  random      uniformly random accesses, aligned to --access-bytes, in [--base, --base + --span)
  stride      accesses --stride bytes apart from --base (a stride of interleave x channels x
              pseudo-channels keeps a stream on one pseudo-channel in simple mode)
  copy        a load from --base and a store to --base + --span, pairwise, sequentially
  vector-add  LD A[i], LD B[i], ST C[i] for --count elements of --access-bytes, A at --base and
              B, C each --span further (a streaming kernel's three streams)
  mixed       --streams sequential streams, --span apart, taken in turn (two streams 1 GiB
              apart share banks and channels; 64 B apart, they share rows), each access a store
              with probability --stores

The reference streams of docs/DRAM-VALIDATION.md (Ramulator 2's comparison, 1,048,576 accesses of
64 B): `seq` (sequential from 0) and `rand` (uniform over 8 GiB) are

  scripts/make-trace.py sequential --count 1048576 -o /tmp/seq.trace
  scripts/make-trace.py random --count 1048576 --span 8GiB -o /tmp/rand.trace

--stores F makes a fraction F of the sequential/random/stride accesses stores. Large traces stream
to the file; nothing is held in memory. Example, ten million random loads over 16 GiB:

  scripts/make-trace.py random --count 10000000 --span 16GiB -o /tmp/random.trace
"""
import argparse
import random
import re
import sys

UNITS = {"B": 1, "KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30, "TiB": 1 << 40,
         "KB": 10**3, "MB": 10**6, "GB": 10**9, "TB": 10**12}


def size(text):
    match = re.fullmatch(r"\s*(\d+)\s*([A-Za-z]*)\s*", text)
    if not match or (match.group(2) and match.group(2) not in UNITS):
        raise argparse.ArgumentTypeError(f"not a size: {text!r} (e.g. 64, 64B, 16GiB)")
    return int(match.group(1)) * UNITS.get(match.group(2) or "B")


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("pattern",
                        choices=["sequential", "random", "stride", "copy", "vector-add", "mixed"])
    parser.add_argument("--count", type=int, default=4096, help="accesses (copy: pairs)")
    parser.add_argument("--access-bytes", type=size, default=64, help="bytes an access moves")
    parser.add_argument("--base", type=size, default=0, help="first address")
    parser.add_argument("--span", type=size, default=1 << 30,
                        help="random: range of addresses; copy: distance to the destination")
    parser.add_argument("--stride", type=size, default=8192, help="stride: bytes between accesses")
    parser.add_argument("--stores", type=float, default=0.0, help="fraction of stores (0 to 1)")
    parser.add_argument("--streams", type=int, default=2, help="mixed: streams taken in turn")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("-o", "--output", default="-", help="file to write (default: stdout)")
    args = parser.parse_args()

    rng = random.Random(args.seed)
    out = sys.stdout if args.output == "-" else open(args.output, "w", buffering=1 << 20)
    step = args.access_bytes
    slots = max(1, args.span // step)
    for i in range(args.count):
        if args.pattern == "copy":
            out.write("LD 0x%x\nST 0x%x\n" % (args.base + i * step, args.base + args.span + i * step))
            continue
        if args.pattern == "vector-add":
            a = args.base + i * step
            out.write("LD 0x%x\nLD 0x%x\nST 0x%x\n" % (a, a + args.span, a + 2 * args.span))
            continue
        if args.pattern == "mixed":
            stream, index = i % args.streams, i // args.streams
            address = args.base + stream * args.span + index * step
            op = "ST" if args.stores > 0 and rng.random() < args.stores else "LD"
            out.write("%s 0x%x\n" % (op, address))
            continue
        if args.pattern == "sequential":
            address = args.base + i * step
        elif args.pattern == "random":
            address = args.base + rng.randrange(slots) * step
        else:
            address = args.base + i * args.stride
        op = "ST" if args.stores > 0 and rng.random() < args.stores else "LD"
        out.write("%s 0x%x\n" % (op, address))
    if out is not sys.stdout:
        out.close()


if __name__ == "__main__":
    main()
