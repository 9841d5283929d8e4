import json
import pytest
from tests.test_marker_share import LOCOMO, ROOT, DEMO_QUERIES, three_dreams, workspace_from, marker_share

@pytest.mark.parametrize("name", ["demo", "locomo-c0", "locomo-c1", "locomo-c2", "locomo-c3"])
def test_share(name, tmp_path):
    if name == "demo":
        root = workspace_from(ROOT / "examples/workspace", tmp_path / "demo")
        runs = three_dreams(root, list(DEMO_QUERIES), 1, "2026-12")
    else:
        root = workspace_from(LOCOMO / name, tmp_path / name)
        qs = [json.loads(l)["question"] for l in (LOCOMO / f"{name}.queries.jsonl").read_text().splitlines()]
        runs = three_dreams(root, qs, 1, "2023-11")
    memory = (root / "MEMORY.md").read_text()
    promoted = sum(1 for run in runs for a in run["actions"] if a["action"] != "forget")
    print(f"\nSHARE {name}: {marker_share(memory):.3f} promoted={promoted} bytes={len(memory.encode())}")
    (tmp_path.parent / f"MEM-{name}.md").write_text(memory)
    print("MEMPATH", tmp_path.parent / f"MEM-{name}.md")
