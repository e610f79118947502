"""Opens a guest's link in headless Chromium at a phone's size (390x844) and prints, as one JSON
object, the size the browser decoded the page's picture at (0x0 when it could not show it). Run by
Tests/CommandLineTests/HEICGuestPageTests.swift: /usr/bin/python3 guest.py URL."""

import json
import sys

import browser

driver, wait = browser.start()
try:
    driver.set_window_size(390, 844)
    driver.get(sys.argv[1])
    wait.until(lambda d: d.execute_script("const i = document.querySelector('main img'); return i && i.complete"))
    size = driver.execute_script("const i = document.querySelector('main img'); return [i.naturalWidth, i.naturalHeight, i.getAttribute('src')]")
    download = driver.execute_script("const a = document.getElementById('download'); return a && a.getAttribute('href')")
finally:
    driver.quit()
print(json.dumps({"width": size[0], "height": size[1], "src": size[2], "download": download}))
