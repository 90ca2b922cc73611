/** The mesh ACL rules each kind needs through plan, apply and destroy, as text for `converge policy`. */
export const MESH_PERMISSIONS: Record<string, (spec: Record<string, unknown>) => string> = {
  'mesh.ProxyDefaults': () => 'mesh = "write" (proxy-defaults is global)',
  'mesh.ServiceDefaults': (s) => `service "${String(s.name)}" { policy = "write" }`,
  'mesh.ServiceResolver': (s) => `service "${String(s.name)}" { policy = "write" }`,
  'mesh.ServiceSplitter': (s) => `service "${String(s.name)}" { policy = "write" }`,
  'mesh.ServiceRouter': (s) => `service "${String(s.name)}" { policy = "write" }`,
  'mesh.DiscoveryChain': (s) => `service "${String(s.service)}" { policy = "read" }`,
  // A lookup reads the entry (`ServiceDefaults.fromName`): its id is `[namespace/]service-defaults/<name>`.
  'lookup:mesh.ServiceDefaults': (s) => `service "${String(s.id).split('/').pop()}" { policy = "read" }`,
};
