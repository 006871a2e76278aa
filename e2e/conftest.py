"""Fixtures for the Python suites: the real gatehouse server, headless Chromium at phone sizes,
and the example apps' backends for third-party clients."""
import json
import os
import pathlib
import socket
import subprocess
import tempfile
import time

import pytest
from selenium import webdriver
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.chrome.service import Service

from browser_pool import BrowserPool

ROOT = pathlib.Path(__file__).resolve().parent.parent
BIN = os.environ.get("GATEHOUSE_BIN", str(ROOT / ".build/debug/gatehouse"))
EMAIL, PASSWORD, NAME = "user@example.com", "password123", "Demo User"
PHONES = {"iphone-se": (375, 667), "iphone-14": (390, 844), "landscape": (667, 375)}


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "timing: compares answer times; e2e/run.sh runs these after the rest, one at a time, on an idle machine"
    )


# Each pytest-xdist worker takes its ports from a range of its own, below the kernel's
# ephemeral range (32768 up), so two workers never pick the same port between one's check and
# its server's bind, and no client socket's port is ever handed out.
_WORKER = int(os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw") or 0)
_PORTS = range(20000 + 3000 * (_WORKER % 4), 23000 + 3000 * (_WORKER % 4))
_next_port = [_PORTS.start]


def free_port():
    """A loopback port free now, from this worker's range, never the same twice in a row."""
    for _ in range(len(_PORTS)):
        port = _next_port[0]
        _next_port[0] = port + 1 if port + 1 < _PORTS.stop else _PORTS.start
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise AssertionError(f"no free port in {_PORTS}")


# The shared servers take hundreds of sign-ins from 127.0.0.1, some of them wrong on purpose:
# their limits are raised so no test waits out another's back-off. The limits themselves are
# tested against servers of their own with small limits (test_rate_limits.py).
ROOMY_LIMITS = ("--address-limit", "100000", "--backoff-after", "100000", "--account-failures-per-hour", "100000",
                "--signup-limit", "100000", "--mail-limit", "100000")


class Server:
    """`gatehouse serve` on a free loopback port with a fresh SQLite file; stopped on close.

    Every server ever started is kept in `instances`, so the session can check their logs."""

    instances = []

    def __init__(self, config="000-generic", extra=(), limits=ROOMY_LIMITS, environment=None, port=None, database=None):
        self.folder = tempfile.mkdtemp(prefix="gatehouse-e2e-")
        # A database of the test's own (a restored backup) keeps its accounts; a new one gets the demo account.
        self.database = database or os.path.join(self.folder, "e2e.sqlite")
        self.port = port or free_port()
        scheme = "https" if "--tls-cert" in extra else "http"
        self.url = f"{scheme}://localhost:{self.port}"
        Server.instances.append(self)
        if database is None:
            self.create_user(EMAIL, NAME, PASSWORD)
        # An example's name, or a path to an app file of the test's own.
        config_path = pathlib.Path(config) if config.endswith(".json") else ROOT / "examples" / config / "gatehouse.json"
        # Account mail goes to this server's own outbox unless the test names a sender.
        self.mail_outbox = os.path.join(self.folder, "mail-outbox.jsonl")
        if not any(option in extra for option in ("--smtp-url", "--email-webhook", "--email-outbox")):
            extra = (*extra, "--email-outbox", self.mail_outbox)
        self.process = subprocess.Popen(
            [BIN, "serve", "--port", str(self.port), "--database", self.database, "--config", str(config_path),
             "--log-level", "info", *limits, *extra],
            stdout=subprocess.PIPE, stderr=open(os.path.join(self.folder, "server.log"), "w"), text=True,
            env={**os.environ, **(environment or {})})
        line = self.process.stdout.readline()
        assert line.startswith("Gatehouse is listening on"), line

    def cli(self, *args, stdin=""):
        return subprocess.run([BIN, *args, "--database", self.database], input=stdin, capture_output=True, text=True, check=True)

    def create_user(self, email, name, password):
        self.cli("users", "create", "--email", email, "--name", name, "--password-stdin", "--allow-weak-password", stdin=password)

    @property
    def log(self):
        return pathlib.Path(self.folder, "server.log").read_text()

    def close(self):
        self.process.terminate()
        self.process.wait(timeout=10)


# What must never reach a log: the demo password, and any refresh token (ghr_), web session
# id (ghw_), mail link token (ghm_) or JWT (eyJ…) — the suite sends all of them in bodies, headers and URLs.
SECRET_MARKERS = (PASSWORD, "ghr_", "ghw_", "ghm_", "eyJ", "PLANTED")


# pytest-xdist runs each file on one worker (`--dist loadfile`), so a file's tests share its
# fixtures and keep their order. The longest files start first (e2e/run.sh turns off xdist's own
# order, by number of tests, which sent the two-test schemathesis file last), so no worker begins
# a long one near the end of the run while the others sit idle. Longest first, as measured with
# `E2E_PREBUILT=1 E2E_PART=rest ./e2e/run.sh --junitxml=…` (seconds of setup, call and teardown
# per file, of 1,650 in all, 2026-11-30): every file not named here takes under 30 s.
LONGEST_FIRST = ("test_seed004.py", "test_openapi.py", "test_accounts_web.py", "test_passkeys.py", "test_vectors.py",  # 248, 232, 128, 125, 104
                 "test_google.py", "test_mfa_web.py", "test_accounts_pages.py", "test_seed000.py",  # 68, 67, 57, 49
                 "test_waits.py", "test_google_linking.py", "test_scale_out.py", "test_outbox.py")  # 46, 38, 32, 32


def pytest_collection_modifyitems(items):
    def rank(item):
        name = item.path.name
        return LONGEST_FIRST.index(name) if name in LONGEST_FIRST else len(LONGEST_FIRST)
    items.sort(key=rank)


@pytest.fixture(scope="session", autouse=True)
def logs_hold_no_secrets():
    """After the whole session, every server's log is searched for secrets."""
    yield
    leaks = [(server.folder, marker) for server in Server.instances for marker in SECRET_MARKERS if marker in server.log]
    assert not leaks, f"secrets in server logs: {leaks}"


@pytest.fixture(scope="session")
def server():
    server = Server()
    yield server
    server.close()


@pytest.fixture(scope="session")
def server001():
    server = Server("001-projects")
    yield server
    server.close()


@pytest.fixture(scope="session")
def server003():
    server = Server("003-peer-mentor")
    yield server
    server.close()


# The phone a browser emulates unless a test says otherwise.
PHONE = {"width": 375, "height": 667, "dark": False, "javascript": True, "reduced_motion": False}


def chromium(**options):
    """Headless Chromium emulating a phone (`PHONE`, with any of its keys changed)."""
    options = {**PHONE, **options}
    driver = started_chromium(**options)
    emulate_media(driver, **options)
    return driver


# Chromium's headless shell (Debian's `chromium-headless-shell`, built from the same source as
# `chromium`): the same Blink and V8 without the desktop browser around them. Measured on this
# machine, a test's fresh tab, page and taps cost a third of the CPU they cost in `chromium
# --headless=new` (0.85 against 2.5 CPU-seconds), and the suite is bound by its two cores.
# The binary itself: `/usr/bin/chromium-headless-shell` is a script that starts it without
# `exec`, so chromedriver's quit stopped the script and left the browser running (12 GB of
# them after three runs). E2E_CHROMIUM=/usr/bin/chromium runs the suite in the full browser.
CHROMIUM = os.environ.get("E2E_CHROMIUM", "/usr/lib/chromium/chromium-headless-shell")


def started_chromium(*, width, height, javascript, **_):
    """A new headless Chromium for a phone of width × height CSS pixels, scripts on or off."""
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--lang=en-US"):
        options.add_argument(argument)
    options.add_experimental_option("mobileEmulation", {
        # Touch emulation only where scripts run: chromedriver's emulated tap never submits a
        # form in a page whose scripts are off, and hangs waiting for it.
        "deviceMetrics": {"width": width, "height": height, "pixelRatio": 2.0, "touch": javascript},
        "userAgent": "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148",
    })
    if not javascript:
        # Blink's own switch: the page's scripts never run, WebDriver's still do.
        options.add_argument("--blink-settings=scriptEnabled=false")
    driver = started(options)
    driver.set_page_load_timeout(30)
    driver.set_script_timeout(30)
    driver.implicitly_wait(0)
    return driver


def emulate_media(driver, *, dark, reduced_motion, **_):
    """The colour scheme and motion preference of the driver's current tab."""
    features = [{"name": "prefers-color-scheme", "value": "dark" if dark else "light"}]
    if reduced_motion:
        features.append({"name": "prefers-reduced-motion", "value": "reduce"})
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": features})


CHROMIUM_RESTARTS = ROOT / ".build-e2e" / "chromium-restarts.txt"


def started(options):
    """Chromium, once it has opened a first page; one that dies starting is started once more.

    On two busy cores a fresh Chromium now and then closes chromedriver's connection right
    after starting ("session deleted as the browser has closed the connection"), before a test
    has done anything. Its first page is opened here, so such a start shows before the test,
    which then gets a second browser. Each restart is appended, with the end of Chromium's own
    log, to `.build-e2e/chromium-restarts.txt`, which the test script counts; a browser that
    dies twice, or later, still fails its test."""
    for attempt in (1, 2):
        log = tempfile.NamedTemporaryFile(prefix="chromedriver-", suffix=".log", delete=False)
        log.close()
        service = Service("/usr/bin/chromedriver", service_args=["--enable-chrome-logs"], log_output=log.name)
        driver = None
        try:
            driver = webdriver.Chrome(service=service, options=options)
            driver.get("data:text/html,<title>ready</title>")
            if driver.title != "ready":
                raise WebDriverException(f"the first page's title is {driver.title!r}")
            os.unlink(log.name)
            return driver
        except WebDriverException as error:
            if driver is not None:
                try:
                    driver.quit()
                except WebDriverException:
                    pass
            tail = pathlib.Path(log.name).read_text(errors="replace").splitlines()[-40:]
            os.unlink(log.name)
            if attempt == 2:
                raise
            CHROMIUM_RESTARTS.parent.mkdir(exist_ok=True)
            with CHROMIUM_RESTARTS.open("a") as record:
                record.write(f"--- {time.strftime('%H:%M:%S')} {error.msg}\n" + "\n".join(tail) + "\n")


@pytest.fixture(scope="session")
def browser_pool():
    """This worker's kept browsers (`browser_pool.py`): a test gets a fresh context in one."""
    pool = BrowserPool(
        start=started_chromium,
        prepare=lambda driver, options: emulate_media(driver, **options),
    )
    yield pool
    pool.close()


@pytest.fixture
def browser(browser_pool):
    """Makes phone browsers for one test (`chromium`'s options), each in a context of its own."""
    drivers = []

    def make(**kwargs):
        driver = browser_pool.take(**{**PHONE, **kwargs})
        drivers.append(driver)
        return driver

    yield make
    for driver in drivers:
        browser_pool.give_back(driver)


@pytest.fixture(params=[(375, 667), (390, 844)], ids=["375x667", "390x844"])
def sized(browser, request):
    """Issue 36's two phone sizes: a test taking `sized` instead of `browser` runs at both."""
    width, height = request.param

    def make(**kwargs):
        return browser(**{"width": width, "height": height, **kwargs})
    return make


@pytest.fixture(scope="session")
def axe_source():
    path = os.environ.get("AXE_JS")
    assert path and os.path.exists(path), "AXE_JS must point at axe.min.js (e2e/run.sh sets it up)"
    return pathlib.Path(path).read_text()


def vectors():
    return json.loads((ROOT / "testdata" / "validation-vectors.json").read_text())
