"""Measures the login page on loopback: total bytes of every resource, and first contentful
paint from the Performance API, median of 10 cold loads. Run by scripts/bench.sh."""
import statistics
import sys

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from conftest import Server, chromium  # noqa: E402

WEIGHT = """
const entries = [performance.getEntriesByType('navigation')[0], ...performance.getEntriesByType('resource')];
return entries.map(e => [e.name, e.transferSize, e.encodedBodySize, e.decodedBodySize]);
"""
FCP = "const p = performance.getEntriesByName('first-contentful-paint')[0]; return p ? p.startTime : null;"


def main():
    measure("login page", Server())
    # Seed 004's phone screen (screen load < 300 ms): its entry animation holds the first
    # contentful paint back by design, so DOMContentLoaded is reported too.
    from phone_pages import PhoneServer
    # Chromium records no first-contentful-paint while content fades in from opacity 0, so the
    # phone screen is measured with reduced motion (no entry animation): its load, not the 500 ms
    # the seed's animation then takes by design.
    measure("phone page (reduced motion)", PhoneServer(), reduced_motion=True)
    measure_passkey_resume()


def measure_passkey_resume():
    """Seed 003's resume: from navigating to /login on a device that accepted the biometric
    offer to Home's content, with Chromium's virtual platform authenticator answering at once;
    median of 10, against the seed's 1 s."""
    import time
    from conftest import free_port
    from test_passkeys import authenticator, enrol, session_ends
    from pages import wait_for
    from selenium.webdriver.common.by import By
    port = free_port()
    server = Server("003-peer-mentor", extra=("--public-url", f"http://localhost:{port}"), port=port)
    driver = chromium()
    try:
        authenticator(driver)
        enrol(driver, server)
        session_ends(driver)
        times = []
        for _ in range(10):
            driver.get("about:blank")
            started = time.monotonic()
            driver.get(server.url + "/login")
            wait_for(driver, lambda d: d.current_url.startswith(server.url + "/home") and d.find_elements(By.ID, "user-name"))
            times.append((time.monotonic() - started) * 1000)
        print(f"passkey resume (/login to Home's content, virtual authenticator): median {statistics.median(times):.0f} ms of 10 "
              f"(min {min(times):.0f}, max {max(times):.0f}) against seed 003's 1000 ms")
    finally:
        driver.quit()
        server.close()


def measure(label, server, reduced_motion=False):
    try:
        paints, weights, ready = [], [], []
        for _ in range(10):
            driver = chromium(reduced_motion=reduced_motion)
            driver.execute_cdp_cmd("Network.enable", {})
            driver.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": True})
            driver.get(server.url + "/login")
            driver.execute_script("return new Promise(r => requestAnimationFrame(() => setTimeout(r, 50)))")
            for _ in range(40):  # an entry animation paints its first content a little later
                paint = driver.execute_script(FCP)
                if paint is not None:
                    break
                driver.execute_script("return new Promise(r => setTimeout(r, 25))")
            paints.append(paint)
            ready.append(driver.execute_script("return performance.getEntriesByType('navigation')[0].domContentLoadedEventEnd"))
            entries = driver.execute_script(WEIGHT)
            weights.append(sum(e[3] for e in entries))
            driver.quit()
        files = ", ".join(f"{name.rsplit('/', 1)[-1] or 'login'} {decoded} B" for name, _, _, decoded in entries)
        print(f"{label} weight: {weights[-1]} bytes uncompressed in {len(entries)} requests ({files})")
        print(f"{label} DOMContentLoaded: median {statistics.median(ready):.0f} ms; "
              f"first contentful paint on loopback: median {statistics.median(paints):.0f} ms of 10 cold loads "
              f"(min {min(paints):.0f}, max {max(paints):.0f})")
    finally:
        server.close()


if __name__ == "__main__":
    main()
