import { ApiProfile, registerApiProfile } from '../core/http/api-profile';

/** Refusals of the secrets service that answer the same until the configuration changes. */
const DETERMINISTIC = /is not an allowed role|unsupported credential_type|could not find database connection|no (?:access )?configuration|write \S+ first|Invalid Credentials|unknown (?:role|key)/i;

/**
 * The secrets API as converge talks to it: the one table of token headers (the provider's
 * `tokenHeader`, the client and the emulator read it), standard and token variables, TLS variables,
 * retry and 404 rules.
 */
export const SECRETS_API_PROFILE: ApiProfile = {
  api: 'secrets',
  variables: { addressEnv: 'SECRETS_ADDR', tokenEnv: 'SECRETS_TOKEN' },
  // OpenBao's and Vault's own CLIs read these.
  toolTokenVariables: ['VAULT_TOKEN', 'BAO_TOKEN'],
  // The spec names X-Secrets-Token; a real OpenBao or Vault reads X-Vault-Token or Authorization: Bearer, never the spec's header.
  tokenHeaders: { names: ['X-Secrets-Token', 'X-Vault-Token', 'Authorization'], variable: 'SECRETS_TOKEN_HEADER' },
  tls: { ca: 'SECRETS_CACERT', cert: 'SECRETS_CLIENT_CERT', key: 'SECRETS_CLIENT_KEY', skipVerify: 'SECRETS_SKIP_VERIFY' },
  // The service publishes no limit.
  rateLimit: 0,
  probe: {
    // A standby node answers 429 (or 473) unless told that a standby is fine: it forwards requests to the active one.
    path: '/v1/sys/health', query: { standbyok: 'true', perfstandbyok: 'true' }, prefix: '/v1',
    // The health codes that are no server error: 472, 473 (standby kinds), 501 (not initialized). A sealed service (503) fails after the retries.
    accept: [472, 473, 501],
    judge: (r) => {
      const b = r.body as { initialized?: unknown; sealed?: unknown } | undefined;
      if (!b || typeof b !== 'object' || typeof b.initialized !== 'boolean') return `answered ${r.status} without the secrets service's health document`;
      if (!b.initialized) return 'the secrets service is not initialized';
      if (b.sealed === true) return 'the secrets service is sealed';
      return undefined;
    },
  },
  // A 500 is retried unless its text is one of the service's deterministic refusals
  // (a role not in `allowed_roles`, an engine not configured yet, directory credentials refused).
  retry500: ({ text }) => !DETERMINISTIC.test(text),
  // Secret data never shows in an error message.
  dataIsSecret: true,
  // A 404 that is no missing key: nothing is mounted at the path (or the address has a path it should not).
  foreignNotFound: (body, variable) => {
    const first = (body as { errors?: unknown[] } | undefined)?.errors?.[0];
    return typeof first === 'string' && first.startsWith('no handler for route')
      ? `no secrets engine is mounted at this path: check the construct's mount and ${variable}` : undefined;
  },
};

// Registered with the domain's kinds, and on load too: a client of the API made on its own (a tool, a test) applies its rules.
registerApiProfile(SECRETS_API_PROFILE);
