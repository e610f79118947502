"""Pages through camctl serve's gallery in headless Chromium and deletes a photo from it, as the
booth's owner would, printing what it saw as one JSON object. Run by
Tests/CommandLineTests/GalleryTests.swift: /usr/bin/python3 gallery.py BASE_URL."""

import json
import sys
import urllib.request

import browser
from selenium.webdriver.common.by import By

base = sys.argv[1]
seen = {}


def shown(driver):
    return len(driver.find_elements(By.CSS_SELECTOR, "#gallery .item"))


def total():
    return json.load(urllib.request.urlopen(base + "/api/photos"))["total"]


driver, wait = browser.start()
try:
    driver.get(base + "/")
    wait.until(lambda d: shown(d) > 0)
    seen["first_page"] = shown(driver)
    seen["more_shown"] = driver.find_element(By.ID, "more").is_displayed()
    driver.find_element(By.ID, "more").click()
    wait.until(lambda d: shown(d) > seen["first_page"])
    seen["after_more"] = shown(driver)
    seen["more_after"] = driver.find_element(By.ID, "more").is_displayed()
    ids = [item.get_attribute("data-id") for item in driver.find_elements(By.CSS_SELECTOR, "#gallery .item")]
    seen["distinct"] = len(set(ids)) == len(ids)
    # The newest photo, deleted: the owner says no first, then yes.
    newest = ids[0]
    driver.execute_script("window.confirm = () => false")
    driver.find_element(By.CSS_SELECTOR, "#gallery .item .delete").click()
    seen["kept_on_no"] = total()
    driver.execute_script("window.confirm = () => true")
    driver.find_element(By.CSS_SELECTOR, "#gallery .item .delete").click()
    wait.until(lambda d: d.find_element(By.ID, "message").text == "Deleted photo %s." % newest)
    seen["after_delete"] = shown(driver)
    seen["total_after_delete"] = total()
    seen["deleted"] = newest
finally:
    driver.quit()
print(json.dumps(seen))
