import * as crypto from 'crypto';
import { authenticate, encrypt } from '../../lib/core/crypto/state-key';
import { canonical, legacyRecords, openSensitiveOutputs, sealRecord, verifyDocument } from '../../lib/core/state/record-seal';
import { StateDocument, StateRecord } from '../../lib/core/state/state-model';

process.env.CONVERGE_STATE_KEY ??= crypto.randomBytes(32).toString('hex');

const rec = (secret: string): StateRecord => ({
  kind: 'secrets.MeshTokenCredentials', status: 'created', id: 'x', spec: {}, hmacs: {}, outputs: {}, dependsOn: [], removalPolicy: 'destroy',
  provider: { api: 'secrets', addressEnv: 'SECRETS_ADDR', tokenEnv: 'SECRETS_TOKEN' }, sensitiveOutputs: encrypt(JSON.stringify({ token: secret })),
});

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

  test('records are authenticated over the same text as before (JSON of a copy with keys added in sorted order), whatever their keys and values', () => {
    // The text earlier releases authenticated: records they sealed must still verify.
    const reference = (v: unknown): string => {
      const walk = (x: unknown): unknown => (Array.isArray(x) ? x.map(walk) : x !== null && typeof x === 'object'
        ? Object.fromEntries(Object.keys(x as object).sort().filter((k) => (x as Record<string, unknown>)[k] !== undefined)
          .map((k) => [k, walk((x as Record<string, unknown>)[k])])) : x);
      return JSON.stringify(walk(v));
    };
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
    for (const v of samples) expect(canonical(v)).toBe(reference(v));
    // A record sealed over the reference text is accepted.
    const r = { ...rec('t'), spec: samples[0] as Record<string, unknown>, mac: undefined };
    const mac = authenticate('state record', reference({ stack: 's', address: 'a', record: r }));
    expect(verifyDocument({ version: 1, stack: 's', serial: 1, lineage: 'l', authenticated: true, resources: { a: { ...r, mac } } }, 'state')).toEqual([]);
  });
});
