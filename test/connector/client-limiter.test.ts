import { ClientLimiter, requestClient } from '../../connector/core/client-limiter';
import { LOGIN_POLICY } from '../../connector/admin/login-limiter';

/** A clock the test moves. */
function clock(start = 1_700_000_040_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

const client = (address: string, peer = '10.0.0.1') => ({ address, peer });

describe('one limiter for the login and the PDF links, keyed the same way', () => {
  it('a client is its address (X-Forwarded-For as Express resolved it) and its TCP peer', () => {
    expect(requestClient({ ip: '203.0.113.7', socket: { remoteAddress: '10.0.0.1' } })).toEqual({ address: '203.0.113.7', peer: '10.0.0.1' });
    expect(requestClient({ socket: { remoteAddress: '10.0.0.1' } })).toEqual({ address: '10.0.0.1', peer: '10.0.0.1' });
  });

  describe('the login: free guesses, then a wait that doubles', () => {
    it('5 wrong guesses are free; the 6th sets a 1 s wait, the 7th 2 s; a right login clears the address', () => {
      const c = clock();
      const limiter = new ClientLimiter(LOGIN_POLICY, c.now);
      const me = client('203.0.113.7');
      for (let i = 0; i < 5; i++) expect(limiter.count(me)).toBe(0);
      expect(limiter.count(me)).toBe(1_000);
      c.advance(1_000);
      expect(limiter.waitFor(me)).toBe(0);
      expect(limiter.count(me)).toBe(2_000);
      limiter.clear(me);
      expect(limiter.waitFor(me)).toBe(0);
    });

    it('a client forging a new X-Forwarded-For every time meets its peer\'s limit (20 times the address\'s)', () => {
      const limiter = new ClientLimiter(LOGIN_POLICY, clock().now);
      const waits = Array.from({ length: 101 }, (_, i) => limiter.count(client(`192.0.2.${i}`)));
      expect(waits.slice(0, 100).every((wait) => wait === 0)).toBe(true);
      expect(waits[100]).toBeGreaterThan(0);
      expect(limiter.waitFor(client('198.51.100.1'))).toBeGreaterThan(0);
      // Another peer is not affected.
      expect(limiter.waitFor(client('198.51.100.1', '10.0.0.2'))).toBe(0);
    });
  });

  describe('the PDF links: visits per minute, in fixed windows', () => {
    const policy = { free: 30, peerFactor: 20, wait: { kind: 'window', windowMs: 60_000 } } as const;

    it('30 visits a minute; the 31st waits for the next minute, which starts afresh', () => {
      const c = clock(1_700_000_080_000); // 20 s before a minute ends
      const limiter = new ClientLimiter(policy, c.now);
      const me = client('203.0.113.7');
      for (let i = 0; i < 30; i++) expect(limiter.count(me)).toBe(0);
      expect(limiter.count(me)).toBe(20_000);
      c.advance(20_000);
      expect(limiter.count(me)).toBe(0);
    });

    it('forging X-Forwarded-For does not help a scraper: the peer has 600 visits a minute', () => {
      const limiter = new ClientLimiter(policy, clock(1_700_000_080_000).now);
      const waits = Array.from({ length: 601 }, (_, i) => limiter.count(client(`192.0.2.${i % 250}.${i}`)));
      expect(waits.slice(0, 600).every((wait) => wait === 0)).toBe(true);
      expect(waits[600]).toBeGreaterThan(0);
    });
  });
});
