"""The deployment ``docs/how-to/deploy.md`` describes, as it describes it: three ``kniffel serve`` processes
on one
PostgreSQL database behind nginx with the guide's own configuration (read from the guide, not copied
here), HTTPS with a self-signed certificate, the trusted proxy's ``X-Forwarded-For`` and the allowed host.

A game is played through it in Chromium (its WebSocket goes through the proxy), a client's forged
``X-Forwarded-For`` gains it nothing, a foreign ``Host`` is refused, and the large-head, slow-reader and
trickling attacks are stopped at the proxy while a fresh client is served. Skipped, saying why, where
nginx, openssl, Chromium or the PostgreSQL test database (``KNIFFEL_TEST_POSTGRES_URL``) are missing.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import socket
import ssl
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from support.web import ServerProcess, free_port

DOC = Path(__file__).parents[2] / "docs" / "how-to" / "deploy.md"
NAME = "kniffel.example.org"
CHROMIUM = os.environ.get("KNIFFEL_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
POSTGRES = os.environ.get("KNIFFEL_TEST_POSTGRES_URL")
PROCESSES = 3

for missing, why in (
    (not Path(NGINX).exists(), "no nginx (apt-get install nginx; scripts/test installs it as root)"),
    (shutil.which("openssl") is None, "no openssl to make the certificate"),
    (not Path(CHROMIUM).exists(), f"no Chromium at {CHROMIUM} (apt-get install chromium)"),
    (POSTGRES is None, "KNIFFEL_TEST_POSTGRES_URL is not set (scripts/test sets it up as root)"),
    (not sys.platform.startswith("linux"), "clients from several loopback addresses need Linux"),
):
    if missing:
        pytest.skip(why, allow_module_level=True)


def documented_nginx() -> str:
    """The nginx configuration of the guide's section "nginx", as it stands there."""
    text = DOC.read_text(encoding="utf-8")
    section = text[text.index("\n## nginx") :]
    found = re.search(r"```nginx\n(.*?)```", section, re.DOTALL)
    assert found is not None, "docs/how-to/deploy.md shows nginx's configuration"
    return found.group(1)


@dataclass(frozen=True)
class Site:
    port: int
    """nginx's HTTPS port (the guide's 443)."""
    directory: Path
    servers: list[ServerProcess]

    @property
    def url(self) -> str:
        return f"https://127.0.0.1:{self.port}"

    def client(self, address: str = "127.0.0.1") -> httpx.Client:
        """A client from ``address`` that names the site, trusting its self-signed certificate."""
        return httpx.Client(
            base_url=self.url,
            headers={"host": NAME},
            verify=False,
            transport=httpx.HTTPTransport(local_address=address, verify=False),
            timeout=20,
        )

    def tls(self, address: str, window: int | None = None) -> ssl.SSLSocket:
        """A TLS connection to nginx from ``address``, for the attacks that write raw bytes; ``window``:
        its receive buffer (a reader that takes nothing keeps it small)."""
        context = ssl.create_default_context()
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
        raw = socket.socket()
        if window is not None:
            raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, window)
        raw.settimeout(20)
        raw.bind((address, 0))
        raw.connect(("127.0.0.1", self.port))
        return context.wrap_socket(raw, server_hostname=NAME)


