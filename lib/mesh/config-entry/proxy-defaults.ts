import { Construct } from 'constructs';
import { reject, ValidationError } from '../../core/constructs/validation';
import { KindSchema } from '../../core/schema';
import { MeshConfigEntry, MeshConfigEntryProps } from './config-entry';
import { MeshGatewayConfig, MeshProtocol } from '../shared/mesh-types';
import { PROXY_DEFAULTS } from './proxy-defaults.schema';

/** Props of the `proxy-defaults` configuration entry (always named `global`). */
export interface ProxyDefaultsProps extends MeshConfigEntryProps {
  /**
   * Proxy configuration given to every proxy (`protocol`, `local_connect_timeout_ms`, …): free-form
   * JSON, as the proxies read it.
   * @default {}
   */
  readonly config?: { [key: string]: unknown };
  /**
   * Shorthand for `config.protocol`: the protocol of every service without service-defaults.
   * @default - `config.protocol`, else tcp
   */
  readonly protocol?: MeshProtocol;
  /**
   * Mesh gateway mode for targets in other datacenters.
   * @default - direct
   */
  readonly meshGateway?: MeshGatewayConfig;
}

/**
 * The `proxy-defaults` configuration entry `global`: defaults of every proxy, among them the
 * protocol of services without service-defaults. Proxy-defaults live in the `default` namespace.
 *
 * @example
 * new mesh.ProxyDefaults(stack, 'proxy', { protocol: mesh.MeshProtocol.HTTP });
 */
export class ProxyDefaults extends MeshConfigEntry {
  constructor(scope: Construct, id: string, props: ProxyDefaultsProps = {}) {
    super(scope, id, PROXY_DEFAULTS.kind, props);
    const given = protocolKey(props.config);
    if (props.protocol !== undefined && given && props.config![given] !== props.protocol) {
      reject(this, 'protocol', `"${props.protocol}" disagrees with config.${given} "${props.config![given]}"`);
    }
  }

  /** @internal */
  protected _schema(): KindSchema {
    return PROXY_DEFAULTS;
  }

  /** @internal */
  protected _entryProps(): Record<string, unknown> {
    const { protocol, config, ...rest } = this._props as ProxyDefaultsProps;
    if (config !== undefined && (typeof config !== 'object' || config === null || Array.isArray(config))) {
      throw new ValidationError(this, 'config', `must be a map of proxy settings (got ${Array.isArray(config) ? 'a list' : JSON.stringify(config)})`);
    }
    const merged: { [key: string]: unknown } = { ...(config ?? {}) };
    if (protocol !== undefined && !protocolKey(config)) merged.protocol = protocol;
    return { ...rest, config: merged };
  }
}

/** The key of `config` that sets the protocol (the mesh reads it case-insensitively). */
function protocolKey(config: { [key: string]: unknown } | undefined): string | undefined {
  return Object.keys(config ?? {}).find((k) => k.toLowerCase() === 'protocol');
}
