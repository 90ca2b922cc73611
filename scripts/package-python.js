#!/usr/bin/env node
// Builds the Python package (wheel and sdist) into <outdir>/python, as `jsii-pacmak --targets python` does,
// with two additions to the generated sources: python/_struct_dicts.py, which checks the plain dicts a Python app
// puts in lists and maps of struct props (the jsii kernel would drop their Python-spelt keys silently), and a
// `converge` command (the jsii shim pip puts in the venv's bin) that runs the app with that venv's Python.
// Needs python3 (>= 3.10) with venv, and PyPI for the build tools. Usage: node scripts/package-python.js [outdir]
'use strict';
const { execFileSync } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');

const ROOT = path.resolve(__dirname, '..');
const outdir = path.resolve(process.argv[2] ?? path.join(ROOT, 'dist-packages'));
const pkgdir = path.join(outdir, 'python');
const env = { ...process.env, JSII_SILENCE_WARNING_DEPRECATED_NODE_VERSION: '1', JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION: process.versions.node.split('.')[0] };
const run = (cmd, args, opts = {}) => execFileSync(cmd, args, { stdio: ['ignore', 'pipe', 'inherit'], env, ...opts });

// 1. The sources, as pacmak generates them (with the examples jsii-rosetta translated, when a tablet exists).
run(process.execPath, [path.join(ROOT, 'node_modules', 'jsii-pacmak', 'bin', 'jsii-pacmak'), '--code-only', '--targets', 'python', '--outdir', outdir], { cwd: ROOT });

// 2. The dict check, imported by the package before it publishes its names.
const src = path.join(pkgdir, 'src', 'cdk_converge');
fs.copyFileSync(path.join(ROOT, 'python', '_struct_dicts.py'), path.join(src, '_struct_dicts.py'));
const init = path.join(src, '__init__.py');
const code = fs.readFileSync(init, 'utf8');
const marker = '\npublication.publish()\n';
if (!code.includes(marker)) throw new Error(`${init}: no "publication.publish()" to insert the dict check before`);
fs.writeFileSync(init, code.replace(marker, `\nfrom . import _struct_dicts as _struct_dicts  # noqa: E402 (scripts/package-python.js)\n${marker}`));

// 3. The `converge` shim. jsii runs the CLI with Node.js's directory first on PATH, so `python3 main.py`
// (cdktf.json's app) would find the system Python, without the venv's packages: the shim names its own
// Python's directory, which the CLI puts first on the app's PATH (lib/core/synth/read-synth.ts), and
// silences jsii's Node.js version banner (the user runs converge, not a choice of Node.js).
const shim = path.join(src, '_jsii', 'bin', 'converge');
const shimCode = fs.readFileSync(shim, 'utf8');
const load = '\n__jsii_assembly__ = jsii.JSIIAssembly.load(';
if (!shimCode.includes(load)) throw new Error(`${shim}: no "__jsii_assembly__ = jsii.JSIIAssembly.load(" to insert the launcher's Python before`);
fs.writeFileSync(shim, shimCode.replace(load, [
  '',
  '# converge (scripts/package-python.js): the app runs with this Python first on PATH, and jsii says nothing of Node.js.',
  'os.environ["CONVERGE_LAUNCHER_BIN"] = os.path.dirname(os.path.abspath(sys.executable))',
  'os.environ.setdefault("JSII_SILENCE_WARNING_DEPRECATED_NODE_VERSION", "1")',
  // jsii takes the Node.js major versions to keep quiet about, and the shim runs whichever `node` is on PATH.
  'os.environ.setdefault("JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION", ",".join(str(major) for major in range(100)))',
  load,
].join('\n')));

// 4. The wheel and sdist, built in a fresh virtual environment with the tools pacmak pins.
const venv = fs.mkdtempSync(path.join(os.tmpdir(), 'converge-pybuild-'));
try {
  run('python3', ['-m', 'venv', venv]);
  const python = path.join(venv, 'bin', 'python');
  const requirements = path.join(ROOT, 'node_modules', 'jsii-pacmak', 'lib', 'targets', 'python', 'requirements-dev.txt');
  run(python, ['-m', 'pip', 'install', '--quiet', '--no-input', '--disable-pip-version-check', '-r', requirements]);
  // --no-isolation: the venv holds exactly the build system pyproject.toml asks for (setuptools, build).
  run(python, ['-m', 'build', '--no-isolation', '--outdir', pkgdir, pkgdir]);
  const built = fs.readdirSync(pkgdir).filter((f) => f.endsWith('.whl') || f.endsWith('.tar.gz'));
  run(python, ['-m', 'twine', 'check', ...built.map((f) => path.join(pkgdir, f))]);
  process.stdout.write(`${built.map((f) => path.join(pkgdir, f)).join('\n')}\n`);
} finally {
  fs.rmSync(venv, { recursive: true, force: true });
}
