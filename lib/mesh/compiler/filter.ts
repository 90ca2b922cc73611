/**
 * A syntax check of subset filter expressions (the mesh system's `go-bexpr` language):
 * `Service.Meta.version == v1`, `"canary" in Service.Tags`, `Service.Tags is empty`,
 * `not (A or B)`, `A and B`. Only the syntax is checked: the emulator has no catalog to filter.
 */

const OPS = ['==', '!=', 'in', 'not in', 'contains', 'not contains', 'is empty', 'is not empty', 'matches', 'not matches'];

function tokenize(s: string): string[] | string {
  const out: string[] = [];
  let i = 0;
  while (i < s.length) {
    const c = s[i];
    if (/\s/.test(c)) { i++; continue; }
    if (c === '(' || c === ')') { out.push(c); i++; continue; }
    if (c === '"' || c === '`') {
      const end = s.indexOf(c, i + 1);
      if (end < 0) return `unterminated string at position ${i}`;
      out.push(s.slice(i, end + 1));
      i = end + 1;
      continue;
    }
    if (s.startsWith('==', i) || s.startsWith('!=', i)) { out.push(s.slice(i, i + 2)); i += 2; continue; }
    const m = /^[^\s()"`=!]+/.exec(s.slice(i));
    if (!m) return `unexpected character "${c}" at position ${i}`;
    out.push(m[0]);
    i += m[0].length;
  }
  return out;
}

/** Undefined when the expression parses, else what is wrong. */
export function checkFilterSyntax(expr: string): string | undefined {
  const toks = tokenize(expr);
  if (typeof toks === 'string') return toks;
  let pos = 0;
  const peek = () => toks[pos];
  const isValue = (t: string | undefined) => t !== undefined && !['(', ')', 'and', 'or', 'not', '==', '!='].includes(t);
  const match = (): string | undefined => {
    if (peek() === 'not') { pos++; return match(); }
    if (peek() === '(') {
      pos++;
      const err = expression();
      if (err) return err;
      if (peek() !== ')') return 'missing closing parenthesis';
      pos++;
      return undefined;
    }
    if (!isValue(peek())) return `expected a selector or value, found ${peek() ?? 'end of expression'}`;
    pos++;
    for (const op of OPS.slice().sort((a, b) => b.length - a.length)) {
      const words = op.split(' ');
      if (words.every((w, k) => toks[pos + k] === w)) {
        pos += words.length;
        if (op.startsWith('is ')) return undefined;
        if (!isValue(peek())) return `expected a value after "${op}"`;
        pos++;
        return undefined;
      }
    }
    return `expected an operator, found ${peek() ?? 'end of expression'}`;
  };
  const expression = (): string | undefined => {
    let err = match();
    while (!err && (peek() === 'and' || peek() === 'or')) { pos++; err = match(); }
    return err;
  };
  if (toks.length === 0) return 'empty expression';
  const err = expression();
  if (err) return err;
  return pos < toks.length ? `unexpected "${toks[pos]}"` : undefined;
}
