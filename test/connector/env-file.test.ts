import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { META } from '../../connector/shop/order-meta';
import { TEST_ACCOUNT } from '../support/sandbox';
import { englishWords } from '../support/english-words';
import { eventually, portugueseOrder, startHarness, WEBHOOK_SECRET, type Harness } from './support/harness';
import { runCli } from './support/worker-process';

type Raw = Record<string, unknown>;

/**
 * Issue 31 (2): every command that reads the tenants file reads its .env the same way: `--env-file`,
 * else the .env beside the tenants file. The owner keeps the secrets there, as the docs say.
 */
describe('.env for every command that reads the tenants file (doctor, backfill, connector)', () => {
  let h: Harness;
  let dir: string;
  let tenantsPath: string;
  const secrets = (): Record<string, string> => ({ SHOP_CK: h.woo.consumerKey, SHOP_CS: h.woo.consumerSecret, SHOP_WH: WEBHOOK_SECRET, MF_TOKEN: TEST_ACCOUNT.token });
  const writeEnv = (path: string, values: Record<string, string>): void => writeFileSync(path, Object.entries(values).map(([key, value]) => `${key}="${value}"`).join('\n'));
  const writeTenants = (language: 'pt' | 'en'): void => {
    const raw = structuredClone(h.rawConfig);
    const tenant = (raw.tenants as Raw[])[0];
    tenant.shop = { ...(tenant.shop as Raw), consumerKey: '${SHOP_CK}', consumerSecret: { env: 'SHOP_CS' }, webhookSecret: '${SHOP_WH}' };
    tenant.invoicing = { ...(tenant.invoicing as Raw), token: '${MF_TOKEN}' };
    tenant.settings = { ...(tenant.settings as Raw), language };
    writeFileSync(tenantsPath, JSON.stringify(raw, null, 2));
  };

  beforeAll(async () => {
    h = await startHarness();
    dir = mkdtempSync(join(tmpdir(), 'mf-env-'));
    tenantsPath = join(dir, 'tenants.json');
  });
  afterAll(async () => {
    // The test's secrets never stay behind in the temp folder.
    rmSync(dir, { recursive: true, force: true });
    await h.close();
  });

  it('the doctor reads the .env beside the tenants file without being told; --env-file names another', async () => {
    writeTenants('en');
    writeEnv(join(dir, '.env'), secrets());
    const beside = await runCli(['doctor', '--config', tenantsPath], { SHOP_CK: '', SHOP_CS: '', SHOP_WH: '', MF_TOKEN: '' });
    expect(beside.stderr).toBe('');
    expect(beside.stdout).toMatch(/OK +REST key \(read\) +accepted/);
    expect(beside.stdout).toMatch(/OK +MagniFinance credentials +accepted/);

    rmSync(join(dir, '.env'));
    mkdirSync(join(dir, 'secrets'), { recursive: true });
    writeEnv(join(dir, 'secrets', 'loja.env'), secrets());
    const named = await runCli(['doctor', '--config', tenantsPath, '--env-file', join(dir, 'secrets', 'loja.env')], { SHOP_CK: '', SHOP_CS: '', SHOP_WH: '', MF_TOKEN: '' });
    expect(named.stdout).toMatch(/OK +REST key \(read\) +accepted/);
    rmSync(join(dir, 'secrets'), { recursive: true });
  }, 120_000);

  it('a backfill reads the .env beside the tenants file and its orders are invoiced', async () => {
    writeTenants('en');
    writeEnv(join(dir, '.env'), secrets());
    const order = h.woo.putOrder(portugueseOrder({ dateCreatedGmt: '2024-05-05T10:00:00' }));
    const run = await runCli(['backfill', '--config', tenantsPath, '--tenant', 'shop1', '--from', '2024-05-01', '--to', '2024-06-01', '--quiet'], { SHOP_CK: '', SHOP_CS: '', SHOP_WH: '', MF_TOKEN: '' });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('1 order scanned; 1 document queued to be issued.');
    await eventually('the backfilled order invoiced', () => h.woo.meta(Number(order.id), META.documentNumber));
  }, 120_000);

  it.each([
    ['doctor', ['doctor', '--config']],
    ['backfill', ['backfill', '--tenant', 'shop1', '--from', '2024-05-01', '--to', '2024-06-01', '--config']],
    ['connector', ['connector', 'all', '--config']],
  ])('%s: a variable missing from the .env is said in the tenants\' language (Portuguese), naming the .env it looked in; exit 2', async (_command, args) => {
    writeTenants('pt');
    const { MF_TOKEN: _left, ...rest } = secrets();
    writeEnv(join(dir, '.env'), rest);
    const run = await runCli([...args, tenantsPath], { MF_TOKEN: '' });
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(`${tenantsPath}: 1 problema`);
    expect(run.stderr).toContain(`tenants.0.invoicing.token: a variável de ambiente MF_TOKEN não está definida (procurada em ${join(dir, '.env')} e no ambiente do processo): acrescente MF_TOKEN=… ao ficheiro .env`);
    expect(englishWords(run.stderr.replace(/\S*[/.]\S*/g, ' ').replace(/\b[A-Z_]+\b/g, ' '))).toEqual([]);
  }, 60_000);

  it('the doctor\'s --lang en words the refusal in English', async () => {
    writeTenants('pt');
    const { MF_TOKEN: _left, ...rest } = secrets();
    writeEnv(join(dir, '.env'), rest);
    const run = await runCli(['doctor', '--config', tenantsPath, '--lang', 'en'], { MF_TOKEN: '' });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain(`tenants.0.invoicing.token: the environment variable MF_TOKEN is not set (looked in ${join(dir, '.env')} and in the process's environment)`);
  }, 60_000);

  it.each([
    ['doctor', ['doctor', '--config', 'tenants.yaml', '--bogus'], 'Usage: magnifinance doctor --config FILE'],
    ['backfill', ['backfill', '--config', 'tenants.yaml', '--form', '2024-01-01'], 'Usage: magnifinance backfill --config FILE'],
    ['connector', ['connector', 'all', '--config', 'tenants.yaml', '--envfile', '.env'], 'Usage: magnifinance connector <serve|work|all>'],
    ['partner', ['partner', 'add', '--taxid', '232013969'], 'Usage: magnifinance partner <add|tokens>'],
    ['month', ['month', '--config', 'tenants.yaml', '--tennant', 'shop1'], 'Usage: magnifinance month --config FILE'],
    ['sandbox', ['sandbox', '--prot', '4010'], 'Usage: magnifinance sandbox [options]'],
  ])('%s: an unknown option says which, with the usage line; exit 1', async (_command, args, usage) => {
    const run = await runCli(args);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(`Unknown option '${args.find((a) => ['--bogus', '--form', '--envfile', '--taxid', '--tennant', '--prot'].includes(a)) ?? ''}'`);
    expect(run.stderr).toContain(usage);
    expect(run.stderr).not.toContain('    at ');
  }, 60_000);
});
