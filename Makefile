# Thin front over CMake. `make run` and `make test` work on a fresh Debian machine.
BUILD ?= build
JOBS  ?= $(shell nproc)
CMAKE_FLAGS ?=
PY    := $(shell test -x /usr/bin/python3 && echo /usr/bin/python3 || echo python3)

.PHONY: all deps configure build run test gate gate-update fuzz reproduce bench waves area verify docs clean

all: build

deps:
	./scripts/install-deps.sh

configure: deps
	@test -f $(BUILD)/CMakeCache.txt || cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release $(CMAKE_FLAGS)

build: configure
	cmake --build $(BUILD) -j $(JOBS) --target ccsim

# The main job: a small dragonfly load sweep with a latency-throughput plot.
run: build
	$(BUILD)/ccsim sweep experiments/demo.toml --param traffic.load=0.05,0.1,0.2,0.3,0.4,0.5,0.6,0.7 -o results/demo
	$(BUILD)/ccsim plot results/demo
	@echo "ccsim binary: $(BUILD)/ccsim   results: results/demo/ (summary.csv, *.json, *.png)"

test: configure
	cmake --build $(BUILD) -j $(JOBS)
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

# The results-change gate alone; gate-update rewrites its digests (a change of results on purpose).
gate: build
	$(PY) scripts/results_gate.py check --ccsim $(BUILD)/ccsim

gate-update: build
	$(PY) scripts/results_gate.py update --ccsim $(BUILD)/ccsim

# Config fuzzer: N mutated configs (make fuzz N=10000); a defect is printed with its repro command.
N ?= 1000
fuzz: build
	$(PY) scripts/fuzz_config.py --n $(N) -j $(JOBS) --ccsim $(BUILD)/ccsim

# A paper's figures and claims (make reproduce PAPER=003 SCALE=paper): docs/reproduction/$(PAPER)-$(SCALE)/report.md.
PAPER ?= 003
SCALE ?= quick
reproduce: build
	$(BUILD)/ccsim reproduce $(PAPER) --scale $(SCALE) -j $(JOBS)

# Simulation speed (scripts/bench.py) at 1 and JOBS threads: make bench [BASE=other/ccsim] [REPS=5] runs the binaries
# alternately and prints medians, the ratio, and whether their results are identical.
REPS ?= 1
bench: build
	$(PY) scripts/bench.py $(BUILD)/ccsim --reps $(REPS) --threads 1,$(JOBS) $(if $(BASE),--base $(BASE))

waves: configure
	cmake --build $(BUILD) -j $(JOBS) --target waves
	@echo "waves: $(BUILD)/waves/"

area: configure
	cmake --build $(BUILD) -j $(JOBS) --target area

verify: configure
	cmake --build $(BUILD) -j $(JOBS)
	cd $(BUILD) && CCSIM_SOAK=1 ctest --output-on-failure -L hw
	$(PY) scripts/soak.py --seeds 1000 --ccsim $(BUILD)/ccsim
	$(PY) scripts/rtl_coverage.py -j $(JOBS)
	$(PY) scripts/mutate.py -j $(JOBS)

docs: build
	$(BUILD)/ccsim list --markdown > docs/config.md

clean:
	rm -rf $(BUILD)
