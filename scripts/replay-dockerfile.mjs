#!/usr/bin/env node
/**
 * Replays the Dockerfile without a Docker engine (CI has none): every stage's WORKDIR, ENV, COPY
 * (including COPY --from=<stage>) and RUN step runs in its own temp root, in the Dockerfile's order,
 * from the committed files of this checkout (`git archive HEAD`, the same files a clean clone has).
 * Then it starts the last stage's ENTRYPOINT with `--help` and `connector --help` and checks both
 * answer. The base image is not replayed: the host's Node must have the image's major version.
 *
 *   node scripts/replay-dockerfile.mjs            # keeps nothing; exits 1 on the first failing step
 *
 * What it cannot check: the image's OS packages (node:<major>-bookworm-slim) and USER/HEALTHCHECK.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const scratch = mkdtempSync(join(tmpdir(), 'dockerfile-replay-'));
const context = join(scratch, 'context');
mkdirSync(context);
execFileSync('bash', ['-c', `git -C "${repo}" archive HEAD | tar -x -C "${context}"`], { stdio: 'inherit' });

/** Dockerfile instructions, continuation lines joined, comments dropped. */
function instructions(text) {
  const out = [];
  let current = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (current === '' && (line === '' || line.startsWith('#'))) continue;
    current += (current ? ' ' : '') + line.replace(/\\$/, '').trim();
    if (!line.endsWith('\\')) {
      const [, op, args] = /^(\S+)\s*(.*)$/.exec(current);
      out.push({ op: op.toUpperCase(), args });
      current = '';
    }
  }
  return out;
}

function words(args) {
  return args.startsWith('[') ? JSON.parse(args) : args.split(/\s+/);
}

const stages = new Map();
let stage;
let entrypoint = [];
const fail = (message) => {
  console.error(`replay-dockerfile: ${message}`);
  rmSync(scratch, { recursive: true, force: true });
  process.exit(1);
};

for (const { op, args } of instructions(readFileSync(join(context, 'Dockerfile'), 'utf8'))) {
  switch (op) {
    case 'FROM': {
      const [image, , name] = args.split(/\s+/);
      const major = /^node:(\d+)/.exec(image)?.[1];
      if (!major) fail(`base image ${image} is not a node image; cannot replay it`);
      if (process.versions.node.split('.')[0] !== major) fail(`base image ${image} but this Node is ${process.version}`);
      // RUN steps use this very Node (CI runs the replay with the image's major, e.g. a Node 24 binary).
      const path = `${dirname(process.execPath)}:${process.env.PATH ?? ''}`;
      stage = { name: name ?? `stage${stages.size}`, root: join(scratch, `stage${stages.size}`), workdir: '/', env: { ...process.env, PATH: path } };
      mkdirSync(stage.root);
      stages.set(stage.name, stage);
      console.log(`\n== FROM ${image}${name ? ` AS ${name}` : ''} (replayed in ${stage.root})`);
      break;
    }
    case 'WORKDIR':
      stage.workdir = resolve(stage.workdir, args);
      mkdirSync(join(stage.root, stage.workdir), { recursive: true });
      break;
    case 'ENV': {
      const m = /^(\S+?)[= ]"?(.*?)"?$/.exec(args);
      stage.env[m[1]] = m[2];
      break;
    }
    case 'COPY': {
      const parts = words(args);
      const fromFlag = parts[0].startsWith('--from=') ? parts.shift().slice('--from='.length) : undefined;
      const dest = parts.pop();
      const fromRoot = fromFlag ? stages.get(fromFlag)?.root : context;
      if (!fromRoot) fail(`COPY --from=${fromFlag}: no such stage`);
      const target = join(stage.root, resolve(stage.workdir, dest));
      for (const src of parts) {
        const source = fromFlag ? join(fromRoot, resolve('/', src)) : join(fromRoot, src);
        const into = dest.endsWith('/') && src !== '.' ? join(target, src.split('/').pop()) : target;
        console.log(`COPY ${fromFlag ? `--from=${fromFlag} ` : ''}${src} -> ${dest}`);
        cpSync(source, into, { recursive: true });
      }
      break;
    }
    case 'RUN': {
      console.log(`RUN ${args}`);
      const cwd = join(stage.root, stage.workdir);
      const run = spawnSync('bash', ['-c', args], { cwd, env: stage.env, stdio: 'inherit' });
      if (run.status !== 0) fail(`RUN ${args} exited with ${run.status}`);
      break;
    }
    case 'ENTRYPOINT':
      entrypoint = words(args);
      break;
    default:
      console.log(`${op} (not replayed)`);
  }
}

const cwd = join(stage.root, stage.workdir);
for (const extra of [['--help'], ['connector', '--help']]) {
  const [command, ...rest] = [...entrypoint, ...extra];
  const started = spawnSync(command === 'node' ? process.execPath : command, [...rest], { cwd, env: stage.env, encoding: 'utf8', timeout: 30_000 });
  const text = `${started.stdout}${started.stderr}`;
  if (started.status !== 0 || !/usage/i.test(text)) fail(`ENTRYPOINT ${[command, ...rest].join(' ')} exited ${started.status}:\n${text}`);
  console.log(`ENTRYPOINT ${[command, ...rest].join(' ')}: ok\n${text.split('\n').slice(0, 3).join('\n')}`);
}
rmSync(scratch, { recursive: true, force: true });
console.log('replay-dockerfile: every build step passed and the entrypoint starts');
