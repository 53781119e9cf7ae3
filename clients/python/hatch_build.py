"""Hatch build hook: generate ``src/referee_client/_gen/`` from ``proto/`` at build time.

Runs for every build target (wheel, editable, sdist). Building from an unpacked sdist (which
already ships ``_gen/``), or where the proto directory is not reachable, the shipped
generated code is used as is (an sdist regenerates only with ``REFEREE_PROTO_DIR`` set).

grpcio-tools (protoc) is a build requirement only when there is something to generate
(``dependencies`` below, asked for by the build front end before the build): building from
the repository installs it into the isolated build environment; building a wheel from the
sdist, and installing the wheel, never need it.
"""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


def _load_generate(root: Path):
    spec = importlib.util.spec_from_file_location("_referee_generate", root / "generate.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


# Keep in step with requirements-dev.txt (the tested trio) and the gencode pins in pyproject.toml.
GRPCIO_TOOLS = "grpcio-tools==1.85.1"


def _proto_dir(root: Path) -> Path | None:
    """The proto directory to generate from, or None to use the shipped generated code.

    An unpacked sdist (it has ``PKG-INFO``) ships ``_gen/`` and never looks for ``../../proto``:
    that path is outside the package (pip unpacks into ``/tmp/pip-…/NAME/``, so it would be
    ``/tmp/proto``, which anyone on the machine may create), so only an explicit
    ``REFEREE_PROTO_DIR`` regenerates there. From the repository, ``proto/`` two levels up.
    """
    gen = _load_generate(root)
    if (root / "PKG-INFO").is_file() and not os.environ.get("REFEREE_PROTO_DIR"):
        return None
    proto_dir = gen.default_proto_dir()
    return proto_dir if proto_dir.is_dir() else None


class GenerateProtoHook(BuildHookInterface):
    PLUGIN_NAME = "custom"

    def dependencies(self):
        return [GRPCIO_TOOLS] if _proto_dir(Path(self.root)) else []

    def initialize(self, version, build_data):
        root = Path(self.root)
        gen = _load_generate(root)
        proto_dir = _proto_dir(root)
        out = root / "src" / "referee_client" / "_gen"
        if proto_dir:
            gen.generate(proto_dir, out, quiet=True)
        elif not (out / "referee" / "v1" / "referee_pb2.py").is_file():
            raise RuntimeError(
                f"referee-client: proto dir {gen.default_proto_dir()} not found and no generated code in {out}; "
                "build from the repository (clients/python) or set REFEREE_PROTO_DIR"
            )
