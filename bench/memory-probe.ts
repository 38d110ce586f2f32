/**
 * Preloaded (`node --require`) into the connector when BENCH_MEMORY_PROBE names a file: samples the
 * process's memory every 50 ms and writes, at each new peak of the resident set and at exit, where
 * that peak was: the kernel's view (/proc/self/status: RssAnon, RssFile; smaps_rollup), Node's
 * (`process.memoryUsage()`: the heap, external, array buffers) and V8's (each heap space's size and
 * use), and the largest value each of them reached over the run. `bench/connector-e2e.ts` prints it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { getHeapSpaceStatistics } from 'node:v8';

const target = process.env.BENCH_MEMORY_PROBE;

export interface MemorySample {
  /** MB, from /proc/self/status and smaps_rollup. */
  kernel: Record<string, number>;
  /** MB, process.memoryUsage(). */
  node: Record<string, number>;
  /** MB, per V8 heap space: size (committed) and used. */
  spaces: Record<string, { size: number; used: number }>;
}

export interface MemoryProbeReport {
  samples: number;
  atPeakRss: MemorySample;
  /** Every 500 ms: seconds since start, then MB of VmRSS, RssAnon, heap committed, heap used, old space used, new space committed, external, array buffers. */
  series: number[][];
  /** The largest value of each figure over the run (not all at the same moment). */
  max: { kernel: Record<string, number>; node: Record<string, number>; spaces: Record<string, number> };
}

const mb = (bytes: number): number => Math.round((bytes / 1048576) * 10) / 10;

function kernelFigures(): Record<string, number> {
  const figures: Record<string, number> = {};
  const status = readFileSync('/proc/self/status', 'utf8');
  for (const name of ['VmRSS', 'VmHWM', 'RssAnon', 'RssFile', 'RssShmem']) {
    const kb = /:\s+(\d+) kB/.exec(status.slice(status.indexOf(`${name}:`)))?.[1];
    if (kb !== undefined) figures[name] = Math.round((Number(kb) / 1024) * 10) / 10;
  }
  return figures;
}

function sample(): MemorySample {
  const usage = process.memoryUsage();
  const spaces: MemorySample['spaces'] = {};
  for (const space of getHeapSpaceStatistics()) spaces[space.space_name] = { size: mb(space.space_size), used: mb(space.space_used_size) };
  return {
    kernel: kernelFigures(),
    node: { rss: mb(usage.rss), heapTotal: mb(usage.heapTotal), heapUsed: mb(usage.heapUsed), external: mb(usage.external), arrayBuffers: mb(usage.arrayBuffers) },
    spaces,
  };
}

if (target) {
  const started = Date.now();
  const report: MemoryProbeReport = { samples: 0, atPeakRss: sample(), series: [], max: { kernel: {}, node: {}, spaces: {} } };
  const keepMax = (into: Record<string, number>, from: Record<string, number>): void => {
    for (const [name, value] of Object.entries(from)) into[name] = Math.max(into[name] ?? 0, value);
  };
  const write = (): void => writeFileSync(target, `${JSON.stringify(report, null, 2)}\n`);
  const timer = setInterval(() => {
    const now = sample();
    report.samples += 1;
    if (report.samples % 10 === 0) {
      const { kernel, node, spaces } = now;
      report.series.push([Math.round((Date.now() - started) / 100) / 10, kernel.VmRSS, kernel.RssAnon, node.heapTotal, node.heapUsed, spaces.old_space?.used ?? 0, spaces.new_space?.size ?? 0, node.external, node.arrayBuffers]);
    }
    keepMax(report.max.kernel, now.kernel);
    keepMax(report.max.node, now.node);
    keepMax(report.max.spaces, Object.fromEntries(Object.entries(now.spaces).map(([name, space]) => [name, space.size])));
    if ((now.kernel.VmRSS ?? 0) > (report.atPeakRss.kernel.VmRSS ?? 0)) {
      report.atPeakRss = now;
      write();
    }
  }, 50);
  timer.unref();
  process.on('exit', write);
}
