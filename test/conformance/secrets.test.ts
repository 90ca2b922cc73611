import { ConformanceRecorder } from '../support/conformance-snapshots';
import { startWorld, TestWorld } from '../support/harness';
import { startOpenBao, TestOpenBao } from '../support/openbao';
import { realTools } from '../support/real-tools';


// The secrets emulator held to the real service: the same requests to the emulator and to OpenBao 2.6,
// the answers compared (status, body shape, messages), with what differs per server normalised (request
// ids, times, generated secrets and tokens). Where the spec renames (the X-Secrets-Token header, engine
// names, last_service_rotation), the emulator follows the spec: docs/emulator.md lists each difference.
// Requests here use X-Vault-Token, which both read. Without OpenBao, the emulator's answers are compared
// with OpenBao's recorded ones (snapshots/secrets.json; test/conformance/README.md).
describe('secrets emulator conformance with OpenBao', () => {
  const openBao = new ConformanceRecorder('secrets', 'BAO');
  let bao: TestOpenBao | undefined;
  let world: TestWorld;

  beforeAll(async () => {
    [bao, world] = await Promise.all([
      openBao.live ? startOpenBao(realTools().BAO!, { totp: 'totp', database: 'database', kv: 'kvc' }) : undefined, startWorld()]);
    const admin = await fetch(`${world.env.SECRETS_ADDR}/__admin/mounts/kvc`, {
      method: 'POST', headers: { 'x-secrets-token': world.env.SECRETS_TOKEN! }, body: JSON.stringify({ type: 'kv' }),
    });
    expect(admin.status).toBe(204);
  });
  afterAll(async () => { await Promise.all([world?.stop(), bao?.stop()]); });

  type Answer = { status: number; body: unknown };
  const send = async (base: string, token: string | undefined, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> => {
    const r = await fetch(`${base}/v1/${path}`, {
      method, headers: { ...(token ? { 'x-vault-token': token } : {}), 'content-type': 'application/json', ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await r.text();
    return { status: r.status, body: text ? JSON.parse(text) : undefined };
  };
  /** What differs per server and run: ids, times, generated secrets, tokens, accessors. */
  const normal = (v: unknown, key = ''): unknown => {
    if (Array.isArray(v)) return v.map((x) => normal(x));
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, normal(x, k)]));
    if (typeof v !== 'string') return v;
    if (['request_id', 'accessor', 'client_token', 'id', 'barcode', 'entity_id'].includes(key) && v) return `<${key}>`;
    if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/.test(v)) return '<time>';
    return v.replace(/secret=[A-Z2-7]+/, 'secret=<secret>');
  };
  /** OpenBao's normalised answer: asked live, or recorded. `note` says what sets the request apart (no token, a header). */
  const real = (method: string, path: string, body: unknown, note: string, ask: (bao: TestOpenBao) => Promise<Answer>): Promise<Answer> =>
    openBao.real(`${method} ${path}${note ? ` (${note})` : ''}`, body, async () => normal(await ask(bao!)) as Answer);
  /** The same request to both; the normalised answers must be equal. */
  const same = async (method: string, path: string, body?: unknown, opts: { token?: string | null; headers?: Record<string, string>; emuToken?: string } = {}) => {
    const emuToken = opts.token === null ? undefined : (opts.emuToken ?? opts.token ?? world.env.SECRETS_TOKEN!);
    const note = [opts.token === null ? 'no token' : '', ...Object.keys(opts.headers ?? {}).map((h) => `${h} header`)].filter(Boolean).join(', ');
    const [e, b] = await Promise.all([
      send(world.env.SECRETS_ADDR!, emuToken, method, path, body, opts.headers),
      real(method, path, body, note, (o) => send(o.address, opts.token === null ? undefined : (opts.token ?? o.rootToken), method, path, body, opts.headers)),
    ]);
    expect({ request: `${method} ${path}`, ...(normal(e) as object) }).toEqual({ request: `${method} ${path}`, ...b });
    return b;
  };

  openBao.test('tokens: a missing token is 403 permission denied; X-Vault-Token and Authorization: Bearer are read', async () => {
    await same('GET', 'secret/data/none', undefined, { token: null });
    await same('GET', 'secret/data/none');
    const [e, b] = await Promise.all([
      send(world.env.SECRETS_ADDR!, undefined, 'GET', 'secret/data/none', undefined, { authorization: `Bearer ${world.env.SECRETS_TOKEN}` }),
      real('GET', 'secret/data/none', undefined, 'Authorization: Bearer', (o) => send(o.address, undefined, 'GET', 'secret/data/none', undefined, { authorization: `Bearer ${o.rootToken}` })),
    ]);
    expect(normal(e)).toEqual(b);
    expect(b.status).toBe(404);
  });

  openBao.test('not found: a missing key and an unmounted path', async () => {
    await same('GET', 'secret/data/missing');
    await same('GET', 'nomount/x');
  });

  openBao.test('KV: metadata check-and-set where the mount requires it', async () => {
    await same('POST', 'kvc/config', { metadata_cas_required: true });
    await same('GET', 'kvc/config');
    await same('POST', 'kvc/data/a', { data: { x: '1' }, options: { cas: 0 } });
    await same('GET', 'kvc/metadata/a');
    await same('POST', 'kvc/metadata/a', { max_versions: 3 });
    await same('POST', 'kvc/metadata/a', { max_versions: 3, metadata_cas: 5 });
    await same('POST', 'kvc/metadata/a', { max_versions: 3, metadata_cas: 0 });
    await same('GET', 'kvc/metadata/a');
    await same('POST', 'kvc/metadata/fresh', { max_versions: 3, metadata_cas: 2 });
    await same('POST', 'secret/metadata/own', { max_versions: 3, metadata_cas_required: true });
    await same('POST', 'secret/metadata/own', { max_versions: 4 });
    await same('GET', 'secret/metadata/own');
  });

  openBao.test('database: connection read, allowed_roles at static-role creation, role checks at write, wrapped errors', async () => {
    await same('POST', 'database/config/c1', {
      plugin_name: 'postgresql-database-plugin', connection_url: 'postgresql://{{username}}:{{password}}@127.0.0.1:1/x',
      username: 'u', password: 'p', verify_connection: false, allowed_roles: ['a'],
    });
    await same('GET', 'database/config/c1');
    await same('POST', 'database/config/c2', {
      plugin_name: 'postgresql-database-plugin', connection_url: 'postgresql://{{username}}:{{password}}@127.0.0.1:1/x',
      username: 'u', password: 'p', verify_connection: false, allowed_roles: ['*'], disable_escaping: true,
    });
    await same('GET', 'database/config/c2');
    await same('POST', 'database/static-roles/b', { db_name: 'c1', username: 'x', rotation_period: '24h' });
    await same('GET', 'database/static-roles/b');
    await same('POST', 'database/roles/r1', { db_name: 'c1', default_ttl: '2h', max_ttl: '1h' });
    await same('GET', 'database/roles/r1');
    await same('GET', 'database/creds/r1');
    await same('GET', 'database/creds/nope');
  });

  openBao.test('TOTP: generated URLs escape spaces as %20; a code of the wrong length is 400', async () => {
    await same('POST', 'totp/keys/k1', { generate: true, issuer: 'Acme Corp', account_name: 'ann smith@acme.test' });
    await same('GET', 'totp/keys/k1');
    await same('POST', 'totp/keys/k2', { url: 'otpauth://totp/Acme%20Corp:ann?secret=JBSWY3DPEHPK3PXP&issuer=Acme%20Corp' });
    await same('GET', 'totp/keys/k2');
    await same('POST', 'totp/code/k2', { code: '12345' });
    await same('POST', 'totp/code/k2', { code: '1234567' });
    await same('POST', 'totp/code/nokey', { code: '123456' });
  });

  openBao.test("a token's display name, as the engines use it in generated names", async () => {
    const created = { policies: ['default'], display_name: 'CI bot' };
    const make = (base: string, token: string) => send(base, token, 'POST', 'auth/token/create', created);
    // The token OpenBao made, kept from its raw answer (the recorded one is masked) for the live lookup.
    let baoToken = '';
    const [e] = await Promise.all([make(world.env.SECRETS_ADDR!, world.env.SECRETS_TOKEN!),
      real('POST', 'auth/token/create', created, '', async (o) => {
        const raw = await make(o.address, o.rootToken);
        baoToken = (raw.body as any).auth.client_token;
        return raw;
      })]);
    const lookup = (base: string, token: string) => send(base, token, 'GET', 'auth/token/lookup-self');
    const [le, lb] = await Promise.all([lookup(world.env.SECRETS_ADDR!, (e.body as any).auth.client_token),
      real('GET', 'auth/token/lookup-self', undefined, 'the created token', (o) => lookup(o.address, baoToken))]);
    expect((le.body as any).data.display_name).toBe((lb.body as any).data.display_name);
    expect((lb.body as any).data.display_name).toBe('token-CI-bot');
  });
});
