"""The app's API as programs and agents call it, each through its official client, on the app launched on
localhost (the lite tier, offline): gradio_client, @gradio/client under Node (tests/js, installed by
scripts/install.sh --test), the MCP Python SDK over streamable HTTP; and the README's "Use it from code" examples,
run as written. A text turn needs only its text; audio and video go through each client's own file handling."""
import asyncio
import base64
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from support.api_turn import OUTPUTS, check_turn, download

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
JS_DIR = Path(__file__).resolve().parent / "js"
TEXT = "I finally got accepted into the nursing program!"
README_URL = "http://127.0.0.1:7860/"      # where the README's examples find the app
MISSING_TURN = "Give your latest turn"      # how the page's warning about a turn without text, audio or video begins


def heard_the_clip(kind: str, details: dict) -> bool:
    """The audio example's words were transcribed; the video example's face was read."""
    if kind == "audio":
        return "exam" in details["heard_text"].lower()
    return "face" in {vote["modality"] for vote in details["emotion"]["votes"]}


@pytest.fixture(scope="module")
def client(server):
    from gradio_client import Client
    return Client(server, verbose=False)


# -- gradio_client ---------------------------------------------------------------------------------------------
def test_every_argument_is_optional_with_its_documented_default(client):
    parameters = client.view_api(print_info=False, return_format="dict")["named_endpoints"]["/respond"]["parameters"]
    assert {p["parameter_name"]: (p["parameter_has_default"], p["parameter_default"]) for p in parameters} == {
        "text": (True, None), "audio": (True, None), "video": (True, None), "history_json": (True, "[]"),
        "avatar": (True, "luis"), "expression": (True, "listener")}
    assert [p["parameter_name"] for p in parameters][0] == "text"     # so a positional call may pass it alone


def test_gradio_client_text_turn_with_only_its_text_positionally(client):
    check_turn(*client.predict(TEXT, api_name="/respond"), heard=TEXT)


def test_gradio_client_lists_the_avatars(client):
    avatars = json.loads(client.predict(api_name="/list_avatars"))
    assert {"ava", "grace", "luis"} <= {avatar["name"] for avatar in avatars}
    assert [avatar["name"] for avatar in avatars if avatar["default"]] == ["luis"]


# -- @gradio/client (Node) -------------------------------------------------------------------------------------
def node(code: str, timeout: int = 300) -> str:
    """Runs an ES module under Node in tests/js (where @gradio/client is installed); its standard output."""
    if not shutil.which("node"):
        pytest.skip("Node is not installed")
    assert (JS_DIR / "node_modules" / "@gradio" / "client").is_dir(), "run scripts/install.sh --test (npm ci)"
    done = subprocess.run(["node", "--input-type=module"], input=code, cwd=JS_DIR, capture_output=True, text=True,
                          timeout=timeout)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


JS_TURN = """import { Client, handle_file } from "@gradio/client";
const client = await Client.connect(%(url)s);
try {
  const { data } = await client.predict("/respond", %(arguments)s);
  console.log(JSON.stringify({ data }));
} catch (error) {
  console.log(JSON.stringify({ error: error.message ?? String(error) }));
}
process.exit();     // the client would keep the session's heartbeat open
"""


def js_turn(server: str, arguments: str) -> dict:
    return json.loads(node(JS_TURN % {"url": json.dumps(server), "arguments": arguments}).strip().splitlines()[-1])


def check_fetched_turn(data: list, folder: Path, heard: str | None = None) -> dict:
    """A turn whose files came back as URLs (in FileData or as text): each downloaded, then checked."""
    assert len(data) == len(OUTPUTS)
    emotion, reply, *files, details = data
    paths = [download(file["url"] if isinstance(file, dict) else file, folder) for file in files]
    return check_turn(emotion, reply, *paths, details, heard=heard)


def test_js_client_text_turn_with_only_its_text(server, tmp_path):
    result = js_turn(server, json.dumps({"text": TEXT}))
    check_fetched_turn(result["data"], tmp_path, heard=TEXT)


@pytest.mark.parametrize("kind, name", [("audio", "turn_audio.wav"), ("video", "turn_video.mp4")])
def test_js_client_media_turn_through_handle_file(server, tmp_path, kind, name):
    result = js_turn(server, f"{{ {kind}: handle_file({json.dumps(str(EXAMPLES / name))}) }}")
    assert heard_the_clip(kind, check_fetched_turn(result["data"], tmp_path))


def test_js_client_gets_the_clear_message_for_a_turn_without_input(server):
    assert js_turn(server, "{}")["error"].startswith(MISSING_TURN)


# -- MCP (the official Python SDK, streamable HTTP) ------------------------------------------------------------
async def _mcp(server: str, calls):
    from mcp import ClientSession
    from mcp.client.streamable_http import streamable_http_client
    async with streamable_http_client(f"{server}gradio_api/mcp/") as (read, write, _):
        async with ClientSession(read, write) as session:
            await session.initialize()
            return await calls(session)


