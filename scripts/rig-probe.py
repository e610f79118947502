"""Measures a rig of camctl nodes (scripts/rig: each node in a network namespace of its own,
behind a rate-limited link) for the fleet benchmarks (Sources/camctl-bench/FleetBenchmarks.swift).
Run as root with Debian's Python:

    rig-probe.py CAMCTL NODES ROUNDS FOLDER [nats]

Each node's library starts with one photo of about 1 MB. Then, in the controller's namespace
(its uplink 1 Gbit/s):
  - collection: those photos collected by `camctl fleet collect` side by side (its default), then
    again one at a time (--concurrency 1, as the collector was), each into a folder of its own,
    and side by side again into memory (a tmpfs folder), where nothing waits for a disk;
  - fan-out: ROUNDS commands to the whole fleet (a one-photo listing each), publication to the
    last answer, in ms; and the processor time the nodes and the broker spend on one, beyond
    their idle work, which over this machine's cores is the least a fan-out can take here;
  - skew: ROUNDS synchronized captures one second ahead, the latest less the earliest frame
    instant, in ms, and each node's distance from the instant;
  - the rig page: `camctl fleet serve` in the controller's namespace, opened ROUNDS times in
    headless Chromium (outside the namespaces, reaching every address through the bridge): the
    seconds from asking for the page to every node's tile showing its picture, against a static
    page of the same tile links as bare images; the controller's share of a core while the page
    shows every tile, and the tiles' pictures a second;
  - loss: 10 synchronized captures while 10 % of the nodes are killed (SIGKILL) and started again
    and the broker is restarted twice, then one collection: how many photos the nodes reported
    saved are not in it.
With `nats`, the rig's broker is a cluster of three nats-server servers, and only the loss is
measured, one of its servers killed and started again where the broker is restarted.
Prints one JSON object."""

import importlib.machinery
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import types

here = os.path.dirname(os.path.abspath(__file__))


def load(name, file):
    """A script of this folder as a module."""
    loader = importlib.machinery.SourceFileLoader(name, os.path.join(here, file))
    module = types.ModuleType(loader.name)
    loader.exec_module(module)
    return module


rig_module = load("rig", "rig")
fleet_probe = load("fleet_probe", "fleet-probe.py")
sys.path.insert(0, os.path.join(here, "..", "Tests", "Browser"))


