import { ApiProfile, registerApiProfile } from '../core/http/api-profile';
import { isReadMethod } from '../core/http/retry-policy';

/** A JSON:API error document (`{"errors":[{status, title, detail}]}`): the platform API's own words. */
function isJsonApiErrors(body: unknown): boolean {
  const errors = (body as { errors?: unknown } | null | undefined)?.errors;
  return Array.isArray(errors) && errors.every((e) => e !== null && typeof e === 'object' && !Array.isArray(e));
}

/** The platform API as converge talks to it: its standard and token variables, token header, TLS variables, rate limit and retry rule. */
export const PLATFORM_API_PROFILE: ApiProfile = {
  api: 'platform',
  variables: { addressEnv: 'PLATFORM_ADDRESS', tokenEnv: 'PLATFORM_TOKEN' },
  // Terraform's own variables for the token of an HCP Terraform or Terraform Enterprise host.
  toolTokenVariables: ['TFE_TOKEN', 'ATLAS_TOKEN'],
  tokenHeaders: { names: ['Authorization'] },
  tls: { ca: 'PLATFORM_CACERT', cert: 'PLATFORM_CLIENT_CERT', key: 'PLATFORM_CLIENT_KEY', skipVerify: 'PLATFORM_SKIP_VERIFY' },
  // The platform publishes 30 requests per second per user.
  rateLimit: 30,
  probe: {
    path: '/api/v2/ping', prefix: '/api/v2',
    // 401 and 403 are still the platform speaking (the token is checked by the requests that need it).
    // A 2xx counts when it is the ping's 204 or carries the platform's own headers (a catch-all web server's 200 does not).
    judge: (r) => {
      if (r.status === 401 || r.status === 403 || r.status === 204) return undefined;
      if (r.status < 300 && (r.headers['tfp-api-version'] !== undefined || r.headers['x-ratelimit-limit'] !== undefined)) return undefined;
      return `answered ${r.status}, not the platform API's 204`;
    },
  },
  // The API's own 500 (a JSON:API error document) is retried on reads only. The spec answers client
  // errors with 4xx, but a second server of the API (OTF) answers 500 to bad input too: a POST, PATCH
  // or DELETE sent again is refused the same way. A 500 that is no JSON:API document came from
  // something in between (a proxy, the emulator's injected faults): it stays ambiguous, and a write is
  // tried again only after a read showed it did not happen (recovery.ts).
  retry500: ({ body, method }) => method === undefined || isReadMethod(method) || !isJsonApiErrors(body),
};

// Registered with the domain's kinds, and on load too: a client of the API made on its own (a tool, a test) applies its rules.
registerApiProfile(PLATFORM_API_PROFILE);
