"""Issue 40's soak (run by scripts/soak.sh, not by the test command): three instances on one
PostgreSQL behind nginx, under sign-ups with mail, logins, refreshes, `/api/me` and passkey
options for SOAK_SECONDS (600 by default); halfway through one instance is killed (`kill -9`)
and started again on its port. It passes with 0 unexpected answers, every sign-up's mail
delivered exactly once (aiosmtpd with STARTTLS and AUTH, counted by recipient and
`Message-ID`), and each surviving instance's RSS back within 10% of its warm start."""
import collections
import logging
import os
import sys
import threading
import time

import httpx

from cluster import Cluster
from conftest import EMAIL, PASSWORD, ROOMY_LIMITS, ROOT, free_port
from mail_server import MailServer

SECONDS = int(os.environ.get("SOAK_SECONDS", "600"))
WARM_UP = 30
ANON = "soak-anon-key"
logging.getLogger("mail.log").setLevel(logging.ERROR)  # aiosmtpd's deprecation notice on every AUTH


def rss_mib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


class Load:
    """A few threads, each doing one kind of request in a loop; answers kept by kind."""

    def __init__(self, url):
        self.url, self.running = url, True
        self.answers = collections.defaultdict(list)  # kind -> [(status, seconds)]
        self.signed_up, self.lock = [], threading.Lock()
        self.threads = [threading.Thread(target=self.loop, args=(kind,), daemon=True)
                        for kind in ("signup", "login", "refresh", "me", "me", "passkey")]
        for thread in self.threads:
            thread.start()

    def keep(self, kind, answer, started, expected):
        took = time.monotonic() - started
        with self.lock:
            self.answers[kind].append((answer if isinstance(answer, str) else answer.status_code, took))
        if isinstance(answer, str) or answer.status_code != expected:
            detail = answer if isinstance(answer, str) else f"{answer.status_code} {answer.text[:200]}"
            print(f"unexpected {kind}: {detail}", file=sys.stderr, flush=True)

    def loop(self, kind):
        with httpx.Client(base_url=self.url, timeout=30) as client:
            grant = client.post("/api/auth/login", json={"email": EMAIL, "password": PASSWORD}).json()
            index = 0
            while self.running:
                index += 1
                started = time.monotonic()
                try:
                    if kind == "signup":
                        address = f"soak-{os.getpid()}-{index}@example.com"
                        answer = client.post("/api/auth/signup", json={"email": address, "password": "a soak of ten minutes", "name": "Soak"},
                                             headers={"apikey": ANON})
                        if answer.status_code == 202:
                            with self.lock:
                                self.signed_up.append(address)
                        self.keep(kind, answer, started, 202)
                    elif kind == "login":
                        self.keep(kind, client.post("/api/auth/login", json={"email": EMAIL, "password": PASSWORD}), started, 200)
                    elif kind == "refresh":
                        answer = client.post("/api/auth/refresh", json={"refresh_token": grant["refresh_token"]})
                        if answer.status_code == 200:
                            grant = answer.json()
                        self.keep(kind, answer, started, 200)
                    elif kind == "me":
                        self.keep(kind, client.get("/api/me", headers={"Authorization": f"Bearer {grant['access_token']}"}), started, 200)
                    else:
                        self.keep(kind, client.post("/api/auth/passkeys/authentication/options", json={}), started, 200)
                except httpx.HTTPError as error:
                    self.keep(kind, type(error).__name__, started, None)

    def stop(self):
        self.running = False
        for thread in self.threads:
            thread.join(timeout=60)


def main():
    mail = MailServer()
    port = free_port()
    config = str(ROOT / "examples" / "002-peated" / "gatehouse.json")
    cluster = Cluster(3, extra=(*ROOMY_LIMITS, "--mail-budget", "100000", "--config", config, *mail.options(), "--anon-key", ANON,
                                "--public-url", f"http://localhost:{port}"),
                      environment=mail.environment, port=port)
    try:
        load = Load(cluster.url)
        time.sleep(WARM_UP)
        warm = {i.port: rss_mib(i.process.pid) for i in cluster.instances}
        time.sleep(max(0, SECONDS / 2 - WARM_UP))
        victim = cluster.instances[1]
        victim.process.kill()
        victim.process.wait(timeout=10)
        killed_at = time.monotonic()
        time.sleep(2)
        cluster.instances[1] = cluster.start_instance(port=victim.port)
        print(f"killed and restarted the instance on port {victim.port} in {time.monotonic() - killed_at:.1f} s", flush=True)
        time.sleep(SECONDS / 2)
        load.stop()
        expected = sorted(load.signed_up)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and len(mail.recorder.mails) < len(expected):
            time.sleep(0.5)
        time.sleep(3)  # any duplicate would come now
        time.sleep(max(0, 35 - 3))
        after = {i.port: rss_mib(i.process.pid) for i in cluster.instances}
    finally:
        cluster.close()
        mail.stop()
    recipients = collections.Counter(m["rcpt"][0] for m in mail.recorder.mails)
    message_ids = collections.Counter(str(m["message"]["Message-ID"]) for m in mail.recorder.mails)
    unexpected = 0
    print(f"soak: {SECONDS} s, 3 instances on PostgreSQL behind nginx, one killed with SIGKILL at {SECONDS // 2} s")
    for kind, answers in sorted(load.answers.items()):
        good = 200 if kind != "signup" else 202
        bad = [status for status, _ in answers if status != good]
        unexpected += len(bad)
        times = sorted(took for _, took in answers)
        p50, p99 = times[len(times) // 2] * 1000, times[int(len(times) * 0.99)] * 1000
        print(f"  {kind:8} {len(answers):7} requests  {len(bad)} unexpected {collections.Counter(bad) if bad else ''}  "
              f"p50 {p50:.1f} ms  p99 {p99:.1f} ms")
    missing = [a for a in expected if recipients[a] == 0]
    repeated = [a for a, n in recipients.items() if n > 1] + [i for i, n in message_ids.items() if n > 1]
    print(f"  mail: {len(expected)} sign-ups, {len(mail.recorder.mails)} mails, {len(missing)} missing, {len(repeated)} repeated")
    for instance in cluster.instances:
        if instance.port in warm and instance.port != victim.port:
            change = (after[instance.port] - warm[instance.port]) / warm[instance.port] * 100
            print(f"  RSS port {instance.port}: {warm[instance.port]:.1f} MiB warm, {after[instance.port]:.1f} MiB after ({change:+.1f}%)")
    grown = [p for p in warm if p != victim.port and after[p] > warm[p] * 1.10]
    print(f"  unexpected answers: {unexpected}")
    ok = unexpected == 0 and not missing and not repeated and not grown
    print("soak: passed" if ok else "soak: FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
