import fc from 'fast-check';
import { AclPolicy, AclRole, AclToken } from '../../../lib/mesh';
import { goodName } from '../../reliability/prop-arbitraries';
import { ApiEnv, get } from '../../support/sample-world';
import { FamilySamples } from '../../support/samples';

const meshAcl = async (env: ApiEnv, what: 'policies' | 'roles' | 'tokens') =>
  ((await get(`${env.MESH_HTTP_ADDR}/v1/acl/${what}`, { 'x-mesh-token': env.MESH_HTTP_TOKEN })) ?? []) as unknown[];

/** The samples of the acl family's kinds: see test/support/samples.ts. */
export const SAMPLES: FamilySamples = {
  'mesh.AclPolicy': {
    sample: {
      weight: 5,
      build: (stack, i) => { new AclPolicy(stack, `aclpol${i}`, { name: `t-pol-${i}`, rules: `service "t-svc-${i}" { policy = "read" }` }); },
      count: async (env) => ((await meshAcl(env, 'policies')) as { Name: string }[]).filter((p) => p.Name.startsWith('t-pol-')).length,
    },
    full: {
      address: 'full-acl-policy',
      build: (stack) => {
        new AclPolicy(stack, 'full-acl-policy', {
          name: 'full-web-write', description: 'full sample', rules: 'service "full-web" { policy = "write" }', datacenters: ['dc1'],
        });
      },
    },
    // The spec names no ACL endpoints: Consul 1.16's policy body (`ID` is the server's).
    specFields: () => ['Name', 'Description', 'Rules', 'Datacenters'].map((name) => ({ name })),
    props: {
      base: { name: 'web-write' },
      optional: { rules: 'service "web" { policy = "write" }', description: 'the web team', datacenters: ['dc1'] },
      valid: { name: goodName },
      invalid: { name: fc.constantFrom('', 'bad name', 'a/b/c', 'x'.repeat(129), 'é') },
    },
  },
  'mesh.AclRole': {
    sample: {
      weight: 3,
      build: (stack, i) => { new AclRole(stack, `aclrole${i}`, { name: `t-aclrole-${i}`, serviceIdentities: [{ serviceName: `t-svc-${i}` }] }); },
      count: async (env) => ((await meshAcl(env, 'roles')) as { Name: string }[]).filter((r) => r.Name.startsWith('t-aclrole-')).length,
    },
    full: {
      address: 'full-acl-role',
      build: (stack) => {
        new AclPolicy(stack, 'full-acl-role-policy', { name: 'full-role-policy', rules: 'service "full-web" { policy = "read" }' });
        new AclRole(stack, 'full-acl-role', {
          name: 'full-web-team', description: 'full sample', policies: ['full-role-policy'],
          serviceIdentities: [{ serviceName: 'full-web', datacenters: ['dc1'] }], nodeIdentities: [{ nodeName: 'full-node', datacenter: 'dc1' }],
        });
      },
    },
    // Consul 1.16's role body (`ID` is the server's).
    specFields: () => ['Name', 'Description', 'Policies', 'ServiceIdentities', 'NodeIdentities'].map((name) => ({ name })),
    props: {
      base: { name: 'web-team' },
      optional: { description: 'the web team', policies: ['web-write'], serviceIdentities: [{ serviceName: 'web', datacenters: ['dc1'] }], nodeIdentities: [{ nodeName: 'n1', datacenter: 'dc1' }] },
      valid: { name: goodName },
      invalid: {
        name: fc.constantFrom('', 'bad name', 'a/b', 'x'.repeat(257)),
        serviceIdentities: fc.constantFrom([{ serviceName: 'We b' }], [{ serviceName: '' }], [{ datacenters: ['dc1'] }]),
        nodeIdentities: fc.constantFrom([{ nodeName: 'n1' }], [{ datacenter: 'dc1' }]),
      },
    },
  },
  'mesh.AclToken': {
    sample: {
      weight: 3,
      // Found again after a crash by its description: one per token.
      build: (stack, i) => { new AclToken(stack, `acltok${i}`, { description: `t-tok-${i}`, serviceIdentities: [{ serviceName: `t-svc-${i}` }] }); },
      count: async (env) => ((await meshAcl(env, 'tokens')) as { Description: string }[]).filter((t) => t.Description.startsWith('t-tok-')).length,
    },
    full: {
      address: 'full-acl-token',
      build: (stack) => {
        new AclPolicy(stack, 'full-acl-token-policy', { name: 'full-token-policy', rules: 'service "full-web" { policy = "read" }' });
        new AclRole(stack, 'full-acl-token-role', { name: 'full-token-role', policies: ['full-token-policy'] });
        new AclToken(stack, 'full-acl-token', {
          description: 'full sample', policies: ['full-token-policy'], roles: ['full-token-role'], local: true,
          serviceIdentities: [{ serviceName: 'full-web' }], nodeIdentities: [{ nodeName: 'full-node', datacenter: 'dc1' }],
        });
        // A service identity's datacenters (refused on a local token) are set on the role's full sample.
      },
    },
    // Consul 1.16's token body (`AccessorID` and `SecretID` are the server's; the SecretID is never kept).
    specFields: () => ['Description', 'Policies', 'Roles', 'ServiceIdentities', 'NodeIdentities', 'Local'].map((name) => ({ name })),
    props: {
      base: {},
      optional: { description: 'ci', policies: ['web-write'], roles: ['web-team'], serviceIdentities: [{ serviceName: 'web' }], nodeIdentities: [{ nodeName: 'n1', datacenter: 'dc1' }], local: true },
      invalid: {
        serviceIdentities: fc.constantFrom([{ serviceName: 'We b' }], [{ serviceName: '' }]),
        nodeIdentities: fc.constantFrom([{ nodeName: 'n1' }], [{ datacenter: 'dc1' }]),
      },
    },
  },
};
