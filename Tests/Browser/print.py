"""Prints from camctl serve's page in headless Chromium, as a guest at a booth would: the picture
just taken, then one chosen in the gallery; prints what it saw as one JSON object. Run by
Tests/CommandLineTests/PrintCommandTests.swift with Debian's Python: /usr/bin/python3 print.py BASE_URL."""

import json
import sys

import browser
from selenium.webdriver.common.by import By

base = sys.argv[1]
seen = {}

driver, wait = browser.start()


def message(d):
    return d.find_element(By.ID, "message").text


def offered(d):
    return d.find_element(By.ID, "guestlink").get_attribute("href") or ""


try:
    driver.get(base + "/")
    # Two photos from the shutter; the second is offered to take home, with Print.
    for count in (1, 2):
        driver.find_element(By.ID, "shutter").click()
        wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#gallery a")) == count)
    wait.until(lambda d: d.find_element(By.ID, "takehome").is_displayed() and "/p/2-" in offered(d))
    seen["print_shown"] = driver.find_element(By.ID, "print").is_displayed()
    driver.find_element(By.ID, "print").click()
    wait.until(lambda d: message(d) == "Printed.")
    seen["result_printed"] = True

    # The first photo chosen in the gallery is offered instead, and printed.
    driver.execute_script("document.getElementById('message').textContent = ''")
    driver.find_element(By.CSS_SELECTOR, "#gallery a[data-id='1']").click()
    wait.until(lambda d: "/p/1-" in offered(d))
    seen["gallery_offered"] = driver.current_url.rstrip("/") == base.rstrip("/")
    driver.find_element(By.ID, "print").click()
    wait.until(lambda d: message(d) == "Printed.")
    seen["gallery_printed"] = True
finally:
    driver.quit()
print(json.dumps(seen))
