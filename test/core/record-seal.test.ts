import * as crypto from 'crypto';
import { authenticate, encrypt } from '../../lib/core/crypto/state-key';
import { canonical, legacyRecords, openSensitiveOutputs, sealRecord, VerifiedRecords, verifyDocument } from '../../lib/core/state/record-seal';
import { StateDocument, StateRecord } from '../../lib/core/state/state-model';

process.env.CONVERGE_STATE_KEY ??= crypto.randomBytes(32).toString('hex');

const rec = (secret: string): StateRecord => ({
  kind: 'secrets.MeshTokenCredentials', status: 'created', id: 'x', spec: {}, hmacs: {}, outputs: {}, dependsOn: [], removalPolicy: 'destroy',
  provider: { api: 'secrets', addressEnv: 'SECRETS_ADDR', tokenEnv: 'SECRETS_TOKEN' }, sensitiveOutputs: encrypt(JSON.stringify({ token: secret })),
});

/** The text releases before issue 37 authenticated: the value rebuilt with its keys sorted (undefined dropped), then JSON.stringify. */
function earlierText(v: unknown): string {
  const walk = (x: unknown): unknown => (Array.isArray(x) ? x.map(walk) : x !== null && typeof x === 'object'
    ? Object.fromEntries(Object.keys(x as object).sort().filter((k) => (x as Record<string, unknown>)[k] !== undefined)
      .map((k) => [k, walk((x as Record<string, unknown>)[k])])) : x);
  return JSON.stringify(walk(v));
}