def mcp(server: str, calls):
    """calls(session) awaited in an initialised MCP session with the app."""
    return asyncio.run(_mcp(server, calls))


def mcp_call(server: str, tool: str, arguments: dict):
    return mcp(server, lambda session: session.call_tool(tool, arguments))


def test_mcp_tools_are_named_and_described_for_an_agent(server):
    tools = {tool.name: tool for tool in mcp(server, lambda session: session.list_tools()).tools}
    assert set(tools) == {"respond", "list_avatars"}     # the page's own events are no tools
    respond = tools["respond"]
    assert "empathetic listener avatar" in respond.description
    assert ",," not in respond.description and "Returns: the speaker's emotion" in respond.description
    schema = respond.inputSchema
    assert "required" not in schema        # a text turn sends only its text
    assert set(schema["properties"]) == {"text", "audio", "video", "history_json", "avatar", "expression"}
    assert all(property["description"] for property in schema["properties"].values())
    assert schema["properties"]["avatar"]["default"] == "luis" and "list_avatars" in schema["properties"]["avatar"][
        "description"]
    assert "url" in schema["properties"]["audio"]["format"]       # files travel as URLs
    assert tools["list_avatars"].description


def test_mcp_text_turn_with_only_its_text(server, tmp_path):
    result = mcp_call(server, "respond", {"text": TEXT})
    assert not result.isError, result.content
    texts = [item.text for item in result.content]
    assert texts[0] == json.loads(texts[-1])["emotion"]["fine"]       # text first: the emotion, then the reply
    assert [text.startswith(server) for text in texts[2:5]] == [True] * 3      # links to speech, video, bundle
    details = check_fetched_turn(texts, tmp_path, heard=TEXT)
    assert details["emotion"]["coarse"] == "happy"


def data_url(path: Path, mime: str) -> str:
    return f"data:{mime};base64,{base64.b64encode(path.read_bytes()).decode()}"


@pytest.mark.parametrize("kind, name, mime", [("audio", "turn_audio.wav", "audio/wav"),
                                              ("video", "turn_video.mp4", "video/mp4")])
def test_mcp_media_turn_as_a_file_url(server, tmp_path, kind, name, mime):
    """Gradio's MCP server takes a file as an http(s) URL (what `gradio upload-mcp` returns for an upload to a
    Space) or a data: URL; it refuses to fetch URLs of its own loopback address, so a local app gets data: URLs."""
    result = mcp_call(server, "respond", {kind: data_url(EXAMPLES / name, mime)})
    assert not result.isError, result.content
    assert heard_the_clip(kind, check_fetched_turn([item.text for item in result.content], tmp_path))


def test_mcp_errors_carry_the_pages_message(server):
    result = mcp_call(server, "respond", {})
    assert result.isError and result.content[0].text.startswith(MISSING_TURN)
    result = mcp_call(server, "respond", {"text": "Hello", "avatar": "nobody"})
    assert result.isError and result.content[0].text.startswith("There is no avatar called 'nobody'")


def test_mcp_lists_the_avatars(server):
    result = mcp_call(server, "list_avatars", {})
    avatars = json.loads(result.content[0].text)
    assert {"ava", "grace", "luis"} <= {avatar["name"] for avatar in avatars}
    assert all({"age", "gender", "timbre"} <= avatar.keys() for avatar in avatars)


# -- the README's examples ------------------------------------------------------------------------------------
def readme_examples() -> dict[str, str]:
    """The code blocks of the README's "Use it from code" section, by language (python, js, mcp, bash)."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = re.split(r"\n##+ ", readme.split("\n## Use it from code\n", 1)[1], maxsplit=1)[0]
    blocks = {}
    for language, code in re.findall(r"```(\w+)\n(.*?)```", section, re.S):
        if language == "python" and "mcp" in code:
            language = "mcp"
        assert language not in blocks, f"two {language} examples"
        blocks[language] = code
    return blocks


def test_the_readme_has_one_example_per_client():
    assert set(readme_examples()) >= {"python", "js", "mcp", "bash"}


@pytest.mark.parametrize("language", ["python", "js", "mcp", "bash"])
def test_the_readme_example_runs(server, language):
    code = readme_examples()[language].replace(README_URL, server).replace("examples/", f"{EXAMPLES}/")
    if language == "js":
        out = node(code)
    else:
        command = {"bash": ["bash", "-euo", "pipefail", "-c", code]}.get(language, [sys.executable, "-c", code])
        done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr[-3000:]
        out = done.stdout
    from e3rg_core.emotions import FINE_LABELS
    assert set(re.findall(r"[a-z]+", out)) & set(FINE_LABELS), out[-2000:]     # it printed the emotion it got
