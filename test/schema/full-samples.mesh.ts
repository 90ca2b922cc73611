import { MeshGatewayMode, MeshProtocol } from '../../lib/mesh/shared/mesh-types';
import { ProxyDefaults } from '../../lib/mesh/config-entry/proxy-defaults';
import { ServiceDefaults } from '../../lib/mesh/config-entry/service-defaults';
import { ServiceResolver } from '../../lib/mesh/config-entry/service-resolver';
import { AclPolicy } from '../../lib/mesh/acl/acl-policy';
import { AclRole } from '../../lib/mesh/acl/acl-role';
import { AclToken } from '../../lib/mesh/acl/acl-token';
import { IntentionAction } from '../../lib/mesh/config-entry/intention-types';
import { ServiceIntentions } from '../../lib/mesh/config-entry/service-intentions';
import { ServiceRouter } from '../../lib/mesh/config-entry/service-router';
import { ServiceSplitter } from '../../lib/mesh/config-entry/service-splitter';
import { FullSample } from './full-samples';

/** The mesh samples configure `full-web` in the namespace `full` (not `default`, to set every entry's namespace). */
const namespace = 'full';
const meta = { owner: 'full-samples' };

/** A full sample of each mesh kind. */
export const MESH_FULL_SAMPLES: Record<string, FullSample> = {
  'mesh.ProxyDefaults': {
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
  'mesh.ServiceDefaults': {
    address: 'full-service-defaults',
    build: (stack) => {
      new ServiceDefaults(stack, 'full-service-defaults', {
        name: 'full-web', namespace, meta, protocol: MeshProtocol.HTTP, meshGateway: { mode: MeshGatewayMode.REMOTE }, externalSni: 'web.example.com',
      });
    },
  },
  'mesh.ServiceResolver': {
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
  'mesh.ServiceSplitter': {
    address: 'full-service-splitter',
    build: (stack) => {
      new ServiceSplitter(stack, 'full-service-splitter', {
        name: 'full-web', namespace, meta,
        splits: [{ weight: 90, serviceSubset: 'v1' }, { weight: 9.5, serviceSubset: 'v2' }, { weight: 0.5, service: 'full-web-backup', namespace }],
      });
    },
  },
  'mesh.ServiceRouter': {
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
  'mesh.ServiceIntentions': {
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
  'mesh.AclPolicy': {
    address: 'full-acl-policy',
    build: (stack) => {
      new AclPolicy(stack, 'full-acl-policy', {
        name: 'full-web-write', description: 'full sample', rules: 'service "full-web" { policy = "write" }', datacenters: ['dc1'],
      });
    },
  },
  'mesh.AclRole': {
    address: 'full-acl-role',
    build: (stack) => {
      new AclPolicy(stack, 'full-acl-role-policy', { name: 'full-role-policy', rules: 'service "full-web" { policy = "read" }' });
      new AclRole(stack, 'full-acl-role', {
        name: 'full-web-team', description: 'full sample', policies: ['full-role-policy'],
        serviceIdentities: [{ serviceName: 'full-web', datacenters: ['dc1'] }], nodeIdentities: [{ nodeName: 'full-node', datacenter: 'dc1' }],
      });
    },
  },
  'mesh.AclToken': {
    address: 'full-acl-token',
    build: (stack) => {
      new AclPolicy(stack, 'full-acl-token-policy', { name: 'full-token-policy', rules: 'service "full-web" { policy = "read" }' });
      new AclRole(stack, 'full-acl-token-role', { name: 'full-token-role', policies: ['full-token-policy'] });
      new AclToken(stack, 'full-acl-token', {
        description: 'full sample', policies: ['full-token-policy'], roles: ['full-token-role'], local: true,
        serviceIdentities: [{ serviceName: 'full-web', datacenters: ['dc1'] }], nodeIdentities: [{ nodeName: 'full-node', datacenter: 'dc1' }],
      });
    },
  },
};
