import './cdk-adapter';
import * as crypto from 'crypto';
import type { NullProvider as NullProviderType } from '@cdktf/provider-null/lib/provider';
import type { Resource as NullResource } from '@cdktf/provider-null/lib/resource';
import { Lazy, TerraformStack } from 'cdktf';
import { Construct, IConstruct } from 'constructs';
import { ConvergeElement } from './resource';
import { decrypt, hmac } from '../crypto/state-key';

/** Props of a {@link TerraformBridge}. */
export interface TerraformBridgeProps {
  /**
   * The command that runs the converge CLI, as Terraform's `local-exec` provisioner runs it
   * (with `sh -c`, in the stack's synth directory `cdktf.out/stacks/<stack>`).
   * @default "npx --no-install converge" (the converge installed in the app)
   */
  readonly convergeCommand?: string;
  /**
   * The synth directory converge reads, relative to the directory Terraform runs in.
   * @default "../.." (the `cdktf.out` that holds the stack)
   */
  readonly synthDir?: string;
  /**
   * Environment variables (never secrets: Terraform writes them in its plan) for the apply provisioner.
   * Tokens come from the environment Terraform runs in.
   * @default - none
   */
  readonly environment?: { [key: string]: string };
}

/**
 * Lets a pipeline that runs Terraform (`cdktf deploy`) converge a stack's converge constructs.
 *
 * It adds a `null_resource` (from `@cdktf/provider-null`) whose trigger is a hash of the stack's
 * converge desired state. When it changes, Terraform replaces the resource, creating the new one
 * first (`create_before_destroy`): its `local-exec` provisioner runs
 * `converge bridge apply --generation <id>`, which records the new generation (the resource's id)
 * and applies the stack. The old resource's destroy-time provisioner then runs
 * `converge bridge destroy --generation <old id>`, which sees a newer generation recorded and
 * does nothing. On a real destroy (`cdktf destroy`) the generation is still the recorded one,
 * and the stack's objects are destroyed.
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
  /** The `null_resource` whose provisioners run converge. */
  public readonly resource: NullResource;
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
    // Loaded here, so that @cdktf/provider-null (an optional peer) is needed only by apps that use the bridge.
    /* eslint-disable @typescript-eslint/no-require-imports */
    const { NullProvider } = require('@cdktf/provider-null/lib/provider') as { NullProvider: typeof NullProviderType };
    const { Resource } = require('@cdktf/provider-null/lib/resource') as { Resource: typeof NullResource };
    /* eslint-enable @typescript-eslint/no-require-imports */
    if (!stack.node.findAll().some((c: IConstruct) => c instanceof NullProvider)) new NullProvider(this, 'null');
    const cmd = props.convergeCommand ?? 'npx --no-install converge';
    const synthDir = props.synthDir ?? '../..';
    const common = `--stack \${self.triggers.stack} --synth-dir ${shellQuote(synthDir)} --generation \${self.id}`;
    this.resource = new Resource(this, 'apply', {
      triggers: {
        stack: this.stackName,
        desired_state: Lazy.stringValue({ produce: () => TerraformBridge.desiredStateHash(stack) }),
      },
      lifecycle: { createBeforeDestroy: true },
      provisioners: [
        { type: 'local-exec', command: `${cmd} bridge apply ${common}`, environment: props.environment },
        { type: 'local-exec', when: 'destroy', command: `${cmd} bridge destroy ${common}` },
      ],
    });
  }
}

function desiredStateHash(stack: TerraformStack): string {
  const resources: Record<string, unknown> = {};
  for (const c of stack.node.findAll()) {
    if (c instanceof ConvergeElement) Object.assign(resources, c.toMetadata().converge.resources);
  }
  return crypto.createHash('sha256').update(stableJson(stableSecrets(resources))).digest('hex');
}

/** In-app secrets are sealed with a fresh nonce at every synth: hash them by an HMAC of their value instead. */
function stableSecrets(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(stableSecrets);
  if (v === null || typeof v !== 'object') return v;
  const o = v as Record<string, any>;
  if (o.$secret && typeof o.$secret.sealed === 'string') {
    let value: string;
    try { value = hmac(decrypt(o.$secret.sealed)); } catch { value = 'unreadable'; }
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
