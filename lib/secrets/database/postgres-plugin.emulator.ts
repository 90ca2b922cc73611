import { Client } from 'pg';

/** The only database plugin the emulator runs. */
export const POSTGRES_PLUGIN = 'postgresql-database-plugin';

/** What the plugin needs of a stored connection. */
export interface PgConnectionConfig {
  readonly connection_url: string;
  readonly username: string;
  readonly password: string;
  readonly disable_escaping: boolean;
}

/** The plugin's default statements, as the real PostgreSQL plugin uses them when a role gives none. */
export const DEFAULT_REVOCATION = [
  'REVOKE ALL PRIVILEGES ON ALL TABLES IN SCHEMA public FROM "{{name}}";',
  'REVOKE ALL PRIVILEGES ON ALL SEQUENCES IN SCHEMA public FROM "{{name}}";',
  'REVOKE USAGE ON SCHEMA public FROM "{{name}}";',
  'DROP ROLE IF EXISTS "{{name}}";',
];
export const DEFAULT_ROTATION = ['ALTER ROLE "{{name}}" WITH PASSWORD \'{{password}}\';'];
export const DEFAULT_ROOT_ROTATION = ['ALTER ROLE "{{username}}" WITH PASSWORD \'{{password}}\';'];

/** Replaces `{{key}}` templates as they are (for the connection URL, whose values are percent-encoded). */
export function render(template: string, values: Record<string, string>): string {
  return template.replace(/\{\{\s*(\w+)\s*\}\}/g, (all, key: string) => (key in values ? values[key] : all));
}

/** Keys whose values are identifiers (role names); the others are literals. */
const IDENTIFIER_KEYS = new Set(['name', 'username']);
const TEMPLATE = /\{\{\s*(\w+)\s*\}\}/y;

/**
 * Fills `{{key}}` templates in a SQL statement so that no value can leave its place: inside
 * `"…"` a value's `"` is doubled, inside `'…'` its `'` is doubled (PostgreSQL's own escaping of
 * quoted identifiers and standard strings); a template outside quotes becomes a quoted identifier
 * (`{{name}}`, `{{username}}`, unless a plain lower-case identifier) or a quoted literal (the
 * rest). Statements are written as the real plugin's are (`"{{name}}"`, `'{{password}}'`), so
 * ordinary names render exactly as there, while a name such as `x" SUPERUSER --` stays one
 * identifier instead of adding options to the statement.
 */
export function renderSql(template: string, values: Record<string, string>): string {
  let out = '';
  let quote: string | undefined;
  let i = 0;
  while (i < template.length) {
    TEMPLATE.lastIndex = i;
    const m = TEMPLATE.exec(template);
    if (m && m[1] in values) {
      out += quoted(m[1], values[m[1]], quote);
      i += m[0].length;
      continue;
    }
    const ch = template[i];
    if (ch === '"' || ch === "'") quote = quote === undefined ? ch : quote === ch ? undefined : quote;
    out += ch;
    i++;
  }
  return out;
}

function quoted(key: string, value: string, inside: string | undefined): string {
  if (inside === '"') return value.replace(/"/g, '""');
  if (inside === "'") return value.replace(/'/g, "''");
  if (IDENTIFIER_KEYS.has(key)) return /^[a-z_][a-z0-9_$]*$/.test(value) ? value : `"${value.replace(/"/g, '""')}"`;
  return `'${value.replace(/'/g, "''")}'`;
}

/** The connection URL with the root credentials filled in (percent-encoded unless escaping is disabled). */
export function connectionString(c: PgConnectionConfig): string {
  const esc = (s: string) => (c.disable_escaping ? s : encodeURIComponent(s));
  return render(c.connection_url, { username: esc(c.username), password: esc(c.password), name: esc(c.username) });
}

/**
 * One statement-list entry may hold several statements separated by `;`; an entry containing
 * `$$` (a function body) runs as is, as the real plugin does.
 */
export function splitStatements(entries: readonly string[]): string[] {
  const out: string[] = [];
  for (const e of entries) {
    if (e.includes('$$')) out.push(e);
    else out.push(...e.split(';').map((s) => s.trim()).filter((s) => s !== ''));
  }
  return out;
}

/** Error text from pg without anything that could hold a password (the URL never appears in pg's messages). */
function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

export class PluginError extends Error {}

/** Opens a connection as the stored root user, runs `fn`, always closes. */
async function withClient<T>(c: PgConnectionConfig, fn: (client: Client) => Promise<T>): Promise<T> {
  let url: string;
  try {
    url = connectionString(c);
    new URL(url); // eslint-disable-line no-new
  } catch {
    throw new PluginError('error verifying connection: invalid connection_url');
  }
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  client.on('error', () => { /* a dropped connection surfaces through the failing query */ });
  try {
    await client.connect();
  } catch (e) {
    await client.end().catch(() => undefined);
    throw new PluginError(`error verifying connection: ${message(e)}`);
  }
  try {
    return await fn(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Connects and disconnects: `verify_connection`. */
export async function verify(c: PgConnectionConfig): Promise<void> {
  await withClient(c, async (client) => { await client.query('SELECT 1'); });
}

/** Whether a role (user) of that name exists, asked with a bound parameter. */
export async function roleExists(c: PgConnectionConfig, name: string): Promise<boolean> {
  return withClient(c, async (client) => {
    try {
      const r = await client.query<{ exists: boolean }>('SELECT exists (SELECT rolname FROM pg_roles WHERE rolname = $1)', [name]);
      return r.rows[0]?.exists === true;
    } catch (e) {
      throw new PluginError(message(e));
    }
  });
}

/** Runs rendered statements in one transaction; rolls back and throws on the first failure. */
export async function runStatements(c: PgConnectionConfig, entries: readonly string[], values: Record<string, string>): Promise<void> {
  const statements = splitStatements(entries).map((s) => renderSql(s, values));
  await withClient(c, async (client) => {
    await client.query('BEGIN');
    try {
      for (const s of statements) await client.query(s);
      await client.query('COMMIT');
    } catch (e) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw new PluginError(message(e));
    }
  });
}
