"""Real SMS paths for the tests: Kannel (bearerbox + smsbox + its fake SMS centre) and a
Standard Webhooks receiver that verifies signatures with PyPI's `standardwebhooks`."""
import base64
import http.server
import json
import os
import re
import shutil
import subprocess
import tempfile
import threading
import time
import urllib.parse

from standardwebhooks import Webhook

from conftest import free_port

FAKESMSC = "/usr/lib/kannel/test/fakesmsc"


class Kannel:
    """bearerbox, smsbox and fakesmsc on free loopback ports; what the SMS centre received is read from fakesmsc."""

    def __init__(self):
        for tool in ("bearerbox", "smsbox"):
            assert shutil.which(tool), f"{tool} missing: e2e/run.sh installs kannel and kannel-extras"
        assert os.path.exists(FAKESMSC), "fakesmsc missing: e2e/run.sh installs kannel-extras"
        self.folder = tempfile.mkdtemp(prefix="gatehouse-kannel-")
        admin, box, smsc, self.sendsms = free_port(), free_port(), free_port(), free_port()
        self.user, self.password = "gatehouse", "kannel-" + base64.urlsafe_b64encode(os.urandom(9)).decode()
        config = os.path.join(self.folder, "kannel.conf")
        os.makedirs(os.path.join(self.folder, "spool"))
        with open(config, "w") as f:
            f.write(f"""group = core
admin-port = {admin}
admin-password = {self.password}
admin-interface = 127.0.0.1
smsbox-port = {box}
smsbox-interface = 127.0.0.1
box-allow-ip = 127.0.0.1
log-file = "{self.folder}/bearerbox.log"
log-level = 1
store-type = spool
store-location = "{self.folder}/spool"

group = smsc
smsc = fake
smsc-id = fake
port = {smsc}
interface-version = 34
connect-allow-ip = 127.0.0.1

group = smsbox
bearerbox-host = 127.0.0.1
sendsms-port = {self.sendsms}
sendsms-interface = 127.0.0.1
log-file = "{self.folder}/smsbox.log"
log-level = 1

group = sendsms-user
username = {self.user}
password = {self.password}
max-messages = 3
concatenation = true
""")
        log = lambda name: open(os.path.join(self.folder, name), "w")
        self.processes = [subprocess.Popen(["bearerbox", config], stdout=log("bearerbox.out"), stderr=subprocess.STDOUT)]
        self._wait_port(box)
        self.processes.append(subprocess.Popen(["smsbox", config], stdout=log("smsbox.out"), stderr=subprocess.STDOUT))
        self.fake_log = os.path.join(self.folder, "fakesmsc.out")
        self.processes.append(subprocess.Popen([FAKESMSC, "-H", "127.0.0.1", "-r", str(smsc), "-i", "0.1", "-m", "0", "x"],
                                               stdout=log("fakesmsc.out"), stderr=subprocess.STDOUT))
        self._wait_port(self.sendsms)

    @property
    def url(self):
        return f"http://127.0.0.1:{self.sendsms}/cgi-bin/sendsms"

    @staticmethod
    def _wait_port(port):
        import socket
        for _ in range(100):
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", port)) == 0:
                    return
            time.sleep(0.1)
        raise AssertionError(f"nothing listening on {port}")

    def received(self):
        """(to, text) of every message the fake SMS centre got.

        fakesmsc's protocol is one line per message, so a text with line breaks arrives as
        several "messages"; the parts after the first have no sender or receiver and are
        joined back to it."""
        messages = []
        for line in open(self.fake_log, errors="replace"):
            match = re.search(r"Got message \d+: <(.*)>$", line.rstrip("\n"))
            if not match:
                continue
            head = re.match(r"(\S+) (\+?\d+) (text|ucs-2) (.*)", match.group(1))
            if head:
                raw = head.group(4)
                text = raw if head.group(3) == "text" else urllib.parse.unquote_to_bytes(raw.replace("+", "%20")).decode("utf-16-be")
                messages.append((head.group(2), text))
            elif messages:
                messages[-1] = (messages[-1][0], messages[-1][1] + "\n" + match.group(1))
        return messages

    def wait_for_code(self, phone, after=0):
        for _ in range(100):
            messages = [text for to, text in self.received() if to == phone]
            if len(messages) > after and "#" in messages[-1]:
                return re.match(r"(\d{6}) ", messages[-1]).group(1), messages[-1]
            time.sleep(0.1)
        raise AssertionError(f"the SMS centre got nothing for {phone}: {open(self.fake_log).read()[-2000:]}")

    def close(self):
        for process in reversed(self.processes):
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
        shutil.rmtree(self.folder, ignore_errors=True)


class WebhookReceiver:
    """An HTTP receiver on loopback that accepts only correctly signed Standard Webhooks.

    `failures` makes the first few deliveries answer 500, to prove the sender retries; `delay`
    makes every answer take that many seconds, as a slow gateway does; while `down` is set every
    delivery answers 503. `ids` holds each accepted delivery's `webhook-id`."""

    def __init__(self, failures=0, delay=0.0):
        self.secret = "whsec_" + base64.b64encode(os.urandom(32)).decode()
        verifier, received, rejected, ids = Webhook(self.secret), [], [], []
        remaining = [failures]
        receiver = self
        self.down = False

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                if delay:
                    time.sleep(delay)
                try:
                    payload = verifier.verify(body, {k.lower(): v for k, v in self.headers.items()})
                except Exception as error:  # a bad signature or a stale timestamp
                    rejected.append(repr(error))
                    self.send_response(401)
                    self.end_headers()
                    return
                if remaining[0] > 0 or receiver.down:
                    remaining[0] -= 1
                    self.send_response(503 if receiver.down else 500)
                    self.end_headers()
                    return
                received.append(payload)
                ids.append(self.headers.get("webhook-id"))
                self.send_response(204)
                self.end_headers()

            def log_message(self, *args):
                pass

        self.received, self.rejected, self.ids = received, rejected, ids
        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/sms"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()
