import { KindSchema } from '../../core/schema';

/**
 * `secrets.SecretsPolicy`: an ACL policy (`sys/policies/acl/<name>`; the real service's body, the
 * spec names only the capabilities). The service keeps names in lower case.
 */
export const SECRETS_POLICY: KindSchema = {
  kind: 'secrets.SecretsPolicy',
  api: 'secrets',
  wireCase: 'snake',
  fields: {
    name: {
      type: 'string', required: true, local: true, replace: true, identity: true,
      pattern: /^(?!(?:root|default)$)[a-z0-9_](?:[a-z0-9_.-]*[a-z0-9_])?$/,
      patternRule: 'must be a policy name: lower-case letters, digits, "_", "-" and "." (the service lower-cases names), '
        + 'starting and ending with a letter, digit or "_"; not the built-in "root" or "default"',
    },
    /** The policy document (HCL or JSON), kept by the service as given. */
    policy: { type: 'string', required: true, pattern: /\S/, patternRule: 'must not be empty' },
  },
};
