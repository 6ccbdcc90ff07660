#!/usr/bin/env python3
"""Prints the R_conv tables of Benchmarks/README.md ("The full run") from the JSON of
`mediabench bench jitter --audio ... --format json`: per trace, ours against the best row, the
hindsight optimum, the best peer default and the listening preset, the summary lines, and ours
per recording against the best row of that recording (ours included).

usage: rconv_table.py JITTER-RCONV.json
"""
import json
import sys

RECORDINGS = ["us-male", "gb-female", "us-male-babble20", "gb-female-babble20"]


def row_name(row):
    implementation = row["implementation"].split(" ")[0]
    return f"{implementation} {row['knob']}" if row.get("knob") else implementation


def main(path):
    rows = [r for r in json.load(open(path)) if r.get("suite") == "jitter" and r.get("r_conv") is not None]
    traces = list(dict.fromkeys(r["trace"] for r in rows))
    recordings = sorted(
        {k[len("r_conv_"):] for r in rows for k in r if k.startswith("r_conv_")},
        key=lambda v: RECORDINGS.index(v) if v in RECORDINGS else len(RECORDINGS),
    )
    print("| trace | ours R_conv (PESQ, mean delay ms, eff. loss %) | best row (R_conv) | ours − best "
          "| hindsight (delay) | ours − hindsight | best peer default | listening |")
    print("|---|---|---|---|---|---|---|---|")
    to_best, to_hindsight, defaults_above, per_recording = [], [], [], []
    for trace in traces:
        of_trace = [r for r in rows if r["trace"] == trace]
        ours = next(r for r in of_trace if r["implementation"] == "ours" and not r.get("knob"))
        listening = next(r for r in of_trace if r["implementation"] == "ours" and r.get("knob") == "listening")
        best = max((r for r in of_trace if r is not ours), key=lambda r: r["r_conv"])
        hindsight = next(r for r in of_trace if r["implementation"] == "hindsight")
        defaults = [r for r in of_trace if "(default)" in (r.get("knob") or "")]
        best_default = max(defaults, key=lambda r: r["r_conv"])
        to_best.append(ours["r_conv"] - best["r_conv"])
        to_hindsight.append(ours["r_conv"] - hindsight["r_conv"])
        defaults_above += [(trace, row_name(d), round(d["r_conv"] - ours["r_conv"], 2))
                           for d in defaults if d["r_conv"] > ours["r_conv"]]
        name = trace.split("/")[-1]
        print(f"| {name} | {ours['r_conv']:.1f} ({ours['pesq']:.2f}, {ours['mean_delay_ms']:.0f}, "
              f"{ours['effective_loss_percent']:.2f}) | {row_name(best)} ({best['r_conv']:.1f}) | {to_best[-1]:.2f} | "
              f"{hindsight['r_conv']:.1f} ({hindsight['knob']}) | {to_hindsight[-1]:.2f} | "
              f"{row_name(best_default)} ({best_default['r_conv']:.1f}) | {listening['r_conv']:.1f} |")
        cells = []
        for recording in recordings:
            key = "r_conv_" + recording
            best_here = max(r[key] for r in of_trace if key in r)
            cells.append(f"{ours[key]:.1f} ({ours[key] - best_here:+.1f})")
        per_recording.append((name, cells))
    print()
    within = sum(1 for gap in to_best if gap >= -1.0)
    print(f"ours − best: mean {sum(to_best) / len(to_best):.2f}, worst {min(to_best):.2f}; within 1.0 on {within}/{len(to_best)}")
    print(f"ours − hindsight: mean {sum(to_hindsight) / len(to_hindsight):.2f}, worst {min(to_hindsight):.2f}")
    print(f"peer defaults above ours: {defaults_above}")
    print()
    print("| trace | " + " | ".join(recordings) + " |")
    print("|---|" + "---|" * len(recordings))
    for name, cells in per_recording:
        print(f"| {name} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main(sys.argv[1])
