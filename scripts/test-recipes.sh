#!/usr/bin/env bash
# Runs the Go and Java recipes of docs/packages.md ("Go and Java from a checkout") exactly as written:
# the blocks marked ```sh recipe=build, recipe=go and recipe=java, extracted from the docs, run in a fresh
# clone of this checkout's HEAD in a temporary directory (the build block once, then each language's block
# in a subshell from the clone's root), with `set -euo pipefail`: any failing step fails the test. Then
# each app's `converge plan` output must list its organization to create.
# Not in `npm test` (several minutes: npm ci, go mod tidy, jsii-pacmak's Maven builds). Usage:
#   bash scripts/test-recipes.sh [go] [java]     (default: both; RECIPES_KEEP=1 keeps the temporary directory)
# Needs network to the npm registry (or its cache), the Go module proxy and Maven Central.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
langs=("$@"); [ ${#langs[@]} -gt 0 ] || langs=(go java)
export JSII_SILENCE_WARNING_DEPRECATED_NODE_VERSION=1 JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION="$(node -p 'process.versions.node.split(".")[0]')"
WORK=$(mktemp -d "${TMPDIR:-/tmp}/converge-recipes-XXXXXX")
cleanup() {
  # An emulator a failed recipe left running (its step after `plan` did not run).
  for f in "$WORK"/hello-*/.emulator.env; do [ -f "$f" ] && "$WORK/cdk-converge/bin/converge" emulator stop "$f" >/dev/null 2>&1 || true; done
  # The log directories `converge emulator --detach` made under $TMPDIR (it prints their paths).
  for d in $(grep -ohE 'log [^ ]*/converge-emulator-[A-Za-z0-9]+/emulator\.log' "$WORK"/*.log 2>/dev/null | sed -E 's/^log (.*)\/emulator\.log$/\1/'); do rm -rf "$d"; done
  if [ "${RECIPES_KEEP:-}" = 1 ]; then echo "test-recipes: kept $WORK" >&2; else rm -rf "$WORK"; fi
}
trap cleanup EXIT
start=$SECONDS

# The lines between "```sh recipe=NAME" and the next "```" in docs/packages.md; fails when there are none.
extract() {
  local out
  out=$(awk -v open="\`\`\`sh recipe=$1" '$0 == open { on = 1; next } on && /^```$/ { on = 0 } on' docs/packages.md)
  [ -n "$out" ] || { echo "test-recipes: no \`\`\`sh recipe=$1 block in docs/packages.md" >&2; exit 1; }
  printf '%s\n' "$out"
}

# One file per block; each language's runs in its own `bash -euo pipefail` (a subshell in a `||` list would
# ignore `set -e`), from the clone's root, with what the build block exported.
for b in build "${langs[@]}"; do { echo 'set -euo pipefail'; extract "$b"; } > "$WORK/recipe-$b.sh"; done
{
  echo 'set -euo pipefail'
  echo ". $(printf %q "$WORK/recipe-build.sh")"
  for l in "${langs[@]}"; do
    printf 'echo "== recipe %s (log: %s)"\n' "$l" "$WORK/$l.log"
    printf 'bash %q > %q 2>&1 || { echo "test-recipes: the %s recipe failed:" >&2; tail -50 %q >&2; exit 1; }\n' \
      "$WORK/recipe-$l.sh" "$WORK/$l.log" "$l" "$WORK/$l.log"
  done
} > "$WORK/recipes.sh"

git clone -q "$ROOT" "$WORK/cdk-converge"
echo "== clone of $(git rev-parse --short HEAD); running the recipes of docs/packages.md: ${langs[*]}"
(cd "$WORK/cdk-converge" && bash "$WORK/recipes.sh")

for l in "${langs[@]}"; do
  # The plan of the one organization, printed by `converge plan` (the app names it acme-<lang>).
  if ! grep -q "acme-$l" "$WORK/$l.log" || ! grep -q 'Plan: 1 to add, 0 to change, 0 to replace, 0 to destroy' "$WORK/$l.log"; then
    echo "test-recipes: the $l recipe's plan does not list acme-$l to create:" >&2; tail -40 "$WORK/$l.log" >&2; exit 1
  fi
  echo "== $l: plan lists acme-$l to create"
done
echo "== test-recipes: passed in $((SECONDS - start))s"
