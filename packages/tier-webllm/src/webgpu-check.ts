/** The WebGPU surface the check reads; `navigator` in a browser or worker, or a stand-in in tests. */
export interface WebgpuNavigator {
  gpu?: {
    requestAdapter(options?: { powerPreference?: 'low-power' | 'high-performance' }): Promise<WebgpuAdapter | null>;
  };
  /** Approximate device memory in GiB (Chromium only; coarse, at most 8). */
  deviceMemory?: number;
}

/** The adapter fields the check reads. */
export interface WebgpuAdapter {
  features: { has(feature: string): boolean };
  limits: { maxBufferSize: number; maxStorageBufferBindingSize: number };
  /** A software adapter (SwiftShader and the like): present, but far too slow for a language model. */
  isFallbackAdapter?: boolean;
  info?: { vendor?: string; architecture?: string; isFallbackAdapter?: boolean };
}

/** What a model needs from the device; WebLLM's model records carry these figures. */
export interface WebgpuRequirements {
  /** Adapter features the model's kernels use, e.g. `shader-f16` for q4f16 models. */
  requiredFeatures?: readonly string[];
  /** The `maxStorageBufferBindingSize` the model needs, in bytes. */
  storageBufferBytes?: number;
  /** Memory the model takes, in MB (WebLLM's `vram_required_MB`). */
  vramRequiredMB?: number;
  /** Accept a software (fallback) adapter. @default false */
  allowFallbackAdapter?: boolean;
  /** Time `requestAdapter` may take before the device counts as unavailable. @default 5_000 */
  timeoutMs?: number;
  /** Where to look. @default globalThis.navigator */
  navigator?: WebgpuNavigator;
}

/** The outcome of {@link checkWebgpu}: available with what was found, or unavailable with why. */
export type WebgpuCheck = { available: true; vendor?: string; features: string[]; maxStorageBufferBindingSize: number } | { available: false; reason: string };

// WebLLM's runtime falls back to these sizes and fails below them (detectGPUDevice).
const minBufferBytes = 1 << 28;
const minStorageBufferBytes = 1 << 27;

const megabytes = (bytes: number) => `${Math.round(bytes / (1 << 20)).toLocaleString('en-US')} MB`;

/**
 * Checks, quickly and without loading WebLLM, whether this device can run a model on WebGPU: a
 * `navigator.gpu`, an adapter (within `timeoutMs`), not a software one, the features and buffer sizes the
 * model needs, and about enough memory. Never throws: an unavailable device comes back with a reason.
 * @example
 * ```ts
 * const check = await checkWebgpu({ requiredFeatures: ['shader-f16'], vramRequiredMB: 945 });
 * if (!check.available) console.log(check.reason); // "no WebGPU here: navigator.gpu is missing (…)"
 * ```
 */
export async function checkWebgpu(requirements: WebgpuRequirements = {}): Promise<WebgpuCheck> {
  const where = requirements.navigator ?? (globalThis as { navigator?: WebgpuNavigator }).navigator;
  if (!where?.gpu || typeof where.gpu.requestAdapter !== 'function') {
    return { available: false, reason: 'no WebGPU here: navigator.gpu is missing (a browser or runtime without WebGPU, or with it switched off)' };
  }
  const timeoutMs = requirements.timeoutMs ?? 5_000;
  let adapter: WebgpuAdapter | null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    adapter = await Promise.race([
      where.gpu.requestAdapter({ powerPreference: 'high-performance' }),
      new Promise<'timeout'>((resolve) => {
        timer = setTimeout(() => resolve('timeout'), timeoutMs);
      }),
    ]).then((value) => {
      if (value === 'timeout') throw new Error(`navigator.gpu.requestAdapter() did not answer within ${timeoutMs} ms`);
      return value;
    });
  } catch (error) {
    return { available: false, reason: `no WebGPU adapter: ${error instanceof Error ? error.message : String(error)}` };
  } finally {
    if (timer !== undefined) clearTimeout(timer);
  }
  if (!adapter) return { available: false, reason: 'no WebGPU adapter: navigator.gpu.requestAdapter() found no GPU (none present, blocklisted, or the GPU process is disabled)' };
  if ((adapter.isFallbackAdapter || adapter.info?.isFallbackAdapter) && !requirements.allowFallbackAdapter) {
    return { available: false, reason: 'only a software WebGPU adapter is available, far too slow for a language model (allowFallbackAdapter to use it anyway)' };
  }
  const missing = (requirements.requiredFeatures ?? []).filter((feature) => !adapter.features.has(feature));
  if (missing.length > 0) return { available: false, reason: `the WebGPU adapter lacks ${missing.join(', ')}, which this model needs (pick a q4f32 model instead of q4f16 for shader-f16)` };
  const { maxBufferSize, maxStorageBufferBindingSize } = adapter.limits;
  if (maxBufferSize < minBufferBytes || maxStorageBufferBindingSize < Math.max(minStorageBufferBytes, requirements.storageBufferBytes ?? 0)) {
    const needed = Math.max(minStorageBufferBytes, requirements.storageBufferBytes ?? 0);
    return {
      available: false,
      reason: `not enough GPU buffer space: the adapter allows ${megabytes(maxBufferSize)} buffers and ${megabytes(maxStorageBufferBindingSize)} storage bindings; the model needs ${megabytes(minBufferBytes)} and ${megabytes(needed)}`,
    };
  }
  const deviceMemory = where.deviceMemory;
  // deviceMemory is coarse (rounded, capped at 8 GiB), so only a clear shortfall counts: the model alone
  // would take more than the whole device reports.
  if (requirements.vramRequiredMB !== undefined && typeof deviceMemory === 'number' && deviceMemory > 0 && deviceMemory * 1024 < requirements.vramRequiredMB) {
    return {
      available: false,
      reason: `not enough memory: the device reports about ${deviceMemory} GiB and the model needs about ${Math.round(requirements.vramRequiredMB).toLocaleString('en-US')} MB`,
    };
  }
  const features: string[] = [];
  for (const feature of ['shader-f16', 'subgroups']) if (adapter.features.has(feature)) features.push(feature);
  return { available: true, ...(adapter.info?.vendor ? { vendor: adapter.info.vendor } : {}), features, maxStorageBufferBindingSize };
}
