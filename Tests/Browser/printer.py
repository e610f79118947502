"""Runs a printed booth from camctl serve's kiosk view in headless Chromium, then reads the owner's
page's printer line, printing what each showed as one JSON object. Run by
Tests/CommandLineTests/PrintCommandTests.swift: /usr/bin/python3 printer.py BASE_URL."""

import json
import sys

import browser
from selenium.webdriver.common.by import By

base = sys.argv[1]
seen = {}
driver, wait = browser.start()
try:
    browser.open_kiosk(driver, wait, base)
    driver.find_element(By.ID, "kioskshutter").click()
    # The guest sees the print start and end on the kiosk.
    wait.until(lambda d: d.find_element(By.ID, "printstatus").text == "Printed: take it from the printer.")
    seen["kiosk_printed_shown"] = driver.find_element(By.ID, "printstatus").is_displayed()
    # The owner sees the printer's state, supplies and count on the page's settings.
    driver.get(base + "/")
    driver.find_element(By.CSS_SELECTOR, "#settings summary").click()
    wait.until(lambda d: d.find_element(By.ID, "printerstate").text != "")
    seen["owner_printer_line"] = driver.find_element(By.ID, "printerstate").text
finally:
    driver.quit()
print(json.dumps(seen))
