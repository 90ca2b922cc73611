import fc from 'fast-check';
import { IntentionAction, MeshGatewayMode, MeshProtocol, ProxyDefaults, ServiceDefaults, ServiceIntentions, ServiceResolver, ServiceRouter, ServiceSplitter } from '../../../lib/mesh';
import { badDuration, badMeshName, goodName, notEnum } from '../../reliability/prop-arbitraries';
import { ApiEnv, get } from '../../support/sample-world';
import { FamilySamples } from '../../support/samples';
import { SpecField, specText } from '../../support/spec-tables';

const meshEntries = async (env: ApiEnv, kind: string, query = '') =>
  ((await get(`${env.MESH_HTTP_ADDR}/v1/config/${kind}${query}`, { 'x-mesh-token': env.MESH_HTTP_TOKEN })) ?? []) as { Name: string; Namespace?: string }[];

/** The mesh samples configure `full-web` in the namespace `full` (not `default`, to set every entry's namespace). */
const namespace = 'full';

const meta = { owner: 'full-samples' };

/** `connect_timeout` -> `ConnectTimeout`: the spec names entry fields in snake_case, the API spells them in PascalCase. */
const pascal = (snake: string) => snake.split('_').map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('');

/**
 * The top-level fields the spec names for an entry kind, from its one sentence on the entries that
 * feed compilation (`` `service-resolver` (connect_timeout, failover, …, subsets with a filter expression) ``):
 * each item's first word, up to the first item that goes on into nested fields ("… with …").
 */
function specEntryFields(entryKind: string): string[] {
  const sentence = /Configuration-entry kinds that feed compilation:([^\n]*)/.exec(specText('mesh-api'))?.[1];
  if (!sentence) throw new Error('no "Configuration-entry kinds that feed compilation" in mesh-api');
  const m = new RegExp(`\`${entryKind}\` \\(([^()]*)\\)`).exec(sentence);
  if (!m) throw new Error(`mesh-api names no fields of ${entryKind}`);
  const items = m[1].split(', ');
  const end = items.findIndex((i) => i.includes(' with '));
  return items.slice(0, end < 0 ? items.length : end + 1).map((i) => pascal(i.split(/[ .]/)[0]));
}

/**
 * What the spec leaves out ("the interface for writing configuration entries: not shown"), as the
 * real mesh's configuration-entry interface has it (`../shared/REAL-SYSTEMS.md`: where the spec is
 * silent, the real system): every entry's kind, name, namespace and metadata, and the fields of
 * service-defaults and proxy-defaults beyond the protocol that the compiled chain shows the effect
 * of (`MeshGateway` on every target; `SNI` replaced by an external SNI from service-defaults).
 */
const COMMON = ['Kind', 'Name', 'Namespace', 'Meta'];

const REAL_SYSTEM: Record<string, string[]> = {
  'service-defaults': ['MeshGateway', 'ExternalSNI'],
  'proxy-defaults': ['MeshGateway'],
};

const fields = (entryKind: string) => (): SpecField[] =>
  [...COMMON, ...specEntryFields(entryKind), ...(REAL_SYSTEM[entryKind] ?? [])].map((name) => ({ name }));

