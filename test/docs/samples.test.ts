import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import ts from 'typescript';
import { parse as parseYaml } from 'yaml';
import { AlertsSchema } from '../../connector/alerts/alert-settings';
import { parseConfigText } from '../../connector/config/load-config';
import { startTestSandbox, type RunningSandbox } from '../support/sandbox';
import { cliNodeArgs } from '../support/cli-process';
import { compileProgram } from '../support/compile-program';

/**
 * Every code sample of README.md and docs/*.md, checked the way a reader would use it:
 * - ```ts: run as a program against a sandbox over HTTP, exit 0 and nothing on stderr (compiled
 *   with its imports by esbuild, types stripped as ts-node --transpile-only strips them, in a
 *   fraction of ts-node's start), and type-checked together with the others (strict). The package names resolve to this
 *   checkout: `magnifinance-woocommerce` to client/index.ts, whose build is the package's `main`.
 * - ```ts fragment: a piece of a program (it uses names it does not define): valid TypeScript syntax.
 * - ```sh / ```bash: every `npm run X` / `npm test` names a script of package.json, every
 *   `magnifinance <command> --flag` a command and flags its --help lists.
 * - ```yaml: parses; a tenants file loads with the connector's schema, an `alerts:` block with its own.
 * - ```json: parses.
 * A fence without a language (output, layouts, usage texts) is not code and is not checked.
 */

const ROOT = resolve(__dirname, '../..');
const exec = promisify(execFile);

interface Sample {
  where: string;
  lang: string;
  fragment: boolean;
  code: string;
}

function samplesOf(file: string): Sample[] {
  const lines = readFileSync(join(ROOT, file), 'utf8').split('\n');
  const found: Sample[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\w+)?(.*)$/.exec(lines[i]);
    if (!open) continue;
    const end = lines.findIndex((line, j) => j > i && line.startsWith('```'));
    if (end < 0) throw new Error(`${file}:${i + 1}: a code fence is never closed`);
    if (open[1]) found.push({ where: `${file}:${i + 1}`, lang: open[1], fragment: /\bfragment\b/.test(open[2]), code: lines.slice(i + 1, end).join('\n') });
    i = end;
  }
  return found;
}

const FILES = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)];
const SAMPLES = FILES.flatMap(samplesOf);
const byLang = (...langs: string[]) => SAMPLES.filter((s) => langs.includes(s.lang));
const programs = byLang('ts').filter((s) => !s.fragment);
const KNOWN = new Set(['ts', 'sh', 'bash', 'yaml', 'json']);

/** The package names a reader installs, as this checkout provides them. */
function resolvedHere(code: string): string {
  return code.replace(/from 'magnifinance-woocommerce'/g, `from ${JSON.stringify(join(ROOT, 'client'))}`);
}

it('every fenced sample has a language this test checks (or none, for output and layouts)', () => {
  expect(SAMPLES.filter((s) => !KNOWN.has(s.lang)).map((s) => `${s.where} ${s.lang}`)).toEqual([]);
  expect(programs.length).toBeGreaterThanOrEqual(3);
});

it("the package's main entry is client/index.ts built (what `magnifinance-woocommerce` resolves to here)", () => {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string; main: string };
  expect(pkg).toMatchObject({ name: 'magnifinance-woocommerce', main: 'dist/client/index.js' });
  // No sample imports a package that has no such entry (the n8n package has only its node and credential).
  for (const sample of byLang('ts')) expect(`${sample.where}\n${sample.code}`).not.toMatch(/from 'n8n-nodes-magnifinance/);
});

describe('```ts fragment samples are valid TypeScript', () => {
  it.each(byLang('ts').filter((s) => s.fragment).map((s) => [s.where, s] as const))('%s', (_where, sample) => {
    const out = ts.transpileModule(sample.code, { reportDiagnostics: true, compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 } });
    expect((out.diagnostics ?? []).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'))).toEqual([]);
  });
});

