import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as http from 'http';
import * as https from 'https';
import { AddressInfo } from 'net';
import * as path from 'path';
import { MeshProtocol } from '../../lib/mesh/shared/mesh-types';
import { ServiceDefaults } from '../../lib/mesh/config-entry/service-defaults';
import { PlatformProvider } from '../../lib/platform/provider';
import { KvSecret } from '../../lib/secrets/kv/kv-secret';
import { Organization } from '../../lib/platform/organization/organization';
import { cliAsync, startWorld, synthApp, tempDir, TestWorld } from '../support/harness';

/** A private CA, a server certificate for localhost and a client certificate, made with the openssl CLI. */
function makePki(dir: string): Record<'ca' | 'serverCert' | 'serverKey' | 'clientCert' | 'clientKey', string> {
  const f = (n: string) => path.join(dir, n);
  const ossl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  ossl('req', '-x509', ...ec, '-keyout', f('ca.key'), '-out', f('ca.pem'), '-days', '2', '-subj', '/CN=converge test CA',
    '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign');
  const leaf = (name: string, ext: string) => {
    ossl('req', ...ec, '-keyout', f(`${name}.key`), '-out', f(`${name}.csr`), '-subj', `/CN=${name}`);
    fs.writeFileSync(f(`${name}.ext`), ext);
    ossl('x509', '-req', '-in', f(`${name}.csr`), '-CA', f('ca.pem'), '-CAkey', f('ca.key'), '-CAcreateserial', '-days', '2',
      '-out', f(`${name}.pem`), '-extfile', f(`${name}.ext`));
  };
  leaf('server', 'subjectAltName=DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth\n');
  leaf('client', 'extendedKeyUsage=clientAuth\n');
  return { ca: f('ca.pem'), serverCert: f('server.pem'), serverKey: f('server.key'), clientCert: f('client.pem'), clientKey: f('client.key') };
}

/** An HTTPS front of `target` that trusts only client certificates of the private CA. */
async function httpsFront(target: URL, pki: ReturnType<typeof makePki>): Promise<{ server: https.Server; address: string }> {
  const server = https.createServer({
    key: fs.readFileSync(pki.serverKey), cert: fs.readFileSync(pki.serverCert), ca: fs.readFileSync(pki.ca),
    requestCert: true, rejectUnauthorized: true,
  }, (req, res) => {
    const up = http.request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers }, (u) => {
      res.writeHead(u.statusCode ?? 502, u.headers);
      u.pipe(res);
    });
    req.pipe(up);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, address: `https://localhost:${(server.address() as AddressInfo).port}` };
}

