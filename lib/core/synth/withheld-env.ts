import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

/**
 * Tells the user when the app reads a variable that is set in converge's environment but withheld
 * from synthesis (the environment of the app is an allow-list): without it, `process.env.ORG_NAME ??
 * 'default-org'` silently synthesizes the default, where `cdktf synth` would have seen the value.
 *
 * The app runs with two small preloads, written for the run into a temporary directory: for Node.js
 * (`NODE_OPTIONS=--require`), getters on the prototype of `process.env` (so a variable the app sets
 * itself still wins, and enumerating the environment sees nothing); for Python (`sitecustomize` on
 * `PYTHONPATH`), a subclass of `os.environ`'s class that notes a missing key. Each notes only reads by
 * the app's own code (not node_modules, site-packages or the standard library, which probe many
 * variables), and writes only the variable's name to a report file. Values never reach the app.
 * (A getter on the prototype makes `'NAME' in process.env` true for a withheld name, its value still
 * undefined: a Proxy would change what `process.env` is for every library.)
 */

/** The variables (names, comma-separated) that the preloads watch, and the file they report reads to. */
const WATCHED_VARIABLE = 'CONVERGE_SYNTH_WITHHELD';
const REPORT_VARIABLE = 'CONVERGE_SYNTH_WITHHELD_REPORT';

const NODE_PRELOAD = `'use strict';
// converge: notes reads of variables withheld from synthesis (lib/core/synth/withheld-env.ts).
(() => {
  const names = (process.env.${WATCHED_VARIABLE} || '').split(',').filter(Boolean);
  const report = process.env.${REPORT_VARIABLE};
  if (!names.length || !report) return;
  const fs = require('fs');
  const byApp = (getter) => {
    const prepare = Error.prepareStackTrace;
    Error.prepareStackTrace = (_, frames) => frames;
    const holder = {};
    Error.captureStackTrace(holder, getter);
    const frames = holder.stack;
    Error.prepareStackTrace = prepare;
    const file = Array.isArray(frames) && frames[0] ? String(frames[0].getFileName() || '') : '';
    // Libraries: npm's, and the jsii runtime that a Python app's package embeds.
    return !file.startsWith('node:') && !/[\\\\/](?:node_modules|site-packages|dist-packages)[\\\\/]/.test(file);
  };
  const getters = {};
  for (const name of names) {
    getters[name] = {
      configurable: true,
      get: function withheld() {
        try { if (byApp(withheld)) fs.appendFileSync(report, name + '\\n'); } catch { /* the warning is best effort */ }
        return undefined;
      },
    };
  }
  Object.setPrototypeOf(process.env, Object.create(Object.getPrototypeOf(process.env), getters));
})();
`;

const PYTHON_PRELOAD = `# converge: notes reads of variables withheld from synthesis (lib/core/synth/withheld-env.ts).
import os as _os
import sys as _sys


def _converge_watch():
    names = set(filter(None, _os.environ.get("${WATCHED_VARIABLE}", "").split(",")))
    report = _os.environ.get("${REPORT_VARIABLE}")
    if not names or not report:
        return
    import sysconfig
    here = _os.path.abspath(__file__)
    library = tuple(_os.path.abspath(p) + _os.sep for p in {sysconfig.get_paths()[k] for k in ("stdlib", "platstdlib", "purelib", "platlib")})

    def by_app():
        frame = _sys._getframe(2)
        while frame is not None:
            file = frame.f_code.co_filename
            if file.startswith("<frozen") or _os.path.abspath(file) == here or file.endswith("_collections_abc.py"):
                frame = frame.f_back
                continue
            path = _os.path.abspath(file)
            return not path.startswith(library) and "site-packages" not in path and "dist-packages" not in path
        return False

    base = type(_os.environ)

    class _Watched(base):
        def __getitem__(self, key):
            try:
                return base.__getitem__(self, key)
            except KeyError:
                if key in names:
                    try:
                        if by_app():
                            with open(report, "a", encoding="utf-8") as f:
                                f.write(key + "\\n")
                    except Exception:  # the warning is best effort
                        pass
                raise

    _os.environ.__class__ = _Watched


def _converge_chain():
    # A sitecustomize this one shadows on sys.path still runs.
    import importlib.machinery
    import importlib.util
    here = _os.path.dirname(_os.path.abspath(__file__))
    rest = [p for p in _sys.path if _os.path.abspath(p or ".") != here]
    spec = importlib.machinery.PathFinder.find_spec("sitecustomize", rest)
    if spec is not None and spec.loader is not None:
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)


try:
    _converge_watch()
except Exception:
    pass
_converge_chain()
`;

/** What a synthesis run needs to watch withheld variables: the app's extra environment, and the reads seen. */
export interface WithheldWatch {
  /** Variables to merge into the app's environment (on top of the allow-listed ones). */
  readonly env: NodeJS.ProcessEnv;
  /** The withheld variables the app read, each once, in order; removes the temporary directory. */
  finish(): string[];
}

/** Prepares the preloads for one run of the app; `appEnv` is what the app is given, `withheld` the names kept from it. */
export function watchWithheld(appEnv: NodeJS.ProcessEnv, withheld: readonly string[]): WithheldWatch {
  if (!withheld.length) return { env: {}, finish: () => [] };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'converge-synth-env-'));
  const preload = path.join(dir, 'converge-withheld-env.cjs');
  const report = path.join(dir, 'read.txt');
  fs.writeFileSync(preload, NODE_PRELOAD);
  fs.writeFileSync(path.join(dir, 'sitecustomize.py'), PYTHON_PRELOAD);
  // NODE_OPTIONS takes a quoted path (a temp dir may hold spaces).
  const nodeOptions = [`--require ${JSON.stringify(preload)}`, appEnv.NODE_OPTIONS].filter(Boolean).join(' ');
  const pythonPath = [dir, appEnv.PYTHONPATH].filter(Boolean).join(path.delimiter);
  return {
    env: { NODE_OPTIONS: nodeOptions, PYTHONPATH: pythonPath, [WATCHED_VARIABLE]: withheld.join(','), [REPORT_VARIABLE]: report },
    finish: () => {
      const read = fs.existsSync(report) ? fs.readFileSync(report, 'utf8').split('\n').filter(Boolean) : [];
      fs.rmSync(dir, { recursive: true, force: true });
      return [...new Set(read)].filter((n) => withheld.includes(n));
    },
  };
}

/** The warning for a withheld variable the app read. */
export function withheldWarning(name: string): string {
  return `Warning: the app read ${name}, which is set here but withheld from synthesis (the app saw it unset): ` +
    `pass --synth-env ${name} (or CONVERGE_SYNTH_ENV=${name}) to give it to the app`;
}
