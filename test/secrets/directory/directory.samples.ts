import * as fs from 'fs';
import * as path from 'path';
import fc from 'fast-check';
import { TerraformStack } from 'cdktf';
import { SecretValue } from '../../../lib';
import { DirectoryConfig, DirectoryLibrarySet, DirectoryRole } from '../../../lib/secrets';
import { badDuration, badSegmentName } from '../../reliability/prop-arbitraries';
import { SECRETS_DIR, SECRET_FILES_ENV, admin } from '../../schema/full-sample-helpers';
import { SampleWorld } from '../../schema/full-samples';
import { defaultIn, paramList } from '../../schema/spec-field-readers';
import { BINDDN, countWhere, once, range, secretsGet, secretsKeys } from '../../support/sample-world';
import { FamilySamples } from '../../support/samples';
import { SpecField, specTableAfter, specText } from '../../support/spec-tables';

function directoryConfig(stack: TerraformStack, i: number): DirectoryConfig {
  return once(stack, `dircfg${i}`, () => new DirectoryConfig(stack, `dircfg${i}`, {
    mount: `t-dir-${i}`, binddn: BINDDN, bindpass: SecretValue.fromEnv('PLANTED_ENGINE_SECRET'), ttl: '24h', maxTtl: '48h',
  }));
}

const DIR_MOUNT = 'full-dir';

const FULL_BINDDN = 'CN=full,OU=svc,DC=example,DC=com';

const BIND_PASSWORD_FILE = path.join(SECRETS_DIR, 'bind');

/** A mount of the directory engine and the accounts of its simulated directory (once). */
let dirSeeded: Promise<void> | undefined;

function seedDirectory(world: SampleWorld): Promise<void> {
  dirSeeded ??= (async () => {
    fs.writeFileSync(BIND_PASSWORD_FILE, 'full-bind-pass-1', { mode: 0o600 });
    await admin(world, 'POST', `mounts/${DIR_MOUNT}`, { type: 'directory' });
    await admin(world, 'POST', `directory/${DIR_MOUNT}/accounts/${FULL_BINDDN}`, { password: 'full-bind-pass-1' });
    for (const a of ['svc-full-role', 'svc-full-a', 'svc-full-b']) await admin(world, 'POST', `directory/${DIR_MOUNT}/accounts/${a}`, {});
  })();
  return dirSeeded;
}

function fullDirectoryConfig(stack: TerraformStack): DirectoryConfig {
  return (stack.node.tryFindChild('full-dir-config') as DirectoryConfig | undefined) ?? new DirectoryConfig(stack, 'full-dir-config', {
    mount: DIR_MOUNT, binddn: FULL_BINDDN, bindpass: SecretValue.fromFile(BIND_PASSWORD_FILE), url: 'ldaps://ldap.example.com',
    userdn: 'OU=svc,DC=example,DC=com', upndomain: 'example.com', certificate: '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----',
    insecureTls: true, starttls: true, tlsMinVersion: 'tls11', tlsMaxVersion: 'tls13', requestTimeout: '45s', ttl: '12h', maxTtl: '48h',
    length: 20, formatter: 'pre-{{PASSWORD}}', lastRotationTolerance: '10s',
  });
}

/** The text after `marker` in a section of the directory engine (its endpoints by default), up to the end of its line. */
function directoryLine(marker: string, section = '### Directory engine (`{directory_mount}`)'): string {
  const text = specText('secrets-api');
  const from = text.indexOf(marker, text.indexOf(section));
  if (from < 0) throw new Error(`no "${marker}" in the directory engine's section`);
  return text.slice(from, text.indexOf('\n', from));
}

/** The directory configuration: the parameters table (name, `type: default`), and the TLS versions its read lists. */
function directoryConfigFields(): SpecField[] {
  const table = specTableAfter('secrets-api', '| Name | Type: default |', 'Configuration: POST, GET, DELETE').map(([name, type]) => {
    const def = type.includes(':') ? type.slice(type.indexOf(':') + 1).trim() : undefined;
    const key = name.split(' ')[0];
    return { name: key, default: defaultIn(type, def, ['request_timeout'].includes(key)) };
  });
  const read = directoryLine('Configuration (read):', '### Directory engine\n').replace('Configuration (read):', '').split(',').map((s) => s.trim().split(' ')[0].replace(/\.$/, ''));
  return [...table, ...read.filter((n) => !table.some((f) => f.name === n)).map((name) => ({ name }))];
}

