import { chatFormatOf } from '../../connector/alerts/alert-settings';
import { webhookPayload } from '../../connector/alerts/channels';
import { escapeForChat, textOf, type Digest } from '../../connector/alerts/digest';
import { renderDoctorReport } from '../../connector/doctor/render';
import type { DoctorReport } from '../../connector/doctor/run-doctor';
import { plainText, stripUnsafe } from '../../law/text';
import { eventually, portugueseOrder, startHarness } from './support/harness';

const ESC = '\u001b';

describe('what no certified document, note or alert carries (law/text.ts)', () => {
  it.each([
    ['NUL', 'Ana\u0000Silva', 'AnaSilva'],
    ['a bell and DEL', 'Ana\u0007\u007fSilva', 'AnaSilva'],
    ['a C1 control', 'Ana\u0085Silva', 'AnaSilva'],
    ['a right-to-left override (Trojan Source)', 'Fatura \u202eFDP.exe\u202c', 'Fatura FDP.exe'],
    ['isolates and marks', '\u2066Ana\u2069 \u200fSilva\u200e \u061c', 'Ana Silva'],
    ['a lone high surrogate', 'Ana\ud800 Silva', 'Ana Silva'],
    ['a lone low surrogate', 'Ana \udc00Silva', 'Ana Silva'],
    ['a terminal colour (CSI)', `${ESC}[31mRed${ESC}[0m`, 'Red'],
    ['a terminal title (OSC)', `${ESC}]0;pwned\u0007Ana`, 'Ana'],
    ['a byte-order mark', '\ufeffAna', 'Ana'],
    ['a line separator', 'Rua A\u2028Porto', 'Rua A Porto'],
  ])('%s is removed', (_what, input, expected) => {
    expect(plainText(input)).toBe(expected);
  });

  it.each([
    ['accents', 'Conceição Gonçalves', 'Conceição Gonçalves'],
    ['an emoji (a valid surrogate pair)', 'Loja 😀', 'Loja 😀'],
    ['Arabic and Hebrew letters', 'شركة חברה', 'شركة חברה'],
  ])('%s stay', (_what, input, expected) => {
    expect(plainText(input)).toBe(expected);
  });

  it('notes keep their lines and tabs, lose the rest', () => {
    expect(stripUnsafe('Porquê: a\u0000b\r\nO que fazer:\tc\u202e', 'keep-lines')).toBe('Porquê: ab\nO que fazer:\tc');
  });

  it('an order whose buyer typed NUL, a bidi override and half a character: the certified invoice carries none of them', async () => {
    const h = await startHarness();
    try {
      const order = portugueseOrder({
        billing: { first_name: 'Maria\u0000', last_name: 'Silva \u202egnp.exe', company: 'Loja\ud800 Lda', address_1: `Rua das Flores 12${ESC}[2J`, city: 'Porto\u0085', postcode: '4050-262', country: 'PT', email: 'maria.silva@example.pt', phone: '912345678' },
      });
      const id = Number(order.id);
      expect((await h.deliver(order)).status).toBe(202);
      await eventually('written back', async () => (await h.connector?.ledger.get({ tenant: 'shop1', orderId: id, purpose: 'invoice' }))?.state === 'written-back');
      const [doc] = await h.documentsOf(id);
      const stored = JSON.stringify(doc);
      // Every string the service stored for the document (client block, lines, description).
      expect(stored).not.toMatch(/\\u0000|\\u001b|\\u0085|\\u202e|\\ud800/i);
      expect(stored).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
      for (const note of h.woo.notes(id)) expect(note.note).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
    } finally {
      await h.close();
    }
  }, 30_000);

  it('entity-encoded markup in the buyer\'s fields (&lt;img onerror&gt;) reaches the certified invoice as neither a live tag nor its entities', async () => {
    const h = await startHarness();
    try {
      const order = portugueseOrder({
        billing: { first_name: 'Maria &lt;img src=x onerror=alert(1)&gt;', last_name: 'Silva', company: '', address_1: 'Rua &#60;script&#62;x&#60;/script&#62; 12', city: 'Porto', postcode: '4050-262', country: 'PT', email: 'maria.silva@example.pt', phone: '912345678' },
      });
      const id = Number(order.id);
      expect((await h.deliver(order)).status).toBe(202);
      await eventually('written back', async () => (await h.connector?.ledger.get({ tenant: 'shop1', orderId: id, purpose: 'invoice' }))?.state === 'written-back');
      const [doc] = await h.documentsOf(id);
      const stored = JSON.stringify(doc);
      expect(stored).not.toMatch(/<img|onerror|<script|&lt;|&#60;/i);
      expect(stored).toContain('Maria Silva');
    } finally {
      await h.close();
    }
  }, 30_000);
});

describe('customer text in alerts is escaped for the chat that shows it', () => {
  it.each([
    ['slack', '<!channel> look', '&lt;!channel&gt; look'],
    ['slack', '<https://evil.example|MagniFinance login>', '&lt;https://evil.example|MagniFinance login&gt;'],
    ['slack', 'ping <@U123ABC> & co', 'ping &lt;@U123ABC&gt; &amp; co'],
    ['teams', '[MagniFinance login](https://evil.example)', '\\[MagniFinance login\\]\\(https://evil.example\\)'],
    ['teams', '<at>Everyone</at> **now**', '&lt;at&gt;Everyone&lt;/at&gt; \\*\\*now\\*\\*'],
    ['plain', '<!channel> [x](y)', '<!channel> [x](y)'],
    ['plain', `${ESC}[31mred\u202e`, 'red'],
  ] as const)('%s: %j', (format, input, expected) => {
    expect(escapeForChat(input, format)).toBe(expected);
  });

  it.each([
    ['https://hooks.slack.com/services/T/B/x', 'slack'],
    ['https://acme.webhook.office.com/webhookb2/x', 'teams'],
    ['https://prod-12.westeurope.logic.azure.com/workflows/x', 'teams'],
    ['https://n8n.example.pt/webhook/alerts', 'plain'],
  ] as const)('%s is read as %s', (url, format) => {
    expect(chatFormatOf(url)).toBe(format);
  });

  it("a digest whose reason quotes a customer's name: our link stays a link, the customer's markup is text", () => {
    const digest: Digest = {
      tenant: 'loja1',
      lang: 'en',
      orders: [{ orderId: 7, purpose: 'invoice', state: 'held', reason: 'buyer <!channel> <https://evil.example|pay here>', fix: `check ${ESC}[2Jthe order`, link: 'https://connector.example.pt/console/loja1/orders/7', since: '2026-11-24T10:00:00Z' }],
      webhooks: [],
      more: 0,
      attentionLink: 'https://connector.example.pt/admin/api/attention',
    };
    const slack = webhookPayload(digest, 'slack').text as string;
    expect(slack).toContain('buyer &lt;!channel&gt; &lt;https://evil.example|pay here&gt;');
    expect(slack).toContain('  Order page: https://connector.example.pt/console/loja1/orders/7');
    expect(slack).not.toContain(ESC);
    // E-mail is plain text: nothing to escape, still nothing unsafe.
    expect(textOf(digest)).toContain('buyer <!channel>');
    expect(textOf(digest)).not.toContain(ESC);
  });
});

describe("the doctor's output carries no terminal escapes from order data", () => {
  it('a check detail and a dry-run note with escape sequences print as plain text', () => {
    const report = {
      ready: false,
      redis: [{ area: 'redis', name: 'ping', status: 'ok', detail: 'PONG' }],
      tenants: [
        {
          tenant: 'loja1',
          shop: 'https://loja1.example.pt',
          checks: [{ area: 'shop', name: 'orders', status: 'fail', detail: `order by ${ESC}]0;pwned\u0007${ESC}[2JAna\u202e`, fix: `ask ${ESC}[31mAna\u0000` }],
          dryRun: [{ orderId: 9, status: 'processing', outcome: 'hold', notes: [`name ${ESC}[8mhidden${ESC}[0m`], shopTotal: '10.00', currency: 'EUR', exemptionCodes: [] }],
        },
      ],
    } as unknown as DoctorReport;
    const out = renderDoctorReport(report, 'tenants.yaml');
    expect(out).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e]/);
    expect(out).toContain('order by Ana');
    expect(out).toContain('name hidden');
  });
});
