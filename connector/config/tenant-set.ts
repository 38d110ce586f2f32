import { buildTenantRuntime, type TenantRuntime } from '../pipeline/tenant-runtime';
import type { ShopServices } from '../shop/shop-services';
import type { TenantConfig } from './load-config';

export interface TenantChanges {
  added: string[];
  removed: string[];
  changed: string[];
}

/**
 * The tenants a running connector serves, replaceable in one step (a reload of the tenants file).
 * Everything that serves a tenant holds this set and asks it on every delivery, job attempt, sweep
 * and page, so a reload takes effect at once: the swap is one assignment, nothing is refused while it
 * happens, and a retry uses the settings of the moment it runs.
 *
 * A removed shop takes no new work (its webhook URL answers 404, the sweep and the console forget it)
 * but the workers still find it (`forWork`), so jobs already in the queue finish with it.
 */
export class TenantSet implements ReadonlyMap<string, TenantRuntime> {
  private active: Map<string, TenantRuntime>;
  private readonly retired = new Map<string, TenantRuntime>();
  /** What the document workers look tenants up in: the active ones, then the removed ones. */
  readonly forWork: ReadonlyMap<string, TenantRuntime>;

  /** `services`: what the running connector lends every tenant's Shop (connector/shop/shop-services.ts). */
  constructor(
    configs: readonly TenantConfig[],
    private readonly services?: ShopServices,
  ) {
    this.active = new Map(configs.map((config) => [config.id, buildTenantRuntime(config, services)]));
    this.forWork = new WorkView(this);
  }

  /**
   * Takes the new tenants: unchanged ones keep their runtime (and its caches), changed and new ones
   * get a fresh one, removed ones retire. Builds everything first, then swaps.
   */
  replace(configs: readonly TenantConfig[], secretOverlap: { now: number; ms: number } = { now: Date.now(), ms: 0 }): TenantChanges {
    const next = new Map<string, TenantRuntime>();
    const changes: TenantChanges = { added: [], removed: [], changed: [] };
    for (const config of configs) {
      const current = this.active.get(config.id);
      if (current && JSON.stringify(current.config) === JSON.stringify(config)) {
        next.set(config.id, current);
        continue;
      }
      const runtime = buildTenantRuntime(config, this.services);
      const previous = current ? previousSecret(current, config, secretOverlap) : undefined;
      if (previous) runtime.previousWebhookSecret = previous;
      next.set(config.id, runtime);
      (current ? changes.changed : changes.added).push(config.id);
    }
    for (const [id, runtime] of this.active) {
      if (!next.has(id)) {
        changes.removed.push(id);
        this.retired.set(id, runtime);
      }
    }
    for (const id of next.keys()) this.retired.delete(id);
    this.active = next;
    return changes;
  }

  retiredTenant(id: string): TenantRuntime | undefined {
    return this.retired.get(id);
  }

  get size(): number {
    return this.active.size;
  }
  get(id: string): TenantRuntime | undefined {
    return this.active.get(id);
  }
  has(id: string): boolean {
    return this.active.has(id);
  }
  forEach(callback: (value: TenantRuntime, key: string, map: ReadonlyMap<string, TenantRuntime>) => void, thisArg?: unknown): void {
    for (const [key, value] of this.active) callback.call(thisArg, value, key, this);
  }
  entries(): MapIterator<[string, TenantRuntime]> {
    return this.active.entries();
  }
  keys(): MapIterator<string> {
    return this.active.keys();
  }
  values(): MapIterator<TenantRuntime> {
    return this.active.values();
  }
  [Symbol.iterator](): MapIterator<[string, TenantRuntime]> {
    return this.active.entries();
  }
}

/** The secret a changed tenant still accepts for a while: the one it had, or the one it still accepted. */
function previousSecret(current: TenantRuntime, config: TenantConfig, overlap: { now: number; ms: number }): TenantRuntime['previousWebhookSecret'] {
  if (overlap.ms <= 0) return undefined;
  if (current.config.shop.webhookSecret !== config.shop.webhookSecret) return { secret: current.config.shop.webhookSecret, until: overlap.now + overlap.ms };
  const kept = current.previousWebhookSecret;
  return kept && kept.until > overlap.now && kept.secret !== config.shop.webhookSecret ? kept : undefined;
}

class WorkView implements ReadonlyMap<string, TenantRuntime> {
  constructor(private readonly set: TenantSet) {}
  get size(): number {
    return this.set.size;
  }
  get(id: string): TenantRuntime | undefined {
    return this.set.get(id) ?? this.set.retiredTenant(id);
  }
  has(id: string): boolean {
    return this.get(id) !== undefined;
  }
  forEach(callback: (value: TenantRuntime, key: string, map: ReadonlyMap<string, TenantRuntime>) => void, thisArg?: unknown): void {
    this.set.forEach((value, key) => callback.call(thisArg, value, key, this));
  }
  entries(): MapIterator<[string, TenantRuntime]> {
    return this.set.entries();
  }
  keys(): MapIterator<string> {
    return this.set.keys();
  }
  values(): MapIterator<TenantRuntime> {
    return this.set.values();
  }
  [Symbol.iterator](): MapIterator<[string, TenantRuntime]> {
    return this.set.entries();
  }
}
