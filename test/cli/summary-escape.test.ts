import * as fs from 'fs';
import * as path from 'path';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const commonmark = require('commonmark') as { Parser: new () => { parse(s: string): unknown }; HtmlRenderer: new () => { render(n: unknown): string } };
import { KvSecret } from '../../lib/secrets/kv/kv-secret';
import { cliAsync, startWorld, synthApp, TestWorld } from '../support/harness';

// The Markdown of `plan --summary` goes into a pull-request comment: a map key (chosen by whoever wrote
// the app, or the synthesized output) must stay text, never a link, an image, HTML, a heading or a
// broken table (issue 32, also noticed).
const KEY = 'a`|<img src=x onerror=alert(1)>[click](https://evil.example)\n# pwned @acme/admins ``` |';

describe('plan --summary escapes what the app names', () => {
  let world: TestWorld;
  beforeAll(async () => { world = await startWorld(); });
  afterAll(async () => { await world.stop(); });

  test('a custom-metadata key with Markdown and HTML in it stays inside its cell, as text', async () => {
    const app = synthApp((st) => { new KvSecret(st, 'kv', { path: 'summary/app', data: { a: '1' }, customMetadata: { [KEY]: 'v', plain: 'v' } }); }, 'summary');
    const file = path.join(world.dir, 'summary-escape.md');
    const r = await cliAsync(['plan', '--synth-dir', app, '--summary', file], world.env);
    expect(r.status).toBe(0);
    const md = fs.readFileSync(file, 'utf8');
    const html = new commonmark.HtmlRenderer().render(new commonmark.Parser().parse(md));
    expect(html).not.toMatch(/<img|<a |<h1/);
    const row = md.split('\n').find((l) => l.includes('`kv`'))!;
    // One table row: six cell borders, none from the key.
    expect(row.match(/(?<!\\)\|/g)).toHaveLength(6);
    expect(md.split('\n').filter((l) => l.startsWith('#'))).toEqual(['## converge plan', '### Stack `summary`']);
    expect(row).toContain('`customMetadata.plain`');
  });
});
