#!/usr/bin/env bash
# Prints the folder of a Node 24 LTS binary for `make bench` (its publish guard is judged on Node 24): the machine's
# own when it is Node 24, else npm's `node` package installed once into .node24/ (the registry is all it needs).
set -euo pipefail
cd "$(dirname "$0")/.."
if node --version | grep -q '^v24\.'; then dirname "$(command -v node)"; exit 0; fi
dir=.node24
if ! "$dir/node_modules/.bin/node" --version 2>/dev/null | grep -q '^v24\.'; then
  echo "installing Node 24 from npm's node package into $dir (once)" >&2
  npm install --prefix "$dir" --no-save --no-audit --no-fund --loglevel=error node@24 >&2
fi
"$dir/node_modules/.bin/node" --version | grep -q '^v24\.' || { echo "could not install Node 24" >&2; exit 1; }
echo "$PWD/$dir/node_modules/.bin"
