"""Headless Chromium for the page's tests: Debian's chromium and chromedriver, a desktop-sized
window, and a wait that only guards against a hang."""

from selenium import webdriver
from selenium.webdriver.common.by import By
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.support.ui import WebDriverWait


def start():
    """A driver of a new headless Chromium, and a wait of two minutes for it."""
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,900"]:
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    # Each wait is a hang guard, far longer than the step takes on a loaded machine; never a measure of speed.
    return driver, WebDriverWait(driver, 120)


def open_kiosk(driver, wait, base):
    """The kiosk view at a screen's size (1280x720), once its Start button shows."""
    driver.set_window_size(1280, 720)
    driver.get(base + "/?kiosk")
    wait.until(lambda d: d.find_element(By.ID, "kioskshutter").is_displayed())
