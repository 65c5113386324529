#!/usr/bin/env bash
# Builds the web kit (docs/frontends.md), from the repository's root or anywhere:
#
#   web-kit/build.sh            the npm package (pkg/: the WebAssembly module, its JS and .d.ts),
#                               then the demo's bundles (build/bundles/) and the static demo (dist/)
#   web-kit/build.sh --package  the package only (no sabacc binary, no npm install needed)
#
# Needs rustup's wasm32-unknown-unknown target (added if missing) and wasm-bindgen-cli at exactly
# WASM_BINDGEN_VERSION, the version of the `wasm-bindgen` crate in crates/frontends/kit/Cargo.toml:
# taken from PATH or $KIT_TOOLS/bin when it is that version, else installed there with
# `cargo install --locked`. The demo's bundles are exported from the shipped checkpoints with
# `sabacc export` (the binary named by $SABACC; default: the workspace's debug build, which after
# `cargo test --workspace` compiles nothing), and its onnxruntime-web comes from npm (pinned in
# web-kit/package-lock.json). Nothing it writes is committed (web-kit/.gitignore).
set -euo pipefail
kit="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$kit/.." && pwd)"
cd "$root"

WASM_BINDGEN_VERSION=0.2.129
KIT_TOOLS="${KIT_TOOLS:-$root/target/kit-tools}"
target_dir="${CARGO_TARGET_DIR:-$root/target}"
package_only=0
case "${1:-}" in
    --package) package_only=1 ;;
    "") ;;
    *) echo "usage: web-kit/build.sh [--package]" >&2; exit 2 ;;
esac

if ! grep -q "\"=$WASM_BINDGEN_VERSION\"" crates/frontends/kit/Cargo.toml; then
    echo "build.sh: WASM_BINDGEN_VERSION ($WASM_BINDGEN_VERSION) is not the wasm-bindgen crate's version in crates/frontends/kit/Cargo.toml" >&2
    exit 1
fi

# --- the WebAssembly module
if command -v rustup >/dev/null && ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
    rustup target add wasm32-unknown-unknown
fi
bindgen=""
for candidate in "$(command -v wasm-bindgen || true)" "$KIT_TOOLS/bin/wasm-bindgen"; do
    if [ -n "$candidate" ] && [ -x "$candidate" ] && [ "$("$candidate" --version)" = "wasm-bindgen $WASM_BINDGEN_VERSION" ]; then
        bindgen="$candidate"
        break
    fi
done
if [ -z "$bindgen" ]; then
    echo "== cargo install wasm-bindgen-cli $WASM_BINDGEN_VERSION (into $KIT_TOOLS)"
    start=$SECONDS
    # Built for compile time, not run time: unoptimised and without debug info it compiles in
    # about a third of the CPU time and still writes the bindings in a second or two. The TLS
    # stack (default feature `rustls-tls`) serves only the test runner's downloads, never used here.
    # (.ci/run's Clippy wrapper and denied warnings are for the project's crates, not this tool.)
    env -u RUSTC_WORKSPACE_WRAPPER -u RUSTFLAGS \
        CARGO_PROFILE_RELEASE_OPT_LEVEL=0 CARGO_PROFILE_RELEASE_DEBUG=false CARGO_PROFILE_RELEASE_LTO=false \
        CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16 CARGO_PROFILE_RELEASE_INCREMENTAL=false \
        cargo install --locked --quiet --no-default-features wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION" \
        --root "$KIT_TOOLS"
    echo "wasm-bindgen-cli installed in $((SECONDS - start)) s"
    bindgen="$KIT_TOOLS/bin/wasm-bindgen"
fi

# Small rather than fast: the engine's calls take microseconds, the download is what a player
# waits for. A profile of its own, so the workspace's release builds are untouched.
echo "== cargo build (wasm32-unknown-unknown, profile kit-wasm)"
options=(--config 'profile.kit-wasm.inherits="release"' --config 'profile.kit-wasm.opt-level="s"'
    --config 'profile.kit-wasm.lto=true' --config 'profile.kit-wasm.codegen-units=1'
    --config 'profile.kit-wasm.debug=false' --config 'profile.kit-wasm.strip=true'
    --config 'profile.kit-wasm.panic="abort"'
    --config 'target.wasm32-unknown-unknown.rustflags=["-Dwarnings"]')
