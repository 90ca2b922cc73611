import './cdk-adapter';
import * as crypto from 'crypto';
import * as path from 'path';
import type { NullProvider as NullProviderType } from '@cdktf/provider-null/lib/provider';
import type { Resource as NullResource } from '@cdktf/provider-null/lib/resource';
import { App, Aspects, Lazy, TerraformStack } from 'cdktf';
import { Construct, IConstruct } from 'constructs';
import { objectTriggers } from './bridge-object-triggers';
import { ConvergeElement } from './resource';
import { hmac } from '../crypto/state-key';
import { openSynthSeal } from '../crypto/synth-seal';

/** Props of a {@link TerraformBridge}. */
export interface TerraformBridgeProps {
  /**
   * The command that runs the converge CLI, as Terraform's `local-exec` provisioners run it
   * (with `sh -c`, in the app's directory: see `appDir`).
   * @default "npx --no-install converge" (the converge installed in the app)
   */
  readonly convergeCommand?: string;
  /**
   * The app's directory: the provisioners run converge there, so that it keeps its local state in
   * the app's `.converge/` (as `converge plan` run by hand in the app does), never in the synth
   * directory, which a CI job does not keep. A relative path is resolved against the directory
   * the app is synthesized in.
   * @default - the directory the app is synthesized in (where `cdktf synth` runs it)
   */
  readonly appDir?: string;
  /**
   * The synth directory converge reads, relative to `appDir`.
   * @default - the app's outdir (`cdktf.out`)
   */
  readonly synthDir?: string;
  /**
   * Environment variables (never secrets: Terraform writes them in its plan) for both provisioners,
   * the apply's and the destroy's: a `CONVERGE_STATE` given here is where `terraform destroy` finds
   * what the deploy created. Tokens come from the environment Terraform runs in.
   * @default - none
   */
  readonly environment?: { [key: string]: string };
}

/**
 * Lets a pipeline that runs Terraform (`cdktf deploy`) converge a stack's converge constructs.
 *
 * It adds two `null_resource`s (from `@cdktf/provider-null`), designed for what real Terraform
 * does: it never runs the destroy-time provisioner of a tainted or deposed resource.
 * - `destroy` (created first, never replaced: its only trigger is the stack name, and
 *   `create_before_destroy` leaves it deposed, so silent, if it ever is) holds only the destroy-time
 *   provisioner, `converge bridge destroy`. It runs on a real destroy (`cdktf destroy`), whatever
 *   happened to the other resource before (a failed deploy, a taint).
 * - `apply` (after `destroy`) holds only the create-time provisioner, `converge bridge apply`. Its
 *   trigger is a hash of the stack's converge desired state and of the stacks it reads values from:
 *   a change replaces it, and so re-runs the apply. A failed apply taints it; the next deploy runs it again.
 *   It also has one trigger per object, `object:<address>`, holding that object's desired state as
 *   JSON with secrets masked (their source, or an HMAC of an in-app value), so that `terraform plan`
 *   and `cdktf diff` show, field by field, what converge will change.
 *
 * The provisioners run converge in the app's directory, so that its state is the one that
 * `converge plan` run by hand in the app finds. A stack that reads values of another stack's
 * constructs is made to depend on it (`addDependency`), so that `cdktf deploy` deploys it after.
 *
 * The hash covers specs, providers, dependencies and removal policies. A secret read from the
 * environment or a file is hashed as its source, so a new value there alone does not re-run
 * the apply (run `converge apply`, or change the secret's source).
 *
 * @example
 * // In a stack that `cdktf deploy` deploys: Terraform runs converge for the stack's converge constructs.
 * new TerraformBridge(stack, 'converge');
 */
export class TerraformBridge extends Construct {
  /** The `null_resource` whose create-time provisioner applies the stack (replaced when the desired state changes). */
  public readonly resource: NullResource;
  /** The `null_resource` whose destroy-time provisioner destroys the stack's objects (never replaced). */
  public readonly destroyResource: NullResource;
  /** The converge stack name the provisioners work on. */
  public readonly stackName: string;

  /**
   * SHA-256 of a stack's converge desired state, built from its constructs (not from the
   * stack's synth, which holds this hash).
   */
  public static desiredStateHash(stack: TerraformStack): string {
    return desiredStateHash(stack);
  }

