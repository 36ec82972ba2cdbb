"""A scripted model endpoint for the host runs (scripts/test-hosts.sh, docs/compatibility.md).

It owns one job: play the model for one AI host on 127.0.0.1, in the four wire formats the
pinned hosts speak (Anthropic Messages, Gemini generateContent / streamGenerateContent, OpenAI
Responses, OpenAI chat completions), and record what the host did. Turn one asks for a call of
the host's own name for `search_aios` with a fixed query; the turn that carries that call's
result is checked for a marker only the real AIOS folder holds. Every request is logged.

The skill scenario (Anthropic Messages only, for Claude Code) follows a skill over MCP alone:
turn one asks for `resolve_skill` with a fixed intent; the turn that carries its result asks the
host's own resource reader (`ReadMcpResourceTool`) for the `aios://skills/…/SKILL.md` URI that
result named; the turn that carries the resource is checked for a token only that skill's body
holds (resolve_skill's own copy of the body's start is not counted), and the final answer
repeats the token only when the resource carried it.

What it must never do: listen anywhere but loopback, forward or fetch anything, or decide a level
from anything but what the host sent (the prompt never contains the marker).
"""

from __future__ import annotations

import http.server
import json
import re
import sys
import threading
import time

# Bounds on what a host may send: one request body, and how deep a tool result is searched.
MAX_BODY = 8 * 1024 * 1024
MAX_DEPTH = 64
# A skill's resource URI as resolve_skill names it (contract 05 §7.7), bounded.
SKILL_URI = re.compile(r"aios://skills/[A-Za-z0-9._~%-]{1,765}/SKILL\.md")


class Script:
    """The expected tool, the query, the marker, and what was observed (thread-safe)."""

    def __init__(self, tool: str, query: str, marker: str, log_path: str,
                 arguments: dict | None = None, follow: tuple[str, str] | None = None):
        self.tool = tool
        self.query = query
        self.marker = marker
        self.log_path = log_path
        # The first call's arguments (search_aios: the query; resolve_skill: the intent).
        self.arguments = arguments if arguments is not None else {"query": query}
        # (resource tool, MCP server name): read the URI the first result names, and look for
        # the marker in that read's result instead of the first one.
        self.follow = follow
        self.lock = threading.Lock()
        self.requests = 0
        self.tools_offered: list[str] = []
        self.call_sent = False
        self.result_seen = False
        self.marker_seen = False
        self.result_excerpt = ""
        self.follow_uri: str | None = None
        self.follow_seen = False

    def log(self, record: dict) -> None:
        with self.lock:
            record["t"] = round(time.time(), 3)
            with open(self.log_path, "a", encoding="utf-8") as log:
                log.write(json.dumps(record, ensure_ascii=False) + "\n")

    def observe_tools(self, names: list[str]) -> None:
        with self.lock:
            if names and not self.tools_offered:
                self.tools_offered = names

    def observe_result(self, text: str) -> None:
        with self.lock:
            self.result_seen = True
            if self.follow is None and self.marker in text:
                self.marker_seen = True
            if not self.result_excerpt:
                self.result_excerpt = text[:400]

    def observe_follow(self, text: str) -> None:
        with self.lock:
            self.follow_seen = True
            if self.marker in text:
                self.marker_seen = True

    def summary(self) -> dict:
        with self.lock:
            return {
                "requests": self.requests,
                "tools_offered": self.tools_offered,
                "call_sent": self.call_sent,
                "result_seen": self.result_seen,
                "marker_seen": self.marker_seen,
                "result_excerpt": self.result_excerpt,
                "follow_uri": self.follow_uri,
                "follow_seen": self.follow_seen,
            }


def texts_in(value, depth: int = 0) -> list[str]:
    """Every string below `value` (a tool result may be a string, parts, or nested JSON)."""
    if depth > MAX_DEPTH:
        return []
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [t for item in value for t in texts_in(item, depth + 1)]
    if isinstance(value, dict):
        return [t for item in value.values() for t in texts_in(item, depth + 1)]
    return []


# --- per-API readers: (tool names offered, results of our call, whether it is a tool turn) ---


