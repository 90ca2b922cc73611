// Which CDK converge's constructs belong to: CDK for Terraform (`cdktf` 0.21) or its community
// continuation CDK Terrain (`cdktn`). Both publish the same API under different package names
// (cdktn's providers are `cdktn-provider-*`, cdktf's `@cdktf/provider-*`), but an element of one
// library cannot live in a stack of the other (their stacks call internal methods on elements).
// converge is compiled against `cdktf`; when the app uses cdktn, this module makes every
// `require('cdktf')` (converge's own, and `@cdktf/provider-null`'s) load cdktn instead.
// It must be loaded before anything requires `cdktf`.
import Module = require('module');

/** The library in use: `CONVERGE_CDK_LIBRARY` (cdktf or cdktn), else cdktn when the app has it and cdktf does not resolve first. */
export const CDK_LIBRARY: 'cdktf' | 'cdktn' = chooseLibrary();

function resolves(name: string): boolean {
  try {
    require.resolve(name, { paths: [process.cwd(), __dirname] });
    return true;
  } catch {
    return false;
  }
}

function chooseLibrary(): 'cdktf' | 'cdktn' {
  const wanted = process.env.CONVERGE_CDK_LIBRARY;
  if (wanted === 'cdktf' || wanted === 'cdktn') return wanted;
  if (wanted) throw new Error(`CONVERGE_CDK_LIBRARY must be cdktf or cdktn (got "${wanted}")`);
  return !resolves('cdktf') && resolves('cdktn') ? 'cdktn' : 'cdktf';
}

if (CDK_LIBRARY === 'cdktn') {
  const mod = Module as unknown as { _resolveFilename: (request: string, parent: unknown, ...rest: unknown[]) => string };
  const original = mod._resolveFilename;
  const cdktn = require.resolve('cdktn', { paths: [process.cwd(), __dirname] });
  mod._resolveFilename = function (request: string, parent: unknown, ...rest: unknown[]): string {
    if (request === 'cdktf') return cdktn;
    if (request.startsWith('cdktf/')) return require.resolve(`cdktn/${request.slice(6)}`, { paths: [process.cwd(), __dirname] });
    return original.call(this, request, parent, ...rest);
  };
}
