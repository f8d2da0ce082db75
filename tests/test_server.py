"""The language server, driven as an editor drives it: JSON-RPC over the server's stdin/stdout."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("pygls")

COMPOSE = """\
# lint-configs: target-gpu=H100
services:
  sglang:
    command: python3 -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3
      --attention-backend fa4 --enable-deterministic-inference
"""


class Client:
    """A minimal LSP client: Content-Length framing, requests with ids, notifications collected."""

    def __init__(self, root: Path) -> None:
        self.proc = subprocess.Popen([sys.executable, "-m", "linter", "server"], cwd=root, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.next_id = 0
        self.notes: list[dict] = []

    def send(self, payload: dict) -> None:
        body = json.dumps(payload).encode()
        self.proc.stdin.write(f"Content-Length: {len(body)}\r\n\r\n".encode() + body)
        self.proc.stdin.flush()

    def read(self) -> dict:
        length = 0
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise EOFError(self.proc.stderr.read().decode())
            if line in (b"\r\n", b"\n"):
                break
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
        return json.loads(self.proc.stdout.read(length))

    def request(self, method: str, params: dict) -> dict:
        self.next_id += 1
        rid = self.next_id
        self.send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        while True:
            msg = self.read()
            if msg.get("id") == rid and "method" not in msg:
                return msg
            self.notes.append(msg)

    def notify(self, method: str, params: dict) -> None:
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def diagnostics(self, uri: str, timeout: float = 30) -> list[dict]:
        """The next publishDiagnostics for ``uri``."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            for i, msg in enumerate(self.notes):
                if msg.get("method") == "textDocument/publishDiagnostics" and msg["params"]["uri"] == uri:
                    del self.notes[i]
                    return msg["params"]["diagnostics"]
            self.notes.append(self.read())
        raise TimeoutError(uri)

    def close(self) -> None:
        try:
            self.request("shutdown", {})
            self.notify("exit", {})
            self.proc.wait(timeout=10)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()


@pytest.fixture
def client(tmp_path):
    c = Client(tmp_path)
    c.request("initialize", {"processId": None, "rootUri": tmp_path.as_uri(), "capabilities": {}})
    c.notify("initialized", {})
    yield c
    c.close()


def open_doc(client: Client, path: Path, text: str, language: str) -> str:
    uri = path.as_uri()
    client.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": language, "version": 1,
                                                            "text": text}})
    return uri


def test_compose_finding_fix_and_change(client, tmp_path):
    path = tmp_path / "compose.yaml"
    path.write_text("services: {}\n")  # on disk: something else — the buffer is what counts
    uri = open_doc(client, path, COMPOSE, "yaml")
    [diag] = client.diagnostics(uri)
    assert diag["code"] == "SGL101" and diag["source"] == "lint-configs"
    assert diag["range"] == {"start": {"line": 4, "character": 26}, "end": {"line": 4, "character": 29}}
    reply = client.request("textDocument/codeAction", {"textDocument": {"uri": uri}, "range": diag["range"],
                                                       "context": {"diagnostics": [diag]}})
    [action] = reply["result"]
    assert "safe fix" in action["title"]
    assert action["edit"]["changes"] == {uri: [{"range": diag["range"], "newText": "fa3"}]}
    hover = client.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": 3, "character": 6}})
    assert "on H100: attention backend fa4" in hover["result"]["contents"]["value"]
    client.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2},
                                             "contentChanges": [{"text": COMPOSE.replace("fa4", "fa3")}]})
    assert client.diagnostics(uri) == []


def test_a_value_in_env_is_fixed_in_env(client, tmp_path):
    (tmp_path / ".env").write_text("ATTN=fa4\n")
    text = COMPOSE.replace("--attention-backend fa4", "--attention-backend ${ATTN}")
    uri = open_doc(client, tmp_path / "compose.yaml", text, "yaml")
    env_uri = (tmp_path / ".env").as_uri()
    found = {uri: client.diagnostics(uri), env_uri: client.diagnostics(env_uri)}
    assert found[uri] == []
    [diag] = found[env_uri]
    assert diag["code"] == "SGL101" and diag["range"]["start"] == {"line": 0, "character": 5}
    reply = client.request("textDocument/codeAction", {"textDocument": {"uri": env_uri}, "range": diag["range"],
                                                       "context": {"diagnostics": [diag]}})
    [action] = reply["result"]
    assert list(action["edit"]["changes"]) == [env_uri]


def test_shell_script_and_an_unparseable_file(client, tmp_path):
    uri = open_doc(client, tmp_path / "serve.sh",
                   "#!/bin/bash\n# lint-configs: target-gpu=A100\npython3 -m sglang.launch_server "
                   "--model-path Qwen/Qwen3-8B --kv-cache-dtype mxfp8\n", "shellscript")
    [diag] = client.diagnostics(uri)
    assert diag["code"] == "SGL109"
    bad = open_doc(client, tmp_path / "broken.yaml", "services:\n  a: [\n  sglang:\n", "yaml")
    [diag] = client.diagnostics(bad)
    assert diag["code"] == "SGL001"


def test_an_unsaved_buffer_is_linted_by_its_language(client):
    uri = "untitled:Untitled-1"
    client.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "yaml", "version": 1,
                                                            "text": COMPOSE}})
    [diag] = client.diagnostics(uri)
    assert diag["code"] == "SGL101"