def nginx_conf(documented: str, directory: Path, port: int, upstreams: list[int]) -> str:
    """The guide's configuration with this test's ports and certificate, inside the few lines a whole
    nginx.conf needs around a ``conf.d`` file (a process of its own, its files in ``directory``)."""
    site = documented.replace("listen 443 ssl;", f"listen 127.0.0.1:{port} ssl;")
    for number, upstream in enumerate(upstreams, 1):
        site = site.replace(f"server 127.0.0.1:800{number};", f"server 127.0.0.1:{upstream};")
    site = re.sub(r"ssl_certificate\s+\S+;", f"ssl_certificate {directory / 'cert.pem'};", site)
    site = re.sub(r"ssl_certificate_key\s+\S+;", f"ssl_certificate_key {directory / 'key.pem'};", site)
    for documented_only in ("8001", "443", "letsencrypt"):  # as whole words: a free port may be 59443
        assert not re.search(rf"\b{documented_only}\b", site), site
    temp = "\n".join(
        f"    {kind}_temp_path {directory / kind};"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    return f"""daemon off;
master_process on;
worker_processes 1;
user root;
pid {directory / "nginx.pid"};
error_log {directory / "error.log"} info;
events {{ worker_connections 1024; }}
http {{
    access_log {directory / "access.log"};
{temp}
{site}
}}
"""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    directory = tmp_path_factory.mktemp("deploy")
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", f"/CN={NAME}",
         "-addext", f"subjectAltName=DNS:{NAME}", "-keyout", str(directory / "key.pem"),
         "-out", str(directory / "cert.pem")],
        check=True, capture_output=True,
    )  # fmt: skip
    assert POSTGRES is not None
    env = {"KNIFFEL_TRUSTED_PROXIES": "127.0.0.1", "KNIFFEL_ALLOWED_HOSTS": NAME, "KNIFFEL_CREATE_BURST": "3"}
    ports: set[int] = set()
    while len(ports) < PROCESSES + 1:  # free_port may give a port it gave a moment ago
        ports.add(free_port())
    port, *upstreams = sorted(ports)
    servers = [
        ServerProcess(
            POSTGRES, port=upstream, env=env, host=NAME, log_path=directory / f"server{n}.log", bot_delay=0.05
        )
        for n, upstream in enumerate(upstreams)
    ]
    conf = directory / "nginx.conf"
    conf.write_text(nginx_conf(documented_nginx(), directory, port, [s.port for s in servers]))
    checked = subprocess.run([NGINX, "-t", "-c", str(conf)], capture_output=True, text=True)
    assert checked.returncode == 0, f"the guide's configuration does not load: {checked.stderr}"
    with contextlib.ExitStack() as stack:
        for server in servers:
            server.launch()
            stack.callback(server.stop)
        for server in servers:
            server.wait()
        nginx = subprocess.Popen([NGINX, "-c", str(conf)], stderr=subprocess.DEVNULL)
        stack.callback(nginx.wait, 10)
        stack.callback(nginx.terminate)
        deadline = time.monotonic() + 30
        while True:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=1):
                break
            assert time.monotonic() < deadline, "nginx did not start"
            time.sleep(0.2)
        yield Site(port, directory, servers)
    for n in range(PROCESSES):
        assert "Traceback" not in (directory / f"server{n}.log").read_text(), f"server {n} logged a crash"


def test_a_game_is_played_through_the_proxy_in_the_browser(site: Site) -> None:
    from playwright.sync_api import sync_playwright

    args = ["--headless", "--no-sandbox", "--disable-gpu", f"--host-resolver-rules=MAP {NAME} 127.0.0.1"]
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=args)
        try:
            page = browser.new_context(ignore_https_errors=True).new_page()
            page.set_default_timeout(60_000)
            page.goto(f"https://{NAME}:{site.port}/")
            page.wait_for_selector("body[data-ready='1']")
            page.locator("#seats li").first.locator(".seat-name").fill("Ada")
            page.click("#create-button")
            page.wait_for_selector("#result:not([hidden])")
            page.goto(page.locator("#links .invite").first.input_value())
            assert page.url.startswith(f"https://{NAME}:{site.port}/g/")
            page.click("#roll")  # over the WebSocket, through nginx (wss)
            page.wait_for_selector("body[data-seq='1']")
            assert page.locator("#connection").get_attribute("data-status") == "connected"
        finally:
            browser.close()