def anthropic_view(body: dict, tool: str):
    names = [t.get("name", "") for t in body.get("tools") or [] if isinstance(t, dict)]
    call_ids = set()
    results = []
    for message in body.get("messages") or []:
        content = message.get("content")
        if not isinstance(content, list):
            continue
        for block in content:
            if not isinstance(block, dict):
                continue
            if block.get("type") == "tool_use" and block.get("name") == tool:
                call_ids.add(block.get("id"))
            if block.get("type") == "tool_result" and block.get("tool_use_id") in call_ids:
                results.append("\n".join(texts_in(block.get("content"))))
    return names, results


def gemini_view(body: dict, tool: str):
    names = []
    for group in body.get("tools") or []:
        for decl in (group or {}).get("functionDeclarations") or []:
            names.append(decl.get("name", ""))
    results = []
    for content in body.get("contents") or []:
        for part in (content or {}).get("parts") or []:
            response = (part or {}).get("functionResponse")
            if isinstance(response, dict) and response.get("name") == tool:
                results.append("\n".join(texts_in(response.get("response"))))
    return names, results


def responses_view(body: dict, tool: str):
    names = []
    for entry in body.get("tools") or []:
        if not isinstance(entry, dict):
            continue
        if entry.get("type") == "namespace":
            for inner in entry.get("tools") or []:
                names.append(f"{entry.get('name')}/{(inner or {}).get('name')}")
        elif entry.get("name"):
            names.append(entry["name"])
    call_ids = set()
    results = []
    items = body.get("input")
    for item in items if isinstance(items, list) else []:
        if not isinstance(item, dict):
            continue
        full = f"{item.get('namespace')}/{item.get('name')}" if item.get("namespace") else item.get("name")
        if item.get("type") == "function_call" and full == tool:
            call_ids.add(item.get("call_id"))
        if item.get("type") == "function_call_output" and item.get("call_id") in call_ids:
            results.append("\n".join(texts_in(item.get("output"))))
    return names, results


def chat_view(body: dict, tool: str):
    names = [
        ((t or {}).get("function") or {}).get("name", "")
        for t in body.get("tools") or []
        if isinstance(t, dict)
    ]
    call_ids = set()
    results = []
    for message in body.get("messages") or []:
        if not isinstance(message, dict):
            continue
        for call in message.get("tool_calls") or []:
            if ((call or {}).get("function") or {}).get("name") == tool:
                call_ids.add(call.get("id"))
        if message.get("role") == "tool" and message.get("tool_call_id") in call_ids:
            results.append("\n".join(texts_in(message.get("content"))))
    return names, results


# --- per-API writers ---------------------------------------------------------------------


def sse(event: str | None, data) -> bytes:
    head = f"event: {event}\n" if event else ""
    return (head + "data: " + json.dumps(data) + "\n\n").encode()


def anthropic_reply(model: str, call: dict | None, text: str, stream: bool):
    usage = {"input_tokens": 10, "output_tokens": 5}
    if call:
        block = {"type": "tool_use", "id": call.get("id", "toolu_dotaios_1"), "name": call["name"],
                 "input": call["input"]}
        stop = "tool_use"
    else:
        block = {"type": "text", "text": text}
        stop = "end_turn"
    if not stream:
        return "application/json", [json.dumps({
            "id": "msg_dotaios", "type": "message", "role": "assistant", "model": model,
            "content": [block], "stop_reason": stop, "stop_sequence": None, "usage": usage,
        }).encode()]
    start = dict(block, input={}) if call else dict(block, text="")
    delta = (
        {"type": "input_json_delta", "partial_json": json.dumps(call["input"])}
        if call
        else {"type": "text_delta", "text": text}
    )
    return "text/event-stream", [
        sse("message_start", {"type": "message_start", "message": {
            "id": "msg_dotaios", "type": "message", "role": "assistant", "model": model,
            "content": [], "stop_reason": None, "stop_sequence": None,
            "usage": {"input_tokens": 10, "output_tokens": 1}}}),
        sse("content_block_start", {"type": "content_block_start", "index": 0, "content_block": start}),
        sse("content_block_delta", {"type": "content_block_delta", "index": 0, "delta": delta}),
        sse("content_block_stop", {"type": "content_block_stop", "index": 0}),
        sse("message_delta", {"type": "message_delta",
                              "delta": {"stop_reason": stop, "stop_sequence": None},
                              "usage": {"output_tokens": 5}}),
        sse("message_stop", {"type": "message_stop"}),
    ]


