"""End-to-end test of `kubectl-dra server` with a real LSP client (pygls).

Opens testdata/editor/pod.yaml in a copy of testdata/editor (a repository
with its own .kubectl-dra.yaml, and a template the pod uses in another
file), and checks, as an editor would see them:
- the published diagnostics have the ids, severities, ranges and messages of
  `kubectl-dra lint -o json` run on the whole repository (so the
  configuration and the other file are read as lint reads them);
- hover on a finding shows its rule's docs;
- applying one quick fix leaves the other finding; applying "fix all"
  leaves none;
- an untitled buffer with broken YAML gets DRA-E001, and closing it clears it.

Usage: python3 lsp_e2e.py KUBECTL_DRA_BINARY REPOSITORY_ROOT
"""

import asyncio
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from lsprotocol import types as t
from pygls.lsp.client import BaseLanguageClient

TIMEOUT = 60


def fail(msg):
    print(f"lsp_e2e: FAIL: {msg}", file=sys.stderr)
    sys.exit(1)


def apply_edits(text, edits):
    """Applies LSP text edits (UTF-16 columns; the fixture is ASCII)."""
    lines = text.split("\n")
    starts = [0]
    for line in lines[:-1]:
        starts.append(starts[-1] + len(line) + 1)

    def offset(pos):
        return starts[pos.line] + pos.character

    for e in sorted(edits, key=lambda e: offset(e.range.start), reverse=True):
        text = text[: offset(e.range.start)] + e.new_text + text[offset(e.range.end):]
    return text


def lint_json(binary, repo, path):
    out = subprocess.run(
        [binary, "lint", "-o", "json", str(repo)],
        cwd=repo,
        capture_output=True,
        text=True,
        check=False,
    )
    found = json.loads(out.stdout)["diagnostics"]
    return [d for d in found if Path(repo, d["file"]).resolve() == path.resolve()]


def key_of_lint(d):
    return (
        d["rule"],
        d["severity"],
        (d["line"] - 1, d["column"] - 1, d["endLine"] - 1, d["endColumn"] - 1),
        d["message"],
    )


def key_of_lsp(d):
    sev = {1: "error", 2: "warning", 3: "info"}[int(d.severity)]
    r = d.range
    return (d.code, sev, (r.start.line, r.start.character, r.end.line, r.end.character), d.message)


