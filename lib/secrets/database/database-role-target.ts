import { Construct } from 'constructs';
import { check } from '../../core/constructs/validation';
import type { DatabaseConnection } from './database-connection';
import { checkMount } from '../kv/kv-validation';
import { checkSegmentName } from '../prop-checks';

/** The connection name and mount of a role: from `connection` when given, else the props. */
export function roleTarget(scope: Construct, props: { mount?: string; dbName?: string; connection?: DatabaseConnection }):
{ mount: string; dbName: string } {
  const mount = props.connection?.mount ?? props.mount ?? 'database';
  const dbName = props.connection?.name ?? props.dbName ?? '';
  check(!(props.connection && props.dbName && props.dbName !== props.connection.name), scope, 'dbName',
    `"${props.dbName}" differs from the name of \`connection\` ("${props.connection?.name}"): give one of them`);
  check(!(props.connection && props.mount && props.mount !== props.connection.mount), scope, 'mount',
    `"${props.mount}" differs from the mount of \`connection\` ("${props.connection?.mount}")`);
  check(dbName !== '', scope, 'dbName', 'is required (or give `connection`)');
  checkSegmentName(scope, 'dbName', dbName);
  checkMount(scope, mount);
  if (props.connection) scope.node.addDependency(props.connection);
  return { mount, dbName };
}

