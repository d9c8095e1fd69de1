#!/usr/bin/env python3
"""What a segment deletion costs a neighbour's fdatasync, on the raw file
system (no broker): the baseline for storage's segment recycling
(`storage/src/spare.rs`, benches/RESULTS.md "recycling removed segments").

Writer A appends 1 MiB O_DIRECT writes, each fdatasync'd, at a fixed rate
into 64 MiB files (fallocated when new), keeping 16 files; writer B
appends 16 KiB O_DIRECT writes + fdatasync at 400/s into its own file and
reports its latency. Modes, for what happens to A's oldest file past 16:

    solo     B alone
    keep     nothing is deleted (A's files pile up)
    delete   unlinked, with a directory fsync (what retention did)
    recycle  renamed aside and reused as A's next file, written over

`--small N` adds N small files per A file, each written atomically (temp
file, fdatasync, rename, directory fsync) and unlinked with it: the
index, snapshot and checkpoint files a broker's roll and retention pass
write and remove.

    python3 benches/load/deleteprobe.py --mode delete --seconds 20 --rate-mb 400

Every loop is bounded by `--seconds`; the work folder is removed at the end.
"""
import argparse
import mmap
import multiprocessing as mp
import os
import shutil
import time

SEG = 64 << 20
CHUNK = 1 << 20
KEEP_FILES = 16


def fsync_dir(d):
    fd = os.open(d, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def writer_a(args, stop):
    d = os.path.join(args.dir, "a")
    os.makedirs(d, exist_ok=True)
    buf = mmap.mmap(-1, CHUNK)
    buf.write(os.urandom(CHUNK))
    files, spare, n = [], None, 0
    t0, written = time.time(), 0

    def new_file():
        nonlocal spare, n
        p = os.path.join(d, f"{n:08d}.log")
        n += 1
        if args.mode == "recycle" and spare:
            os.rename(spare, p)
            spare = None
            fd = os.open(p, os.O_WRONLY | os.O_DIRECT)
        else:
            fd = os.open(p, os.O_WRONLY | os.O_CREAT | os.O_DIRECT, 0o644)
            os.posix_fallocate(fd, 0, SEG)
        for k in range(args.small):
            tmp = f"{p}.s{k}.tmp"
            sfd = os.open(tmp, os.O_WRONLY | os.O_CREAT, 0o644)
            os.write(sfd, b"x" * 600)
            os.fdatasync(sfd)
            os.close(sfd)
            os.rename(tmp, f"{p}.s{k}")
            fsync_dir(d)
        fsync_dir(d)
        return p, fd

    p, fd = new_file()
    pos = 0
    while not stop.is_set() and time.time() - t0 < args.seconds + 5:
        due = t0 + written / (args.rate_mb * 1e6)
        now = time.time()
        if due > now:
            time.sleep(due - now)
        os.pwrite(fd, buf, pos)
        os.fdatasync(fd)
        pos += CHUNK
        written += CHUNK
        if pos >= SEG:
            os.close(fd)
            files.append(p)
            if len(files) > KEEP_FILES:
                old = files.pop(0)
                for k in range(args.small):
                    os.unlink(f"{old}.s{k}")
                if args.mode == "recycle" and spare is None:
                    spare = old + ".spare"
                    os.rename(old, spare)
                elif args.mode != "keep":
                    os.unlink(old)
                fsync_dir(d)
            p, fd = new_file()
            pos = 0
    os.close(fd)
    print(f"A wrote {written / 1e6 / (time.time() - t0):.0f} MB/s", flush=True)


def writer_b(args, stop, out):
    d = os.path.join(args.dir, "b")
    os.makedirs(d, exist_ok=True)
    buf = mmap.mmap(-1, 16384)
    buf.write(os.urandom(16384))
    fd = os.open(os.path.join(d, "b.log"), os.O_WRONLY | os.O_CREAT | os.O_DIRECT, 0o644)
    os.posix_fallocate(fd, 0, SEG)
    os.fdatasync(fd)
    lat, pos, i, t0 = [], 0, 0, time.time()
    while not stop.is_set() and time.time() - t0 < args.seconds + 5:
        due = t0 + i / 400.0
        i += 1
        now = time.time()
        if due > now:
            time.sleep(due - now)
        s = time.perf_counter()
        os.pwrite(fd, buf, pos)
        os.fdatasync(fd)
        lat.append((time.perf_counter() - s) * 1000)
        pos = (pos + 16384) % SEG
    os.close(fd)
    lat.sort()
    n = len(lat)
    out.put((n, lat[n // 2], lat[int(n * 0.99)], lat[int(n * 0.999)], lat[-1]))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--mode", choices=["solo", "keep", "delete", "recycle"], required=True)
    ap.add_argument("--seconds", type=float, default=20)
    ap.add_argument("--rate-mb", type=float, default=400, help="writer A's MB/s")
    ap.add_argument("--small", type=int, default=0)
    ap.add_argument("--dir", default="/work/bench-tmp/deleteprobe")
    args = ap.parse_args()
    shutil.rmtree(args.dir, ignore_errors=True)
    os.makedirs(args.dir)
    stop, out = mp.Event(), mp.Queue()
    procs = []
    if args.mode != "solo":
        procs.append(mp.Process(target=writer_a, args=(args, stop)))
        procs[-1].start()
        time.sleep(0.5)
    b = mp.Process(target=writer_b, args=(args, stop, out))
    b.start()
    procs.append(b)
    time.sleep(args.seconds)
    stop.set()
    r = out.get(timeout=30)
    for p in procs:
        p.join(timeout=30)
        if p.is_alive():
            p.kill()
    shutil.rmtree(args.dir, ignore_errors=True)
    print(f"{args.mode} small={args.small}: B n={r[0]} p50={r[1]:.2f} p99={r[2]:.2f} "
          f"p999={r[3]:.2f} max={r[4]:.2f} ms", flush=True)


if __name__ == "__main__":
    main()
