"""Changes a served booth's settings in headless Chromium, as its operator would, then runs a booth
from the page and prints what it saw as one JSON object. Run by
Tests/CommandLineTests/SettingsPageTests.swift with Debian's Python: /usr/bin/python3 settings.py BASE_URL TEMPLATE."""

import json
import sys
import urllib.request

import browser
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

base, template = sys.argv[1], sys.argv[2]
seen = {}

driver, wait = browser.start()
try:
    driver.get(base + "/")
    # The settings as the server has them, and the templates there are to choose from.
    wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#setlayout option")) > 2)
    seen["layouts_offered"] = [o.get_attribute("value") for o in driver.find_elements(By.CSS_SELECTOR, "#setlayout option")]
    seen["countdown_shown"] = driver.find_element(By.ID, "setcountdown").get_attribute("value")
    driver.find_element(By.CSS_SELECTOR, "#settings summary").click()
    countdown = driver.find_element(By.ID, "setcountdown")
    countdown.clear()
    countdown.send_keys("1")
    Select(driver.find_element(By.ID, "setlayout")).select_by_value(template)
    shots = driver.find_element(By.ID, "setshots")
    shots.clear()
    shots.send_keys("2")
    driver.find_element(By.ID, "savesettings").click()
    # The page says where they are kept: the library's settings file, as serve keeps them by default.
    wait.until(lambda d: d.find_element(By.ID, "message").text.startswith("Settings saved in "))
    seen["saved_message"] = driver.find_element(By.ID, "message").text

    # The next booth, from the page's button: its countdown events, heard as the page hears them.
    driver.execute_script(
        "window.counted = []; window.heard = new EventSource('api/events');"
        "window.heard.onmessage = (m) => { const e = JSON.parse(m.data); if (e.event === 'countdown') window.counted.push(e.seconds_left); };")
    wait.until(lambda d: d.execute_script("return window.heard.readyState === 1"))
    driver.find_element(By.ID, "booth").click()
    wait.until(lambda d: d.find_element(By.ID, "message").text == "Saved.")
    seen["countdowns"] = driver.execute_script("return window.counted")
    photos = json.load(urllib.request.urlopen(base + "/api/photos"))["photos"]
    seen["total"] = len(photos)
    # The composed picture beside the 640x480 shots.
    seen["picture"] = [[p["width"], p["height"]] for p in photos if [p["width"], p["height"]] != [640, 480]]
finally:
    driver.quit()
print(json.dumps(seen))
