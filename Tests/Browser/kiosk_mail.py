"""Runs one guest's booth from camctl serve's kiosk view in headless Chromium, types an e-mail
address beside the picture's QR code and sends it, and prints what the kiosk said as one JSON
object. Run by Tests/CommandLineTests/MailTests.swift: /usr/bin/python3 kiosk_mail.py BASE_URL ADDRESS."""

import json
import sys
import urllib.request

import browser
from selenium.webdriver.common.by import By

base, address = sys.argv[1], sys.argv[2]
seen = {}
driver, wait = browser.start()
try:
    browser.open_kiosk(driver, wait, base)
    driver.find_element(By.ID, "kioskshutter").click()
    # The guest's result: their composed picture's code (a shot's comes first), and the e-mail form beside it.
    def composed_link():
        photos = json.load(urllib.request.urlopen(base + "/api/photos?composed=true"))["photos"]
        return photos[0]["guest_link"] if photos else None
    wait.until(lambda d: composed_link() is not None)
    link = composed_link()
    wait.until(lambda d: d.find_element(By.ID, "takehome").is_displayed()
               and (d.find_element(By.ID, "guestlink").get_attribute("href") or "").endswith(link))
    seen["link"] = driver.find_element(By.ID, "guestlink").get_attribute("href")
    seen["form_shown"] = driver.find_element(By.ID, "mailform").is_displayed()
    driver.find_element(By.ID, "mailaddress").send_keys(address)
    driver.find_element(By.CSS_SELECTOR, "#mailform button").click()
    wait.until(lambda d: d.find_element(By.ID, "mailsaid").text not in ("", "Sending…"))
    seen["said"] = driver.find_element(By.ID, "mailsaid").text
    seen["address_left"] = driver.find_element(By.ID, "mailaddress").get_attribute("value")
finally:
    driver.quit()
print(json.dumps(seen))