// Each API behind an HTTPS server with a private CA that requires client certificates.
describe('TLS per API: CA bundle, client certificate, skip-verify', () => {
  let world: TestWorld;
  let fronts: https.Server[];
  let address: string;
  let secretsAddress: string;
  let meshAddress: string;
  let pki: ReturnType<typeof makePki>;
  let dir: string;

  beforeAll(async () => {
    world = await startWorld();
    pki = makePki(tempDir('converge-pki-'));
    const [p, s, m] = await Promise.all(['PLATFORM_ADDRESS', 'SECRETS_ADDR', 'MESH_HTTP_ADDR'].map((v) => httpsFront(new URL(world.env[v]!), pki)));
    fronts = [p.server, s.server, m.server];
    [address, secretsAddress, meshAddress] = [p.address, s.address, m.address];
    dir = synthApp((stack) => { new Organization(stack, 'org', { name: 'tls-org', email: 'ops@tls.io' }); }, 'tls');
  });
  afterAll(async () => {
    for (const server of fronts) {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
    await world.stop();
  });

  const plan = (env: Record<string, string>, synthDir = dir) =>
    cliAsync(['plan', '--synth-dir', synthDir, '--detailed-exitcode'], { ...world.env, PLATFORM_ADDRESS: address, CONVERGE_RETRIES: '1', ...env });

  test('without the CA: a clear error naming PLATFORM_CACERT', async () => {
    const r = await plan({});
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/the certificate of https:\/\/localhost:\d+ is not trusted \(\w+\): set PLATFORM_CACERT/);
  });

  test('with the CA but no client certificate: a clear error naming PLATFORM_CLIENT_CERT and PLATFORM_CLIENT_KEY', async () => {
    const r = await plan({ PLATFORM_CACERT: pki.ca });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/wants a client certificate it trusts; set PLATFORM_CLIENT_CERT and PLATFORM_CLIENT_KEY/);
  });

  test('with the CA and the client certificate: it works', async () => {
    const r = await plan({ PLATFORM_CACERT: pki.ca, PLATFORM_CLIENT_CERT: pki.clientCert, PLATFORM_CLIENT_KEY: pki.clientKey });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(2);
    expect(r.stdout).toMatch(/Plan: 1 to add/);
  });

  test('skip-verify (PLATFORM_SKIP_VERIFY) with the client certificate: it works', async () => {
    const r = await plan({ PLATFORM_SKIP_VERIFY: '1', PLATFORM_CLIENT_CERT: pki.clientCert, PLATFORM_CLIENT_KEY: pki.clientKey });
    expect(r.status).toBe(2);
  });

  test('provider props name the files (never their contents), and are synthesized as paths', async () => {
    const d = synthApp((stack) => {
      const provider = new PlatformProvider(stack, 'platform', { caCertFile: pki.ca, clientCertFile: pki.clientCert, clientKeyFile: pki.clientKey });
      new Organization(stack, 'org', { name: 'tls-org', email: 'ops@tls.io', provider });
    }, 'tls-props');
    const synthesized = fs.readFileSync(path.join(d, 'stacks', 'tls-props', 'cdk.tf.json'), 'utf8');
    expect(synthesized).toContain(pki.ca);
    expect(synthesized).not.toContain('BEGIN');
    const r = await plan({}, d);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(2);
    expect(() => new PlatformProvider(new (require('cdktf').TerraformStack)(new (require('cdktf').App)(), 's'), 'p',
      { caCertFile: fs.readFileSync(pki.ca, 'utf8') })).toThrow(/caCertFile must be the path of a PEM file \(never its contents\)/);
  });

  test('an unreadable CA file names the variable and the file', async () => {
    const r = await plan({ PLATFORM_CACERT: '/nonexistent/ca.pem' });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('PLATFORM_CACERT: cannot read the CA bundle file "/nonexistent/ca.pem": ENOENT');
  });

  test('the secrets service and the mesh have their own variables (the mesh: MESH_HTTP_SSL_VERIFY=false skips)', async () => {
    const d = synthApp((stack) => {
      new KvSecret(stack, 'kv', { path: 'tls/kv', data: { a: '1' } });
      new ServiceDefaults(stack, 'svc', { name: 'tls-svc', protocol: MeshProtocol.HTTP });
    }, 'tls-other');
    const env = { SECRETS_ADDR: secretsAddress, MESH_HTTP_ADDR: meshAddress };
    const certs = { SECRETS_CLIENT_CERT: pki.clientCert, SECRETS_CLIENT_KEY: pki.clientKey, MESH_CLIENT_CERT: pki.clientCert, MESH_CLIENT_KEY: pki.clientKey };
    let r = await plan({ ...env, ...certs, MESH_CACERT: pki.ca }, d);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/is not trusted \(\w+\): set SECRETS_CACERT/);
    r = await plan({ ...env, ...certs, SECRETS_CACERT: pki.ca, MESH_CACERT: pki.ca }, d);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(2);
    r = await plan({ ...env, ...certs, SECRETS_SKIP_VERIFY: 'true', MESH_HTTP_SSL_VERIFY: 'false' }, d);
    expect(r.status).toBe(2);
    r = await plan({ ...env, SECRETS_CACERT: pki.ca, SECRETS_CLIENT_CERT: pki.clientCert, SECRETS_CLIENT_KEY: pki.clientKey, MESH_CACERT: pki.ca }, d);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/set MESH_CLIENT_CERT and MESH_CLIENT_KEY/);
  });

  test('plain http:// to a host that is not loopback is refused unless opted in', async () => {
    let r = await plan({ PLATFORM_ADDRESS: 'http://platform.example.invalid:8800' });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('PLATFORM_ADDRESS is http://platform.example.invalid:8800: plain http:// to a host that is not this machine would send the platform token (PLATFORM_TOKEN) in clear');
    expect(r.stderr).toContain('CONVERGE_ALLOW_INSECURE_HTTP=1');
    r = await plan({ PLATFORM_ADDRESS: 'http://platform.example.invalid:8800', CONVERGE_ALLOW_INSECURE_HTTP: '1', CONVERGE_RETRIES: '0' });
    expect(r.status).toBe(1);
    expect(r.stderr).not.toContain('in clear');
    expect(r.stderr).toContain('check PLATFORM_ADDRESS');
    // Loopback stays allowed (the emulator).
    r = await plan({ PLATFORM_ADDRESS: world.env.PLATFORM_ADDRESS!.replace('127.0.0.1', 'localhost') });
    expect(r.status).toBe(2);
  });
});
