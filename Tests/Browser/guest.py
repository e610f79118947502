"""Opens a guest's link in headless Chromium at a phone's size (390x844) and prints, as one JSON
object, the size the browser decoded the page's picture at (0x0 when it could not show it); given
an e-mail address too, types it into the page's form, sends it, and says what the page answered.
Run by Tests/CommandLineTests/HEICGuestPageTests.swift and MailTests.swift:
/usr/bin/python3 guest.py URL [ADDRESS]."""

import json
import sys

import browser
from selenium.webdriver.common.by import By

driver, wait = browser.start()
seen = {}
try:
    driver.set_window_size(390, 844)
    driver.get(sys.argv[1])
    wait.until(lambda d: d.execute_script("const i = document.querySelector('main img'); return i && i.complete"))
    size = driver.execute_script("const i = document.querySelector('main img'); return [i.naturalWidth, i.naturalHeight, i.getAttribute('src')]")
    seen = {"width": size[0], "height": size[1], "src": size[2],
            "download": driver.execute_script("const a = document.getElementById('download'); return a && a.getAttribute('href')"),
            "mail_form": len(driver.find_elements(By.ID, "mail")) > 0}
    if len(sys.argv) > 2:
        driver.find_element(By.ID, "address").send_keys(sys.argv[2])
        driver.find_element(By.CSS_SELECTOR, "#mail button").click()
        wait.until(lambda d: d.find_element(By.ID, "mailsaid").text not in ("", "Sending…"))
        seen["mail_said"] = driver.find_element(By.ID, "mailsaid").text
finally:
    driver.quit()
print(json.dumps(seen))
