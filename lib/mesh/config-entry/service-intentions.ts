import { Construct } from 'constructs';
import { KindSchema } from '../../core/schema';
import { MeshConfigEntry, MeshConfigEntryProps } from './config-entry';
import { IntentionSource } from './intention-types';
import { SERVICE_INTENTIONS } from './service-intentions.schema';

/** Props of a `service-intentions` configuration entry. */
export interface ServiceIntentionsProps extends MeshConfigEntryProps {
  /** The destination service, or `*` for every service. A change replaces the entry. */
  readonly name: string;
  /**
   * The services that call it, and what is done with their calls (each source once). The mesh
   * ranks them (exact names before `*`), and so does the construct: the order given matters only
   * between sources of the same rank.
   */
  readonly sources: IntentionSource[];
}

/**
 * A `service-intentions` configuration entry: which services may call a service, as a whole (L4
 * `action`) or per HTTP request (L7 `permissions`, needing an HTTP-family protocol for the
 * destination; the ServiceDefaults and ProxyDefaults of the same stack are ordered before it). The
 * plan says what changes for traffic: "web may no longer call api".
 *
 * @example
 * new mesh.ServiceIntentions(stack, 'api-intentions', {
 *   name: 'api',
 *   sources: [
 *     { name: 'web', action: mesh.IntentionAction.ALLOW },
 *     { name: '*', action: mesh.IntentionAction.DENY },
 *   ],
 * });
 */
export class ServiceIntentions extends MeshConfigEntry {
  constructor(scope: Construct, id: string, props: ServiceIntentionsProps) {
    super(scope, id, SERVICE_INTENTIONS.kind, props);
  }

  /** @internal */
  protected _schema(): KindSchema {
    return SERVICE_INTENTIONS;
  }
}
