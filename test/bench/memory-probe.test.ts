import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MemoryProbeReport } from '../../bench/memory-probe';

/**
 * Issue 29 (peak RSS): the bench's memory probe, preloaded into a process, says where its resident
 * set went: the kernel's split (anonymous, file), Node's heap and buffers, V8's spaces, and a series
 * over time. Checked in a process that holds 48 MB of JavaScript objects and 16 MB of buffers.
 */
const REPO = join(__dirname, '..', '..');
const PROBE = join(REPO, 'bench', 'memory-probe.ts');

function run(script: string, env: NodeJS.ProcessEnv): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--require', 'ts-node/register/transpile-only', '--require', PROBE, '-e', script], { cwd: REPO, env: { ...process.env, ...env, TS_NODE_TRANSPILE_ONLY: 'true' }, stdio: ['ignore', 'ignore', 'inherit'] });
    child.once('error', reject);
    child.once('exit', resolve);
  });
}

// Holds the memory until the probe's file shows a series point, then exits (a condition, not a sleep).
const HOLDER = `
const { readFileSync } = require('node:fs');
const held = Array.from({ length: 48 }, (_, i) => new Array(131072).fill(i + 0.5));
const buffers = Array.from({ length: 16 }, () => Buffer.alloc(1048576, 1));
const seen = () => { try { return JSON.parse(readFileSync(process.env.BENCH_MEMORY_PROBE, 'utf8')).series.length > 0; } catch { return false; } };
const timer = setInterval(() => { if (seen()) { clearInterval(timer); globalThis.kept = [held.length, buffers.length]; } }, 20);
`;

describe('issue 29: the bench memory probe', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'mf-memory-probe-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('writes where the peak resident set went', async () => {
    const file = join(dir, 'probe.json');
    expect(await run(HOLDER, { BENCH_MEMORY_PROBE: file })).toBe(0);
    const report = JSON.parse(readFileSync(file, 'utf8')) as MemoryProbeReport;
    const { kernel, node, spaces } = report.atPeakRss;
    // The kernel's split adds up to the resident set (to the rounding of each figure).
    expect(Math.abs(kernel.RssAnon + kernel.RssFile + kernel.RssShmem - kernel.VmRSS)).toBeLessThan(1);
    expect(kernel.VmHWM).toBeGreaterThanOrEqual(kernel.VmRSS);
    // 48 arrays of 131,072 doubles (1 MB each) on the heap, 16 MB of buffers outside it.
    expect(report.max.node.heapUsed).toBeGreaterThanOrEqual(48);
    expect(report.max.node.arrayBuffers).toBeGreaterThanOrEqual(16);
    expect(node.heapTotal).toBeGreaterThanOrEqual(node.heapUsed);
    expect(Object.keys(spaces)).toEqual(expect.arrayContaining(['new_space', 'old_space', 'code_space']));
    expect(report.series.length).toBeGreaterThan(0);
    expect(report.series[0]).toHaveLength(9);
    expect(report.samples).toBeGreaterThanOrEqual(10);
  });

  it('does nothing, and keeps no process alive, without BENCH_MEMORY_PROBE', async () => {
    expect(await run('globalThis.x = 1;', { BENCH_MEMORY_PROBE: '' })).toBe(0);
  });
});
