import { CtxkitError } from './ctxkit-error.ts';
import { type AnyPlugin, type PluginKind, pluginKinds, type SupportedSpecificationVersions, supportedSpecificationVersions } from './plugin.ts';

/** Entries a plugin list may hold besides plugins; they are skipped (`[onDevice && webllmTier()]`). */
export type Falsy = false | null | undefined | 0 | '';

/** The ids registered for one kind. */
export type IdsOf<P extends AnyPlugin, K extends PluginKind> = Extract<P, { kind: K }>['id'];

/** The plugin registered under a kind and id. */
export type PluginFor<P extends AnyPlugin, K extends PluginKind, I extends string> = Extract<P, { kind: K; id: I }>;

/**
 * Plugins by kind and id, typed by what was registered: asking for an id that was not registered is a
 * compile error. Lists keep the order the plugins were given in (tiers run in that order).
 */
export interface Registry<P extends AnyPlugin = AnyPlugin> {
  /** Every plugin, in registration order. */
  readonly plugins: readonly P[];
  /** The plugin of a kind and id. @throws CtxkitError PLUGIN_NOT_FOUND */
  get<K extends P['kind'], I extends IdsOf<P, K>>(kind: K, id: I): PluginFor<P, K, I>;
  /** The plugin of a kind and id, or undefined; for ids only known at run time. */
  find<K extends PluginKind>(kind: K, id: string): Extract<AnyPlugin, { kind: K }> | undefined;
  /** Every plugin of a kind, in registration order. */
  all<K extends PluginKind>(kind: K): Extract<P, { kind: K }>[];
  tier<I extends IdsOf<P, 'tier'>>(id: I): PluginFor<P, 'tier', I>;
  tokenizer<I extends IdsOf<P, 'tokenizer'>>(id: I): PluginFor<P, 'tokenizer', I>;
  estimator<I extends IdsOf<P, 'estimator'>>(id: I): PluginFor<P, 'estimator', I>;
  thresholdPolicy<I extends IdsOf<P, 'threshold-policy'>>(id: I): PluginFor<P, 'threshold-policy', I>;
  summarizer<I extends IdsOf<P, 'summarizer'>>(id: I): PluginFor<P, 'summarizer', I>;
  provider<I extends IdsOf<P, 'provider'>>(id: I): PluginFor<P, 'provider', I>;
  store<I extends IdsOf<P, 'store'>>(id: I): PluginFor<P, 'store', I>;
  reinjectionSource<I extends IdsOf<P, 'reinjection-source'>>(id: I): PluginFor<P, 'reinjection-source', I>;
}

function describeValue(value: unknown): string {
  return value === null ? 'null' : typeof value;
}

/**
 * Validates one entry of a plugin list and returns it typed: an object of a known kind, speaking a version
 * of its kind's contract that `supported` lists, with a non-empty string id. The kind is checked first, so
 * the version is judged against that kind's own list (a `v2` tier and a `v1` store can both pass).
 * @throws CtxkitError INVALID_PLUGIN for a value that is not a plugin of a known kind with an id
 * @throws CtxkitError UNSUPPORTED_SPECIFICATION for a version its kind does not list, naming the versions it does
 */
export function assertValidPlugin(plugin: unknown, position: number, supported: SupportedSpecificationVersions = supportedSpecificationVersions): AnyPlugin {
  const where = `plugin at position ${position}`;
  if (typeof plugin !== 'object' || plugin === null) {
    throw new CtxkitError({ code: 'INVALID_PLUGIN', message: `${where} is ${describeValue(plugin)}, not a plugin object` });
  }
  const candidate = plugin as Partial<Record<keyof AnyPlugin, unknown>>;
  const name = `${where} (${String(candidate.kind)} ${JSON.stringify(candidate.id)})`;
  if (!pluginKinds.includes(candidate.kind as PluginKind)) {
    throw new CtxkitError({ code: 'INVALID_PLUGIN', message: `${name} has an unknown kind; expected one of ${pluginKinds.join(', ')}` });
  }
  const kind = candidate.kind as PluginKind;
  const versions: readonly string[] = supported[kind];
  if (!versions.includes(candidate.specificationVersion as string)) {
    throw new CtxkitError({
      code: 'UNSUPPORTED_SPECIFICATION',
      message: `${name} speaks specification ${JSON.stringify(candidate.specificationVersion)}; this ctxkit supports ${versions.map((version) => JSON.stringify(version)).join(', ')} for ${kind} plugins`,
      details: { kind, specificationVersion: candidate.specificationVersion, supported: versions },
    });
  }
  if (typeof candidate.id !== 'string' || candidate.id === '') {
    throw new CtxkitError({ code: 'INVALID_PLUGIN', message: `${name} needs a non-empty string id` });
  }
  return plugin as AnyPlugin;
}

/**
 * Builds a registry from a list of plugins; falsy entries are skipped. Keys are inferred from the list.
 * Each plugin's `specificationVersion` is checked against its own kind's {@link supportedSpecificationVersions}.
 * @throws CtxkitError INVALID_PLUGIN, UNSUPPORTED_SPECIFICATION or DUPLICATE_PLUGIN for a bad list
 * @example
 * ```ts
 * const registry = createRegistry([microcompactTier(), onDevice && webllmTier(), tiktokenCounter('o200k_base')]);
 * registry.tier('microcompact');   // typed as the microcompact tier
 * registry.tier('nope');           // compile error: 'nope' was not registered
 * ```
 */
export function createRegistry<const List extends readonly (AnyPlugin | Falsy)[]>(plugins: List): Registry<Exclude<List[number], Falsy>> {
  type P = Exclude<List[number], Falsy>;
  const list: P[] = [];
  const byKey = new Map<string, P>();
  plugins.forEach((entry, position) => {
    if (!entry) return;
    const plugin = assertValidPlugin(entry, position) as P;
    const key = `${plugin.kind}\u0000${plugin.id}`;
    if (byKey.has(key)) {
      throw new CtxkitError({
        code: 'DUPLICATE_PLUGIN',
        message: `plugin at position ${position}: a ${plugin.kind} with id ${JSON.stringify(plugin.id)} is registered already`,
      });
    }
    byKey.set(key, plugin);
    list.push(plugin);
  });

  const get = (kind: PluginKind, id: string) => {
    const plugin = byKey.get(`${kind}\u0000${id}`);
    if (!plugin) {
      const known = list.filter((entry) => entry.kind === kind).map((entry) => entry.id);
      throw new CtxkitError({
        code: 'PLUGIN_NOT_FOUND',
        message: `no ${kind} with id ${JSON.stringify(id)} is registered${known.length ? `; registered: ${known.join(', ')}` : ''}`,
      });
    }
    return plugin;
  };
  // The typed signatures are checked at the call site; one untyped implementation serves them all.
  const registry = {
    plugins: list,
    get,
    find: (kind: PluginKind, id: string) => byKey.get(`${kind}\u0000${id}`),
    all: (kind: PluginKind) => list.filter((plugin) => plugin.kind === kind),
    tier: (id: string) => get('tier', id),
    tokenizer: (id: string) => get('tokenizer', id),
    estimator: (id: string) => get('estimator', id),
    thresholdPolicy: (id: string) => get('threshold-policy', id),
    summarizer: (id: string) => get('summarizer', id),
    provider: (id: string) => get('provider', id),
    store: (id: string) => get('store', id),
    reinjectionSource: (id: string) => get('reinjection-source', id),
  };
  return registry as unknown as Registry<P>;
}
