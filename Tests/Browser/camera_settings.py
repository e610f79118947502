"""Sets a served DSLR's own setting from the page's camera settings in headless Chromium, as a
booth's owner would, and prints what it saw as one JSON object. Run by
Tests/CommandLineTests/DSLRTests.swift with Debian's Python: /usr/bin/python3 camera_settings.py BASE_URL NAME VALUE."""

import json
import sys

import browser
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

base, name, value = sys.argv[1], sys.argv[2], sys.argv[3]
seen = {}

driver, wait = browser.start()
try:
    driver.get(base + "/")
    # The section shows once the camera's settings are read.
    wait.until(lambda d: d.find_element(By.ID, "camerasettings").get_attribute("hidden") is None)
    driver.find_element(By.CSS_SELECTOR, "#camerasettings summary").click()
    seen["offered"] = [o.get_attribute("value") for o in driver.find_elements(By.CSS_SELECTOR, "#camsetting option")]
    Select(driver.find_element(By.ID, "camsetting")).select_by_value(name)
    Select(driver.find_element(By.ID, "camvalue")).select_by_value(value)
    driver.find_element(By.ID, "setcamera").click()
    wait.until(lambda d: d.find_element(By.ID, "message").text.endswith(" is now " + value + "."))
    seen["message"] = driver.find_element(By.ID, "message").text
    seen["shown"] = Select(driver.find_element(By.ID, "camvalue")).first_selected_option.get_attribute("value")
finally:
    driver.quit()
print(json.dumps(seen))
