# The Makefile only names the package scripts (STYLE.md); see README.md.
SAMPLE := fixtures/sample
DATE ?= $(shell date -u +%F)

.PHONY: install system-deps build run run-europe run-sample run-aup test test-all check bench corpus schema clean image

# The command as its bin runs it (the first line of jobs/cli.ts): Node 20's young generation on every Node.
CLI := node --max-semi-space-size=16 dist/jobs/cli.js

node_modules: package-lock.json
	npm ci
	@touch node_modules

install: node_modules

# Debian packages the tests start as real servers (Swift with its S3 API, memcached); installs them as root.
system-deps:
	bash scripts/system-deps.sh

build: node_modules
	npm run build

# The container image (Containerfile), built here with Podman on a debootstrap'd Debian base: scripts/image.sh.
image: node_modules
	bash scripts/image.sh

# The product on a real day: UK airspace (YAIXM, with its radio services and RA(T)s) and the UK NOTAM briefing (EAD
# PIB XML) of 2026-08-22, published into artifacts/ with a short summary (test/cli/make-run.test.ts runs the same).
RUN_ARGS := --airspaces fixtures/uk --notams fixtures/uk/uk_pib_2026-08-22T1116Z.xml.gz --date 2026-08-22 --now 2026-08-22T11:15:00Z --tiles
run: build
	$(CLI) publish $(RUN_ARGS) --store artifacts --report artifacts/report.json

# A continental day: the SOFIA-Briefing route brief Lisbon → Warsaw of 2026-02-07 (926 NOTAMs of LFFA, EDDZ, ETCZ, LSSN,
# EPWW, LEAN …) on the openAIP airspace of France, Germany and Switzerland (fixtures/europe; test/cli/make-run.test.ts).
# The brief states no issue time: the source counts as stale, so conditional areas are Unknown, never No.
RUN_EUROPE_ARGS := --airspaces fixtures/europe/airspace --notams fixtures/europe/notam/LPPT-EPWA-20260207.txt.gz --date 2026-02-07 --now 2026-02-07T10:00:00Z
run-europe: build
	$(CLI) publish $(RUN_EUROPE_ARGS) --store artifacts --report artifacts/report.json

# The bundled openAIP/OpenAir samples of five countries, for today (UTC).
run-sample: build
	$(CLI) publish --airspaces $(SAMPLE) --date $(DATE) --store artifacts --report artifacts/report.json

# An AUP day: the samples plus EBR04 (openAIP 2018) and the EUROCONTROL RSA table of 2022-02-23 09:59Z.
RUN_AUP_ARGS := --airspaces $(SAMPLE) --airspaces fixtures/decision/aup-and-notam/airspace.geojson --aup fixtures/aup-csv/eaup_rsa_2022-02-23T0959Z.csv --date 2022-02-23 --now 2022-02-23T10:00:00Z
run-aup: build
	$(CLI) publish $(RUN_AUP_ARGS) --store artifacts --report artifacts/report.json

# The fast suite, before every commit (README "Tests"): every test but the long ones, in minutes.
test: system-deps node_modules
	$(MAKE) -j2 build check
	npm test

# The whole suite, before resolving an issue and in CI: the fast one plus the long real-time tests (*.long.test.ts).
test-all: system-deps node_modules
	$(MAKE) -j2 build check
	npm run test:all

check: node_modules
	npm run check

# Under Node 24 LTS (scripts/node24.sh installs it from npm once when the machine's Node is another).
bench: build
	"$$(bash scripts/node24.sh)/node" dist/bench/all.js $(BENCH)

# Every real Item D of ../shared/data/notam through the schedule parser: bench/out/itemd-corpus.json.
corpus: build
	node dist/bench/itemd.js corpus
	node dist/bench/notam-report.js

# Regenerates docs/contract.schema.json from the zod schemas.
schema: node_modules
	UPDATE_GOLDEN=1 npx vitest run test/contract/json-schema.test.ts

clean:
	rm -rf dist coverage test-output bench/out
	find artifacts -mindepth 1 ! -name .gitkeep -exec rm -rf {} +
