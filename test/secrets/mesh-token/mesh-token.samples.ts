import fc from 'fast-check';
import { SecretValue } from '../../../lib';
import { MeshScheme, MeshTokenConfig, MeshTokenRole } from '../../../lib/secrets';
import { badDuration, badSegmentName, notEnum } from '../../reliability/prop-arbitraries';
import { TOKENS_DEFAULT_MOUNT } from '../../schema/full-sample-helpers';
import { operation, parameterField } from '../../schema/spec-field-readers';
import { countWhere, secretsGet, secretsKeys } from '../../support/sample-world';
import { FamilySamples } from '../../support/samples';
import { SpecField, specText } from '../../support/spec-tables';

const PEM = (what: string) => `-----BEGIN ${what}-----\nMIIBfull${what.replace(/\s/g, '')}sample\n-----END ${what}-----\n`;

/** The mesh-token role parameters, listed by mesh version below its table: each `` `name` (type…) `` once, with its first default. */
function meshRoleParameters(): SpecField[] {
  const text = specText('secrets-api');
  const from = text.indexOf('Role parameters, by mesh-service version');
  const block = text.slice(from, text.indexOf('\n### ', from));
  const out = new Map<string, SpecField>();
  for (const m of block.matchAll(/`([a-z_]+)` \(([^)]*)\)/g)) {
    const f = parameterField(`${m[1]} (${m[2]})`);
    if (!out.has(f.name)) out.set(f.name, f);
  }
  return [...out.values()];
}

/** A placeholder PEM block (the constructs check only its shape). */
const TEST_PEM = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';

/** The samples of the mesh-token family's kinds: see test/support/samples.ts. */
export const SAMPLES: FamilySamples = {
  'secrets.MeshTokenConfig': {
    sample: {
      weight: 3,
      build: (stack, i) => {
        new MeshTokenConfig(stack, `mtokcfg${i}`, { mount: `t-mtok-${i}`, address: 'mesh.example.com:8500', token: SecretValue.fromEnv('PLANTED_ENGINE_SECRET') });
      },
      count: (env, n) => countWhere(n, async (i) => (await secretsGet(env, `t-mtok-${i}/config/access`))?.data?.address === 'mesh.example.com:8500'),
    },
    full: {
      address: 'full-mesh-token-config',
      build: (stack, world) => {
        new MeshTokenConfig(stack, 'full-mesh-token-config', {
          address: new URL(world.env.MESH_HTTP_ADDR).host, token: SecretValue.fromEnv('MESH_HTTP_TOKEN'),
          caCert: PEM('CERTIFICATE'), clientCert: PEM('CERTIFICATE'), clientKey: SecretValue.unsafePlainText(PEM('PRIVATE KEY')),
        });
      },
      defaultsKept: { mount: TOKENS_DEFAULT_MOUNT, scheme: 'the emulated mesh serves plain HTTP' },
    },
    specFields: () => operation('### Mesh-token engine (`{mesh_mount}`)', 'Configure access'),
    props: {
      base: { address: 'mesh.example.com:8500' },
      optional: { scheme: MeshScheme.HTTPS, token: SecretValue.unsafePlainText('t') },
      secretVariants: [{ mount: 'mesh-tls', address: 'mesh.example.com:8501', scheme: MeshScheme.HTTPS, clientCert: TEST_PEM, clientKey: SecretValue.unsafePlainText('k'),
        token: SecretValue.unsafePlainText('t') }],
      invalid: { scheme: notEnum },
    },
  },
  'secrets.MeshTokenRole': {
    sample: {
      weight: 5,
      // Policies and roles given unsorted and repeated: the service keeps them as sets.
      build: (stack, i) => {
        new MeshTokenRole(stack, `mtok${i}`, { name: `t-role-${i}`, meshPolicies: ['web', 'ops', 'web'], meshRoles: ['b', 'a', 'b'], ttl: '3600' });
      },
      count: async (env) => (await secretsKeys(env, 'mesh/roles')).filter((k) => k.startsWith('t-role-')).length,
    },
    full: {
      address: 'full-mesh-token-role',
      build: (stack) => {
        new MeshTokenRole(stack, 'full-mesh-token-role', {
          name: 'full-role', meshVersion: '1.12', meshPolicies: ['ops', 'web'], meshRoles: ['reader'], serviceIdentities: ['web:dc1,dc2'],
          nodeIdentities: ['node-1:dc1'], meshNamespace: 'team-a', partition: 'part-a', local: true, ttl: '1h', maxTtl: '2h',
        });
      },
      defaultsKept: {
        mount: TOKENS_DEFAULT_MOUNT,
        tokenType: 'removed in mesh 1.11 (the emulated mesh is 1.13); mesh-token-legacy.e2e applies it against a mesh 1.10',
        policy: 'removed in mesh 1.11 (the emulated mesh is 1.13); mesh-token-legacy.e2e applies it against a mesh 1.10',
        lease: 'removed in mesh 1.4 (the emulated mesh is 1.13); engine-constructs tests its rendering',
      },
    },
    specFields: meshRoleParameters,
    props: {
      base: { name: 'svc', meshPolicies: ['read'] },
      optional: { ttl: '1h', maxTtl: '2h' },
      invalid: { name: badSegmentName, tokenType: notEnum, ttl: badDuration },
    },
  },
  'secrets.MeshTokenCredentials': {
    props: {
      base: { role: { mount: 'mesh', roleName: 'web' } },
      invalid: { role: fc.constantFrom({ mount: 'mesh', roleName: 'a b' }, { roleName: 'web' }) },
    },
  },
};
