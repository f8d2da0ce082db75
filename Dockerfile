# syntax=docker/dockerfile:1
# lint-configs as a container image, for GitLab CI and other CIs (see README, "Container image"):
#   docker build -t lint-configs .
#   docker run --rm -v "$PWD:/src" lint-configs                 # lint the repository mounted at /src
#   docker run --rm -v "$PWD:/src" lint-configs --format gitlab -o gl-code-quality-report.json .
# It runs as an unprivileged user (uid 10001). --fix writes the mounted files: run it as their owner,
#   docker run --rm --user "$(id -u):$(id -g)" -v "$PWD:/src" lint-configs --fix .
ARG PYTHON_IMAGE=python:3.12-slim

FROM ${PYTHON_IMAGE} AS build
WORKDIR /build
# The package is built from this repository (what .dockerignore lets in), never fetched from PyPI;
# its dependencies are, as wheels, so the image stage below needs no network.
COPY pyproject.toml README.md ./
COPY linter ./linter
RUN python -m pip wheel --no-cache-dir --disable-pip-version-check --wheel-dir /wheels .

FROM ${PYTHON_IMAGE}
LABEL org.opencontainers.image.title="lint-configs" \
      org.opencontainers.image.description="A static linter for SGLang launches in compose files, shell/Slurm scripts and Python code" \
      org.opencontainers.image.licenses="Apache-2.0"
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
RUN --mount=type=bind,from=build,source=/wheels,target=/wheels \
    python -m pip install --no-cache-dir --disable-pip-version-check --no-index --find-links /wheels lint-configs \
 && useradd --uid 10001 --user-group --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin lint-configs
# numeric, so that Kubernetes' runAsNonRoot can verify it
USER 10001:10001
WORKDIR /src
ENTRYPOINT ["lint-configs"]
