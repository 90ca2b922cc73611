import * as fs from 'fs';
import * as path from 'path';
import { App, TerraformStack } from 'cdktf';
import * as lib from '../../lib';
import { ROOT } from '../support/harness';

// Every construct, given an empty props object, says which required prop is missing ("is required",
// with the construct path), never a rule that reads `undefined` as a value.
interface JsiiType { kind: string; abstract?: boolean; properties?: { name: string; optional?: boolean }[]; interfaces?: string[];
  initializer?: { parameters?: { type: { fqn?: string } }[] } }
const types = (JSON.parse(fs.readFileSync(path.join(ROOT, '.jsii'), 'utf8')) as { types: Record<string, JsiiType> }).types;
const required = (fqn: string): string[] => [
  ...(types[fqn]?.properties ?? []).filter((p) => !p.optional).map((p) => p.name),
  ...(types[fqn]?.interfaces ?? []).flatMap(required),
];
const constructs = Object.entries(types)
  .filter(([, t]) => t.kind === 'class' && !t.abstract && types[t.initializer?.parameters?.[2]?.type.fqn ?? '']?.kind === 'interface')
  .map(([fqn, t]) => ({ fqn, props: t.initializer!.parameters![2].type.fqn!, required: required(t.initializer!.parameters![2].type.fqn!) }));

function classOf(fqn: string): new (scope: unknown, id: string, props: unknown) => unknown {
  return fqn.split('.').slice(1).reduce((o: any, k) => o[k], lib);
}

test('the assembly lists the constructs (the walk below is not empty)', () => {
  expect(constructs.length).toBeGreaterThan(30);
  expect(constructs.find((c) => c.fqn === 'cdk-converge.platform.Organization')?.required.sort()).toEqual(['email', 'name']);
});

test.each(constructs.map((c) => [c.fqn, c]))('%s with empty props', (_fqn, c) => {
  const stack = new TerraformStack(new App(), 'prod');
  let message = '';
  try {
    new (classOf(c.fqn))(stack, 'x', {});
  } catch (e) {
    message = (e as Error).message;
  }
  if (c.required.length) {
    const m = /^prod\/x: (\S+) is required$/.exec(message);
    expect(m).not.toBeNull();
    expect(c.required).toContain(m![1]);
  }
  expect(message).not.toMatch(/undefined/);
});

test('a required field of a nested struct: path and index', () => {
  const stack = new TerraformStack(new App(), 'prod');
  expect(() => new lib.mesh.ServiceSplitter(stack, 'split', { name: 'web', splits: [{ weight: 100 }, {} as any] }))
    .toThrow('prod/split: splits[1].weight is required');
  expect(() => new lib.platform.Organization(stack, 'org', { name: 'acme' } as any)).toThrow(/^prod\/org: email is required$/);
});
