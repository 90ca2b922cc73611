import { TerraformStack } from 'cdktf';

/** What a full sample may use: the emulator's environment, a PostgreSQL the database kinds connect to. */
export interface SampleWorld {
  readonly env: Record<string, string>;
  readonly postgresUrl?: string;
}

/**
 * An object of a kind with every field of its schema set, to a value other than its default where
 * the API allows one: the round trip test applies it and reads it back, so that a field the handler
 * does not send or does not read fails.
 */
export interface FullSample {
  /** Adds the object (at `address`) and what it needs to the stack. */
  readonly build: (stack: TerraformStack, world: SampleWorld) => void;
  /** The address of the object of the kind. */
  readonly address: string;
  /** Fields left at their default (or unset), each with the reason. */
  readonly defaultsKept?: Readonly<Record<string, string>>;
  /** The sample needs a real PostgreSQL (the database kinds). */
  readonly needsPostgres?: boolean;
  /** Seeds, before the app is synthesized, what the object needs and converge does not manage (a project, a registry module, database users, directory accounts, a mount). */
  readonly seed?: (world: SampleWorld) => Promise<void>;
  /** Environment variables the CLI needs for the sample (those its `SecretValue.fromEnv`s read). */
  readonly env?: Readonly<Record<string, string>>;
  /** The object exists on the platform's self-hosted edition only (a data retention policy): applied in a world of that edition. */
  readonly selfHosted?: boolean;
}