def gemini_reply(model: str, call: dict | None, text: str, stream: bool):
    part = {"functionCall": {"name": call["name"], "args": call["input"]}} if call else {"text": text}
    chunk = {
        "candidates": [{"content": {"role": "model", "parts": [part]}, "finishReason": "STOP", "index": 0}],
        "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15},
        "modelVersion": model,
    }
    if stream:
        return "text/event-stream", [sse(None, chunk)]
    return "application/json", [json.dumps(chunk).encode()]


def responses_reply(model: str, call: dict | None, text: str):
    if call:
        item = {"type": "function_call", "id": "fc_dotaios_1", "call_id": "call_dotaios_1",
                "name": call["name"], "arguments": json.dumps(call["input"]), "status": "completed"}
        if call.get("namespace"):
            item["namespace"] = call["namespace"]
    else:
        item = {"type": "message", "id": "msg_dotaios_1", "role": "assistant", "status": "completed",
                "content": [{"type": "output_text", "text": text, "annotations": []}]}
    response = {"id": "resp_dotaios", "object": "response", "created_at": int(time.time()),
                "status": "in_progress", "model": model, "output": []}
    done = dict(response, status="completed", output=[item], usage={
        "input_tokens": 10, "input_tokens_details": {"cached_tokens": 0},
        "output_tokens": 5, "output_tokens_details": {"reasoning_tokens": 0}, "total_tokens": 15})
    return "text/event-stream", [
        sse("response.created", {"type": "response.created", "response": response}),
        sse("response.output_item.added", {"type": "response.output_item.added", "output_index": 0, "item": item}),
        sse("response.output_item.done", {"type": "response.output_item.done", "output_index": 0, "item": item}),
        sse("response.completed", {"type": "response.completed", "response": done}),
    ]


def chat_reply(model: str, call: dict | None, text: str, stream: bool):
    base = {"id": "chatcmpl-dotaios", "created": int(time.time()), "model": model}
    usage = {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}
    if call:
        tool_call = {"id": "call_dotaios_1", "type": "function",
                     "function": {"name": call["name"], "arguments": json.dumps(call["input"])}}
        message = {"role": "assistant", "content": None, "tool_calls": [tool_call]}
        finish = "tool_calls"
    else:
        message = {"role": "assistant", "content": text}
        finish = "stop"
    if not stream:
        return "application/json", [json.dumps(dict(base, object="chat.completion", usage=usage, choices=[
            {"index": 0, "message": message, "finish_reason": finish}])).encode()]
    delta = dict(message, tool_calls=[dict(tool_call, index=0)]) if call else message
    chunk = dict(base, object="chat.completion.chunk")
    return "text/event-stream", [
        sse(None, dict(chunk, choices=[{"index": 0, "delta": delta, "finish_reason": None}])),
        sse(None, dict(chunk, choices=[{"index": 0, "delta": {}, "finish_reason": finish}])),
        sse(None, dict(chunk, choices=[], usage=usage)),
        b"data: [DONE]\n\n",
    ]


