"""Measures a fleet of `camctl serve` nodes on this machine for the fleet benchmarks
(Sources/camctl-bench/FleetBenchmarks.swift):

    fleet-probe.py CAMCTL NODES ROUNDS FOLDER

starts a mosquitto broker on a free port and NODES nodes on the test camera at 160x120@30 (their
libraries in FOLDER), then measures ROUNDS times each:
  - fan-out: a command to the whole fleet (a one-photo listing of each library) from its
    publication to the last node's answer, in ms;
  - a synchronized capture one second ahead: each node's frame instant from the asked one, and
    the skew (latest less earliest frame instant), in ms.

Prints one JSON object. Uses only the standard library (Debian's /usr/bin/python3) and the
mosquitto clients."""

import json
import os
import random
import socket
import subprocess
import sys
import threading
import time


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Watcher:
    """The fleet's events, each kept with the moment it was read, as `command` (a mosquitto_sub
    with -v, however it is run) prints them."""

    def __init__(self, command):
        self.command = command
        self.lines = []
        self.lock = threading.Lock()
        self.start()

    def start(self):
        self.process = subprocess.Popen(self.command, stdout=subprocess.PIPE, text=True)
        threading.Thread(target=self.read, args=(self.process,), daemon=True).start()

    def restart(self):
        """Subscribes anew (after the broker was restarted)."""
        self.process.kill()
        self.process.wait()
        self.start()

    def read(self, process):
        for line in process.stdout:
            topic, _, payload = line.partition(" ")
            try:
                event = json.loads(payload)
            except ValueError:
                continue
            with self.lock:
                self.lines.append((time.monotonic(), topic, event))

    def answers(self, command):
        with self.lock:
            return [(moment, topic.split("/")[2], event) for moment, topic, event in self.lines
                    if event.get("id") == command and event.get("event") in ("result", "error")]

    def online(self):
        with self.lock:
            states = {topic.split("/")[2]: event.get("state") for _, topic, event in self.lines if topic.endswith("/status")}
        return sum(1 for state in states.values() if state == "online")


def wait(condition, seconds):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if condition():
            return True
        time.sleep(0.01)
    return condition()


def measure_rounds(send, answers_to, nodes, rounds, patience=12):
    """ROUNDS times, a command to the whole fleet (a one-photo listing of each library) and a
    synchronized capture one second ahead, sent by `send` (which returns the moment it sent) and
    answered as `answers_to(command)` says: the fan-outs, the skews and the offsets in ms, and
    the photos missing. Waits at most `patience` seconds for each command's answers."""
    fanout, skews, offsets, missing = [], [], [], 0
    for round in range(rounds):
        command = "fanout-%d" % round
        sent = send({"id": command, "action": "photos", "limit": 1, "expires_at": time.time() + 60})
        wait(lambda: len(answers_to(command)) >= nodes, patience)
        answers = answers_to(command)
        if len(answers) >= nodes:
            fanout.append((max(moment for moment, _, _ in answers) - sent) * 1000)

        command = "capture-%d" % round
        instant = time.time() + 1.0
        send({"id": command, "action": "capture", "at": instant, "expires_at": instant + 2})
        wait(lambda: len(answers_to(command)) >= nodes, patience)
        taken = [event["photos"][0]["captured_at_us"] / 1e6 for _, _, event in answers_to(command)
                 if event.get("event") == "result" and event.get("photos")]
        missing += nodes - len(taken)
        if taken:
            offsets += [(moment - instant) * 1000 for moment in taken]
            skews.append((max(taken) - min(taken)) * 1000)
    return fanout, skews, offsets, missing


def main():
    camctl, nodes, rounds, folder = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    port, fleet = free_port(), "bench%d" % random.randrange(1 << 30)
    broker = subprocess.Popen(["mosquitto", "-p", str(port)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    children = [broker]
    try:
        time.sleep(0.5)
        watcher = Watcher(["mosquitto_sub", "-p", str(port), "-t", "camctl/%s/#" % fleet, "-v"])
        children.append(watcher.process)
        for number in range(nodes):
            children.append(subprocess.Popen(
                [camctl, "serve", "--device", "test", "--resolution", "160x120@30", "--listen", "127.0.0.1:0",
                 "--library", os.path.join(folder, "node%d" % number), "--broker", "mqtt://127.0.0.1:%d" % port,
                 "--fleet", fleet, "--node", "node%d" % number], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        if not wait(lambda: watcher.online() == nodes, 60):
            raise SystemExit("only %d of %d nodes came online" % (watcher.online(), nodes))
        publisher = subprocess.Popen(["mosquitto_pub", "-p", str(port), "-t", "camctl/%s/command" % fleet, "-l"],
                                     stdin=subprocess.PIPE, text=True)
        children.append(publisher)
        time.sleep(1)

        def send(command):
            publisher.stdin.write(json.dumps(command) + "\n")
            publisher.stdin.flush()
            return time.monotonic()

        fanout, skews, offsets, missing = measure_rounds(send, watcher.answers, nodes, rounds)
        print(json.dumps({"nodes": nodes, "fanout_ms": fanout, "skew_ms": skews, "offset_ms": offsets, "missing": missing}))
    finally:
        for child in reversed(children):
            child.terminate()
        for child in children:
            try:
                child.wait(timeout=20)
            except subprocess.TimeoutExpired:
                child.kill()


if __name__ == "__main__":
    main()
