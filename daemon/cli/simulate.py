"""`forumgm simulate SCENARIO.toml`: offline play of a scenario, JSON on stdout (or, with
`--texts`, every text the phases would post or send, for the host to proofread)."""
from __future__ import annotations

import contextlib
import json
import sys
from pathlib import Path


def register(subparsers) -> None:
    parser = subparsers.add_parser("simulate", help="play a scenario offline and print JSON (see docs/simulate.md)")
    parser.add_argument("scenario", type=Path, help="scenario TOML file")
    parser.add_argument("--templates", type=Path, help="folder of templates overriding the shipped ones")
    parser.add_argument("--texts", action="store_true",
                        help="print every report and PM of each phase as the players would read it, not JSON")


def run(args) -> int:
    from forumgm.config import load_texts
    from forumgm.daemon.offline.simulate import ScenarioError, load_scenario, run_scenario

    try:
        # the command line's paths are the caller's; paths inside a scenario (a Bellum map, an
        # events file) are the scenario file's: both are read before and after the chdir
        scenario = load_scenario(args.scenario)
        texts = load_texts(args.templates)
        with contextlib.chdir(args.scenario.resolve().parent):
            result = run_scenario(scenario, texts)
    except ScenarioError as error:
        print(f"forumgm simulate: {args.scenario}: {error}", file=sys.stderr)
        return 2
    if args.texts:
        sys.stdout.write(all_texts(result))
    else:
        json.dump(result, sys.stdout, ensure_ascii=False, indent=2)
        sys.stdout.write("\n")
    return 0


def all_texts(result: dict) -> str:
    """Each phase's reports (for the thread), its final vote count where no report tells the votes,
    its PMs (receipts first) and the host's notices, each under a heading that says where it goes."""
    out = []
    for phase in result["phases"]:
        key = f"{phase['kind']}-{phase['number']}"
        out += [f"===== {key}: {name} report (thread) =====\n{body}\n"
                for name, body in phase["reports"].items() if body]
        if phase.get("vote_count"):
            out.append(f"===== {key}: final vote count (thread) =====\n{phase['vote_count']}\n")
        out += [f"===== {key}: {pm['kind']} PM to {pm['to']} =====\n{pm['text']}\n" for pm in phase["pms"]]
        out += [f"===== {key}: notice to the host =====\n{body}\n" for body in phase.get("notices", [])]
    return "\n".join(out)
