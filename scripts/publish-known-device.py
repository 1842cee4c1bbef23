#!/usr/bin/env python3
"""Publishes a device's tuned entries into clreduce's known-device table.

The table (src/tuning/known_devices.json) is compiled into the library and used below a
user's own tuning file. Its entries come only from measurements: run `clreduce-perf tune`
on the device, then

    scripts/publish-known-device.py ~/.cache/clreduce/tuning.json --device "NVIDIA H200" \
        --source "clreduce-perf tune, additive family, 2^12..2^30, 2026-11-22"

replaces that device's entries in the table with the tuning file's (keyed by device name,
as the library matches them) and rebuilding the library ships them. With --segments-only,
only the tuning file's segment-team entries (those with a segment_length) replace the
table's, and its single-range entries stay as they are; --types int32,float32 narrows that to the
segment entries of those types (the table's others stay).
"""
import argparse
import collections
import json
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
TABLE = ROOT / "src" / "tuning" / "known_devices.json"
ENTRY_KEYS = ("type", "family", "n", "segment_length", "equal_lengths", "times", "work_group_size", "stride", "vector_width",
              "inter_group", "segment_team", "kernel_us")


def dump(doc):
    """The table with one entry a line, so that a change shows as the rows it changes."""
    out = ["{"]
    out += [f" {json.dumps(k)}: {json.dumps(v)}," for k, v in doc.items() if k != "devices"]
    out.append(' "devices": [')
    for di, device in enumerate(doc["devices"]):
        out.append("  {")
        out += [f"   {json.dumps(k)}: {json.dumps(v)}," for k, v in device.items() if k != "entries"]
        out.append('   "entries": [')
        entries = device["entries"]
        out += ["    " + json.dumps(e) + ("," if i + 1 < len(entries) else "") for i, e in enumerate(entries)]
        out.append("   ]")
        out.append("  }" + ("," if di + 1 < len(doc["devices"]) else ""))
    out += [" ]", "}"]
    return "\n".join(out) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("tuning_file", type=pathlib.Path, help="a tuning database written by clreduce-perf tune")
    parser.add_argument("--device", required=True, help="CL_DEVICE_NAME, exactly as the tuning file has it")
    parser.add_argument("--source", required=True, help="how and when the entries were measured")
    parser.add_argument("--table", type=pathlib.Path, default=TABLE)
    parser.add_argument("--segments-only", action="store_true",
                        help="replace only the segment-team entries, keep the table's single-range ones")
    parser.add_argument("--types", help="with --segments-only: only these element types' segment entries (comma-separated)")
    args = parser.parse_args()

    tuning = json.loads(args.tuning_file.read_text(), object_pairs_hook=collections.OrderedDict)
    if tuning.get("format") != "clreduce tuning database":
        sys.exit(f"{args.tuning_file}: not a clreduce tuning database")
    found = [d for d in tuning.get("devices", []) if d.get("device") == args.device]
    if not found:
        names = sorted({d.get("device", "?") for d in tuning.get("devices", [])})
        sys.exit(f"{args.tuning_file}: no device '{args.device}' (it has: {', '.join(names) or 'none'})")
    measured = found[-1]
    entries = [collections.OrderedDict((k, e[k]) for k in ENTRY_KEYS if k in e) for e in measured.get("entries", [])]
    if not entries:
        sys.exit(f"{args.tuning_file}: '{args.device}' has no entries")

    table = json.loads(args.table.read_text(), object_pairs_hook=collections.OrderedDict)
    if args.types and not args.segments_only:
        sys.exit("--types goes with --segments-only")
    types = set(args.types.split(",")) if args.types else None
    replaced = lambda e: "segment_length" in e and (types is None or e["type"] in types)
    if args.segments_only:
        entries = [e for e in entries if replaced(e)]
        if not entries:
            sys.exit(f"{args.tuning_file}: '{args.device}' has no segment entries")
        old = [d for d in table["devices"] if d["device"] == args.device]
        if not old:
            sys.exit(f"{args.table}: no row for '{args.device}' to add segment entries to")
        kept = [e for e in old[0]["entries"] if not replaced(e)]
        entries = kept + entries
        args.source = old[0]["source"] + "; segment teams: " + args.source
    measured_on = (f"{measured.get('platform', '?')}, driver {measured.get('driver_version', '?')}, "
                   f"{measured.get('compute_units', '?')} compute units")
    if args.segments_only:
        measured_on = old[0]["measured_on"]
    row = collections.OrderedDict(
        [("device", args.device),
         ("measured_on", measured_on),
         ("source", args.source),
         ("entries", entries)])
    devices = [d for d in table["devices"] if d["device"] != args.device] + [row]
    table["devices"] = sorted(devices, key=lambda d: d["device"])
    args.table.write_text(dump(table))
    print(f"{args.table}: {len(entries)} entries for '{args.device}'")


if __name__ == "__main__":
    main()
