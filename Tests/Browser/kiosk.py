"""Runs camctl serve's kiosk view in headless Chromium for three guests in a row, as a booth's
guests meet it, and prints what each saw as one JSON object. Run by
Tests/CommandLineTests/KioskGuestsTests.swift with Debian's Python:
/usr/bin/python3 kiosk.py BASE_URL SCREENSHOT_FOLDER."""

import json
import subprocess
import sys
import urllib.request

import browser
from selenium.webdriver.common.by import By

base, folder = sys.argv[1], sys.argv[2]
seen = {"guests": []}


def photos():
    return json.load(urllib.request.urlopen(base + "/api/photos?limit=100"))["photos"]


def displayed(driver, element_id):
    return driver.find_element(By.ID, element_id).is_displayed()


def attracting(driver):
    return driver.execute_script("return document.body.classList.contains('attract')")


def codes_on_screen(driver, name):
    """The QR codes zbarimg reads on a screenshot of the whole screen, kept as NAME.png."""
    path = folder + "/" + name + ".png"
    driver.save_screenshot(path)
    found = subprocess.run(["zbarimg", "-q", "--raw", path], capture_output=True, text=True).stdout.split()
    return found


driver, wait = browser.start()
try:
    browser.open_kiosk(driver, wait, base)
    # The server's own account of each booth's shots, beside the page's.
    driver.execute_script("window.told = []; new EventSource('api/events').onmessage = (m) => window.told.push(JSON.parse(m.data));")
    for guest in range(1, 4):
        saw = {}
        # Between guests: the attract screen, nothing of the guest before (no code, thumbnail, Print).
        wait.until(attracting)
        wait.until(lambda d: not displayed(d, "takehome"))
        saw["attract_codes"] = codes_on_screen(driver, "attract-%d" % guest)
        saw["attract_last_shown"] = displayed(driver, "last")
        saw["attract_invite"] = driver.find_element(By.ID, "invite").text
        composed = [p["id"] for p in photos() if p.get("composed")]
        if composed:
            # The event's pictures in turn: one of the booth's composed pictures.
            wait.until(lambda d: d.execute_script(
                "const i = document.getElementById('attractpicture'); return !i.hidden && i.complete && i.naturalWidth > 0"))
            shown = driver.find_element(By.ID, "attractpicture").get_attribute("src")
            saw["attract_picture_is_composed"] = any(shown.endswith("/api/photos/%d/file" % i) for i in composed)
        before = {p["id"] for p in photos()}
        driver.execute_script("window.told.length = 0")
        driver.find_element(By.ID, "kioskshutter").click()
        saw["attract_after_start"] = attracting(driver)
        if guest == 2:
            # The second guest takes the first shot again while it is shown in its place.
            wait.until(lambda d: displayed(d, "retake"))
            driver.find_element(By.ID, "retake").click()
        # The guest's result: the code of their own picture, over the live picture.
        wait.until(lambda d: any(p.get("composed") for p in photos() if p["id"] not in before))
        new = [p for p in photos() if p["id"] not in before]
        mine = [p for p in new if p.get("composed")]
        wait.until(lambda d: displayed(d, "takehome") and (d.find_element(By.ID, "guestlink").get_attribute("href") or "").endswith(mine[0]["guest_link"]))
        wait.until(lambda d: d.execute_script("const q = document.getElementById('qr'); return q.complete && q.naturalWidth > 0"))
        saw["new_photos"] = len(new)
        saw["shots_told"] = driver.execute_script("return window.told.filter((e) => e.event === 'shot').map((e) => e.number)")
        saw["result_codes"] = codes_on_screen(driver, "result-%d" % guest)
        saw["result_code_is_own"] = bool(mine) and all(
            code.endswith(mine[0]["guest_link"]) for code in saw["result_codes"]) and len(saw["result_codes"]) == 1
        saw["last_is_own"] = any(driver.find_element(By.ID, "last").get_attribute("src").endswith("/api/photos/%d/thumbnail" % p["id"])
                                 for p in new if not p.get("composed"))
        seen["guests"].append(saw)
    # The third guest's result gives way to the attract screen too.
    wait.until(attracting)
    wait.until(lambda d: not displayed(d, "takehome"))
    seen["final_attract_codes"] = codes_on_screen(driver, "attract-end")
    # A new kiosk page (the screen reloaded, the server restarted) starts on the attract screen.
    driver.get(base + "/?kiosk")
    wait.until(attracting)
    seen["reloaded_last_shown"] = displayed(driver, "last")
    seen["reloaded_takehome_shown"] = displayed(driver, "takehome")
finally:
    driver.quit()
print(json.dumps(seen))
