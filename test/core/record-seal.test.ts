import * as crypto from 'crypto';
import { encrypt } from '../../lib/core/crypto/state-key';
import { legacyRecords, openSensitiveOutputs, sealRecord, VerifiedRecords, verifyDocument } from '../../lib/core/state/record-seal';
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
