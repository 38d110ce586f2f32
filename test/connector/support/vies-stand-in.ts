import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * RITI art. 14: an intra-EU supply of goods is exempt (M16) only to a buyer with a valid VAT number
 * of another member state; CIVA art. 6(6)(a) likewise for reverse-charged services (M40). The
 * connector asks VIES when the tenant has a `vies` block. The stand-in below answers like the
 * Commission's REST service (POST check-vat-number): `{countryCode, vatNumber, valid, ...}`, or
 * `{actionSucceed: false, errorWrappers: [{error}]}` when a member state's registry is down.
 */
export interface StandIn {
  url: string;
  asked: { countryCode: string; vatNumber: string }[];
  valid: Set<string>;
  down: Set<string>;
  holdMs: number;
  close(): Promise<void>;
}

export async function startViesStandIn(): Promise<StandIn> {
  const state = { asked: [] as StandIn['asked'], valid: new Set<string>(), down: new Set<string>(), holdMs: 0 };
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const answer = (status: number, json: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(json));
      };
      const wanted = JSON.parse(body) as { countryCode: string; vatNumber: string };
      state.asked.push(wanted);
      const respond = () => {
        if (state.down.has(wanted.countryCode)) {
          answer(200, { actionSucceed: false, errorWrappers: [{ error: 'MS_UNAVAILABLE', message: 'The application at the Member State is not replying or not available.' }] });
          return;
        }
        const valid = state.valid.has(`${wanted.countryCode}${wanted.vatNumber}`);
        answer(200, { countryCode: wanted.countryCode, vatNumber: wanted.vatNumber, requestDate: new Date().toISOString(), valid, name: valid ? 'WEBER FOTOGRAFIE GMBH' : '---', address: valid ? 'TORSTRASSE 5, BERLIN' : '---' });
      };
      if (state.holdMs > 0) setTimeout(respond, state.holdMs);
      else respond();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/taxation_customs/vies/rest-api/check-vat-number`;
  return Object.assign(state, {
    url,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  }) as StandIn;
}

