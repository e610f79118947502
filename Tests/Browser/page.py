"""Drives camctl serve's page in headless Chromium, as a person on a phone or tablet would, and
prints what it saw as one JSON object. Run by Tests/CommandLineTests/PageTests.swift with
Debian's Python: /usr/bin/python3 page.py BASE_URL SCREENSHOT_PATH."""

import json
import subprocess
import sys
import urllib.request

import browser
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

base = sys.argv[1]
seen = {}


def total():
    return json.load(urllib.request.urlopen(base + "/api/photos"))["total"]


def gallery(driver):
    return len(driver.find_elements(By.CSS_SELECTOR, "#gallery a"))


def displayed(driver, element_id):
    return driver.find_element(By.ID, element_id).is_displayed()


driver, wait = browser.start()
try:
    driver.get(base + "/")
    wait.until(lambda d: d.execute_script("const i = document.getElementById('live'); return i.complete && i.naturalWidth > 0"))
    first = driver.find_element(By.ID, "live").screenshot_as_png
    wait.until(lambda d: d.find_element(By.ID, "live").screenshot_as_png != first)
    seen["live_changes"] = True

    # The shutter with a review: Save keeps the photo, and the gallery shows it at once.
    driver.find_element(By.ID, "review").click()
    before = gallery(driver)
    driver.find_element(By.ID, "shutter").click()
    wait.until(lambda d: displayed(d, "reviewbar"))
    seen["review_picture"] = driver.execute_script("const i = document.getElementById('shown'); return i.naturalWidth")
    # The same page, never reloaded, shows the saved photo once the server tells it.
    driver.execute_script("window.stillThisPage = true")
    driver.find_element(By.ID, "save").click()
    wait.until(lambda d: gallery(d) == before + 1)
    seen["saved_shown_without_reload"] = driver.execute_script("return window.stillThisPage === true")
    seen["saved_total"] = total()
    seen["last_photo_shown"] = displayed(driver, "last")

    # The QR code beside it takes a guest to the photo: decoded from the screen, it downloads the
    # library's file, byte for byte.
    wait.until(lambda d: d.execute_script("const q = document.getElementById('qr'); return q.complete && q.naturalWidth > 0"))
    with open(sys.argv[2], "wb") as shot:
        shot.write(driver.find_element(By.ID, "qr").screenshot_as_png)
    decoded = subprocess.run(["zbarimg", "-q", "--raw", sys.argv[2]], capture_output=True, text=True).stdout.strip()
    seen["qr_link"] = decoded
    photo = json.load(urllib.request.urlopen(base + "/api/photos"))["photos"][0]
    # On a phone, the link opens the guest page: the photo, and a Download button that gets its bytes.
    main = driver.current_window_handle
    driver.switch_to.new_window("tab")
    driver.set_window_size(390, 844)
    driver.get(decoded)
    wait.until(lambda d: d.execute_script("const i = document.querySelector('main img'); return i && i.complete && i.naturalWidth > 0"))
    download = driver.find_element(By.ID, "download").get_attribute("href")
    seen["guest_page_download"] = download.startswith(decoded + "/")
    with open(photo["path"], "rb") as stored:
        seen["qr_download_identical"] = urllib.request.urlopen(download).read() == stored.read()
    driver.close()
    driver.switch_to.window(main)
    driver.set_window_size(1280, 900)

    # Cancel leaves the library as it was.
    driver.find_element(By.ID, "shutter").click()
    wait.until(lambda d: displayed(d, "reviewbar"))
    driver.find_element(By.ID, "cancel").click()
    wait.until(lambda d: d.find_element(By.ID, "message").text == "Discarded: nothing was saved.")
    seen["cancelled_total"] = total()
    seen["cancelled_gallery"] = gallery(driver)

    # The booth: each shot shown in its place, then the strip; four shots and the strip saved.
    driver.find_element(By.ID, "review").click()
    driver.find_element(By.ID, "delay").clear()
    driver.find_element(By.ID, "delay").send_keys("1")
    driver.find_element(By.ID, "booth").click()
    wait.until(lambda d: displayed(d, "shown"))
    seen["booth_showed_picture"] = True
    wait.until(lambda d: d.find_element(By.ID, "message").text == "Saved.")
    seen["booth_total"] = total()
    # The booth's picture is of its own four shots (a 2x2 grid), not of the photo saved before it,
    # and every picture in the gallery shows its thumbnail.
    photos = json.load(urllib.request.urlopen(base + "/api/photos"))["photos"]
    seen["booth_picture"] = [[p["width"], p["height"]] for p in photos if p["width"] > 1000]
    wait.until(lambda d: d.execute_script(
        "return [...document.querySelectorAll('#gallery a img')].every((i) => i.complete && i.naturalWidth > 0)"))
    seen["gallery_thumbnails"] = gallery(driver)
    # The booth's album, chosen on the page, shows its shots and its picture only.
    wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#album option")) > 1)
    Select(driver.find_element(By.ID, "album")).select_by_value("booth")
    wait.until(lambda d: gallery(d) == 5)
    seen["booth_album_gallery"] = gallery(driver)
    Select(driver.find_element(By.ID, "album")).select_by_value("")
    wait.until(lambda d: gallery(d) == 6)

    # A movie: Record, then Stop recording; the movie's thumbnail joins the gallery.
    before = gallery(driver)
    driver.find_element(By.ID, "record").click()
    wait.until(lambda d: d.find_element(By.ID, "record").text == "Stop recording")
    seen["recording_said"] = driver.find_element(By.ID, "message").text
    frames = json.load(urllib.request.urlopen(base + "/api/status"))["camera_frames"]
    wait.until(lambda d: json.load(urllib.request.urlopen(base + "/api/status"))["camera_frames"] >= frames + 30)  # a second's frames
    driver.find_element(By.ID, "record").click()
    wait.until(lambda d: d.find_element(By.ID, "record").text == "Record" and gallery(d) == before + 1)
    seen["movie_message"] = driver.find_element(By.ID, "message").text
    seen["movie_thumbnail_shown"] = driver.execute_script(
        "const i = document.querySelector('#gallery a img'); return i.complete && i.naturalWidth > 0")
    movie = json.load(urllib.request.urlopen(base + "/api/photos"))["photos"][0]
    seen["movie_kind"] = movie["kind"]

    # Zoom: each press is one of the server's steps, told back as the server answers.
    for button, said in [("zoomin", "Zoom: 1.25×"), ("zoomin", "Zoom: 1.56×"), ("zoomout", "Zoom: 1.25×")]:
        driver.find_element(By.ID, button).click()
        wait.until(lambda d: d.find_element(By.ID, "message").text == said)
    seen["zoom"] = json.load(urllib.request.urlopen(base + "/api/status"))["zoom"]

    # Phone, tablet and laptop screens: nothing wider than the screen, the shutter on screen
    # without scrolling.
    for name, (width, height) in {"phone": (390, 844), "tablet": (820, 1180), "laptop": (1280, 720)}.items():
        driver.set_window_size(width, height)
        wait.until(lambda d: d.execute_script("return window.innerWidth") <= width)
        seen[name] = driver.execute_script(
            "window.scrollTo(0, 0); const s = document.getElementById('shutter').getBoundingClientRect();"
            "return {fits: document.documentElement.scrollWidth <= window.innerWidth,"
            " shutter: s.width > 40 && s.left >= 0 && s.right <= window.innerWidth && s.top >= 0 && s.bottom <= window.innerHeight}")
        # Where the shutter and the picture are, for a failure's message.
        seen[name + "_detail"] = driver.execute_script("const s = document.getElementById('shutter').getBoundingClientRect(), t = document.getElementById('stage').getBoundingClientRect(); return [s.top, s.bottom, window.innerHeight, window.innerWidth, t.top, t.height, t.width, window.scrollY]")

    # The kiosk view: the picture on the whole screen, one big button, no settings or gallery; the
    # button runs a booth, whose result's QR code shows over the picture.
    driver.set_window_size(1280, 720)
    before = total()
    driver.get(base + "/?kiosk")
    wait.until(lambda d: displayed(d, "kioskshutter"))
    # Served on loopback alone: the kiosk tells its owner that guests' phones cannot open the links.
    wait.until(lambda d: displayed(d, "guestwarning"))
    seen["kiosk_warning"] = driver.find_element(By.ID, "guestwarning").text
    seen["kiosk"] = driver.execute_script(
        "const s = document.getElementById('stage').getBoundingClientRect(), b = document.getElementById('kioskshutter').getBoundingClientRect();"
        "return {fills: s.width >= window.innerWidth && s.height >= window.innerHeight, big: b.width >= 96,"
        " settings: getComputedStyle(document.querySelector('.controls')).display !== 'none',"
        " gallery: getComputedStyle(document.getElementById('gallery')).display !== 'none'}")
    driver.find_element(By.ID, "kioskshutter").click()
    wait.until(lambda d: total() == before + 5 and displayed(d, "takehome"))
    seen["kiosk_booth"] = total() - before
    # The booth's picture's own page, on a phone: the picture, and its four shots beside it.
    wait.until(lambda d: "/p/" in (d.find_element(By.ID, "guestlink").get_attribute("href") or ""))
    driver.set_window_size(390, 844)
    driver.get(driver.find_element(By.ID, "guestlink").get_attribute("href"))
    wait.until(lambda d: d.execute_script(
        "const s = [...document.querySelectorAll('#parts .shots img')];"
        "return s.length > 0 && s.every((i) => i.complete && i.naturalWidth > 0)"))
    seen["guest_booth_shots"] = len(driver.find_elements(By.CSS_SELECTOR, "#parts .shots img"))
finally:
    driver.quit()
print(json.dumps(seen))
