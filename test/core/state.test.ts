import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { spawn, spawnSync } from 'child_process';
import { assertAcyclic } from '../../lib/core/engine/graph';
import { decrypt, encrypt } from '../../lib/core/crypto/state-key';
import { LocalBackend } from '../../lib/core/state/local-backend';
import { LockedError, StateBackend, StateDocument } from '../../lib/core/state/state-model';
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

  test('changes made in one turn of the event loop share one durable write, also when no write is in flight', async () => {
    const b = new LocalBackend(dir());
    const s = await StateStore.open(b, 'turn');
    await s.put('first', rec('0'));
    await s.flush();
    let appends = 0;
    const append = b.append.bind(b);
    b.append = async (...args) => { appends++; return append(...args); };
    // Three callbacks of one turn of the event loop (as answers that arrive together): each makes a change at once.
    await Promise.all([0, 1, 2].map((i) => new Promise<void>((resolve, reject) => setImmediate(() => s.put(`t${i}`, rec(String(i))).then(resolve, reject)))));
    expect(appends).toBe(1);
    expect(Object.keys((await b.read('turn'))!.resources).sort()).toEqual(['first', 't0', 't1', 't2']);
  });

  test('a whole write by another backend object of the same directory closes the journal: later appends are kept', async () => {
    const d = dir();
    const b = new LocalBackend(d);
    const s = await StateStore.open(b, 'two');
    await s.put('a', rec('1'));
    await s.put('b', rec('2'));
    const other = new LocalBackend(d);
    const doc = (await other.read('two'))!;
    await other.write({ ...doc, serial: doc.serial + 1 });
    await b.append('two', doc.lineage, doc.serial + 2, [{ address: 'c', record: rec('3') }]);
    const back = await new LocalBackend(d).read('two');
    expect(back?.serial).toBe(doc.serial + 2);
    expect(Object.keys(back!.resources).sort()).toEqual(['a', 'b', 'c']);
  });

  test('whole rewrites cost linear time: the journal is folded in once it holds as many changes as the document has records', async () => {
    // A backend that counts what it is given: records rewritten in whole writes, changes appended.
    let rewritten = 0;
    let appended = 0;
    let journal = 0;
    let most = 0;
    const docs = new Map<string, StateDocument>();
    const counting: StateBackend = {
      describe: () => 'counting',
      read: async (stack) => docs.get(stack),
      write: async (doc) => { docs.set(doc.stack, doc); rewritten += Object.keys(doc.resources).length; journal = 0; },
      append: async (_stack, _lineage, _serial, changes) => { appended += changes.length; journal += changes.length; most = Math.max(most, journal); },
      lock: async () => { throw new Error('unused'); },
      forceUnlock: async () => undefined,
      stacks: async () => [...docs.keys()],
    };
    const s = await StateStore.open(counting, 'big');
    const n = 5000;
    for (let i = 0; i < n; i++) await s.put(`r${i}`, rec(String(i)));
    await s.flush();
    expect(rewritten + appended).toBeLessThan(4 * n); // every 500 changes: 5.5 n rewritten at n = 5000, 27.5 n at 25 000
    expect(most).toBeLessThanOrEqual(Math.max(500, n));
    expect(Object.keys(docs.get('big')!.resources)).toHaveLength(n);
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

  test('a lock file that exists but holds no record yet is not taken; one left unreadable for long is', async () => {
    const d = dir();
    const b = new LocalBackend(d);
    const lockFile = path.join(d, 'stacks', 'prod', 'lock.json');
    fs.mkdirSync(path.dirname(lockFile), { recursive: true });
    fs.writeFileSync(lockFile, '');
    await expect(b.lock('prod', 'apply')).rejects.toThrow(/state of stack "prod" is locked: .*lock\.json exists but holds no lock record yet/);
    expect(fs.readFileSync(lockFile, 'utf8')).toBe('');
    const old = new Date(Date.now() - 60_000);
    fs.utimesSync(lockFile, old, old);
    const messages: string[] = [];
    const l = await b.lock('prod', 'apply', (m) => messages.push(m));
    expect(messages).toEqual([`converge: removing the unreadable lock file ${lockFile} of stack "prod"`]);
    expect(JSON.parse(fs.readFileSync(lockFile, 'utf8')).id).toBe(l.info.id);
    await l.release();
    expect(fs.readdirSync(path.dirname(lockFile))).toEqual([]);
  });

  test('processes racing for a free or a stale lock: exactly one gets it', async () => {
    const backendModule = path.resolve(__dirname, '../../dist/core/state/local-backend.js');
    for (const stale of [false, true]) {
      const d = dir();
      if (stale) {
        const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
        fs.mkdirSync(path.join(d, 'stacks', 'race'), { recursive: true });
        fs.writeFileSync(path.join(d, 'stacks', 'race', 'lock.json'),
          JSON.stringify({ id: 'L0', who: 'ci', host: os.hostname(), pid: Number(dead.stdout), operation: 'apply', since: 'then' }));
      }
      const go = path.join(d, 'go');
      // Each contender waits for the go file, tries once, reports, and keeps what it got until its stdin closes.
      const script = `const fs = require('fs'); const { LocalBackend } = require(${JSON.stringify(backendModule)});
        process.stdout.write('ready\\n');
        while (!fs.existsSync(${JSON.stringify(go)})) {}
        new LocalBackend(${JSON.stringify(d)}).lock('race', 'apply').then(() => 'got', (e) => e.name === 'LockedError' ? 'locked' : 'error ' + e.message)
          .then((r) => { process.stdout.write(r + '\\n'); process.stdin.resume(); process.stdin.on('end', () => process.exit(0)); });`;
      const children = Array.from({ length: 6 }, () => spawn(process.execPath, ['-e', script], { stdio: ['pipe', 'pipe', 'inherit'] }));
      const waitFor = children.map((c) => {
        let text = '';
        c.stdout!.on('data', (x) => { text += x; });
        return (want: RegExp) => new Promise<string>((r) => {
          const poll = () => {
            const m = want.exec(text);
            if (m) r(m[0]); else if (c.exitCode !== null) r(`exited: ${text}`); else setTimeout(poll, 10);
          };
          poll();
        });
      });
      await Promise.all(waitFor.map((w) => w(/ready/)));
      fs.writeFileSync(go, '');
      const results = await Promise.all(waitFor.map((w) => w(/got|locked|error.*/)));
      children.forEach((c) => c.stdin!.end());
      await Promise.all(children.map((c) => new Promise((r) => c.on('close', r))));
      expect({ stale, results: results.sort() }).toEqual({ stale, results: ['got', 'locked', 'locked', 'locked', 'locked', 'locked'] });
    }
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
