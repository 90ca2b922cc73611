import { Construct } from 'constructs';
import { Resource, ResourceProps } from '../../core/constructs/resource';
import { KindSchema } from '../../core/schema';
import { SecretsProvider } from '../provider';
import { SECRETS_POLICY } from './secrets-policy.schema';

/** Props of an ACL policy of the secrets service. */
export interface SecretsPolicyProps extends ResourceProps {
  /**
   * The policy's name: lower case (the service lower-cases names), not `root` or `default`. A change
   * replaces the policy (tokens holding the old name lose what it granted).
   */
  readonly name: string;
  /**
   * The policy document, in HCL (or JSON), e.g. `path "secret/data/app/*" { capabilities = ["read"] }`.
   * The service checks it: a document it cannot parse fails the apply with its message.
   */
  readonly policy: string;
  /**
   * How to reach the secrets service.
   * @default - the stack's SecretsProvider, else the `SECRETS_ADDR` and `SECRETS_TOKEN` environment variables
   */
  readonly provider?: SecretsProvider;
}

/**
 * An ACL policy of the secrets service (`sys/policies/acl/<name>`): what the tokens holding it may
 * do, path by path. Destroying it deletes the policy; tokens holding it keep the name and lose what
 * it granted.
 *
 * @example
 * new secrets.SecretsPolicy(stack, 'app-read', {
 *   name: 'app-read',
 *   policy: 'path "secret/data/app/*" { capabilities = ["read"] }',
 * });
 */
export class SecretsPolicy extends Resource {
  /** The policy's name, as tokens and roles name it. */
  public readonly name: string;

  constructor(scope: Construct, id: string, props: SecretsPolicyProps) {
    super(scope, id, SECRETS_POLICY.kind, SECRETS_POLICY.api, props, props.provider);
    this.name = props.name;
  }

  /** @internal */
  protected _schema(): KindSchema {
    return SECRETS_POLICY;
  }
}