def test_the_proxy_names_the_client_and_a_forged_header_gains_nothing(site: Site) -> None:
    """Each address has its allowance of new games (3 here) through the one proxy; writing
    ``X-Forwarded-For`` oneself gives no fresh one, as nginx appends the address it saw."""
    body = {"seats": [{"name": "Bo"}]}
    with site.client("127.0.0.2") as forger:
        statuses = [
            forger.post("/api/games", json=body, headers={"x-forwarded-for": f"10.9.8.{n}"}).status_code
            for n in range(5)
        ]
    assert statuses[:3] == [201, 201, 201], statuses
    assert statuses[3:] == [429, 429], "a forged X-Forwarded-For is no fresh allowance"
    with site.client("127.0.0.3") as other:
        assert other.post("/api/games", json=body).status_code == 201, "another person behind the proxy"
        wrong = other.get("/api/health", headers={"host": "evil.example"})
    assert wrong.status_code == 400
    assert wrong.json()["error"] == "wrong_host"


def large_head(site: Site) -> str:
    with site.tls("127.0.0.4") as sock:
        with contextlib.suppress(OSError):
            sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: " + NAME.encode() + b"\r\nX-Big: ")
            for _ in range(2048):  # up to 8 MB
                sock.sendall(b"a" * 4096)
        return read_status(sock)


def slow_reader(site: Site) -> str:
    """Pipelines requests for the table's script and reads nothing: nginx drops it at its send_timeout."""
    requests = 100
    script = (Path(__file__).parents[2] / "src/kniffel/apps/web/static/table.js").stat().st_size
    with site.tls("127.0.0.5", window=4096) as sock:
        with contextlib.suppress(OSError):
            sock.sendall(f"GET /static/table.js HTTP/1.1\r\nHost: {NAME}\r\n\r\n".encode() * requests)
        # The guide's send_timeout is 10 s: wait until nginx says it gave up sending, then read.
        log = site.directory / "error.log"
        deadline = time.monotonic() + 40
        while "while sending to client" not in log.read_text() and time.monotonic() < deadline:
            time.sleep(0.5)
        sock.settimeout(20)
        read = 0
        with contextlib.suppress(OSError):
            while chunk := sock.recv(65536):
                read += len(chunk)
    return "dropped" if read < requests * script else f"all {read} bytes sent"


def trickle(site: Site) -> str:
    """A head sent a byte a second: nginx closes it at its client_header_timeout, 10 s."""
    with site.tls("127.0.0.6") as sock:
        started = time.monotonic()
        head = b"GET /api/health HTTP/1.1\r\nHost: " + NAME.encode() + b"\r\nX-Slow: "
        with contextlib.suppress(OSError):
            for byte in head + b"a" * 60:
                sock.send(bytes([byte]))
                time.sleep(1)
        return f"closed after {time.monotonic() - started:.0f} s"


def read_status(sock: ssl.SSLSocket) -> str:
    sock.settimeout(20)
    answer = b""
    with contextlib.suppress(OSError):
        while chunk := sock.recv(4096):
            answer += chunk
    return answer[9:12].decode() if answer.startswith(b"HTTP/1.1 ") else "closed"


def test_the_attacks_stop_at_the_proxy(site: Site) -> None:
    """A 8 MB head is answered 400 after its first kilobytes, a client reading nothing is dropped at
    nginx's send_timeout, a trickled head at its client_header_timeout; meanwhile a fresh client is
    served, and the processes behind the proxy never see the attacks."""
    results: dict[str, str] = {}
    attacks = {"large head": large_head, "slow reader": slow_reader, "trickle": trickle}
    threads = [
        threading.Thread(target=lambda name=name, attack=attack: results.update({name: attack(site)}))
        for name, attack in attacks.items()
    ]
    for thread in threads:
        thread.start()
    time.sleep(3)
    with site.client("127.0.0.7") as fresh:
        assert fresh.get("/").status_code == 200
        assert fresh.post("/api/games", json={"seats": [{"name": "Cy"}]}).status_code == 201
    for thread in threads:
        thread.join(120)
    assert results["large head"] == "400", results
    assert results["slow reader"] == "dropped", results
    said = (site.directory / "error.log").read_text()
    assert "timed out" in said, "nginx says why it dropped the reader and the trickle"
    seconds = int(results["trickle"].split()[2])
    assert 8 <= seconds < 40, results
    for number in range(PROCESSES):
        assert "Traceback" not in (site.directory / f"server{number}.log").read_text()
