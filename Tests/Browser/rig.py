"""Drives a rig page (camctl fleet serve) in headless Chromium as a rig's operator would, and
prints what it saw as JSON lines. Run by Tests/CommandLineTests/RigPageTests.swift with Debian's
Python: /usr/bin/python3 rig.py BASE_URL NODES LOST_NODE.

First every node's tile shows its live picture, the shutter takes a photo on every node and
Collect brings them into the controller's library (a line with "phase": "first"); then, once the
test has killed LOST_NODE, its tile turns offline, and the next capture shows it missed (a line
with "phase": "second")."""

import json
import sys

import browser
from selenium.webdriver.common.by import By

base, nodes, lost = sys.argv[1], int(sys.argv[2]), sys.argv[3]


def tile_sizes(driver):
    """Each tile's picture as the browser decoded it: node, width, height."""
    return driver.execute_script(
        "return [...document.querySelectorAll('.tile')].map(t => [t.dataset.node, t.querySelector('img').naturalWidth,"
        " t.querySelector('img').naturalHeight])")


driver, wait = browser.start()
try:
    driver.get(base + "/")
    wait.until(lambda d: d.find_element(By.ID, "counts").get_attribute("data-shown") == str(nodes))
    # Read when every tile holds a picture: one being fetched again holds none for a moment.
    wait.until(lambda d: all(width > 0 for _, width, _ in tile_sizes(d)))
    first = {"phase": "first", "tiles": tile_sizes(driver)}
    # Tiles keep coming: a tile's picture is fetched again once it has shown.
    counts = driver.execute_script("return [...document.querySelectorAll('.tile img')].map(i => i.src)")
    wait.until(lambda d: d.execute_script("return [...document.querySelectorAll('.tile img')].map(i => i.src)") != counts)
    first["tiles_refreshed"] = True
    driver.find_element(By.ID, "shutter").click()
    wait.until(lambda d: d.find_element(By.ID, "lastcapture").text.startswith("capture at "))
    first["capture"] = driver.find_element(By.ID, "lastcapture").text
    wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, ".tile .caption a")) == nodes)
    first["last_photo_links"] = [a.get_attribute("href") for a in driver.find_elements(By.CSS_SELECTOR, ".tile .caption a")]
    driver.find_element(By.ID, "collect").click()
    wait.until(lambda d: d.find_element(By.ID, "collection").get_attribute("data-state") == "finished")
    first["collection"] = driver.find_element(By.ID, "collection").text
    print(json.dumps(first), flush=True)

    lost_tile = f".tile[data-node='{lost}']"
    wait.until(lambda d: "offline" in d.find_element(By.CSS_SELECTOR, lost_tile).get_attribute("class"))
    second = {"phase": "second", "offline": True}
    driver.find_element(By.ID, "shutter").click()
    wait.until(lambda d: d.find_element(By.ID, "lastcapture").text != first["capture"] and
               d.find_element(By.ID, "lastcapture").text.startswith("capture at "))
    second["capture"] = driver.find_element(By.ID, "lastcapture").text
    wait.until(lambda d: "missed" in d.find_element(By.CSS_SELECTOR, lost_tile).get_attribute("class"))
    second["lost_caption"] = driver.find_element(By.CSS_SELECTOR, lost_tile + " .caption").text
    print(json.dumps(second), flush=True)
finally:
    driver.quit()
