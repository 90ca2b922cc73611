import { Construct } from 'constructs';
import { checkOneOf, ValidationError } from '../core/constructs/validation';
import { MeshConfigEntry, MeshConfigEntryProps } from './config-entry';
import { MeshGatewayConfig, MeshProtocol } from './mesh-types';

/** Props of the `proxy-defaults` configuration entry (always named `global`). */
export interface ProxyDefaultsProps extends MeshConfigEntryProps {
  /**
   * Proxy configuration given to every proxy (`protocol`, `local_connect_timeout_ms`, …).
   * @default {}
   */
  readonly config?: { [key: string]: any };
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
    const config: { [key: string]: any } = { ...(props.config ?? {}) };
    const given = Object.keys(config).find((k) => k.toLowerCase() === 'protocol');
    if (props.protocol !== undefined && !given) config.protocol = props.protocol;
    super(scope, id, 'mesh.ProxyDefaults', 'proxy-defaults', props, {
      name: 'global', config, meshGateway: props.meshGateway,
    });
    const c = props.config;
    if (c !== undefined && (typeof c !== 'object' || c === null || Array.isArray(c))) throw new ValidationError(this, 'config', 'must be an object');
    if (props.protocol !== undefined) checkOneOf(this, 'protocol', props.protocol, Object.values(MeshProtocol));
    if (props.protocol !== undefined && given && config[given] !== props.protocol) {
      throw new ValidationError(this, 'protocol', `"${props.protocol}" disagrees with config.${given} "${config[given]}"`);
    }
  }
}
