import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { OWN_ROOT } from './install-source';

/** Where a new app keeps the cdk-converge tarball it depends on, relative to the app. */
export function vendoredPath(root = OWN_ROOT): string {
  const version = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).version as string;
  return `vendor/cdk-converge-${version}.tgz`;
}

/**
 * Puts cdk-converge into the app as a tarball (`vendor/cdk-converge-<version>.tgz`), so that the app
 * depends on it by a path inside itself (`file:vendor/…`) that every clone has, instead of an absolute
 * path to this machine's install (a global install, a checkout, a downloaded tarball).
 * `source` is the tarball or the package directory converge was installed from (a directory is packed).
 */
export function vendorPackage(source: string, appDir: string, root = OWN_ROOT): string {
  const rel = vendoredPath(root);
  const dest = path.join(appDir, rel);
  fs.mkdirSync(path.dirname(dest), { recursive: true });
  if (fs.statSync(source).isDirectory()) {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'converge-vendor-'));
    try {
      const out = execFileSync('npm', ['pack', source, '--json', '--pack-destination', tmp, '--ignore-scripts'],
        { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
      const [info] = JSON.parse(out.slice(out.indexOf('['))) as { filename: string }[];
      fs.copyFileSync(path.join(tmp, info.filename), dest, fs.constants.COPYFILE_EXCL);
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  } else {
    fs.copyFileSync(source, dest, fs.constants.COPYFILE_EXCL);
  }
  return rel;
}
