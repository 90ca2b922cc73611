import * as fs from 'fs';
import * as path from 'path';

/**
 * The one reader of the three API specs' markdown (a verbatim copy of ../shared/spec in
 * `test/fixtures/spec/`): tests walk the spec's tables and lists, never a hand-kept copy of them.
 */
export type SpecFile = 'platform-api' | 'secrets-api' | 'mesh-api';

const cache = new Map<SpecFile, string>();
export function specText(file: SpecFile): string {
  if (!cache.has(file)) cache.set(file, fs.readFileSync(path.join(__dirname, '..', 'fixtures', 'spec', `${file}.md`), 'utf8'));
  return cache.get(file)!;
}

/** The text from the line starting `heading` (`### Agent pool`) up to the next heading of any level. */
export function section(text: string, heading: string): string {
  const start = text.search(new RegExp(`^${escapeRegExp(heading)}`, 'm'));
  if (start < 0) throw new Error(`no "${heading}" heading in the spec`);
  const rest = text.slice(start);
  const end = rest.slice(1).search(/\n#+ /);
  return end < 0 ? rest : rest.slice(0, end + 1);
}

/** The rows of the first table after the first `marker` in `text`, header row dropped, each as trimmed cells. */
export function tableAfter(text: string, marker: string): string[][] {
  const start = text.indexOf(marker);
  if (start < 0) throw new Error(`no "${marker}" in the spec`);
  const rows: string[][] = [];
  let inTable = false;
  for (const line of text.slice(start).split('\n')) {
    if (line.startsWith('|')) {
      inTable = true;
      const cells = line.split('|').slice(1, -1).map((c) => c.trim());
      if (!cells[0].startsWith('---')) rows.push(cells);
    } else if (inTable) {
      break;
    }
  }
  if (!rows.length) throw new Error(`no table after "${marker}" in the spec`);
  return rows.slice(1);
}

/** {@link tableAfter} in a spec file, searching from the first `after` when given. */
export function specTableAfter(file: SpecFile, marker: string, after?: string): string[][] {
  const text = specText(file);
  const from = after ? text.indexOf(after) : 0;
  if (from < 0) throw new Error(`no "${after}" in ${file}`);
  try {
    return tableAfter(text.slice(from), marker);
  } catch (e) {
    throw new Error(`${file}${after ? ` after "${after}"` : ''}: ${(e as Error).message}`);
  }
}

/** A field of a request body the spec lists: its wire name and, when the spec states one, its default. */
export interface SpecField {
  readonly name: string;
  /** The default as a value; undefined when the spec states none (or a text such as "(none)"). */
  readonly default?: unknown;
}

/** A default cell as a value (`20160`, `false`, `password`, `"1h"`); undefined for none. */
export function defaultOf(text: string | undefined): unknown {
  const t = (text ?? '').trim().replace(/^`|`$/g, '');
  if (t === '' || t.startsWith('(') || /^none$/i.test(t) || t === '-' || t === '—') return undefined;
  if (t === 'true' || t === 'false') return t === 'true';
  if (/^-?\d+(\.\d+)?$/.test(t)) return Number(t);
  if (t === '[]') return [];
  if (t === '{}') return {};
  if (t === 'null') return null;
  return t.replace(/^"|"$/g, '');
}

/** Fields of a table whose first column is a key path, those under `prefix` (`data.attributes.`), with its default column. */
export function keyPathFields(rows: string[][], prefix: string, defaultColumn = 2): SpecField[] {
  return rows.filter(([k]) => k.startsWith(prefix) && !k.slice(prefix.length).includes('.'))
    .map((cells) => ({ name: cells[0].slice(prefix.length), default: defaultOf(cells[defaultColumn]) }));
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
