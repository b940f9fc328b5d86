import type { AnyPlugin, IdsOf, PluginFor, ProviderPlugin, Registry } from '@ctxkit/core';

/** True when A and B are the same type, not merely assignable to each other. */
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

/** The second parameter of a provider's `classifyError`. */
type ClassifyContext<P> = P extends { classifyError(...args: infer Args): unknown } ? Args[1] : never;

/** The ids a provider type test names: the factory's default, one given as an option, and one never registered. */
export interface ProviderTypeIds<DefaultId extends string, NamedId extends string, Unregistered extends string> {
  /** The id the factory gives without an `id` option: `'anthropic'`. */
  default: DefaultId;
  /** An id given as the `id` option: `'anthropic-work'`. */
  named: NamedId;
  /** An id no provider in the registry has: `'openai'`. */
  unregistered: Unregistered;
}

/**
 * `true` when a registry of a provider factory's output has the types the registry contract promises,
 * else a sentence saying which does not hold: the provider under the default id is `Expected` (the
 * default id stayed a literal), the one under the named id has that literal id, the unregistered id is
 * refused, `Expected` is a core `ProviderPlugin` of the default id, and its `classifyError` may be told the model.
 */
export type ProviderTypeCheck<P extends AnyPlugin, Expected, DefaultId extends string, NamedId extends string, Unregistered extends string> =
  Same<PluginFor<P, 'provider', DefaultId>, Expected> extends false
    ? `registry.provider('${DefaultId}') is not the expected type: did the default id widen to string?`
    : Same<PluginFor<P, 'provider', NamedId>['id'], NamedId> extends false
      ? `registry.provider('${NamedId}').id is not the literal '${NamedId}'`
      : Unregistered extends IdsOf<P, 'provider'>
        ? `registry.provider('${Unregistered}') compiles, but no provider was registered under that id`
        : Expected extends ProviderPlugin<DefaultId>
          ? Same<ClassifyContext<Expected>, { model?: string } | undefined> extends true
            ? true
            : 'classifyError(error, context?) does not take { model?: string } as its context'
          : `the provider is not a core ProviderPlugin<'${DefaultId}'>`;

/**
 * The type tests every provider package repeats, as one check a `*.test-d.ts` file calls with a registry
 * made from its factory (with and without an `id` option) and `true`: the call compiles only where each
 * rule of {@link ProviderTypeCheck} holds, and the compiler error names the one that does not. The
 * registry must be made at the call site, `createRegistry([xProvider(), ...])`, since that is where a
 * default id can widen.
 * @example
 * ```ts
 * const registry = createRegistry([anthropicProvider(), anthropicProvider({ id: 'anthropic-work', apiKey: 'k' })]);
 * expectProviderTypes<ProviderPluginWithWindows<'anthropic'>>()(registry, { default: 'anthropic', named: 'anthropic-work', unregistered: 'openai' }, true);
 * ```
 */
export function expectProviderTypes<Expected>() {
  return <P extends AnyPlugin, const DefaultId extends string, const NamedId extends string, const Unregistered extends string>(
    _registry: Registry<P>,
    _ids: ProviderTypeIds<DefaultId, NamedId, Unregistered>,
    _holds: ProviderTypeCheck<P, Expected, DefaultId, NamedId, Unregistered>,
  ): void => undefined;
}
