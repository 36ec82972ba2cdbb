#!/usr/bin/env python3
"""Refits the skill-routing calibration of contract 04 §3.3 from a bench report.

    target/debug/dotaios-bench quality --skills --report skills.json
    python3 scripts/fit-skill-calibration.py skills.json

Reads the tuning part only (contract 07 §8): every first candidate, labelled right when it is
the gold skill. Model: confidence = separation / (1 + e^-(a + b*score + c*corroborated)),
maximum likelihood with a ridge of 0.1 on b and c (without it c grows without bound), on a
0.2 grid. Prints [a, b, c] for CALIBRATION in crates/core/src/skills/resolve.rs. The threshold
is then the bench's "chosen on tuning" value after rebuilding with the new constants.
"""
import json
import math
import sys

RIDGE = 0.1


def rows(report):
    out = []
    for item in report["intents"]:
        if item["part"] != "tuning" or item["score"] is None:
            continue
        runner_up = item["runnerUpScore"] or 0.0
        separation = item["score"] / (item["score"] + runner_up)
        right = item["candidate"] == item["gold"]
        out.append((item["score"], separation, 1.0 if item["corroborated"] else 0.0, right))
    return out


def log_likelihood(data, a, b, c):
    total = -RIDGE * (b * b + c * c) / 2
    for score, separation, corroborated, right in data:
        p = separation / (1 + math.exp(-(a + b * score + c * corroborated)))
        p = min(max(p, 1e-9), 1 - 1e-9)
        total += math.log(p) if right else math.log(1 - p)
    return total


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    with open(sys.argv[1], encoding="utf-8") as file:
        data = rows(json.load(file))
    grid = lambda low, high: [step / 5 for step in range(int(low * 5), int(high * 5) + 1)]
    candidates = (
        (log_likelihood(data, a, b, c), (a, b, c))
        for a in grid(-10, 2)
        for b in grid(0, 8)
        for c in grid(0, 12)
    )
    best = max(candidates, key=lambda pair: pair[0])
    print(f"tuning candidates: {len(data)}; log-likelihood {best[0]:.3f}")
    print("CALIBRATION = [{:.1f}, {:.1f}, {:.1f}]".format(*best[1]))


if __name__ == "__main__":
    main()
