import { Construct } from 'constructs';
import { KindSchema } from '../../core/schema';
import { MeshConfigEntry, MeshConfigEntryProps } from './config-entry';
import { SERVICE_ROUTER } from './service-router.schema';

/** A header a request must carry. Exactly one of `exact`, `present`, `prefix`, `suffix`. */
export interface RouteHeaderMatch {
  /** The header name. */
  readonly name: string;
  /**
   * The value the header must equal.
   * @default - not compared exactly
   */
  readonly exact?: string;
  /**
   * The header must be present (any value).
   * @default false
   */
  readonly present?: boolean;
  /**
   * The value must start with this.
   * @default - not compared by prefix
   */
  readonly prefix?: string;
  /**
   * The value must end with this.
   * @default - not compared by suffix
   */
  readonly suffix?: string;
}

/** HTTP criteria of a route (all must hold). */
export interface RouteHttpMatch {
  /**
   * Path prefix, starting with `/`.
   * @default - any path
   */
  readonly pathPrefix?: string;
  /**
   * Exact path, starting with `/` (not with `pathPrefix`).
   * @default - any path
   */
  readonly pathExact?: string;
  /**
   * Headers to match.
   * @default []
   */
  readonly header?: RouteHeaderMatch[];
}

/** What a route matches. */
export interface RouteMatch {
  /**
   * HTTP criteria.
   * @default - every request
   */
  readonly http?: RouteHttpMatch;
}

/** Where a matched request goes and how. */
export interface RouteDestination {
  /**
   * The service the request goes to.
   * @default - this service
   */
  readonly service?: string;
  /**
   * The subset of that service.
   * @default - the service's default subset (through its splitter when no subset is given)
   */
  readonly serviceSubset?: string;
  /**
   * The namespace of that service.
   * @default - this entry's namespace
   */
  readonly namespace?: string;
  /**
   * Replaces the matched path prefix (needs `pathPrefix` or `pathExact`).
   * @default - the path is kept
   */
  readonly prefixRewrite?: string;
  /**
   * Request timeout (a duration: `"30s"`).
   * @default - "0s": the proxy's default
   */
  readonly requestTimeout?: string;
  /**
   * Retries of a failed request.
   * @default 0
   */
  readonly numRetries?: number;
  /**
   * Retry on connection failure.
   * @default false
   */
  readonly retryOnConnectFailure?: boolean;
  /**
   * Retry on these HTTP status codes.
   * @default []
   */
  readonly retryOnStatusCodes?: number[];
}

/** One route: the first whose match holds wins. */
export interface ServiceRoute {
  /**
   * What the route matches.
   * @default - every request
   */
  readonly match?: RouteMatch;
  /**
   * Where matched requests go.
   * @default - this service
   */
  readonly destination?: RouteDestination;
}

/** Props of a `service-router` configuration entry. */
export interface ServiceRouterProps extends MeshConfigEntryProps {
  /** The service whose requests are routed. A change replaces the entry. */
  readonly name: string;
  /**
   * The routes, in order; a catch-all route to the service itself follows them.
   * @default []
   */
  readonly routes?: ServiceRoute[];
}

/**
 * A `service-router` configuration entry: L7 routes of a service's requests by path and
 * header. Needs an L7 protocol: the ServiceDefaults/ProxyDefaults and ServiceResolvers of the
 * same stack are ordered before it automatically.
 *
 * @example
 * new mesh.ServiceRouter(stack, 'web-router', {
 *   name: 'web',
 *   routes: [{ match: { http: { pathPrefix: '/admin' } }, destination: { service: 'admin', requestTimeout: '30s' } }],
 * });
 */
export class ServiceRouter extends MeshConfigEntry {
  constructor(scope: Construct, id: string, props: ServiceRouterProps) {
    super(scope, id, SERVICE_ROUTER.kind, props);
  }

  /** @internal */
  protected _schema(): KindSchema {
    return SERVICE_ROUTER;
  }
}