async def main(binary, root):
    work = Path(tempfile.mkdtemp(prefix="kubectl-dra-lsp-"))
    repo = work / "repo"
    shutil.copytree(Path(root) / "testdata" / "editor", repo)
    (repo / ".git").mkdir()  # the configuration lookup stops at the repository root
    doc = repo / "pod.yaml"
    uri = doc.as_uri()
    text = doc.read_text()

    client = BaseLanguageClient("kubectl-dra-e2e", "1")
    published = asyncio.Queue()

    @client.feature(t.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def on_diagnostics(params):
        published.put_nowait(params)

    async def diagnostics_of(doc_uri, version):
        while True:
            p = await asyncio.wait_for(published.get(), TIMEOUT)
            if p.uri == doc_uri and (version is None or p.version == version):
                return p.diagnostics

    await client.start_io(binary, "server", cwd=str(repo))
    init = await asyncio.wait_for(
        client.initialize_async(
            t.InitializeParams(
                capabilities=t.ClientCapabilities(),
                root_uri=repo.as_uri(),
                workspace_folders=[t.WorkspaceFolder(uri=repo.as_uri(), name="repo")],
            )
        ),
        TIMEOUT,
    )
    if init.capabilities.hover_provider is None:
        fail("the server offers no hover")
    client.initialized(t.InitializedParams())

    # 1. Open: the same findings as lint of the repository.
    client.text_document_did_open(
        t.DidOpenTextDocumentParams(
            text_document=t.TextDocumentItem(uri=uri, language_id="yaml", version=1, text=text)
        )
    )
    got = await diagnostics_of(uri, 1)
    want = lint_json(binary, repo, doc)
    if sorted(map(key_of_lsp, got)) != sorted(map(key_of_lint, want)):
        fail(f"diagnostics differ from lint -o json:\n got {sorted(map(key_of_lsp, got))}\nwant {sorted(map(key_of_lint, want))}")
    if len(got) != 2 or any(d.code != "DRA-S002" for d in got):
        fail(f"expected the two DRA-S002 findings (DRA-V184 ignored by the config, the template found in template.yaml), got {[d.code for d in got]}")

    # 2. Hover on a finding: the rule's docs.
    hover = await asyncio.wait_for(
        client.text_document_hover_async(
            t.HoverParams(text_document=t.TextDocumentIdentifier(uri=uri), position=got[0].range.start)
        ),
        TIMEOUT,
    )
    if hover is None or "DRA-S002" not in hover.contents.value:
        fail(f"hover shows no rule docs: {hover}")

    # 3. One quick fix: the other finding stays.
    first = sorted(got, key=lambda d: d.range.start.line)[0]
    actions = await asyncio.wait_for(
        client.text_document_code_action_async(
            t.CodeActionParams(
                text_document=t.TextDocumentIdentifier(uri=uri),
                range=first.range,
                context=t.CodeActionContext(diagnostics=[first], only=[t.CodeActionKind.QuickFix]),
            )
        ),
        TIMEOUT,
    )
    quick = [a for a in actions or [] if a.kind == t.CodeActionKind.QuickFix]
    if len(quick) != 1:
        fail(f"expected one quick fix for the finding, got {actions}")
    text = apply_edits(text, quick[0].edit.changes[uri])
    client.text_document_did_change(
        t.DidChangeTextDocumentParams(
            text_document=t.VersionedTextDocumentIdentifier(uri=uri, version=2),
            content_changes=[t.TextDocumentContentChangeEvent_Type2(text=text)],
        )
    )
    got = await diagnostics_of(uri, 2)
    if len(got) != 1 or got[0].range.start.line == first.range.start.line:
        fail(f"after one quick fix, expected the other finding only: {got}")

    # 4. Fix all: nothing left, and the file as `lint --fix` writes it.
    actions = await asyncio.wait_for(
        client.text_document_code_action_async(
            t.CodeActionParams(
                text_document=t.TextDocumentIdentifier(uri=uri),
                range=t.Range(start=t.Position(line=0, character=0), end=t.Position(line=0, character=0)),
                context=t.CodeActionContext(diagnostics=[], only=[t.CodeActionKind.SourceFixAll]),
            )
        ),
        TIMEOUT,
    )
    fix_all = [a for a in actions or [] if a.kind == "source.fixAll.kubectl-dra"]
    if len(fix_all) != 1:
        fail(f"expected the fix-all action, got {actions}")
    text = apply_edits(text, fix_all[0].edit.changes[uri])
    client.text_document_did_change(
        t.DidChangeTextDocumentParams(
            text_document=t.VersionedTextDocumentIdentifier(uri=uri, version=3),
            content_changes=[t.TextDocumentContentChangeEvent_Type2(text=text)],
        )
    )
    got = await diagnostics_of(uri, 3)
    if got:
        fail(f"after fix all, expected no findings: {got}")
    doc.write_text(text)
    if lint_json(binary, repo, doc):
        fail("lint still finds something in the fixed file")

    # 5. An untitled buffer with broken YAML, then closed.
    untitled = "untitled:Untitled-1"
    client.text_document_did_open(
        t.DidOpenTextDocumentParams(
            text_document=t.TextDocumentItem(uri=untitled, language_id="yaml", version=1, text="a: [1, 2\n")
        )
    )
    got = await diagnostics_of(untitled, 1)
    if [d.code for d in got] != ["DRA-E001"]:
        fail(f"broken YAML: expected DRA-E001, got {got}")
    client.text_document_did_close(
        t.DidCloseTextDocumentParams(text_document=t.TextDocumentIdentifier(uri=untitled))
    )
    got = await diagnostics_of(untitled, None)
    if got:
        fail(f"closing a document should clear its findings: {got}")

    await asyncio.wait_for(client.shutdown_async(None), TIMEOUT)
    client.exit(None)
    await client.stop()
    shutil.rmtree(work)
    print("lsp_e2e: ok (diagnostics as lint, hover, quick fix, fix all, untitled, close)")


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2]))
