import * as fs from 'fs';
import * as path from 'path';
import { ROOT } from '../support/harness';

// cdk-converge is in no registry yet: every page that installs it from one says so first, and the
// README opens with the way that works today, naming the registries a release publishes to.
const PAGES = ['README.md', ...fs.readdirSync(path.join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`),
  ...fs.readdirSync(path.join(ROOT, 'examples')).map((d) => `examples/${d}/README.md`).filter((f) => fs.existsSync(path.join(ROOT, f)))];
const REGISTRY_INSTALL = /npm install (-g )?cdk-converge(?![-\w/.])|pip install cdk-converge(?![-\w/.])|go get github\.com\/converge-iac|npx converge init|<artifactId>cdk-converge</;
const SAYS_NOT_YET = /not in any registry yet|None of these registries serves|until a release/i;

test.each(PAGES)('%s installs cdk-converge from a registry only after saying that a release is needed', (page) => {
  const lines = fs.readFileSync(path.join(ROOT, page), 'utf8').split('\n');
  const first = lines.findIndex((l) => REGISTRY_INSTALL.test(l) && !/release/i.test(l));
  if (first < 0) return;
  expect({ page, line: first + 1, saidBefore: lines.slice(0, first + 1).some((l) => SAYS_NOT_YET.test(l)) }).toEqual({ page, line: first + 1, saidBefore: true });
});

test('the README opens with the two set-up commands, then how to get converge today and where a release publishes it', () => {
  const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  expect(readme.split('\n').slice(2, 6)).toEqual(['```sh', expect.stringMatching(/^npm ci && npm start\s+#/), expect.stringMatching(/^npm test\s+#/), '```']);
  const sections = [...readme.matchAll(/^## (.+)$/gm)].map((m) => m[1]);
  expect(sections[0]).toBe('Getting converge');
  const getting = readme.slice(readme.indexOf('## Getting converge'), readme.indexOf('\n## ', readme.indexOf('## Getting converge') + 3));
  for (const registry of ['npm', 'PyPI', 'Maven Central', 'github.com/converge-iac/cdk-converge-go']) expect(getting).toContain(registry);
  expect(getting).toMatch(/npx --yes -p \S+\.tgz converge init/);
  // Built once: `npm start` builds, so nothing after it builds again.
  expect(getting).not.toMatch(/npm start[^\n]*npm run build|npm run build[^\n]*npm start/);
});
