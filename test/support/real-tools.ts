import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { ROOT } from './harness';

/**
 * The real servers and tools built from source in `../shared/tools/` beside the checkout (see
 * its README): Terraform 1.5.7 with the null provider, OpenBao 2.6 and Consul 1.16. CI unpacks
 * them (`.ci/run`) and exports their paths; a run without them unpacks them once here. A fresh
 * clone has none: tests that need one call `describeWithTool`, which skips with the reason
 * printed, never passes silently.
 */
export interface RealTools {
  readonly TERRAFORM?: string;
  readonly TF_CLI_CONFIG_FILE?: string;
  readonly TF_PLUGIN_MIRROR?: string;
  readonly BAO?: string;
  readonly CONSUL?: string;
}

let cached: RealTools | undefined;

/** The tools' paths: from the environment when `.ci/run` exported them, else from `../shared/tools/unpack`. */
export function realTools(): RealTools {
  if (cached) return cached;
  const fromEnv: Record<string, string> = {};
  for (const k of ['TERRAFORM', 'TF_CLI_CONFIG_FILE', 'TF_PLUGIN_MIRROR', 'BAO', 'CONSUL']) {
    if (process.env[k] && fs.existsSync(process.env[k]!)) fromEnv[k] = process.env[k]!;
  }
  if (Object.keys(fromEnv).length === 0) {
    const unpack = path.resolve(ROOT, '..', 'shared', 'tools', 'unpack');
    if (fs.existsSync(unpack)) {
      try {
        const out = execFileSync('bash', [unpack], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
        for (const line of out.split('\n')) {
          const m = /^([A-Z_]+)='(.*)'$/.exec(line.trim());
          if (m && fs.existsSync(m[2])) fromEnv[m[1]] = m[2];
        }
      } catch { /* a mismatching checksum: treated as absent, and the skip says so */ }
    }
  }
  cached = fromEnv;
  return cached;
}

/** `describe` when the named tool is present; otherwise a skipped block whose name says why. */
export function describeWithTool(tool: keyof RealTools, name: string, fn: () => void): void {
  const p = realTools()[tool];
  if (p) {
    describe(name, fn);
  } else {
    // eslint-disable-next-line no-console
    console.warn(`SKIPPED "${name}": ${tool} is not available (the real tools live in ../shared/tools/, beside a CI checkout; a fresh clone has none)`);
    describe.skip(`${name} [skipped: ${tool} not available; see ../shared/tools/README.md]`, fn);
  }
}
