"""The site build stays three parts (docs/SITE.md, Incremental builds), each owning its state: the
gatherer (`inputs`) returns frozen inputs and is the only part that reads git (through `reader`:
tests/site/test_where_git_lives.py); the planner (`pages`, `concept_pages`) keeps what it decides;
the renderer (`renderer`) owns the Jinja environment. The planner and the renderer are handed the
gathered inputs instead of being a kind of them. (Issue 35's size bounds hold for every module of
memgit: tests/project/test_structure.py.)
"""

from __future__ import annotations

import dataclasses
import inspect

from memgit.site.concept_pages import ConceptPlanner
from memgit.site.inputs import Inputs
from memgit.site.pages import Planner
from memgit.site.renderer import PageRenderer


def test_planner_and_renderer_are_handed_the_inputs() -> None:
    for part in (Planner, ConceptPlanner, PageRenderer):
        assert not issubclass(part, Inputs), part
        assert "inputs" in inspect.signature(part.__init__).parameters, part


def test_the_gathered_inputs_are_frozen_and_hold_no_jinja() -> None:
    params = getattr(Inputs, "__dataclass_params__", None)
    assert params is not None and params.frozen
    names = {f.name for f in dataclasses.fields(Inputs)}
    # The environment is the renderer's; what the planner decides (pages kept, concept state) is the planner's.
    assert not names & {"env", "by_path", "carried", "versions_found", "state"}, names
    assert "env" in PageRenderer.__init__.__code__.co_names
