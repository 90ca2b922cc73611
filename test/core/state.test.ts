import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { spawnSync } from 'child_process';
import { assertAcyclic } from '../../lib/core/engine/graph';
import { decrypt, encrypt } from '../../lib/core/secrets/state-key';
import { LocalBackend } from '../../lib/core/state/local-backend';
import { LockedError } from '../../lib/core/state/state-model';
import { StateStore } from '../../lib/core/state/state-store';

process.env.CONVERGE_STATE_KEY = '1d4afacf2d7e7574c8cd2c23ba7987bfc83e9087a65f80149854a5d020564d9b'; // 32 bytes as hex, as the key rules require
const dir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'converge-state-'));
const rec = (id: string) => ({ kind: 'k', status: 'created' as const, id, spec: {}, hmacs: {}, outputs: {}, dependsOn: [],
  removalPolicy: 'destroy' as const, provider: { api: 'secrets' as const, addressEnv: 'A', tokenEnv: 'T' } });

describe('local state', () => {
  test('every write increments the serial, keeps the lineage and lands on disk atomically', async () => {
    const b = new LocalBackend(dir());
    const s = await StateStore.open(b, 'prod');
    await s.put('a', rec('1'));
    await s.put('b', rec('2'));
    await s.put('a', undefined);
    // Before a flush the changes are in the journal and replayed on read.
    const stateDir = path.dirname((b as unknown as { stateFile(s: string): string }).stateFile('prod'));
    expect(fs.readdirSync(stateDir).sort()).toEqual(['state.journal', 'state.json']);
    expect((await b.read('prod'))?.serial).toBe(3);
    await s.flush();
    const onDisk = await b.read('prod');
    expect(onDisk?.serial).toBe(3);
    expect(onDisk?.lineage).toBe(s.lineage);
    expect(Object.keys(onDisk!.resources)).toEqual(['b']);
    expect(fs.readdirSync(stateDir)).toEqual(['state.json']);
    const reopened = await StateStore.open(b, 'prod');
    expect(reopened.lineage).toBe(s.lineage);
    expect(await b.stacks()).toEqual(['prod']);
  });

  test('a torn last journal line (a crash mid-write) is ignored; parallel puts are group-committed', async () => {
    const b = new LocalBackend(dir());
    const s = await StateStore.open(b, 'prod');
    await s.put('first', rec('0'));
    await Promise.all(Array.from({ length: 49 }, (_, i) => s.put(`r${i}`, rec(String(i)))));
    const stateDir = path.dirname((b as unknown as { stateFile(s: string): string }).stateFile('prod'));
    const journal = fs.readFileSync(path.join(stateDir, 'state.journal'), 'utf8').trim().split('\n');
    expect(journal.length).toBeLessThan(50);
    fs.appendFileSync(path.join(stateDir, 'state.journal'), '{"lineage":"' + s.lineage + '","serial":99,"chan');
    const read = await b.read('prod');
    expect(read?.serial).toBe(50);
    expect(Object.keys(read!.resources)).toHaveLength(50);
  });

  test('the lock is exclusive, names its holder, and is released', async () => {
    const b = new LocalBackend(dir());
    const held = await b.lock('prod', 'apply');
    await expect(b.lock('prod', 'plan')).rejects.toThrow(LockedError);
    await expect(b.lock('prod', 'plan')).rejects.toThrow(/locked by .* \(pid \d+ on .*, apply since/);
    await held.release();
    const again = await b.lock('prod', 'plan');
    await again.release();
  });

  test('a lock whose process is gone is taken over with a message; force-unlock needs the lock id', async () => {
    const d = dir();
    const b = new LocalBackend(d);
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    const lockFile = path.join(d, 'stacks', 'prod', 'lock.json');
    fs.mkdirSync(path.dirname(lockFile), { recursive: true });
    fs.writeFileSync(lockFile, JSON.stringify({ id: 'L1', who: 'ci', host: os.hostname(), pid: Number(dead.stdout), operation: 'apply', since: 'then' }));
    const messages: string[] = [];
    const l = await b.lock('prod', 'apply', (m) => messages.push(m));
    expect(messages[0]).toMatch(/taking over a stale lock/);
    await expect(b.forceUnlock('prod', 'wrong')).rejects.toThrow(/does not match/);
    await b.forceUnlock('prod', l.info.id);
    expect(fs.existsSync(lockFile)).toBe(false);
  });
});

describe('state crypto and ordering', () => {
  test('sensitive outputs round-trip; tampered ciphertext is refused clearly', () => {
    const sealed = encrypt('barcode-data');
    expect(sealed).not.toContain('barcode-data');
    expect(decrypt(sealed)).toBe('barcode-data');
    const parts = sealed.split('.');
    parts[3] = Buffer.from('tampered').toString('base64url');
    expect(() => decrypt(parts.join('.'))).toThrow(/tampered with, or CONVERGE_STATE_KEY/);
  });

  test('dependency cycles are named', () => {
    expect(() => assertAcyclic(new Map([['a', ['b']], ['b', ['c']], ['c', ['a']]]))).toThrow('dependency cycle: a -> b -> c -> a');
    expect(() => assertAcyclic(new Map([['a', ['b']], ['b', []]]))).not.toThrow();
  });
});
