import { IResolvable, IResolveContext, Token, Tokenization } from 'cdktf';
import { AttrRef } from '../model';

/**
 * A reference to an attribute of another converge construct, carried inside a string or number
 * token, as cdktf carries Terraform attributes: typed attributes (`pool.agentPoolId: string`) can be
 * passed to any prop of that type, in every jsii language, and the construct that renders the spec
 * turns the token back into a reference the reconciler resolves (`{ $ref, attr }`).
 */
export class AttrToken implements IResolvable {
  public readonly creationStack: string[] = [];
  constructor(public readonly ref: AttrRef & { $stack?: string }) {}

  public resolve(_context: IResolveContext): unknown {
    return this.ref;
  }

  public toString(): string {
    return Token.asString(this);
  }
}

/** A string that stands for `ref` until the reconciler resolves it. */
export function attrString(ref: AttrRef & { $stack?: string }): string {
  return Token.asString(new AttrToken(ref));
}

/** A number that stands for `ref` until the reconciler resolves it. */
export function attrNumber(ref: AttrRef & { $stack?: string }): number {
  return Token.asNumber(new AttrToken(ref));
}

/** A list of strings that stands for `ref` (a list attribute) until the reconciler resolves it. */
export function attrList(ref: AttrRef & { $stack?: string }): string[] {
  return Token.asList(new AttrToken(ref));
}

/** The reference a list token stands for; undefined when the list is no token of converge's. */
export function attrOfList(v: unknown[]): (AttrRef & { $stack?: string }) | undefined {
  // A list token is a list of one encoded string.
  if (v.length !== 1 || typeof v[0] !== 'string') return undefined;
  const t = Tokenization.reverseList(v as string[]);
  return t instanceof AttrToken ? t.ref : undefined;
}

/**
 * The reference a token value stands for; undefined when the value is no token of converge's.
 * Throws when a converge reference is combined with other text (`"x-" + pool.agentPoolId`):
 * the reconciler resolves whole values only.
 */
export function attrOfToken(v: string | number, where: string): (AttrRef & { $stack?: string }) | undefined {
  if (typeof v === 'number') {
    const t = Tokenization.reverseNumber(v);
    return t instanceof AttrToken ? t.ref : undefined;
  }
  const fragments = Tokenization.reverseString(v);
  const tokens = fragments.tokens.filter((t) => t instanceof AttrToken) as AttrToken[];
  if (tokens.length === 0) return undefined;
  if (fragments.length !== 1) {
    throw new Error(`${where} combines a reference to another converge construct's attribute with other text; ` +
      'converge resolves whole values only (pass the reference alone)');
  }
  return tokens[0].ref;
}
