import { KindSchema } from '../../core/schema';
import { NAME_RULE, ORGANIZATION_FIELD } from '../shared/references';
import { EXECUTION_MODES } from '../shared/value-sets';

/** A tag of a workspace as the platform keeps it: lowercase letters, numbers, colons, hyphens and underscores. */
export const TAG_RULE = { pattern: /^[a-z0-9:_-]{1,255}$/, patternRule: 'must be lowercase letters, numbers, colons, hyphens and underscores (at most 255)' } as const;

/**
 * `platform.Workspace`: the real platform's create/update body (go-tfe's `WorkspaceCreateOptions`),
 * camelCased; the Terraform version is the spec's `engine-version`, the project the `project`
 * relationship. Renamed in place; moved to another organization by replacement. Tags are sent on
 * create, then added and removed by their own endpoints.
 */
export const WORKSPACE: KindSchema = {
  kind: 'platform.Workspace',
  api: 'platform',
  wireCase: 'kebab',
  fields: {
    organization: ORGANIZATION_FIELD,
    name: { type: 'string', required: true, ...NAME_RULE },
    description: { type: 'string', default: '' },
    // Null: the organization's default project, where the platform puts the workspace (not compared).
    projectId: { type: 'string', default: null, wire: 'project', pattern: /^prj-/, patternRule: 'is not a project id (prj-…)' },
    executionMode: { type: 'string', oneOf: EXECUTION_MODES, default: 'remote' },
    agentPoolId: { type: 'string', default: null, pattern: /^apool-/, patternRule: 'is not an agent pool id (apool-…)' },
    // Null: the version the platform gives a new workspace (not compared).
    terraformVersion: { type: 'string', default: null, wire: 'engine-version', pattern: /^(latest|\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?)$/, patternRule: 'is not a version (e.g. "1.9.5" or "latest")' },
    workingDirectory: { type: 'string', default: '' },
    autoApply: { type: 'boolean', default: false },
    tags: { type: 'string-set', default: [], wire: 'tag-names', ...TAG_RULE },
  },
  outputs: {
    id: { type: 'string' },
    terraformVersion: { type: 'string' },
  },
};
