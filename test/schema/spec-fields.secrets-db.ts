import { normalDuration } from '../../lib/core/duration';
import { defaultOf, SpecField, specText, specTableAfter } from '../support/spec-tables';

/**
 * The parameters of a row of the secrets spec's endpoint tables or of a prose line, written as
 * `name (type: default; note), …`: each name with the default its type part states (`empty` is the
 * empty string or list, a duration in converge's canonical form).
 */
function paramList(text: string, durations: readonly string[] = []): SpecField[] {
  const out: SpecField[] = [];
  const re = /`?([a-z_]+)`?\s*\(([^()]*(?:\([^()]*\)[^()]*)*)\)/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) {
    const [type, rest] = m[2].split(/[:]/, 2).map((s) => s.trim());
    out.push({ name: m[1], default: defaultIn(type, rest?.split(/[;,]/)[0], durations.includes(m[1])) });
  }
  return out;
}

function defaultIn(type: string, text: string | undefined, duration: boolean): unknown {
  if (text === undefined) return undefined;
  if (text === 'empty') return /list/.test(type) ? [] : '';
  const v = defaultOf(text);
  return duration && v !== undefined ? normalDuration(v) : v;
}

/** The parameters cell of an endpoint of the database engine's table. */
function databaseParams(operation: string, durations: readonly string[] = []): SpecField[] {
  const row = specTableAfter('secrets-api', '| Operation |', '### Database engine\n\n|').find((r) => r[0] === operation);
  if (!row) throw new Error(`no "${operation}" row in the database engine's table`);
  return paramList(row[2], durations);
}

/** The text after `marker` in a section of the directory engine (its endpoints by default), up to the end of its line. */
function directoryLine(marker: string, section = '### Directory engine (`{directory_mount}`)'): string {
  const text = specText('secrets-api');
  const from = text.indexOf(marker, text.indexOf(section));
  if (from < 0) throw new Error(`no "${marker}" in the directory engine's section`);
  return text.slice(from, text.indexOf('\n', from));
}

/** The directory configuration: the parameters table (name, `type: default`), and the TLS versions its read lists. */
function directoryConfig(): SpecField[] {
  const table = specTableAfter('secrets-api', '| Name | Type: default |', 'Configuration: POST, GET, DELETE').map(([name, type]) => {
    const def = type.includes(':') ? type.slice(type.indexOf(':') + 1).trim() : undefined;
    const key = name.split(' ')[0];
    return { name: key, default: defaultIn(type, def, ['request_timeout'].includes(key)) };
  });
  const read = directoryLine('Configuration (read):', '### Directory engine\n').replace('Configuration (read):', '').split(',').map((s) => s.trim().split(' ')[0].replace(/\.$/, ''));
  return [...table, ...read.filter((n) => !table.some((f) => f.name === n)).map((name) => ({ name }))];
}

/** Each secrets kind of the db area's request fields, read from the spec's parameter tables. */
export const SECRETS_DB_SPEC_FIELDS: Record<string, () => SpecField[]> = {
  'secrets.DatabaseConnection': () => databaseParams('Configure connection'),
  'secrets.DatabaseRole': () => databaseParams('Create or update role', ['default_ttl', 'max_ttl']),
  'secrets.DatabaseStaticRole': () => databaseParams('Create or update static role', ['rotation_period']),
  'secrets.DirectoryConfig': directoryConfig,
  'secrets.DirectoryRole': () => paramList(directoryLine('Roles: GET').split('Parameters:')[1], ['ttl']),
  'secrets.DirectoryLibrarySet': () => paramList(directoryLine('- LIST `{directory_mount}/library`').split('Parameters:')[1], ['ttl', 'max_ttl']),
};
