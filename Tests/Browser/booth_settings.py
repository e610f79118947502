"""Sets a served booth's caption, clip, codec, screen colour and copies on the page in headless
Chromium, reloads it, asks it to sample the screen's colour, runs a booth from it, and prints what it saw as one JSON object. Run by
Tests/CommandLineTests/SettingsPageTests.swift: /usr/bin/python3 booth_settings.py BASE_URL."""

import json
import sys
import urllib.request

import browser
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

base = sys.argv[1]
seen = {}
driver, wait = browser.start()
try:
    driver.get(base + "/")
    wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#setcodec option")) == 2)
    driver.find_element(By.CSS_SELECTOR, "#settings summary").click()
    for field, value in [("setcaption", "Anna & Ben"), ("setkey", "#00B140"), ("setcountdown", "0"), ("setshots", "2")]:
        element = driver.find_element(By.ID, field)
        element.clear()
        element.send_keys(value)
    Select(driver.find_element(By.ID, "setanimation")).select_by_value("gif")
    Select(driver.find_element(By.ID, "setcodec")).select_by_value("hevc")
    driver.find_element(By.ID, "savesettings").click()
    wait.until(lambda d: d.find_element(By.ID, "message").text.startswith("Settings saved in "))
    # A new visit shows what was saved.
    driver.get(base + "/")
    wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#setcodec option")) == 2)
    wait.until(lambda d: d.find_element(By.ID, "setcaption").get_attribute("value") != "")
    seen["shown"] = {field: driver.find_element(By.ID, field).get_attribute("value")
                     for field in ["setcaption", "setkey", "setanimation", "setcodec", "setcopies"]}
    # A wrong screen colour is refused in one sentence, and changes nothing.
    driver.find_element(By.CSS_SELECTOR, "#settings summary").click()
    key = driver.find_element(By.ID, "setkey")
    key.clear()
    key.send_keys("greenish")
    driver.find_element(By.ID, "savesettings").click()
    wait.until(lambda d: "key_color" in d.find_element(By.ID, "message").text)
    seen["refused"] = driver.find_element(By.ID, "message").text
    # Sample the screen: the test camera's colour bars are no screen, which the page says.
    driver.find_element(By.ID, "samplekey").click()
    wait.until(lambda d: "screen" in d.find_element(By.ID, "message").text)
    seen["sample_refused"] = driver.find_element(By.ID, "message").text
    # The booth takes its clip and codec from the settings: what it kept, as the library says
    # (a page that lags may miss events, which the server drops for a client too slow to read them).
    driver.find_element(By.ID, "booth").click()
    wait.until(lambda d: d.find_element(By.ID, "message").text == "Saved.")

    def kept():
        return json.load(urllib.request.urlopen(base + "/api/photos?album=booth"))["photos"]
    wait.until(lambda d: any(p["kind"] == "movie" for p in kept()) and all(p["state"] != "processing" for p in kept()))
    seen["animation"] = [p["codec"] for p in kept() if p["kind"] == "movie"]
    seen["shot_codecs"] = [p["codec"] for p in kept() if p["kind"] != "movie" and not p.get("composed")]
finally:
    driver.quit()
print(json.dumps(seen))
