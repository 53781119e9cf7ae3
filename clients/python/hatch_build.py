"""Hatch build hook: generate ``src/referee_client/_gen/`` from ``proto/`` at build time.

Runs for every build target (wheel, editable, sdist). When the proto directory is not
reachable (building a wheel from an sdist, which already ships ``_gen/``), the shipped
generated code is used as is.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


def _load_generate(root: Path):
    spec = importlib.util.spec_from_file_location("_referee_generate", root / "generate.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


class GenerateProtoHook(BuildHookInterface):
    PLUGIN_NAME = "custom"

    def initialize(self, version, build_data):
        root = Path(self.root)
        gen = _load_generate(root)
        proto_dir = gen.default_proto_dir()
        out = root / "src" / "referee_client" / "_gen"
        if proto_dir.is_dir():
            gen.generate(proto_dir, out, quiet=True)
        elif not (out / "referee" / "v1" / "referee_pb2.py").is_file():
            raise RuntimeError(
                f"referee-client: proto dir {proto_dir} not found and no generated code in {out}; "
                "build from the repository (clients/python) or set REFEREE_PROTO_DIR"
            )
