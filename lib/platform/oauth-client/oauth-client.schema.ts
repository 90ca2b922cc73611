import { KindSchema } from '../../core/schema';
import { ORGANIZATION_FIELD } from '../shared/references';

/** The VCS providers (the spec's `service-provider`): the real ids, and the spec's anonymised stand-ins for them. */
export const SERVICE_PROVIDERS = ['github', 'github_enterprise', 'gitlab_hosted', 'gitlab_community_edition', 'gitlab_enterprise_edition',
  'ado_server', 'provider_a', 'provider_a_enterprise', 'provider_b_hosted', 'provider_b_community_edition',
  'provider_b_enterprise_edition', 'provider_c_server'] as const;

const URL_RULE = { pattern: /^https?:\/\/\S+$/, patternRule: 'must be an http(s) URL' } as const;
const NOT_EMPTY = { pattern: /./, patternRule: 'must not be empty (leave it out instead)' } as const;

/**
 * `platform.OAuthClient`: the spec's create body, camelCased. The update body takes only `name`,
 * `key`, `secret`, `rsa-public-key`, `organization-scoped` and the projects: a change of any other
 * field replaces the client. The token string, private key and secret are never returned.
 */
export const OAUTH_CLIENT: KindSchema = {
  kind: 'platform.OAuthClient',
  api: 'platform',
  wireCase: 'kebab',
  fields: {
    organization: ORGANIZATION_FIELD,
    name: { type: 'string', default: null, ...NOT_EMPTY },
    serviceProvider: { type: 'string', required: true, replace: true, oneOf: SERVICE_PROVIDERS },
    key: { type: 'string', default: null, ...NOT_EMPTY },
    httpUrl: { type: 'string', required: true, replace: true, ...URL_RULE },
    apiUrl: { type: 'string', required: true, replace: true, ...URL_RULE },
    oauthToken: { type: 'secret', required: true, replace: true, writeOnly: true, sensitive: true, wire: 'oauth-token-string' },
    privateKey: { type: 'secret', default: null, replace: true, writeOnly: true, sensitive: true },
    secret: { type: 'secret', default: null, writeOnly: true, sensitive: true },
    rsaPublicKey: { type: 'string', default: null },
    organizationScoped: { type: 'boolean', default: true },
    projects: { type: 'string-set', default: [], pattern: /^prj-/, patternRule: 'is not a project id (prj-…)' },
  },
  outputs: {
    id: { type: 'string' },
    oauthTokenId: { type: 'string' },
    callbackUrl: { type: 'string' },
    connectPath: { type: 'string' },
  },
};
