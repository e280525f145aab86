#!/usr/bin/env python3
# trace-summary.py TRACE.jsonl: a traced program's records (libwarpscope-inject) summed up for
# a person checking a trace by hand on a GPU machine without the app: per process, what ran
# before CUDA, the kernels by configuration (count, total, median, min, max, share of GPU
# time, an approximate theoretical occupancy), copies by direction and host memory, what the
# launch calls cost the host, NVTX ranges, and how the process ended. Python 3, no modules.
# SPDX-License-Identifier: GPL-3.0-or-later
import json
import statistics
import sys
from collections import defaultdict


def us(ns):
    return f"{ns / 1e3:,.1f} µs" if ns < 1e6 else f"{ns / 1e6:,.2f} ms"


def occupancy(device, k):
    """Theoretical occupancy from registers, shared memory and block size (approximate: the
    app's calculator is the reference)."""
    if not device or not device.get("max_threads_per_sm"):
        return None
    threads = k["block"][0] * k["block"][1] * k["block"][2]
    warps = -(-threads // device["warp_size"])
    max_warps = device["max_threads_per_sm"] // device["warp_size"]
    by_warps = max_warps // warps
    regs = k.get("registers") or 0
    per_warp = -(-(max(regs, 1) * device["warp_size"]) // 256) * 256
    by_regs = device["regs_per_sm"] // (per_warp * warps) if regs else by_warps
    smem = (k.get("static_smem") or 0) + (k.get("dynamic_smem") or 0)
    smem_sm = k.get("smem_config") or device["smem_per_sm"]
    per_block = -(-(smem + device.get("reserved_smem_per_block", 0)) // 128) * 128
    by_smem = smem_sm // per_block if smem else by_warps
    blocks = min(by_warps, by_regs, by_smem, device["max_blocks_per_sm"])
    return blocks * warps / max_warps


def summarize(pid, recs):
    hello = next((r for r in recs if r["type"] == "hello"), {})
    devices = {r["index"]: r for r in recs if r["type"] == "device"}
    acts = [r for r in recs if r["type"] == "activity"]
    kinds = defaultdict(list)
    for a in acts:
        kinds[a["kind"]].append(a)
    print(f"\n== process {pid}: {' '.join(hello.get('command', []))}")
    print(f"   driver CUDA {hello.get('driver_cuda')}, CUPTI {hello.get('cupti_version')}, "
          f"api {hello.get('api')}")
    for d in devices.values():
        print(f"   device {d['index']}: {d.get('name')} ({d.get('sm')}, {d.get('sm_count')} SMs)")
    apis = kinds["api"]
    if apis:
        first = min(a["start"] for a in apis)
        print(f"   the process started {us(-hello.get('process_start', 0))} before CUDA was "
              f"initialized; first CUDA call {us(first)} after")
    kernels = [k for k in kinds["kernel"] if k["start"] is not None]
    gpu = sum(k["end"] - k["start"] for k in kernels) or 1
    groups = defaultdict(list)
    for k in kernels:
        key = (k["name"], tuple(k["grid"]), tuple(k["block"]), k["registers"],
               k["static_smem"] + k["dynamic_smem"], k.get("device", 0))
        groups[key].append(k["end"] - k["start"])
    print(f"   {len(kernels)} kernels, {us(gpu)} on the GPU")
    for key, d in sorted(groups.items(), key=lambda kv: -sum(kv[1])):
        name, grid, block, regs, smem, dev = key
        occ = occupancy(devices.get(dev), {"block": block, "registers": regs,
                                           "static_smem": smem, "dynamic_smem": 0})
        print(f"   {len(d):6d} × {name[:70]}")
        print(f"          grid {'×'.join(map(str, grid))}, block {'×'.join(map(str, block))}, "
              f"{regs} registers, {smem} B shared"
              + (f", occupancy ≈ {100 * occ:.0f} %" if occ is not None else ""))
        print(f"          total {us(sum(d))} ({100 * sum(d) / gpu:.1f} % of GPU time), median "
              f"{us(statistics.median(d))}, min {us(min(d))}, max {us(max(d))}")
    copies = defaultdict(list)
    for c in kinds["memcpy"]:
        copies[(c["direction"], c.get("host_memory"))].append(c)
    for (direction, host), cs in sorted(copies.items(), key=lambda kv: str(kv[0])):
        t = sum(c["end"] - c["start"] for c in cs)
        b = sum(c["bytes"] for c in cs)
        print(f"   {len(cs):6d} × memcpy {direction} {host or ''}: {b / 1e6:,.1f} MB in {us(t)}"
              f" = {b / t if t else 0:.1f} GB/s")
    by_name = defaultdict(list)
    for a in apis:
        by_name[a["name"]].append(a["end"] - a["start"])
    for name, d in sorted(by_name.items(), key=lambda kv: -sum(kv[1]))[:12]:
        print(f"   {len(d):6d} × {name}: median {us(statistics.median(d))}, total {us(sum(d))}")
    launches = sorted(a["start"] for a in apis if "Launch" in (a["name"] or ""))
    if len(launches) > 2:
        gaps = [b - a for a, b in zip(launches, launches[1:])]
        print(f"   launch calls every {us(statistics.median(gaps))} (median)")
    for n in kinds["nvtx"]:
        length = us(n["end"] - n["start"]) if n.get("end") is not None else "open"
        print(f"   nvtx {n['nvtx']} \"{n['name']}\": {length}")
    print(f"   {len(kinds['sync'])} syncs, {len(kinds['jit'])} JIT, "
          f"{sum(1 for r in recs if r['type'] == 'module')} module records, "
          f"{len(kinds['overhead'])} overhead")
    for r in recs:
        if r["type"] == "error":
            print(f"   error {r['code']}: {r['message']}")
    end = recs[-1] if recs and recs[-1]["type"] == "trace_end" else None
    if end is None:
        print("   no trace_end: the process ended without its closing record")
    elif end["reason"] == "signal":
        print(f"   killed by {end.get('signal_name') or end['signal']}; flushed {end['flushed']}, "
              f"dropped {end['dropped_records']}, lost {end['lost_records']}")
    else:
        print(f"   exit {end['exit_status']}; {end['records']} records, dropped "
              f"{end['dropped_records']}, lost {end['lost_records']}, API errors "
              f"{end['api_errors']}")


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: trace-summary.py TRACE.jsonl")
    per_pid = defaultdict(list)
    bad = 0
    with open(sys.argv[1], encoding="utf-8") as f:
        for line in f:
            try:
                r = json.loads(line)
            except ValueError:
                bad += 1
                continue
            per_pid[r.get("pid")].append(r)
    print(f"{sum(map(len, per_pid.values()))} records from {len(per_pid)} processes"
          f"{f', {bad} lines not JSON' if bad else ''}")
    for pid, recs in per_pid.items():
        summarize(pid, recs)


if __name__ == "__main__":
    main()
