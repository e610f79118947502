"""Many hands at once against a running `camctl serve`: mixed requests (booths, photos, captures
with a countdown or a review, bursts, compositions, reviews, verdicts, picture and settings
changes, prints) sent by several clients at a time, as a booth's page, phones, a push-button and a
script would, and what came back checked:

    many-hands.py PORT TOKEN [REQUESTS [CLIENTS [SEED]]]

- every request is answered: 200, or 409 with one sentence (the flow that holds the stage);
- every booth's picture is made of its own shots: its answer lists its two shots, and the picture
  of a 2x2 grid of two; no shot is in two booths' answers, and nothing in the booth album but
  booths' shots and composed pictures;
- the server still answers once all is done.

CLIENTS stays under the server's 32 connections from one address. Prints one JSON object (the
statuses counted, and each problem found) and exits 1 when a problem was found. Uses only the
standard library (Debian's /usr/bin/python3)."""

import json
import random
import sys
import threading
import urllib.error
import urllib.request

BOOTH = {"action": "booth", "shots": 2, "countdown": 0, "show_shots": 0, "show_result": 0, "layout": "2x2"}
# The 2x2 grid of two 640x480 shots: two 640-pixel cells and three margins of 16, one row.
BOOTH_PICTURE = (2 * 640 + 3 * 16, 480 + 2 * 16)


def kinds(rng):
    """A request: its name, method, path and body."""
    return rng.choice([
        ("booth", "POST", "/api/actions", BOOTH),
        ("booth", "POST", "/api/actions", BOOTH),
        ("photo", "POST", "/api/capture", {}),
        ("photo", "POST", "/api/capture", {}),
        ("countdown photo", "POST", "/api/capture", {"countdown": 0.2}),
        ("reviewed photo", "POST", "/api/capture", {"review": True, "timeout": 0.3}),
        ("burst", "POST", "/api/actions", {"action": "burst", "count": 2}),
        ("compose", "POST", "/api/actions", {"action": "compose"}),
        ("review", "POST", "/api/actions", {"action": "review", "timeout": 0.3}),
        ("keep", "POST", "/api/actions", {"action": "keep"}),
        ("discard", "POST", "/api/actions", {"action": "discard"}),
        ("cut short", "POST", "/api/actions", {"action": "cut_short"}),
        ("image", "POST", "/api/actions", {"action": "image", "filter": rng.choice(["sepia", "mono", "none"])}),
        ("settings", "PUT", "/api/settings", {"countdown": rng.choice([1, 2, 3]), "filter": rng.choice(["", "warm"])}),
        ("print", "POST", "/api/actions", {"action": "print", "id": 1}),
        ("status", "GET", "/api/status", None),
    ])


def send(port, token, method, path, body):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request("http://127.0.0.1:%d%s" % (port, path), data=data, method=method)
    request.add_header("Authorization", "Bearer " + token)
    if data is not None:
        request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=120) as response:
            return response.status, json.loads(response.read() or b"{}")
    except urllib.error.HTTPError as error:
        raw = error.read()
        try:
            return error.code, json.loads(raw)
        except ValueError:
            return error.code, {"raw": raw.decode(errors="replace")}
    except OSError as error:
        return 0, {"error": str(error)}


def main(arguments):
    if len(arguments) < 3:
        print(__doc__, file=sys.stderr)
        return 64
    port, token = int(arguments[1]), arguments[2]
    count = int(arguments[3]) if len(arguments) > 3 else 200
    clients = int(arguments[4]) if len(arguments) > 4 else 16
    rng = random.Random(int(arguments[5]) if len(arguments) > 5 else 1)
    work = [kinds(rng) for _ in range(count)]
    # Only what this run makes is checked: photos already there are left out.
    _, before = send(port, token, "GET", "/api/photos?offset=0&limit=1", None)
    known = before.get("total", 0)
    answers, lock = [], threading.Lock()

    def client():
        while True:
            with lock:
                if not work:
                    return
                kind, method, path, body = work.pop()
            status, answer = send(port, token, method, path, body)
            with lock:
                answers.append((kind, status, answer))

    threads = [threading.Thread(target=client) for _ in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    problems, statuses = [], {}
    for kind, status, answer in answers:
        statuses[str(status)] = statuses.get(str(status), 0) + 1
        if status == 409 and not str(answer.get("error", "")).strip():
            problems.append("%s: 409 without a sentence: %s" % (kind, answer))
        elif status not in (200, 409):
            problems.append("%s: answered %d: %s" % (kind, status, answer))
    booth_shots, compositions = {}, set()
    for kind, status, answer in answers:
        if status == 200 and (answer.get("composed") or {}).get("id"):
            compositions.add(answer["composed"]["id"])
        if kind != "booth" or status != 200:
            continue
        photos, composed = answer.get("photos", []), answer.get("composed") or {}
        if len(photos) != 2 or (composed.get("width"), composed.get("height")) != BOOTH_PICTURE:
            problems.append("a booth's picture is not of its own two shots: %d shots, %sx%s"
                            % (len(photos), composed.get("width"), composed.get("height")))
        for photo in photos:
            if photo.get("id") in booth_shots:
                problems.append("photo %s is in two booths' answers" % photo.get("id"))
            booth_shots[photo.get("id")] = True
    listed, offset = [], 0
    while True:
        status, page = send(port, token, "GET", "/api/photos?offset=%d&limit=200" % offset, None)
        if status != 200:
            problems.append("the library could not be listed afterwards: %d" % status)
            break
        listed += page.get("photos", [])
        offset += 200
        if offset >= page.get("total", 0):
            break
    listed.sort(key=lambda photo: photo.get("id", 0))
    for photo in listed[known:]:
        in_booth = "booth" in (photo.get("albums") or [])
        is_shot = photo.get("id") in booth_shots
        if in_booth and not is_shot and photo.get("id") not in compositions:
            problems.append("photo %s is in the booth album but in no booth's answer" % photo.get("id"))
    status, _ = send(port, token, "GET", "/api/status", None)
    if status != 200:
        problems.append("the server does not answer afterwards: %d" % status)
    print(json.dumps({"requests": len(answers), "statuses": statuses, "booths": len(booth_shots) // 2,
                      "photos": len(listed) - known, "problems": problems[:20]}))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