describe('```ts samples run as written against the sandbox', () => {
  // Concurrent tests start before beforeAll hooks finish in Jest: they share one lazily started setup.
  let setup: Promise<{ sandbox: RunningSandbox; dir: string; files: Map<string, string>; compiled: Map<string, string> }> | undefined;
  const ready = () =>
    (setup ??= (async () => {
      const sandbox = await startTestSandbox({ finalizeDelayMs: 10_000 });
      const dir = mkdtempSync(join(ROOT, '.doc-samples-'));
      const files = new Map<string, string>();
      const compiled = new Map<string, string>();
      programs.forEach((sample, i) => {
        const file = join(dir, `sample-${i}.ts`);
        writeFileSync(file, resolvedHere(sample.code));
        files.set(sample.where, file);
        compileProgram(file, join(dir, `sample-${i}.js`));
        compiled.set(sample.where, join(dir, `sample-${i}.js`));
      });
      return { sandbox, dir, files, compiled };
    })());
  afterAll(async () => {
    if (!setup) return;
    const { sandbox, dir } = await setup;
    rmSync(dir, { recursive: true, force: true });
    await sandbox.close();
  });

  it('type-check together under the project\'s strict settings', async () => {
    const { dir, files } = await ready();
    // tsc in a child process: compiled here, the type check would hold this process (and the sandbox
    // the running samples are calling) for tens of seconds on a loaded machine.
    const project = join(dir, 'tsconfig.json');
    writeFileSync(project, JSON.stringify({ extends: join(ROOT, 'tsconfig.json'), compilerOptions: { noEmit: true, noUnusedLocals: false }, files: [...files.values()], include: [] }));
    const checked = await exec(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', project, '--pretty', 'false'], { cwd: ROOT }).then(
      () => ({ status: 0, problems: [] as string[] }),
      (error: { code?: number; stdout?: string }) => ({ status: error.code ?? 1, problems: (error.stdout ?? '').split('\n').filter(Boolean).map((line) => line.replace(dir, '')) }),
    );
    expect(checked).toEqual({ status: 0, problems: [] });
  }, 120_000);

  it.concurrent.each(programs.map((s) => [s.where, s] as const))('%s', async (where) => {
    const { sandbox, compiled } = await ready();
    const { stdout, stderr } = await exec(process.execPath, [compiled.get(where) as string], {
      cwd: ROOT,
      env: { ...process.env, MAGNIFINANCE_BASE_URL: sandbox.baseUrl, MAGNIFINANCE_EMAIL: 'demo@example.com', MAGNIFINANCE_TOKEN: 'sandbox-token' },
      timeout: 150_000,
    });
    expect(stderr.replace(/npm warn.*\n/g, '')).toBe('');
    if (where.startsWith('README.md')) {
      // The README promises the number, the link and the total as 20.00, and a total that serialises to JSON.
      const lines = stdout.trim().split('\n');
      expect(lines[0]).toMatch(/^FR A\/\d+ http:\/\/127\.0\.0\.1:\d+\/_files\/documents\/\d+\.pdf\?\S+ 20\.00$/);
      expect(lines[1]).toBe('{"total":"20.00"}');
    }
  }, 180_000);
});

describe('```sh and ```bash samples name commands that exist', () => {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  const cli = (args: string[]) => exec(process.execPath, cliNodeArgs(args), { cwd: ROOT, timeout: 60_000 });

  it.each(byLang('sh', 'bash').map((s) => [s.where, s] as const))('%s', async (_where, sample) => {
    const commands = sample.code
      .replace(/\\\n\s*/g, ' ')
      .split('\n')
      .map((line) => line.replace(/\s+#.*$/, '').trim())
      .filter((line) => line && !line.startsWith('#'))
      .flatMap((line) => line.split(/&&|;|\|\|/).map((part) => part.replace(/^\(|\)$/g, '').trim()));
    for (const command of commands) {
      const script = /^npm (?:run |run-script )?(\S+)/.exec(command);
      if (script && !['ci', 'install', 'pack', 'i'].includes(script[1])) expect(Object.keys(pkg.scripts)).toContain(script[1]);
      const magnifinance = /^(?:npx )?magnifinance (\S+)(.*)$/.exec(command);
      if (magnifinance) {
        const help = (await cli([magnifinance[1], '--help'])).stdout;
        for (const flag of magnifinance[2].match(/--[a-z-]+/g) ?? []) expect(help).toContain(flag);
      }
    }
  }, 120_000);
});

describe('```yaml and ```json samples parse, and configuration loads with its schema', () => {
  it.each(byLang('yaml', 'json').map((s) => [s.where, s] as const))('%s', (where, sample) => {
    if (sample.lang === 'json') return void JSON.parse(sample.code);
    const data = parseYaml(sample.code) as Record<string, unknown>;
    if ('tenants' in data) {
      // Secrets are references to the environment: every ${NAME} and { env: NAME } gets a value.
      const names = [...sample.code.matchAll(/\$\{(\w+)\}|env: (\w+)/g)].map((m) => m[1] ?? m[2]);
      parseConfigText(sample.code, where, Object.fromEntries(names.map((name) => [name, `value-of-${name}`])));
    } else if ('alerts' in data) {
      expect(AlertsSchema.safeParse(data.alerts).error?.issues ?? []).toEqual([]);
    }
  });
});