  constructor(scope: Construct, id: string = 'converge-bridge', props: TerraformBridgeProps = {}) {
    super(scope, id);
    const stack = TerraformStack.of(this);
    this.stackName = stack.node.id;
    const { NullProvider, Resource } = loadProviderNull(this.node.path);
    if (!stack.node.findAll().some((c: IConstruct) => c instanceof NullProvider)) new NullProvider(this, 'null');
    const cmd = props.convergeCommand ?? 'npx --no-install converge';

    // Terraform runs in <outdir>/stacks/<stack>; converge runs in the app's directory and reads the synth dir from there.
    const appDir = path.resolve(props.appDir ?? '.');
    const outdir = path.resolve(App.of(this).outdir);
    const workingDir = path.relative(path.join(outdir, 'stacks', this.stackName), appDir) || '.';
    const synthDir = props.synthDir ?? (path.relative(appDir, outdir) || '.');
    const args = `--stack ${shellQuote(this.stackName)} --synth-dir ${shellQuote(synthDir)}`;

    this.destroyResource = new Resource(this, 'destroy', {
      triggers: { stack: this.stackName },
      lifecycle: { createBeforeDestroy: true },
      // The same environment and directory as the apply's: the destroy must find the state the apply wrote.
      provisioners: [{ type: 'local-exec', when: 'destroy', command: `${cmd} bridge destroy ${args}`, environment: props.environment, workingDir }],
    });
    this.resource = new Resource(this, 'apply', {
      triggers: Lazy.anyValue({ produce: () => applyTriggers(stack) }) as unknown as { [key: string]: string },
      dependsOn: [this.destroyResource],
      provisioners: [{ type: 'local-exec', command: `${cmd} bridge apply ${args}`, environment: props.environment, workingDir }],
    });
    // cdktf deploys a stack after the stacks it depends on: record those this stack reads values from.
    Aspects.of(this).add({
      visit: (node: IConstruct) => {
        if (node !== this) return;
        for (const producer of producerStacks(stack)) if (!stack.dependsOn(producer)) stack.addDependency(producer);
      },
    });
  }
}

/**
 * `@cdktf/provider-null`, loaded here so that only apps that use the bridge need it (an optional peer).
 * Without it, one line that says what to run: Node's 30-line "Cannot find module" trace names neither
 * the bridge nor the fix. The error's stack is its message alone, so that Node prints no frames of converge's.
 */
function loadProviderNull(where: string): { NullProvider: typeof NullProviderType; Resource: typeof NullResource } {
  try {
    /* eslint-disable @typescript-eslint/no-require-imports */
    return {
      NullProvider: (require('@cdktf/provider-null/lib/provider') as { NullProvider: typeof NullProviderType }).NullProvider,
      Resource: (require('@cdktf/provider-null/lib/resource') as { Resource: typeof NullResource }).Resource,
    };
    /* eslint-enable @typescript-eslint/no-require-imports */
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'MODULE_NOT_FOUND' || !/@cdktf\/provider-null/.test((e as Error).message)) throw e;
    const err = new Error(`${where}: TerraformBridge needs @cdktf/provider-null, which is not installed: run npm i @cdktf/provider-null`);
    err.stack = `Error: ${err.message}`;
    throw err;
  }
}

/**
 * The apply resource's triggers: the stack, its desired state and, when it reads other stacks, their
 * triggers; then each object's desired state (secrets masked), which is what a reviewer of
 * `terraform plan` reads. The hash still decides alone (it covers what the per-object ones show).
 */
function applyTriggers(stack: TerraformStack): Record<string, string> {
  const producers = producerStacks(stack);
  return {
    stack: stack.node.id,
    desired_state: desiredStateHash(stack),
    ...(producers.length ? { reads: producers.map((p) => `${p.node.id}=${readTrigger(p)}`).join(',') } : {}),
    ...objectTriggers(convergeMetadata(stack).resources),
  };
}

/** What a consumer's trigger holds of a producer: its desired state and, recursively, its producers'. */
function readTrigger(stack: TerraformStack, seen: Set<TerraformStack> = new Set()): string {
  if (seen.has(stack)) return '';
  seen.add(stack);
  const h = crypto.createHash('sha256').update(desiredStateHash(stack));
  for (const p of producerStacks(stack)) h.update(`\n${p.node.id}=${readTrigger(p, seen)}`);
  return h.digest('hex');
}

function convergeMetadata(stack: TerraformStack): { resources: Record<string, unknown>; stacks: Set<string> } {
  const resources: Record<string, unknown> = {};
  const stacks = new Set<string>();
  for (const c of stack.node.findAll()) {
    if (!(c instanceof ConvergeElement)) continue;
    const m = c.toMetadata().converge;
    Object.assign(resources, m.resources);
    for (const s of Object.keys(m.dependsOnStacks ?? {})) stacks.add(s);
  }
  return { resources, stacks };
}

/** The stacks of the app whose converge constructs `stack` reads values from, by name. */
function producerStacks(stack: TerraformStack): TerraformStack[] {
  const names = convergeMetadata(stack).stacks;
  if (!names.size) return [];
  return stack.node.root.node.findAll()
    .filter((c): c is TerraformStack => TerraformStack.isStack(c) && c !== stack && names.has(c.node.id))
    .sort((a, b) => a.node.id.localeCompare(b.node.id));
}

function desiredStateHash(stack: TerraformStack): string {
  return crypto.createHash('sha256').update(stableJson(stableSecrets(convergeMetadata(stack).resources))).digest('hex');
}

/** In-app secrets are sealed with a fresh nonce at every synth: hash them by an HMAC of their value instead. */
function stableSecrets(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(stableSecrets);
  if (v === null || typeof v !== 'object') return v;
  const o = v as Record<string, any>;
  if (o.$secret && typeof o.$secret.sealed === 'string') {
    let value: string;
    try { value = hmac(openSynthSeal(o.$secret.sealed)); } catch { value = 'unreadable'; }
    return { $secret: { sealedHmac: value } };
  }
  return Object.fromEntries(Object.entries(o).map(([k, x]) => [k, stableSecrets(x)]));
}

function stableJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stableJson).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${stableJson((v as any)[k])}`).join(',')}}`;
  }
  return JSON.stringify(v);
}

function shellQuote(s: string): string {
  return /^[A-Za-z0-9_./:=-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}
