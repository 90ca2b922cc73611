import * as fs from 'fs';
import * as path from 'path';
import { TerraformStack } from 'cdktf';
import { SecretValue } from '../../lib/core/constructs/secret-value';
import { DatabaseConnection } from '../../lib/secrets/database/database-connection';
import { DatabaseStaticCredentials } from '../../lib/secrets/database/database-static-credentials';
import { DatabaseStaticRole } from '../../lib/secrets/database/database-static-role';
import { KvSecret } from '../../lib/secrets/kv/kv-secret';
import { TotpKey } from '../../lib/secrets/totp/totp-key';
import { cli, ROOT, synthApp } from '../support/harness';
import { expectedRows, PREFLIGHT_ROW } from './policy-table';

// docs/secrets-policy.md's table is what users build policies from by hand: it must say exactly what
// `converge policy` prints (a table that said `create` on metadata and `update` on data got 403 on
// every create).
function docRows(): Map<string, string> {
  const text = fs.readFileSync(path.join(ROOT, 'docs', 'secrets-policy.md'), 'utf8');
  const rows = new Map<string, string>();
  for (const m of text.matchAll(/^\| `([^`]+)` \| (.+) \|$/gm)) rows.set(m[1], m[2]);
  return rows;
}

describe("docs/secrets-policy.md's table", () => {
  test('has one row per kind and lookup of the policy table, each saying what it declares', () => {
    expect(Object.fromEntries(docRows())).toEqual(Object.fromEntries(expectedRows()));
  });

  test('filled in with a stack\'s props, its rows are the lines `converge policy` prints for that stack', () => {
    const dir = synthApp((st: TerraformStack) => {
      new KvSecret(st, 'db', { path: 'app/db', data: { user: 'app' } });
      new TotpKey(st, 'mfa', { name: 'ann', issuer: 'Acme', accountName: 'ann@acme.test' });
      const conn = new DatabaseConnection(st, 'pg', {
        name: 'app-db', connectionUrl: 'postgresql://{{username}}:{{password}}@127.0.0.1:1/app', username: 'root',
        password: SecretValue.fromEnv('DB_ROOT'), verifyConnection: false, allowedRoles: ['report'],
      });
      const role = new DatabaseStaticRole(st, 'static', { name: 'report', connection: conn, username: 'report', rotationPeriod: '24h' });
      new DatabaseStaticCredentials(st, 'creds', { role });
    }, 'table');
    const r = cli(['policy', '--synth-dir', dir, '--json'], { PATH: process.env.PATH, HOME: process.env.HOME });
    expect(r.stderr).toBe('');
    const printed = new Set<string>(JSON.parse(r.stdout).secretsPolicy.split('\n'));
    const rows = docRows();
    const fill = (kind: string, values: Record<string, string>) => rows.get(kind)!.split('; ').map((cell) => {
      const m = /^`([^`]+)`: (.+)$/.exec(cell)!;
      const p = m[1].replace(/<(\w+)>/g, (_, k: string) => values[k]);
      return `path "${p}" { capabilities = [${m[2].split(', ').map((c) => `"${c}"`).join(', ')}] }`;
    });
    const fromTable = [
      ...fill('secrets.KvSecret', { mount: 'secret', path: 'app/db' }),
      ...fill('secrets.TotpKey', { mount: 'totp', name: 'ann' }),
      ...fill('secrets.DatabaseConnection', { mount: 'database', name: 'app-db' }),
      ...fill('secrets.DatabaseStaticRole', { mount: 'database', name: 'report' }),
      ...fill('secrets.DatabaseStaticCredentials', { mount: 'database', role: 'report' }),
      ...fill(PREFLIGHT_ROW, {}),
    ];
    expect(new Set(fromTable)).toEqual(printed);
  });
});