/** The samples of the config-entry family's kinds: see test/support/samples.ts. */
export const SAMPLES: FamilySamples = {
  'mesh.ServiceDefaults': {
    sample: {
      weight: 50,
      build: (stack, i) => { new ServiceDefaults(stack, `svc${i}`, { name: `t-svc-${i}`, protocol: MeshProtocol.HTTP }); },
      count: async (env) => (await meshEntries(env, 'service-defaults')).filter((e) => e.Name.startsWith('t-svc-')).length,
    },
    full: {
      address: 'full-service-defaults',
      build: (stack) => {
        new ServiceDefaults(stack, 'full-service-defaults', {
          name: 'full-web', namespace, meta, protocol: MeshProtocol.HTTP, meshGateway: { mode: MeshGatewayMode.REMOTE }, externalSni: 'web.example.com',
        });
      },
    },
    specFields: fields('service-defaults'),
    props: {
      base: { name: 'web' },
      optional: { protocol: MeshProtocol.HTTP, namespace: 'default', meta: { team: 'a' }, externalSni: 'web.example.com', meshGateway: { mode: MeshGatewayMode.LOCAL } },
      valid: { name: goodName },
      invalid: {
        name: badMeshName, protocol: notEnum, meshGateway: notEnum.map((mode) => ({ mode })) },
    },
  },
  'mesh.ServiceResolver': {
    sample: {
      weight: 20,
      build: (stack, i) => {
        new ServiceResolver(stack, `res${i}`, { name: `t-svc-${i}`, connectTimeout: '10s', subsets: { v1: { filter: 'Service.Meta.version == v1' } } });
      },
      count: async (env) => (await meshEntries(env, 'service-resolver')).filter((e) => e.Name.startsWith('t-svc-')).length,
    },
    full: {
      address: 'full-service-resolver',
      build: (stack) => {
        new ServiceResolver(stack, 'full-service-resolver', {
          name: 'full-web', namespace, meta, connectTimeout: '1m30s', defaultSubset: 'v1',
          subsets: { v1: { filter: 'Service.Meta.version == v1', onlyPassing: true }, v2: { filter: 'Service.Meta.version == v2' } },
          failover: { '*': { service: 'full-web-backup', namespace, datacenters: ['dc2', 'dc3'] } },
        });
      },
      defaultsKept: { redirect: 'the mesh refuses a redirect together with a failover (set here); the constructs test renders one' },
    },
    specFields: fields('service-resolver'),
    props: {
      base: { name: 'web' },
      optional: { connectTimeout: '15s', subsets: { v1: { filter: 'Service.Meta.version == v1' } }, failover: { '*': { datacenters: ['dc2'] } } },
      valid: { name: goodName },
      invalid: {
        name: badMeshName, connectTimeout: badDuration, subsets: fc.constant({ v1: { filter: 'not a filter ((' } }) },
    },
  },
  'mesh.ServiceSplitter': {
    sample: {
      weight: 10,
      build: (stack, i) => {
        new ServiceSplitter(stack, `split${i}`, { name: `t-svc-${i}`, splits: [{ weight: 90, serviceSubset: 'v1' }, { weight: 10 }] });
      },
      count: async (env) => (await meshEntries(env, 'service-splitter')).filter((e) => e.Name.startsWith('t-svc-')).length,
    },
    full: {
      address: 'full-service-splitter',
      build: (stack) => {
        new ServiceSplitter(stack, 'full-service-splitter', {
          name: 'full-web', namespace, meta,
          splits: [{ weight: 90, serviceSubset: 'v1' }, { weight: 9.5, serviceSubset: 'v2' }, { weight: 0.5, service: 'full-web-backup', namespace }],
        });
      },
    },
    specFields: fields('service-splitter'),
    props: {
      base: { name: 'web', splits: [{ weight: 100 }] },
      optional: { namespace: 'default' },
      valid: { name: goodName },
      invalid: {
        name: badMeshName,
        splits: fc.oneof(fc.constant([]), fc.integer({ min: 101, max: 1000 }).map((w) => [{ weight: w }]),
          fc.integer({ min: 1, max: 99 }).map((w) => [{ weight: w }]), fc.constant([{ weight: -1 }, { weight: 101 }])),
      },
    },
  },
  'mesh.ServiceRouter': {
    sample: {
      weight: 5,
      // Routes /v1 of t-svc-i to its v1 subset (the resolver sample) and /old back to the service, rewritten.
      build: (stack, i) => {
        new ServiceRouter(stack, `router${i}`, {
          name: `t-svc-${i}`,
          routes: [
            { match: { http: { pathPrefix: '/v1' } }, destination: { serviceSubset: 'v1', requestTimeout: '30s' } },
            { match: { http: { pathPrefix: '/old' } }, destination: { service: `t-svc-${i}`, prefixRewrite: '/' } },
          ],
        });
      },
      count: async (env) => (await meshEntries(env, 'service-router')).filter((e) => e.Name.startsWith('t-svc-')).length,
    },
    full: {
      address: 'full-service-router',
      build: (stack) => {
        new ServiceRouter(stack, 'full-service-router', {
          name: 'full-web', namespace, meta,
          routes: [
            {
              match: { http: { pathPrefix: '/admin', header: [{ name: 'x-env', exact: 'prod' }, { name: 'x-debug', present: true }] } },
              destination: {
                service: 'full-web-backup', serviceSubset: '', namespace, prefixRewrite: '/', requestTimeout: '30s', numRetries: 2,
                retryOnConnectFailure: true, retryOnStatusCodes: [502, 503],
              },
            },
            { match: { http: { pathExact: '/v2', header: [{ name: 'x-v', prefix: 'b' }, { name: 'x-w', suffix: 'a' }] } }, destination: { serviceSubset: 'v2' } },
          ],
        });
      },
    },
    specFields: fields('service-router'),
    props: {
      base: { name: 'web' },
      optional: { routes: [{ match: { http: { pathPrefix: '/admin' } }, destination: { service: 'admin', requestTimeout: '30s' } }] },
      valid: { name: goodName },
      invalid: {
        name: badMeshName,
        routes: fc.constantFrom(
          [{ match: { http: { pathPrefix: 'admin' } } }],
          [{ match: { http: { pathPrefix: '/a', pathExact: '/b' } } }],
          [{ destination: { requestTimeout: 'abc' } }],
        ),
      },
    },
  },
  'mesh.ServiceIntentions': {
    sample: {
      weight: 10,
      // The exact source first in the entry, `*` ranked after it: given in the other order here.
      build: (stack, i) => {
        new ServiceIntentions(stack, `intentions${i}`, {
          name: `t-svc-${i}`, sources: [{ name: '*', action: IntentionAction.DENY }, { name: `t-web-${i}`, action: IntentionAction.ALLOW }],
        });
      },
      count: async (env) => (await meshEntries(env, 'service-intentions')).filter((e) => e.Name.startsWith('t-svc-')).length,
    },
    full: {
      address: 'full-service-intentions',
      build: (stack) => {
        new ServiceIntentions(stack, 'full-service-intentions', {
          name: 'full-web', namespace, meta,
          sources: [
            {
              name: 'full-web-backup', description: 'L7',
              permissions: [
                { action: IntentionAction.ALLOW, http: { pathPrefix: '/v1', methods: ['GET', 'POST'], header: [{ name: 'x-env', exact: 'prod', invert: true }, { name: 'x-a', present: true }] } },
                { action: IntentionAction.DENY, http: { pathExact: '/admin', header: [{ name: 'x-b', prefix: 'p' }, { name: 'x-c', suffix: 's' }, { name: 'x-d', regex: 'r.*' }] } },
                { action: IntentionAction.DENY, http: { pathRegex: '/x/.*' } },
              ],
            },
            { name: '*', action: IntentionAction.DENY },
          ],
        });
      },
      defaultsKept: { action: 'a source has an L4 action or L7 permissions, not both: the `*` source sets the action' },
    },
    // The spec names no service-intentions: Consul 1.16's entry (`Sources`; `Precedence` and `Type` are the server's, unmanaged).
    specFields: () => [...COMMON, 'Sources'].map((name) => ({ name })),
    props: {
      base: { name: 'api', sources: [{ name: 'web', action: IntentionAction.ALLOW }] },
      optional: {
        meta: { owner: 'team' },
        sources: [{ name: 'web', permissions: [{ action: IntentionAction.ALLOW, http: { pathPrefix: '/v1', methods: ['GET'] } }] }, { name: '*', action: IntentionAction.DENY }],
      },
      valid: { name: goodName },
      invalid: {
        name: badMeshName,
        sources: fc.constantFrom(
          [],
          [{ name: 'web' }],
          [{ name: 'web', action: 'maybe' }],
          [{ name: 'we*b', action: 'allow' }],
          [{ name: 'web', action: 'allow' }, { name: 'web', action: 'deny' }],
          [{ name: 'web', action: 'allow', permissions: [{ action: 'allow', http: { pathPrefix: '/a' } }] }],
          [{ name: 'web', permissions: [{ action: 'allow', http: {} }] }],
          [{ name: 'web', permissions: [{ action: 'allow', http: { pathPrefix: 'a' } }] }],
          [{ name: 'web', permissions: [{ action: 'allow', http: { methods: ['FETCH'] } }] }],
          [{ name: 'web', permissions: [{ action: 'allow', http: { header: [{ name: 'x', exact: 'a', present: true }] } }] }],
        ),
      },
    },
  },
  'mesh.ProxyDefaults': {
    sample: {
      weight: 1,
      max: 1,
      // `global` in the default namespace: one per mesh (the service-defaults samples set their own protocol).
      build: (stack) => { new ProxyDefaults(stack, 'proxy', { protocol: MeshProtocol.HTTP, config: { local_connect_timeout_ms: 1000 } }); },
      count: async (env) => (await meshEntries(env, 'proxy-defaults')).filter((e) => e.Name === 'global').length,
    },
    full: {
      address: 'full-proxy-defaults',
      build: (stack) => {
        new ProxyDefaults(stack, 'full-proxy-defaults', {
          meta, config: { protocol: 'http', local_connect_timeout_ms: 1000 }, meshGateway: { mode: MeshGatewayMode.LOCAL },
        });
      },
      defaultsKept: {
        name: 'always `global`: the mesh refuses any other name',
        namespace: 'proxy-defaults live in the `default` namespace only: the mesh refuses any other',
        protocol: 'a shorthand for `config.protocol`, set there (never sent on its own)',
      },
    },
    specFields: fields('proxy-defaults'),
    props: {
      base: {},
      optional: { protocol: MeshProtocol.HTTP, config: { local_connect_timeout_ms: 1000 }, meshGateway: { mode: MeshGatewayMode.REMOTE } },
      invalid: { protocol: notEnum, meshGateway: notEnum.map((mode) => ({ mode })) },
    },
  },
};
