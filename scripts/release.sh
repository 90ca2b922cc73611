#!/usr/bin/env bash
# The release, one command: build, test the packages, and publish them to npm, PyPI, Maven Central and
# the Go module repository with publib (as the jsii ecosystem does). Run by .github/workflows/release.yml
# on a tag vX.Y.Z, with the registries' tokens in the environment (see that file).
#
#   bash scripts/release.sh 1.2.3              # publish (needs NPM_TOKEN, TWINE_*, MAVEN_*, GITHUB_TOKEN)
#   bash scripts/release.sh --dry-run [1.2.3]  # every step that needs no token, in a copy of the checkout;
#                                              # publib runs with PUBLIB_DRYRUN=true (default version: package.json's)
#   bash scripts/release.sh --build-only 1.2.3   # everything up to dist-packages, no upload (the workflow's build
#   bash scripts/release.sh --publish-only 1.2.3 # job, which holds no write permission), then only the uploads of
#                                                # the dist-packages it built (the publish job)
#
# Steps: version (from the tag) -> CHANGELOG check -> build (jsii, API.md) -> jsii-rosetta (every example
# compiles) -> jsii-pacmak js, java, go -> the Python wheel (scripts/package-python.js) -> publib.
set -euo pipefail
cd "$(dirname "$0")/.."
DRY=false
BUILD=true
PUBLISH=true
if [ "${1:-}" = "--dry-run" ]; then DRY=true; shift; fi
if [ "${1:-}" = "--build-only" ]; then PUBLISH=false; shift; fi
if [ "${1:-}" = "--publish-only" ]; then BUILD=false; shift; fi
VERSION="${1:-${GITHUB_REF_NAME:-}}"
VERSION="${VERSION#v}"
[ -n "$VERSION" ] || { $DRY && VERSION=$(node -p 'require("./package.json").version'); }
if ! [[ "$VERSION" =~ ^[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$ ]]; then
  echo "release: the version must be X.Y.Z[-pre] (from the tag vX.Y.Z); got '${VERSION}'" >&2; exit 1
fi
# The CHANGELOG names the release (a dry run may release what is still "Unreleased").
if ! grep -Eq "^## \[?${VERSION//./\\.}\]?( |$)" CHANGELOG.md && ! { $DRY && grep -q '^## \[Unreleased\]' CHANGELOG.md; }; then
  echo "release: CHANGELOG.md has no section '## [${VERSION}]'" >&2; exit 1
fi
export JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION=18,19,20,21,23 JSII_SILENCE_WARNING_DEPRECATED_NODE_VERSION=1
start=$SECONDS
step() { echo "== release $VERSION$($DRY && echo ' (dry run)'): $* ($((SECONDS - start))s)"; }

if $DRY; then
  # A copy of the checkout (tracked and new files, not node_modules nor build output): the dry run changes nothing here.
  WORK=$(mktemp -d "${TMPDIR:-/tmp}/converge-release-XXXXXX")
  trap 'GNUPGHOME="$WORK/.gnupg" gpgconf --kill gpg-agent 2>/dev/null; rm -rf "$WORK"' EXIT
  git ls-files -z --cached --others --exclude-standard | xargs -0 cp --parents -t "$WORK"
  ln -s "$PWD/node_modules" "$WORK/node_modules"
  cd "$WORK"
  # publib checks that the credentials are there before its dry run skips the uploads: placeholders, never used.
  export PUBLIB_DRYRUN=true NPM_TOKEN="${NPM_TOKEN:-dry-run}" TWINE_USERNAME="${TWINE_USERNAME:-dry-run}" TWINE_PASSWORD="${TWINE_PASSWORD:-dry-run}" \
    MAVEN_SERVER_ID="${MAVEN_SERVER_ID:-central-ossrh}" MAVEN_USERNAME="${MAVEN_USERNAME:-dry-run}" MAVEN_PASSWORD="${MAVEN_PASSWORD:-dry-run}" \
    GITHUB_TOKEN="${GITHUB_TOKEN:-dry-run}"
  if [ -z "${MAVEN_GPG_PRIVATE_KEY:-}${MAVEN_GPG_PRIVATE_KEY_FILE:-}" ]; then
    # publib-maven signs before its dry run stops: a throwaway key, in a keyring of the copy's own.
    export GNUPGHOME="$WORK/.gnupg" && mkdir -m 700 "$GNUPGHOME"
    gpg --batch --quiet --pinentry-mode loopback --passphrase dry-run --quick-gen-key "converge dry run <dry-run@converge.invalid>" default default never
    gpg --batch --quiet --pinentry-mode loopback --passphrase dry-run --armor --export-secret-keys > "$WORK/dry-run.key"
    export MAVEN_GPG_PRIVATE_KEY_FILE="$WORK/dry-run.key" MAVEN_GPG_PRIVATE_KEY_PASSPHRASE=dry-run
  fi
  # publib-golang clones the Go module's repository even in a dry run: a local stand-in for it.
  git init -q --bare -b main "$WORK/go-remote.git"
  init=$(git -C "$WORK/go-remote.git" -c user.name=dry-run -c user.email=dry-run@converge.invalid \
    commit-tree -m init "$(git -C "$WORK/go-remote.git" mktree </dev/null)")
  git -C "$WORK/go-remote.git" update-ref refs/heads/main "$init"
  export GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0="url.file://$WORK/go-remote.git.insteadOf" \
    GIT_CONFIG_VALUE_0="https://${GITHUB_TOKEN}@github.com/converge-iac/cdk-converge-go.git"
fi

if $BUILD; then
step "version"
npm version "$VERSION" --no-git-tag-version --allow-same-version >/dev/null
step "build (jsii, API.md)"
npm run build --silent
step "jsii-rosetta: every example compiles"
npx jsii-rosetta extract --strict >/dev/null
step "jsii-pacmak: npm tarball, Java (Maven), Go"
# Maven Central lacks com.hashicorp:cdktf 0.21 and cdktf-provider-null: they are generated beside
# cdk-converge so that its Java build resolves, and left out of what is published.
npx jsii-pacmak --targets js java go --outdir dist-packages node_modules/cdktf node_modules/@cdktf/provider-null .
rm -rf dist-packages/java/com dist-packages/go/cdktf dist-packages/go/null
find dist-packages/js -type f ! -name "cdk-converge@*" -delete
step "Python: wheel and sdist"
# Built beside, so that dist-packages/python holds only what is uploaded.
node scripts/package-python.js dist-packages/.python-build
mkdir -p dist-packages/python && cp dist-packages/.python-build/python/*.whl dist-packages/.python-build/python/*.tar.gz dist-packages/python/
rm -rf dist-packages/.python-build
# The tarball a GitHub release carries, under the name `npm pack` gives it (README, "Getting converge").
cp dist-packages/js/cdk-converge@"$VERSION".jsii.tgz dist-packages/cdk-converge-"$VERSION".tgz
find dist-packages -maxdepth 2 | sort
fi

if $PUBLISH; then
[ -d dist-packages/js ] || { echo "release: no dist-packages to publish (built by --build-only)" >&2; exit 1; }
step "publish (publib)"
npx publib-npm dist-packages/js
npx publib-pypi dist-packages/python
npx publib-maven dist-packages/java
GIT_USER_NAME="${GIT_USER_NAME:-converge release}" GIT_USER_EMAIL="${GIT_USER_EMAIL:-release@converge.invalid}" npx publib-golang dist-packages/go
fi
step "done"
