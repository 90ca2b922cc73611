import { spawnSync } from 'child_process';
import * as path from 'path';

// The CLI runs apps of CDK Terrain (cdktn) too, where cdktf is not installed: the engine side (the CLI,
// the handlers, the schemas they read) must load without it. Construct-side modules (prop checks of
// tokens, SecretValue) may import cdktf; a schema or handler that imports them breaks such apps.
test('the CLI and every handler load without cdktf', () => {
  const main = path.resolve(__dirname, '../../dist/cli/main.js');
  const probe = `
    const Module = require('module');
    const load = Module._load;
    Module._load = function (request, parent, ...rest) {
      if (request === 'cdktf') {
        const chain = [];
        for (let p = parent; p; p = p.parent) chain.push(p.filename.replace(/.*\\/dist\\//, ''));
        console.log('cdktf loaded via ' + chain.join(' <- '));
        process.exit(1);
      }
      return load.call(this, request, parent, ...rest);
    };
    require(${JSON.stringify(main)}).main;
    require(${JSON.stringify(path.resolve(__dirname, '../../dist/kinds.js'))}).registerAllKinds();
    console.log('ok');
  `;
  const r = spawnSync(process.execPath, ['-e', probe], { encoding: 'utf8' });
  expect(r.stdout.trim()).toBe('ok');
});
