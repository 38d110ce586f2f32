#!/usr/bin/env node
/**
 * Completes package-lock.json with the platform builds of optional native modules that the registry
 * reachable here does not serve (today: msgpackr-extract's darwin, win32 and linux-arm builds, an
 * optional dependency of bullmq's msgpackr). `npm install` silently leaves them out of the lock, and
 * then `npm ci` refuses the lock everywhere ("Missing: ... from lock file").
 *
 * For every optional dependency a locked package declares with an exact version and that has no
 * entry, this adds one with that version, `optional: true` and the os/cpu its name states
 * (`<pkg>-<os>-<cpu>`). No integrity hash can be computed without the tarball: on a machine of that
 * platform npm ci fetches the exact version from its registry and checks nothing else. On any other
 * platform npm ci skips the entry (os/cpu mismatch), exactly as it does for locked platform builds.
 *
 * Run by scripts/refresh-lock.sh; prints what it added; exits 1 when a missing entry cannot be
 * completed honestly (a range instead of an exact version, or no os/cpu in the name).
 */
import { readFileSync, writeFileSync } from 'node:fs';

const LOCK = new URL('../package-lock.json', import.meta.url);
const OSES = new Set(['darwin', 'linux', 'win32', 'freebsd', 'openbsd', 'sunos', 'aix', 'android', 'netbsd', 'openharmony']);
const CPUS = new Set(['x64', 'arm64', 'arm', 'ia32', 'ppc64', 's390x', 'riscv64', 'loong64', 'mips64el']);

const lock = JSON.parse(readFileSync(LOCK, 'utf8'));
const packages = lock.packages;
const added = [];
const problems = [];

/** Where node would resolve `name` from the package at `from` (its own node_modules, then upwards). */
function resolves(from, name) {
  let dir = from;
  for (;;) {
    const candidate = dir === '' ? `node_modules/${name}` : `${dir}/node_modules/${name}`;
    if (packages[candidate]) return true;
    if (dir === '') return false;
    const cut = dir.lastIndexOf('/node_modules/');
    dir = cut < 0 ? '' : dir.slice(0, cut);
  }
}

for (const [path, entry] of Object.entries(packages)) {
  for (const [name, spec] of Object.entries(entry.optionalDependencies ?? {})) {
    if (resolves(path, name)) continue;
    const parts = name.split('/').pop().split('-');
    const [os, cpu] = parts.slice(-2);
    if (!/^\d+\.\d+\.\d+$/.test(spec) || !OSES.has(os) || !CPUS.has(cpu)) {
      problems.push(`${path || '(root)'} -> ${name}@${spec}`);
      continue;
    }
    const at = `node_modules/${name}`;
    packages[at] = { version: spec, license: packages[path].license, optional: true, os: [os], cpu: [cpu] };
    added.push(`${name}@${spec} (${os}/${cpu})`);
  }
}

if (problems.length > 0) {
  console.error(`complete-lock: cannot complete these optional dependencies:\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
// npm's own order (localeCompare in 'en'), so a refresh leaves a small diff.
lock.packages = Object.fromEntries(Object.entries(packages).sort(([a], [b]) => a.localeCompare(b, 'en')));
writeFileSync(LOCK, `${JSON.stringify(lock, null, 2)}\n`);
console.log(added.length ? `complete-lock: added ${added.join(', ')}` : 'complete-lock: nothing missing');