# Gemini CLI routes each prompt through a small classifier model first; it expects this JSON.
GEMINI_ROUTER_TEXT = json.dumps({"complexity_reasoning": "Simple read operation.", "complexity_score": 10})


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    script: Script  # set on the subclass by `serve`

    def log_message(self, *args):  # requests go to the JSON log, not stderr
        pass

    def do_GET(self):
        self.script.log({"method": "GET", "path": self.path})
        self.send_json(404, {"error": {"message": "not served by the scripted endpoint"}})

    def do_HEAD(self):
        self.send_response(404)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def send_json(self, status: int, value) -> None:
        data = json.dumps(value).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        if length < 0 or length > MAX_BODY:
            self.send_json(413, {"error": {"message": "body too large"}})
            return
        raw = self.rfile.read(length)
        try:
            body = json.loads(raw or b"{}")
        except (ValueError, RecursionError):  # RecursionError: nesting deeper than the stack
            body = None
        if not isinstance(body, dict):
            self.script.log({"method": "POST", "path": self.path, "error": "body is not a JSON object"})
            self.send_json(400, {"error": {"message": "body is not a JSON object"}})
            return
        with self.script.lock:
            self.script.requests += 1
        path = self.path.split("?", 1)[0]
        script = self.script
        model = str(body.get("model") or "scripted")
        if path.endswith("/messages/count_tokens"):
            kind, view = "anthropic-count", None
        elif path.endswith("/messages"):
            kind, view = "anthropic", anthropic_view
        elif ":generateContent" in path or ":streamGenerateContent" in path:
            kind, view = "gemini", gemini_view
            model = path.rsplit("/", 1)[-1].split(":", 1)[0]
        elif path.endswith("/responses"):
            kind, view = "responses", responses_view
        elif path.endswith("/chat/completions"):
            kind, view = "chat", chat_view
        else:
            kind, view = "unknown", None
        record = {"method": "POST", "path": self.path, "kind": kind, "bytes": len(raw)}
        if view is None:
            script.log(record)
            if kind == "anthropic-count":
                self.send_json(200, {"input_tokens": 10})
            else:
                self.send_json(404, {"error": {"message": "not served by the scripted endpoint"}})
            return
        names, results = view(body, script.tool)
        followed = view(body, script.follow[0])[1] if script.follow else []
        if names and not script.tools_offered:
            record["names"] = names
        script.observe_tools(names)
        for text in results:
            script.observe_result(text)
        for text in followed:
            script.observe_follow(text)
        call = None
        if followed:
            text = f"The skill says: {script.marker}" if script.marker_seen else "No marker."
        elif results and script.follow and script.follow_uri is None:
            found = next((m.group(0) for r in results for m in [SKILL_URI.search(r)] if m), None)
            if found and script.follow[0] in names:
                with script.lock:
                    script.follow_uri = found
                call = {"name": script.follow[0], "id": "toolu_dotaios_2",
                        "input": {"server": script.follow[1], "uri": found}}
                text = ""
            else:
                text = "No resource to read."
        elif results:
            text = "The dotaios tool result reached the model." if script.marker_seen else "No marker."
        elif script.tool in names and not script.call_sent:
            call = {"name": script.tool, "input": dict(script.arguments)}
            if kind == "responses" and "/" in script.tool:
                call["namespace"], call["name"] = script.tool.split("/", 1)
            with script.lock:
                script.call_sent = True
            text = ""
        elif kind == "gemini" and ":generateContent" in path:
            text = GEMINI_ROUTER_TEXT
        else:
            text = "Scripted reply."
        record.update(tools=len(names), offered=script.tool in names, results=len(results),
                      call=bool(call), marker=any(script.marker in r for r in results + followed))
        if script.follow:
            record.update(followed=len(followed), follow_offered=script.follow[0] in names)
        script.log(record)
        stream = bool(body.get("stream")) or "alt=sse" in self.path or ":streamGenerateContent" in path
        if kind == "anthropic":
            ctype, chunks = anthropic_reply(model, call, text, stream)
        elif kind == "gemini":
            ctype, chunks = gemini_reply(model, call, text, stream)
        elif kind == "responses":
            ctype, chunks = responses_reply(model, call, text)
        else:
            ctype, chunks = chat_reply(model, call, text, stream)
        self.send_response(200)
        self.send_header("Content-Type", ctype)
        if ctype == "text/event-stream":
            self.send_header("Cache-Control", "no-cache")
            self.send_header("Connection", "close")
            self.close_connection = True
            self.end_headers()
            for chunk in chunks:
                self.wfile.write(chunk)
                self.wfile.flush()
        else:
            data = b"".join(chunks)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)


class Server(http.server.ThreadingHTTPServer):
    """Logs a broken connection (a host killed mid-request) instead of printing a traceback."""

    script: Script

    def handle_error(self, request, client_address):
        self.script.log({"error": f"connection from {client_address[0]} broke: {sys.exc_info()[1]!r}"})


def serve(script: Script) -> http.server.ThreadingHTTPServer:
    """Starts the endpoint on 127.0.0.1 at a port the kernel picks; returns the running server."""
    handler = type("ScriptedHandler", (Handler,), {"script": script})
    server = Server(("127.0.0.1", 0), handler)
    server.script = script
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server