def cpu_seconds(pid):
    """The processor time a process has used so far: user and system, in seconds."""
    with open("/proc/%d/stat" % pid) as stat:
        fields = stat.read().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def measure_page(rig, camctl, folder, fleet, nodes, rounds):
    """The rig page's figures: each load's seconds to every tile showing, the same tiles' as bare
    images, the controller's share of a core while every tile shows, and the tiles' pictures a second."""
    import browser  # Tests/Browser's: selenium and Debian's chromium
    library = os.path.join(folder, "controller")
    url = "http://%s:8090/" % rig.controller["address"]
    server = subprocess.Popen(["ip", "netns", "exec", rig.controller["namespace"], camctl, "fleet", "serve", "--broker", rig.broker_url,
                               "--fleet", fleet, "--library", library, "--listen", rig.controller["address"] + ":8090", "--json"],
                              stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, start_new_session=True)
    driver = None
    try:
        if "serving" not in server.stdout.readline():
            raise SystemExit("rig-probe: camctl fleet serve did not start")
        with open(os.path.join(library, "serve-token")) as file:
            token = file.read().strip()
        driver, wait = browser.start()
        shown = "return document.querySelectorAll('.tile[data-shown]').length"
        loads = []
        for _ in range(rounds):
            driver.get("about:blank")
            start = time.monotonic()
            driver.get(url + "?token=" + token)
            wait.until(lambda d: d.execute_script(shown) >= nodes)
            loads.append(time.monotonic() - start)
        tiles = driver.execute_script("return [...document.querySelectorAll('.tile img')].map(i => i.src.split('?')[0])")
        # The tiles keep coming: the controller's work and the pictures' rate over ten seconds.
        counted = "return [...document.querySelectorAll('.tile img')].reduce((n, i) => n + Number(new URL(i.src).searchParams.get('n')), 0)"
        pictures, cpu, began = driver.execute_script(counted), cpu_seconds(server.pid), time.monotonic()
        time.sleep(10)
        seconds = time.monotonic() - began
        tile_fps = (driver.execute_script(counted) - pictures) / seconds / nodes
        controller_cores = (cpu_seconds(server.pid) - cpu) / seconds
        # The floor: the same links as bare images in a page of nothing else.
        bare = os.path.join(folder, "bare.html")
        with open(bare, "w") as page:
            page.write("<!doctype html><body>" + "".join('<img width="150" src="%s?b=%d">' % (tile, index) for index, tile in enumerate(tiles)))
        done = "return [...document.images].every(i => i.complete && i.naturalWidth > 0)"
        bare_loads = []
        for round in range(rounds):
            driver.get("about:blank")
            start = time.monotonic()
            driver.get("file://%s?round=%d" % (bare, round))
            wait.until(lambda d: d.execute_script(done))
            bare_loads.append(time.monotonic() - start)
        return dict(page_load_seconds=loads, bare_load_seconds=bare_loads, controller_cores=controller_cores, tile_fps=tile_fps)
    finally:
        if driver:
            driver.quit()
        server.terminate()
        try:
            server.wait(30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def stem():
    return time.strftime("%Y%m%d-%H%M%S", time.localtime()) + ".%03d-" % random.randrange(1000) + \
        "".join(random.choice("abcdefghijkmnpqrstuvwxyz23456789") for _ in range(6))


def main():
    camctl, nodes, rounds, folder = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    cluster = sys.argv[5:] == ["nats"]
    # What it starts inherits no blocked signal (mosquitto_sub -W needs SIGALRM; its parent may block
    # some); SIGTERM takes the rig down as an error does.
    def interrupted(number, frame):
        raise KeyboardInterrupt
    signal.signal(signal.SIGTERM, interrupted)
    signal.pthread_sigmask(signal.SIG_SETMASK, set())
    os.makedirs(folder, exist_ok=True)
    # One photo of about 1 MB (random pixels do not compress), put in each node's library, which
    # indexes it when the node opens it.
    photo = os.path.join(folder, "photo.jpg")
    subprocess.run(["gst-launch-1.0", "-q", "videotestsrc", "num-buffers=1", "pattern=snow", "!", "video/x-raw,width=1280,height=960",
                    "!", "jpegenc", "quality=90", "!", "filesink", "location=" + photo], check=True)
    size = os.path.getsize(photo)
    options = types.SimpleNamespace(nodes=nodes, camctl=os.path.abspath(camctl), fleet="bench", resolution="320x240@5",
                                    link="100mbit", uplink="1gbit", folder=folder, timeout=600, broker="nats" if cluster else "mosquitto")
    rig = rig_module.Rig(options)
    result = {"nodes": nodes, "photo_bytes": size}
    listeners = []  # the watcher and the publisher, stopped with the rig
    try:
        rig.make_network()
        rig.start_broker()
        for index in range(1, nodes + 1):
            library = os.path.join(folder, "n%d" % index)
            os.makedirs(library, exist_ok=True)
            with open(photo, "rb") as source, open(os.path.join(library, stem() + ".jpg"), "wb") as copy:
                copy.write(source.read())
            rig.make_node(index)
        missing = rig.online(options.timeout)
        if missing:
            raise SystemExit("rig-probe: %d nodes did not come online" % len(missing))
        fleet = ["--broker", rig.broker_url, "--fleet", options.fleet, "--nodes", str(nodes), "--timeout", "120"]

        def collect(into, *more):
            start = time.monotonic()
            ran = rig.run([camctl, "fleet", "collect", "--into", os.path.join(folder, into), "--json", *fleet, *more])
            seconds = time.monotonic() - start
            records = [json.loads(line) for line in ran.stdout.splitlines() if line.startswith("{")]
            return seconds, records, ran.returncode, ran.stderr

        if cluster:
            result.update(count_losses(rig, camctl, options.fleet, collect, watcher=None))
        else:
            measure_all(rig, camctl, options, folder, nodes, rounds, size, collect, listeners, result)
    finally:
        for listener in listeners:
            if listener.process.poll() is None:
                listener.process.kill()
                listener.process.wait()
        rig.take_down()
    print(json.dumps(result))


def measure_all(rig, camctl, options, folder, nodes, rounds, size, collect, listeners, result):
    """Everything but the cluster's loss: collection, fan-out, skew, the page, and the loss through
    a mosquitto broker restarted."""
    parallel, records, status, errors = collect("side-by-side")
    if status != 0:
        raise SystemExit("rig-probe: the collection failed: " + errors[-500:])
    one_at_a_time, _, status, errors = collect("one-at-a-time", "--concurrency", "1")
    if status != 0:
        raise SystemExit("rig-probe: the one-at-a-time collection failed: " + errors[-500:])
    # The same into memory: what writing durably to disk adds.
    memory = tempfile.mkdtemp(prefix="camctl-rig-collect-", dir="/dev/shm")
    try:
        in_memory, _, status, errors = collect(memory)
    finally:
        shutil.rmtree(memory, ignore_errors=True)
    if status != 0:
        raise SystemExit("rig-probe: the collection into memory failed: " + errors[-500:])
    result.update(collect_seconds=parallel, collect_one_at_a_time_seconds=one_at_a_time, collect_memory_seconds=in_memory,
                  collect_bytes=sum(1 for record in records if record.get("result") == "collected") * size,
                  uplink_bits_per_second=1e9)

    watcher = fleet_probe.Watcher(["ip", "netns", "exec", rig.controller["namespace"], "mosquitto_sub", "-h", str(rig.bridge_address),
                                   "-p", str(rig.broker_port), "-q", "1", "-t", "camctl/%s/+/events" % options.fleet, "-v"])
    listeners.append(watcher)
    publisher = subprocess.Popen(["ip", "netns", "exec", rig.controller["namespace"], "mosquitto_pub", "-h", str(rig.bridge_address),
                                  "-p", str(rig.broker_port), "-q", "1", "-t", "camctl/%s/command" % options.fleet, "-l"],
                                 stdin=subprocess.PIPE, text=True)
    listeners.append(types.SimpleNamespace(process=publisher))
    time.sleep(1)

    def send(command):
        publisher.stdin.write(json.dumps(command) + "\n")
        publisher.stdin.flush()
        return time.monotonic()

    fanout, skews, offsets, _ = fleet_probe.measure_rounds(send, watcher.answers, nodes, rounds, patience=20)
    result.update(fanout_ms=fanout, skew_ms=skews, offset_ms=offsets)
    result.update(command_cost(rig, send, watcher, nodes))
    publisher.stdin.close()
    publisher.wait()

    result.update(measure_page(rig, camctl, folder, options.fleet, nodes, rounds))

    result.update(count_losses(rig, camctl, options.fleet, collect, watcher))


def command_cost(rig, send, watcher, nodes, commands=5):
    """The processor time the nodes and the broker spend on one command to the whole fleet (a
    one-photo listing), beyond what they spend meanwhile without one (the cameras run on): with
    this machine's cores, the least a fan-out can take here."""
    processes = [node["process"].pid for node in rig.nodes.values() if node["process"].poll() is None] + [rig.broker.pid]

    def spent():
        return sum(cpu_seconds(pid) for pid in processes)
    before, began = spent(), time.monotonic()
    time.sleep(5)
    idle = (spent() - before) / (time.monotonic() - began)
    before, began = spent(), time.monotonic()
    for index in range(commands):
        command = "cost-%d" % index
        send({"id": command, "action": "photos", "limit": 1, "expires_at": time.time() + 60})
        fleet_probe.wait(lambda: len(watcher.answers(command)) >= nodes, 20)
    busy = spent() - before - idle * (time.monotonic() - began)
    return dict(command_cpu_ms=busy / commands * 1000, cores=os.cpu_count())


def count_losses(rig, camctl, fleet, collect, watcher):
    """Ten captures while a tenth of the nodes are killed and started again and the broker is lost
    twice (mosquitto restarted; a cluster's second server killed, then started again), then one
    collection: the photos the nodes reported saved that it does not hold."""
    reported = set()
    victims = random.sample(sorted(rig.nodes), max(1, len(rig.nodes) // 10))
    for round in range(10):
        if round == 2:
            for name in victims:
                rig.kill_node(name)
        if round == 4:
            for name in victims:
                rig.start_node(name)
        if round in (6, 8) and watcher:
            rig.stop_broker()
            rig.start_broker()
            watcher.restart()
        if round == 6 and not watcher:
            rig.kill_server(1)
            rig.await_servers(timeout=300)
        if round == 8 and not watcher:
            rig.start_server(1)
            rig.await_servers()
        rig.online(120) if round in (5, 7, 9) else None
        ran = rig.run([camctl, "fleet", "capture", "--json", "--broker", rig.broker_url, "--fleet", fleet, "--timeout", "10", "--at", "2"])
        for line in ran.stdout.splitlines():
            record = json.loads(line) if line.startswith("{") else {}
            if record.get("node") and record.get("file_name"):
                reported.add((record["node"], record["file_name"]))
    rig.online(120)
    _, records, status, errors = collect("after")
    kept = {(record["node"], os.path.basename(record["path"])) for record in records if record.get("result") == "collected"}
    return dict(reported=len(reported), lost=len(reported - kept), killed=len(victims), collect_status=status)


main()
