#!/usr/bin/env bash
# Java and Go for real: generates the packages with jsii-pacmak, builds them with Maven and Go, and synthesizes
# the minimal app of examples/languages in each; its desired state must equal the TypeScript twin's (twin.ts).
# Not in `npm test` (a few minutes, mostly Maven). Run after `npm run build`: bash scripts/test-languages.sh
#
# The registries do not serve everything the generated packages depend on, as of this writing:
# - Go: the module proxy serves github.com/hashicorp/terraform-cdk-go/cdktf v0.21.0, jsii-runtime-go and
#   constructs-go, but not github.com/cdktf/cdktf-provider-null-go (the Terraform bridge's null_resource);
# - Maven Central serves com.hashicorp:cdktf only up to 0.19.2, and no com.hashicorp:cdktf-provider-null.
# What is missing is generated here by jsii-pacmak from the npm packages of the same versions (node_modules)
# and used in its place (a Go `replace`; a Maven repository in a directory); the rest comes from the registries.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
export JSII_SILENCE_WARNING_DEPRECATED_NODE_VERSION=1 JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION="$(node -p 'process.versions.node.split(".")[0]')"
export LANGUAGES_DB_PASSWORD=unused-at-synth
WORK=$(mktemp -d "${TMPDIR:-/tmp}/converge-languages-XXXXXX")
trap 'rm -rf "$WORK"' EXIT
PACMAK="node $ROOT/node_modules/jsii-pacmak/bin/jsii-pacmak"
start=$SECONDS
step() { echo "== $* ($((SECONDS - start))s)"; }

# The desired state of a synth directory, as the converge CLI reads it.
desired() { node -e 'console.log(JSON.stringify(require(process.argv[1]).readSynthDir(process.argv[2]), null, 1))' "$ROOT/dist/core/synth/read-synth.js" "$1"; }

step "TypeScript twin"
(cd examples/languages && CDKTF_OUTDIR="$WORK/ts" node "$ROOT/node_modules/tsx/dist/cli.mjs" twin.ts)
desired "$WORK/ts" > "$WORK/ts.json"

step "Go: jsii-pacmak (cdk-converge, and @cdktf/provider-null, which the module proxy lacks)"
$PACMAK --code-only --targets go --outdir "$WORK/pkg" node_modules/@cdktf/provider-null . >/dev/null
mkdir "$WORK/go-app" && cp examples/languages/go/main.go "$WORK/go-app/"
(
  cd "$WORK/go-app"
  printf 'module example.com/converge-languages\n\ngo 1.25\n' > go.mod
  go mod edit -replace "github.com/converge-iac/cdk-converge-go/cdkconverge=$WORK/pkg/go/cdkconverge" \
    -replace "github.com/cdktf/cdktf-provider-null-go/null/v11=$WORK/pkg/go/null" \
    -require github.com/converge-iac/cdk-converge-go/cdkconverge@v0.0.0 -require github.com/cdktf/cdktf-provider-null-go/null/v11@v11.0.1
  step "Go: go mod tidy (cdktf, jsii-runtime-go, constructs-go from the module proxy)"
  go mod tidy
  grep -E 'terraform-cdk-go/cdktf|jsii-runtime-go|constructs-go' go.mod
  step "Go: go vet and go run"
  go vet ./...
  CDKTF_OUTDIR="$WORK/go" go run .
)
desired "$WORK/go" > "$WORK/go.json"
diff -u "$WORK/ts.json" "$WORK/go.json" && echo "Go: desired state equals the TypeScript twin's"

step "Java: jsii-pacmak and Maven (cdktf and @cdktf/provider-null generated too: Maven Central lacks them)"
$PACMAK --targets java --outdir "$WORK/pkg" node_modules/cdktf node_modules/@cdktf/provider-null . >/dev/null
ls "$WORK/pkg/java/io/converge/cdk-converge/"*/*.jar
mkdir "$WORK/java-app" && cp -r examples/languages/java/. "$WORK/java-app/"
(
  cd "$WORK/java-app"
  step "Java: mvn compile exec:java (jsii-runtime, constructs from Maven Central)"
  CDKTF_OUTDIR="$WORK/java" mvn -B -q -Dstyle.color=never -Dconverge.repo="file://$WORK/pkg/java" compile exec:java
)
desired "$WORK/java" > "$WORK/java.json"
diff -u "$WORK/ts.json" "$WORK/java.json" && echo "Java: desired state equals the TypeScript twin's"

step "done"
