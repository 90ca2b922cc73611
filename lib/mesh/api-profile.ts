import { ApiProfile, registerApiProfile } from '../core/http/api-profile';

/**
 * Transient conditions of the mesh system's 500s (and the emulator's injected faults). The mesh
 * answers 500 for every error of its RPC layer, validation and chain compilation included
 * (`Split weights must sum to 100`, a failed `cas`): those answer the same every time.
 */
const TRANSIENT = /no cluster leader|leadership lost|not ready to serve|rpc error|raft|timeout|timed out|deadline exceeded|\beof\b|connection (?:reset|refused)|broken pipe|i\/o|temporarily|try again|injected fault/i;

/**
 * The mesh API as converge talks to it: the one table of token headers (the provider's
 * `tokenHeader`, the client and the emulator read it), standard and token variables, TLS variables,
 * retry rules.
 */
export const MESH_API_PROFILE: ApiProfile = {
  api: 'mesh',
  variables: { addressEnv: 'MESH_HTTP_ADDR', tokenEnv: 'MESH_HTTP_TOKEN' },
  // Consul's own CLI reads it.
  toolTokenVariables: ['CONSUL_HTTP_TOKEN'],
  // Consul reads `X-Consul-Token` or `Authorization: Bearer`, never the spec's `X-Mesh-Token`.
  tokenHeaders: { names: ['X-Mesh-Token', 'X-Consul-Token', 'Authorization'], variable: 'MESH_TOKEN_HEADER' },
  // The variable says "verify", as Consul's own does (`MESH_HTTP_SSL_VERIFY=false` skips).
  tls: { ca: 'MESH_CACERT', cert: 'MESH_CLIENT_CERT', key: 'MESH_CLIENT_KEY', skipVerify: 'MESH_HTTP_SSL_VERIFY', inverted: true },
  // The mesh publishes no limit.
  rateLimit: 0,
  probe: {
    path: '/v1/status/leader', prefix: '/v1',
    judge: (r) => {
      // The leader's RPC address as a JSON string (`"10.0.0.1:8300"`), or `""` while there is none.
      if (r.status !== 200 || typeof r.body !== 'string' || !/^$|^(\[[^\]]+\]|[^\s:<>"]+):\d+$/.test(r.body)) {
        return `answered ${r.status} without the mesh API's leader address`;
      }
      if (r.body === '') return 'the mesh has no cluster leader';
      return undefined;
    },
  },
  // A 500 is retried only when its text names a passing condition (no cluster leader, an RPC or network failure, a timeout).
  retry500: ({ text }) => TRANSIENT.test(text),
};

// Registered with the domain's kinds, and on load too: a client of the API made on its own (a tool, a test) applies its rules.
registerApiProfile(MESH_API_PROFILE);
