import { startHarness, type Harness } from './support/harness';

const AUTH = `Basic ${Buffer.from('admin:admin-pw').toString('base64')}`;

describe('cross-site posts cannot reach the admin API or Bull Board (JSON only, Origin and Sec-Fetch-Site checked)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => h.close());

  const post = (path: string, headers: Record<string, string>, body?: string) => fetch(`${h.connector?.origin}${path}`, { method: 'POST', headers: { authorization: AUTH, ...headers }, body });

  it.each([
    ['a cross-site form (urlencoded)', 415, { 'content-type': 'application/x-www-form-urlencoded' }, 'tenant=shop1'],
    ['a cross-site form (multipart)', 415, { 'content-type': 'multipart/form-data; boundary=x' }, '--x--'],
    ['a cross-site form (text/plain)', 415, { 'content-type': 'text/plain' }, '{"tenant":"shop1"}'],
    ['a JSON post from another site', 403, { 'content-type': 'application/json', origin: 'https://evil.example' }, '{}'],
    ['a no-cors fetch from another site (no body, Origin sent)', 403, { origin: 'https://evil.example' }, undefined],
    ['a post from an opaque origin', 403, { 'content-type': 'application/json', origin: 'null' }, '{}'],
    ['a browser saying cross-site', 403, { 'content-type': 'application/json', 'sec-fetch-site': 'cross-site' }, '{}'],
    ['a malformed Origin', 400, { 'content-type': 'application/json', origin: 'http://[' }, '{}'],
    ['curl with JSON', 200, { 'content-type': 'application/json' }, '{"tenant":"shop1"}'],
    ['curl with no body', 200, {}, undefined],
  ])('POST /admin/api/sweep: %s -> %i', async (_what, status, headers, body) => {
    const answer = await post('/admin/api/sweep', headers as Record<string, string>, body);
    expect(answer.status).toBe(status);
    if (status >= 400) expect(((await answer.json()) as { error: string }).error).toEqual(expect.any(String));
  });

  it('our own page (same Origin) still posts', async () => {
    const host = new URL(h.connector?.origin as string).host;
    expect((await post('/admin/api/sweep', { 'content-type': 'application/json', origin: `http://${host}`, 'sec-fetch-site': 'same-origin' }, '{}')).status).toBe(200);
  });

  it('retry of an order: a cross-site form is refused before anything is done', async () => {
    expect((await post('/admin/api/orders/shop1/5/retry', { 'content-type': 'application/x-www-form-urlencoded' }, '')).status).toBe(415);
    expect((await post('/admin/api/orders/shop1/5/retry', { origin: 'https://evil.example' })).status).toBe(403);
  });

  it("Bull Board's add-job from another site is refused and adds nothing; from its own page it is accepted", async () => {
    const before = await h.connector?.queue.count();
    const forged = await post('/admin/queues/api/queues/documents/add', { 'content-type': 'application/json', origin: 'https://evil.example' }, JSON.stringify({ name: 'x', data: {} }));
    expect(forged.status).toBe(403);
    const form = await post('/admin/queues/api/queues/documents/add', { 'content-type': 'text/plain' }, JSON.stringify({ name: 'x', data: {} }));
    expect(form.status).toBe(415);
    expect(await h.connector?.queue.count()).toBe(before);
    const host = new URL(h.connector?.origin as string).host;
    const own = await post('/admin/queues/api/queues/documents/add', { 'content-type': 'application/json', origin: `http://${host}` }, JSON.stringify({ name: 'probe', data: {} }));
    expect([403, 415]).not.toContain(own.status);
  });

  it('the console answers a malformed Origin with a reason, not 500', async () => {
    const answer = await post('/console/shop1/orders/5/retry', { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://[' }, 'purpose=invoice&csrf=x');
    expect(answer.status).toBe(403);
    expect(await answer.text()).toContain('Origin header is not a valid origin');
  });
});
