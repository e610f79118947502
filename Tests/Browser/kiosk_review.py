"""Runs one guest's reviewed booth from camctl serve's kiosk view in headless Chromium and asks the
page for its attract screen (as its timer does once a result has stood its time) while the picture
waits for Save, then after Save; prints what it saw as one JSON object. Run by
Tests/CommandLineTests/KioskGuestsTests.swift: /usr/bin/python3 kiosk_review.py BASE_URL."""

import json
import sys

import browser
from selenium.webdriver.common.by import By

base = sys.argv[1]
seen = {}
driver, wait = browser.start()


def attracting(d):
    return d.execute_script("return document.body.classList.contains('attract')")


try:
    browser.open_kiosk(driver, wait, base)
    wait.until(attracting)
    driver.find_element(By.ID, "kioskshutter").click()
    # The picture waits for the guest's Save or Cancel.
    wait.until(lambda d: d.find_element(By.ID, "save").is_displayed())
    wait.until(lambda d: d.execute_script("return reviewWaits"))
    driver.execute_script("attract()")
    seen["attract_while_reviewing"] = attracting(driver)
    seen["save_shown_after"] = driver.find_element(By.ID, "save").is_displayed()
    driver.find_element(By.ID, "save").click()
    # The kept picture's code, then the attract screen once asked for, with nothing of the guest.
    wait.until(lambda d: d.find_element(By.ID, "takehome").is_displayed())
    wait.until(lambda d: not d.execute_script("return reviewWaits"))
    driver.execute_script("attract()")
    seen["attract_after_save"] = attracting(driver)
    seen["takehome_after"] = driver.find_element(By.ID, "takehome").is_displayed()
finally:
    driver.quit()
print(json.dumps(seen))