# The bindings (crates/frontends/kit/src/wasm.rs) are compiled for wasm32 only, where the
# workspace's `cargo clippy` does not look: this build runs Clippy on the workspace's crates as it
# compiles them (clippy-driver as the rustc wrapper), warnings denied, rather than checking them
# in a second build.
if clippy="$(command -v clippy-driver)"; then
    options+=(--config "build.rustc-workspace-wrapper=\"$clippy\"")
else
    echo "build.sh: clippy-driver not found; building without Clippy's lints" >&2
fi
cargo build --locked --quiet --target wasm32-unknown-unknown -p kit --profile kit-wasm "${options[@]}"
rm -rf "$kit/pkg"
start=$SECONDS
"$bindgen" --target web --out-dir "$kit/pkg" --out-name sabacc_kit \
    "$target_dir/wasm32-unknown-unknown/kit-wasm/sabacc_kit.wasm"
echo "bindings written in $((SECONDS - start)) s"
wasm="$kit/pkg/sabacc_kit_bg.wasm"
echo "sabacc_kit_bg.wasm: $(wc -c <"$wasm") bytes, $(gzip -9 -c "$wasm" | wc -c) gzipped"
[ "$package_only" = 1 ] && exit 0

# --- the demo's bundles: every level of each game whose levels ship, and a bundle of every other
# registered game's shipped policy (its reference.json for the parity test)
(cd "$kit" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error)
sabacc="${SABACC:-}"
if [ -z "$sabacc" ]; then
    # The same targets as `cargo test --workspace`, so after the tests this compiles nothing.
    cargo build --locked --quiet --workspace --bins --tests --examples
    sabacc="$target_dir/debug/sabacc"
fi
bundles="$kit/build/bundles"
rm -rf "$kit/build"
mkdir -p "$bundles"
echo "== sabacc export (the demo's level bundles)"
index="["
for game in kessel classic; do
    for level in 1 2 3 4 5; do
        "$sabacc" export "level:$level" --game "$game" --format onnx --out "$bundles/$game-level-$level" >/dev/null
        index+="{\"game\":\"$game\",\"level\":$level,\"path\":\"bundles/$game-level-$level/\"},"
    done
done
# Leduc hold'em's least exploitable shipped policy (NashConv 0.275; `leduc-ppo` measures 0.509)
"$sabacc" export checkpoints/leduc-psro --format onnx --out "$bundles/leduc-psro" >/dev/null
index="${index%,}]"

# --- the static demo: the page, the package, the runner, onnxruntime-web's wasm build and the
# level bundles' contract.json and policy.onnx (the page needs nothing else)
dist="$kit/dist"
rm -rf "$dist"
mkdir -p "$dist/kit" "$dist/vendor/onnxruntime-web" "$dist/bundles"
cp "$kit"/demo/* "$dist/"
cp "$kit/pkg/sabacc_kit.js" "$kit/pkg/sabacc_kit_bg.wasm" "$kit/src/policy.js" "$dist/kit/"
ort="$kit/node_modules/onnxruntime-web/dist"
cp "$ort/ort.wasm.bundle.min.mjs" "$ort/ort-wasm-simd-threaded.wasm" "$dist/vendor/onnxruntime-web/"
for game in kessel classic; do
    for level in 1 2 3 4 5; do
        mkdir -p "$dist/bundles/$game-level-$level"
        cp "$bundles/$game-level-$level/contract.json" "$bundles/$game-level-$level/policy.onnx" "$dist/bundles/$game-level-$level/"
    done
done
echo "$index" >"$dist/bundles/index.json"
echo "demo: $(du -sh "$dist" | cut -f1) in web-kit/dist (serve it as static files, e.g. python3 -m http.server -d web-kit/dist)"
