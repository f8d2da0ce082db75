"""Baseten Truss ``config.yaml`` with a custom server (docs.baseten.co, "config.yaml reference" and
"Custom servers").

* ``docker_server.start_command`` is the command that starts the server, run by a shell in the
  container (so ``sh -c "…"`` wrappers and variables work as in a script); it goes to the shell format;
* ``environment_variables:`` is the container's environment;
* ``base_image.image`` is the image (its tag gives the SGLang release);
* ``resources.accelerator`` declares the GPU: ``H100:2``, ``H100_40GB``, ``A10G``.
"""

from __future__ import annotations

from linter.extract import yamldoc as y
from linter.gpus.cloud import truss_accelerator
from linter.launch import Extraction
from linter.source import SourceFile
from linter.workspace import Workspace


def extract(source: SourceFile, ws: Workspace) -> Extraction:
    """The launch of a Truss custom server, with its accelerator as the target GPU."""
    result = Extraction()
    root = y.load(source, result)
    if not y.is_map(root):
        return result
    _, env_node = y.get(root, "environment_variables")
    env = y.env_section(env_node, source)
    _, base = y.get(root, "base_image")
    image = None
    if y.is_map(base):
        _, image_node = y.get(base, "image")
        image = y.mstr(image_node, source) if y.is_str(image_node) else None
    _, resources = y.get(root, "resources")
    decls = []
    counts = []
    if y.is_map(resources):
        _, acc = y.get(resources, "accelerator")
        if y.is_str(acc):
            from linter.gpus.counts import accelerator_count

            decls = truss_accelerator(y.mstr(acc, source))
            counts = [y.gpu_count(acc, source, "accelerator", "Truss resources.accelerator", accelerator_count)]
    _, server = y.get(root, "docker_server")
    if y.is_map(server):
        _, start = y.get(server, "start_command")
        result.launches.extend(y.script_launches(start, source, env, result, "docker_server.start_command",
                                                 image=image, gpu_decls=decls, gpu_counts=counts))
    return result
