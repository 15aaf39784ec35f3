#!/usr/bin/env python3
"""`courier run --json` output against docs/run.schema.json, for every algorithm x engine pair that
`courier list` offers: each document must validate, and documents broken on purpose must not (so
that a schema which accepts anything fails this test)."""
import copy
import json
import os
import subprocess
import sys
import tempfile

try:
    import jsonschema
except ImportError:
    sys.exit("json_schema_check: needs python3-jsonschema (scripts/setup.sh installs it)")


def pairs(courier):
    """(algorithm, engine) for every 'yes' in `courier list`'s matrix."""
    lines = subprocess.run([courier, "list"], check=True, capture_output=True, text=True).stdout.splitlines()
    engines = lines[0].split()[1:]
    for line in lines[1:]:
        if not line.strip():
            break
        words = line.split()
        for engine, mark in zip(engines, words[1:1 + len(engines)]):
            if mark == "yes":
                yield words[0], engine


def run(courier, algorithm, engine, directory):
    path = os.path.join(directory, f"{algorithm}-{engine}.json")
    command = [courier, "run", algorithm, "--engine", engine, "--graph", "kron:7", "--json", path, "--verify"]
    if engine != "seq":  # seq runs on one thread of one rank and refuses to be told otherwise
        command += ["--ranks", "2", "--threads", "1"]
    if algorithm == "sssp":
        command.append("--weights")
    finished = subprocess.run(command, capture_output=True, text=True)
    if finished.returncode != 0:
        sys.exit(f"json_schema_check: {' '.join(command)} failed:\n{finished.stderr}")
    with open(path) as file:
        return json.load(file)


def main(courier, schema_path):
    with open(schema_path) as file:
        schema = json.load(file)
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    documents = {}
    with tempfile.TemporaryDirectory() as directory:
        for algorithm, engine in pairs(courier):
            documents[(algorithm, engine)] = run(courier, algorithm, engine, directory)
    failures = []
    for (algorithm, engine), document in documents.items():
        for error in validator.iter_errors(document):
            failures.append(f"{algorithm} on {engine}: {'/'.join(map(str, error.absolute_path))}: {error.message}")
    if len(documents) < 20:
        failures.append(f"only {len(documents)} algorithm x engine pairs in `courier list`")
    # Each document broken on purpose must be rejected.
    vertex_bfs = documents[("bfs", "vertex")]
    broken = {
        "a required field missing": lambda d: d.pop("times"),
        "an unknown top-level field": lambda d: d.update(extra=1),
        "a summary field renamed": lambda d: d["summary"].update(reached_count=d["summary"].pop("reached")),
        "a round's direction misspelt": lambda d: d["engine_stats"]["per_round"][0].update(direction="sideways"),
        "a count negative": lambda d: d.update(edges=-1),
    }
    for what, breaking in broken.items():
        document = copy.deepcopy(vertex_bfs)
        breaking(document)
        if validator.is_valid(document):
            failures.append(f"the schema accepts bfs on vertex with {what}")
    for failure in failures:
        print(failure)
    print(f"json schema: {len(documents)} documents checked, {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
