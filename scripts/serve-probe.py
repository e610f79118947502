"""Measures a running `camctl serve` for the serve benchmarks (Sources/camctl-bench/ServeBenchmarks.swift):

    serve-probe.py snapshot PORT COUNT          request-to-last-byte times of /snapshot.jpg, each of a new frame, in ms
    serve-probe.py snapshots PORT CLIENTS COUNT COUNT times CLIENTS clients asking for /snapshot.jpg at once:
                                                the first request to the last client's last byte, in ms
    serve-probe.py stream PORT VIEWERS SECONDS  capture-to-last-byte times of /stream.mjpg parts, in ms,
                                                and camctl's CPU seconds meanwhile (PID from /api/status's server)

Prints one JSON object. Uses only the standard library (Debian's /usr/bin/python3)."""

import json
import socket
import sys
import threading
import time


def request(port, path):
    """A GET on a new connection, read to its end; the seconds it took."""
    start = time.perf_counter()
    connection = socket.create_connection(("127.0.0.1", port))
    connection.sendall(("GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n" % path).encode())
    while connection.recv(1 << 16):
        pass
    connection.close()
    return time.perf_counter() - start


def cpu_seconds(pid):
    fields = open("/proc/%d/stat" % pid).read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / 100.0  # utime and stime, in clock ticks of 1/100 s


def view(port, seconds, latencies, lock):
    """Reads the stream's parts for `seconds`, noting each part's capture-to-last-byte time."""
    connection = socket.create_connection(("127.0.0.1", port))
    connection.sendall(b"GET /stream.mjpg HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    stream = connection.makefile("rb")
    while stream.readline().strip():  # the response's headers
        pass
    end = time.monotonic() + seconds
    mine = []
    while time.monotonic() < end:
        headers = {}
        while True:
            line = stream.readline()
            if not line:
                break
            line = line.strip()
            if not line:
                if headers:
                    break
                continue
            if b":" in line:
                name, value = line.split(b":", 1)
                headers[name.strip().lower()] = value.strip()
        if b"content-length" not in headers:
            continue
        stream.read(int(headers[b"content-length"]))
        arrived = time.clock_gettime_ns(time.CLOCK_MONOTONIC)
        if b"x-captured-monotonic" in headers:
            mine.append((arrived - int(headers[b"x-captured-monotonic"])) / 1e6)
    connection.close()
    with lock:
        latencies.extend(mine)


mode, port = sys.argv[1], int(sys.argv[2])
if mode == "snapshot":
    request(port, "/snapshot.jpg")  # the first one starts nothing new, but warms the connection path
    times = []
    for _ in range(int(sys.argv[3])):
        time.sleep(0.05)  # more than a frame interval apart, so each asks for a frame not yet encoded
        times.append(request(port, "/snapshot.jpg") * 1000)
    print(json.dumps({"ms": times}))
elif mode == "snapshots":
    clients, rounds = int(sys.argv[3]), int(sys.argv[4])
    request(port, "/snapshot.jpg")
    times = []
    for _ in range(rounds):
        time.sleep(0.05)  # more than a frame interval apart, so each round asks for a frame not yet encoded
        together = threading.Barrier(clients + 1)
        threads = [threading.Thread(target=lambda: (together.wait(), request(port, "/snapshot.jpg"))) for _ in range(clients)]
        for thread in threads:
            thread.start()
        together.wait()
        start = time.perf_counter()
        for thread in threads:
            thread.join()
        times.append((time.perf_counter() - start) * 1000)
    print(json.dumps({"ms": times}))
else:
    viewers, seconds, pid = int(sys.argv[3]), float(sys.argv[4]), int(sys.argv[5])
    latencies, lock = [], threading.Lock()
    threads = [threading.Thread(target=view, args=(port, seconds + 1, latencies, lock)) for _ in range(viewers)]
    for thread in threads:
        thread.start()
    time.sleep(1)  # every viewer connected and reading
    before = cpu_seconds(pid)
    time.sleep(seconds)
    cpu = cpu_seconds(pid) - before
    for thread in threads:
        thread.join()
    print(json.dumps({"ms": latencies, "cpu": cpu}))
