/**
 * The synthesized desired state: what each construct writes under `"//".metadata.converge`
 * of its stack's `cdk.tf.json`, the single, language-neutral input of the reconciler.
 */

/** The name of an API converge manages objects of (each domain registers its kinds and its `ApiProfile` under it). */
export type ApiName = string;

/** Version of the `converge` metadata block. */
export const DESIRED_FORMAT = 1;

/** A secret as synthesized: where to get it, never its value. */
export interface SecretRef {
  readonly $secret: {
    readonly env?: string;
    readonly file?: string;
    readonly sealed?: string;
    /** In state only: the secret came from another construct's sensitive output (`address.attr`). */
    readonly ref?: string;
    /** In state only: a secret value observed on the API (by import), kept as its HMAC. */
    readonly observed?: boolean;
  };
}

/**
 * A reference to another construct's attribute, resolved at apply time. With `stack`, the construct
 * is in another converge stack of the app, and the value is read from that stack's state.
 */
export interface AttrRef {
  readonly $ref: string;
  readonly attr: string;
  /** Its value is a secret wherever it flows, whatever the attribute (`SecretValue.resourceAttribute`). */
  readonly secret?: boolean;
  /** The other stack whose state holds the value (absent: this stack). */
  readonly stack?: string;
}

/** How a construct reaches its API. */
export interface ProviderConfig {
  readonly api: ApiName;
  /** Address given in the app; else read from `addressEnv`. */
  readonly address?: string;
  readonly addressEnv: string;
  readonly tokenEnv: string;
  /** PEM bundle of the certificate authorities to trust (a file path; else the API's `*_CACERT` variable). */
  readonly caCertFile?: string;
  /** PEM client certificate file (else `*_CLIENT_CERT`). */
  readonly clientCertFile?: string;
  /** PEM client key file (else `*_CLIENT_KEY`). */
  readonly clientKeyFile?: string;
  /** Accept any server certificate (else the API's skip-verify variable). */
  readonly skipTlsVerify?: boolean;
  /** Allow `http://` to a host that is not loopback (else `CONVERGE_ALLOW_INSECURE_HTTP`). */
  readonly allowInsecureHttp?: boolean;
  /** The header that carries the token, where the API lets the app choose (secrets: `X-Vault-Token`; mesh: `X-Consul-Token`; both: `Authorization`); else the API's variable (`SECRETS_TOKEN_HEADER`, `MESH_TOKEN_HEADER`), else the spec's. */
  readonly tokenHeader?: string;
}

/** One construct's desired state. */
export interface DesiredResource {
  readonly kind: string;
  /** true for a data source (read only). */
  readonly dataSource?: boolean;
  /** The spec: JSON with `SecretRef` and `AttrRef` leaves. */
  readonly spec: Record<string, unknown>;
  readonly provider: ProviderConfig;
  /** Addresses this one depends on (references and explicit dependencies). */
  readonly dependsOn: string[];
  readonly removalPolicy: 'destroy' | 'retain';
  /**
   * Take an object that already exists under this construct's identity under management, instead of
   * reporting a conflict (the construct's `adoptExisting`).
   */
  readonly adoptExisting?: boolean;
  /** Create the replacement before deleting the object it replaces (the construct's `createBeforeDestroy`). */
  readonly createBeforeDestroy?: boolean;
  /** Full construct path (`prod/team/db`), for messages. */
  readonly path: string;
}

/** The `converge` block of one stack. */
export interface DesiredStack {
  readonly version: number;
  readonly stack: string;
  readonly resources: Record<string, DesiredResource>;
  /**
   * The other stacks this one reads values from (cross-stack references, or an explicit dependency on
   * a construct of another stack): other stack -> addresses of this stack that refer to it. Applied
   * after them when one run applies several stacks.
   */
  readonly dependsOnStacks?: Record<string, string[]>;
}

export function isSecretRef(v: unknown): v is SecretRef {
  return typeof v === 'object' && v !== null && '$secret' in v;
}

export function isAttrRef(v: unknown): v is AttrRef {
  return typeof v === 'object' && v !== null && '$ref' in v && 'attr' in v;
}

/** Data source kinds `lookup:<kind>` read an existing object of a resource kind (`Organization.fromName`). */
export const LOOKUP_PREFIX = 'lookup:';