/** The samples of the directory family's kinds: see test/support/samples.ts. */
export const SAMPLES: FamilySamples = {
  'secrets.DirectoryConfig': {
    sample: {
      weight: 3,
      build: (stack, i) => { directoryConfig(stack, i); },
      count: (env, n) => countWhere(n, async (i) => (await secretsGet(env, `t-dir-${i}/config`))?.data?.binddn === BINDDN),
    },
    full: {
      address: 'full-dir-config',
      seed: seedDirectory,
      env: SECRET_FILES_ENV,
      build: (stack) => { fullDirectoryConfig(stack); },
      defaultsKept: { passwordPolicy: 'excludes length and formatter, which the sample sets (a policy is covered by the construct tests)' },
    },
    specFields: directoryConfigFields,
    props: {
      base: { binddn: 'cn=admin,dc=example,dc=org', bindpass: SecretValue.unsafePlainText('pw') },
      optional: { url: 'ldaps://dir.example.org', maxTtl: '0s', length: 20, insecureTls: false },
      invalid: { ttl: badDuration, length: fc.integer({ max: 0 }) },
    },
  },
  'secrets.DirectoryRole': {
    sample: {
      weight: 3,
      build: (stack, i) => { new DirectoryRole(stack, `dirrole${i}`, { config: directoryConfig(stack, i), name: 'app', serviceAccountName: 'svc-role', ttl: '1h' }); },
      count: async (env, n) => (await Promise.all(range(n).map(async (i) => (await secretsKeys(env, `t-dir-${i}/roles`)).length))).reduce((a, b) => a + b, 0),
    },
    full: {
      address: 'full-dir-role',
      seed: seedDirectory,
      env: SECRET_FILES_ENV,
      build: (stack) => { new DirectoryRole(stack, 'full-dir-role', { config: fullDirectoryConfig(stack), name: 'full-role', serviceAccountName: 'svc-full-role', ttl: '6h' }); },
    },
    specFields: () => paramList(directoryLine('Roles: GET').split('Parameters:')[1], ['ttl']),
    props: {
      base: { name: 'app', serviceAccountName: 'svc-app' },
      optional: { ttl: '1h' },
      invalid: { name: badSegmentName, ttl: badDuration },
    },
  },
  'secrets.DirectoryLibrarySet': {
    sample: {
      weight: 3,
      build: (stack, i) => {
        new DirectoryLibrarySet(stack, `dirlib${i}`, { config: directoryConfig(stack, i), name: 'ops', serviceAccountNames: ['svc-lib-b', 'svc-lib-a'], ttl: '90m' });
      },
      count: async (env, n) => (await Promise.all(range(n).map(async (i) => (await secretsKeys(env, `t-dir-${i}/library`)).length))).reduce((a, b) => a + b, 0),
    },
    full: {
      address: 'full-dir-library-set',
      seed: seedDirectory,
      env: SECRET_FILES_ENV,
      build: (stack) => {
        new DirectoryLibrarySet(stack, 'full-dir-library-set', {
          config: fullDirectoryConfig(stack), name: 'full-set', serviceAccountNames: ['svc-full-b', 'svc-full-a'], ttl: '2h', maxTtl: '4h',
          disableCheckInEnforcement: true,
        });
      },
    },
    specFields: () => paramList(directoryLine('- LIST `{directory_mount}/library`').split('Parameters:')[1], ['ttl', 'max_ttl']),
    props: {
      base: { name: 'lib', serviceAccountNames: ['a', 'b'] },
      optional: { maxTtl: '0s', disableCheckInEnforcement: true },
      invalid: { name: badSegmentName, serviceAccountNames: fc.constantFrom([], ['a,b'], ['']), ttl: badDuration },
    },
  },
  'secrets.DirectoryCredentials': {
    props: {
      base: { role: { mount: 'directory', roleName: 'ops' } },
      invalid: { role: fc.constantFrom({ mount: 'directory', roleName: 'a/b' }, { mount: 'directory' }) },
    },
  },
  'secrets.DirectoryLibraryCheckOut': {
    props: {
      base: { librarySet: { mount: 'directory', setName: 'batch' } },
      optional: { ttl: '1h' },
      invalid: { librarySet: fc.constantFrom({ mount: 'directory', setName: 'a/b' }, { mount: 'directory' }), ttl: badDuration },
    },
  },
};