describe('sealed state records', () => {
  test('a ciphertext is bound to its stack, address and field, even where the record around it is authentic', () => {
    const ops = sealRecord('prod', 'ops', rec('ops-token'));
    const web = sealRecord('prod', 'web', rec('web-token'));
    expect(ops.sensitiveOutputs).toMatch(/^v2\./);
    const doc: StateDocument = { version: 1, stack: 'prod', serial: 1, lineage: 'l', authenticated: true, resources: { ops, web } };
    verifyDocument(doc, 'state');
    expect(openSensitiveOutputs(doc.resources.ops)).toEqual({ token: 'ops-token' });
    // Moved into the web record, which is then authenticated again (as a holder of the key could): still refused.
    const moved = sealRecord('prod', 'web', { ...web, sensitiveOutputs: ops.sensitiveOutputs });
    expect(() => openSensitiveOutputs(moved)).toThrow(/web in the state of stack "prod".*moved from another record/);
    // The same address in another stack sharing the key.
    const other = sealRecord('staging', 'ops', { ...ops, sensitiveOutputs: ops.sensitiveOutputs });
    expect(() => openSensitiveOutputs(other)).toThrow(/moved from another record/);
  });

  test('a record without a mac is refused; a document never sealed is refused naming converge state migrate, which seals only such a document', () => {
    const legacy = rec('t');
    expect(() => verifyDocument({ version: 1, stack: 's', serial: 1, lineage: 'l', authenticated: true, resources: { a: legacy } }, 'state of s'))
      .toThrow(/state of s: the record at a was changed outside converge/);
    const old: StateDocument = { version: 1, stack: 's', serial: 1, lineage: 'l', resources: { a: legacy } };
    expect(() => verifyDocument(old, 'state of s')).toThrow(/state of s is not sealed.*converge state migrate --stack s/);
    expect(legacyRecords(old, 'state of s')).toEqual(['a']);
    // Seals removed from a sealed record: its ciphertext, bound to its place, shows it.
    const { mac: _m, ...stripped } = sealRecord('s', 'a', rec('t'));
    expect(() => legacyRecords({ ...old, resources: { a: stripped } }, 'state of s')).toThrow(/was sealed by this release \(the records at a show it\)/);
  });

  test('a record sealed as earlier releases sealed it (keys sorted into a copy, then JSON.stringify) is still trusted, whatever its key order', () => {
    // Keys that a sorted copy does not keep in sorted order (integer-like keys come first, in numeric order), escapes, nested lists.
    const outputs = { b: 1, a: [1, null, { z: 'x', y: '\u2028"\\' }], '10': 'ten', '9': 'nine', '01': 'zero-one', 'é': 2, E: 3, empty: {}, list: [] };
    const { sensitiveOutputs: _s, ...plain } = rec('t'); // (a v1 ciphertext would be bound to its place when sealed)
    const record: StateRecord = { ...plain, spec: { data: { '2': 'two', '10': 'ten', user: 'u' } }, outputs };
    const { mac: _m, ...unsealed } = record;
    const earlierMac = authenticate('state record', earlierText({ stack: 's', address: 'a', record: { ...unsealed, mac: undefined } }));
    // The same record as a JSON store gives it back: other key order.
    const reordered = JSON.parse(JSON.stringify({ ...record, mac: earlierMac, outputs: Object.fromEntries(Object.entries(outputs).reverse()) }));
    expect(() => verifyDocument({ version: 1, stack: 's', serial: 1, lineage: 'l', authenticated: true, resources: { a: reordered } }, 'state')).not.toThrow();
    // And this release seals it the same way: the mac it writes is the one earlier releases wrote.
    expect(sealRecord('s', 'a', unsealed as StateRecord).mac).toBe(earlierMac);
    // A changed value is still refused.
    const changed = { ...reordered, outputs: { ...reordered.outputs, '9': 'NINE' } };
    expect(() => verifyDocument({ version: 1, stack: 's', serial: 1, lineage: 'l', authenticated: true, resources: { a: changed } }, 'state'))
      .toThrow(/the record at a was changed outside converge/);
  });

  test('records sealed by earlier releases still verify: the text MACed is the same, keys that are array indices included', () => {
    const values: unknown[] = [
      { b: 1, a: { d: [3, { y: 1, x: undefined }], c: null }, gone: undefined },
      { '10': 'x', '9': 'y', '01': 1, '-1': 2, '4294967295': 3, '4294967294': 4, a: 'é\u2028"\\' },
      [undefined, null, () => 1, [], {}, -0, 1e21, 0.1, NaN, Infinity, 'ü'],
      { z: { '2': { '1': [{ b: true, a: false }] } }, ä: 1, Z: 2, _: 3, ' ': 4 },
      'text', 42, null, true,
      { s: ['a\u0000b', '\ud800', '\udc00x', '😀', '\u007f', 'tab\there', 'new\nline', '~ !#$%&()*+,-./:;<=>?@[]^_`{|}'], 'k\"ey': 1, 'é': 2 },
    ];
    for (const v of values) expect(canonical(v)).toBe(earlierText(v));
    // A record sealed by the release before this change, under a fixed key: its mac, computed then.
    const saved = process.env.CONVERGE_STATE_KEY;
    process.env.CONVERGE_STATE_KEY = '5f0e6f3a1c2b4d8e9a7b6c5d4e3f2a1b0c9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f';
    try {
      const record = { kind: 'secrets.KvSecret', status: 'created', id: 'app/db',
        spec: { path: 'app/db', data: { '10': 'x', '9': 'y', b: 'é\u2028"', a: [1, undefined, null, { z: 1, y: [true, -0, 1e21, 0.1] }], '01': 1, '-1': 2 }, gone: undefined },
        hmacs: { 'data.b': 'h' }, outputs: { version: 3 }, dependsOn: ['x', 'y'], removalPolicy: 'retain',
        provider: { api: 'secrets', addressEnv: 'SECRETS_ADDR', tokenEnv: 'SECRETS_TOKEN' }, path: 'app/db', salt: 'salt' } as unknown as StateRecord;
      expect(sealRecord('prod', 'secrets_kv_secret.db', record).mac).toBe('a-czjYpWZNfnycCA6CoqjofrE2rcQa2J_tlH_figbGE');
      // Read back as stored (JSON: undefined gone), with that mac: it verifies; changed, it does not.
      const stored = JSON.parse(JSON.stringify({ ...record, mac: 'a-czjYpWZNfnycCA6CoqjofrE2rcQa2J_tlH_figbGE' })) as StateRecord;
      const doc = (r: StateRecord): StateDocument => ({ version: 1, stack: 'prod', serial: 1, lineage: 'l', authenticated: true, resources: { 'secrets_kv_secret.db': r } });
      expect(verifyDocument(doc(stored), 'state')).toEqual([]);
      expect(verifyDocument(doc({ ...stored, spec: { ...stored.spec, path: 'app/other' } }), 'state', true)).toEqual(['secrets_kv_secret.db']);
    } finally {
      process.env.CONVERGE_STATE_KEY = saved;
    }
  });

  test('records are authenticated over the same text as before (JSON of a copy with keys added in sorted order), whatever their keys and values', () => {
    const samples: unknown[] = [
      { b: 1, a: [1, undefined, null, { z: 'é', y: '\u2028"\\' }], c: undefined, '10': 'ten', '9': 'nine', '01': 'x', '': 0, 'B': true, 4294967295: 'big' },
      { spec: { customMetadata: { '2': 'b', '1': 'a', k: [] }, data: { n: '1e3', m: -0, o: 1.5e300, p: NaN } }, when: new Date(0) },
      [], {}, 'text', 42, null, [[{}], [[]]], { 'a"b': 'x\\y', '[k]': '{v}<>`^|', 'tab\t': '\u0001', '\ud800': 'lone' },
    ];
    let seed = 7;
    const rnd = (n: number) => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; };
    const value = (depth: number): unknown => {
      const pick = rnd(depth > 3 ? 5 : 7);
      if (pick === 0) return rnd(1000) - 500;
      if (pick === 1) return ['a', 'Z', '0', '10', 'é', '\n', ''][rnd(7)];
      if (pick === 2) return [true, false, null, undefined][rnd(4)];
      if (pick === 3) return rnd(100) / 7;
      if (pick === 4) return String(rnd(30));
      if (pick === 5) return Array.from({ length: rnd(4) }, () => value(depth + 1));
      return Object.fromEntries(Array.from({ length: rnd(6) }, () => [['k', 'K', '1', '20', '3', 'a.b', '_', '~'][rnd(8)] + (rnd(2) ? String(rnd(12)) : ''), value(depth + 1)]));
    };
    for (let i = 0; i < 300; i++) samples.push(value(0));
    for (const v of samples) expect(canonical(v)).toBe(earlierText(v));
    // A record sealed over the reference text is accepted.
    const r = { ...rec('t'), spec: samples[0] as Record<string, unknown>, mac: undefined };
    const mac = authenticate('state record', earlierText({ stack: 's', address: 'a', record: r }));
    expect(verifyDocument({ version: 1, stack: 's', serial: 1, lineage: 'l', authenticated: true, resources: { a: { ...r, mac } } }, 'state')).toEqual([]);
  });

  test('objects of one shape are written in sorted key order each time, and key lists that join to the same text are not taken for each other', () => {
    const sortedJson = (o: Record<string, unknown>) => JSON.stringify(Object.fromEntries(Object.keys(o).sort().map((k) => [k, o[k]])));
    // Two key lists that give the same text joined with a NUL: each keeps its own keys.
    const first = { 'a\u0000b': 1, 'c': 2, 'z': 0 };
    const second = { a: 1, 'b\u0000c': 2, 'z': 0 };
    for (const o of [first, second, first, second]) expect(canonical(o)).toBe(sortedJson(o));
    // The same keys in another order, and the same shape again with other values.
    for (const o of [{ z: 1, y: 2, '10': 3, '9': 4 }, { y: 2, z: 1, '9': 4, '10': 3 }, { z: 'x', y: 'w', '10': 'v', '9': 'u' }]) {
      expect(canonical(o)).toBe(JSON.stringify(Object.fromEntries(['9', '10', 'y', 'z'].map((k) => [k, (o as Record<string, unknown>)[k]]))));
    }
  });

  test('records verified before (a watcher reads its state every cycle) are refused again once changed, and each read gets its place', () => {
    const verified = new VerifiedRecords();
    const ops = sealRecord('prod', 'ops', rec('ops-token'));
    const doc = (r: StateRecord): StateDocument => ({ version: 1, stack: 'prod', serial: 1, lineage: 'l', authenticated: true, resources: { ops: r } });
    // Read as text each time, as a backend does: new objects with the same content.
    const read = (r: StateRecord) => doc(JSON.parse(JSON.stringify(r)) as StateRecord);
    expect(verifyDocument(read(ops), 'state', false, 'prod', verified)).toEqual([]);
    const again = read(ops);
    expect(verifyDocument(again, 'state', false, 'prod', verified)).toEqual([]);
    expect(openSensitiveOutputs(again.resources.ops)).toEqual({ token: 'ops-token' });
    // Edited outside converge, the mac kept: refused though the address was verified before.
    expect(() => verifyDocument(read({ ...ops, id: 'planted' }), 'state', false, 'prod', verified)).toThrow(/the record at ops was changed outside converge/);
    // Under another stack name, the same text is not the same record.
    expect(() => verifyDocument({ ...read(ops), stack: 'staging' }, 'state', false, 'staging', verified)).toThrow(/the record at ops was changed outside converge/);
    expect(verifyDocument(read(ops), 'state', false, 'prod', verified)).toEqual([]);
  });
});
