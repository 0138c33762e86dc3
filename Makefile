# The Makefile only names the package scripts (STYLE.md); see README.md.
SAMPLE := fixtures/sample
DATE ?= $(shell date -u +%F)

.PHONY: install system-deps build run test check bench corpus schema clean

node_modules: package-lock.json
	npm ci
	@touch node_modules

install: node_modules

# Debian packages the tests start as real servers (Swift with its S3 API, memcached); installs them as root.
system-deps:
	bash scripts/system-deps.sh

build: node_modules
	npm run build

# Publishes the bundled sample data for today (UTC) into artifacts/.
run: build
	node dist/jobs/cli.js publish --airspaces $(SAMPLE) --date $(DATE) --store artifacts --report artifacts/report.json

test: build system-deps
	npm run check
	npm test

check: node_modules
	npm run check

bench: build
	node dist/bench/publish.js
	node dist/bench/s3.js
	node dist/bench/origin.js
	node dist/bench/map.js
	node --max-semi-space-size=32 dist/bench/itemd.js throughput
	node --max-semi-space-size=32 dist/bench/notams.js

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
