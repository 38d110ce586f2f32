import { fail, isReady, ok, warn, type Check, type TenantReport } from '../../connector/doctor/check';
import { renderDoctorReport } from '../../connector/doctor/render';
import type { DoctorReport } from '../../connector/doctor/run-doctor';
import { englishWords } from '../support/english-words';

/** Issue 31 (6): an agency's 30 shops at a glance. */
function agencyReport(): DoctorReport {
  const healthy = (): Check[] => [
    ok('shop', { en: 'REST key (read)', pt: 'Chave REST (leitura)' }, { en: 'accepted', pt: 'aceite' }),
    warn('webhooks', { en: 'webhook secret', pt: 'Segredo do webhook' }, { en: 'could not check', pt: 'não foi possível verificar' }, { en: 'look in WooCommerce', pt: 'veja no WooCommerce' }),
  ];
  const tenants: TenantReport[] = Array.from({ length: 30 }, (_, index) => {
    const checks = healthy();
    if (index === 6) checks.unshift(fail('shop', { en: 'REST key (write)', pt: 'Chave REST (escrita)' }, { en: 'read-only', pt: 'só de leitura' }, { en: 'set Read/Write', pt: 'defina Leitura/Escrita' }));
    if (index === 11) checks.pop();
    return { tenant: `loja${index + 1}`, shop: `https://loja${index + 1}.example.pt`, ready: isReady(checks), checks };
  });
  return { ready: tenants.every((t) => t.ready), redis: [ok('redis', { en: 'Redis reachable', pt: 'Redis acessível' }, 'redis://127.0.0.1:6379')], tenants };
}

describe('the doctor over 30 shops: one line per shop, problems only', () => {
  it('--summary: one line per shop and one for Redis, the failed checks named, then the verdict', () => {
    const text = renderDoctorReport(agencyReport(), 'tenants.yaml', 'pt', 'summary');
    const lines = text.trimEnd().split('\n');
    // Header, blank, Redis, 30 shops, blank, verdict.
    expect(lines).toHaveLength(35);
    expect(lines.filter((line) => /^ {2}(PRONTO|NÃO ESTÁ PRONTO) +loja\d+ /.test(line))).toHaveLength(30);
    expect(text).toMatch(/NÃO ESTÁ PRONTO +loja7 +1 problema, 1 aviso: Chave REST \(escrita\) +https:\/\/loja7\.example\.pt/);
    expect(text).toMatch(/PRONTO +loja12 +sem problemas nem avisos/);
    expect(lines.at(-1)).toBe('NÃO ESTÁ PRONTO (1 problema, 29 avisos)');
    expect(englishWords(text.replace(/\S*[./]\S*/g, ' '))).toEqual([]);
  });

  it('--problems: only the checks that are not OK; shops without any are counted, not shown', () => {
    const text = renderDoctorReport(agencyReport(), 'tenants.yaml', 'en', 'problems');
    expect(text).not.toMatch(/^ {2}OK /m);
    expect(text).toContain('FAIL  REST key (write)');
    expect(text).not.toContain('Tenant loja12 ');
    expect(text).toContain('1 shop without a problem or a warning left out');
    expect(text.split('\n').length).toBeLessThan(renderDoctorReport(agencyReport(), 'tenants.yaml', 'en').split('\n').length);
    expect(text).toContain('NOT READY (1 problem, 29 warnings):\n  - loja7: REST key (write): set Read/Write');
  });
});
