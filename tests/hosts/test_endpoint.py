"""Unit tests of the scripted endpoint: each wire format asks for the call once, reads the tool
result back, and tells a result with the marker from one without it. Stdlib only:
`python3 -m unittest discover -s tests/hosts` (scripts/test-hosts.sh runs it first)."""

from __future__ import annotations

import http.client
import json
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import endpoint  # noqa: E402

MARKER = "37 constituents"
RESULT = '{"results":[{"content":"Tidepool uses 37 constituents and nodal corrections."}]}'


class EndpointTest(unittest.TestCase):
    def start(self, tool: str) -> endpoint.Script:
        handle, log = tempfile.mkstemp()
        os.close(handle)
        self.addCleanup(os.remove, log)
        script = endpoint.Script(tool, "nodal corrections", MARKER, log)
        server = endpoint.serve(script)
        self.addCleanup(server.server_close)
        self.addCleanup(server.shutdown)
        self.port = server.server_address[1]
        return script

    def post(self, path: str, body) -> tuple[int, str]:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        connection.request("POST", path, data, {"Content-Type": "application/json"})
        response = connection.getresponse()
        text = response.read().decode()
        connection.close()
        return response.status, text

    def test_anthropic_messages_stream_asks_once_and_reads_the_result(self):
        script = self.start("mcp__dotaios__search_aios")
        tools = [{"name": "mcp__dotaios__search_aios"}, {"name": "Read"}]
        first = {"model": "m", "stream": True, "tools": tools,
                 "messages": [{"role": "user", "content": "search"}]}
        status, text = self.post("/v1/messages?beta=true", first)
        self.assertEqual(status, 200)
        self.assertIn('"type": "tool_use"', text)
        self.assertIn("input_json_delta", text)
        self.assertIn('\\"query\\": \\"nodal corrections\\"', text)
        self.assertIn("event: message_stop", text)
        second = dict(first, messages=[
            first["messages"][0],
            {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_dotaios_1",
                                               "name": "mcp__dotaios__search_aios", "input": {}}]},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_dotaios_1",
                                          "content": [{"type": "text", "text": RESULT}]}]},
        ])
        status, text = self.post("/v1/messages?beta=true", second)
        self.assertNotIn("tool_use", text)
        summary = script.summary()
        self.assertTrue(summary["call_sent"] and summary["result_seen"] and summary["marker_seen"])
        self.assertEqual(summary["tools_offered"], ["mcp__dotaios__search_aios", "Read"])

    def test_chat_completions_stream_as_kimi_code_sends_it(self):
        # The shape Kimi Code 2.1.0 sends: `stream_options`, `thinking`, an assistant turn with
        # `tool_calls` and no `content`, the result as a string with a timing line first.
        script = self.start("mcp__dotaios__search_aios")
        tools = [{"type": "function", "function": {"name": n, "parameters": {}}}
                 for n in ["Bash", "mcp__dotaios__search_aios"]]
        first = {"model": "scripted", "stream": True, "stream_options": {"include_usage": True},
                 "thinking": {"type": "disabled"}, "tools": tools,
                 "messages": [{"role": "system", "content": "s"}, {"role": "user", "content": "search"}]}
        status, text = self.post("/v1/chat/completions", first)
        self.assertEqual(status, 200)
        chunks = [json.loads(line[len("data: "):]) for line in text.split("\n")
                  if line.startswith("data: {")]
        call = chunks[0]["choices"][0]["delta"]["tool_calls"][0]
        self.assertEqual((call["index"], call["function"]["name"]), (0, "mcp__dotaios__search_aios"))
        self.assertEqual(json.loads(call["function"]["arguments"]), {"query": "nodal corrections"})
        self.assertEqual(chunks[1]["choices"][0]["finish_reason"], "tool_calls")
        self.assertTrue(text.endswith("data: [DONE]\n\n"))
        second = dict(first, messages=first["messages"] + [
            {"role": "assistant", "tool_calls": [{"id": call["id"], "type": "function",
                                                  "function": call["function"]}]},
            {"role": "tool", "tool_call_id": call["id"], "content": "Wall time: 0.02 seconds\n" + RESULT},
        ])
        status, text = self.post("/v1/chat/completions", second)
        self.assertNotIn("tool_calls", text)
        summary = script.summary()
        self.assertTrue(summary["call_sent"] and summary["result_seen"] and summary["marker_seen"])
        self.assertEqual(summary["tools_offered"], ["Bash", "mcp__dotaios__search_aios"])

    def test_a_result_without_the_marker_is_not_produced(self):
        script = self.start("dotaios_search_aios")
        tools = [{"type": "function", "function": {"name": "dotaios_search_aios"}}]
        status, text = self.post("/v1/chat/completions", {"stream": True, "tools": tools, "messages": []})
        self.assertIn('"tool_calls"', text)
        self.assertTrue(text.endswith("data: [DONE]\n\n"))
        self.post("/v1/chat/completions", {"stream": True, "tools": tools, "messages": [
            {"role": "assistant", "tool_calls": [{"id": "call_dotaios_1",
                                                  "function": {"name": "dotaios_search_aios"}}]},
            {"role": "tool", "tool_call_id": "call_dotaios_1", "content": '{"results":[]}'},
        ]})
        summary = script.summary()
        self.assertTrue(summary["result_seen"])
        self.assertFalse(summary["marker_seen"])

    def start_skill(self) -> endpoint.Script:
        handle, log = tempfile.mkstemp()
        os.close(handle)
        self.addCleanup(os.remove, log)
        script = endpoint.Script("mcp__dotaios__resolve_skill", "calibrate the tide gauge", "HERON-1",
                                 log, arguments={"intent": "calibrate the tide gauge"},
                                 follow=("ReadMcpResourceTool", "dotaios"))
        server = endpoint.serve(script)
        self.addCleanup(server.server_close)
        self.addCleanup(server.shutdown)
        self.port = server.server_address[1]
        return script

    def skill_turns(self, resolved: str, body: str) -> list[str]:
        """The skill scenario's three Anthropic turns; the replies to each."""
        tools = [{"name": "mcp__dotaios__resolve_skill"}, {"name": "ReadMcpResourceTool"}]
        user = {"role": "user", "content": "resolve"}
        resolve = [{"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_dotaios_1",
                                                       "name": "mcp__dotaios__resolve_skill", "input": {}}]},
                   {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_dotaios_1",
                                                 "content": [{"type": "text", "text": resolved}]}]}]
        read = [{"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_dotaios_2",
                                                    "name": "ReadMcpResourceTool", "input": {}}]},
                {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_dotaios_2",
                                              "content": body}]}]
        replies = []
        for messages in ([user], [user, *resolve], [user, *resolve, *read]):
            status, text = self.post("/v1/messages", {"model": "m", "tools": tools, "messages": messages})
            self.assertEqual(status, 200)
            replies.append(text)
        return replies

    def test_the_skill_scenario_reads_the_resolved_uri_and_finds_the_token_only_there(self):
        script = self.start_skill()
        resolved = '{"matches":[{"name":"tide","uri":"aios://skills/tide-gauge/SKILL.md"}]}'
        first, second, third = self.skill_turns(resolved, "# Tide\nState HERON-1.")
        self.assertIn('"intent": "calibrate the tide gauge"', first)
        self.assertIn('"name": "ReadMcpResourceTool"', second)
        self.assertIn('"uri": "aios://skills/tide-gauge/SKILL.md"', second)
        self.assertIn('"server": "dotaios"', second)
        self.assertIn("The skill says: HERON-1", third)
        summary = script.summary()
        self.assertTrue(summary["marker_seen"] and summary["follow_seen"])

    def test_the_skill_token_counts_only_in_the_resource_read(self):
        script = self.start_skill()
        resolved = '{"matches":[{"name":"tide","uri":"aios://skills/tide-gauge/SKILL.md","description":"HERON-1"}]}'
        _, _, third = self.skill_turns(resolved, "# Tide\nNo token here.")
        self.assertIn("No marker.", third)
        self.assertFalse(script.summary()["marker_seen"])

    def test_a_resolve_result_without_a_uri_reads_nothing(self):
        script = self.start_skill()
        _, second, _ = self.skill_turns('{"matches":[{"resource":"skills/tide/SKILL.md"}]}', "HERON-1")
        self.assertNotIn("ReadMcpResourceTool", second)
        self.assertIn("No resource to read.", second)
        self.assertIsNone(script.summary()["follow_uri"])

    def test_a_result_for_another_call_is_ignored(self):
        script = self.start("dotaios_search_aios")
        self.post("/v1/chat/completions", {"messages": [
            {"role": "assistant", "tool_calls": [{"id": "x", "function": {"name": "other"}}]},
            {"role": "tool", "tool_call_id": "x", "content": RESULT},
        ]})
        self.assertFalse(script.summary()["result_seen"])

    def test_gemini_router_then_stream_call_then_function_response(self):
        script = self.start("mcp_dotaios_search_aios")
        status, text = self.post("/v1beta/models/flash-lite:generateContent", {"contents": []})
        self.assertIn("complexity_score", json.loads(text)["candidates"][0]["content"]["parts"][0]["text"])
        tools = [{"functionDeclarations": [{"name": "mcp_dotaios_search_aios"}]}]
        status, text = self.post("/v1beta/models/flash:streamGenerateContent?alt=sse",
                                 {"contents": [], "tools": tools})
        self.assertTrue(text.startswith("data: "))
        self.assertIn('"functionCall"', text)
        self.post("/v1beta/models/flash:streamGenerateContent?alt=sse", {"tools": tools, "contents": [
            {"role": "user", "parts": [{"functionResponse": {"name": "mcp_dotaios_search_aios",
                                                             "response": {"output": RESULT}}}]},
        ]})
        self.assertTrue(script.summary()["marker_seen"])

    def test_responses_call_carries_the_namespace(self):
        script = self.start("mcp__dotaios/search_aios")
        tools = [{"type": "namespace", "name": "mcp__dotaios", "tools": [{"name": "search_aios"}]}]
        status, text = self.post("/v1/responses", {"stream": True, "tools": tools, "input": []})
        done = [json.loads(line[6:]) for line in text.split("\n") if line.startswith("data: ")]
        item = done[-1]["response"]["output"][0]
        self.assertEqual((item["namespace"], item["name"]), ("mcp__dotaios", "search_aios"))
        self.post("/v1/responses", {"tools": tools, "input": [
            {"type": "function_call", "namespace": "mcp__dotaios", "name": "search_aios",
             "call_id": "call_dotaios_1", "arguments": "{}"},
            {"type": "function_call_output", "call_id": "call_dotaios_1",
             "output": [{"type": "input_text", "text": RESULT}]},
        ]})
        self.assertTrue(script.summary()["marker_seen"])

    def test_the_call_is_asked_for_once(self):
        script = self.start("dotaios_search_aios")
        tools = [{"type": "function", "function": {"name": "dotaios_search_aios"}}]
        self.post("/v1/chat/completions", {"tools": tools, "messages": []})
        status, text = self.post("/v1/chat/completions", {"tools": tools, "messages": []})
        self.assertNotIn("tool_calls", text)
        self.assertTrue(script.summary()["call_sent"])

    def test_bad_bodies_get_one_error_and_the_server_goes_on(self):
        self.start("dotaios_search_aios")
        self.assertEqual(self.post("/v1/chat/completions", b"{not json")[0], 400)
        self.assertEqual(self.post("/v1/chat/completions", b"[1]")[0], 400)
        self.assertEqual(self.post("/v1/unknown", {})[0], 404)
        deep = b"[" * 100000 + b"]" * 100000
        self.assertEqual(self.post("/v1/chat/completions", deep)[0], 400)
        self.assertEqual(self.post("/v1/chat/completions", {"messages": []})[0], 200)

    def test_listens_on_loopback_only(self):
        self.start("x")
        with self.assertRaises(OSError):
            http.client.HTTPConnection("127.0.0.2", self.port, timeout=2).connect()


if __name__ == "__main__":
    unittest.main()
