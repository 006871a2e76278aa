"""Issue 11's reference deployment, for real: several `gatehouse serve` instances on one
PostgreSQL database, behind nginx as the load balancer (docs/deploy.md describes the same)."""
import base64
import os
import pathlib
import subprocess
import tempfile
import time
import urllib.parse

from conftest import BIN, EMAIL, NAME, PASSWORD, ROOMY_LIMITS, free_port

NGINX_CONF = """
{user}
worker_processes 1;
pid {folder}/nginx.pid;
error_log {folder}/nginx-error.log;
events {{ worker_connections 1024; }}
http {{
    access_log off;
    client_body_temp_path {folder}/body; proxy_temp_path {folder}/proxy; fastcgi_temp_path {folder}/fastcgi;
    uwsgi_temp_path {folder}/uwsgi; scgi_temp_path {folder}/scgi;
    upstream gatehouse {{
{servers}
        keepalive 16;
    }}
    server {{
        listen 127.0.0.1:{port};
        location / {{
            proxy_pass http://gatehouse;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host $host;
            # The edge replaces, never appends: a client cannot choose its own address.
            proxy_set_header X-Forwarded-For $remote_addr;
            proxy_set_header X-Forwarded-Proto $scheme;
            # A request to an instance that died is tried on the next one.
            proxy_next_upstream error timeout non_idempotent;
            proxy_connect_timeout 1s;
        }}
    }}
}}
"""


def postgres_server():
    url = os.environ.get("GATEHOUSE_TEST_POSTGRES_URL")
    assert url, "run through e2e/run.sh, which starts a private PostgreSQL"
    return url


def new_database():
    """A new, empty database on the test server; its URL."""
    server = postgres_server()
    name = "e2e_" + os.urandom(6).hex()
    subprocess.run(["psql", server, "-qc", f"CREATE DATABASE {name}"], check=True, capture_output=True)
    parts = urllib.parse.urlsplit(server)
    return urllib.parse.urlunsplit(parts._replace(path="/" + name))


class Cluster:
    """`count` instances on one new PostgreSQL database behind nginx; `url` is nginx's."""

    def __init__(self, count=3, extra=ROOMY_LIMITS, database=None, environment=None, port=None):
        self.folder = tempfile.mkdtemp(prefix="gatehouse-cluster-")
        self.database = database or new_database()
        kek = base64.b64encode(os.urandom(32)).decode()
        self.env = {**os.environ, **(environment or {}), "GATEHOUSE_KEY_ENCRYPTION_KEY": kek, "GATEHOUSE_DATABASE_URL": self.database}
        self.cli("migrate")
        self.cli("users", "create", "--email", EMAIL, "--name", NAME, "--password-stdin", "--allow-weak-password", stdin=PASSWORD)
        self.extra = ("--trusted-proxy", "127.0.0.1", "--signing-key-refresh", "1", *extra)
        self.instances = [self.start_instance() for _ in range(count)]
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.nginx = self.start_nginx()

    def cli(self, *args, stdin=""):
        return subprocess.run([BIN, *args], input=stdin, capture_output=True, text=True, check=True, env=self.env)

    def start_instance(self, migrate=True, port=None):
        port = port or free_port()
        log = open(os.path.join(self.folder, f"server-{port}.log"), "w")
        arguments = [BIN, "serve", "--port", str(port), "--log-level", os.environ.get("E2E_CLUSTER_LOG_LEVEL", "info"), *self.extra]
        if not migrate:
            arguments.append("--no-migrate")
        process = subprocess.Popen(arguments, stdout=subprocess.PIPE, stderr=log, text=True, env=self.env)
        line = process.stdout.readline()
        assert line.startswith("Gatehouse is listening on"), line
        return Instance(port, process, log.name)

    def start_nginx(self):
        servers = "\n".join(f"        server 127.0.0.1:{i.port} max_fails=1 fail_timeout=10s;" for i in self.instances)
        user = "user root;" if os.geteuid() == 0 else ""
        conf = pathlib.Path(self.folder, "nginx.conf")
        conf.write_text(NGINX_CONF.format(user=user, folder=self.folder, servers=servers, port=self.port))
        process = subprocess.Popen(["nginx", "-p", self.folder, "-c", str(conf), "-g", "daemon off;"],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                import urllib.request
                with urllib.request.urlopen(self.url + "/health", timeout=2) as response:
                    if response.status == 200:
                        return process
            except OSError:
                time.sleep(0.1)
        raise AssertionError("nginx did not start: " + pathlib.Path(self.folder, "nginx-error.log").read_text())

    @property
    def log(self):
        return "".join(pathlib.Path(i.log).read_text() for i in self.instances)

    def close(self):
        self.nginx.terminate()
        self.nginx.wait(timeout=10)
        stuck = []
        for instance in self.instances:
            if instance.process.poll() is None:
                instance.process.terminate()
                try:
                    instance.process.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    instance.process.kill()
                    instance.process.wait(timeout=10)
                    tail = pathlib.Path(instance.log).read_text().splitlines()[-15:]
                    stuck.append(f"instance {instance.port} did not stop within 10 s of SIGTERM; its log ends:\n" + "\n".join(tail))
        assert not stuck, "\n".join(stuck)


class Instance:
    def __init__(self, port, process, log):
        self.port = port
        self.process = process
        self.log = log
        self.url = f"http://127.0.0.1:{port}"
