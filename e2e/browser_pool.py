"""Headless Chromium browsers kept for the next test, each test in a browser context of its own.

Starting Chromium costs about 0.4 CPU-seconds (the headless shell; 1.2 for the full browser);
the suite starts one for most of its tests. A browser a test has finished with is kept, per
pytest-xdist worker, for the next test that asks for the same phone (size, colour scheme,
scripts, motion). That test gets a new browser context, the kind an incognito window has: its
own cookies, storage, cache and service workers, in a new tab whose DevTools state (virtual
authenticators, network conditions, scripts added to new documents) starts empty. The previous
test's tab and context are closed and disposed of, so nothing a test left behind reaches the
next one. The new tab is checked on its own blank page rather than on a page loaded for the
purpose: that page's renderer process, which the test's first page would replace, cost about
0.14 CPU-seconds a test (full browser). A browser that fails any of these steps, or that its
test quit, is never reused: the next test starts a new one."""
import json
import urllib.request

import websocket
from selenium.common.exceptions import WebDriverException


class BrowserDevTools:
    """The browser-wide DevTools connection of a Chromium that chromedriver started.

    Browser contexts are made and disposed of here: chromedriver's own `execute_cdp_cmd`
    speaks to one tab, where Chromium refuses them ("Not allowed")."""

    def __init__(self, driver):
        address = driver.capabilities["goog:chromeOptions"]["debuggerAddress"]
        with urllib.request.urlopen(f"http://{address}/json/version", timeout=10) as answer:
            url = json.load(answer)["webSocketDebuggerUrl"]
        self.socket = websocket.create_connection(url, timeout=30, suppress_origin=True)
        self.last_id = 0

    def send(self, method, **params):
        self.last_id += 1
        self.socket.send(json.dumps({"id": self.last_id, "method": method, "params": params}))
        while True:
            message = json.loads(self.socket.recv())
            if message.get("id") != self.last_id:
                continue  # an event; none is subscribed to, but Chromium may send some
            if "error" in message:
                raise WebDriverException(f"{method}: {message['error']}")
            return message.get("result", {})

    def close(self):
        try:
            self.socket.close()
        except OSError:
            pass


class Kept:
    """A started browser, its DevTools connection, and the context its current tab is in."""

    def __init__(self, driver, options):
        self.driver = driver
        self.options = options
        self.devtools = BrowserDevTools(driver)
        self.context = None  # the default context: a new browser's first tab is in it

    def fresh_tab(self):
        """Moves the driver to a new tab in a new browser context, closing the old tab and context."""
        old_tab, old_context = self.driver.current_window_handle, self.context
        self.context = self.devtools.send("Target.createBrowserContext", disposeOnDetach=False)["browserContextId"]
        tab = self.devtools.send("Target.createTarget", url="about:blank", browserContextId=self.context)["targetId"]
        self.driver.switch_to.window(tab)
        self.devtools.send("Target.closeTarget", targetId=old_tab)
        if old_context is not None:
            self.devtools.send("Target.disposeBrowserContext", browserContextId=old_context)
        # A window the last test opened in the browser's first context outlives that context's tab.
        for target in self.devtools.send("Target.getTargets")["targetInfos"]:
            if target["type"] == "page" and target["targetId"] not in (tab, old_tab):
                self.devtools.send("Target.closeTarget", targetId=target["targetId"])

    def quit(self):
        self.devtools.close()
        try:
            self.driver.quit()
        except Exception:  # already quit by its test, or its Chromium is gone
            pass


class BrowserPool:
    """This worker's idle browsers, at most `limit`, the longest idle quit first."""

    def __init__(self, start, prepare, limit=4):
        self.start = start  # options -> a started driver
        self.prepare = prepare  # (driver, options) -> None: what every new tab needs (colour scheme, motion)
        self.limit = limit
        self.idle = []  # Kept, the longest idle first
        self.lent = {}  # id(driver) -> Kept

    def take(self, **options):
        """A browser for `options` in a fresh context: a kept one if there is one, else a new one."""
        for kept in self.idle:
            if kept.options == options:
                self.idle.remove(kept)
                try:
                    kept.fresh_tab()
                    # The new tab's own blank page answers a script, or the browser is unwell.
                    url = kept.driver.execute_script("return document.URL")
                    if url != "about:blank":
                        raise WebDriverException(f"the fresh tab shows {url!r}")
                    self.prepare(kept.driver, options)
                except (WebDriverException, OSError, websocket.WebSocketException):
                    kept.quit()
                    break
                self.lent[id(kept.driver)] = kept
                return kept.driver
        driver = self.start(**options)
        self.prepare(driver, options)
        try:
            self.lent[id(driver)] = Kept(driver, options)
        except (OSError, KeyError, websocket.WebSocketException):
            pass  # not kept: it is quit after its test
        return driver

    def give_back(self, driver):
        """Keeps a browser its test has finished with, if it still answers; quits it otherwise."""
        kept = self.lent.pop(id(driver), None)
        if kept is None:
            try:
                driver.quit()
            except Exception:  # already quit by its test, or its Chromium is gone
                pass
            return
        try:
            kept.driver.window_handles  # noqa: B018 (a test may have quit it, or Chromium died)
        except Exception:  # a quit driver's connection is refused before WebDriver can answer
            kept.quit()
            return
        self.idle.append(kept)
        while len(self.idle) > self.limit:
            self.idle.pop(0).quit()

    def close(self):
        for kept in self.idle + list(self.lent.values()):
            kept.quit()
        self.idle, self.lent = [], {}
